// The nonholonomic bracket of affine and time-dependent constraints (seed 002 §V, Theorem V.8,
// eq. (86); theory §9), on the momenta E* with coordinates z = (q, p), restricted to the
// Legendre image of the constraint B̄ = {ψ = 0}:
//
//   ψ^a(t, q, p) = Φ^a(t, q, y(t, q, p))                       (the constraints on E*, (55))
//   Z̄_a = −𝓗^{αβ} ∂ψ^a/∂p_β ∂/∂p_α,  𝓗 = M = (∂²H/∂p∂p)⁻¹       (their forces, (59))
//   𝒞^{ab} = −∂ψ^a/∂p_α 𝓗^{αβ} ∂ψ^b/∂p_β  (= −A M⁻¹ Aᵀ)          (regularity, (60))
//   P = Id − 𝒞_ab Z̄_a ⊗ dψ^b     (the projector of §IV that VI.3 prints, carried to E*: it
//                                 agrees with (76)–(78)'s on the dynamics, not on every vector)
//   λ̄_a = −𝒞_ab (∂ψ^b/∂t + {ψ^b, H} + Q_β ∂ψ^b/∂p_β)             (ψ̇ = 0 along the motion)
//
// with {·,·} the algebroid's linear bracket on E*: {q^i, p_α} = ρ^i_α, {p_α, p_β} = C^γ_βα p_γ
// (the sign that makes ṗ = {p, H} the engine's F; hamiltonian_equations.h). The evolution of
// any function f(t, q, p) on B̄ is
//
//   ḟ = ∂f/∂t + {f, H} + Q_α ∂f/∂p_α + λ̄_a Z̄_a(f),
//
// which, without forces (Q = 0), is {h + f, h}_nh, the bracket of two sections (the paper's
// explicit-t affgebroid, ρ0 = ∂/∂t, C0 = 0; the formula after (92)) for H' = H + f, H'' = H.
// (Theorem V.8(b) writes ḟ = {h̄, f̄}, which by that local formula is −ḟ; the project follows
// the local formula.)
//
//   {h', h''}_nh = ∂(H' − H'')/∂t + {H', H''}
//                  + 𝒞_ab 𝒞_cd {ψ^b, ψ^d} Z̄_a(H' − H) Z̄_c(H'' − H)
//                  − 𝒞_ab (∂ψ^b/∂t + {ψ^b, H''}) Z̄_a(H' − H)
//                  + 𝒞_ab (∂ψ^a/∂t + {ψ^a, H'}) Z̄_b(H'' − H).
//
// Formed for any constraint affine in y with L quadratic in y; linear constraints give the
// same motion with ∂ψ/∂t = 0 (and the bracket of (q, π) in hamiltonian_equations.h).
#pragma once

#include <ginac/ginac.h>

#include <string>
#include <vector>

#include "core/model/symbolic_equations.h"

namespace nh::model {

struct AffineBracket {
  bool formed = false;
  std::string notFormedBecause;  // when !formed
  bool affine = false;           // some ψ has a part free of p (y0 ≠ 0)
  bool timeDependent = false;    // some ψ depends on t

  std::vector<GiNaC::symbol> z;           // n + m: q, then p
  GiNaC::matrix Lambda;                   // (n + m)²: {z^I, z^J} on E*
  std::vector<GiNaC::ex> psi;             // r = k + h: ψ^a(t, q, p)
  std::vector<std::vector<GiNaC::ex>> Z;  // r × m: Z̄_a = Z[a][α] ∂/∂p_α
  GiNaC::matrix regularity;               // r × r: 𝒞^{ab}
  GiNaC::matrix regularityInverse;        // r × r: 𝒞_ab
  std::vector<GiNaC::ex> drift;           // r: ∂ψ^a/∂t + {ψ^a, H} + Q ∂ψ^a/∂p
  std::vector<GiNaC::ex> multiplier;      // r: λ̄_a
  std::vector<GiNaC::ex> rates;           // n + m: ż^I on B̄
  std::vector<GiNaC::ex> force;           // m: Q_α(t, q, p) (zeros when none)
};

// Forms the bracket from the system's derivation `s`, its momenta `p`, y(t, q, p) and
// H(t, q, p). `order`: the variables simplified expressions are collected by.
AffineBracket deriveAffineBracket(const SymbolicEquations& s, const std::vector<GiNaC::symbol>& p,
                                  const std::vector<GiNaC::ex>& velocityOfMomenta,
                                  const GiNaC::ex& H, const GiNaC::lst& order);

// {F, G} = ∂F/∂z^I Λ^{IJ} ∂G/∂z^J for the bracket Λ of the coordinates z (not simplified).
GiNaC::ex matrixBracket(const std::vector<GiNaC::symbol>& z, const GiNaC::matrix& Lambda,
                        const GiNaC::ex& F, const GiNaC::ex& G);

// {F, G} on E*: matrixBracket with b's z and Λ.
GiNaC::ex linearBracket(const AffineBracket& b, const GiNaC::ex& F, const GiNaC::ex& G);

// Z̄_a(f) = Z[a][α] ∂f/∂p_α.
GiNaC::ex constraintForce(const AffineBracket& b, int a, const GiNaC::ex& f);

// ḟ = ∂f/∂t + {f, H} + Q ∂f/∂p + λ̄_a Z̄_a(f) for f(t, q, p), not simplified.
GiNaC::ex evolution(const AffineBracket& b, const GiNaC::symbol& t, const GiNaC::ex& H,
                    const GiNaC::ex& f);

// {h', h''}_nh of the sections with functions H1 = H', H2 = H'' (formula above), not simplified.
GiNaC::ex sectionBracket(const AffineBracket& b, const GiNaC::symbol& t, const GiNaC::ex& H,
                         const GiNaC::ex& H1, const GiNaC::ex& H2);

}  // namespace nh::model
// SPDX-License-Identifier: GPL-3.0-or-later
