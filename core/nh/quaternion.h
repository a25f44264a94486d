// Unit length of attitude quaternions, as the start of a run and drift control give it.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

namespace nh {

// Scales the quaternion q[0..3] to unit length, through its largest component first so that
// neither 1e200 nor 1e-200 under- or overflows the norm. One of unit length to rounding
// (|‖q‖² − 1| ≤ 8ε) is left as it is: normalising twice moves no bit, so a start saved after
// normalising runs as the run it came from. A zero or non-finite quaternion is left as it is.
inline void normaliseQuaternion(double* q) {
  const double largest = std::max({std::abs(q[0]), std::abs(q[1]), std::abs(q[2]), std::abs(q[3])});
  if (!(largest > 0) || !std::isfinite(largest)) return;
  const double norm2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
  if (std::abs(norm2 - 1) <= 8 * std::numeric_limits<double>::epsilon()) return;
  for (int i = 0; i < 4; ++i) q[i] /= largest;
  const double norm = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (int i = 0; i < 4; ++i) q[i] /= norm;
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
