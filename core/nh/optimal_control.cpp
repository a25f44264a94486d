// Multiple shooting with Newton's method on the exact sensitivities (optimal_control.h).
#include "core/nh/optimal_control.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

#include "core/nh/errors.h"
#include "core/nh/messages.h"
#include "core/nh/pontryagin.h"
#include "core/nh/scenario.h"
#include "core/nh/steppers.h"

namespace nh {

namespace {

constexpr double kFlowTolerance = 1e-12;
constexpr long kMaxFlowSteps = 2000;  // per segment: a path needing more is given up

// One end condition: a coordinate's value, or a unit quaternion's attitude (three residuals).
struct Target {
  bool quaternion = false;
  int index = 0;                // the coordinate, or the quaternion's first component
  double value = 0;             // a coordinate's final value
  Eigen::Quaterniond attitude;  // a quaternion's final value
  int rows() const { return quaternion ? 3 : 1; }
};

// conj(a) ⊗ q's vector part as a linear map of q = (w, x, y, z): zero iff q = ±a.
Eigen::Matrix<double, 3, 4> attitudeResidualMap(const Eigen::Quaterniond& a) {
  Eigen::Matrix<double, 3, 4> D;
  const Eigen::Vector3d b = a.vec();
  Eigen::Matrix3d cross;
  cross << 0, -b.z(), b.y(), b.z(), 0, -b.x(), -b.y(), b.x(), 0;
  D.col(0) = -b;
  D.rightCols<3>() = a.w() * Eigen::Matrix3d::Identity() - cross;
  return D;
}

// The targets' residuals at q and their (constant) derivative DR (r×n).
void endResiduals(const std::vector<Target>& targets, int n, const double* q, Eigen::VectorXd& R,
                  Eigen::MatrixXd& DR) {
  int rows = 0;
  for (const Target& t : targets) rows += t.rows();
  R.resize(rows);
  DR = Eigen::MatrixXd::Zero(rows, n);
  int row = 0;
  for (const Target& t : targets) {
    if (!t.quaternion) {
      R[row] = q[t.index] - t.value;
      DR(row++, t.index) = 1;
      continue;
    }
    const Eigen::Matrix<double, 3, 4> D = attitudeResidualMap(t.attitude);
    const Eigen::Vector4d qv(q[t.index], q[t.index + 1], q[t.index + 2], q[t.index + 3]);
    R.segment<3>(row) = D * qv;
    DR.block(row, t.index, 3, 4) = D;
    row += 3;
  }
}

// The unit quaternion whose components start at q[first].
Eigen::Quaterniond attitudeAt(const Eigen::VectorXd& q, int first) {
  return Eigen::Quaterniond(q[first], q[first + 1], q[first + 2], q[first + 3]);
}

// Targets a fraction α of the way from the start (continuation, and the inner nodes' first
// guess): coordinates linearly, attitudes along the shortest arc.
std::vector<Target> partWay(const std::vector<Target>& targets, const Eigen::VectorXd& q0,
                            double alpha) {
  std::vector<Target> out = targets;
  for (Target& t : out) {
    if (!t.quaternion)
      t.value = q0[t.index] + alpha * (t.value - q0[t.index]);
    else
      t.attitude = attitudeAt(q0, t.index).slerp(alpha, t.attitude);
  }
  return out;
}

struct Flow {
  Eigen::VectorXd z;  // at the end
  Eigen::MatrixXd S;  // ∂z_end/∂z_start (when asked)
  double cost = 0;    // ∫ L dt over the segment
};

// The sizes the flow measures the path by: per component of z, and of the cost.
struct Scales {
  Eigen::VectorXd state;
  double cost = 1;
};

using Sample = std::function<void(double t, const double* x)>;

// Integrates ż (and, with sensitivities, Ṡ = J S; and the cost) from t0 to t1 by DOP853, on
// the state divided by its scales (and the cost by its own): the step control then holds
// every component to the tolerance relative to its size, however small (costates go as
// 1/T³ at large T). Ŝ = D⁻¹ S D for D = diag(scales) obeys dŜ/dt = D⁻¹ J D Ŝ.
Flow flow(const PontryaginSystem& P, PontryaginSystem::Workspace& ws, double t0, double t1,
          const Eigen::VectorXd& z0, const Scales& scales, bool sensitivities,
          const std::vector<double>& sampleAt = {}, const Sample& sample = {}) {
  const int N = P.N();
  const int size = N + 1 + (sensitivities ? N * N : 0);
  const Eigen::ArrayXd s = scales.state.array();
  std::vector<double> x(size, 0.0), z(N + 1);
  Eigen::Map<Eigen::ArrayXd>(x.data(), N) = z0.array() / s;
  if (sensitivities)
    for (int i = 0; i < N; ++i) x[N + 1 + i + N * i] = 1;
  const auto unscale = [&](const double* y) {
    Eigen::Map<Eigen::ArrayXd>(z.data(), N) = Eigen::Map<const Eigen::ArrayXd>(y, N) * s;
    z[N] = y[N] * scales.cost;
  };
  const StepperRhs f = [&](double t, const double* y, double* dy) {
    unscale(y);
    dy[N] = P.rates(ws, t, z.data(), dy, sensitivities) / scales.cost;
    Eigen::Map<Eigen::ArrayXd>(dy, N) /= s;
    if (!sensitivities) return;
    ws.jacobian.array().colwise() /= s;
    ws.jacobian.array().rowwise() *= s.transpose();
    Eigen::Map<const Eigen::MatrixXd> S(y + N + 1, N, N);
    Eigen::Map<Eigen::MatrixXd>(dy + N + 1, N, N).noalias() = ws.jacobian * S;
  };
  auto stepper = makeDop853(kFlowTolerance, kFlowTolerance);
  stepper->initialize(x.data(), size, t0, (t1 - t0) * 1e-3);
  size_t next = 0;
  std::vector<double> dense(size);
  for (long steps = 0; steps < kMaxFlowSteps; ++steps) {
    const auto [a, b] = stepper->doStep(f);
    for (; next < sampleAt.size() && sampleAt[next] <= std::min(b, t1); ++next) {
      stepper->calcState(f, sampleAt[next], dense.data());
      unscale(dense.data());
      sample(sampleAt[next], z.data());
    }
    if (b < t1) continue;
    stepper->calcState(f, t1, dense.data());
    unscale(dense.data());
    Flow out;
    out.z = Eigen::Map<const Eigen::VectorXd>(z.data(), N);
    out.cost = z[N];
    if (sensitivities)
      out.S = s.matrix().asDiagonal() *
              Eigen::Map<const Eigen::MatrixXd>(dense.data() + N + 1, N, N) *
              s.inverse().matrix().asDiagonal();
    if (!out.z.allFinite() || !std::isfinite(out.cost)) throw StepFailure("the path blew up");
    return out;
  }
  throw StepFailure("too many steps");
}

// The shooting problem: unknowns X = [ξ(0) (m) | z at the inner nodes (N each) | ν (r)],
// residuals [gaps at the inner nodes (N each) | target residuals (r) | ξ(T) − Bᵀν (m)].
class Shooting {
 public:
  Shooting(const PontryaginSystem& P, double T, int segments, Eigen::VectorXd q0,
           std::vector<Target> targets)
      : P_(P),
        ws_(P.makeWorkspace()),
        T_(T),
        K_(segments),
        q0_(std::move(q0)),
        targets_(std::move(targets)) {
    for (const Target& t : targets_) r_ += t.rows();
    w0_ = Eigen::VectorXd::Zero(P.unknownsW());
    scales_.state = Eigen::VectorXd::Ones(P.N());
  }

  int size() const { return P_.m() + (K_ - 1) * P_.N() + r_; }
  void setTargets(std::vector<Target> targets) { targets_ = std::move(targets); }
  void setStartW(const Eigen::VectorXd& w) { w0_ = w; }
  PontryaginSystem::Workspace& workspace() { return ws_; }
  double nodeTime(int i) const { return T_ * i / K_; }

  Eigen::VectorXd nodeState(const Eigen::VectorXd& X, int i) const {
    const int m = P_.m(), N = P_.N();
    if (i > 0) return X.segment(m + (i - 1) * N, N);
    Eigen::VectorXd z(N);
    z << q0_, X.head(m);
    return z;
  }

  // X from ξ(0): the nodes on the path it starts (or held where that path fails), ν fitted.
  Eigen::VectorXd initial(const Eigen::VectorXd& xi0) {
    const int m = P_.m(), N = P_.N();
    Eigen::VectorXd X = Eigen::VectorXd::Zero(size());
    X.head(m) = xi0;
    Eigen::VectorXd z = nodeState(X, 0);
    for (int i = 1; i <= K_; ++i) {
      try {
        ws_.w = w0_;
        z = flow(P_, ws_, nodeTime(i - 1), nodeTime(i), z, scales_, false).z;
      } catch (const std::exception&) {  // keep the last good state
      }
      if (i < K_) X.segment(m + (i - 1) * N, N) = z;
    }
    for (int i = 1; i < K_; ++i)
      interpolateTargets(X.segment(m + (i - 1) * N, P_.n()), double(i) / K_);
    Eigen::VectorXd R;
    Eigen::MatrixXd DR, rho;
    std::vector<Eigen::MatrixXd> dRho;
    endResiduals(targets_, P_.n(), z.data(), R, DR);
    P_.anchorAndDerivative(ws_, z.data(), rho, dRho);
    const Eigen::MatrixXd Bt = (DR * rho).transpose();
    if (r_ > 0) X.tail(r_) = Bt.completeOrthogonalDecomposition().solve(z.tail(m));
    end_ = z;
    lastCost_ = 0;
    rescale(X);
    return X;
  }

  // The targeted coordinates of a node a fraction `alpha` of the way from the start to the
  // targets (attitudes along the shortest arc).
  template <class Q>
  void interpolateTargets(Q q, double alpha) const {
    for (const Target& t : partWay(targets_, q0_, alpha)) {
      if (!t.quaternion) {
        q[t.index] = t.value;
        continue;
      }
      const Eigen::Quaterniond& b = t.attitude;
      q[t.index] = b.w(), q[t.index + 1] = b.x(), q[t.index + 2] = b.y(), q[t.index + 3] = b.z();
    }
  }

  // Residuals at X (and their Jacobian when J is given); the total cost in *cost. Throws
  // what the flow throws.
  Eigen::VectorXd evaluate(const Eigen::VectorXd& X, Eigen::MatrixXd* J, double* cost) {
    const int m = P_.m(), N = P_.N();
    Eigen::VectorXd R = Eigen::VectorXd::Zero(size());
    if (J) *J = Eigen::MatrixXd::Zero(size(), size());
    double total = 0;
    Flow last;
    for (int i = 0; i < K_; ++i) {
      ws_.w = w0_;
      Flow s = flow(P_, ws_, nodeTime(i), nodeTime(i + 1), nodeState(X, i), scales_, J != nullptr);
      total += s.cost;
      if (i + 1 < K_) {
        R.segment(i * N, N) = s.z - nodeState(X, i + 1);
        if (J) {
          place(*J, i * N, i, s.S);
          J->block(i * N, m + i * N, N, N) -= Eigen::MatrixXd::Identity(N, N);
        }
      } else {
        last = std::move(s);
      }
    }
    endConditions(X, last, R, J);
    end_ = last.z;
    lastCost_ = total;
    if (cost) *cost = total;
    return R;
  }

  // The sizes the residuals are measured by, from the path at X (evaluated last): per
  // component of z its largest size at the nodes and the end (and a coordinate's target), at
  // least 1e-6 of the largest of its kind (coordinates, costates) so that a component that
  // stays near zero is measured against its neighbours; 1 for a kind that is zero throughout.
  // Gaps and end conditions relative to these mean the same at every T: the costates of a
  // motion over a distance d in a time T go as d/T² and d/T³.
  void rescale(const Eigen::VectorXd& X) {
    const int n = P_.n(), N = P_.N();
    Eigen::VectorXd s = Eigen::VectorXd::Zero(N);
    if (end_.size() == N) s = end_.cwiseAbs();
    for (int i = 0; i < K_; ++i) s = s.cwiseMax(nodeState(X, i).cwiseAbs());
    for (const Target& t : targets_)
      if (!t.quaternion) s[t.index] = std::max(s[t.index], std::abs(t.value));
    for (const auto& [from, count] : {std::pair{0, n}, std::pair{n, N - n}}) {
      if (count == 0) continue;
      const double top = s.segment(from, count).maxCoeff();
      for (int k = from; k < from + count; ++k) s[k] = top > 0 ? std::max(s[k], 1e-6 * top) : 1;
    }
    scales_.state = s;
    // The cost is integrated to the tolerance relative to its size (it feeds back into
    // nothing, so a scale below it only makes the control relative).
    scales_.cost = std::max(std::abs(lastCost_) / K_, 1e-100);
  }

  const Scales& scales() const { return scales_; }
  void setScales(const Scales& s) { scales_ = s; }

  // Per residual row, one over the size it is measured by (rescale).
  Eigen::VectorXd residualWeights() const {
    const int m = P_.m(), N = P_.N();
    const Eigen::VectorXd inverse = scales_.state.cwiseInverse();
    Eigen::VectorXd W(size());
    for (int i = 0; i + 1 < K_; ++i) W.segment(i * N, N) = inverse;
    int row = (K_ - 1) * N;
    for (const Target& t : targets_) {
      if (t.quaternion) {
        W.segment<3>(row).setOnes();  // an attitude's residual is an angle
        row += 3;
      } else {
        W[row++] = inverse[t.index];
      }
    }
    W.segment(row, m) = inverse.tail(m);
    return W;
  }

  // The sampled path of a converged X: rows of the result's columns, one per sample time.
  void sample(const Eigen::VectorXd& X, double dt, Extremal& out) {
    std::vector<double> times;
    for (long k = 0; k * dt < T_ * (1 - 1e-12); ++k) times.push_back(k * dt);
    times.push_back(T_);
    double before = 0;
    size_t next = 0;
    for (int i = 0; i < K_; ++i) {
      std::vector<double> here;
      for (; next < times.size() && (times[next] < nodeTime(i + 1) || i + 1 == K_); ++next)
        here.push_back(times[next]);
      ws_.w = w0_;
      Flow s = flow(P_, ws_, nodeTime(i), nodeTime(i + 1), nodeState(X, i), scales_, false, here,
                    [&](double t, const double* x) { record(t, x, before, out); });
      before += s.cost;
    }
  }

 private:
  // Adds a block over z_i (its rows given) to J: for i = 0 only ξ's columns are unknowns.
  void place(Eigen::MatrixXd& J, int row, int i, const Eigen::MatrixXd& block) const {
    const int m = P_.m(), N = P_.N();
    if (i == 0)
      J.block(row, 0, block.rows(), m) += block.rightCols(m);
    else
      J.block(row, m + (i - 1) * N, block.rows(), N) += block;
  }

  // Target residuals and transversality ξ(T) − (DR ρ)ᵀ ν at the end of the last segment.
  void endConditions(const Eigen::VectorXd& X, const Flow& last, Eigen::VectorXd& R,
                     Eigen::MatrixXd* J) {
    const int n = P_.n(), m = P_.m(), N = P_.N();
    const int row = (K_ - 1) * N;
    Eigen::VectorXd Rt;
    Eigen::MatrixXd DR, rho;
    std::vector<Eigen::MatrixXd> dRho;
    endResiduals(targets_, n, last.z.data(), Rt, DR);
    P_.anchorAndDerivative(ws_, last.z.data(), rho, dRho);
    const Eigen::VectorXd nu = X.tail(r_);
    const Eigen::MatrixXd Bt = (DR * rho).transpose();  // m×r
    R.segment(row, r_) = Rt;
    R.segment(row + r_, m) = last.z.tail(m) - Bt * nu;
    if (!J) return;
    const Eigen::VectorXd lambda = DR.transpose() * nu;  // n
    Eigen::MatrixXd Mq(m, n);
    for (int b = 0; b < n; ++b) Mq.col(b) = dRho[b].transpose() * lambda;
    const Eigen::MatrixXd Sq = last.S.topRows(n);
    place(*J, row, K_ - 1, DR * Sq);
    place(*J, row + r_, K_ - 1, last.S.bottomRows(m) - Mq * Sq);
    J->block(row + r_, size() - r_, m, r_) = -Bt;
  }

  void record(double t, const double* x, double before, Extremal& out) {
    const int n = P_.n(), m = P_.m(), N = P_.N();
    std::vector<double> zdot(N);
    P_.rates(ws_, t, x, zdot.data(), false);
    const Eigen::VectorXd f = P_.section(ws_);
    std::vector<double> row(x, x + n);
    row.insert(row.end(), f.data(), f.data() + m);
    if (P_.vakonomic()) {
      for (int c = 0; c < P_.multipliers(); ++c) row.push_back(ws_.w[m + c]);
    } else {
      row.insert(row.end(), ws_.w.data(), ws_.w.data() + ws_.w.size());
      row.insert(row.end(), x + n, x + N);
    }
    row.push_back(before + x[N]);
    out.times.push_back(t);
    out.rows.push_back(std::move(row));
  }

  const PontryaginSystem& P_;
  PontryaginSystem::Workspace ws_;
  double T_;
  int K_;
  Eigen::VectorXd q0_, w0_;
  std::vector<Target> targets_;
  int r_ = 0;
  Scales scales_;
  Eigen::VectorXd end_;  // z(T) of the last evaluation
  double lastCost_ = 0;
};

struct NewtonOutcome {
  bool converged = false;
  bool singular = false;  // the failure: ∂²H/∂w² singular (SingularControl)
  double residual = 0;
  int iterations = 0;
  double cost = 0;
  std::string failure;
};

// The step at most doubling the unknowns: a far step only leads to paths that blow up.
void capStep(Eigen::VectorXd& step, const Eigen::VectorXd& X) {
  const double cap = 1 + X.lpNorm<Eigen::Infinity>();
  if (step.lpNorm<Eigen::Infinity>() > cap) step *= cap / step.lpNorm<Eigen::Infinity>();
}

// Newton's method on the shooting residuals, made global in two ways: a Newton step that does
// not reduce ‖R‖ is halved (down to 1/8), and then Levenberg–Marquardt steps
// −(JᵀJ + λD)⁻¹JᵀR take over, λ growing tenfold per failure and shrinking after a success
// (a short step down the gradient of ‖R‖² always reduces it). Trial points are evaluated
// without sensitivities; the Jacobian is computed where a step is accepted.
class Newton {
 public:
  Newton(Shooting& S, double tolerance, int maxIterations, const std::function<void()>& tick)
      : S_(S), tolerance_(tolerance), maxIterations_(maxIterations), tick_(tick) {}

  NewtonOutcome run(Eigen::VectorXd& X) {
    try {
      R_ = S_.evaluate(X, &J_, &o_.cost);
      reweigh(X);
    } catch (const std::exception& e) {
      noteFailure(e);
      o_.residual = std::numeric_limits<double>::infinity();
      return o_;
    }
    double checkpoint = R_.norm();
    for (;; ++o_.iterations) {
      o_.residual = R_.lpNorm<Eigen::Infinity>();
      if (o_.residual <= tolerance_) {
        o_.converged = true;
        return o_;
      }
      if (o_.iterations >= maxIterations_)
        return fail("Newton's method did not converge in " + std::to_string(maxIterations_) +
                    " iterations");
      // Less than halving ‖R‖ in ten iterations: a local minimum of ‖R‖, not an extremal.
      if (o_.iterations > 0 && o_.iterations % 10 == 0) {
        if (R_.norm() > 0.5 * checkpoint)
          return fail("Newton's method stalled at a residual of " + formatValue(o_.residual));
        checkpoint = R_.norm();
      }
      tick_();
      if (!newtonStep(X) && !levenbergStep(X))
        return fail("Newton's method stalled (no step reduces the residual)");
    }
  }

 private:
  void noteFailure(const std::exception& e) {
    o_.failure = e.what();
    o_.singular = dynamic_cast<const SingularControl*>(&e) != nullptr;
  }

  NewtonOutcome fail(std::string why) {
    if (o_.failure.empty()) o_.failure = std::move(why);
    return o_;
  }

  // The residuals and their Jacobian measured relative to the path's sizes at X (rows
  // divided by the scales of Shooting::rescale), and the columns of the Jacobian brought to
  // one size for the linear solves (a step is found in those units and scaled back).
  void reweigh(const Eigen::VectorXd& X) {
    S_.rescale(X);
    W_ = S_.residualWeights();
    R_ = R_.cwiseProduct(W_);
    J_ = W_.asDiagonal() * J_;
    columns_.resize(J_.cols());
    for (Eigen::Index j = 0; j < J_.cols(); ++j) {
      const double top = J_.col(j).lpNorm<Eigen::Infinity>();
      columns_[j] = top > 0 && std::isfinite(top) ? 1 / top : 1;
    }
  }

  // Accepts X + step when it reduces ‖R‖ by at least the factor given.
  bool tryStep(Eigen::VectorXd& X, const Eigen::VectorXd& step, double factor) {
    const Eigen::VectorXd trial = X + step;
    try {
      const Eigen::VectorXd Rt = S_.evaluate(trial, nullptr, nullptr).cwiseProduct(W_);
      if (!(Rt.norm() <= factor * R_.norm())) return false;
      R_ = S_.evaluate(trial, &J_, &o_.cost);
      X = trial;
      reweigh(X);
      o_.failure.clear();
      o_.singular = false;
      return true;
    } catch (const std::exception& e) {
      noteFailure(e);
      return false;
    }
  }

  // −J⁻¹R; where J is (nearly) singular — extremals in a family, such as Brockett's circles
  // turned about the axis — the least-squares step of least norm. The full step is tried
  // first (the unknowns' sizes differ by powers of T), then the capped one, halved.
  bool newtonStep(Eigen::VectorXd& X) {
    const Eigen::MatrixXd A = J_ * columns_.asDiagonal();
    Eigen::FullPivLU<Eigen::MatrixXd> lu(A);
    lu.setThreshold(1e-10);
    Eigen::VectorXd step;
    if (lu.isInvertible()) {
      step = lu.solve(-R_);
    } else {
      Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(A);
      cod.setThreshold(1e-10);
      step = cod.solve(-R_);
    }
    step = step.cwiseProduct(columns_);
    const Eigen::VectorXd full = step;
    capStep(step, X);
    if (step != full && tryStep(X, full, 0.75)) return true;
    for (double alpha = 1; alpha >= 0.125; alpha /= 2)
      if (tryStep(X, alpha * step, 1 - alpha / 4)) return true;
    return false;
  }

  bool levenbergStep(Eigen::VectorXd& X) {
    const Eigen::MatrixXd Js = J_ * columns_.asDiagonal();
    const Eigen::MatrixXd JtJ = Js.transpose() * Js;
    const Eigen::VectorXd g = Js.transpose() * R_;
    const Eigen::VectorXd d = JtJ.diagonal().cwiseMax(1e-12 * JtJ.diagonal().maxCoeff());
    // A few λ per iteration (λ keeps growing across iterations while steps fail).
    for (int tries = 0; tries < 4 && lambda_ <= 1e10; ++tries, lambda_ *= 10) {
      Eigen::MatrixXd A = JtJ;
      A.diagonal() += lambda_ * d;
      Eigen::VectorXd step = -A.ldlt().solve(g);
      step = step.cwiseProduct(columns_);
      capStep(step, X);
      if (tryStep(X, step, 1 - 1e-4)) {
        lambda_ = std::max(1e-6, lambda_ / 100);
        return true;
      }
    }
    lambda_ = 1e-3;
    return false;
  }

  Shooting& S_;
  double tolerance_;
  int maxIterations_;
  const std::function<void()>& tick_;
  NewtonOutcome o_;
  Eigen::MatrixXd J_;      // weighted
  Eigen::VectorXd R_, W_;  // R_ weighted by W_
  Eigen::VectorXd columns_;
  double lambda_ = 1e-3;
};

NewtonOutcome newton(Shooting& S, Eigen::VectorXd& X, double tolerance, int maxIterations,
                     const std::function<void()>& tick) {
  return Newton(S, tolerance, maxIterations, tick).run(X);
}

}  // namespace

}  // namespace nh

namespace nh {

namespace {

// The parameter values (empty: the defaults), checked as scenarios check theirs.
std::vector<double> checkedParameters(const SystemModel& sys, const std::vector<double>& p) {
  const auto& infos = sys.info().parameters;
  if (!p.empty() && p.size() != infos.size())
    throw InputError(std::to_string(p.size()) + " parameter values for '" + sys.name() +
                     "', which has " + std::to_string(infos.size()));
  std::map<std::string, double> byName;
  for (size_t i = 0; i < p.size(); ++i) byName[infos[i].name] = p[i];
  return resolveParameters(sys, byName);
}

// The quaternion slot whose components include coordinate i (-1: none).
int quaternionOf(const SystemModel& sys, int i) {
  for (const QuaternionSlot& s : sys.info().quaternions)
    if (i >= s.first && i < s.first + 4) return s.first;
  return -1;
}

Eigen::VectorXd checkedStart(const SystemModel& sys, const std::vector<double>& given) {
  const std::vector<double>& q = given.empty() ? sys.info().defaultCoordinates : given;
  if (static_cast<int>(q.size()) != sys.n())
    throw InputError(std::to_string(q.size()) + " start coordinates for '" + sys.name() +
                     "', which has " + std::to_string(sys.n()));
  Eigen::VectorXd q0 = Eigen::Map<const Eigen::VectorXd>(q.data(), sys.n());
  if (!q0.allFinite()) throw InputError("the start has a value that is not a finite number");
  for (const QuaternionSlot& s : sys.info().quaternions) {
    const double norm = q0.segment<4>(s.first).norm();
    if (std::abs(norm - 1) > 1e-6)
      throw InputError("the start's quaternion " + sys.info().coordinates[s.first] +
                       "… has |q| = " + formatValue(norm) + " (a unit quaternion is needed)");
    q0.segment<4>(s.first) /= norm;
  }
  return q0;
}

std::string movesWhat(const PontryaginSystem& P) {
  return P.vakonomic() ? "its velocities cannot move it (its rate reads no velocity)"
                       : "the controls cannot move it (its rate reads no control and no "
                         "coordinate they move)";
}

// The targets by coordinate; a quaternion needs all four components, of unit length.
std::vector<Target> checkedTargets(const PontryaginSystem& P,
                                   const std::map<std::string, double>& given) {
  const SystemModel& sys = P.system();
  const auto& names = sys.info().coordinates;
  std::vector<Target> out;
  std::vector<bool> done(sys.n(), false);
  for (const auto& [name, value] : given) {
    const int i = sys.coordinateIndex(name);
    if (i < 0)
      throw InputError("cannot target '" + echoInput(name) + "': not a coordinate of '" +
                       sys.name() + "' (coordinates: " + joined(names) + ")");
    if (!std::isfinite(value)) throw InputError("the target of '" + name + "' is not finite");
    if (done[i]) continue;
    const int first = quaternionOf(sys, i);
    Target t;
    if (first < 0) {
      t.index = i, t.value = value;
      if (!P.movable()[i]) throw InputError("cannot target '" + name + "': " + movesWhat(P));
    } else {
      double c[4];
      for (int k = 0; k < 4; ++k) {
        const auto it = given.find(names[first + k]);
        if (it == given.end())
          throw InputError("a quaternion is targeted by its four components (" +
                           joined({names.begin() + first, names.begin() + first + 4}) + "); '" +
                           names[first + k] + "' is missing");
        c[k] = it->second;
      }
      t.quaternion = true, t.index = first;
      t.attitude = Eigen::Quaterniond(c[0], c[1], c[2], c[3]);
      const double norm = t.attitude.norm();
      if (std::abs(norm - 1) > 1e-6)
        throw InputError("the target quaternion (" +
                         joined({names.begin() + first, names.begin() + first + 4}) +
                         ") has |q| = " + formatValue(norm) + " (a unit quaternion is needed)");
      t.attitude.normalize();
      bool movable = false;
      for (int k = 0; k < 4; ++k) movable = movable || P.movable()[first + k];
      if (!movable)
        throw InputError("cannot target the attitude '" + names[first] + "…': " + movesWhat(P));
      for (int k = 0; k < 4; ++k) done[first + k] = true;
    }
    done[i] = true;
    out.push_back(t);
  }
  return out;
}

}  // namespace

}  // namespace nh

namespace nh {

namespace {

std::vector<std::string> resultColumns(const SystemModel& sys, const PontryaginSystem& P) {
  const SystemInfo& info = sys.info();
  std::vector<std::string> c = info.coordinates;
  c.insert(c.end(), info.velocities.begin(), info.velocities.end());
  if (P.vakonomic()) {
    for (int i = 0; i < P.multipliers(); ++i) c.push_back("mu_" + std::to_string(i + 1));
  } else {
    c.insert(c.end(), info.controls.begin(), info.controls.end());
    for (const auto& v : info.velocities) c.push_back("xi_" + v);
  }
  c.push_back("cost");
  return c;
}

// What a user may set at t = 0: ξ(0) (control model), or the free velocities and μ(0).
void describeUnknowns(const PontryaginSystem& P, Shooting& S, const Eigen::VectorXd& X,
                      Extremal& e) {
  const SystemInfo& info = P.system().info();
  const int m = P.m();
  if (!P.vakonomic()) {
    for (int a = 0; a < m; ++a) {
      e.unknownNames.push_back("xi_" + info.velocities[a]);
      e.unknowns.push_back(X[a]);
    }
    return;
  }
  std::vector<double> zdot(P.N());
  const Eigen::VectorXd z0 = S.nodeState(X, 0);
  P.rates(S.workspace(), 0, z0.data(), zdot.data(), false);
  const Eigen::VectorXd& w = S.workspace().w;
  for (const std::string& v : info.independentVelocities) {
    e.unknownNames.push_back(v);
    const auto& all = info.velocities;
    e.unknowns.push_back(w[std::find(all.begin(), all.end(), v) - all.begin()]);
  }
  for (int c = 0; c < P.multipliers(); ++c) {
    e.unknownNames.push_back("mu_" + std::to_string(c + 1));
    e.unknowns.push_back(w[m + c]);
  }
}

// The same extremal, or one of a symmetric family (equal cost): reported once.
// Both relative: costs and costates are tiny at large T.
bool sameExtremal(const Extremal& a, const Extremal& b) {
  if (std::abs(a.cost - b.cost) <= 1e-8 * std::max(std::abs(a.cost), std::abs(b.cost))) return true;
  double diff = 0, scale = 0;
  for (size_t i = 0; i < a.unknowns.size(); ++i) {
    diff = std::max(diff, std::abs(a.unknowns[i] - b.unknowns[i]));
    scale = std::max({scale, std::abs(a.unknowns[i]), std::abs(b.unknowns[i])});
  }
  return diff <= 1e-6 * scale;
}

// One start from ξ(0): plain Newton, then continuation in the targets when that fails.
NewtonOutcome attempt(Shooting& S, const std::vector<Target>& targets, const Eigen::VectorXd& q0,
                      const Eigen::VectorXd& xi0, const OptimalControlOptions& o,
                      Eigen::VectorXd& X, const std::function<void()>& tick) {
  S.setTargets(targets);
  X = S.initial(xi0);
  NewtonOutcome plain = newton(S, X, o.tolerance, o.maxIterations, tick);
  if (plain.converged) return plain;
  int iterations = plain.iterations;
  for (const double alpha : {0.25, 0.5, 0.75, 1.0}) {
    S.setTargets(partWay(targets, q0, alpha));
    if (alpha == 0.25) X = S.initial(xi0);
    NewtonOutcome stage = newton(S, X, o.tolerance, o.maxIterations, tick);
    iterations += stage.iterations;
    if (!stage.converged) return plain.residual <= stage.residual ? plain : stage;
    if (alpha == 1.0) {
      stage.iterations = iterations;
      return stage;
    }
  }
  return plain;
}

// The first start's costate: zero (control model), or the momentum of the given velocities.
// The momentum ∂L/∂y at μ = 0 of velocities y: the costate of a vakonomic start.
Eigen::VectorXd momentumOf(const PontryaginSystem& P, Shooting& S, const Eigen::VectorXd& q0,
                           const Eigen::VectorXd& y) {
  Eigen::VectorXd w = Eigen::VectorXd::Zero(P.unknownsW());
  w.head(P.m()) = y;
  Eigen::VectorXd z = Eigen::VectorXd::Zero(P.N());
  z.head(P.n()) = q0;
  return -P.dHdw(S.workspace(), 0, z.data(), w).head(P.m());
}

// Start k's costate. The first: zero (control model), or the momentum of the given
// velocities (vakonomic). The others: random, within `spread` of the first per component —
// of the costate for a control model, of the velocities (then their momentum) for a
// vakonomic problem, so that the random starts are motions of sensible speed.
Eigen::VectorXd startCostate(const PontryaginSystem& P, Shooting& S, const Eigen::VectorXd& q0,
                             const OptimalControlOptions& o, double spread,
                             const std::function<double()>& uniform) {
  const int m = P.m();
  Eigen::VectorXd v = Eigen::VectorXd::Zero(m);
  if (P.vakonomic()) {
    const std::vector<double>& y =
        o.startVelocities.empty() ? P.system().info().defaultVelocities : o.startVelocities;
    for (int a = 0; a < m && a < static_cast<int>(y.size()); ++a) v[a] = y[a];
    Eigen::VectorXd w = Eigen::VectorXd::Zero(P.unknownsW());
    w.head(m) = v;
    S.setStartW(w);
  }
  if (uniform)
    for (int a = 0; a < m; ++a) v[a] += spread * uniform();
  return P.vakonomic() ? momentumOf(P, S, q0, v) : v;
}

constexpr const char* kOtherStartsAdvice = "try other --starts, a longer --t-end or nearer targets";

// When ∂²H/∂w² is singular no start helps: the problem is not regular.
std::string singularAdvice(const PontryaginSystem& P) {
  if (P.vakonomic())
    return "the Lagrangian and the constraints do not determine the velocities and "
           "multipliers (the Hessian of L + mu*Phi in them is singular): a Lagrangian strictly "
           "convex in the velocities with independent constraints is needed; other starts "
           "cannot help";
  return "the cost is singular in the controls (its Hessian in u is not invertible, so u "
         "cannot be solved from the costate): a cost strictly convex in every control, such "
         "as 0.5*u^2 for each, is needed; other starts cannot help";
}

// A converged start: its extremal (not yet sampled), unknowns and the scales of its path.
struct Found {
  Extremal e;
  Eigen::VectorXd X;
  Scales scales;
};

// The memory one sampled path holds: its rows (a vector of the columns each, with the
// allocator's overhead) and their times.
double pathBytes(double T, double dt, size_t columns) {
  const double samples = std::floor(T / dt) + 2;
  return samples * (double(columns) * sizeof(double) + 3 * sizeof(void*) + 16 + sizeof(double));
}

std::string formatBytes(double bytes) {
  return bytes >= 1e9 ? formatValue(std::round(bytes / 1e8) / 10) + " GB"
                      : formatValue(std::round(bytes / 1e5) / 10) + " MB";
}

// The extremals found, by cost, sampled every dt while their paths fit the ceiling
// kMaxPathBytes together; the costlier ones past it are left out, and the result says so.
void keepPaths(Shooting& S, const std::vector<Target>& targets, std::vector<Found>& found,
               double dt, double bytesEach, OptimalControlResult& result) {
  std::stable_sort(found.begin(), found.end(),
                   [](const Found& a, const Found& b) { return a.e.cost < b.e.cost; });
  S.setTargets(targets);
  double held = 0;
  for (Found& f : found) {
    if (held + bytesEach > kMaxPathBytes) {
      const size_t left = found.size() - result.extremals.size();
      result.note = std::to_string(left) + " costlier extremal" + (left == 1 ? "" : "s") +
                    " left out: their paths would pass the " + formatBytes(kMaxPathBytes) +
                    " an optimisation keeps (a larger --dt-out keeps them)";
      return;
    }
    S.setScales(f.scales);
    S.sample(f.X, dt, f.e);
    held += bytesEach;
    result.extremals.push_back(std::move(f.e));
  }
}

// How far the targets are from the start: the largest change of a coordinate, or the angle
// of an attitude's turn.
double targetDistance(const std::vector<Target>& targets, const Eigen::VectorXd& q0) {
  double d = 0;
  for (const Target& t : targets) {
    if (!t.quaternion) {
      d = std::max(d, std::abs(t.value - q0[t.index]));
      continue;
    }
    d = std::max(d, attitudeAt(q0, t.index).angularDistance(t.attitude));
  }
  return d;
}

}  // namespace

OptimalControlResult solveOptimalControl(std::shared_ptr<const SystemModel> system,
                                         const OptimalControlOptions& o,
                                         const OptimalControlProgress& progress) {
  if (!(o.tEnd > 0) || !std::isfinite(o.tEnd))
    throw InputError("the time T = " + formatValue(o.tEnd) + " must be a positive number");
  if (!(o.tolerance > 0)) throw InputError("the tolerance must be positive");
  const SystemModel& sys = *system;
  const PontryaginSystem P(system, checkedParameters(sys, o.parameters));
  const Eigen::VectorXd q0 = checkedStart(sys, o.startCoordinates);
  const std::vector<Target> targets = checkedTargets(P, o.targets);
  int conditions = 0;
  for (const Target& t : targets) conditions += t.rows();
  if (conditions > P.m())
    throw InputError(std::to_string(conditions) + " end conditions for " + std::to_string(P.m()) +
                     " unknowns (the costate has one per velocity of '" + sys.name() +
                     "'): target fewer coordinates");
  OptimalControlResult result;
  result.vakonomic = P.vakonomic();
  result.columns = resultColumns(sys, P);
  result.bestResidual = std::numeric_limits<double>::infinity();
  const double dt = o.dtOut > 0 ? o.dtOut : o.tEnd / 200;
  const double rowBytes = pathBytes(o.tEnd, dt, result.columns.size());
  if (!(rowBytes <= kMaxPathBytes))
    throw InputError("a path sampled every " + formatValue(dt) +
                     " over T = " + formatValue(o.tEnd) + " would hold " + formatBytes(rowBytes) +
                     " in memory, more than the " + formatBytes(kMaxPathBytes) +
                     " an optimisation keeps: sample it less often (a larger --dt-out)");
  std::vector<Found> found;
  const int segments = o.segments > 0 ? o.segments : 8;
  Shooting S(P, o.tEnd, segments, q0, targets);
  const double spread = 2 * std::numbers::pi * (1 + targetDistance(targets, q0)) / o.tEnd;
  std::mt19937 random(o.seed);
  std::uniform_real_distribution<double> uniform(-1, 1);
  const int starts = std::max(1, o.starts);
  for (int k = 0; k < starts; ++k) {
    // Random starts at three scales in turn (the spread, a quarter, a sixteenth): cheap
    // extremals have small costates, costly ones (more turns) large ones.
    const double scale = spread / std::pow(4.0, (k + 2) % 3);
    const Eigen::VectorXd xi0 =
        startCostate(P, S, q0, o, scale,
                     k == 0 ? std::function<double()>()
                            : std::function<double()>([&] { return uniform(random); }));
    int ticks = 0;
    const auto tick = [&] {
      ++ticks;
      const double inStart = 1 - 1.0 / (1 + 0.2 * ticks);
      if (progress && !progress((k + inStart) / starts)) throw OptimalControlCancelled();
    };
    Eigen::VectorXd X;
    const NewtonOutcome out = attempt(S, targets, q0, xi0, o, X, tick);
    ++result.startsTried;
    if (!out.converged) {
      if (out.residual < result.bestResidual || result.failure.empty()) {
        result.bestResidual = std::min(result.bestResidual, out.residual);
        result.failure = out.failure;
        result.advice = out.singular ? singularAdvice(P) : kOtherStartsAdvice;
      }
      continue;
    }
    Found f{Extremal{}, X, S.scales()};
    f.e.cost = out.cost, f.e.residual = out.residual, f.e.iterations = out.iterations;
    describeUnknowns(P, S, X, f.e);
    if (std::none_of(found.begin(), found.end(),
                     [&](const Found& x) { return sameExtremal(x.e, f.e); }))
      found.push_back(std::move(f));
  }
  keepPaths(S, targets, found, dt, rowBytes, result);
  if (!result.extremals.empty()) result.bestResidual = result.extremals.front().residual;
  if (progress) progress(1);
  return result;
}

void startFromScenario(const std::shared_ptr<const SystemModel>& systemPtr,
                       const Scenario& scenario, OptimalControlOptions& options) {
  const SystemModel& system = *systemPtr;
  options.parameters = resolveParameters(system, scenario.parameters);
  const SystemInfo& info = system.info();
  if (!info.isControlModel()) {
    const EquationsOfMotion equations(systemPtr, DynamicsKind::Nonholonomic,
                                      Formulation::Multipliers, options.parameters);
    const std::vector<double> x = initialState(equations, 0, scenario.initial);
    options.startCoordinates.assign(x.begin(), x.begin() + system.n());
    options.startVelocities.assign(x.begin() + system.n(), x.begin() + system.n() + system.m());
    return;
  }
  options.startCoordinates = info.defaultCoordinates;
  for (const auto& [name, value] : scenario.initial) {
    const int i = system.coordinateIndex(name);
    if (i < 0)
      throw InputError("'" + echoInput(name) + "' is not a coordinate of the control model '" +
                       system.name() + "' (coordinates: " + joined(info.coordinates) +
                       "; its velocities follow from the controls)");
    options.startCoordinates[i] = value;
  }
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
