// Pontryagin's equations of a control model with GiNaC (control_equations.h): the derivatives
// the solver takes on its tape (core/nh/pontryagin.cpp), taken here symbolically.
#include "core/model/control_equations.h"

#include "core/model/formula_system.h"
#include "core/model/model_data.h"
#include "core/model/symbolic_model.h"

namespace nh::model {

namespace {

using GiNaC::ex;
using GiNaC::symbol;

// The symbols (the geometry's, the controls and the costates), ρ, C, f and L of a model file.
void readControlModel(const FormulaSystem& system, ControlEquations& e) {
  const ModelData& data = system.data();
  const SymbolTable table = makeSymbols(data);
  SymbolicEquations& s = e.geometry;
  readFormulaGeometry(data, table, s);
  for (int j = 0; j < data.layout.controls; ++j)
    e.u.push_back(table.bySlot[data.layout.control(j)]);
  for (const symbol& y : s.y)
    e.xi.emplace_back("ξ_" + y.get_name(), "\\xi_{" + latexName(y.get_name()) + "}");
  for (const symbol& u : e.u) e.order.append(u);
  for (const symbol& xi : e.xi) e.order.append(xi);
  for (const symbol& q : s.q) e.order.append(q);
  for (const Expression& f : data.controlSection) e.f.push_back(toGinac(f, table));
  e.cost = toGinac(data.cost, table);
}

// H, (5.6), (5.7) and (5.8) from f, L, ρ and C. The costate equation is the engine's:
// ξ̇_j = C^k_ij f^i ξ_k − ρ^a_j ∂H/∂q^a; (5.8) is −∂H/∂u.
void formPontryagin(ControlEquations& e) {
  const SymbolicEquations& s = e.geometry;
  const int n = static_cast<int>(s.q.size()), m = static_cast<int>(s.y.size());
  ex H = -e.cost;
  for (int a = 0; a < m; ++a) H += e.xi[a] * e.f[a];
  e.hamiltonian = simplified(H, e.order);
  for (int i = 0; i < n; ++i) {
    ex v = 0;
    for (int a = 0; a < m; ++a) v += s.rho(i, a) * e.f[a];
    e.qdot.push_back(simplified(v, e.order));
  }
  std::vector<ex> xidot(m, 0);
  for (const StructureCoefficient& c : s.structure)  // C^c_ab with a = i, b = j, c = k
    xidot[c.b] += c.value * e.f[c.a] * e.xi[c.c];
  for (int j = 0; j < m; ++j) {
    for (int a = 0; a < n; ++a) xidot[j] -= s.rho(a, j) * H.diff(s.q[a]);
    e.xidot.push_back(simplified(xidot[j], e.order));
  }
  for (const symbol& u : e.u) e.stationarity.push_back(simplified(-H.diff(u), e.order));
}

// Whether any of `symbols` occurs in e.
bool readsAny(const ex& e, const std::vector<symbol>& symbols) {
  for (const symbol& s : symbols)
    if (e.has(s)) return true;
  return false;
}

// (5.8) as K u = r when it is linear in u: K = ∂(5.8)/∂u free of u, r = K u − (5.8) too.
bool linearInControls(const ControlEquations& e, std::vector<std::vector<ex>>& K,
                      std::vector<ex>& r) {
  const int c = static_cast<int>(e.u.size());
  K.assign(c, std::vector<ex>(c, 0));
  r.assign(c, 0);
  for (int i = 0; i < c; ++i) {
    ex Ku = 0;
    for (int j = 0; j < c; ++j) {
      K[i][j] = simplified(e.stationarity[i].diff(e.u[j]), e.order);
      if (readsAny(K[i][j], e.u)) return false;
      Ku += K[i][j] * e.u[j];
    }
    r[i] = simplified(Ku - e.stationarity[i], e.order);
    if (readsAny(r[i], e.u)) return false;
  }
  return true;
}

// u = u(t, q, ξ) from (5.8) where it is linear in u with an invertible coefficient matrix,
// and (5.6), (5.7) with it substituted; otherwise why not.
void solveControls(ControlEquations& e) {
  std::vector<std::vector<ex>> K;
  std::vector<ex> r;
  if (!linearInControls(e, K, r)) {
    e.notSolvedBecause =
        "0 = ∂L/∂u − ξ_i ∂f^i/∂u is not linear in u: no closed form of u(q, ξ) (the solver "
        "finds u by Newton's method at every step)";
    return;
  }
  std::string why;
  const auto x = solveLinear(std::move(K), std::move(r), e.order, why);
  if (!x) {
    e.notSolvedBecause =
        why == kSingularForAllValues
            ? "the coefficient matrix of u in 0 = ∂L/∂u − ξ_i ∂f^i/∂u (∂²H/∂u²) is singular: "
              "the equations do not determine u (a singular control)"
            : why;
    return;
  }
  e.solved = true;
  e.control = *x;
  GiNaC::exmap at;
  for (size_t j = 0; j < e.u.size(); ++j) at[e.u[j]] = e.control[j];
  for (const ex& v : e.qdot) e.qdotOf.push_back(simplified(v.subs(at), e.order));
  for (const ex& v : e.xidot) e.xidotOf.push_back(simplified(v.subs(at), e.order));
}

}  // namespace

ControlEquations deriveControlSymbolic(const SystemModel& system) {
  std::lock_guard lock(ginacMutex());
  const DerivationBudget budget;
  ControlEquations e;
  const FormulaSystem* formula = asFormula(system);
  if (!formula) {
    e.derived = false;
    e.notes.push_back(
        "a control model written in C++: its Pontryagin equations are taken on the tape only, "
        "there are none to show");
    return e;
  }
  readControlModel(*formula, e);
  std::vector<std::pair<std::string, ex>> read{{"cost", e.cost}};
  for (const ex& f : e.f) read.emplace_back("control section", f);
  if (std::string why = tooLargeToDerive(read); !why.empty()) {
    e.derived = false;
    e.notes.push_back(std::move(why));
    return e;
  }
  simplifyGeometry(e.geometry);
  for (ex& f : e.f) f = simplified(f, e.order);
  e.cost = simplified(e.cost, e.order);
  formPontryagin(e);
  solveControls(e);
  e.notes = e.geometry.notes;
  if (const std::string capped = cappedNote(); !capped.empty()) e.notes.push_back(capped);
  return e;
}

}  // namespace nh::model
// SPDX-License-Identifier: GPL-3.0-or-later
