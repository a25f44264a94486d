// The Veselova system as a model file (a rigid body about a fixed point whose angular velocity
// stays orthogonal to the vertical, ⟨ω, γ⟩ = 0): a linear constraint with coefficients
// rational in the attitude quaternion, for the suites of model files and the Hamiltonian side.
#pragma once

#include <string>

namespace nh::test {

inline const std::string kVeselovaModel = R"(format: nonholonomic-lab-system
version: 1
name: veselova
title: Veselova system (rigid body, omega orthogonal to the vertical)
description: >-
  A rigid body about a fixed point whose angular velocity must stay orthogonal to a direction
  fixed in space (the vertical): <omega, gamma> = 0 with gamma = R^T e_z. An LR system.
source: L. E. Veselova (1986); Fedorov & Jovanovic (2004), Nonholonomic LR systems as generalized Chaplygin systems
parameters:
  - {name: I1, default: 1.0, unit: kg·m², min: 0, min_exclusive: true}
  - {name: I2, default: 2.0, unit: kg·m², min: 0, min_exclusive: true}
  - {name: I3, default: 3.5, unit: kg·m², min: 0, min_exclusive: true}
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
  - {bracket: [w3, w1], equals: {w2: 1}}
definitions:
  qq: qw*qw + qx*qx + qy*qy + qz*qz
  g1: 2*(qx*qz - qw*qy)/qq
  g2: 2*(qy*qz + qw*qx)/qq
  g3: (qw*qw - qx*qx - qy*qy + qz*qz)/qq
lagrangian: 0.5*(I1*w1^2 + I2*w2^2 + I3*w3^2)
constraints:
  - w1*g1 + w2*g2 + w3*g3
outputs:
  F: (I1*w1)^2 + (I2*w2)^2 + (I3*w3)^2 - (I1*w1*g1 + I2*w2*g2 + I3*w3*g3)^2
  gnorm: g1^2 + g2^2 + g3^2
quaternions: [qw]
initial: {qw: 0.9, qx: 0.3, qy: 0.2, qz: 0.1, w1: 1.0, w2: -0.5, w3: 0.7}
independent: [w1, w2]
)";

}  // namespace nh::test
// SPDX-License-Identifier: GPL-3.0-or-later
