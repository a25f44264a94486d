// Attitude helpers shared by systems with rotating bodies: the anchor of a unit quaternion
// driven by an angular velocity, and the structure constants of so(3).
#pragma once

#include <Eigen/Geometry>

namespace nh {

// Writes into rho (n rows, col-major) the rows quat..quat+3 and columns w..w+2 of
//   q̇ = ½ (0, ω) ⊗ q   (spaceFrame: ω in the space frame)  or
//   q̇ = ½ q ⊗ (0, ω)   (body frame),
// with q = (w, x, y, z) = q[quat..quat+3] and ω = y[w..w+2].
template <class S>
void quaternionAnchor(const S* q, S* rho, int n, int quat, int w, bool spaceFrame) {
  const S& qw = q[quat];
  const S& qx = q[quat + 1];
  const S& qy = q[quat + 2];
  const S& qz = q[quat + 3];
  const double sgn = spaceFrame ? 1.0 : -1.0;  // the cross-product part flips sign
  auto at = [&](int row, int col) -> S& { return rho[(quat + row) + n * (w + col)]; };
  at(0, 0) = -0.5 * qx;
  at(0, 1) = -0.5 * qy;
  at(0, 2) = -0.5 * qz;
  at(1, 0) = 0.5 * qw;
  at(1, 1) = sgn * 0.5 * qz;
  at(1, 2) = -sgn * 0.5 * qy;
  at(2, 0) = -sgn * 0.5 * qz;
  at(2, 1) = 0.5 * qw;
  at(2, 2) = sgn * 0.5 * qx;
  at(3, 0) = sgn * 0.5 * qy;
  at(3, 1) = -sgn * 0.5 * qx;
  at(3, 2) = 0.5 * qw;
}

// C^γ_{αβ} = sign·ε_{αβγ} on the block of velocities first..first+2 (m velocities in all).
// sign = +1 for body-frame angular velocity (left-invariant fields), −1 for space frame.
inline void so3Structure(double* C, int m, int first, double sign) {
  for (int a = 0; a < 3; ++a) {
    const int b = (a + 1) % 3, g = (a + 2) % 3;  // (a, b, g) an even permutation
    C[(first + g) + m * ((first + a) + m * (first + b))] = sign;
    C[(first + g) + m * ((first + b) + m * (first + a))] = -sign;
  }
}

inline Eigen::Quaterniond quaternionAt(const double* q, int first) {
  return Eigen::Quaterniond(q[first], q[first + 1], q[first + 2], q[first + 3]).normalized();
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
