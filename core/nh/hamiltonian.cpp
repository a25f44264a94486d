// The dual side (theory §8): the Legendre transform p = ∂L/∂y to E*, its inverse by Newton's
// method on the exact M = ∂²L/∂y², and Hamilton's equations for the algebroid's linear
// Poisson structure with the constraint force that keeps the flow on the constraint:
//   {q^i, p_α} = ρ^i_α,  {p_α, p_β} = −C^γ_{αβ} p_γ  (as seed 000's (5.11) orders the indices),
//   q̇ = ρ ∂H/∂p = ρ y,   ṗ = −ρᵀ∂H/∂q + C^γ_{βα} y^β p_γ + Q + Aᵀλ,   ∂H/∂q = −∂L/∂q.
// λ makes the flow keep Φ = 0: with ẏ = M⁻¹(ṗ − ∂p/∂t − ∂p/∂q q̇) (the derivative of y(t, q, p)),
// A ẏ = b is the same linear system for λ as the multipliers' (A M⁻¹ Aᵀ regular: seed 002's
// condition for the projection of the free Hamiltonian vector field).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/nh/equations_detail.h"
#include "core/nh/errors.h"
#include "core/nh/messages.h"
#include "core/nh/scenario.h"

namespace nh {

namespace {

constexpr int kMaxLegendreIterations = 50;
const double kNoMultipliers[kMaxConstraints] = {};  // nonholonomic: no μ in the state

// "x = 1, y = 0.5": the values of `names` (each after `prefix`) from `values`.
std::string namedValues(const std::vector<std::string>& names, const char* prefix,
                        const double* values) {
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < names.size(); ++i)
    parts.push_back(prefix + names[i] + " = " + formatValue(values[i]));
  return joined(parts, ", ");
}

}  // namespace

void EquationsOfMotion::toMomenta(EquationsWorkspace& ws, double t, const double* x,
                                  double* z) const {
  const CompiledEquations& ce = *compiled_;
  const int n = ce.n, m = ce.m;
  Workspace& w = prepare(ws);
  if (ce.taped)
    loadTaped(w, t, x, x + n, kNoMultipliers);
  else
    loadJets(w, t, x, x + n, kNoMultipliers);
  std::copy(x, x + n, z);
  for (int a = 0; a < m; ++a) z[n + a] = w.p[a];
}

// Newton's method on ∂L/∂y(t, q, y) = p from w.yLegendre; w is left loaded at the solution.
// An affine p(y) (the usual quadratic L) takes one step; otherwise steps go on until they are
// at rounding level.
void EquationsOfMotion::invertLegendre(Workspace& w, double t, const double* q,
                                       const double* p) const {
  const CompiledEquations& ce = *compiled_;
  const SystemModel& sys = *ce.system;
  const int m = ce.m;
  constexpr double kEps = std::numeric_limits<double>::epsilon();
  auto load = [&] {
    if (ce.taped)
      loadTaped(w, t, q, w.yLegendre.data(), kNoMultipliers);
    else
      loadJets(w, t, q, w.yLegendre.data(), kNoMultipliers);
  };
  auto state = [&] {
    return "state (" + namedValues(sys.info().coordinates, "", q) + ", " +
           namedValues(sys.info().velocities, "p_", p) + ")";
  };
  for (int iteration = 0; iteration < kMaxLegendreIterations; ++iteration) {
    load();
    w.step.resize(m);
    for (int a = 0; a < m; ++a) w.step[a] = w.p[a] - p[a];
    w.luLegendre.compute(w.M);
    if (!(reciprocalCondition(w.luLegendre) >= kMinReciprocalCondition))
      throw SingularSystemError(
          "the Legendre map of '" + echoInput(sys.name()) +
              "' is singular at t = " + formatValue(t) + ", " + state() +
              ": ∂²L/∂y² cannot be inverted there, so the hamiltonian formulation has no "
              "velocities for these momenta (choose multipliers or gibbs-appell)",
          t, std::numeric_limits<double>::infinity());
    w.step = w.luLegendre.solve(w.step);
    w.yLegendre -= w.step;
    const double size = 1 + w.yLegendre.cwiseAbs().maxCoeff();
    if (ce.momentaLinear || w.step.cwiseAbs().maxCoeff() <= 8 * kEps * size) {
      load();
      return;
    }
  }
  throw SingularSystemError("the Legendre map of '" + echoInput(sys.name()) +
                                "' cannot be inverted at t = " + formatValue(t) + ", " + state() +
                                ": Newton's method does not converge in " +
                                std::to_string(kMaxLegendreIterations) + " steps",
                            t, std::numeric_limits<double>::infinity());
}

void EquationsOfMotion::fromMomenta(EquationsWorkspace& ws, double t, const double* z,
                                    double* x) const {
  const CompiledEquations& ce = *compiled_;
  const int n = ce.n, m = ce.m;
  Workspace& w = prepare(ws);
  w.yLegendre.resize(m);
  for (int a = 0; a < m; ++a) w.yLegendre[a] = std::isfinite(x[n + a]) ? x[n + a] : 0.0;
  invertLegendre(w, t, z, z + n);
  std::copy(z, z + n, x);
  for (int a = 0; a < m; ++a) x[n + a] = w.yLegendre[a];
}

void EquationsOfMotion::momentumRhs(EquationsWorkspace& ws, double t, const double* z,
                                    double* dzdt) const {
  const CompiledEquations& ce = *compiled_;
  const SystemModel& sys = *ce.system;
  const int n = ce.n, m = ce.m, kt = ce.kt;
  Workspace& w = prepare(ws);
  // The previous call's velocities are the guess (they are nearby within a step).
  if (w.yLegendre.size() != m) w.yLegendre.setZero(m);
  const double* q = z;
  const double* p = z + n;
  invertLegendre(w, t, q, p);
  const double* y = w.yLegendre.data();
  // λ from the Lagrangian side's F (with the C-term and Q) at (t, q, y(t, q, p)).
  completeForce(w, t, q, y);
  solveMultipliers(w, t);
  // Hamilton's equations for the linear Poisson structure, and the constraint force.
  for (int i = 0; i < n; ++i) dzdt[i] = w.v[i];
  double* pdot = dzdt + n;
  for (int a = 0; a < m; ++a) pdot[a] = w.Lq[a];
  if (sys.hasStructure()) addStructureTerm(w, q, y, p, pdot);
  if (sys.hasForce())
    for (int a = 0; a < m; ++a) pdot[a] += w.Q[a];
  for (int c = 0; c < kt; ++c)
    for (int a = 0; a < m; ++a) pdot[a] += w.A(c, a) * w.lambda[c];
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
