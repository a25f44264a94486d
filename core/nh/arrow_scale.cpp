// ArrowScale (arrow_scale.h): an arrow's scale stepped frame by frame.
#include "core/nh/arrow_scale.h"

#include <algorithm>
#include <cmath>

namespace nh {

namespace {

// Magnitudes below this fraction of the largest one an arrow has shown (or of 1e-3 in its
// unit if it never showed more) are round-off of an exactly zero vector: not drawn, and no
// scale is taken from them (the sleigh's zero force computes as ~1e-21 N).
constexpr double kZeroFraction = 1e-9;
constexpr double kSmallestCharacteristic = 1e-3;

}  // namespace

double niceCeil(double v) {
  if (!(v > 0) || !std::isfinite(v)) return 1;
  const double p = std::pow(10.0, std::floor(std::log10(v)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p >= v * (1 - 1e-12)) return m * p;
  return 10 * p;
}

bool ArrowScale::step(double magnitude, bool fixed, double fixedValue) {
  const bool finite = std::isfinite(magnitude);
  const double zero = kZeroFraction * std::max(largest, kSmallestCharacteristic);
  const bool isZero = !finite || magnitude <= zero;
  if (finite && !isZero) largest = std::max(largest, magnitude);
  if (fixed && fixedValue > 0) {
    reference = fixedValue;
  } else if (fixed && reference > 0) {
    // Fixed without a value: the scale the arrow had when it was fixed, through edits and
    // restarts, unless a new run's vectors would be drawn absurdly with it (a hundred
    // reference lengths, or a thousandth of one: after an extreme start).
    if (recheck && !isZero) {
      recheck = false;
      if (magnitude > 100 * reference || magnitude < reference / 1000)
        reference = niceCeil(magnitude);
    }
  } else if (!isZero) {
    // The scale changes in 1-2-5 steps only when a vector outgrows it or stays far below it
    // for two seconds of frames; it never drops below 1 % of the largest magnitude shown.
    if (magnitude > reference) {
      reference = niceCeil(magnitude);
      quietFrames = 0;
    } else if (magnitude < 0.1 * reference) {
      if (++quietFrames > 120) {
        reference = std::max(niceCeil(magnitude), niceCeil(1e-2 * largest));
        quietFrames = 0;
      }
    } else {
      quietFrames = 0;
    }
  }
  return !isZero && reference > 0;
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
