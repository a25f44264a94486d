// The multipliers solution of M ẏ − Aᵀ λ = F, A ẏ = b (theory §2): λ = S⁻¹ (b − A M⁻¹ F),
// S = A M⁻¹ Aᵀ, ẏ = M⁻¹ (F + Aᵀ λ).
#include "core/nh/equations_detail.h"

namespace nh {

MultiplierFactors::Result MultiplierFactors::compute(const MatY& M, const MatKY& A, int m, int kt) {
  luM.compute(M, m);
  if (!(luM.reciprocalCondition() > kMinReciprocalCondition)) return Result::SingularM;
  MinvAt.resize(m, kt);
  for (int c = 0; c < kt; ++c) {
    double* col = MinvAt.col(c).data();
    for (int a = 0; a < m; ++a) col[a] = A(c, a);
    luM.solveInPlace(col);
  }
  S.resize(kt, kt);
  for (int c = 0; c < kt; ++c)
    for (int d = 0; d < kt; ++d) {
      double sum = 0;
      for (int a = 0; a < m; ++a) sum += A(c, a) * MinvAt(a, d);
      S(c, d) = sum;
    }
  luS.compute(S, kt);
  if (kt > 0 && !(luS.reciprocalCondition() > kMinReciprocalCondition)) return Result::SingularS;
  return Result::Regular;
}

void EquationsOfMotion::solveMultipliers(Workspace& w, double t) const {
  const CompiledEquations& ce = *compiled_;
  const int m = ce.m, kt = ce.kt;
  // Constant regular M and A were factorised when the equations were compiled.
  const MultiplierFactors* factors = &ce.factors;
  if (!ce.constantFactors) {
    switch (w.factors.compute(w.M, w.A, m, kt)) {
      case MultiplierFactors::Result::SingularM:
        throwSingular("the mass matrix M = ∂²L/∂y²", t, w.M);
      case MultiplierFactors::Result::SingularS:
        throwSingular("A M⁻¹ Aᵀ", t, w.factors.S);
      case MultiplierFactors::Result::Regular:
        break;
    }
    factors = &w.factors;
  }
  w.ydot.resize(m);
  w.lambda.resize(kt);
  w.rhs = w.F;
  factors->luM.solveInPlace(w.rhs);  // free acceleration M⁻¹F
  if (kt == 0) {
    w.ydot = w.rhs;
    return;
  }
  for (int c = 0; c < kt; ++c) {  // λ = S⁻¹ (b − A ẏ_free)
    double sum = w.b[c];
    for (int a = 0; a < m; ++a) sum -= w.A(c, a) * w.rhs[a];
    w.lambda[c] = sum;
  }
  factors->luS.solveInPlace(w.lambda);
  for (int a = 0; a < m; ++a) {
    double sum = w.rhs[a];
    for (int c = 0; c < kt; ++c) sum += factors->MinvAt(a, c) * w.lambda[c];
    w.ydot[a] = sum;
  }
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
