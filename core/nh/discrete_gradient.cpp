// discrete-gradient: the Gonzalez midpoint discrete gradient on the almost-Poisson form of the
// nonholonomic equations (docs/engine.md). In z = (q, v), v = y_I the independent velocities,
// y(q, v) = X(q) v + y0(q) solves the constraints A(q) y + b(q) = 0 for the dependent ones, and
//   ż = g(z) = (ρ y, (ẏ)_I) = S(z) ∇𝓔(z),  S skew,
// 𝓔 the energy (linear constraints) or the energy in the constraints' reference frame (affine).
// A step solves z1 = z0 + h S(z̄) ∇̄𝓔(z0, z1) by Newton's method, so 𝓔(z1) − 𝓔(z0) =
// ∇̄𝓔·(z1 − z0) = h ∇̄𝓔·S ∇̄𝓔 = 0 up to round-off.
#include "core/nh/discrete_gradient.h"

#include <Eigen/LU>
#include <Eigen/QR>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "core/nh/errors.h"
#include "core/nh/landing_stepper.h"
#include "core/nh/linearize.h"
#include "core/nh/messages.h"
#include "core/nh/scenario.h"
#include "core/nh/state_derivatives.h"
#include "core/nh/symbolic.h"

namespace nh {

namespace {

constexpr int kMaxNewtonIterations = 20;
// A step Newton's method cannot take is taken in halves, down to 2^-kMaxHalvings of it.
constexpr int kMaxHalvings = 10;
// A split of the velocities is kept while its quality (splitQuality) is at least this share
// of the best split's: a split is changed only for one twice as good, so two splits of nearly
// equal quality do not alternate from step to step.
constexpr double kSplitHysteresis = 0.5;
// Below this quality no split can be trusted: the constraints are (nearly) dependent.
constexpr double kMinSplitQuality = 1e-12;

// ρ, M = ∂²L/∂y², p, E, ∂E/∂q, ∂p/∂q, A = ∂Φ/∂y, Φ and ∂Φ/∂q at one (q, y).
struct PointFunctions {
  Eigen::MatrixXd rho, M, dpdq, A, phiQ;
  Eigen::VectorXd p, Eq, phi;
  double E = 0;
};

// Records ρ, M, p, E, ∂E/∂q, ∂p/∂q, A, Φ, ∂Φ/∂q (in PointFunctions' order, matrices
// column-major) over the variables t, q, y of `tape`.
std::vector<Sym> pointExpressions(const EquationsOfMotion& equations, Tape& tape) {
  const SystemModel& sys = equations.system();
  const double* par = equations.parameters().data();
  const int n = sys.n(), m = sys.m(), k = sys.constraintsTotal();
  std::vector<Sym> q(n), y(m), rho(n * m), phi(k, Sym(0.0)), p(m);
  const Sym t = tape.variable(0);
  for (int i = 0; i < n; ++i) q[i] = tape.variable(1 + i);
  for (int a = 0; a < m; ++a) y[a] = tape.variable(1 + n + a);
  sys.anchor(par, q.data(), rho.data());
  const Sym L = sys.lagrangian(par, t, q.data(), y.data());
  if (k > 0) sys.constraints(par, t, q.data(), y.data(), phi.data());
  Sym E = Sym(0.0) - L;
  for (int a = 0; a < m; ++a) {
    p[a] = tape.derivative(L, 1 + n + a);
    E = E + p[a] * y[a];
  }
  std::vector<Sym> out = rho;
  for (int b = 0; b < m; ++b)
    for (int a = 0; a < m; ++a) out.push_back(tape.derivative(p[a], 1 + n + b));
  out.insert(out.end(), p.begin(), p.end());
  out.push_back(E);
  for (int i = 0; i < n; ++i) out.push_back(tape.derivative(E, 1 + i));
  for (int i = 0; i < n; ++i)
    for (int a = 0; a < m; ++a) out.push_back(tape.derivative(p[a], 1 + i));
  for (int a = 0; a < m; ++a)
    for (int c = 0; c < k; ++c) out.push_back(tape.derivative(phi[c], 1 + n + a));
  out.insert(out.end(), phi.begin(), phi.end());
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < k; ++c) out.push_back(tape.derivative(phi[c], 1 + i));
  return out;
}

// The functions of PointFunctions, compiled once from the tape and evaluated at any (q, y)
// (into its own registers: one per stepper).
class PointProgram {
 public:
  explicit PointProgram(const EquationsOfMotion& equations)
      : n_(equations.system().n()),
        m_(equations.system().m()),
        k_(equations.system().constraintsTotal()) {
    Tape tape;
    const std::vector<Sym> out = pointExpressions(equations, tape);
    program_ = SymProgram(tape, 1 + n_ + m_, out, SymProgram::Execution::Native);
    registers_ = program_.makeRegisters();
    variables_.resize(1 + n_ + m_);
  }

  void at(double t, const double* q, const double* y, PointFunctions& f) {
    variables_[0] = t;
    std::copy(q, q + n_, variables_.begin() + 1);
    std::copy(y, y + m_, variables_.begin() + 1 + n_);
    program_.run(registers_.data(), variables_.data());
    int next = 0;
    auto read = [&](Eigen::MatrixXd& matrix, int rows, int cols) {
      matrix.resize(rows, cols);
      for (int i = 0; i < rows * cols; ++i) matrix.data()[i] = output(next++);
    };
    auto readVector = [&](Eigen::VectorXd& vector, int size) {
      vector.resize(size);
      for (int i = 0; i < size; ++i) vector[i] = output(next++);
    };
    read(f.rho, n_, m_);
    read(f.M, m_, m_);
    readVector(f.p, m_);
    f.E = output(next++);
    readVector(f.Eq, n_);
    read(f.dpdq, m_, n_);
    read(f.A, k_, m_);
    readVector(f.phi, k_);
    read(f.phiQ, k_, n_);
  }

 private:
  double output(int i) const { return program_.output(registers_.data(), i); }
  int n_, m_, k_;
  SymProgram program_;
  std::vector<double> registers_, variables_;
};

// What the step reads at one z = (q, v).
struct Point {
  Eigen::VectorXd z, x;  // (q, v) and the full state (q, y(q, v))
  double energy = 0;     // 𝓔
  Eigen::VectorXd u;     // ∇𝓔 in (q, v)
  Eigen::MatrixXd X;     // ∂y/∂v (m × d)
  Eigen::MatrixXd dydq;  // ∂y/∂q at fixed v (m × n)
  Eigen::MatrixXd rho, M;
};

// Rows `rows` of `matrix`, or its columns `cols`.
Eigen::MatrixXd columnsOf(const Eigen::MatrixXd& matrix, const std::vector<int>& cols) {
  Eigen::MatrixXd out(matrix.rows(), cols.size());
  for (size_t j = 0; j < cols.size(); ++j) out.col(j) = matrix.col(cols[j]);
  return out;
}

// The coordinates z = (q, v) of one system: the split of the velocities into independent (v)
// and dependent ones, y(q, v), 𝓔 and its gradient.
class ReducedCoordinates {
 public:
  ReducedCoordinates(const EquationsOfMotion& equations, bool frameEnergy)
      : equations_(equations), program_(equations), frame_(frameEnergy) {
    const SystemModel& sys = equations.system();
    n_ = sys.n();
    m_ = sys.m();
    k_ = sys.constraintsTotal();
  }
  int size() const { return n_ + m_ - k_; }
  int n() const { return n_; }
  const std::vector<int>& independent() const { return independent_; }

  // Chooses the independent velocities at q, at the start of every step: the split in use
  // while it is at least half as good as the best one (splitQuality); else the system's
  // declared one if that is, else the best, by column-pivoted QR of A(q). Returns the quality
  // of the split chosen.
  double choose(double t, const double* q);
  // z = (q, y_I) of the full state x.
  Eigen::VectorXd reduce(const double* x) const {
    Eigen::VectorXd z(size());
    for (int i = 0; i < n_; ++i) z[i] = x[i];
    for (size_t a = 0; a < independent_.size(); ++a) z[n_ + a] = x[n_ + independent_[a]];
    return z;
  }
  // The point at z: always x and 𝓔; with `gradient` also u, X, ∂y/∂q, ρ and M.
  void evaluate(double t, const Eigen::VectorXd& z, bool gradient, Point& out);

 private:
  void split(const std::vector<int>& dependent);
  std::vector<int> declaredDependent() const;
  // ∂Γ/∂q (m × n) by central differences (Γ is usually linear in q: exact to round-off).
  Eigen::MatrixXd frameJacobian(double t, const Eigen::VectorXd& q) const;
  Eigen::VectorXd frame(double t, const double* q) const {
    Eigen::VectorXd gamma = Eigen::VectorXd::Zero(m_);
    if (frame_)
      equations_.system().referenceFrame(equations_.parameters().data(), t, q, gamma.data());
    return gamma;
  }
  void gradientAt(double t, const PointFunctions& f, const Eigen::PartialPivLU<Eigen::MatrixXd>& lu,
                  const Eigen::VectorXd& gamma, Point& out) const;

  const EquationsOfMotion& equations_;
  PointProgram program_;
  bool frame_;
  int n_ = 0, m_ = 0, k_ = 0;
  std::vector<int> independent_, dependent_;
  PointFunctions atRest_, atPoint_;  // scratch of choose and evaluate
};

// How well the dependent velocities D are determined by the constraints A(q) y + b = 0: the
// smallest singular value of A_D relative to the largest of A (1 for the best possible split
// of orthonormal constraints, 0 where A_D is singular). Scale-free, unlike the reciprocal
// condition of A_D alone, which is 1 for every nonzero 1×1 block (one constraint).
double splitQuality(const Eigen::MatrixXd& A, const std::vector<int>& dependent) {
  if (dependent.empty()) return 1;
  const double largest = Eigen::JacobiSVD<Eigen::MatrixXd>(A).singularValues()[0];
  if (!(largest > 0) || !std::isfinite(largest)) return 0;
  const Eigen::VectorXd sigma =
      Eigen::JacobiSVD<Eigen::MatrixXd>(columnsOf(A, dependent)).singularValues();
  return sigma[sigma.size() - 1] / largest;
}

void ReducedCoordinates::split(const std::vector<int>& dependent) {
  dependent_ = dependent;
  independent_.clear();
  for (int a = 0; a < m_; ++a)
    if (std::find(dependent.begin(), dependent.end(), a) == dependent.end())
      independent_.push_back(a);
}

// The complement of the system's declared independent velocities.
std::vector<int> ReducedCoordinates::declaredDependent() const {
  const SystemInfo& info = equations_.system().info();
  std::vector<int> declared;
  for (int a = 0; a < m_; ++a)
    if (std::find(info.independentVelocities.begin(), info.independentVelocities.end(),
                  info.velocities[a]) == info.independentVelocities.end())
      declared.push_back(a);
  return declared;
}

double ReducedCoordinates::choose(double t, const double* q) {
  if (k_ == 0) {
    split({});
    return 1;
  }
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(m_);
  program_.at(t, q, zero.data(), atRest_);
  const Eigen::MatrixXd& A = atRest_.A;
  const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(A);
  std::vector<int> best;
  for (int c = 0; c < k_; ++c) best.push_back(qr.colsPermutation().indices()[c]);
  std::sort(best.begin(), best.end());
  const double bestQuality = splitQuality(A, best);
  if (!(bestQuality >= kMinSplitQuality))
    throw StepFailure("discrete-gradient: the constraints of '" +
                      echoInput(equations_.system().name()) + "' are dependent at t = " +
                      formatValue(t) + " (no set of dependent velocities can be solved for)");
  const double threshold = kSplitHysteresis * bestQuality;
  if (static_cast<int>(dependent_.size()) == k_) {
    const double current = splitQuality(A, dependent_);
    if (current >= threshold) return current;
  }
  const std::vector<int> declared = declaredDependent();
  if (static_cast<int>(declared.size()) == k_) {
    const double quality = splitQuality(A, declared);
    if (quality >= threshold) {
      split(declared);
      return quality;
    }
  }
  split(best);
  return bestQuality;
}

Eigen::MatrixXd ReducedCoordinates::frameJacobian(double t, const Eigen::VectorXd& q) const {
  Eigen::MatrixXd J(m_, n_);
  Eigen::VectorXd probe = q;
  for (int i = 0; i < n_; ++i) {
    const double step = 1e-3 * std::max(1.0, std::abs(q[i]));
    probe[i] = q[i] + step;
    const Eigen::VectorXd up = frame(t, probe.data());
    probe[i] = q[i] - step;
    const Eigen::VectorXd down = frame(t, probe.data());
    probe[i] = q[i];
    J.col(i) = (up - down) / (2 * step);
  }
  return J;
}

void ReducedCoordinates::evaluate(double t, const Eigen::VectorXd& z, bool gradient, Point& out) {
  const int d = size() - n_;
  const Eigen::VectorXd q = z.head(n_), v = z.tail(d);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(m_);
  program_.at(t, q.data(), zero.data(), atRest_);  // A(q) and b(q) = Φ(q, 0)
  const Eigen::PartialPivLU<Eigen::MatrixXd> lu(columnsOf(atRest_.A, dependent_));
  const Eigen::MatrixXd AI = columnsOf(atRest_.A, independent_);
  Eigen::VectorXd y(m_);
  out.X.setZero(m_, d);
  for (int a = 0; a < d; ++a) {
    y[independent_[a]] = v[a];
    out.X(independent_[a], a) = 1;
  }
  if (k_ > 0) {
    const Eigen::VectorXd yD = -lu.solve(AI * v + atRest_.phi);
    const Eigen::MatrixXd XD = -lu.solve(AI);
    for (int c = 0; c < k_; ++c) {
      y[dependent_[c]] = yD[c];
      out.X.row(dependent_[c]) = XD.row(c);
    }
  }
  out.z = z;
  out.x.resize(n_ + m_);
  out.x << q, y;
  program_.at(t, q.data(), y.data(), atPoint_);
  const Eigen::VectorXd gamma = frame(t, q.data());
  out.energy = atPoint_.E - atPoint_.p.dot(gamma);
  if (gradient) gradientAt(t, atPoint_, lu, gamma, out);
}

// u = ∇𝓔 at the point: with w = ∂𝓔/∂y = M (y − Γ), u_v = Xᵀ w and
// u_q = ∂𝓔/∂q|_y + (∂y/∂q)ᵀ w, ∂y_D/∂q = −A_D⁻¹ ∂Φ/∂q (y_I = v does not move with q).
void ReducedCoordinates::gradientAt(double t, const PointFunctions& f,
                                    const Eigen::PartialPivLU<Eigen::MatrixXd>& lu,
                                    const Eigen::VectorXd& gamma, Point& out) const {
  const Eigen::VectorXd q = out.x.head(n_), y = out.x.tail(m_);
  const Eigen::VectorXd w = f.M * (y - gamma);
  Eigen::VectorXd Eq = f.Eq - f.dpdq.transpose() * gamma;
  if (frame_) Eq -= frameJacobian(t, q).transpose() * f.p;
  out.dydq.setZero(m_, n_);
  if (k_ > 0) {
    const Eigen::MatrixXd dD = -lu.solve(f.phiQ);
    for (int c = 0; c < k_; ++c) out.dydq.row(dependent_[c]) = dD.row(c);
  }
  out.u.resize(size());
  out.u << Eq + out.dydq.transpose() * w, out.X.transpose() * w;
  out.rho = f.rho;
  out.M = f.M;
}

// S(z) at a point with its ż = g: S = S0 + the rank-two term (module comment, docs/engine.md),
// applied to any vector.
class SkewOperator {
 public:
  SkewOperator(const Point& point, const Eigen::VectorXd& g, bool affine)
      : n_(static_cast<int>(point.rho.rows())), affine_(affine), u_(point.u) {
    const Eigen::MatrixXd Mstar = point.X.transpose() * point.M * point.X;
    B_ = point.rho * point.X *
         Mstar.ldlt().solve(Eigen::MatrixXd::Identity(Mstar.rows(), Mstar.cols()));
    d_ = g - applyS0(u_);
    // Linear constraints: d_q = 0 up to round-off, and the term acts on the velocities only,
    // so q moves in the image of ρ (a unit quaternion keeps its norm).
    if (!affine_) {
      d_.head(n_).setZero();
      u_.head(n_).setZero();
    }
    const double norm2 = u_.squaredNorm();
    scale_ = norm2 > 0 && std::isfinite(norm2) ? 1 / norm2 : 0;  // at rest in the frame: none
  }

  Eigen::VectorXd apply(const Eigen::VectorXd& a) const {
    return applyS0(a) + scale_ * (d_ * u_.dot(a) - u_ * d_.dot(a));
  }

 private:
  Eigen::VectorXd applyS0(const Eigen::VectorXd& a) const {
    const int d = static_cast<int>(a.size()) - n_;
    Eigen::VectorXd out(a.size());
    out << B_ * a.tail(d), -B_.transpose() * a.head(n_);
    return out;
  }

  int n_;
  bool affine_;
  Eigen::MatrixXd B_;  // ρ X M*⁻¹
  Eigen::VectorXd u_, d_;
  double scale_ = 0;
};

// ż = g = (ρ y, (ẏ)_I) at a point, from the engine's right-hand side.
Eigen::VectorXd velocityField(const StepperRhs& f, double t, const Point& point,
                              const std::vector<int>& independent) {
  const int n = static_cast<int>(point.z.size() - independent.size());
  Eigen::VectorXd xdot(point.x.size()), g(point.z.size());
  f(t, point.x.data(), xdot.data());
  g.head(n) = xdot.head(n);
  for (size_t a = 0; a < independent.size(); ++a) g[n + a] = xdot[n + independent[a]];
  return g;
}

// The unknowns of one step and what the iteration reads.
struct DiscreteStep {
  double t0 = 0, h = 0, energy0 = 0;
  Eigen::VectorXd z0, z1;
  Eigen::MatrixXd newton;  // the Jacobian of the residual: first I − (h/2) ∂g/∂z, then Broyden's
};

// How Newton's method ended on a step it could not take, for the message of a run that stops.
struct NewtonOutcome {
  double smallest = std::numeric_limits<double>::infinity();  // the smallest relative update
  bool singular = false;                                      // Newton's matrix was singular
  std::string reason() const {
    if (singular) return "its matrix I − (h/2) ∂g/∂z is singular there";
    char size[32];
    std::snprintf(size, sizeof size, "%.2g", smallest);
    if (smallest < 1e-8)
      return std::string("its updates stall at ") + size +
             " of the state (the rounding of the equations at this state)";
    return std::string("its updates do not shrink (the smallest was ") + size +
           " of the state): the motion changes too much within a step";
  }
};

class DiscreteGradient final : public detail::LandingStepper {
 public:
  explicit DiscreteGradient(const EquationsOfMotion& equations) : equations_(&equations) {}

  // The reduced coordinates are made for the equations (their fit checked at the state then)
  // at the next initialize.
  void bind(const EquationsOfMotion& equations) override {
    if (&equations == equations_) return;  // (the same ones again: all made stays)
    equations_ = &equations;
    coordinates_.reset();
    derivatives_.reset();
  }

  void initialize(const double* x, int size, double t, double dt) override {
    if (!coordinates_) {
      const DiscreteGradientFit fit = discreteGradientFit(*equations_, x, t);
      if (!fit.refusal.empty()) throw InputError(fit.refusal);
      affine_ = fit.frameEnergy;
      coordinates_ = std::make_unique<ReducedCoordinates>(*equations_, affine_);
      derivatives_ = std::make_unique<StateDerivatives>(*equations_);
    }
    LandingStepper::initialize(x, size, t, dt);
  }
  int order() const override { return 2; }

 private:
  void step(const StepperRhs& f, double dt, bool lands, bool) override {
    Eigen::VectorXd x = Eigen::Map<const Eigen::VectorXd>(start_.data(), start_.size());
    advance(f, t_, dt, x, 0);
    Eigen::Map<Eigen::VectorXd>(x_.data(), x_.size()) = x;
    t_ = lands ? stop_ : t_ + dt;
  }

  // Moves the state x at t by h: one step of the method, or, where Newton's method does not
  // converge from the explicit midpoint guess (the motion turns too far within the step: the
  // rattleback's spin reversal at h = 0.01), two steps of h/2, and so on down to
  // h/2^kMaxHalvings. Every piece keeps 𝓔 exactly and is symmetric, so the run keeps it too.
  void advance(const StepperRhs& f, double t, double h, Eigen::VectorXd& x, int depth) {
    NewtonOutcome outcome;
    if (tryStep(f, t, h, x, outcome)) return;
    if (depth == kMaxHalvings)
      throw StepFailure("discrete-gradient: Newton's method did not converge at t = " +
                        formatValue(t) + " even in steps of " + formatValue(h) + " (the step " +
                        formatValue(h * (1 << kMaxHalvings)) + " halved " +
                        std::to_string(kMaxHalvings) + " times): " + outcome.reason());
    advance(f, t, 0.5 * h, x, depth + 1);
    advance(f, t + 0.5 * h, 0.5 * h, x, depth + 1);
  }

  // One step of h from x at t into x; false (x unchanged) when Newton's method fails.
  bool tryStep(const StepperRhs& f, double t, double h, Eigen::VectorXd& x,
               NewtonOutcome& outcome) {
    DiscreteStep s;
    s.t0 = t;
    s.h = h;
    Point p0;
    coordinates_->choose(s.t0, x.data());
    s.z0 = coordinates_->reduce(x.data());
    coordinates_->evaluate(s.t0, s.z0, false, p0);
    s.energy0 = p0.energy;
    guess(f, p0, s);
    if (!solve(f, s, outcome)) return false;
    Point p1;
    coordinates_->evaluate(s.t0, s.z1, false, p1);
    x = p1.x;
    return true;
  }

  // The explicit midpoint rule's step as the first iterate, and Newton's matrix
  // I − (h/2) ∂g/∂z at its midpoint, ∂g/∂z = P (∂f/∂x) (∂x/∂z) with the tape's exact ∂f/∂x.
  // `start`: the reduced coordinates evaluated at s.z0 (step() has them).
  void guess(const StepperRhs& f, const Point& start, DiscreteStep& s) {
    ReducedCoordinates& rc = *coordinates_;
    const int n = rc.n(), size = rc.size(), d = size - n;
    const Eigen::VectorXd half = s.z0 + 0.5 * s.h * velocityField(f, s.t0, start, rc.independent());
    Point p;
    rc.evaluate(s.t0, half, true, p);
    s.z1 = s.z0 + s.h * velocityField(f, s.t0, p, rc.independent());
    Eigen::MatrixXd J(p.x.size(), p.x.size());
    derivatives_->jacobian(derivativesWork_, s.t0, p.x.data(), J);
    Eigen::MatrixXd T = Eigen::MatrixXd::Zero(p.x.size(), size), P(size, p.x.size());
    T.topLeftCorner(n, n).setIdentity();
    T.bottomLeftCorner(p.x.size() - n, n) = p.dydq;
    T.bottomRightCorner(p.x.size() - n, d) = p.X;
    P.setZero();
    P.topLeftCorner(n, n).setIdentity();
    for (int a = 0; a < d; ++a) P(n + a, n + rc.independent()[a]) = 1;
    s.newton = Eigen::MatrixXd::Identity(size, size) - 0.5 * s.h * P * J * T;
  }

  // R = z1 − z0 − h S(z̄) ∇̄𝓔(z0, z1), ∇̄𝓔 = u(z̄) + (𝓔(z1) − 𝓔(z0) − u(z̄)·Δz)/|Δz|² Δz.
  Eigen::VectorXd residual(const StepperRhs& f, const DiscreteStep& s) {
    ReducedCoordinates& rc = *coordinates_;
    Point mid, end;
    rc.evaluate(s.t0, 0.5 * (s.z0 + s.z1), true, mid);
    rc.evaluate(s.t0, s.z1, false, end);
    const SkewOperator S(mid, velocityField(f, s.t0, mid, rc.independent()), affine_);
    const Eigen::VectorXd dz = s.z1 - s.z0;
    Eigen::VectorXd gradient = mid.u;
    const double norm2 = dz.squaredNorm();
    if (norm2 > 0) gradient += (end.energy - s.energy0 - mid.u.dot(dz)) / norm2 * dz;
    return dz - s.h * S.apply(gradient);
  }

  // The Jacobian of the residual at s.z1 by forward differences (where the motion is so fast
  // within a step that I − (h/2) ∂g/∂z leaves Newton's method slow).
  void differencedJacobian(const StepperRhs& f, DiscreteStep& s, const Eigen::VectorXd& R) {
    const Eigen::VectorXd z1 = s.z1;
    for (int j = 0; j < z1.size(); ++j) {
      const double step = 1e-7 * std::max(1.0, std::abs(z1[j]));
      s.z1[j] = z1[j] + step;
      s.newton.col(j) = (residual(f, s) - R) / step;
      s.z1[j] = z1[j];
    }
  }

  // Newton's method from the matrix of guess(), which misses the derivative of the discrete
  // gradient's correction term (O(h²), large where the motion is fast within a step): updated
  // after every iteration by Broyden's rank-one formula, and differenced anew where the
  // updates still shrink by less than a factor of 10. It ends at round-off (true), or after
  // kMaxNewtonIterations, or at a singular matrix (false, with what it saw in `outcome`).
  bool solve(const StepperRhs& f, DiscreteStep& s, NewtonOutcome& outcome) {
    double previous = std::numeric_limits<double>::infinity();
    outcome = NewtonOutcome();
    Eigen::VectorXd R = residual(f, s);
    for (int iter = 0; iter < kMaxNewtonIterations; ++iter) {
      const Eigen::VectorXd delta = s.newton.partialPivLu().solve(R);
      if (!delta.allFinite()) {
        outcome.singular = true;
        return false;
      }
      s.z1 -= delta;
      const double scale = std::max(1.0, s.z1.cwiseAbs().maxCoeff());
      const double update = delta.cwiseAbs().maxCoeff() / scale;
      outcome.smallest = std::min(outcome.smallest, update);
      // At rounding level; or, once close, no longer shrinking tenfold: the residual is at
      // its rounding noise, and an update that grew is taken back.
      if (update <= 1e-15) return true;
      if (update <= 1e-12 && update > 0.1 * previous) {
        if (update > previous) s.z1 += delta;
        return true;
      }
      const Eigen::VectorXd next = residual(f, s);
      if (update > 0.1 * previous && update > 1e-11) {
        differencedJacobian(f, s, next);
      } else if (update > 1e-12) {  // (a secant through rounding noise would spoil the matrix)
        const double norm2 = delta.squaredNorm();
        if (norm2 > 0) s.newton += ((next - R) + s.newton * delta) * (-delta).transpose() / norm2;
      }
      previous = update;
      R = next;
    }
    return false;
  }

  const EquationsOfMotion* equations_;  // bound (bind)
  // Made for them (none: at the next initialize).
  std::unique_ptr<ReducedCoordinates> coordinates_;
  std::unique_ptr<StateDerivatives> derivatives_;
  StateDerivativesWorkspace derivativesWork_;  // the derivatives' evaluation storage
  bool affine_ = false;
};

}  // namespace

double relativeEnergyRate(const EquationsOfMotion& equations, bool frameEnergy, double t,
                          const double* x) {
  ReducedCoordinates rc(equations, frameEnergy);
  rc.choose(t, x);
  EquationsWorkspace ws(equations);
  const StepperRhs f = [&](double tt, const double* xx, double* dxdt) {
    equations.rhs(ws, tt, xx, dxdt);
  };
  // At x and at two points near it (a single state may be one where 𝓔 happens to be
  // stationary, such as a ball at rest on a tilted table).
  const Eigen::VectorXd z = rc.reduce(x);
  double worst = 0;
  for (int probe = 0; probe < 3; ++probe) {
    Eigen::VectorXd zp = z;
    for (int i = 0; i < z.size(); ++i)
      zp[i] += 0.05 * probe * (1 + std::abs(z[i])) * (1 - 0.31 * ((i + probe) % 4));
    Point p;
    rc.evaluate(t, zp, true, p);
    const Eigen::VectorXd g = velocityField(f, t, p, rc.independent());
    const double scale = p.u.norm() * g.norm();
    if (scale > 0 && std::isfinite(scale)) worst = std::max(worst, std::abs(p.u.dot(g)) / scale);
  }
  return worst;
}

std::unique_ptr<Stepper> makeDiscreteGradient(const EquationsOfMotion& equations) {
  return std::make_unique<DiscreteGradient>(equations);
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
