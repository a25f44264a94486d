// The test that a reference frame lies on the constraints at one (t, q) (frame_residual.h).
#include "core/nh/frame_residual.h"

#include <algorithm>
#include <cmath>

#include "core/nh/dynamics.h"

namespace nh {

FrameResidual frameResidual(const SystemModel& system, const double* p, double t, const double* q,
                            const double* gamma) {
  VecK phi = VecK::Zero(system.constraintsTotal());
  system.constraints(p, t, q, gamma, phi.data());
  FrameResidual r;
  for (int c = 0; c < system.constraintsTotal(); ++c) {
    if (!std::isfinite(phi[c])) {
      r.largest = std::nan("");
      r.holds = false;
      return r;
    }
    if (std::abs(phi[c]) > r.largest) {
      r.largest = std::abs(phi[c]);
      r.worst = c;
    }
  }
  double scale = 1;
  for (int a = 0; a < system.m(); ++a) scale = std::max(scale, std::abs(gamma[a]));
  r.holds = r.largest <= kFrameResidualTolerance * scale;
  return r;
}

std::string frameConstraintName(const SystemModel& system, int index) {
  const int k = system.k();
  return index < k ? "constraints[" + std::to_string(index + 1) + "]"
                   : "the rate of holonomic[" + std::to_string(index - k + 1) + "]";
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
