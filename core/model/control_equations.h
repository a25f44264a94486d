// Pontryagin's equations of a control model (core/nh/optimal_control.h) as GiNaC expressions,
// with the model's parameters as symbols and the costate ξ_<velocity> as symbols:
//
//   H = ξ_i f^i − L,
//   (5.6)  q̇^a = ρ^a_i f^i,
//   (5.7)  ξ̇_j = C^k_ij f^i ξ_k + ρ^a_j (∂L/∂q^a − ξ_i ∂f^i/∂q^a),
//   (5.8)  0 = ∂L/∂u − ξ_i ∂f^i/∂u,
//
// with [e_i, e_j] = C^k_ij e_k, and where (5.8) is linear in u with an invertible coefficient
// matrix, its solution u = u(q, ξ) and the extremal equations with it substituted.
// derived_equations.h typesets them; tests compare them with hand-derived ones.
#pragma once

#include <ginac/ginac.h>

#include <string>
#include <vector>

#include "core/model/symbolic_equations.h"
#include "core/nh/system.h"

namespace nh::model {

struct ControlEquations {
  // t, q, the velocities y (which name the entries of f), the parameters, ρ (n×m) and C.
  SymbolicEquations geometry;
  std::vector<GiNaC::symbol> u;   // the controls
  std::vector<GiNaC::symbol> xi;  // m costates ξ_<velocity>, named "ξ_" + the velocity
  GiNaC::lst order;               // u, ξ, q: the variables simplified expressions are collected by

  std::vector<GiNaC::ex> f;  // m: the control section, velocity = f(t, q, u)
  GiNaC::ex cost;            // L(t, q, u)
  GiNaC::ex hamiltonian;     // ξ·f − L

  std::vector<GiNaC::ex> qdot;          // n: (5.6)
  std::vector<GiNaC::ex> xidot;         // m: (5.7)
  std::vector<GiNaC::ex> stationarity;  // one per control: (5.8), the expression that is 0

  // (5.8) solved for u when it is linear in u with an invertible coefficient matrix.
  bool solved = false;
  std::vector<GiNaC::ex> control;          // u(t, q, ξ), one per control
  std::vector<GiNaC::ex> qdotOf, xidotOf;  // (5.6) and (5.7) with u = u(t, q, ξ)
  std::string notSolvedBecause;            // when !solved

  std::vector<std::string> notes;
  bool derived = true;  // false: not a model file (nothing derived; the notes say why)
};

// Derives the equations of a control model (system.info().isControlModel()). Not thread-safe
// (GiNaC is not): one caller at a time.
ControlEquations deriveControlSymbolic(const SystemModel& system);

}  // namespace nh::model
// SPDX-License-Identifier: GPL-3.0-or-later
