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
#include "core/nh/landing_stepper.h"
#include "core/nh/linearize.h"
#include "core/nh/scenario.h"
#include "core/nh/simulation.h"

namespace nh {

namespace {

constexpr int kMaxNewtonIterations = 20;

// Refuses, in one line, the equations nh-rattle does not step.
void checkRattleApplies(const EquationsOfMotion& equations) {
  checkIntegratorApplies(Integrator::NhRattle, equations.dynamics(), equations.formulation());
  if (!equations.isTaped())
    throw InputError("nh-rattle needs the exact derivatives of the tape, and the functions of '" +
                     equations.system().name() +
                     "' cannot be recorded on it; choose another integrator");
}

// The constraint c(t, x) and G = ∂c/∂x of one system.
class RattleConstraint {
 public:
  explicit RattleConstraint(const EquationsOfMotion& equations)
      : equations_(equations), derivatives_(equations) {
    const SystemModel& sys = equations.system();
    size_ = sys.constraintsTotal() + sys.h() + static_cast<int>(sys.info().quaternions.size());
  }
  int size() const { return size_; }

  // c and G at (t, x).
  void at(double t, const double* x, Eigen::VectorXd& c, Eigen::MatrixXd& G) const {
    const SystemModel& sys = equations_.system();
    const int n = sys.n(), dims = n + sys.m(), kt = sys.constraintsTotal(), h = sys.h();
    c.resize(size_);
    G.setZero(size_, dims);
    derivatives_.constraints(t, x, phi_, dphi_);
    c.head(kt) = phi_;
    G.topRows(kt) = dphi_;
    if (h > 0) {
      const double* par = equations_.parameters().data();
      Eigen::MatrixXd Gq(h, n);
      sys.holonomic(par, t, x, c.data() + kt);
      sys.holonomicJacobian(par, t, x, Gq.data());
      G.block(kt, 0, h, n) = Gq;
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
  const StateDerivatives& derivatives() const { return derivatives_; }

 private:
  const EquationsOfMotion& equations_;
  StateDerivatives derivatives_;
  int size_ = 0;
  mutable Eigen::VectorXd phi_;
  mutable Eigen::MatrixXd dphi_;
};

// The unknowns of one step and the values the iteration reads at them.
struct RattleStep {
  double t0 = 0, h = 0;
  Eigen::VectorXd x0, x1, mu;  // the start, the end, the common multiplier
  Eigen::MatrixXd G0;          // ∂c/∂x at (t0, x0)
};

class NhRattle final : public detail::LandingStepper {
 public:
  explicit NhRattle(const std::shared_ptr<const EquationsOfMotion>& equations)
      : equations_(equations) {}

  void initialize(const double* x, int size, double t, double dt) override {
    checkRattleApplies(*equations_);
    if (compiledFor_ != equations_) {
      constraint_ = std::make_unique<RattleConstraint>(*equations_);
      compiledFor_ = equations_;
    }
    LandingStepper::initialize(x, size, t, dt);
  }
  int order() const override { return 2; }

 private:
  void step(const StepperRhs& f, double dt, bool lands, bool) override {
    RattleStep s;
    s.t0 = t_;
    s.h = dt;
    s.x0 = Eigen::Map<const Eigen::VectorXd>(start_.data(), start_.size());
    Eigen::VectorXd c0;
    constraint_->at(s.t0, s.x0.data(), c0, s.G0);
    guess(f, s);
    solve(f, s);
    Eigen::Map<Eigen::VectorXd>(x_.data(), x_.size()) = s.x1;
    t_ = lands ? stop_ : t_ + dt;
  }

  // The explicit midpoint rule's step as the first iterate, μ = 0.
  void guess(const StepperRhs& f, RattleStep& s) const {
    const int size = static_cast<int>(s.x0.size());
    Eigen::VectorXd k(size), half(size);
    f(s.t0, s.x0.data(), k.data());
    half = s.x0 + 0.5 * s.h * k;
    f(s.t0 + 0.5 * s.h, half.data(), k.data());
    s.x1 = s.x0 + s.h * k;
    s.mu.setZero(constraint_->size());
  }

  // Newton's method on (x1, μ) for
  //   R1 = (x1 − G1ᵀμ) − (x0 + G0ᵀμ) − h f(t½, ((x0 + G0ᵀμ) + (x1 − G1ᵀμ))/2) = 0,
  //   R2 = c(t1, x1) = 0,
  // with ∂f/∂x exact from the tape; the term μ·∂²c/∂x² of ∂R1/∂x1 is left out (μ is of the
  // size of the local error), so the iteration contracts by that much more per step than
  // Newton's and still ends at round-off.
  void solve(const StepperRhs& f, RattleStep& s) const {
    const int size = static_cast<int>(s.x0.size()), kc = constraint_->size();
    const double tHalf = s.t0 + 0.5 * s.h, t1 = s.t0 + s.h;
    Eigen::VectorXd c1, fMid(size), residual(size + kc);
    Eigen::MatrixXd G1, system(size + kc, size + kc);
    double previous = std::numeric_limits<double>::infinity();
    for (int iter = 0; iter < kMaxNewtonIterations; ++iter) {
      constraint_->at(t1, s.x1.data(), c1, G1);
      const Eigen::VectorXd mid =
          0.5 * (s.x0 + s.G0.transpose() * s.mu + s.x1 - G1.transpose() * s.mu);
      f(tHalf, mid.data(), fMid.data());
      residual.head(size) =
          s.x1 - G1.transpose() * s.mu - s.x0 - s.G0.transpose() * s.mu - s.h * fMid;
      residual.tail(kc) = c1;
      const Eigen::MatrixXd J = constraint_->derivatives().jacobian(tHalf, mid.data());
      system.setZero();
      system.topLeftCorner(size, size) = Eigen::MatrixXd::Identity(size, size) - 0.5 * s.h * J;
      system.topRightCorner(size, kc) = -(G1.transpose() + s.G0.transpose()) -
                                        0.5 * s.h * J * (s.G0.transpose() - G1.transpose());
      system.bottomLeftCorner(kc, size) = G1;
      const Eigen::PartialPivLU<Eigen::MatrixXd> lu(system);
      const Eigen::VectorXd delta = lu.solve(residual);
      if (!delta.allFinite()) break;
      s.x1 -= delta.head(size);
      s.mu -= delta.tail(kc);
      const double scale = std::max(1.0, s.x1.cwiseAbs().maxCoeff());
      const double update = delta.head(size).cwiseAbs().maxCoeff() / scale;
      // At rounding level, or no longer shrinking once close (rounding noise).
      if (update <= 1e-15 || (update >= previous && update <= 1e-11)) return;
      previous = update;
    }
    throw StepFailure(
        "nh-rattle: Newton's method on the implicit midpoint equations did not "
        "converge in " +
        std::to_string(kMaxNewtonIterations) + " iterations with step " + formatValue(s.h) +
        "; take a smaller --step");
  }

  const std::shared_ptr<const EquationsOfMotion>& equations_;
  std::shared_ptr<const EquationsOfMotion> compiledFor_;  // what constraint_ was made for
  std::unique_ptr<RattleConstraint> constraint_;
};

}  // namespace

std::unique_ptr<Stepper> makeNhRattle(const std::shared_ptr<const EquationsOfMotion>& equations) {
  return std::make_unique<NhRattle>(equations);
}

}  // namespace nh
