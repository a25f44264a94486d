// nh-rattle: symmetric projection around the implicit midpoint rule on the whole state
// x = (q, y) (Hairer, Lubich & Wanner, Geometric Numerical Integration, §V.4.1), with the
// constraint c(t, x) = (Φ then ġ, g, ½(|q_quat|² − 1) per attitude quaternion):
//   x̂0 = x0 + G0ᵀ μ,   x̂1 = x̂0 + h f(t½, (x̂0 + x̂1)/2),   x1 = x̂1 + G1ᵀ μ,   c(t1, x1) = 0,
// G = ∂c/∂x at (t0, x0) and (t1, x1), the same μ at both ends (docs/engine.md).
#include <Eigen/LU>
#include <cmath>
#include <string>

#include "core/nh/dynamics.h"
#include "core/nh/errors.h"
#include "core/nh/integrators.h"
#include "core/nh/landing_stepper.h"
#include "core/nh/linearize.h"
#include "core/nh/scenario.h"
#include "core/nh/small_lu.h"
#include "core/nh/state_derivatives.h"

namespace nh {

namespace {

constexpr int kMaxNewtonIterations = 20;
// A step that needed more iterations than this, or whose updates shrank by less than this
// factor, evaluates ∂f/∂x anew in the next one.
constexpr int kIterationsBeforeRefresh = 4;
constexpr double kRefreshContraction = 1e-2;
// The iteration with a kept matrix gives way to full Newton's method after this many
// iterations, or when an update is not below this fraction of the one before.
constexpr int kSimplifiedIterations = 10;
constexpr double kSlowContraction = 0.25;
// An update this small (relative to max(1, |x|)) changes nothing even in components that
// have decayed by 10⁴ (the sleigh's rotation rate), and time symmetry holds to round-off.
constexpr double kNegligibleUpdate = 1e-18;

// The constraint c(t, x) and G = ∂c/∂x of one system, evaluated without allocating (into its
// own scratch: one per stepper).
class RattleConstraint {
 public:
  explicit RattleConstraint(const EquationsOfMotion& equations)
      : equations_(equations), derivatives_(equations) {
    const SystemModel& sys = equations.system();
    size_ = sys.constraintsTotal() + sys.h() + static_cast<int>(sys.info().quaternions.size());
    Gq_.setZero(sys.h(), sys.n());
  }
  int size() const { return size_; }

  // c and G at (t, x), both sized by the caller (size() and size() × (n + m)).
  void at(double t, const double* x, Eigen::VectorXd& c, Eigen::MatrixXd& G) {
    const SystemModel& sys = equations_.system();
    const int n = sys.n(), kt = sys.constraintsTotal(), h = sys.h();
    G.setZero();
    derivatives_.constraints(work_, t, x, c.head(kt), G.topRows(kt));
    if (h > 0) {
      const double* par = equations_.parameters().data();
      sys.holonomic(par, t, x, c.data() + kt);
      sys.holonomicJacobian(par, t, x, Gq_.data());
      G.block(kt, 0, h, n) = Gq_;
    }
    int row = kt + h;
    for (const QuaternionSlot& qs : sys.info().quaternions) {
      double norm2 = 0;
      for (int i = 0; i < 4; ++i) {
        norm2 += x[qs.first + i] * x[qs.first + i];
        G(row, qs.first + i) = x[qs.first + i];
      }
      c[row++] = 0.5 * (norm2 - 1);
    }
  }
  // ∂f/∂x at (t, x) into J, (n + m) square.
  void jacobian(double t, const double* x, Eigen::MatrixXd& J) {
    derivatives_.jacobian(work_, t, x, J);
  }

 private:
  const EquationsOfMotion& equations_;
  StateDerivatives derivatives_;
  StateDerivativesWorkspace work_;  // the derivatives' evaluation storage
  int size_ = 0;
  Eigen::MatrixXd Gq_;  // ∂g/∂q
};

// The inverse of a small square matrix, applied as a product (a step's solves then need no
// chains of dependent divisions, which cost more than the arithmetic at these sizes).
// Computed with plain loops up to kSmallInverse rows (Eigen's dynamic-size kernels cost
// more in set-up than in arithmetic there), with Eigen above.
constexpr int kSmallInverse = 24;
class SmallInverse {
 public:
  explicit SmallInverse(int size) : inverse_(size, size), column_(size) {}
  void compute(const Eigen::MatrixXd& matrix) {
    const int size = static_cast<int>(matrix.rows());
    switch (size) {  // closed forms (cofactors) up to 4 × 4
      case 1:
        return fixed<1>(matrix);
      case 2:
        return fixed<2>(matrix);
      case 3:
        return fixed<3>(matrix);
      case 4:
        return fixed<4>(matrix);
      default:
        break;
    }
    if (size > kSmallInverse) {
      inverse_ = matrix.partialPivLu().inverse();
      return;
    }
    lu_.compute(matrix, size);
    for (int j = 0; j < size; ++j) {
      column_.setZero();
      column_[j] = 1;
      lu_.solveInPlace(column_);
      inverse_.col(j) = column_;
    }
  }
  const Eigen::MatrixXd& matrix() const { return inverse_; }

 private:
  template <int N>
  void fixed(const Eigen::MatrixXd& matrix) {
    const Eigen::Matrix<double, N, N> a = matrix;
    inverse_ = a.inverse();
  }

  SmallLU<kSmallInverse> lu_;
  Eigen::MatrixXd inverse_;
  Eigen::VectorXd column_;
};

// The unknowns of one step, the values the iteration reads at them and the Newton matrix,
// sized once for the system: a step allocates nothing.
struct RattleWork {
  RattleWork(int size, int kc)
      : x0(size),
        x1(size),
        hat0(size),
        hat1(size),
        mid(size),
        k(size),
        fMid(size),
        c(kc),
        mu(kc),
        residual(size + kc),
        delta(size + kc),
        y(size),
        z(kc),
        fBefore(size),
        fBefore2(size),
        G0(kc, size),
        G1(kc, size),
        J(size, size),
        A(size, size),
        AinvG0(size, kc),
        AinvB(size, kc),
        S(kc, kc),
        Ainv(size),
        Sinv(kc) {}
  double t0 = 0, h = 0;
  Eigen::VectorXd x0, x1;           // the start, the end
  Eigen::VectorXd hat0, hat1, mid;  // x0 + G0ᵀμ, x1 − G1ᵀμ, their mean
  Eigen::VectorXd k, fMid, c, mu;   // a rate, f at the mean, c(t1, x1), the common multiplier
  Eigen::VectorXd residual, delta, y, z;
  // f at the midpoints of the last two steps (of lengths hBefore, hBefore2), newest first;
  // `history` of them belong to the steps that led here.
  Eigen::VectorXd fBefore, fBefore2;
  double hBefore = 0, hBefore2 = 0;
  int history = 0;
  Eigen::MatrixXd G0, G1;  // ∂c/∂x at (t0, x0) and (t1, x1)
  Eigen::MatrixXd J;       // ∂f/∂x at a recent midpoint
  // The Newton matrix [A B; G1 0] by blocks (factor()): A, G0ᵀ − 2 A⁻¹G0ᵀ, A⁻¹B, and the
  // Schur complement S = G1 A⁻¹B.
  Eigen::MatrixXd A, AinvG0, AinvB, S;
  SmallInverse Ainv, Sinv;
  bool jacobianCurrent = false;  // J (and A⁻¹) may serve this step (else evaluated anew)
  double contraction = 0;        // the largest ratio of successive updates in this step

  // The step just taken joins the history.
  void remember() {
    fBefore2.swap(fBefore);
    fBefore = fMid;
    hBefore2 = hBefore;
    hBefore = h;
    history = std::min(history + 1, 2);
  }
};

class NhRattle final : public detail::LandingStepper {
 public:
  explicit NhRattle(const EquationsOfMotion& equations) : equations_(&equations) {}

  // The constraint and the step's scratch are made for the equations at the next initialize.
  void bind(const EquationsOfMotion& equations) override {
    if (&equations == equations_) return;  // (the same ones again: all made stays)
    equations_ = &equations;
    constraint_.reset();
    work_.reset();
  }

  void initialize(const double* x, int size, double t, double dt) override {
    checkIntegratorApplies(Integrator::NhRattle, *equations_);
    if (!constraint_) {
      constraint_ = std::make_unique<RattleConstraint>(*equations_);
      work_ = std::make_unique<RattleWork>(size, constraint_->size());
    }
    // A restart where the last step ended (after the projection, which moves the state by
    // round-off) keeps ∂f/∂x; a jump elsewhere does not.
    if (!continuesLastStep(x, t)) {
      work_->jacobianCurrent = false;
      work_->history = 0;
    }
    LandingStepper::initialize(x, size, t, dt);
  }
  int order() const override { return 2; }

 private:
  bool continuesLastStep(const double* x, double t) const {
    if (t != t_ || x_.empty()) return false;
    for (std::size_t i = 0; i < x_.size(); ++i)
      if (std::abs(x[i] - x_[i]) > 1e-8 * (1 + std::abs(x_[i]))) return false;
    return true;
  }

  // A step from start_: Newton's method with ∂f/∂x kept from earlier steps while the
  // iteration contracts quickly, else full Newton's method.
  void step(const StepperRhs& f, double dt, bool lands, bool) override {
    RattleWork& s = *work_;
    s.t0 = t_;
    s.h = dt;
    s.x0 = Eigen::Map<const Eigen::VectorXd>(start_.data(), start_.size());
    constraint_->at(s.t0, s.x0.data(), s.c, s.G0);
    int iterations = solve(f, s, false);
    if (iterations < 0) iterations = solve(f, s, true);
    if (iterations < 0) {
      s.history = 0;
      throw StepFailure(
          "nh-rattle: Newton's method on the implicit midpoint equations did not "
          "converge in " +
          std::to_string(kMaxNewtonIterations) + " iterations with step " + formatValue(s.h) +
          "; take a smaller --step");
    }
    if (iterations > kIterationsBeforeRefresh || s.contraction > kRefreshContraction)
      s.jacobianCurrent = false;
    s.remember();
    Eigen::Map<Eigen::VectorXd>(x_.data(), x_.size()) = s.x1;
    t_ = lands ? stop_ : t_ + dt;
  }

  // The first iterate: after two steps, x0 + h f with f at the midpoint extrapolated
  // linearly from the last two steps' midpoints and μ as in the last step (no evaluation);
  // else the explicit midpoint rule's step and μ = 0.
  void guess(const StepperRhs& f, RattleWork& s, bool extrapolate) const {
    if (extrapolate) {
      const double slope = (s.hBefore + s.h) / (s.hBefore + s.hBefore2);
      s.x1 = s.x0 + s.h * (s.fBefore + slope * (s.fBefore - s.fBefore2));
      return;
    }
    f(s.t0, s.x0.data(), s.k.data());
    s.mid = s.x0 + 0.5 * s.h * s.k;
    f(s.t0 + 0.5 * s.h, s.mid.data(), s.k.data());
    s.x1 = s.x0 + s.h * s.k;
    s.mu.setZero();
  }

  // The Newton matrix at the iterate by blocks,
  //   [ A    B  ]   A = I − h/2 J,  B = −(G0ᵀ + G1ᵀ) − h/2 J (G0ᵀ − G1ᵀ),
  //   [ G1   0  ]
  // in the form newtonUpdate() uses: A⁻¹ with J at the midpoint s.mid when `refresh` (else
  // the one kept). Since h/2 J = I − A, A⁻¹B = G0ᵀ − 2 A⁻¹G0ᵀ − G1ᵀ: the product is formed
  // here once a step, the rest with each iterate's G1 by followIterate().
  // (Coefficient-wise products: Eigen's blocked ones cost more in packing at these sizes.)
  void factor(RattleWork& s, bool refresh) const {
    if (refresh) {
      constraint_->jacobian(s.t0 + 0.5 * s.h, s.mid.data(), s.J);
      s.A = -0.5 * s.h * s.J;
      s.A.diagonal().array() += 1;
      s.Ainv.compute(s.A);
      s.jacobianCurrent = true;
    }
    s.AinvG0.noalias() = s.Ainv.matrix().lazyProduct(s.G0.transpose());
    s.AinvG0 *= -2;
    s.AinvG0 += s.G0.transpose();
  }

  // A⁻¹B and the inverse of the Schur complement S = G1 A⁻¹B at the iterate's G1.
  void followIterate(RattleWork& s) const {
    s.AinvB = s.AinvG0 - s.G1.transpose();
    s.S.noalias() = s.G1.lazyProduct(s.AinvB);
    s.Sinv.compute(s.S);
  }

  // delta = the Newton matrix⁻¹ residual, by blocks: y = A⁻¹ r1, δμ = S⁻¹(G1 y − r2),
  // δx = y − A⁻¹B δμ.
  void newtonUpdate(RattleWork& s) const {
    const int size = static_cast<int>(s.x0.size()), kc = constraint_->size();
    s.y.noalias() = s.Ainv.matrix().lazyProduct(s.residual.head(size));
    s.z = -s.residual.tail(kc);
    s.z.noalias() += s.G1.lazyProduct(s.y);
    s.delta.tail(kc).noalias() = s.Sinv.matrix().lazyProduct(s.z);
    s.delta.head(size) = s.y;
    s.delta.head(size).noalias() -= s.AinvB.lazyProduct(s.delta.tail(kc));
  }

  // The residual of the step's equations at the iterate (x1, μ), c(t1, x1) and G1 included:
  //   R1 = (x1 − G1ᵀμ) − (x0 + G0ᵀμ) − h f(t½, ((x0 + G0ᵀμ) + (x1 − G1ᵀμ))/2),  R2 = c(t1, x1).
  void residual(const StepperRhs& f, RattleWork& s) {
    const int size = static_cast<int>(s.x0.size()), kc = constraint_->size();
    constraint_->at(s.t0 + s.h, s.x1.data(), s.c, s.G1);
    s.hat0 = s.x0;
    s.hat0.noalias() += s.G0.transpose().lazyProduct(s.mu);
    s.hat1 = s.x1;
    s.hat1.noalias() -= s.G1.transpose().lazyProduct(s.mu);
    s.mid = 0.5 * (s.hat0 + s.hat1);
    f(s.t0 + 0.5 * s.h, s.mid.data(), s.fMid.data());
    s.residual.head(size) = s.hat1 - s.hat0 - s.h * s.fMid;
    s.residual.tail(kc) = s.c;
  }

  // Newton's method on (x1, μ) from guess(). ∂f/∂x is exact from the tape; the term
  // μ·∂²c/∂x² of ∂R1/∂x1 is left out (μ is of the size of the local error), which costs a
  // little contraction but not the round-off end. `full`: ∂f/∂x anew at every iterate;
  // else ∂f/∂x (and A⁻¹) of the first iterate or kept from earlier steps when current, G1
  // at every iterate, given up (−1) as soon as it contracts slowly. Returns the iterations
  // taken, or −1 when it did not converge.
  int solve(const StepperRhs& f, RattleWork& s, bool full) {
    const int size = static_cast<int>(s.x0.size()), kc = constraint_->size();
    const int limit = full ? kMaxNewtonIterations : kSimplifiedIterations;
    guess(f, s, !full && s.history == 2 && s.hBefore + s.hBefore2 > 0);
    s.contraction = 0;
    double previous = std::numeric_limits<double>::infinity();
    for (int iter = 0; iter < limit; ++iter) {
      residual(f, s);
      if (full || iter == 0) factor(s, full || !s.jacobianCurrent);
      followIterate(s);
      newtonUpdate(s);
      if (!s.delta.allFinite()) return -1;
      s.x1 -= s.delta.head(size);
      s.mu -= s.delta.tail(kc);
      const double scale = std::max(1.0, s.x1.cwiseAbs().maxCoeff());
      const double update = s.delta.head(size).cwiseAbs().maxCoeff() / scale;
      if (iter > 0 && previous > 1e-13) s.contraction = std::max(s.contraction, update / previous);
      // Converged: the first update at rounding level, or the next one predicted (this one
      // times the rate of contraction) far below it, or no longer shrinking once close
      // (rounding noise).
      if ((iter == 0 && update <= 1e-15) ||
          (iter > 0 && update / previous * update <= kNegligibleUpdate) ||
          (update >= previous && update <= 1e-11))
        return iter + 1;
      if (!full && update > 1e-11 && update > kSlowContraction * previous) return -1;
      previous = update;
    }
    return -1;
  }

  const EquationsOfMotion* equations_;            // bound (bind)
  std::unique_ptr<RattleConstraint> constraint_;  // made for them (none: at the next initialize)
  std::unique_ptr<RattleWork> work_;
};

}  // namespace

std::unique_ptr<Stepper> makeNhRattle(const EquationsOfMotion& equations) {
  return std::make_unique<NhRattle>(equations);
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
