// The Legendre transform and the nonholonomic bracket with GiNaC (hamiltonian_equations.h),
// from the system's derivation (symbolic_equations.h): its ρ, C, L, M and constraint matrix A.
#include "core/model/hamiltonian_equations.h"

#include <algorithm>
#include <array>
#include <bit>
#include <map>

#include "core/model/constrained_algebroid.h"
#include "core/model/symbolic_model.h"

namespace nh::model {

namespace {

using GiNaC::ex;
using GiNaC::symbol;

// Whether any of `symbols` occurs in e.
bool readsAny(const ex& e, const std::vector<symbol>& symbols) {
  for (const symbol& s : symbols)
    if (e.has(s)) return true;
  return false;
}

// e with every velocity set to 0.
ex atRest(const ex& e, const std::vector<symbol>& y) {
  GiNaC::exmap zero;
  for (const symbol& v : y) zero[v] = 0;
  return e.subs(zero);
}

// The momenta p_<velocity> and the order expressions are collected by.
void makeMomentumSymbols(HamiltonianEquations& e) {
  for (const symbol& y : e.lagrangian.y)
    e.p.emplace_back("p_" + y.get_name(), "p_{" + latexName(y.get_name()) + "}");
}

void setOrder(HamiltonianEquations& e) {
  e.order = GiNaC::lst{};
  for (const symbol& pi : e.pi) e.order.append(pi);
  if (e.constrained || e.pi.empty())
    for (const symbol& p : e.p) e.order.append(p);
  for (const symbol& q : e.lagrangian.q) e.order.append(q);
}

// p = ∂L/∂y, y = M⁻¹(p − p0) and H = p·y − L where M is free of y and invertible; otherwise
// why not.
void legendreTransform(HamiltonianEquations& e) {
  const SymbolicEquations& s = e.lagrangian;
  const int m = static_cast<int>(s.y.size());
  std::vector<std::vector<ex>> K(m, std::vector<ex>(m));
  std::vector<ex> r(m);
  for (int a = 0; a < m; ++a) {
    e.momentum.push_back(simplified(s.lagrangian.diff(s.y[a]), s.order));
    for (int b = 0; b < m; ++b) {
      if (readsAny(s.M(a, b), s.y)) {
        e.noLegendreBecause =
            "L is not quadratic in y (M = ∂²L/∂y∂y depends on y): H(q, p) has no closed form "
            "here, nor has the bracket, which needs p on the constraint";
        return;
      }
      K[a][b] = s.M(a, b);
    }
    r[a] = e.p[a] - atRest(e.momentum[a], s.y);
  }
  std::string why;
  const auto y = solveLinear(std::move(K), std::move(r), e.order, why);
  if (!y) {
    e.noLegendreBecause = why == kSingularForAllValues
                              ? "M = ∂²L/∂y∂y is singular: L is not regular and p = ∂L/∂y "
                                "cannot be solved for y"
                              : "y = M⁻¹(p − p0): " + why;
    return;
  }
  e.velocityOfMomenta = *y;
  GiNaC::exmap at;
  for (int a = 0; a < m; ++a) at[s.y[a]] = e.velocityOfMomenta[a];
  ex H = -s.lagrangian.subs(at);
  for (int a = 0; a < m; ++a) H += e.p[a] * e.velocityOfMomenta[a];
  e.hamiltonian = simplified(H, e.order);
  e.legendre = true;
}

// The columns `columns` of A (kt × m) as a square matrix.
std::vector<std::vector<ex>> columnsOf(const GiNaC::matrix& A, int kt,
                                       const std::vector<int>& columns) {
  std::vector<std::vector<ex>> K(kt, std::vector<ex>(columns.size()));
  for (int c = 0; c < kt; ++c)
    for (size_t j = 0; j < columns.size(); ++j) K[c][j] = A(c, columns[j]);
  return K;
}

// Whether A restricted to the velocities not in `independent` is invertible.
bool solvable(const SymbolicEquations& s, const std::vector<int>& independent) {
  const int m = static_cast<int>(s.y.size()), kt = static_cast<int>(s.constraints.size());
  std::vector<int> dependent;
  for (int a = 0; a < m; ++a)
    if (std::find(independent.begin(), independent.end(), a) == independent.end())
      dependent.push_back(a);
  if (static_cast<int>(dependent.size()) != kt) return false;
  std::string why;
  return solveLinear(columnsOf(s.A, kt, dependent), std::vector<ex>(kt, 0), GiNaC::lst{}, why)
      .has_value();
}

// The velocities X_a are 1 in: the system's independent velocities where A can be solved
// for the others, else the first choice (in the velocities' order) where it can; empty when
// none can.
std::vector<int> chooseIndependent(const SymbolicEquations& s, const SystemInfo& info) {
  const int m = static_cast<int>(s.y.size()), kt = static_cast<int>(s.constraints.size());
  std::vector<int> given;
  for (const std::string& name : info.independentVelocities)
    for (int a = 0; a < m; ++a)
      if (s.velocityNames[a] == name) given.push_back(a);
  if (static_cast<int>(given.size()) == m - kt && solvable(s, given)) return given;
  if (m > 16) return {};
  for (unsigned mask = 0; mask < (1u << m); ++mask) {
    if (std::popcount(mask) != m - kt) continue;
    std::vector<int> chosen;
    for (int a = 0; a < m; ++a)
      if (mask & (1u << a)) chosen.push_back(a);
    if (solvable(s, chosen)) return chosen;
  }
  return {};
}

// X_a (1 in its independent velocity, A X_a = 0) and y0 (0 in the independent velocities,
// A y0 = −a with Φ = A y + a); false with `why` set when the elimination fails.
bool solveBasis(HamiltonianEquations& e, std::string& why) {
  const SymbolicEquations& s = e.lagrangian;
  const int m = static_cast<int>(s.y.size()), kt = static_cast<int>(s.constraints.size());
  std::vector<int> dependent;
  for (int a = 0; a < m; ++a)
    if (std::find(e.independent.begin(), e.independent.end(), a) == e.independent.end())
      dependent.push_back(a);
  const auto solveFor = [&](const std::vector<ex>& r, std::vector<ex>& column) {
    const auto x = solveLinear(columnsOf(s.A, kt, dependent), r, e.order, why);
    if (!x) return false;
    for (int c = 0; c < kt; ++c) column[dependent[c]] = (*x)[c];
    return true;
  };
  for (int independent : e.independent) {
    std::vector<ex> column(m, 0), r(kt);
    column[independent] = 1;
    for (int c = 0; c < kt; ++c) r[c] = -s.A(c, independent);
    if (!solveFor(r, column)) return false;
    e.X.push_back(column);
  }
  e.particular.assign(m, 0);
  std::vector<ex> r(kt);
  for (int c = 0; c < kt; ++c) r[c] = -atRest(s.constraints[c], s.y);
  return solveFor(r, e.particular);
}

// π_a = ⟨p, X_a⟩ on the constraint solved for v in y = X v + y0, and p(t, q, π) = M y + p0;
// false with `why` set when the elimination fails.
bool momentaOnConstraint(HamiltonianEquations& e, std::string& why) {
  const SymbolicEquations& s = e.lagrangian;
  const int m = static_cast<int>(s.y.size()), d = static_cast<int>(e.independent.size());
  std::vector<ex> p0(m), offset(m);  // p0 and M y0 + p0
  for (int a = 0; a < m; ++a) {
    p0[a] = atRest(e.momentum[a], s.y);
    offset[a] = p0[a];
    for (int b = 0; b < m; ++b) offset[a] += s.M(a, b) * e.particular[b];
  }
  std::vector<std::vector<ex>> K(d, std::vector<ex>(d, 0));
  std::vector<ex> r(d);
  for (int i = 0; i < d; ++i) {
    r[i] = e.pi[i];
    for (int a = 0; a < m; ++a) {
      r[i] -= e.X[i][a] * offset[a];
      for (int b = 0; b < m; ++b)
        for (int j = 0; j < d; ++j) K[i][j] += e.X[i][a] * s.M(a, b) * e.X[j][b];
    }
  }
  const auto v = solveLinear(std::move(K), std::move(r), e.order, why);
  if (!v) return false;
  std::vector<ex> y = e.particular;
  for (int a = 0; a < m; ++a)
    for (int j = 0; j < d; ++j) y[a] += e.X[j][a] * (*v)[j];
  GiNaC::exmap at;
  for (int a = 0; a < m; ++a) {
    ex p = p0[a];
    for (int b = 0; b < m; ++b) p += s.M(a, b) * y[b];
    e.momentumOnConstraint.push_back(simplified(p, e.order));
    at[e.p[a]] = e.momentumOnConstraint[a];
  }
  e.constrainedHamiltonian = simplified(e.hamiltonian.subs(at), e.order);
  return true;
}

// The names of the velocities that are not independent, e.g. "vx, vy".
std::string dependentNames(const HamiltonianEquations& e) {
  std::string names;
  for (size_t a = 0; a < e.lagrangian.y.size(); ++a)
    if (std::find(e.independent.begin(), e.independent.end(), static_cast<int>(a)) ==
        e.independent.end())
      names += (names.empty() ? "" : ", ") + e.lagrangian.velocityNames[a];
  return names;
}

// The constraint's basis, π and p(t, q, π); false with noBracketBecause set when they cannot
// be formed.
bool formConstraint(HamiltonianEquations& e, const SystemInfo& info) {
  const SymbolicEquations& s = e.lagrangian;
  const int kt = static_cast<int>(s.constraints.size()), m = static_cast<int>(s.y.size());
  for (int c = 0; c < kt; ++c)
    for (int a = 0; a < m; ++a)
      if (readsAny(s.A(c, a), s.y)) {
        e.noBracketBecause = "a constraint is not affine in y: no bracket on it is formed here";
        return false;
      }
  e.independent = chooseIndependent(s, info);
  if (static_cast<int>(e.independent.size()) != m - kt) {
    e.noBracketBecause =
        "the constraints cannot be solved for any choice of dependent velocities (A has "
        "dependent rows, or the expressions grow too large)";
    return false;
  }
  for (int a : e.independent) {
    const std::string name = s.y[a].get_name();
    e.pi.emplace_back("π_" + name, "\\pi_{" + latexName(name) + "}");
  }
  setOrder(e);
  std::string why;
  if (!solveBasis(e, why)) {
    e.noBracketBecause = "the constraints could not be solved for the dependent velocities " +
                         dependentNames(e) + " (the basis X_a of D): " + why;
    return false;
  }
  if (!momentaOnConstraint(e, why)) {
    const std::string d = std::to_string(e.independent.size());
    e.noBracketBecause =
        "p(q, π) could not be formed: solving π = Xᵀ(M X v + M y0 + p0) for v "
        "(a " +
        d + "×" + d + " system with Xᵀ M X, whose entries depend on q) " +
        (why == kSingularForAllValues ? std::string("failed: Xᵀ M X is singular")
                                      : "failed: " + why);
    return false;
  }
  return true;
}

// Without constraints: X = identity, π = p, p(q, π) = p.
void unconstrained(HamiltonianEquations& e) {
  const int m = static_cast<int>(e.p.size());
  for (int a = 0; a < m; ++a) {
    e.independent.push_back(a);
    e.X.emplace_back(m, 0);
    e.X[a][a] = 1;
    e.momentumOnConstraint.push_back(e.p[a]);
  }
  e.pi = e.p;
  e.particular.assign(m, 0);
  e.constrainedHamiltonian = e.hamiltonian;
  setOrder(e);
}

// Whether C^γ_αβ = −C^γ_βα for all α, β, γ (so C^γ_αα = 0).
bool skewStructure(const SymbolicEquations& s) {
  std::map<std::array<int, 3>, ex> sum;  // (γ, min(α, β), max(α, β)) → C^γ_αβ + C^γ_βα
  for (const StructureCoefficient& c : s.structure)
    sum[{c.c, std::min(c.a, c.b), std::max(c.a, c.b)}] += c.a == c.b ? 2 * c.value : c.value;
  for (const auto& [key, value] : sum)
    if (!simplified(value, s.order).is_zero()) return false;
  return true;
}

// {π_a, π_b} = ⟨p(q, π), [X_b, X_a]_E⟩ (ṗ_α = {p_α, H} ∋ C^γ_βα y^β p_γ, the engine's F),
// formed as −⟨p, [X_a, X_b]_E⟩ when `skew`.
ex momentumBracket(const HamiltonianEquations& e, int a, int b, bool skew) {
  const std::vector<ex> bracket = skew ? algebroidBracketOf(e.lagrangian, e.X[a], e.X[b])
                                       : algebroidBracketOf(e.lagrangian, e.X[b], e.X[a]);
  ex value = 0;
  for (size_t g = 0; g < bracket.size(); ++g) value += e.momentumOnConstraint[g] * bracket[g];
  return simplified(skew ? -value : value, e.order);
}

// Λ on (q, π): {q^i, π_a} = (ρ X_a)^i = −{π_a, q^i}, {π_a, π_b} = ⟨p(q, π), [X_b, X_a]_E⟩,
// which is −⟨p, [X_a, X_b]_E⟩ for a skew structure (then only a < b is formed); for one that
// is not skew every ordered pair, [X_a, X_a]_E included.
void formBracket(HamiltonianEquations& e) {
  const SymbolicEquations& s = e.lagrangian;
  const int n = static_cast<int>(s.q.size()), m = static_cast<int>(s.y.size());
  const int d = static_cast<int>(e.pi.size()), N = n + d;
  e.z.assign(s.q.begin(), s.q.end());
  e.z.insert(e.z.end(), e.pi.begin(), e.pi.end());
  e.Lambda = GiNaC::matrix(N, N);
  std::vector<std::vector<ex>> anchor(d, std::vector<ex>(n, 0));  // ρ X_a
  for (int a = 0; a < d; ++a)
    for (int i = 0; i < n; ++i) {
      for (int al = 0; al < m; ++al) anchor[a][i] += s.rho(i, al) * e.X[a][al];
      anchor[a][i] = simplified(anchor[a][i], e.order);
      e.Lambda(i, n + a) = anchor[a][i];
      e.Lambda(n + a, i) = -anchor[a][i];
    }
  if (skewStructure(s)) {
    for (int a = 0; a < d; ++a)
      for (int b = a + 1; b < d; ++b) {
        e.Lambda(n + a, n + b) = momentumBracket(e, a, b, true);
        e.Lambda(n + b, n + a) = -e.Lambda(n + a, n + b);
      }
    return;
  }
  for (int a = 0; a < d; ++a)
    for (int b = 0; b < d; ++b) e.Lambda(n + a, n + b) = momentumBracket(e, a, b, false);
  for (int a = 0; a < d; ++a)
    for (int b = a; b < d; ++b)
      e.skew =
          e.skew && simplified(e.Lambda(n + a, n + b) + e.Lambda(n + b, n + a), e.order).is_zero();
}

// {{z^i, z^j}, z^l} = ∂_L Λ^{ij} Λ^{Ll}.
ex bracketOfEntry(const HamiltonianEquations& e, int i, int j, int l) {
  const ex& entry = e.Lambda(i, j);
  ex out = 0;
  if (entry.is_zero()) return out;
  for (size_t L = 0; L < e.z.size(); ++L)
    if (!e.Lambda(L, l).is_zero()) out += entry.diff(e.z[L]) * e.Lambda(L, l);
  return out;
}

// The nonzero J(z^i, z^j, z^l), i < j < l.
void formJacobiator(HamiltonianEquations& e) {
  const int N = static_cast<int>(e.z.size());
  for (int i = 0; i < N; ++i)
    for (int j = i + 1; j < N; ++j)
      for (int l = j + 1; l < N; ++l) {
        const ex sum =
            bracketOfEntry(e, i, j, l) + bracketOfEntry(e, j, l, i) + bracketOfEntry(e, l, i, j);
        const ex value = simplified(sum, e.order);
        if (!value.is_zero()) e.jacobiator.push_back({i, j, l, value});
      }
}

// Whether a constraint has a part free of y or reads t (then the bracket of sections is formed).
bool affineOrTimed(const SymbolicEquations& s) {
  for (const ex& phi : s.constraints)
    if (phi.has(s.t) || !simplified(atRest(phi, s.y), s.order).is_zero()) return true;
  return false;
}

// The notes on what H and the bracket leave out.
void noteOmissions(HamiltonianEquations& e) {
  const SymbolicEquations& s = e.lagrangian;
  bool forced = s.forcesOmitted;
  for (const ex& f : s.forces) forced = forced || !f.is_zero();
  if (forced)
    e.notes.push_back("the force Q is neither in H nor in the bracket: it adds to ṗ beside {p, H}");
  bool affine = false;
  for (const ex& y0 : e.particular) affine = affine || !y0.is_zero();
  if (e.bracket && affine)
    e.notes.push_back(
        "the constraints are affine (y0 ≠ 0): the bracket of (q, π) is formed with p on the "
        "affine constraint, and ż = {z, H} alone does not give the motion; the bracket of "
        "sections on (q, p) with its ψ and time terms does (seed 002, Theorem V.8)");
}

}  // namespace

HamiltonianEquations deriveHamiltonianSymbolic(const SystemModel& system,
                                               const std::vector<double>& parameters) {
  std::lock_guard lock(ginacMutex());
  HamiltonianEquations e;
  e.lagrangian = deriveSymbolic(system, parameters);
  e.notes = e.lagrangian.notes;
  if (!e.lagrangian.recorded) {
    e.derived = false;
    return e;
  }
  const DerivationBudget budget;
  makeMomentumSymbols(e);
  e.constrained = !e.lagrangian.constraints.empty();
  setOrder(e);
  legendreTransform(e);
  if (!e.legendre) {
    e.noBracketBecause = e.noLegendreBecause;
  } else if (e.lagrangian.structureOmitted) {
    e.noBracketBecause = "the structure functions of this system were not recorded (see the notes)";
  } else {
    if (affineOrTimed(e.lagrangian))
      e.affine =
          deriveAffineBracket(e.lagrangian, e.p, e.velocityOfMomenta, e.hamiltonian, e.order);
    if (e.constrained ? formConstraint(e, system.info()) : (unconstrained(e), true)) {
      formBracket(e);
      if (e.skew) formJacobiator(e);
      e.bracket = true;
    }
  }
  noteOmissions(e);
  const std::string capped = cappedNote();
  if (!capped.empty() && std::find(e.notes.begin(), e.notes.end(), capped) == e.notes.end())
    e.notes.push_back(capped);
  return e;
}

ex bracketOf(const HamiltonianEquations& e, const ex& F, const ex& G) {
  return matrixBracket(e.z, e.Lambda, F, G);
}

AffineBracket affineBracketOf(const HamiltonianEquations& e) {
  std::lock_guard lock(ginacMutex());
  if (!e.legendre) {
    AffineBracket b;
    b.notFormedBecause = e.noLegendreBecause;
    return b;
  }
  return deriveAffineBracket(e.lagrangian, e.p, e.velocityOfMomenta, e.hamiltonian, e.order);
}

}  // namespace nh::model
// SPDX-License-Identifier: GPL-3.0-or-later
