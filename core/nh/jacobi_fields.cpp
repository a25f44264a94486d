// Jacobi fields along a run (jacobi_fields.h): the start's derivatives, the companion
// integration of (x, S) between samples, the run's sensitivity columns and Benettin's
// Lyapunov exponents.
#include "core/nh/jacobi_fields.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "core/nh/equation_pieces.h"
#include "core/nh/errors.h"
#include "core/nh/messages.h"
#include "core/nh/scenario_run.h"
#include "core/nh/state_derivatives.h"
#include "core/nh/steppers.h"

namespace nh {

namespace {

bool hasVariationalForm(Integrator method) {
  return method == Integrator::Dopri5 || method == Integrator::Dop853 ||
         method == Integrator::Rk78 || method == Integrator::Rk4;
}

// The columns of `matrix` listed in `columns`.
Eigen::MatrixXd columnsOf(const Eigen::MatrixXd& matrix, const std::vector<int>& columns) {
  Eigen::MatrixXd out(matrix.rows(), columns.size());
  for (std::size_t c = 0; c < columns.size(); ++c) out.col(c) = matrix.col(columns[c]);
  return out;
}

// The coordinates' move for a unit change of coordinate i, made consistent as the start's
// projection makes it: the quaternion's norm kept (δq ⊥ q), then g = 0 kept, by the declared
// dependent coordinates (zero when i is one of them: the others fix it) or by the least
// change (δq − Gᵀ(GGᵀ)⁻¹G δq).
Eigen::VectorXd coordinateMove(const EquationsOfMotion& equations, double t,
                               const std::vector<double>& x0, int i) {
  const SystemModel& sys = equations.system();
  const int n = sys.n(), h = sys.h();
  Eigen::VectorXd dq = Eigen::VectorXd::Unit(n, i);
  for (const QuaternionSlot& qs : sys.info().quaternions) {
    const Eigen::Map<const Eigen::Vector4d> q(x0.data() + qs.first);
    Eigen::Ref<Eigen::VectorXd> part = dq.segment(qs.first, 4);
    part -= q * q.dot(part) / q.squaredNorm();
  }
  if (h == 0) return dq;
  Eigen::MatrixXd G(h, n);
  sys.holonomicJacobian(equations.parameters().data(), t, x0.data(), G.data());
  const std::vector<int>& dependent = sys.dependentIndices();
  if (dependent.empty()) return dq - G.transpose() * (G * G.transpose()).ldlt().solve(G * dq);
  if (std::find(dependent.begin(), dependent.end(), i) != dependent.end())
    return Eigen::VectorXd::Zero(n);
  const Eigen::VectorXd moved = -columnsOf(G, dependent).partialPivLu().solve(G * dq);
  for (std::size_t c = 0; c < dependent.size(); ++c) dq[dependent[c]] += moved[c];
  return dq;
}

// The free velocities' change −M_f⁻¹A_fᵀ(A_f M_f⁻¹ A_fᵀ)⁻¹ r that meets the linearised
// constraints (residual r) with least change in the metric M (the identity where M_f is
// degenerate, as completeVelocities falls back); false when A_f cannot take r.
bool completeFree(const pieces::Pieces& P, const std::vector<int>& free, const Eigen::VectorXd& r,
                  Eigen::VectorXd& dy) {
  const int f = static_cast<int>(free.size());
  if (f < P.kt) return false;
  Eigen::MatrixXd Mf(f, f);
  for (int i = 0; i < f; ++i)
    for (int j = 0; j < f; ++j) Mf(i, j) = P.M(free[i], free[j]);
  const Eigen::MatrixXd Af = columnsOf(P.A, free);
  Eigen::PartialPivLU<Eigen::MatrixXd> lu(Mf);
  if (!(lu.rcond() > 1e-13)) lu.compute(Eigen::MatrixXd::Identity(f, f));
  const Eigen::MatrixXd MinvAt = lu.solve(Af.transpose());
  const Eigen::FullPivLU<Eigen::MatrixXd> luS(Af * MinvAt);
  if (luS.rank() < P.kt) return false;
  const Eigen::VectorXd delta = -MinvAt * luS.solve(r);
  for (int i = 0; i < f; ++i) dy[free[i]] += delta[i];
  return true;
}

// The velocities' move: `dy` (the named velocity's unit change, or zero) completed through
// Φ_q δq + A δy + r = 0 as initialState completes a start (r: Φ's change with a parameter):
// the kept velocities held, freeing more when they leave too little (kept → given → none).
void completeVelocityMove(const EquationsOfMotion& equations, const pieces::Pieces& P,
                          const Eigen::VectorXd& dq, std::vector<bool> given, Eigen::VectorXd& dy,
                          const Eigen::VectorXd* change = nullptr) {
  if (P.kt == 0) return;
  const SystemInfo& info = equations.system().info();
  const int n = P.n, m = P.m;
  Eigen::VectorXd r = P.A * dy;
  for (int j = 0; j < n; ++j) r += P.dphi[j] * dq[j];
  if (change) r += *change;
  std::vector<bool> keep = given;
  for (const std::string& name : info.independentVelocities)
    for (int a = 0; a < m; ++a)
      if (info.velocities[a] == name) keep[a] = true;
  for (const std::vector<bool>& held : {keep, given, std::vector<bool>(m, false)}) {
    std::vector<int> free;
    for (int a = 0; a < m; ++a)
      if (!held[a]) free.push_back(a);
    Eigen::VectorXd trial = dy;
    if (completeFree(P, free, r, trial)) {
      dy = trial;
      return;
    }
  }
  throw InputError("the constraints of '" + echoInput(equations.system().name()) +
                   "' cannot be solved for the velocities at the start");
}

}  // namespace

std::vector<std::string> variationalIntegrators() {
  std::vector<std::string> names;
  for (const IntegratorRow& row : kIntegrators)
    if (hasVariationalForm(row.value)) names.emplace_back(row.name);
  return names;
}

std::string variationalRefusal(const std::string& what, Integrator method, DynamicsKind dynamics) {
  if (dynamics != DynamicsKind::Nonholonomic)
    return what +
           " works on the nonholonomic equations: the vakonomic ones (their multipliers in the "
           "state) have no exact Jacobian here; leave out --dynamics vakonomic";
  if (!hasVariationalForm(method))
    return what + " needs an integrator with a variational form (" +
           joined(variationalIntegrators()) + "), not " + toString(method);
  return "";
}

Eigen::MatrixXd initialValueSeeds(const EquationsOfMotion& equations, double t,
                                  const std::vector<double>& x0,
                                  const std::map<std::string, double>& given,
                                  const std::vector<std::string>& names) {
  const SystemModel& sys = equations.system();
  const int n = sys.n(), m = sys.m();
  const StateLayout layout = stateLayout(sys, DynamicsKind::Nonholonomic);
  const pieces::Pieces P = pieces::PiecesProgram(equations).at(t, x0.data());
  Eigen::MatrixXd seeds = Eigen::MatrixXd::Zero(n + m, static_cast<Eigen::Index>(names.size()));
  for (std::size_t c = 0; c < names.size(); ++c) {
    const int pos = layout.find(names[c]);
    if (pos < 0) throw InputError("unknown state variable '" + echoInput(names[c]) + "'");
    const int index = layout.index[pos];
    if (index < n) seeds.col(c).head(n) = coordinateMove(equations, t, x0, index);
    if (index >= n) seeds(index, c) = 1;
    std::vector<bool> held(m, false);
    for (int a = 0; a < m; ++a)
      held[a] = given.count(sys.info().velocities[a]) > 0 || a == index - n;
    Eigen::VectorXd dy = seeds.col(c).tail(m);
    completeVelocityMove(equations, P, seeds.col(c).head(n), held, dy);
    seeds.col(c).tail(m) = dy;
  }
  return seeds;
}

Eigen::MatrixXd parameterSeeds(const EquationsOfMotion& equations, double t,
                               const std::vector<double>& x0,
                               const std::map<std::string, double>& given,
                               const std::vector<int>& parameters) {
  const SystemModel& sys = equations.system();
  const int n = sys.n(), m = sys.m(), P = static_cast<int>(parameters.size());
  Eigen::MatrixXd seeds = Eigen::MatrixXd::Zero(n + m, P);
  if (P == 0) return seeds;
  const pieces::PiecesProgram program(equations, SymProgram::Execution::Interpreted, false,
                                      parameters);
  const pieces::Pieces pieces = program.at(t, x0.data());
  std::vector<bool> held(m, false);
  for (int a = 0; a < m; ++a) held[a] = given.count(sys.info().velocities[a]) > 0;
  for (int k = 0; k < P; ++k) {
    Eigen::VectorXd dy = Eigen::VectorXd::Zero(m);
    completeVelocityMove(equations, pieces, Eigen::VectorXd::Zero(n), held, dy,
                         &pieces.dphi[n + m + k]);
    seeds.col(k).tail(m) = dy;
  }
  return seeds;
}

// ---- JacobiFlow ---------------------------------------------------------------------------

struct JacobiFlow::Impl {
  std::shared_ptr<const EquationsOfMotion> equations;  // the multipliers formulation of the run's
  std::unique_ptr<StateDerivatives> derivatives;
  StateDerivativesWorkspace derivativeWork;
  EquationsWorkspace work;
  IntegratorOptions options;
  std::unique_ptr<Stepper> stepper;
  Eigen::MatrixXd S, J;
  std::vector<double> x, z, end;  // the run's state at t; the companion's (x, S); at a sample
  double t = 0, trial = 0;
  double reached = 0;    // where the companion's last step ended
  bool running = false;  // the stepper goes on from its own state (else it restarts at x)
  std::int64_t steps = 0;
  int size = 0;
  StepperRhs rhs;
  // The parameters of the last columns of S (sensitivities to parameters), and the program
  // of the pieces' derivatives with respect to the state and them.
  std::vector<int> parameters;
  std::unique_ptr<pieces::PiecesProgram> withParameters;

  void use(std::shared_ptr<const EquationsOfMotion> runEquations) {
    equations = runEquations->formulation() == Formulation::Hamiltonian
                    ? std::make_shared<const EquationsOfMotion>(
                          runEquations->withFormulation(Formulation::Multipliers))
                    : std::move(runEquations);
    derivatives = std::make_unique<StateDerivatives>(*equations);
    if (!parameters.empty())
      withParameters = std::make_unique<pieces::PiecesProgram>(
          *equations, SymProgram::Execution::Native, false, parameters);
    if (withParameters && !withParameters->readsParameters())
      throw InputError("'" + echoInput(equations->system().name()) +
                       "' reads its parameters as numbers, not on the tape: no sensitivities "
                       "to them; name initial values");
    work = EquationsWorkspace(*equations);
    running = false;
  }
  void rates(double at, const double* state, double* rate);
  void restart();
  void integrate(double t1);
  bool follows(const double* runState) const;
};

// (ẋ, Ṡ) at (t, x, S): Ṡ = ∂f/∂x S, and ∂f/∂p added to the parameters' columns (from the
// pieces differentiated with respect to them too, which give ∂f/∂x on the way).
void JacobiFlow::Impl::rates(double at, const double* state, double* rate) {
  const int N = static_cast<int>(x.size());
  const Eigen::Index c = S.cols(), P = static_cast<Eigen::Index>(parameters.size());
  equations->rhs(work, at, state, rate);
  Eigen::Map<Eigen::MatrixXd> dS(rate + N, N, c);
  if (P == 0) {
    derivatives->jacobian(derivativeWork, at, state, J);
    dS.noalias() = J * Eigen::Map<const Eigen::MatrixXd>(state + N, N, c);
    return;
  }
  const Eigen::MatrixXd Jp =
      pieces::jacobianOf(*equations, withParameters->at(at, state), nullptr, static_cast<int>(P));
  dS.noalias() = Jp.leftCols(N) * Eigen::Map<const Eigen::MatrixXd>(state + N, N, c);
  dS.rightCols(P) += Jp.rightCols(P);
}

// The stepper started at the run's state x and the fields S at t: adaptive methods with the
// step they proposed last, fixed-step ones with their step.
void JacobiFlow::Impl::restart() {
  const int N = static_cast<int>(x.size());
  size = N * static_cast<int>(1 + S.cols());
  z.resize(size);
  end.resize(size);
  std::copy(x.begin(), x.end(), z.begin());
  Eigen::Map<Eigen::MatrixXd>(z.data() + N, N, S.cols()) = S;
  stepper->initialize(z.data(), size, t,
                      isFixedStep(options.method) || trial <= 0 ? options.step : trial);
  reached = t;
  running = true;
}

// (x, S) carried to t1 by the run's method, going on from the companion's own steps: a
// method with dense output steps past t1 and interpolates, the others land on it.
void JacobiFlow::Impl::integrate(double t1) {
  const int N = static_cast<int>(x.size());
  if (!running) restart();
  const double tolerance = 4 * std::numeric_limits<double>::epsilon() * std::abs(t1);
  std::int64_t taken = 0;
  try {
    while (t1 - reached > tolerance) {
      stepper->setStopTime(t1);
      reached = stepper->doStep(rhs).second;
      if (++taken > options.maxSteps) throw StepFailure("more steps than the step budget");
    }
    if (stepper->hasDenseOutput())
      stepper->calcState(rhs, t1, end.data());
    else
      std::copy(stepper->currentState(), stepper->currentState() + size, end.begin());
  } catch (const StepFailure& e) {
    throw IntegrationError("the Jacobi fields of '" + echoInput(equations->system().name()) +
                               "' could not be integrated at t = " + shortNumber(t) + ": " +
                               e.what(),
                           t);
  }
  steps += taken;
  if (!isFixedStep(options.method)) trial = stepper->currentTimeStep();
  S = Eigen::Map<const Eigen::MatrixXd>(end.data() + N, N, S.cols());
}

// Whether the companion's state at the sample just reached is the run's there, to a hundred
// times the tolerance in every entry: it then goes on from its own state; else (the run
// projected its state further, or an edit moved it) it restarts from the run's.
bool JacobiFlow::Impl::follows(const double* runState) const {
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double scale =
        options.atol + options.rtol * std::max(std::abs(end[i]), std::abs(runState[i]));
    if (!(std::abs(end[i] - runState[i]) <= 100 * scale)) return false;
  }
  return true;
}

JacobiFlow::JacobiFlow(std::shared_ptr<const EquationsOfMotion> equations,
                       const IntegratorOptions& options, Eigen::MatrixXd S0, double t0,
                       const double* x0, std::vector<int> parameters)
    : impl_(std::make_unique<Impl>()) {
  Impl& s = *impl_;
  const std::string refusal =
      variationalRefusal("Jacobi fields", options.method, equations->dynamics());
  if (!refusal.empty()) throw InputError(refusal);
  s.parameters = std::move(parameters);
  s.use(std::move(equations));
  s.options = options;
  s.stepper = integratorRow(options.method).make(*s.equations, options);
  const int N = s.equations->stateSize();
  s.S = std::move(S0);
  s.J.resize(N, N);
  s.x.assign(x0, x0 + N);
  s.t = t0;
  s.rhs = [&s](double t, const double* z, double* dz) { s.rates(t, z, dz); };
}

JacobiFlow::~JacobiFlow() = default;

void JacobiFlow::advanceTo(double t, const double* x) {
  Impl& s = *impl_;
  if (t > s.t) {
    s.integrate(t);
    if (!s.follows(x)) s.running = false;
  }
  s.t = t;
  std::copy(x, x + s.x.size(), s.x.begin());
}

void JacobiFlow::setEquations(std::shared_ptr<const EquationsOfMotion> equations) {
  impl_->use(std::move(equations));
}

const EquationsOfMotion* JacobiFlow::equations() const { return impl_->equations.get(); }

const Eigen::MatrixXd& JacobiFlow::fields() const { return impl_->S; }

void JacobiFlow::setFields(Eigen::MatrixXd S) {
  impl_->S = std::move(S);
  impl_->running = false;  // the companion starts again from them
}

std::int64_t JacobiFlow::steps() const { return impl_->steps; }

Eigen::MatrixXd JacobiFlow::tangentBasis(double t, const double* x) {
  Impl& s = *impl_;
  const SystemModel& sys = s.equations->system();
  const int n = sys.n(), N = s.equations->stateSize(), h = sys.h();
  const int kt = sys.constraintsTotal();
  const int quaternions = static_cast<int>(sys.info().quaternions.size());
  Eigen::MatrixXd C = Eigen::MatrixXd::Zero(quaternions + h + kt, N);
  int row = 0;
  for (const QuaternionSlot& qs : sys.info().quaternions)
    C.row(row++).segment(qs.first, 4) = Eigen::Map<const Eigen::RowVector4d>(x + qs.first);
  if (h > 0) {
    Eigen::MatrixXd G(h, n);
    sys.holonomicJacobian(s.equations->parameters().data(), t, x, G.data());
    C.block(row, 0, h, n) = G;
    row += h;
  }
  if (kt > 0) {
    Eigen::VectorXd phi(kt);
    Eigen::MatrixXd dphi(kt, N);
    s.derivatives->constraints(s.derivativeWork, t, x, phi, dphi);
    C.bottomRows(kt) = dphi;
  }
  if (C.rows() == 0) return Eigen::MatrixXd::Identity(N, N);
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(C, Eigen::ComputeFullV);
  const double top = svd.singularValues().size() ? svd.singularValues()[0] : 0;
  int rank = 0;
  for (Eigen::Index i = 0; i < svd.singularValues().size(); ++i)
    if (svd.singularValues()[i] > 1e-10 * top) ++rank;
  return svd.matrixV().rightCols(N - rank);
}

// ---- The run's sensitivity columns ---------------------------------------------------------

void RunSensitivities::check(const SystemModel& system, const Scenario& scenario,
                             const std::vector<std::string>& names) {
  const std::string refusal =
      variationalRefusal("--sensitivity", scenario.integrator.method, scenario.dynamics);
  if (!refusal.empty()) throw InputError(refusal);
  const StateLayout layout = stateLayout(system, DynamicsKind::Nonholonomic);
  std::vector<std::string> parameters;
  for (const ParameterInfo& p : system.info().parameters) parameters.push_back(p.name);
  for (const std::string& name : names) {
    if (layout.find(name) >= 0) continue;
    if (std::find(parameters.begin(), parameters.end(), name) == parameters.end())
      throw InputError("--sensitivity: '" + echoInput(name) + "' is not an initial value or a " +
                       "parameter of '" + system.name() + "' (allowed: " + joined(layout.names) +
                       ", or a parameter: see 'nhsim info " + system.name() + "')");
    if (system.h() > 0)
      throw InputError("--sensitivity " + name + ": sensitivities to parameters are not " +
                       "available for '" + system.name() +
                       "', whose holonomic constraints may move its start with them; name "
                       "initial values");
  }
}

namespace {

// The parameters among `names` (indices into the system's), in their order.
std::vector<int> parametersNamed(const SystemModel& system, const std::vector<std::string>& names) {
  const StateLayout layout = stateLayout(system, DynamicsKind::Nonholonomic);
  const std::vector<ParameterInfo>& all = system.info().parameters;
  std::vector<int> indices;
  for (const std::string& name : names)
    for (std::size_t i = 0; i < all.size(); ++i)
      if (layout.find(name) < 0 && all[i].name == name) indices.push_back(static_cast<int>(i));
  return indices;
}

}  // namespace

RunSensitivities::RunSensitivities(const ScenarioRun& run, const Scenario& scenario,
                                   std::vector<std::string> names)
    : names_(std::move(names)), system_(scenario.system) {
  const EquationsOfMotion& equations = run.simulation().equations();
  const SystemModel& system = equations.system();
  check(system, scenario, names_);
  const std::vector<double>& x0 = run.start().x0;
  // The fields: the initial values' first, then the parameters', each name's column kept.
  std::vector<std::string> initial;
  for (const std::string& name : names_)
    if (run.layout().find(name) >= 0) initial.push_back(name);
  const std::vector<int> parameters = parametersNamed(system, names_);
  const Eigen::MatrixXd values = initialValueSeeds(equations, 0.0, x0, scenario.initial, initial);
  Eigen::MatrixXd seeds(values.rows(),
                        values.cols() + static_cast<Eigen::Index>(parameters.size()));
  seeds << values, parameterSeeds(equations, 0.0, x0, scenario.initial, parameters);
  int nextInitial = 0, nextParameter = static_cast<int>(initial.size());
  for (const std::string& name : names_)
    fieldOf_.push_back(run.layout().find(name) >= 0 ? nextInitial++ : nextParameter++);
  order_ = run.layout().index;  // the state columns in the order the run writes them
  for (const std::string& name : names_)
    for (const std::string& column : run.layout().names)
      columns_.push_back("d" + column + "/d" + name);
  flow_ = std::make_unique<JacobiFlow>(run.simulation().equationsPtr(), scenario.integrator, seeds,
                                       0.0, x0.data(), parameters);
  runEquations_ = &equations;
}

RunSensitivities::~RunSensitivities() = default;

void RunSensitivities::sample(ScenarioRun& run, double t, const double* x,
                              std::vector<double>& row) {
  const auto& equations = run.simulation().equationsPtr();
  if (equations.get() != runEquations_) {  // a timed edit: the run goes on with new equations
    flow_->setEquations(equations);
    runEquations_ = equations.get();
  }
  flow_->advanceTo(t, x);
  const Eigen::MatrixXd& S = flow_->fields();
  const std::size_t shown = order_.size();
  for (std::size_t c = 0; c < fieldOf_.size(); ++c)
    for (std::size_t k = 0; k < shown; ++k) {
      const double value = S(order_[k], fieldOf_[c]);
      if (!std::isfinite(value))
        throw IntegrationError("integration of '" + echoInput(system_) +
                                   "' blew up at t = " + shortNumber(t) + " (" +
                                   columns_[c * shown + k] + " is no longer finite)",
                               t);
      row.push_back(value);
    }
}

// ---- Lyapunov exponents --------------------------------------------------------------------

namespace {

// `count` orthonormal fields spanning a generic subspace of the tangent space `basis` (a
// fixed seed: the same run gives the same figures).
Eigen::MatrixXd genericFields(const Eigen::MatrixXd& basis, int count) {
  std::mt19937 random(20261130);
  std::normal_distribution<double> normal;
  Eigen::MatrixXd mix(basis.cols(), count);
  for (Eigen::Index i = 0; i < mix.size(); ++i) mix.data()[i] = normal(random);
  const Eigen::HouseholderQR<Eigen::MatrixXd> qr(basis * mix);
  return qr.householderQ() * Eigen::MatrixXd::Identity(basis.rows(), count);
}

// The QR factorisation of the fields projected onto the tangent space at the sample.
Eigen::HouseholderQR<Eigen::MatrixXd> projectedQr(JacobiFlow& flow, double t, const double* x) {
  const Eigen::MatrixXd B = flow.tangentBasis(t, x);
  return Eigen::HouseholderQR<Eigen::MatrixXd>(B * (B.transpose() * flow.fields()));
}

// The logarithms of |R_ii| of the fields' QR at a sample. The fields S = Φ(t, t₀) Q₀ grown
// since the last re-orthonormalisation (at t₀, where the sums were `committed`) give the
// estimate (committed + log|R_ii|) / t at every sample; when their columns' sizes part by
// more than 10⁶ (or leave [1e-100, 1e100]) the fields are replaced by Q, projected onto the
// tangent space (re-orthonormalised), and the sums committed.
Eigen::VectorXd logGrowth(JacobiFlow& flow, double t, const double* x, Eigen::VectorXd& committed) {
  const Eigen::HouseholderQR<Eigen::MatrixXd> qr = projectedQr(flow, t, x);
  const Eigen::Index count = committed.size(), N = flow.fields().rows();
  Eigen::VectorXd logs(count);
  for (Eigen::Index i = 0; i < count; ++i) logs[i] = std::log(std::abs(qr.matrixQR()(i, i)));
  const double spread = logs.maxCoeff() - logs.minCoeff();
  if (spread < std::log(1e6) && logs.cwiseAbs().maxCoeff() < std::log(1e100))
    return committed + logs;
  Eigen::MatrixXd Q = qr.householderQ() * Eigen::MatrixXd::Identity(N, count);
  for (Eigen::Index i = 0; i < count; ++i)
    if (qr.matrixQR()(i, i) < 0) Q.col(i) = -Q.col(i);
  flow.setFields(std::move(Q));
  committed += logs;
  return committed;
}

}  // namespace

LyapunovEstimate lyapunovExponents(std::shared_ptr<const SystemModel> system,
                                   const Scenario& scenario, int count) {
  const std::string refusal =
      variationalRefusal("lyapunov", scenario.integrator.method, scenario.dynamics);
  if (!refusal.empty()) throw InputError(refusal);
  if (!(scenario.tEnd > 0))
    throw InputError("lyapunov needs --t-end T > 0, got " + shortNumber(scenario.tEnd));
  ScenarioRun run(std::move(system), scenario);
  const std::vector<double>& x0 = run.start().x0;
  JacobiFlow fields(run.simulation().equationsPtr(), scenario.integrator,
                    Eigen::MatrixXd(x0.size(), 0), 0.0, x0.data());
  const Eigen::MatrixXd basis = fields.tangentBasis(0.0, x0.data());
  LyapunovEstimate out;
  out.dimension = static_cast<int>(basis.cols());
  if (count < 1 || count > out.dimension)
    throw InputError("--count " + std::to_string(count) + ": '" + scenario.system + "' has " +
                     std::to_string(out.dimension) +
                     " free directions on its constraint manifold; give 1 … " +
                     std::to_string(out.dimension));
  fields.setFields(genericFields(basis, count));
  Eigen::VectorXd sums = Eigen::VectorXd::Zero(count);
  out.tEnd = scenario.tEnd;
  run.advance(
      scenario.tEnd, scenario.dtOut,
      [&](const ScenarioRun::Sample& sample) {
        fields.advanceTo(sample.t, sample.x);
        if (sample.t <= 0) return;
        const Eigen::VectorXd logs = logGrowth(fields, sample.t, sample.x, sums);
        if (!logs.allFinite())
          throw IntegrationError("the Jacobi fields of '" + scenario.system +
                                     "' are no longer finite at t = " + shortNumber(sample.t),
                                 sample.t);
        const Eigen::VectorXd estimate = logs / sample.t;
        if (out.half.empty() && sample.t >= scenario.tEnd / 2) {
          out.tHalf = sample.t;
          out.half.assign(estimate.data(), estimate.data() + count);
        }
        out.end.assign(estimate.data(), estimate.data() + count);
      },
      true);
  out.steps = fields.steps();
  return out;
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
