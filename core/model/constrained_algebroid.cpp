// The algebroid of a system's constraints and the holonomy verdict (constrained_algebroid.h),
// from the basis X_a of D and y0 the Hamiltonian side solves for (hamiltonian_equations.h).
// An expression is zero when its normal form is, or else when it vanishes at three sample
// states (identities normal() does not know, as |q| = 1 of an attitude quaternion, which the
// samples keep) to 1e-12 of the scale of its terms there.
#include "core/model/constrained_algebroid.h"

#include <algorithm>
#include <cmath>
#include <mutex>

#include "core/model/hamiltonian_equations.h"
#include "core/model/symbolic_model.h"
#include "core/model/typesetter.h"
#include "core/nh/errors.h"

namespace nh::model {

namespace {

using GiNaC::ex;
using namespace typeset;

constexpr long kExpandLimit = 20000;  // terms normal() may produce before samples decide

// The sample states: t, q near the defaults (quaternions normalised), and the parameters moved
// off their values by a few per cent (and off 0), so that a term proportional to a parameter
// whose default is 0 does not vanish at every sample.
std::vector<GiNaC::exmap> sampleStates(const SystemModel& system, const SymbolicEquations& s,
                                       const std::vector<double>& parameters) {
  const SystemInfo& info = system.info();
  std::vector<GiNaC::exmap> samples;
  for (int sample = 1; sample <= 3; ++sample) {
    std::vector<double> q(s.q.size());
    for (size_t i = 0; i < q.size(); ++i)
      q[i] = (i < info.defaultCoordinates.size() ? info.defaultCoordinates[i] : 0.0) +
             0.1 * sample * (1 + static_cast<double>(i % 3)) / 3.0 + 0.013 * static_cast<double>(i);
    for (const QuaternionSlot& slot : info.quaternions) {
      double norm = 0;
      for (int c = 0; c < 4; ++c) norm += q[slot.first + c] * q[slot.first + c];
      for (int c = 0; c < 4; ++c) q[slot.first + c] /= std::sqrt(norm);
    }
    GiNaC::exmap at{{s.t, GiNaC::numeric(0.37 * sample)}};
    for (size_t i = 0; i < q.size(); ++i) at[s.q[i]] = GiNaC::numeric(q[i]);
    for (size_t j = 0; j < s.parameters.size() && j < parameters.size(); ++j)
      at[s.parameters[j]] = GiNaC::numeric(parameters[j] * (1 + 0.013 * sample) +
                                           0.011 * sample * (1 + static_cast<double>(j % 4)));
    samples.push_back(at);
  }
  return samples;
}

// |e| at a sample (NaN where not a real number), and the sum of its terms' sizes there.
std::pair<double, double> valueAndScale(const ex& e, const GiNaC::exmap& at) {
  const auto value = [&](const ex& f) {
    try {
      const ex v = GiNaC::evalf(f.subs(at));
      if (!GiNaC::is_a<GiNaC::numeric>(v) || !GiNaC::ex_to<GiNaC::numeric>(v).is_real())
        return std::nan("");
      return std::abs(GiNaC::ex_to<GiNaC::numeric>(v).to_double());
    } catch (const std::exception&) {
      return std::nan("");
    }
  };
  const ex expanded = GiNaC::expand(e);
  double scale = 0;
  if (GiNaC::is_a<GiNaC::add>(expanded))
    for (const ex& term : expanded) scale += value(term);
  else
    scale = value(expanded);
  return {value(e), scale};
}

struct Context {
  const SymbolicEquations& s;
  const HamiltonianEquations& e;
  std::vector<GiNaC::exmap> samples;
};

bool vanishes(const Context& c, const ex& value) {
  if (value.is_zero()) return true;
  if (expansionBound(value, kExpandLimit) <= kExpandLimit && GiNaC::normal(value).is_zero())
    return true;
  for (const GiNaC::exmap& at : c.samples) {
    const auto [v, scale] = valueAndScale(value, at);
    if (!(v <= 1e-12 * scale)) return false;  // relative to the size of its terms
  }
  return true;
}

// A bracket's value, A of it, whether it is in D and its M-orthogonal projection onto D.
ConstrainedBracket examine(const Context& c, int a, int b, std::vector<ex> value) {
  const int m = static_cast<int>(c.s.y.size()), d = static_cast<int>(c.e.X.size());
  const int kt = static_cast<int>(c.s.constraints.size());
  ConstrainedBracket out{a, b, {}, {}, {}, true};
  for (ex& v : value) v = simplified(v, c.e.order);
  for (int r = 0; r < kt; ++r) {
    ex row = 0;
    for (int g = 0; g < m; ++g) row += c.s.A(r, g) * value[g];
    row = simplified(row, c.e.order);
    out.inD = out.inD && vanishes(c, row);
    out.outside.push_back(row);
  }
  std::vector<std::vector<ex>> K(d, std::vector<ex>(d, 0));
  std::vector<ex> rhs(d, 0);
  for (int i = 0; i < d; ++i)
    for (int al = 0; al < m; ++al)
      for (int be = 0; be < m; ++be) {
        rhs[i] += c.e.X[i][al] * c.s.M(al, be) * value[be];
        for (int j = 0; j < d; ++j) K[i][j] += c.e.X[i][al] * c.s.M(al, be) * c.e.X[j][be];
      }
  std::string why;
  if (auto x = solveLinear(std::move(K), std::move(rhs), c.e.order, why)) out.projected = *x;
  out.value = std::move(value);
  return out;
}

std::string sectionName(const ConstrainedAlgebroid& g, int a) {
  return a < 0 ? "e0" : "X_" + g.velocityNames[g.independent[a]];
}

void decide(ConstrainedAlgebroid& g) {
  g.holonomic = true;
  for (const ConstrainedBracket& b : g.brackets) {
    if (b.inD) continue;
    g.holonomic = false;
    g.verdict = "nonholonomic: [" + sectionName(g, b.a) + ", " + sectionName(g, b.b) +
                "] leaves D = ker A (A of it is not 0), so no relation among the coordinates "
                "gives these constraints (seed 000, Theorem 7)";
    return;
  }
  g.verdict = g.affine || g.timeDependent
                  ? "holonomic: D is closed under the bracket and [e0, D] ⊂ D for the affine "
                    "section e0 = ∂/∂t + y0, so the constraint is a Lie affgebroid (seed 000, "
                    "Theorem 7)"
                  : "holonomic: D = ker A is closed under the bracket (a subalgebroid), so the "
                    "constraints are integrable; on TQ they are the derivatives of relations "
                    "among the coordinates (seed 000, Theorem 7)";
}

// Whether C^c_ab + C^c_ba = 0 for all a, b, c (Theorem 7 is for skew brackets).
bool skewBracket(const Context& c) {
  const int m = static_cast<int>(c.s.y.size());
  std::vector<ex> sums(static_cast<size_t>(m) * m * m, 0);
  for (const StructureCoefficient& k : c.s.structure)
    sums[k.c + m * (std::min(k.a, k.b) + m * std::max(k.a, k.b))] += k.value;
  for (const ex& sum : sums)
    if (!vanishes(c, sum)) return false;
  return true;
}

void formBrackets(const Context& c, ConstrainedAlgebroid& g) {
  const int d = static_cast<int>(g.X.size()), m = static_cast<int>(c.s.y.size());
  for (int a = 0; a < d; ++a)
    for (int b = a + 1; b < d; ++b)
      g.brackets.push_back(examine(c, a, b, algebroidBracketOf(c.s, g.X[a], g.X[b])));
  if (!g.affine && !g.timeDependent) return;
  for (int a = 0; a < d; ++a) {
    std::vector<ex> value = algebroidBracketOf(c.s, g.particular, g.X[a]);
    for (int al = 0; al < m; ++al) value[al] += g.X[a][al].diff(c.s.t);
    g.brackets.push_back(examine(c, -1, a, std::move(value)));
  }
}

}  // namespace

std::vector<ex> algebroidBracketOf(const SymbolicEquations& s, const std::vector<ex>& U,
                                   const std::vector<ex>& V) {
  const int n = static_cast<int>(s.q.size()), m = static_cast<int>(s.y.size());
  std::vector<ex> out(m, 0);
  for (int i = 0; i < n; ++i) {
    ex rhoU = 0, rhoV = 0;
    for (int al = 0; al < m; ++al) {
      rhoU += s.rho(i, al) * U[al];
      rhoV += s.rho(i, al) * V[al];
    }
    for (int g = 0; g < m; ++g) out[g] += rhoU * V[g].diff(s.q[i]) - rhoV * U[g].diff(s.q[i]);
  }
  for (const StructureCoefficient& c : s.structure) out[c.c] += c.value * U[c.a] * V[c.b];
  return out;
}

ConstrainedAlgebroid deriveConstrainedAlgebroid(const SystemModel& system,
                                                const std::vector<double>& parameters) {
  if (system.info().isControlModel())
    throw InputError("system '" + system.name() +
                     "' is a control model: its admissible velocities are its control section, "
                     "not constraints on an algebroid");
  std::lock_guard lock(ginacMutex());
  return constrainedAlgebroidOf(deriveHamiltonianSymbolic(system, parameters), system, parameters);
}

ConstrainedAlgebroid constrainedAlgebroidOf(const HamiltonianEquations& e,
                                            const SystemModel& system,
                                            const std::vector<double>& parameters) {
  std::lock_guard lock(ginacMutex());
  ConstrainedAlgebroid g;
  g.lagrangian = e.lagrangian;
  const SymbolicEquations& s = e.lagrangian;
  g.velocityNames = s.velocityNames;
  if (!e.derived || s.constraints.empty() || !e.bracket) {
    g.notFormedBecause = !e.derived              ? "the system's functions could not be derived"
                         : s.constraints.empty() ? "the system has no constraints"
                                                 : e.noBracketBecause;
    return g;
  }
  g.independent = e.independent;
  g.X = e.X;
  g.particular = e.particular;
  for (const ex& y0 : g.particular) g.affine = g.affine || !y0.is_zero();
  for (const ex& phi : s.constraints) g.timeDependent = g.timeDependent || phi.has(s.t);
  const int n = static_cast<int>(s.q.size()), m = static_cast<int>(s.y.size());
  for (const auto& X : g.X) {
    std::vector<ex> anchor(n, 0);
    for (int i = 0; i < n; ++i) {
      for (int al = 0; al < m; ++al) anchor[i] += s.rho(i, al) * X[al];
      anchor[i] = simplified(anchor[i], e.order);
    }
    g.anchor.push_back(anchor);
  }
  const Context c{
      s, e, sampleStates(system, s, parameters.empty() ? system.defaultParameters() : parameters)};
  if (!skewBracket(c)) {
    g.notFormedBecause =
        "the algebroid's bracket is not skew (a general algebroid): the verdict of Theorem 7 "
        "holds for skew brackets only";
    return g;
  }
  formBrackets(c, g);
  decide(g);
  g.formed = true;
  return g;
}

}  // namespace nh::model
// SPDX-License-Identifier: GPL-3.0-or-later
