// The Gibbs–Appell solution (seed 003 §7.2) in constraint-adapted quasi-velocities:
// ẏ = ẏ_p + N ż with A N = 0, A ẏ_p = b, (Nᵀ M N) ż = Nᵀ (F − M ẏ_p); N and ẏ_p from the
// QR factorisation Aᵀ = Q R. Independent of the multipliers solution (a test compares them).
#include "core/nh/equations_detail.h"

namespace nh {

void EquationsOfMotion::solveGibbsAppell(Workspace& w, double t) const {
  const int m = compiled_->m, kt = compiled_->kt;
  const int d = m - kt;
  w.ydot.resize(m);
  w.lambda.resize(kt);
  w.Qfull.resize(m, m);
  w.Qfull.setIdentity();
  w.ydotParticular.setZero(m);
  if (kt > 0) {  // without constraints N = 1 and ẏ_p = 0: ż = ẏ solves M ẏ = F by LU
    w.qr.compute(w.A.transpose());
    double dmin = INFINITY, dmax = 0;
    for (int c = 0; c < kt; ++c) {
      dmin = std::min(dmin, std::abs(w.qr.matrixQR()(c, c)));
      dmax = std::max(dmax, std::abs(w.qr.matrixQR()(c, c)));
    }
    if (!(dmin > kMinReciprocalCondition * dmax))
      throwSingular("the constraint matrix A = ∂Φ/∂y", t, w.A);
    w.Qfull.applyOnTheLeft(w.qr.householderQ());
    const auto R = w.qr.matrixQR().topRows(kt).template triangularView<Eigen::Upper>();
    const VecK wv = R.transpose().solve(w.b);
    w.ydotParticular.noalias() = w.Qfull.leftCols(kt) * wv;
  }
  w.K.resize(d, d);
  w.K.noalias() = w.Qfull.rightCols(d).transpose() * w.M * w.Qfull.rightCols(d);
  // Equilibrated (D K D with D = diag(|K_ii|)^(-1/2), 1 where K_ii = 0) before the LU and its
  // condition estimate, as the multipliers solution's LU of M is (small_lu.h): entries of
  // very different sizes (a ball with a tiny moment of inertia) are regular in both
  // formulations.
  w.kScale.resize(d);
  for (int i = 0; i < d; ++i) {
    const double k = std::abs(w.K(i, i));
    w.kScale[i] = k > 0 && std::isfinite(k) ? 1 / std::sqrt(k) : 1.0;
  }
  for (int i = 0; i < d; ++i)
    for (int j = 0; j < d; ++j) w.K(i, j) *= w.kScale[i] * w.kScale[j];
  w.luK.compute(w.K);
  const double rcK = reciprocalCondition(w.luK);
  if (!(rcK > kMinReciprocalCondition))
    throwSingular(kt > 0 ? "the reduced mass matrix Nᵀ M N" : "the mass matrix M = ∂²L/∂y²", t,
                  w.K);
  w.rhs.resize(m);
  w.rhs.noalias() = w.F - w.M * w.ydotParticular;
  const VecY scaledRhs = w.kScale.cwiseProduct(w.Qfull.rightCols(d).transpose() * w.rhs);
  const VecY scaledZ = w.luK.solve(scaledRhs);
  const VecY z = w.kScale.cwiseProduct(scaledZ);
  w.ydot = w.ydotParticular;
  w.ydot.noalias() += w.Qfull.rightCols(d) * z;
  if (kt > 0) {
    // Multipliers only for reporting: R λ = Q₁ᵀ (M ẏ − F).
    w.rhs.noalias() = w.M * w.ydot - w.F;
    w.lambda.noalias() = w.Qfull.leftCols(kt).transpose() * w.rhs;
    w.qr.matrixQR().topRows(kt).template triangularView<Eigen::Upper>().solveInPlace(w.lambda);
  }
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
