// Axis ticks (plot_ticks.h): the nice step for an axis length, and labels written alike, with
// a common power of ten and offset where the values need one.
#include "ui/plot/plot_ticks.h"

#include <QStringList>
#include <algorithm>
#include <cmath>
#include <limits>

namespace nhui {

namespace {

// An integer in superscript digits, as in "×10⁻¹²".
QString superscript(int n) {
  static const char16_t digits[] = u"⁰¹²³⁴⁵⁶⁷⁸⁹";
  const QString plain = QString::number(n);
  QString out;
  for (QChar c : plain) out += c == '-' ? QChar(u'⁻') : QChar(digits[c.digitValue()]);
  return out;
}

// Ticks k·step for integer k inside [lo, hi], counted without building them. The small
// tolerance keeps a tick that lies on an end up to rounding.
double tickCount(double lo, double hi, double step) {
  return std::floor(hi / step + 1e-9) - std::ceil(lo / step - 1e-9) + 1;
}

// A number without trailing zeros after its decimal point ("4.00080" → "4.0008").
QString trimmed(QString s) {
  if (s.contains('.') && !s.contains('e')) {
    while (s.endsWith('0')) s.chop(1);
    if (s.endsWith('.')) s.chop(1);
  }
  return s;
}

QString fixed(double v, int decimals) {
  QString s = QString::number(v, 'f', decimals);
  // "-0", "-0.00": a zero that rounding left a sign on.
  bool allZero = true;
  for (QChar c : s)
    if (c != '-' && c != '0' && c != '.') allZero = false;
  if (allZero && s.startsWith('-')) s.remove(0, 1);
  return s;
}

}  // namespace

int maxTicksForLength(double pixels, double pixelsPerTick) {
  if (!(pixelsPerTick > 0) || !(pixels > 0)) return 3;
  return std::max(3, static_cast<int>(pixels / pixelsPerTick));
}

void widenToMinimumSpan(double& lo, double& hi) {
  const double magnitude = std::max(std::abs(lo), std::abs(hi));
  if (magnitude == 0) {
    lo = -1;
    hi = 1;
    return;
  }
  const double minimum = std::max(kMinimumRelativeSpan * magnitude, kMinimumAbsoluteSpan);
  if (hi - lo >= minimum) return;
  const double centre = 0.5 * (lo + hi);
  lo = centre - 0.5 * minimum;
  hi = centre + 0.5 * minimum;
}

namespace {

// A number written with the significant digits down to 10^last (last ≤ its leading power):
// plainly below 10^15 and above 10^-3, else as "5×10²⁹" or "1.2345×10⁻¹⁷"; never the 17
// digits of a binary round-off ("5.0000000000000001e+29").
QString significant(double v, int lead, int last) {
  if (lead >= 15 || lead < -3) {
    const QString mantissa =
        trimmed(QString::number(v / std::pow(10.0, lead), 'f', std::clamp(lead - last, 0, 16)));
    return mantissa + QStringLiteral("×10") + superscript(lead);
  }
  return trimmed(QString::number(v, 'f', std::max(0, -last)));
}

}  // namespace

AxisTicks axisTicks(double lo, double hi, int maxTicks) {
  AxisTicks out;
  const double span = hi - lo;
  if (!std::isfinite(lo) || !std::isfinite(hi) || !(hi > lo) || !std::isfinite(span)) return out;
  // Steps and their powers of ten stay normal numbers.
  if (span < 1e-300 || span > 1e305) return out;
  maxTicks = std::clamp(maxTicks, 2, 1000);
  const double magnitude = std::max(std::abs(lo), std::abs(hi));
  // Steps below what doubles resolve at this magnitude would give ticks that round onto
  // one another (and a loop over them without end): the step is at least a few ulps.
  const double finest = magnitude * 8 * std::numeric_limits<double>::epsilon();
  // Candidate steps m·10^e in increasing order, from below span/maxTicks; the first that
  // gives no more than maxTicks ticks, or the one before it when that leaves fewer than two.
  // Counting with doubles is inexact far from 0; the search goes on to coarser steps until
  // the count fits, so the number of ticks is bounded whatever the range.
  const int e0 = static_cast<int>(std::floor(std::log10(span / maxTicks))) - 1;
  const int mantissas[] = {1, 2, 5};
  int mantissa = 1, e = e0;
  int prevMantissa = 0, prevE = 0;
  double prevCount = 0;
  bool found = false;
  for (int ee = e0; ee <= 310 && !found; ++ee)
    for (int m : mantissas) {
      const double step = m * std::pow(10.0, ee);
      if (!std::isfinite(step)) break;
      if (step < finest) continue;
      const double count = tickCount(lo, hi, step);
      if (count <= maxTicks) {
        mantissa = m;
        e = ee;
        // Fewer than two: the finer step, when its count is sane (at most 2.5 times more).
        if (count < 2 && prevMantissa != 0 && prevCount <= 2.5 * maxTicks + 2) {
          mantissa = prevMantissa;
          e = prevE;
        }
        found = true;
        break;
      }
      prevMantissa = m;
      prevE = ee;
      prevCount = count;
    }
  if (!found) return out;
  const double unit = std::pow(10.0, e);  // labels are exact multiples of it
  out.step = mantissa * unit;
  const double kFirst = std::ceil(lo / out.step - 1e-9), kLast = std::floor(hi / out.step + 1e-9);
  const int count = static_cast<int>(std::clamp(kLast - kFirst + 1, 0.0, 2.5 * maxTicks + 2));

  // An offset when the span is tiny beside the values (matplotlib's offset threshold: four
  // or more leading digits shared by every tick): the values rounded to a power of ten above
  // the span, so that labels keep only the digits that differ.
  int q = 0;
  if (magnitude / span >= 1e4) {
    q = static_cast<int>(std::floor(std::log10(span))) + 1;
    const double block = std::pow(10.0, q);
    out.offset = std::round(0.5 * (lo + hi) / block) * block;
  }
  // Tick values relative to the offset, as whole numbers of `unit`: the difference of two
  // close doubles is exact, and rounding removes what the products added.
  std::vector<double> units;
  for (int i = 0; i < count; ++i) {
    const double v = (kFirst + i) * out.step;
    if (!out.values.empty() && !(v > out.values.back())) continue;  // rounded onto the last
    out.values.push_back(v);
    units.push_back(std::round((v - out.offset) / unit));
  }
  double largest = 0;
  for (double u : units) largest = std::max(largest, std::abs(u) * unit);

  // Plain decimals for 0.001 ≤ |label| < 10⁵, else a power of ten common to all labels.
  const bool scientific = largest != 0 && (largest >= 1e5 || largest < 1e-3);
  if (scientific) {
    out.exponent = static_cast<int>(std::floor(std::log10(largest) + 1e-12));
    const int decimals = std::clamp(out.exponent - e, 0, 17);
    for (double u : units)
      out.labels.push_back(fixed(u * std::pow(10.0, e - out.exponent), decimals));
  } else {
    const int decimals = std::clamp(-e, 0, 17);
    for (double u : units) out.labels.push_back(fixed(u * unit, decimals));
  }

  QStringList corner;
  if (out.exponent != 0) corner << QStringLiteral("×10") + superscript(out.exponent);
  if (out.offset != 0) {
    // The offset's digits down to its block 10^q: those that the ticks share.
    const int lead = static_cast<int>(std::floor(std::log10(std::abs(out.offset)) + 1e-12));
    // Named and signed, with a true minus: "×10⁻¹¹ -0.068" read as a subtraction from the
    // power of ten.
    QString digits = significant(out.offset, lead, std::min(q, lead));
    digits = digits.startsWith('-') ? QStringLiteral("\u2212") + digits.mid(1) : "+" + digits;
    corner << QStringLiteral("offset ") + digits;
  }
  out.corner = corner.join(QStringLiteral(", "));
  return out;
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
