// The Hamiltonian side of a system (theory §9) as GiNaC expressions: the Legendre transform
// and the nonholonomic (almost-Poisson) bracket on the constraint.
//
//   p = ∂L/∂y = M y + p0,  y = M⁻¹(p − p0),  H(t, q, p) = p·y − L  (L quadratic in y);
//   D = ker A with the basis X_a (a = 1..m − k − h): 1 in the a-th independent velocity, the
//   dependent ones solved from A X_a = 0; y = X v + y0 on the constraint (A y0 = −a for
//   Φ = A y + a(t, q), y0 = 0 for linear constraints); constrained momenta π_a = ⟨p, X_a⟩;
//   on M* = Leg(constraint) the coordinates (q, π), with p(t, q, π) from π = Xᵀ(M y + p0);
//
//   {q^i, q^j} = 0,  {q^i, π_a} = (ρ X_a)^i = −{π_a, q^i},
//   {π_a, π_b} = ⟨p(q, π), [X_b, X_a]_E⟩  (= −⟨p, [X_a, X_b]_E⟩ for a skew bracket),
//   [X, Y]_E^γ = ρ(X)(Y^γ) − ρ(Y)(X^γ) + C^γ_{αβ} X^α Y^β,
//
// extended to all functions of (q, π) by Leibniz: {F, G} = ∂F/∂z^I Λ^{IJ} ∂G/∂z^J, and, for
// a skew bracket, its Jacobiator J(f, g, h) = {{f, g}, h} + {{g, h}, f} + {{h, f}, g} on
// every triple of the coordinates. Without constraints π = p and the bracket is the
// algebroid's linear bracket {p_α, p_β} = C^γ_{βα} p_γ (= −C^γ_{αβ} p_γ when skew), whose
// ṗ = {p, H} are the unconstrained equations. A general algebroid's bracket is not skew:
// then {π_a, π_b} ≠ −{π_b, π_a} and {π_a, π_a} ≠ 0 are formed too, and no Jacobiator.
// For affine or time-dependent constraints ż = {z, H} on (q, π) is not the motion: the
// bracket of seed 002 (affine_bracket.h) with its time and ψ terms is formed beside it.
// derived_equations.h typesets it; tests compare it with hand-derived brackets.
#pragma once

#include <ginac/ginac.h>

#include <string>
#include <vector>

#include "core/model/affine_bracket.h"
#include "core/model/symbolic_equations.h"
#include "core/nh/system.h"

namespace nh::model {

// J(z^i, z^j, z^l) ≠ 0 for the coordinates z = (q, π), i < j < l.
struct JacobiatorEntry {
  int i = 0, j = 0, l = 0;
  GiNaC::ex value;
};

struct HamiltonianEquations {
  SymbolicEquations lagrangian;  // the system's derivation: t, q, y, ρ, C, L, Φ, M, A
  std::vector<GiNaC::symbol> p;  // m momenta p_<velocity>
  GiNaC::lst order;  // π, p, then q: the variables simplified expressions are collected by

  // The Legendre transform, when L is quadratic in y with an invertible M.
  bool legendre = false;
  std::string noLegendreBecause;             // when !legendre
  std::vector<GiNaC::ex> momentum;           // m: p = ∂L/∂y in (t, q, y)
  std::vector<GiNaC::ex> velocityOfMomenta;  // m: y = M⁻¹(p − p0)
  GiNaC::ex hamiltonian;                     // H(t, q, p)

  // The bracket on the constraint, when the constraints are affine in y and solved for the
  // dependent velocities.
  bool bracket = false;
  std::string noBracketBecause;           // when !bracket
  bool constrained = false;               // k + h > 0 (else π = p and X = identity)
  std::vector<int> independent;           // d velocity indices: π_a belongs to independent[a]
  std::vector<GiNaC::symbol> pi;          // d constrained momenta π_<independent velocity>
  std::vector<std::vector<GiNaC::ex>> X;  // d × m: the basis X_a of D in the e_α
  std::vector<GiNaC::ex> particular;      // m: y0(t, q)
  std::vector<GiNaC::ex> momentumOnConstraint;  // m: p(t, q, π)
  GiNaC::ex constrainedHamiltonian;             // H(t, q, p(t, q, π))
  std::vector<GiNaC::symbol> z;                 // n + d: the coordinates q, then π
  GiNaC::matrix Lambda;                         // (n + d)²: Λ^{IJ} = {z^I, z^J}
  bool skew = true;                             // Λ = −Λᵀ (false: a general algebroid's)
  std::vector<JacobiatorEntry> jacobiator;      // the nonzero entries (skew only)

  // The bracket on (q, p) restricted to the constraint (affine_bracket.h), whose ψ and time
  // terms give the motion for affine and time-dependent constraints: formed here for those
  // (constraints affine in y, with the Legendre transform); affineBracketOf forms it for any.
  AffineBracket affine;

  std::vector<std::string> notes;
  bool derived = true;  // false: nothing derived (a C++ system that cannot be taped)
};

// Derives the Legendre transform and the bracket. `parameters` as for deriveSymbolic. Not
// thread-safe (GiNaC is not): one caller at a time.
HamiltonianEquations deriveHamiltonianSymbolic(const SystemModel& system,
                                               const std::vector<double>& parameters = {});

// The bracket of sections of e's system (affine_bracket.h), for linear constraints too; not
// formed without the Legendre transform. Takes the GiNaC lock.
AffineBracket affineBracketOf(const HamiltonianEquations& e);

// {F, G} = ∂F/∂z^I Λ^{IJ} ∂G/∂z^J for functions F, G of (t, q, π), not simplified; needs
// e.bracket.
GiNaC::ex bracketOf(const HamiltonianEquations& e, const GiNaC::ex& F, const GiNaC::ex& G);

}  // namespace nh::model
// SPDX-License-Identifier: GPL-3.0-or-later
