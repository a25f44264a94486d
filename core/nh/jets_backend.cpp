// Jets backend (theory §2): forward-mode jets at every call. The reference evaluation,
// and the fallback for systems the tape cannot record.
#include <algorithm>
#include <string>

#include "core/nh/equations_detail.h"
#include "core/nh/errors.h"

namespace nh {

// Seeds for the jets: y + ε_y, t + ε_s, q + ε_s ρy + Σ ε_σα ρ_α. Then
//   ∂/∂y → p, A;  ∂/∂s → ∂_t + ρy·∂_q (the total derivative at frozen y);  ∂/∂σ → ρᵀ∂_q.
void EquationsOfMotion::loadJets(Workspace& w, double t, const double* q, const double* y,
                                 const double* mu) const {
  const CompiledEquations& ce = *compiled_;
  const SystemModel& sys = *ce.system;
  const double* par = ce.parameters.data();
  const int n = ce.n, m = ce.m, kt = ce.kt;
  const int nj = 2 * m + 1, s = m;
  const bool vakonomic = ce.dynamics == DynamicsKind::Vakonomic;
  w.rho.resize(n, m);
  sys.anchor(par, q, w.rho.data());
  w.v.noalias() = w.rho * Eigen::Map<const VecY>(y, m);

  // Lagrangian on a second-order jet.
  // Velocities and time only have the first m+1 directions; coordinates have all 2m+1.
  auto seed2 = [&](Jet2& j, double value, int directions) {
    j.v = value;
    j.n = directions;
    j.n2 = m + 1;
    std::fill(j.g, j.g + directions, 0.0);
    std::fill(j.h, j.h + (m + 1) * (m + 2) / 2, 0.0);
  };
  seed2(w.t2, t, m + 1);
  w.t2.g[s] = 1;
  for (int a = 0; a < m; ++a) {
    seed2(w.y2[a], y[a], m + 1);
    w.y2[a].g[a] = 1;
  }
  for (int i = 0; i < n; ++i) {
    seed2(w.q2[i], q[i], nj);
    w.q2[i].g[s] = w.v[i];
    for (int a = 0; a < m; ++a) w.q2[i].g[m + 1 + a] = w.rho(i, a);
  }
  const Jet2 L = sys.lagrangian(par, w.t2, w.q2, w.y2);
  w.lagrangian = L.v;

  w.M.resize(m, m);
  w.p.resize(m);
  w.F.resize(m);
  w.Lq.resize(m);
  if (L.n2 == 0)
    throw InputError("the Lagrangian of '" + sys.name() + "' does not depend on the velocities");
  for (int a = 0; a < m; ++a) {
    w.p[a] = L.g[a];
    for (int b = 0; b < m; ++b) w.M(a, b) = L.hess(a, b);
    // F = ρᵀ∂L/∂q + Q − (∂p/∂t + ∂p/∂q ρ y); the C-term follows below.
    w.Lq[a] = m + 1 + a < L.n ? L.g[m + 1 + a] : 0.0;
    w.F[a] = w.Lq[a] - L.hess(a, s);
  }

  w.A.resize(kt, m);
  w.b.resize(kt);
  w.phiV.resize(kt);
  if (kt > 0) {
    if (vakonomic) {
      // L̃ = L + μ·Φ: add μ_a times each constraint's derivatives (theory §3).
      sys.constraints(par, w.t2, w.q2, w.y2, w.phi2);
      for (int c = 0; c < kt; ++c) {
        const Jet2& phi = w.phi2[c];
        w.phiV[c] = phi.v;
        if (phi.n == 0)
          throw InputError("constraint " + std::to_string(c + 1) + " of '" + sys.name() +
                           "' is constant");
        w.b[c] = -phi.g[s];
        for (int a = 0; a < m; ++a) {
          w.A(c, a) = phi.g[a];
          w.p[a] += mu[c] * phi.g[a];
          for (int b = 0; b < m; ++b) w.M(a, b) += mu[c] * phi.hess(a, b);
          w.F[a] += mu[c] * ((m + 1 + a < phi.n ? phi.g[m + 1 + a] : 0.0) - phi.hess(a, s));
        }
      }
    } else {
      // Only A (y directions) and b (the s direction) are needed here: m+1 directions.
      auto seed1 = [&](Jet1& j, double value) {
        j.v = value;
        j.n = m + 1;
        std::fill(j.g, j.g + m + 1, 0.0);
      };
      seed1(w.t1, t);
      w.t1.g[s] = 1;
      for (int a = 0; a < m; ++a) {
        seed1(w.y1[a], y[a]);
        w.y1[a].g[a] = 1;
      }
      for (int i = 0; i < n; ++i) {
        seed1(w.q1[i], q[i]);
        w.q1[i].g[s] = w.v[i];
      }
      sys.constraints(par, w.t1, w.q1, w.y1, w.phi1);
      for (int c = 0; c < kt; ++c) {
        const Jet1& phi = w.phi1[c];
        w.phiV[c] = phi.v;
        w.b[c] = s < phi.n ? -phi.g[s] : 0.0;
        for (int a = 0; a < m; ++a) w.A(c, a) = a < phi.n ? phi.g[a] : 0.0;
      }
    }
  }
}

namespace {
const double kZeroMultipliers[kMaxConstraints] = {};  // μ = 0: M̃ = M, and Φ, A do not depend on μ
}  // namespace

void EquationsOfMotion::velocityJacobian(Workspace& w, double t, const double* q,
                                         const double* y) const {
  const CompiledEquations& c = *compiled_;
  if (c.taped) {
    loadTaped(w, t, q, y, kZeroMultipliers);
    return;
  }
  const SystemModel& sys = *c.system;
  const int n = c.n, m = c.m, kt = c.kt;
  w.t1 = Jet1(t);
  for (int i = 0; i < n; ++i) w.q1[i] = Jet1(q[i]);
  for (int a = 0; a < m; ++a) {
    w.y1[a].v = y[a];
    w.y1[a].n = m;
    std::fill(w.y1[a].g, w.y1[a].g + m, 0.0);
    w.y1[a].g[a] = 1;
  }
  sys.constraints(c.parameters.data(), w.t1, w.q1, w.y1, w.phi1);
  w.phiV.resize(kt);
  w.A.resize(kt, m);
  for (int i = 0; i < kt; ++i) {
    w.phiV[i] = w.phi1[i].v;
    for (int a = 0; a < m; ++a) w.A(i, a) = w.phi1[i].n ? w.phi1[i].g[a] : 0.0;
  }
}

void EquationsOfMotion::massMatrix(Workspace& w, double t, const double* q, const double* y) const {
  const CompiledEquations& c = *compiled_;
  if (c.taped) {
    loadTaped(w, t, q, y, kZeroMultipliers);
    return;
  }
  const SystemModel& sys = *c.system;
  const int n = c.n, m = c.m;
  w.t2 = Jet2(t);
  for (int i = 0; i < n; ++i) w.q2[i] = Jet2(q[i]);
  for (int a = 0; a < m; ++a) {
    Jet2& j = w.y2[a];
    j.v = y[a];
    j.n = m;
    j.n2 = m;
    std::fill(j.g, j.g + m, 0.0);
    std::fill(j.h, j.h + m * (m + 1) / 2, 0.0);
    j.g[a] = 1;
  }
  const Jet2 L = sys.lagrangian(c.parameters.data(), w.t2, w.q2, w.y2);
  w.M.resize(m, m);
  for (int a = 0; a < m; ++a)
    for (int b = 0; b < m; ++b) w.M(a, b) = L.n2 ? L.hess(a, b) : 0.0;
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
