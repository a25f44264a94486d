// Dense LU with partial pivoting for the engine's tiny matrices (n ≤ Cap ≤ 12). Eigen's
// dynamic-size kernels are built for large matrices; at this size their set-up dominates
// the right-hand side (measured: ~40% of an evaluation), while plain loops are cheap.
#pragma once

#include <cmath>
#include <utility>

namespace nh {

template <int Cap>
class SmallLU {
 public:
  // Factorises D A D for the n×n matrix A = matrix(i, j), with D = diag(|a_ii|^-½) (1 where
  // a_ii = 0): equilibrated, so that a badly scaled but regular matrix (diag(1, 1/r²), say)
  // is not mistaken for a singular one.
  template <class Matrix>
  void compute(const Matrix& matrix, int n) {
    n_ = n;
    for (int i = 0; i < n; ++i) {
      const double d = std::abs(matrix(i, i));
      scale_[i] = d > 0 && std::isfinite(d) ? 1.0 / std::sqrt(d) : 1.0;
    }
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) a_[i][j] = scale_[i] * matrix(i, j) * scale_[j];
    minPivot_ = INFINITY;
    maxPivot_ = 0;
    for (int k = 0; k < n; ++k) {
      int p = k;
      for (int i = k + 1; i < n; ++i)
        if (std::abs(a_[i][k]) > std::abs(a_[p][k])) p = i;
      piv_[k] = p;
      if (p != k)
        for (int j = 0; j < n; ++j) std::swap(a_[k][j], a_[p][j]);
      const double pivot = a_[k][k];
      minPivot_ = std::min(minPivot_, std::abs(pivot));
      maxPivot_ = std::max(maxPivot_, std::abs(pivot));
      if (pivot == 0) continue;
      const double inv = 1.0 / pivot;
      for (int i = k + 1; i < n; ++i) {
        const double l = a_[i][k] *= inv;
        if (l != 0)
          for (int j = k + 1; j < n; ++j) a_[i][j] -= l * a_[k][j];
      }
    }
  }

  // Smallest over largest pivot of the equilibrated matrix: a cheap estimate of
  // 1/condition number, 0 for a singular matrix.
  double reciprocalCondition() const {
    if (n_ == 0) return 1;
    return maxPivot_ > 0 && std::isfinite(minPivot_) ? minPivot_ / maxPivot_ : 0.0;
  }

  // b ← A⁻¹ b for a vector of n entries with operator[].
  template <class Vector>
  void solveInPlace(Vector& b) const {
    for (int i = 0; i < n_; ++i) b[i] *= scale_[i];
    for (int k = 0; k < n_; ++k)
      if (piv_[k] != k) std::swap(b[k], b[piv_[k]]);
    for (int i = 1; i < n_; ++i) {
      double s = b[i];
      for (int j = 0; j < i; ++j) s -= a_[i][j] * b[j];
      b[i] = s;
    }
    for (int i = n_ - 1; i >= 0; --i) {
      double s = b[i];
      for (int j = i + 1; j < n_; ++j) s -= a_[i][j] * b[j];
      b[i] = s / a_[i][i];
    }
    for (int i = 0; i < n_; ++i) b[i] *= scale_[i];
  }

 private:
  int n_ = 0;
  double a_[Cap][Cap];
  double scale_[Cap];
  int piv_[Cap];
  double minPivot_ = 0, maxPivot_ = 0;
};

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
