#include "ui/plot/plot_ticks.h"

#include <QStringList>
#include <algorithm>
#include <cmath>

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
  const double minimum = kMinimumRelativeSpan * magnitude;
  if (hi - lo >= minimum) return;
  const double centre = 0.5 * (lo + hi);
  lo = centre - 0.5 * minimum;
  hi = centre + 0.5 * minimum;
}

AxisTicks axisTicks(double lo, double hi, int maxTicks) {
  AxisTicks out;
  if (!std::isfinite(lo) || !std::isfinite(hi) || !(hi > lo)) return out;
  maxTicks = std::max(2, maxTicks);
  const double span = hi - lo;
  // Candidate steps m·10^e in increasing order, from below span/maxTicks; the first that
  // gives no more than maxTicks ticks, or the one before it when that leaves fewer than two.
  const int e0 = static_cast<int>(std::floor(std::log10(span / maxTicks))) - 1;
  const int mantissas[] = {1, 2, 5};
  int mantissa = 1, e = e0;
  int prevMantissa = 0, prevE = 0;
  bool found = false;
  for (int ee = e0; ee <= e0 + 3 && !found; ++ee)
    for (int m : mantissas) {
      const double step = m * std::pow(10.0, ee);
      if (tickCount(lo, hi, step) <= maxTicks) {
        mantissa = m;
        e = ee;
        if (tickCount(lo, hi, step) < 2 && prevMantissa != 0) {
          mantissa = prevMantissa;
          e = prevE;
        }
        found = true;
        break;
      }
      prevMantissa = m;
      prevE = ee;
    }
  const double unit = std::pow(10.0, e);  // labels are exact multiples of it
  out.step = mantissa * unit;
  const double kFirst = std::ceil(lo / out.step - 1e-9), kLast = std::floor(hi / out.step + 1e-9);

  // An offset when the span is tiny beside the values (matplotlib's offset threshold: four
  // or more leading digits shared by every tick): the values rounded to a power of ten above
  // the span, so that labels keep only the digits that differ.
  const double magnitude = std::max(std::abs(lo), std::abs(hi));
  long long offsetUnits = 0;  // the offset in units of `unit`
  if (magnitude / span >= 1e4) {
    const int q = static_cast<int>(std::floor(std::log10(span))) + 1;
    const double block = std::pow(10.0, q);
    out.offset = std::round(0.5 * (lo + hi) / block) * block;
    offsetUnits = std::llround(std::round(0.5 * (lo + hi) / block) * std::pow(10.0, q - e));
  }
  // Tick values relative to the offset, as integers of `unit` (exact in a double up to 2^53).
  std::vector<double> units;
  for (double k = kFirst; k <= kLast; ++k) {
    out.values.push_back(k * out.step);
    units.push_back(k * mantissa - static_cast<double>(offsetUnits));
  }
  double largest = 0;
  for (double u : units) largest = std::max(largest, std::abs(u) * unit);

  // Plain decimals for 0.001 ≤ |label| < 10⁵, else a power of ten common to all labels.
  const bool scientific = largest != 0 && (largest >= 1e5 || largest < 1e-3);
  if (scientific) {
    out.exponent = static_cast<int>(std::floor(std::log10(largest) + 1e-12));
    const int decimals = std::max(0, out.exponent - e);
    for (double u : units)
      out.labels.push_back(fixed(u * std::pow(10.0, e - out.exponent), decimals));
  } else {
    const int decimals = std::max(0, -e);
    for (double u : units) out.labels.push_back(fixed(u * unit, decimals));
  }

  QStringList corner;
  if (out.exponent != 0) corner << QStringLiteral("×10") + superscript(out.exponent);
  if (out.offset != 0) {
    const int q = static_cast<int>(std::floor(std::log10(span))) + 1;
    const int lead = static_cast<int>(std::floor(std::log10(std::abs(out.offset))));
    QString digits;
    if (std::abs(out.offset) >= 1e15 || q > 0) {
      digits = QString::number(out.offset, 'g', 17);
    } else if (lead < -3) {
      // A tiny offset (a residual that is constant to rounding) in powers of ten, with the
      // digits down to the span: "+2.8×10⁻¹⁷", not "+0.000000000000000028".
      const QString leading =
          trimmed(QString::number(out.offset / std::pow(10.0, lead), 'f', std::max(0, lead - q)));
      digits = leading + QStringLiteral("×10") + superscript(lead);
    } else {
      digits = trimmed(QString::number(out.offset, 'f', std::max(0, -q)));
    }
    corner << (out.offset > 0 ? QStringLiteral("+") : QString()) + trimmed(digits);
  }
  out.corner = corner.join(' ');
  return out;
}

}  // namespace nhui
