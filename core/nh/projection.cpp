// Constraint handling outside the right-hand side: completion of initial velocities and
// drift control after a step (theory §4).
#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <cmath>

#include "core/nh/equations_detail.h"
#include "core/nh/quaternion.h"

namespace nh {

namespace {
using MatKQ =
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxConstraints, kMaxCoordinates>;
}  // namespace

bool EquationsOfMotion::completeVelocities(EquationsWorkspace& ws, double t, double* x,
                                           const std::vector<bool>& keep) const {
  const CompiledEquations& ce = *compiled_;
  const int n = ce.n, m = ce.m, kt = ce.kt;
  if (kt == 0) return true;
  Workspace& w = prepare(ws);
  double* y = x + n;
  int freeIdx[kMaxVelocities];
  int f = 0;
  for (int a = 0; a < m; ++a)
    if (a >= static_cast<int>(keep.size()) || !keep[a]) freeIdx[f++] = a;
  if (f < kt) return false;
  // Newton iterations on Φ(y) = 0 over the free velocities, minimal change in the metric M.
  // Tolerances relative to the size of the terms of Φ (|A||y|): 1e7 m/s velocities
  // cannot be met to 1e-14 absolute.
  auto tolerance = [&](double relative) {
    double scale = 1;
    for (int c = 0; c < kt; ++c)
      for (int a = 0; a < m; ++a) scale = std::max(scale, std::abs(w.A(c, a) * y[a]));
    return relative * scale;
  };
  for (int iter = 0; iter < 20; ++iter) {
    velocityJacobian(w, t, x, y);
    if (w.phiV.cwiseAbs().maxCoeff() < tolerance(1e-14)) return true;
    if (!ce.taped) massMatrix(w, t, x, y);  // the taped program has just produced M as well
    MatY Mf(f, f);
    MatKY Af(kt, f);
    for (int i = 0; i < f; ++i) {
      for (int j = 0; j < f; ++j) Mf(i, j) = w.M(freeIdx[i], freeIdx[j]);
      for (int c = 0; c < kt; ++c) Af(c, i) = w.A(c, freeIdx[i]);
    }
    Eigen::PartialPivLU<MatY> lu(Mf);
    if (!(reciprocalCondition(lu) >
          kMinReciprocalCondition)) {  // degenerate metric: fall back to Euclidean
      Mf.setIdentity();
      lu.compute(Mf);
    }
    const MatYK MinvAt = lu.solve(Af.transpose());
    const MatK S = Af * MinvAt;
    Eigen::FullPivLU<MatK> luS(S);
    if (luS.rank() < kt) return false;
    const VecK correction = luS.solve(w.phiV);
    const VecY delta = -MinvAt * correction;
    for (int i = 0; i < f; ++i) y[freeIdx[i]] += delta[i];
  }
  velocityJacobian(w, t, x, y);
  return w.phiV.cwiseAbs().maxCoeff() < tolerance(1e-10);
}

double EquationsOfMotion::project(EquationsWorkspace& ws, double t, double* x) const {
  const CompiledEquations& ce = *compiled_;
  const SystemModel& sys = *ce.system;
  const int n = ce.n, kt = ce.kt, h = sys.h();
  for (const QuaternionSlot& qs : sys.info().quaternions) normaliseQuaternion(x + qs.first);
  if (h > 0) {
    // Gauss–Newton: q ← q − Gᵀ (G Gᵀ)⁻¹ g.
    const double* par = ce.parameters.data();
    VecK g(h);
    MatKQ G(h, n);
    // With declared dependent coordinates: Newton on those alone, q_d ← q_d − G_d⁻¹ g.
    const std::vector<int>& dependent = sys.dependentIndices();
    for (int iter = 0; iter < 10; ++iter) {
      sys.holonomic(par, t, x, g.data());
      if (g.cwiseAbs().maxCoeff() < 1e-15) break;
      sys.holonomicJacobian(par, t, x, G.data());
      if (!dependent.empty()) {
        MatK Gd(h, h);
        for (int c = 0; c < h; ++c) Gd.col(c) = G.col(dependent[c]);
        const VecK dq = Gd.partialPivLu().solve(g);
        for (int c = 0; c < h; ++c) x[dependent[c]] -= dq[c];
        continue;
      }
      const MatK GGt = G * G.transpose();
      const VecK correction = GGt.ldlt().solve(g);
      const VecQ dq = G.transpose() * correction;
      for (int i = 0; i < n; ++i) x[i] -= dq[i];
    }
  }
  if (kt > 0) {
    static const std::vector<bool> kAllFree;  // shorter than m: every velocity is free
    completeVelocities(ws, t, x, kAllFree);
  }
  return residual(t, x);
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
