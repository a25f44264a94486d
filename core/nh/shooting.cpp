// Multiple shooting with Newton's method on the exact sensitivities (shooting.h).
#include "core/nh/shooting.h"

#include <algorithm>
#include <cmath>

#include "core/nh/errors.h"
#include "core/nh/scenario.h"
#include "core/nh/steppers.h"

namespace nh::shooting {

namespace {

constexpr double kFlowTolerance = 1e-12;
constexpr long kMaxFlowSteps = 2000;  // per segment: a path needing more is given up

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

}  // namespace

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

Shooting::Shooting(const PontryaginSystem& P, double T, int segments, Eigen::VectorXd q0,
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

Eigen::VectorXd Shooting::nodeState(const Eigen::VectorXd& X, int i) const {
  const int m = P_.m(), N = P_.N();
  if (i > 0) return X.segment(m + (i - 1) * N, N);
  Eigen::VectorXd z(N);
  z << q0_, X.head(m);
  return z;
}

// X from ξ(0): the nodes on the path it starts (or held where that path fails), ν fitted.
Eigen::VectorXd Shooting::initial(const Eigen::VectorXd& xi0) {
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

// Residuals at X (and their Jacobian when J is given); the total cost in *cost. Throws
// what the flow throws.
Eigen::VectorXd Shooting::evaluate(const Eigen::VectorXd& X, Eigen::MatrixXd* J, double* cost) {
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
void Shooting::rescale(const Eigen::VectorXd& X) {
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

// Per residual row, one over the size it is measured by (rescale).
Eigen::VectorXd Shooting::residualWeights() const {
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
void Shooting::sample(const Eigen::VectorXd& X, double dt, Extremal& out) {
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

// Adds a block over z_i (its rows given) to J: for i = 0 only ξ's columns are unknowns.
void Shooting::place(Eigen::MatrixXd& J, int row, int i, const Eigen::MatrixXd& block) const {
  const int m = P_.m(), N = P_.N();
  if (i == 0)
    J.block(row, 0, block.rows(), m) += block.rightCols(m);
  else
    J.block(row, m + (i - 1) * N, block.rows(), N) += block;
}

// Target residuals and transversality ξ(T) − (DR ρ)ᵀ ν at the end of the last segment.
void Shooting::endConditions(const Eigen::VectorXd& X, const Flow& last, Eigen::VectorXd& R,
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

void Shooting::record(double t, const double* x, double before, Extremal& out) {
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

namespace {

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
}  // namespace

NewtonOutcome newton(Shooting& S, Eigen::VectorXd& X, double tolerance, int maxIterations,
                     const std::function<void()>& tick) {
  return Newton(S, tolerance, maxIterations, tick).run(X);
}
}  // namespace nh::shooting
// SPDX-License-Identifier: GPL-3.0-or-later
