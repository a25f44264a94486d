// The algebroid of a system's constraints and whether they are holonomic (seed 000 Example 2,
// eq. (3.10), Theorem 7; theory §10), with GiNaC.
//
// The constraints Φ = A(t, q) y + a(t, q) = 0 (the velocity form ġ of holonomic ones
// included) cut out the affine subbundle y = y0 + X v of E, modelled on D = ker A with the
// basis X_a of hamiltonian_equations.h. D carries
//   the anchor ρ_D(X_a) = ρ X_a and
//   the projected bracket [X_a, X_b]_D = C^c_ab X_c, the M-orthogonal projection of the
//   algebroid's [X_a, X_b]_E = ρ(X_a)(X_b) − ρ(X_b)(X_a) + C(X_a, X_b) onto D (Example 2: for
//   L = ½ yᵀ M y − V and linear constraints on a skew algebroid, the Euler–Lagrange equations of
//   this skew algebroid are the nonholonomic ones, (3.10)).
// Theorem 7: a linear constraint is holonomic iff D is closed under the bracket (a
// subalgebroid: A [X_a, X_b]_E = 0 for all a, b); an affine or time-dependent one iff besides
// the affine section e0 = ∂/∂t + y0 brackets into D, A (∂X_a/∂t + [y0, X_a]_E) = 0: then the
// constraint is a Lie affgebroid. A bracket that leaves D is printed with A of it. Theorem 7
// needs a skew bracket: a general algebroid (`skew: false`) gets no verdict.
#pragma once

#include <ginac/ginac.h>

#include <string>
#include <vector>

#include "core/model/derived_equations.h"
#include "core/model/symbolic_equations.h"
#include "core/nh/system.h"

namespace nh::model {

struct HamiltonianEquations;  // hamiltonian_equations.h

// [U, V]_E^γ = ρ(U)(V^γ) − ρ(V)(U^γ) + C^γ_αβ U^α V^β for sections U, V of (t, q) (not
// simplified).
std::vector<GiNaC::ex> algebroidBracketOf(const SymbolicEquations& s,
                                          const std::vector<GiNaC::ex>& U,
                                          const std::vector<GiNaC::ex>& V);

struct ConstrainedBracket {
  int a = -1, b = 0;                 // a = −1: the affine section e0 = ∂/∂t + y0
  std::vector<GiNaC::ex> value;      // m: the bracket in the e_α
  std::vector<GiNaC::ex> projected;  // d: C^c_ab, its projection onto D in the X_c
  std::vector<GiNaC::ex> outside;    // k + h: A times the bracket (all 0 iff it is in D)
  bool inD = true;
};

struct ConstrainedAlgebroid {
  SymbolicEquations lagrangian;  // the derivation the expressions are written in
  bool formed = false;
  std::string notFormedBecause;                // when !formed
  std::vector<std::string> velocityNames;      // of E
  std::vector<int> independent;                // X_a is 1 in velocity independent[a]
  std::vector<std::vector<GiNaC::ex>> X;       // d × m
  std::vector<GiNaC::ex> particular;           // m: y0
  std::vector<std::vector<GiNaC::ex>> anchor;  // d × n: ρ X_a
  bool affine = false, timeDependent = false;
  std::vector<ConstrainedBracket> brackets;  // a < b, then the affine section's
  bool holonomic = false;
  std::string verdict;  // one line: holonomic or not, and why
};

// Throws InputError for a control model (it has no constraints of this kind). `parameters` as
// for deriveSymbolic. Takes the GiNaC lock while it works; GiNaC's reference counts are not
// atomic, so a caller keeps, copies and drops the result's expressions under that lock too.
ConstrainedAlgebroid deriveConstrainedAlgebroid(const SystemModel& system,
                                                const std::vector<double>& parameters = {});

// The same from the system's Hamiltonian side derived already (its basis X_a and y0).
ConstrainedAlgebroid constrainedAlgebroidOf(const HamiltonianEquations& e,
                                            const SystemModel& system,
                                            const std::vector<double>& parameters = {});

// The blocks of `g` (the basis of D among them when `withBasis`), its verdict last.
std::vector<EquationBlock> constrainedAlgebroidBlocks(const ConstrainedAlgebroid& g,
                                                      bool withBasis);

// The blocks `nhsim info --constraints` shows: the basis of D, its
// anchor, the projected bracket, the brackets that leave D, and the verdict (as summary).
DerivedEquations constrainedAlgebroidEquations(const SystemModel& system,
                                               const std::vector<double>& parameters = {});

}  // namespace nh::model
// SPDX-License-Identifier: GPL-3.0-or-later
