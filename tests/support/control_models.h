// Two control models as model-file text, shared by the suites of the solver and of the
// derived Pontryagin's equations (tests/core/nh/optimal_control_test.cpp,
// tests/core/model/control_equations_test.cpp).
#pragma once

namespace nh::test {

// Brockett's integrator: ẋ = u1, ẏ = u2, ż = x u2 − y u1 at the cost (u1² + u2²)/2.
inline const char* const kBrockettModel = R"(format: nonholonomic-lab-system
version: 1
name: brockett
coordinates: [x, y, z]
velocities: [vx, vy, vz]
controls: [u1, u2]
control_section: {vx: u1, vy: u2, vz: x*u2 - y*u1}
cost: 0.5*(u1*u1 + u2*u2)
)";

// A rigid body turned by its body angular velocity ω = u, the attitude as a quaternion, at
// the cost (I1 u1² + I2 u2² + I3 u3²)/2 (defaults I = 1: the closed form of the geodesic).
inline const char* const kRigidBodyControlModel = R"(format: nonholonomic-lab-system
version: 1
name: rigid_body_control
parameters:
  - {name: I1, default: 1.0}
  - {name: I2, default: 1.0}
  - {name: I3, default: 1.0}
coordinates: [qw, qx, qy, qz]
velocities: [w1, w2, w3]
anchor:
  qw: -0.5*qx*w1 - 0.5*qy*w2 - 0.5*qz*w3
  qx: 0.5*qw*w1 - 0.5*qz*w2 + 0.5*qy*w3
  qy: 0.5*qz*w1 + 0.5*qw*w2 - 0.5*qx*w3
  qz: -0.5*qy*w1 + 0.5*qx*w2 + 0.5*qw*w3
structure:
  - {bracket: [w1, w2], equals: {w3: 1}}
  - {bracket: [w2, w3], equals: {w1: 1}}
  - {bracket: [w1, w3], equals: {w2: -1}}
controls: [u1, u2, u3]
control_section: {w1: u1, w2: u2, w3: u3}
cost: 0.5*(I1*u1*u1 + I2*u2*u2 + I3*u3*u3)
initial: {qw: 1}
quaternions: [qw]
)";

}  // namespace nh::test
// SPDX-License-Identifier: GPL-3.0-or-later
