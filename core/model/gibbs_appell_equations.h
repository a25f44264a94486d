// The Gibbs–Appell function of a system and its equations (seed 003 §7.2, eq. (17)), with
// GiNaC, for a Lagrangian quadratic in the velocities:
//
//   G_L(t, q, y, ẏ) = ½ (ẏ − a)ᵀ M (ẏ − a),   a = M⁻¹ F₀   (F₀ = F − Q: the unconstrained
//                                                          accelerations without the forces)
//
// On the constraint, A ẏ = b (theory §2) with the basis X_a of D (hamiltonian_equations.h):
// ẏ = X ẇ + ẏ_p, ẇ the accelerations of the independent velocities and ẏ_p solving A ẏ_p = b
// with 0 in the independent slots; G_L there is a function of ẇ, and the Gibbs–Appell
// equations ∂G_L/∂ẇ_I = Υ_I = X_Iᵀ Q are linear in ẇ (their matrix Xᵀ M X), solved here.
// The engine's gibbs-appell formulation (core/nh/gibbs_appell.cpp) solves the same equations
// numerically through a null space of A; the tests compare the solution with the explicit
// equations of the multipliers.
#pragma once

#include <ginac/ginac.h>

#include <atomic>
#include <string>
#include <vector>

#include "core/model/derived_equations.h"
#include "core/model/symbolic_equations.h"
#include "core/nh/system.h"

namespace nh::model {

struct GibbsAppellEquations {
  SymbolicEquations lagrangian;  // the derivation the expressions are written in
  bool formed = false;
  std::string notFormedBecause;              // when !formed
  std::vector<GiNaC::symbol> accelerations;  // m: ẏ
  std::vector<GiNaC::ex> freeAcceleration;   // m: a = M⁻¹ F₀
  GiNaC::ex function;                        // G_L(t, q, y, ẏ)
  std::vector<int> independent;              // the ẇ are the ẏ of these velocities
  std::vector<GiNaC::ex> onConstraint;       // m: ẏ = X ẇ + ẏ_p
  GiNaC::ex constrainedFunction;             // G_L on the constraint, of ẇ
  std::vector<GiNaC::ex> equations;          // d: ∂G_L/∂ẇ_I − Υ_I (= 0)
  std::vector<GiNaC::ex> solution;           // d: ẇ_I
};

// Throws InputError for a control model. `parameters` as for deriveSymbolic. Takes the GiNaC
// lock while it works; a caller keeps, copies and drops the result's expressions under it.
GibbsAppellEquations deriveGibbsAppellSymbolic(const SystemModel& system,
                                               const std::vector<double>& parameters = {});

// `nhsim equations --gibbs-appell`: G_L, G_L on the constraint, (17) and its solution.
// `cancel` as for deriveEquations.
DerivedEquations gibbsAppellEquations(const SystemModel& system,
                                      const std::vector<double>& parameters = {},
                                      const std::atomic<bool>* cancel = nullptr);

}  // namespace nh::model
// SPDX-License-Identifier: GPL-3.0-or-later
