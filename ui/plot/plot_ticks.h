// Axis ticks for the plots: steps of 1, 2 or 5 × 10ᵉ (Heckbert's "nice numbers", as
// matplotlib's MaxNLocator with steps [1, 2, 5, 10]), as many as the axis length allows but
// at least two, labelled alike on one axis (the same number of decimals on every label; a
// common power of ten and an offset, as matplotlib's ScalarFormatter, written once at the
// axis corner instead of a mix of "2e+01" and "40" or labels that all read "4.0008").
#pragma once

#include <QString>
#include <vector>

namespace nhui {

struct AxisTicks {
  std::vector<double> values;   // tick positions in data units, ascending, inside [lo, hi]
  std::vector<QString> labels;  // one per value: (value − offset) / 10^exponent
  double step = 0;
  double offset = 0;  // subtracted from every value before labelling
  int exponent = 0;   // labels are in units of 10^exponent
  // What the labels leave out, shown once at the axis corner: "×10⁻¹²", "offset +4.0008",
  // "×10⁻¹¹, offset −0.068" (a value is its label × the power of ten, plus the offset);
  // empty when the labels are the values.
  QString corner;
};

// Ticks for the range [lo, hi] (lo < hi, both finite): the largest 1-2-5 step giving no more
// than maxTicks ticks, or a smaller one when that would leave fewer than two. Bounded for any
// input: at most 2.5·maxTicks + 2 ticks (maxTicks taken as 2 … 1000), steps no finer than
// doubles resolve at the range's magnitude, none for a span outside 1e-300 … 1e305.
AxisTicks axisTicks(double lo, double hi, int maxTicks);

// How many ticks an axis of this length takes: one per pixelsPerTick, at least three.
int maxTicksForLength(double pixels, double pixelsPerTick);

// The smallest span autoscale shows around a value: kMinimumRelativeSpan × |value|, so that a
// conserved quantity whose samples differ by round-off draws as a flat line instead of
// magnified noise. Quantities around 0 (residuals, the energy error) keep their own scale.
constexpr double kMinimumRelativeSpan = 1e-9;
// The smallest span of all: a quantity that decays to 0 (the sleigh's knife-edge force)
// reaches numbers near the smallest doubles, whose spans no ticks or pixel scale resolve.
constexpr double kMinimumAbsoluteSpan = 1e-280;

// [lo, hi] widened about its centre to at least kMinimumRelativeSpan × max(|lo|, |hi|) and
// kMinimumAbsoluteSpan; a range that is exactly 0 becomes [−1, 1].
void widenToMinimumSpan(double& lo, double& hi);

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
