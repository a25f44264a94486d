// The nonholonomic bracket of affine and time-dependent constraints with GiNaC
// (affine_bracket.h), from the system's derivation: its ρ, C, M, Φ, Q, the momenta and H.
#include "core/model/affine_bracket.h"

namespace nh::model {

namespace {

using GiNaC::ex;
using GiNaC::symbol;

// ∂f/∂t + {f, H} + Q ∂f/∂p: ḟ without the constraint forces.
ex freeRate(const AffineBracket& b, const symbol& t, const ex& H, const ex& f) {
  const size_t n = b.z.size() - b.force.size();
  ex out = f.diff(t) + linearBracket(b, f, H);
  for (size_t a = 0; a < b.force.size(); ++a) out += b.force[a] * f.diff(b.z[n + a]);
  return out;
}

// e at y = y(t, q, p).
ex onMomenta(const SymbolicEquations& s, const std::vector<ex>& velocityOfMomenta, const ex& e) {
  GiNaC::exmap at;
  for (size_t a = 0; a < s.y.size(); ++a) at[s.y[a]] = velocityOfMomenta[a];
  return e.subs(at);
}

// Λ on (q, p): {q^i, p_α} = ρ^i_α = −{p_α, q^i}, {p_α, p_β} = C^γ_βα p_γ.
void formLinearBracket(const SymbolicEquations& s, const std::vector<symbol>& p, AffineBracket& b) {
  const int n = static_cast<int>(s.q.size()), m = static_cast<int>(s.y.size());
  b.z.assign(s.q.begin(), s.q.end());
  b.z.insert(b.z.end(), p.begin(), p.end());
  b.Lambda = GiNaC::matrix(n + m, n + m);
  for (int i = 0; i < n; ++i)
    for (int a = 0; a < m; ++a) {
      b.Lambda(i, n + a) = s.rho(i, a);
      b.Lambda(n + a, i) = -s.rho(i, a);
    }
  for (const StructureCoefficient& c : s.structure)  // C^c_ab p_c in {p_b, p_a}
    b.Lambda(n + c.b, n + c.a) += c.value * p[c.c];
}

// ψ, Z̄_a and 𝒞; false with notFormedBecause set when a constraint is not affine in y.
bool formConstraintForces(const SymbolicEquations& s, const std::vector<symbol>& p,
                          const std::vector<ex>& velocityOfMomenta, const GiNaC::lst& order,
                          AffineBracket& b) {
  const int m = static_cast<int>(s.y.size()), r = static_cast<int>(s.constraints.size());
  std::vector<std::vector<ex>> dpsi(r, std::vector<ex>(m));
  for (int c = 0; c < r; ++c) {
    for (int a = 0; a < m; ++a)
      for (const symbol& y : s.y)
        if (s.A(c, a).has(y)) {
          b.notFormedBecause = "a constraint is not affine in y: the bracket needs affine ones";
          return false;
        }
    GiNaC::exmap rest;
    for (const symbol& y : s.y) rest[y] = 0;
    b.affine = b.affine || !simplified(s.constraints[c].subs(rest), order).is_zero();
    b.timeDependent = b.timeDependent || s.constraints[c].has(s.t);
    b.psi.push_back(simplified(onMomenta(s, velocityOfMomenta, s.constraints[c]), order));
    for (int a = 0; a < m; ++a) dpsi[c][a] = b.psi[c].diff(p[a]);
  }
  b.Z.assign(r, std::vector<ex>(m, 0));
  for (int c = 0; c < r; ++c)
    for (int a = 0; a < m; ++a) {
      for (int bb = 0; bb < m; ++bb) b.Z[c][a] -= s.M(a, bb) * dpsi[c][bb];
      b.Z[c][a] = simplified(b.Z[c][a], order);
    }
  b.regularity = GiNaC::matrix(r, r);
  for (int c = 0; c < r; ++c)
    for (int d = 0; d < r; ++d) {
      ex value = 0;
      for (int a = 0; a < m; ++a) value += dpsi[c][a] * b.Z[d][a];
      b.regularity(c, d) = simplified(value, order);
    }
  return true;
}

// 𝒞_ab, the inverse of 𝒞; false with notFormedBecause set when it is singular.
bool invertRegularity(const GiNaC::lst& order, AffineBracket& b) {
  const int r = static_cast<int>(b.regularity.rows());
  b.regularityInverse = GiNaC::matrix(r, r);
  for (int col = 0; col < r; ++col) {
    std::vector<std::vector<ex>> K(r, std::vector<ex>(r));
    for (int c = 0; c < r; ++c)
      for (int d = 0; d < r; ++d) K[c][d] = b.regularity(c, d);
    std::vector<ex> unit(r, 0);
    unit[col] = 1;
    std::string why;
    const auto x = solveLinear(std::move(K), std::move(unit), order, why);
    if (!x) {
      b.notFormedBecause = why == kSingularForAllValues
                               ? "𝒞 = −A M⁻¹ Aᵀ is singular: the constrained system is not regular"
                               : "𝒞 = −A M⁻¹ Aᵀ could not be inverted: " + why;
      return false;
    }
    for (int c = 0; c < r; ++c) b.regularityInverse(c, col) = (*x)[c];
  }
  return true;
}

// Q on E*, the drift ψ̇ would have without the constraint forces, λ̄ and the rates.
void formMotion(const SymbolicEquations& s, const std::vector<ex>& velocityOfMomenta, const ex& H,
                const GiNaC::lst& order, AffineBracket& b) {
  const int m = static_cast<int>(s.y.size()), r = static_cast<int>(b.psi.size());
  for (int a = 0; a < m; ++a)
    b.force.push_back(simplified(onMomenta(s, velocityOfMomenta, s.forces[a]), order));
  for (int c = 0; c < r; ++c) b.drift.push_back(simplified(freeRate(b, s.t, H, b.psi[c]), order));
  for (int c = 0; c < r; ++c) {
    ex lambda = 0;
    for (int d = 0; d < r; ++d) lambda -= b.regularityInverse(c, d) * b.drift[d];
    b.multiplier.push_back(simplified(lambda, order));
  }
  for (const symbol& z : b.z) b.rates.push_back(simplified(evolution(b, s.t, H, z), order));
}

}  // namespace

AffineBracket deriveAffineBracket(const SymbolicEquations& s, const std::vector<symbol>& p,
                                  const std::vector<ex>& velocityOfMomenta, const ex& H,
                                  const GiNaC::lst& order) {
  AffineBracket b;
  formLinearBracket(s, p, b);
  if (s.constraints.empty()) {
    b.notFormedBecause = "the system has no constraints";
    return b;
  }
  if (!formConstraintForces(s, p, velocityOfMomenta, order, b) || !invertRegularity(order, b))
    return b;
  formMotion(s, velocityOfMomenta, H, order, b);
  b.formed = true;
  return b;
}

ex matrixBracket(const std::vector<symbol>& z, const GiNaC::matrix& Lambda, const ex& F,
                 const ex& G) {
  ex out = 0;
  for (size_t I = 0; I < z.size(); ++I) {
    const ex dF = F.diff(z[I]);
    if (dF.is_zero()) continue;
    for (size_t J = 0; J < z.size(); ++J)
      if (!Lambda(I, J).is_zero()) out += dF * Lambda(I, J) * G.diff(z[J]);
  }
  return out;
}

ex linearBracket(const AffineBracket& b, const ex& F, const ex& G) {
  return matrixBracket(b.z, b.Lambda, F, G);
}

ex constraintForce(const AffineBracket& b, int a, const ex& f) {
  const size_t n = b.z.size() - b.Z[a].size();
  ex out = 0;
  for (size_t al = 0; al < b.Z[a].size(); ++al) out += b.Z[a][al] * f.diff(b.z[n + al]);
  return out;
}

ex evolution(const AffineBracket& b, const symbol& t, const ex& H, const ex& f) {
  ex out = freeRate(b, t, H, f);
  for (size_t a = 0; a < b.multiplier.size(); ++a)
    out += b.multiplier[a] * constraintForce(b, static_cast<int>(a), f);
  return out;
}

ex sectionBracket(const AffineBracket& b, const symbol& t, const ex& H, const ex& H1,
                  const ex& H2) {
  const int r = static_cast<int>(b.psi.size());
  ex out = (H1 - H2).diff(t) + linearBracket(b, H1, H2);
  for (int a = 0; a < r; ++a)
    for (int c = 0; c < r; ++c) {
      const ex& Cac = b.regularityInverse(a, c);
      if (Cac.is_zero()) continue;
      out -=
          Cac * (b.psi[c].diff(t) + linearBracket(b, b.psi[c], H2)) * constraintForce(b, a, H1 - H);
      out +=
          Cac * (b.psi[a].diff(t) + linearBracket(b, b.psi[a], H1)) * constraintForce(b, c, H2 - H);
      for (int d = 0; d < r; ++d)
        for (int e = 0; e < r; ++e)
          out += Cac * b.regularityInverse(d, e) * linearBracket(b, b.psi[c], b.psi[e]) *
                 constraintForce(b, a, H1 - H) * constraintForce(b, d, H2 - H);
    }
  return out;
}

}  // namespace nh::model
// SPDX-License-Identifier: GPL-3.0-or-later
