// Linearisation of the nonholonomic equations of motion at a state, on the constraint
// manifold and reduced (`nhsim linearize`).
//
// The Jacobian of the right-hand side ẋ = f(t, x), x = (q, y), is exact: the system's
// functions are recorded on a tape (symbolic.h), M, F, A, b and Φ and their first
// derivatives with respect to every q and y are compiled from it (equation_pieces.h), and the
// derivative of the solution of M ẏ − Aᵀλ = F, A ẏ = b follows from differentiating that
// linear system:
//   M dẏ − Aᵀ dλ = dF − dM ẏ + dAᵀ λ,   A dẏ = db − dA ẏ
// (stateJacobian and StateDerivatives, state_derivatives.h, give the Jacobian alone).
// The reduction keeps the coordinates the equations read and the independent velocities:
// cyclic coordinates (SystemInfo::cyclicCoordinates) are dropped, coordinates fixed by the
// holonomic constraints (dependentCoordinates, or chosen by pivoting) and the dependent
// velocities are expressed through the kept ones by the linearised constraints
// (G δq = 0, Φ_q δq + A δy = 0), and the reduced Jacobian is J_r = S J T, T the tangent
// map of that parametrisation and S the rows of the kept variables.
//
// An attitude quaternion that is not declared cyclic (the equations read it) is replaced by
// exponential coordinates of the group: q = exp(θ u/2) ⊗ q0 ⊗ exp(σ/2), σ the small body-frame
// rotations ξ1, ξ2, ξ3 about the directions the equations read, θ about a direction u they
// do not read, found on the Jacobian (its columns along the constraint manifold vanish, at
// the state and at a probe state with other velocities). That direction is dropped like a
// cyclic coordinate: for a body on a level plane it is the vertical (the heading), and a
// steady spin about it is a relative equilibrium, whose chart turns with the spin θ̇ (a term
// ½ θ̇ δσ × u in δσ̇ besides S J T).
#pragma once

#include <Eigen/Dense>
#include <complex>
#include <string>
#include <vector>

#include "core/nh/dynamics.h"

namespace nh {

struct Linearization {
  std::vector<std::string> variables;  // kept coordinates, chart ξ, velocities
  std::vector<int> stateIndex;         // their indices in x (−1: an attitude chart's ξ)
  Eigen::MatrixXd jacobian;            // reduced, variables × variables
  Eigen::VectorXd reducedRhs;          // S f: their rates (≈ 0 at a relative equilibrium)
  std::vector<std::complex<double>> eigenvalues;  // sorted by real part, then imaginary
  bool equilibrium = true;  // reducedRhs small (relative 1e-9 of the terms of f)
  // How much the kept rows move when a declared cyclic coordinate moves along the
  // constraint manifold, relative to the Jacobian's entries: ~1e-16 when the declaration
  // is right.
  double cyclicCoupling = 0;
};

// Linearises at (t, x), x on the constraint manifold. Throws InputError (saying why) when
// the equations read an attitude quaternion in one direction only, or only some of its
// components are declared cyclic, x is at one of the
// system's singular points, the constraints cannot be solved for the dependent velocities,
// or the equations are vakonomic.
Linearization linearize(const EquationsOfMotion& equations, double t, const std::vector<double>& x);

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
