// The Gibbs–Appell function and equations with GiNaC (gibbs_appell_equations.h), from the
// system's derivation (M, F, Q, A, b) and the basis of D the Hamiltonian side solves for.
#include "core/model/gibbs_appell_equations.h"

#include <algorithm>
#include <mutex>

#include "core/model/hamiltonian_equations.h"
#include "core/model/symbolic_model.h"
#include "core/model/typesetter.h"
#include "core/nh/errors.h"

namespace nh::model {

namespace {

using GiNaC::ex;
using GiNaC::symbol;
using namespace typeset;

// ẏ_p: A ẏ_p = b with 0 in the independent slots; false with `why` set when it cannot be solved.
bool particularAcceleration(const SymbolicEquations& s, const std::vector<int>& independent,
                            const GiNaC::lst& order, std::vector<ex>& out, std::string& why) {
  const int m = static_cast<int>(s.y.size()), kt = static_cast<int>(s.constraints.size());
  out.assign(m, 0);
  if (kt == 0) return true;
  std::vector<int> dependent;
  for (int a = 0; a < m; ++a)
    if (std::find(independent.begin(), independent.end(), a) == independent.end())
      dependent.push_back(a);
  std::vector<std::vector<ex>> K(kt, std::vector<ex>(dependent.size()));
  std::vector<ex> r(kt);
  for (int c = 0; c < kt; ++c) {
    for (size_t j = 0; j < dependent.size(); ++j) K[c][j] = s.A(c, dependent[j]);
    r[c] = s.b(c, 0);
  }
  const auto x = solveLinear(std::move(K), std::move(r), order, why);
  if (!x) return false;
  for (size_t j = 0; j < dependent.size(); ++j) out[dependent[j]] = (*x)[j];
  return true;
}

// a = M⁻¹ F₀ and G_L; false with notFormedBecause set when M cannot be inverted.
bool formFunction(GibbsAppellEquations& g, const GiNaC::lst& order) {
  const SymbolicEquations& s = g.lagrangian;
  const int m = static_cast<int>(s.y.size());
  std::vector<std::vector<ex>> K(m, std::vector<ex>(m));
  std::vector<ex> F0(m);
  for (int a = 0; a < m; ++a) {
    for (int b = 0; b < m; ++b) K[a][b] = s.M(a, b);
    F0[a] = s.F(a, 0) - s.forces[a];
  }
  std::string why;
  const auto a = solveLinear(std::move(K), std::move(F0), order, why);
  if (!a) {
    g.notFormedBecause = "a = M⁻¹ F₀ could not be formed: " + why;
    return false;
  }
  g.freeAcceleration = *a;
  ex G = 0;
  for (int al = 0; al < m; ++al)
    for (int be = 0; be < m; ++be)
      G += (g.accelerations[al] - (*a)[al]) * s.M(al, be) * (g.accelerations[be] - (*a)[be]);
  g.function = simplified(G / 2, order);
  return true;
}

// G_L on the constraint, (17) and its solution; false with notFormedBecause set on failure.
bool formEquations(GibbsAppellEquations& g, const HamiltonianEquations& e,
                   const GiNaC::lst& order) {
  const SymbolicEquations& s = g.lagrangian;
  const int m = static_cast<int>(s.y.size()), d = static_cast<int>(e.X.size());
  std::vector<ex> particular;
  std::string why;
  if (!particularAcceleration(s, g.independent, order, particular, why)) {
    g.notFormedBecause = "A ẏ = b could not be solved for the dependent accelerations: " + why;
    return false;
  }
  GiNaC::exmap at;
  for (int al = 0; al < m; ++al) {
    ex value = particular[al];
    for (int I = 0; I < d; ++I) value += e.X[I][al] * g.accelerations[g.independent[I]];
    g.onConstraint.push_back(simplified(value, order));
    if (std::find(g.independent.begin(), g.independent.end(), al) == g.independent.end())
      at[g.accelerations[al]] = g.onConstraint.back();
  }
  g.constrainedFunction = simplified(g.function.subs(at), order);
  GiNaC::exmap rest;
  for (int I = 0; I < d; ++I) rest[g.accelerations[g.independent[I]]] = 0;
  std::vector<std::vector<ex>> K(d, std::vector<ex>(d));
  std::vector<ex> r(d);
  for (int I = 0; I < d; ++I) {
    ex equation = g.constrainedFunction.diff(g.accelerations[g.independent[I]]);
    for (int al = 0; al < m; ++al) equation -= e.X[I][al] * s.forces[al];
    g.equations.push_back(simplified(equation, order));
    for (int J = 0; J < d; ++J) K[I][J] = g.equations[I].diff(g.accelerations[g.independent[J]]);
    r[I] = -g.equations[I].subs(rest);
  }
  const auto solution = solveLinear(std::move(K), std::move(r), order, why);
  if (!solution) {
    g.notFormedBecause = "the Gibbs–Appell equations could not be solved: " + why;
    return false;
  }
  g.solution = *solution;
  return true;
}

EquationBlock functionBlock(const GibbsAppellEquations& g, const Printer& pr) {
  BlockBuilder b{
      "Gibbs–Appell function G_L = ½ (ẏ − a)ᵀ M (ẏ − a), a = M⁻¹ F₀ (F₀ = F − Q)", {}, {}};
  const SymbolicEquations& s = g.lagrangian;
  for (size_t a = 0; a < s.y.size(); ++a) {
    b.plain.push_back("a_" + s.velocityNames[a] + " = " + pr.plain(g.freeAcceleration[a]));
    b.latex.push_back("a_{" + texName(s.y[a]) + "} = " + pr.latex(g.freeAcceleration[a]));
  }
  b.plain.push_back("G_L = " + pr.plain(g.function));
  b.latex.push_back("G_L = " + pr.latex(g.function));
  return b.done();
}

// The dependent accelerations through the independent ones, and G_L there.
EquationBlock constraintBlock(const GibbsAppellEquations& g, const Printer& pr) {
  BlockBuilder b{
      "On the constraint A ẏ = b: ẏ = X ẇ + ẏ_p, ẇ the independent accelerations", {}, {}};
  for (size_t a = 0; a < g.accelerations.size(); ++a) {
    if (std::find(g.independent.begin(), g.independent.end(), static_cast<int>(a)) !=
        g.independent.end())
      continue;
    b.plain.push_back(g.accelerations[a].get_name() + " = " + pr.plain(g.onConstraint[a]));
    b.latex.push_back(texName(g.accelerations[a]) + " = " + pr.latex(g.onConstraint[a]));
  }
  b.plain.push_back("G_L = " + pr.plain(g.constrainedFunction));
  b.latex.push_back("G_L = " + pr.latex(g.constrainedFunction));
  return b.done();
}

EquationBlock equationsBlock(const GibbsAppellEquations& g, const Printer& pr) {
  BlockBuilder b{"Gibbs–Appell equations ∂G_L/∂ẇ_I = Υ_I = X_Iᵀ Q (seed 003, (17)), and ẇ", {}, {}};
  for (size_t I = 0; I < g.equations.size(); ++I) {
    const symbol& w = g.accelerations[g.independent[I]];
    b.plain.push_back("∂G_L/∂" + w.get_name() + " − Υ = " + pr.plain(g.equations[I]) + " = 0");
    b.latex.push_back("\\frac{\\partial G_L}{\\partial " + texName(w) +
                      "} - \\Upsilon = " + pr.latex(g.equations[I]) + " = 0");
  }
  for (size_t I = 0; I < g.solution.size(); ++I) {
    const symbol& w = g.accelerations[g.independent[I]];
    b.plain.push_back(w.get_name() + " = " + pr.plain(g.solution[I]));
    b.latex.push_back(texName(w) + " = " + pr.latex(g.solution[I]));
  }
  return b.done();
}

}  // namespace

DerivedEquations gibbsAppellEquations(const SystemModel& system,
                                      const std::vector<double>& parameters,
                                      const std::atomic<bool>* cancel) {
  std::lock_guard lock(ginacMutex());
  const CancelDerivationsWhen cancelled(cancel);
  const GibbsAppellEquations g = deriveGibbsAppellSymbolic(system, parameters);
  DerivedEquations out;
  out.summary =
      "the Gibbs–Appell function G_L (seed 003, §7.2) and its equations (17) on the constraint";
  out.notes = g.lagrangian.notes;
  if (!g.formed) {
    out.notes.push_back("G_L not shown: " + g.notFormedBecause);
    return out;
  }
  const Printer pr(g.lagrangian, {}, g.accelerations);
  out.blocks = {functionBlock(g, pr), constraintBlock(g, pr), equationsBlock(g, pr)};
  return out;
}

GibbsAppellEquations deriveGibbsAppellSymbolic(const SystemModel& system,
                                               const std::vector<double>& parameters) {
  if (system.info().isControlModel())
    throw InputError("system '" + system.name() +
                     "' is a control model: it has no Lagrangian whose Gibbs–Appell function "
                     "could be formed (its equations are Pontryagin's)");
  std::lock_guard lock(ginacMutex());
  const HamiltonianEquations e = deriveHamiltonianSymbolic(system, parameters);
  GibbsAppellEquations g;
  g.lagrangian = e.lagrangian;
  if (!e.derived) {
    g.notFormedBecause = "the system's functions could not be derived";
    return g;
  }
  if (!e.legendre || !e.bracket) {
    g.notFormedBecause = e.legendre ? e.noBracketBecause : e.noLegendreBecause;
    return g;
  }
  const SymbolicEquations& s = g.lagrangian;
  GiNaC::lst order;
  for (const symbol& y : s.y) {
    g.accelerations.emplace_back(dotPlain(y.get_name()), dotLatex(texName(y)));
    order.append(g.accelerations.back());
  }
  for (const ex& v : s.order) order.append(v);
  g.independent = e.independent;
  g.formed = formFunction(g, order) && formEquations(g, e, order);
  return g;
}

}  // namespace nh::model
// SPDX-License-Identifier: GPL-3.0-or-later
