#include "core/nh/simulation.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "core/nh/errors.h"
#include "core/nh/messages.h"
#include "core/nh/reconstruction.h"
#include "core/nh/run_checks.h"
#include "core/nh/scenario.h"
#include "core/nh/steppers.h"

namespace nh {

using State = std::vector<double>;

std::string toString(Integrator integrator) { return choiceName(kIntegratorChoices, integrator); }

Integrator parseIntegrator(const std::string& text) {
  return parseChoice(kIntegratorChoices, text, "integrator");
}

namespace {
std::string fmt(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}
}  // namespace

void checkIntegratorApplies(Integrator integrator, DynamicsKind dynamics, Formulation formulation) {
  if (integrator != Integrator::NhRattle && integrator != Integrator::DiscreteGradient) return;
  const std::string name = toString(integrator);
  if (dynamics != DynamicsKind::Nonholonomic)
    throw InputError(name +
                     " integrates nonholonomic dynamics only, not vakonomic; choose "
                     "another integrator");
  if (formulation == Formulation::Hamiltonian)
    throw InputError(name +
                     " steps (q, y), not the hamiltonian formulation's (q, p); choose "
                     "the multipliers or gibbs-appell formulation");
}

void IntegratorOptions::validate() const {
  auto positive = [](const char* name, double v) {
    if (!std::isfinite(v) || v <= 0)
      throw InputError(std::string(name) + " must be a finite number > 0, got " + fmt(v));
  };
  positive("rtol", rtol);
  positive("atol", atol);
  positive("step", step);
  if (step < 1e-12) throw InputError("step must be at least 1e-12, got " + fmt(step));
  // Tolerances below these ask for more than doubles hold: refused as input instead of
  // failing later as a step-size underflow.
  constexpr double kEps = std::numeric_limits<double>::epsilon();
  if (rtol < 10 * kEps)
    throw InputError("rtol " + fmt(rtol) + " is below machine precision; give at least " +
                     fmt(10 * kEps) + " (10·machine epsilon)");
  // Tolerances this loose let the error grow to the size of the solution: a bound orbit
  // escapes, energy grows several-fold, and nothing says so.
  if (rtol >= 0.1)
    throw InputError("rtol " + fmt(rtol) +
                     " allows errors of 10 % and more per step; give less than 0.1 (default "
                     "1e-10)");
  if (atol >= 1)
    throw InputError("atol " + fmt(atol) +
                     " allows absolute errors as large as the state itself; give less than 1 "
                     "(default 1e-12)");
  if (atol < 1e-200)
    throw InputError("atol " + fmt(atol) +
                     " is below any meaningful absolute error; give at least 1e-200");
  if (maxSteps < 1 || maxSteps > kMaxStepBudget)
    throw InputError("the step budget must be a whole number in [1, 10^12], got " +
                     std::to_string(maxSteps));
}

// The stepper in use (steppers.h) and the reduction it integrates (reconstruction.h).
struct Simulation::Integration {
  std::unique_ptr<Stepper> stepper;
  double dt = 0;  // current (trial) step
  bool initialised = false;
  // Reduction (reconstruction.h): the plan in use (null: the stepper takes the whole state).
  const ReconstructionPlan* plan = nullptr;
  // The dual side (Formulation::Hamiltonian): the stepper integrates z = (q, p), in
  // integration.z, and the simulation's state stays (q, y) (never with a plan).
  bool momenta = false;
  Reconstructor reconstructor;
  State z, full, fullDot, carried, marks;  // scratch, sized once per plan
  long piecesCharged = 0;                  // reconstruction pieces counted as steps so far
  State projected;                         // scratch of `project`
  bool projectsInside = false;             // the stepper takes `project` (setProjection)
  // The stepper's right-hand side (the reduced rows of the full one when a plan is in use)
  // and the full state at τ within the last step (reconstructed entries left as they are).
  // Made once: they capture only the Simulation, so no call allocates.
  StepperRhs rhs;
  Reconstructor::StateAt stateAt;
  // Drift control inside the steps of a stepper that takes it (Stepper::setProjection): the
  // stepper's state completed to a full one (the reconstructed entries as at the step's
  // start, which the constraints do not read), projected, and its own entries taken back.
  StepperProjection project;

  // New equations of the same system: a plan of the same layout (other parameter values)
  // keeps the reconstructor's buffers; another is made anew when the next run starts.
  void carryPlanTo(const ReconstructionPlan* next) {
    if (!plan || plan == next) return;
    if (next && sameLayout(*plan, *next)) {
      reconstructor.rebind(next);
      plan = next;
    } else {
      plan = nullptr;
    }
  }
};

Simulation::Simulation(std::shared_ptr<const SystemModel> system, DynamicsKind dynamics,
                       Formulation formulation, IntegratorOptions options)
    : Simulation(
          std::make_shared<const EquationsOfMotion>(std::move(system), dynamics, formulation),
          options) {}

Simulation::Simulation(std::shared_ptr<const EquationsOfMotion> equations,
                       IntegratorOptions options)
    : equations_(std::move(equations)),
      workspace_(*equations_),
      integration_(std::make_unique<Integration>()) {
  integration_->rhs = [this](double t, const double* z, double* dz) {
    Integration& s = *integration_;
    if (s.momenta) return equations_->momentumRhs(workspace_, t, z, dz);
    if (!s.plan) return equations_->rhs(workspace_, t, z, dz);
    const std::vector<int>& reduced = s.plan->reduced;
    const int zSize = static_cast<int>(reduced.size());
    for (int k = 0; k < zSize; ++k) s.full[reduced[k]] = z[k];
    equations_->rhs(workspace_, t, s.full.data(), s.fullDot.data());
    for (int k = 0; k < zSize; ++k) dz[k] = s.fullDot[reduced[k]];
  };
  integration_->stateAt = [this](double tau, double* x) {
    Integration& s = *integration_;
    if (s.momenta) {
      s.stepper->calcState(s.rhs, tau, s.z.data());
      return equations_->fromMomenta(workspace_, tau, s.z.data(), x);
    }
    if (!s.plan) return s.stepper->calcState(s.rhs, tau, x);
    s.stepper->calcState(s.rhs, tau, s.z.data());
    const std::vector<int>& reduced = s.plan->reduced;
    for (std::size_t k = 0; k < reduced.size(); ++k) x[reduced[k]] = s.z[k];
  };
  integration_->project = [this](double t, double* z) {
    Integration& s = *integration_;
    if (s.momenta) {
      s.projected = x_;  // the guess of fromMomenta
      equations_->fromMomenta(workspace_, t, z, s.projected.data());
      equations_->project(workspace_, t, s.projected.data());
      return equations_->toMomenta(workspace_, t, s.projected.data(), z);
    }
    if (!s.plan) return static_cast<void>(equations_->project(workspace_, t, z));
    const std::vector<int>& reduced = s.plan->reduced;
    s.projected = s.full;
    for (std::size_t k = 0; k < reduced.size(); ++k) s.projected[reduced[k]] = z[k];
    equations_->project(workspace_, t, s.projected.data());
    for (std::size_t k = 0; k < reduced.size(); ++k) z[k] = s.projected[reduced[k]];
  };
  setOptions(options);
  x_.assign(equations_->stateSize(), 0.0);
}

Simulation::~Simulation() = default;

void Simulation::setOptions(const IntegratorOptions& options) {
  options.validate();
  options_ = options;
  Integration& s = *integration_;
  s.stepper.reset();
  switch (options_.method) {
    case Integrator::Dopri5:
      s.stepper = makeOdeintDopri5(options_.atol, options_.rtol);
      break;
    case Integrator::Dop853:
      s.stepper = makeDop853(options_.atol, options_.rtol);
      break;
    case Integrator::Rk78:
      s.stepper = makeOdeintFehlberg78(options_.atol, options_.rtol);
      break;
    case Integrator::Rk4:
      s.stepper = makeOdeintRk4();
      break;
    case Integrator::Fehlberg78Arkode:
      s.stepper = makeArkodeFehlberg78(options_.atol, options_.rtol);
      break;
    case Integrator::BdfCvode:
      s.stepper = makeCvodeBdf(options_.atol, options_.rtol);
      break;
    case Integrator::NhRattle:
      s.stepper = makeNhRattle(equations_);
      break;
    case Integrator::DiscreteGradient:
      s.stepper = makeDiscreteGradient(equations_);
      break;
  }
  s.dt = options_.step;
  s.initialised = false;
}

bool Simulation::reconstructs() const {
  const ReconstructionPlan* plan = equations_->reconstructionPlan();
  return integration_->stepper->denseOutputCarriesReconstruction() && options_.reconstruction &&
         plan && plan->available && !equations_->integratesMomenta();
}

void Simulation::setState(double t, const std::vector<double>& x) {
  if (static_cast<int>(x.size()) != equations_->stateSize())
    throw InputError("state of system '" + echoInput(equations_->system().name()) + "' has " +
                     std::to_string(equations_->stateSize()) + " entries, got " +
                     std::to_string(x.size()));
  t_ = t;
  x_ = x;
  origin_ = t;
  nextSample_ = 0;
  lastDtOut_ = 0;
  steps_ = 0;
  growthMarks_ = 0;
  growthLevel_ = 0;
  reconstructionRejections_ = 0;
  integration_->initialised = false;
  integration_->dt = options_.step;
}

void Simulation::setParameters(const std::vector<double>& values) {
  auto equations = std::make_shared<const EquationsOfMotion>(equations_->withParameters(values));
  integration_->carryPlanTo(equations->reconstructionPlan());
  equations_ = std::move(equations);
  integration_->initialised = false;  // the stepper's cached derivative is stale
  // Constraints may depend on parameters (the table's Ω): the velocities jump onto the new
  // constraint manifold, as under an impulsive reaction (least change in kinetic energy).
  equations_->project(workspace_, t_, x_.data());
}

void Simulation::setEquations(std::shared_ptr<const EquationsOfMotion> equations) {
  if (equations->stateSize() != equations_->stateSize() ||
      &equations->system() != &equations_->system())
    throw std::logic_error("Simulation::setEquations: equations of another system");
  integration_->carryPlanTo(equations->reconstructionPlan());
  equations_ = std::move(equations);
  integration_->initialised = false;
}

void Simulation::setFormulation(Formulation formulation) {
  auto equations =
      std::make_shared<const EquationsOfMotion>(equations_->withFormulation(formulation));
  integration_->carryPlanTo(equations->reconstructionPlan());
  equations_ = std::move(equations);
  integration_->initialised = false;
}

void Simulation::checkState(double t, const double* x, int size,
                            const std::vector<int>* reduced) const {
  // Only non-finite values stop a run: any finite magnitude (masses of 1e300 give
  // multipliers of that size) is a state the equations may go on from.
  for (int i = 0; i < size; ++i) {
    if (std::isfinite(x[i])) continue;
    std::string name = "the state";
    const int entry = reduced ? (*reduced)[i] : i;
    if (entry < static_cast<int>(x_.size())) {
      const StateLayout layout = stateLayout(equations_->system(), equations_->dynamics());
      for (std::size_t k = 0; k < layout.index.size(); ++k)
        if (layout.index[k] == entry) name = layout.names[k];
    }
    // The entry largest in magnitude before the step is what overflowed (or fed the
    // overflow): say which, with its value, so that the user knows what to change.
    int largest = 0;
    for (int j = 1; j < static_cast<int>(x_.size()); ++j)
      if (std::abs(x_[j]) > std::abs(x_[largest])) largest = j;
    std::string cause;
    if (!x_.empty() && std::abs(x_[largest]) > 1e300) {
      const StateLayout layout = stateLayout(equations_->system(), equations_->dynamics());
      for (std::size_t k = 0; k < layout.index.size(); ++k)
        if (layout.index[k] == largest)
          cause = "; " + layout.names[k] + " = " + fmt(x_[largest]) +
                  " is too close to the largest double (1.8e308): choose a smaller " +
                  layout.names[k];
    }
    throw IntegrationError("integration of '" + echoInput(equations_->system().name()) +
                               "' blew up at t = " + fmt(t) + " (" + name + " is no longer finite" +
                               cause + ")",
                           t);
  }
}

void Simulation::watchGrowth(double t, const double* x, double tEnd, long stepsThisCall) {
  tEnd = std::max(tEnd, t + growthLookahead_);
  const SystemModel& system = equations_->system();
  const int first = system.n() + system.m(), size = equations_->stateSize();
  if (first >= size) return;
  double mu = 0;
  for (int i = first; i < size; ++i) mu = std::max(mu, std::abs(x[i]));
  if (growthLevel_ == 0) growthLevel_ = 10 * std::max(1.0, mu);
  if (mu >= growthLevel_) {  // a tenfold increase: marked
    while (growthLevel_ <= mu) growthLevel_ *= 10;
    if (growthMarks_ == 2) growth_[0] = growth_[1];
    growthMarks_ = std::min(growthMarks_ + 1, 2);
    growth_[growthMarks_ - 1] = {t, std::log(mu), steps_};
  }
  // Every 256 steps from the second mark on: the last two marks and this step.
  if (growthMarks_ < 2 || (steps_ & 255) != 0) return;
  const GrowthMark &a = growth_[0], &b = growth_[1];
  const GrowthMark c{t, std::log(mu), steps_};
  if (!(b.t > a.t && c.t > b.t && c.logMu - b.logMu > 0.5)) return;
  const double tau1 = (b.t - a.t) / (b.logMu - a.logMu), tau2 = (c.t - b.t) / (c.logMu - b.logMu);
  if (!(tau2 > 0 && tau1 > 0 && tau2 < 2 * tau1 && tau2 > 0.5 * tau1)) return;  // not e^{t/τ}
  const double rate1 = (b.steps - a.steps) / (b.t - a.t), rate2 = (c.steps - b.steps) / (c.t - b.t);
  if (!(rate2 >= rate1 && rate2 > 0)) return;  // the cost of a unit of time does not grow
  // The steps from t to tEnd at no more than today's rate (a lower bound while the rate does
  // not fall), or, when it grows, extrapolated like e^{t/σ} from the last two intervals.
  const double remaining = static_cast<double>(options_.maxSteps - stepsThisCall);
  double predicted = rate2 * (tEnd - t);
  double reachable = t + remaining / rate2;  // where the budget ends, by the same estimate
  if (rate2 > rate1) {
    const double sigma = 0.5 * (c.t - a.t) / std::log(rate2 / rate1);
    const double growing = rate2 * sigma * std::expm1((tEnd - t) / sigma);
    if (growing > predicted) {
      predicted = growing;
      reachable = t + sigma * std::log1p(remaining / (rate2 * sigma));
    }
  }
  if (!(predicted > remaining)) return;
  throw IntegrationError(
      "the multipliers of '" + echoInput(system.name()) + "' grow like e^{t/τ} with τ = " +
          fmt(tau2) + " s (max |mu| = " + fmt(mu) + " at t = " + fmt(t) +
          "), and the steps per second with them: the vakonomic solution is unstable here. "
          "Reaching t = " +
          fmt(tEnd) + " would take at least about " + fmt(predicted) +
          " steps, more than the budget of " + std::to_string(options_.maxSteps) +
          " (it lasts to about t = " + fmt(reachable) +
          "); shorten t-end, raise --max-steps, or use nonholonomic dynamics",
      t);
}

void Simulation::emitSample(double t, std::vector<double>& x, const SampleCallback& onSample) {
  if (options_.projection) equations_->project(workspace_, t, x.data());
  if (onSample) onSample(t, x.data());
}

// A singular function s(τ) of the state along a step is sampled at kSingularSamples + 1
// equally spaced times. It reaches 0 where it changes sign (the zero is bisected) or where
// it has a local minimum not above kSingularDip times the samples around it: a function such
// as vx² + vy² only touches 0 (the velocity passes through 0 between two samples), which the
// minimum (golden-section search on the step's interpolant) finds. A dip that deep within
// one accepted step is a zero at the integrator's resolution. A zero just beyond the step is
// found by a look-ahead (below).
namespace {
// Reconstruction pieces that count as one step against the step budget.
constexpr long kPiecesPerStep = 4;
constexpr int kSingularSamples = 16;
constexpr double kSingularDip = 1e-8;
constexpr int kSingularIterations = 80;
}  // namespace

template <class StateAt>
double Simulation::firstSingularity(double t0, double t1, StateAt&& stateAt) {
  const SystemModel& system = equations_->system();
  const int count = static_cast<int>(system.info().singularities.size());
  const int n = system.n();
  probe_.resize(x_.size());
  singularValues_.resize(count);
  const double* p = equations_->parameters().data();
  auto value = [&](int i, double tau) {
    stateAt(tau, probe_);
    system.singularities(p, tau, probe_.data(), probe_.data() + n, singularValues_.data());
    return singularValues_[i];
  };
  double first = -1;
  for (int i = 0; i < count; ++i) {
    std::array<double, kSingularSamples + 1> tau, v;
    for (int j = 0; j <= kSingularSamples; ++j) {
      tau[j] = j == kSingularSamples ? t1 : t0 + (t1 - t0) * j / kSingularSamples;
      v[j] = value(i, tau[j]);
    }
    double hit = -1;
    for (int j = 0; j <= kSingularSamples && hit < 0; ++j) {
      if (v[j] > 0) continue;  // not NaN and positive
      if (j == 0) {
        hit = t0;
        break;
      }
      double lo = tau[j - 1], hi = tau[j];  // s(lo) > 0 ≥ s(hi) (or NaN)
      for (int it = 0; it < kSingularIterations && hi - lo > 0; ++it) {
        const double mid = 0.5 * (lo + hi);
        (value(i, mid) > 0 ? lo : hi) = mid;
      }
      hit = hi;
    }
    for (int j = 1; j < kSingularSamples && hit < 0; ++j) {
      if (!(v[j] <= v[j - 1] && v[j] <= v[j + 1])) continue;
      // Three equal samples (a motion settled, s constant to rounding): no dip to look for.
      // Searching there cost the bicycle 400 interpolations a step once it had come upright.
      if (v[j] == v[j - 1] && v[j] == v[j + 1]) continue;
      double a = tau[j - 1], b = tau[j + 1];
      const double golden = 0.5 * (std::sqrt(5.0) - 1);
      double c = b - golden * (b - a), d = a + golden * (b - a);
      double vc = value(i, c), vd = value(i, d);
      for (int it = 0; it < kSingularIterations && b - a > 0; ++it) {
        if (vc <= vd) {
          b = d, d = c, vd = vc;
          c = b - golden * (b - a);
          vc = value(i, c);
        } else {
          a = c, c = d, vc = vd;
          d = a + golden * (b - a);
          vd = value(i, d);
        }
      }
      const double least = std::min(vc, vd);
      if (!(least > kSingularDip * std::max(v[j - 1], v[j + 1]))) hit = vc <= vd ? c : d;
    }
    // Look-ahead: the parabola through the step's start, middle and end. An adaptive stepper
    // cannot step across such a point (its trial steps fail ever closer to it), a fixed one
    // steps over it: if the parabola touches 0 within the next step's length, that is where
    // s reaches 0 (to the accuracy of the parabola: exact for s = |v|² with v linear in t).
    if (hit < 0) {
      const double v0 = v[0], vm = v[kSingularSamples / 2], v1 = v[kSingularSamples];
      const double A = 2 * (v1 - 2 * vm + v0), B = v1 - v0 - A;
      if (A > 0) {
        const double u = -B / (2 * A), least = v0 - B * B / (4 * A);
        if (u > 1 && u <= 2 && !(least > kSingularDip * std::max(v0, v1))) hit = t0 + u * (t1 - t0);
      }
    }
    if (hit < 0 && v[kSingularSamples] <= kSingularDip * v[0]) hit = t1;
    if (hit >= 0 && (first < 0 || hit < first)) {
      first = hit;
      singularIndex_ = i;
    }
  }
  return first;
}

void Simulation::throwSingularity(double t) const {
  const SystemModel& system = equations_->system();
  throw SingularSystemError(
      "'" + echoInput(system.name()) + "' reached a singular point at t = " + fmt(t) + ": " +
          system.info().singularities[singularIndex_] + " (the equations are not defined there)",
      t, std::numeric_limits<double>::infinity());
}

// One call of advance(): its output grid, the reduction in use, and the loop that drives
// the stepper (any of steppers.h) from the current time to tEnd.
struct Simulation::Run {
  Run(Simulation& simulation, double end, double interval, const SampleCallback& callback);
  bool execute();  // advance()'s loop; returns whether a sample was delivered at tEnd

 private:
  double sampleTime(long i) const { return sim.origin_ + static_cast<double>(i) * dtOut; }
  bool dueBy(double t) const {  // the next output time is at or before t (and tEnd)
    return sim.nextSample_ <= lastSample && sampleTime(sim.nextSample_) <= t;
  }
  void deliverInitial();
  void usePlan();
  void checkSteps();
  std::pair<double, double> takeStep();
  void startStepper();
  void keepLanded(double t1);
  bool carryReconstructed(double t0, double t1);
  double watchSingularities(double t0, double t1);
  void deliverInterpolated(double t1, double reach);
  void endAt(double t1);
  void keep(double t1);
  void projectAfterStep();
  void deliverLanded();
  void endWithinRounding();
  void deliver(double ts);
  // discrete-gradient steps relative to the reference frame: at a sample where the frame no
  // longer satisfies the constraints the run stops (checkReferenceFrame), the samples before
  // delivered.
  void checkFrame(double t) const {
    if (options.method == Integrator::DiscreteGradient)
      checkReferenceFrame(*sim.equations_, t, sample.data());
  }
  [[noreturn]] void throwStepBudget(double t) const;
  [[noreturn]] void throwStepUnderflow(double t) const;
  // A step the stepper gave up on (StepFailure): an underflow, or its own reason.
  [[noreturn]] void throwStepFailure(double t, const std::string& reason) const;

  Simulation& sim;
  Integration& integration;
  Stepper& stepper;
  const IntegratorOptions& options;
  const double tEnd, dtOut;
  const SampleCallback& onSample;
  std::vector<double>& sample;  // sized once: advance() allocates nothing after its first call
  // With dense output the stepper steps past output times and tEnd and the samples are
  // interpolated; without, every step ends at the next output time when it would pass it.
  const bool dense;
  const bool singular;  // the system has singular points to watch (SystemInfo::singularities)
  // Where a step counts as reaching tEnd (a step ending within a few rounding errors of it):
  // the integration's end, never the sampling's, which compares sample times exactly.
  double endTolerance = 0;
  // A step below 1e-14 of this (or of t) is a stalled integration: 1 s, or the whole span of
  // a run that is shorter.
  double timeScale = 0;
  long lastSample = 0;  // the last output index of this call
  const ReconstructionPlan* plan = nullptr;
  const std::vector<int>* reduced = nullptr;
  int size = 0, zSize = 0;  // of the state, and of what the stepper integrates
  long stepsThisCall = 0;
  // The step check is called where the state is that of the last accepted step (before the
  // next attempt), every kCheckSteps steps or reconstruction work counted as steps.
  long nextCheck = kCheckSteps;
  bool deliveredEnd = false;
};

Simulation::Run::Run(Simulation& simulation, double end, double interval,
                     const SampleCallback& callback)
    : sim(simulation),
      integration(*simulation.integration_),
      stepper(*simulation.integration_->stepper),
      options(simulation.options_),
      tEnd(end),
      dtOut(interval),
      onSample(callback),
      sample(simulation.sample_),
      dense(stepper.hasDenseOutput()),
      singular(!simulation.equations_->system().info().singularities.empty()) {
  constexpr double kEps = std::numeric_limits<double>::epsilon();
  endTolerance = 4 * kEps * std::max(std::abs(sim.origin_), std::abs(tEnd));
  timeScale = std::min(1.0, std::abs(tEnd - sim.origin_));
  // The largest i with origin + i·dtOut ≤ tEnd, computed in the same arithmetic as the sample
  // times (never accumulated).
  lastSample = sim.nextSample_ - 1;
  if (tEnd >= sim.origin_) {
    lastSample = static_cast<long>(std::floor((tEnd - sim.origin_) / dtOut));
    while (sampleTime(lastSample + 1) <= tEnd) ++lastSample;
    while (lastSample >= 0 && sampleTime(lastSample) > tEnd) --lastSample;
  }
  size = static_cast<int>(sim.x_.size());
  sample.resize(sim.x_.size());
}

// Each iteration takes one step; a stepper without dense output (rk4, rk78) has its step's
// end kept at once, and its samples are the states at output times, after the projection.
bool Simulation::Run::execute() {
  if (sim.nextSample_ == 0) deliverInitial();
  try {
    // A sample due at the current time is still to come when a previous call stopped with
    // an error after a step without dense output (its step ends at the output time).
    if (!dense) deliverLanded();
    usePlan();
    while (tEnd - sim.t_ > endTolerance) {
      checkSteps();
      const auto [t0, t1] = takeStep();
      if (!dense) keepLanded(t1);
      if (++stepsThisCall > options.maxSteps) throwStepBudget(t1);
      if (plan && !carryReconstructed(t0, t1)) continue;
      ++sim.steps_;
      sim.checkState(t1, stepper.currentState(), zSize, reduced);  // the stepped state, in place
      if (plan)
        sim.checkState(t1, integration.carried.data(), size);  // and what was carried over the step
      const double approach = singular ? watchSingularities(t0, t1) : 0;
      if (stepper.nextStepUnderflows(t1, timeScale)) throwStepUnderflow(t1);
      if (dense) {
        // How far this step delivers samples: to tEnd when it ends there (within rounding).
        const double reach = t1 >= tEnd - endTolerance ? tEnd : t1;
        deliverInterpolated(t1, reach);
        if (reach == tEnd) {
          endAt(t1);
          break;
        }
        keep(t1);
      }
      sim.watchGrowth(sim.t_, sim.x_.data(), tEnd, stepsThisCall);
      integration.dt = stepper.currentTimeStep();
      projectAfterStep();
      if (!dense) deliverLanded();
      if (approach > 0) {  // the next step stops short of a singular point
        integration.dt = approach;
        integration.initialised = false;
      }
    }
    endWithinRounding();
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {  // a solver that gives up in a way of its own
    throw IntegrationError("integration of '" + echoInput(sim.equations_->system().name()) +
                               "' failed at t = " + fmt(sim.t_) + ": " + e.what(),
                           sim.t_);
  }
  return deliveredEnd;
}

void Simulation::Run::deliverInitial() {
  if (options.projection) sim.equations_->project(sim.workspace_, sim.t_, sim.x_.data());
  sample = sim.x_;
  checkFrame(sim.t_);
  if (onSample) onSample(sim.t_, sample.data());
  sim.nextSample_ = 1;
  deliveredEnd = sim.t_ == tEnd;
}

// The reduction (reconstruction.h) when the stepper's dense output can carry it; the
// stepper restarts when that changes.
void Simulation::Run::usePlan() {
  const ReconstructionPlan* available = sim.equations_->reconstructionPlan();
  const bool momenta = sim.equations_->integratesMomenta();
  plan = options.reconstruction && available && available->available &&
                 stepper.denseOutputCarriesReconstruction() && !momenta
             ? available
             : nullptr;
  if (momenta != integration.momenta) {
    integration.momenta = momenta;
    integration.initialised = false;
  }
  if (momenta) integration.z.assign(size, 0.0);
  if (plan != integration.plan) {
    integration.plan = plan;
    integration.initialised = false;
    if (plan) {
      integration.reconstructor = Reconstructor(plan, sim.equations_->system().n(), size, 1 + size);
      integration.z.assign(plan->reduced.size(), 0.0);
      integration.full.assign(size, 0.0);
      integration.fullDot.assign(size, 0.0);
      integration.carried.assign(size, 0.0);
      // Room for the reconstructed values at 64 output times a step; more grows it once.
      integration.marks.reserve(64 * plan->entries.size());
    }
  }
  reduced = plan ? &plan->reduced : nullptr;
  zSize = plan ? static_cast<int>(reduced->size()) : size;
  stepper.setTimeScale(timeScale);
}

void Simulation::Run::checkSteps() {
  if (!sim.stepCheck_ || stepsThisCall < nextCheck) return;
  nextCheck = stepsThisCall + kCheckSteps;
  sim.stepCheck_(sim.t_);
}

// One accepted step of the stepper from the current state (restarted there when needed),
// ending at the next output time (or tEnd) at the latest when it has no dense output.
std::pair<double, double> Simulation::Run::takeStep() {
  if (!integration.initialised) startStepper();
  stepper.setStopTime(sim.nextSample_ <= lastSample ? sampleTime(sim.nextSample_) : tEnd);
  try {
    return stepper.doStep(integration.rhs);
  } catch (const StepFailure& failure) {
    throwStepFailure(sim.t_, failure.what());
  } catch (const std::runtime_error&) {
    // A stepper with dense output ends a step it cannot take by throwing (odeint after 500
    // rejected trials, SUNDIALS with its flag), and an error the equations throw at one of
    // its trial states ends the step alike: all of them stop the run as an underflow at the
    // step's start. Without dense output the equations' errors pass as they are.
    if (!dense) throw;
    throwStepUnderflow(sim.t_);
  }
}

void Simulation::Run::startStepper() {
  const double* start = sim.x_.data();
  if (integration.momenta) {
    sim.equations_->toMomenta(sim.workspace_, sim.t_, sim.x_.data(), integration.z.data());
    start = integration.z.data();
  } else if (plan) {
    for (int k = 0; k < zSize; ++k) integration.z[k] = sim.x_[(*reduced)[k]];
    integration.full = sim.x_;
    start = integration.z.data();
  }
  // With dense output the first trial step ends at tEnd at the latest; without, the stepper
  // cuts its steps at the stop times itself and keeps its own trial step.
  integration.projectsInside =
      stepper.setProjection(options.projection ? integration.project : StepperProjection()) &&
      options.projection;
  stepper.initialize(start, zSize, sim.t_,
                     dense ? std::min(integration.dt, tEnd - sim.t_) : integration.dt);
  integration.initialised = true;
}

// A stepper without dense output steps the simulation's own state: its step's end is the
// state now (the start is kept for a singular point, which sends the state back there).
void Simulation::Run::keepLanded(double t1) {
  if (singular) sim.previous_ = sim.x_;
  keep(t1);
  integration.dt = stepper.currentTimeStep();
}

// Carries the reconstructed coordinates over the step, stopping at each output time (their
// values there go to integration.marks): all of it, or the step is handed back to be retaken
// shorter (false).
bool Simulation::Run::carryReconstructed(double t0, double t1) {
  const double tStop = t1 > tEnd ? tEnd : t1;  // where this call may end
  const double reach = t1 >= tEnd - endTolerance ? tEnd : t1;
  integration.carried = sim.x_;
  integration.marks.clear();
  double a = t0;
  bool carried = true;
  for (long i = sim.nextSample_; carried && i <= lastSample && sampleTime(i) <= reach; ++i) {
    const double b = std::min(sampleTime(i), t1);
    carried = integration.reconstructor.advance(
        integration.stateAt, a, b, integration.carried.data(), options.atol, options.rtol);
    for (int q : plan->entries) integration.marks.push_back(integration.carried[q]);
    a = b;
  }
  if (carried)
    carried = integration.reconstructor.advance(
        integration.stateAt, a, tStop, integration.carried.data(), options.atol, options.rtol);
  // The pieces a step's reconstruction took count against the step budget (one step per
  // kPiecesPerStep): a motion too fast to reconstruct (a ball spun at 1e16 rad/s) ends with
  // the budget's message instead of subdividing for hours.
  const long pieces = integration.reconstructor.pieces();
  if (pieces < integration.piecesCharged) integration.piecesCharged = 0;  // a new reconstructor
  stepsThisCall += (pieces - integration.piecesCharged) / kPiecesPerStep;
  integration.piecesCharged = pieces - (pieces - integration.piecesCharged) % kPiecesPerStep;
  if (stepsThisCall > options.maxSteps) throwStepBudget(t1);
  if (carried) return true;
  stepper.rejectLast(0.25 * (t1 - t0));
  ++sim.reconstructionRejections_;
  return false;
}

// Whether a singular point lies on the step [t0, t1] (never with a plan: planReconstruction
// refuses singular systems). At one the run stops: the samples before it (with dense output)
// are delivered, the state stays at the step's start, SingularSystemError. Returns the
// length of the next step when a point lies just ahead (with dense output: integrate up to
// just short of it and look again from there), else 0.
double Simulation::Run::watchSingularities(double t0, double t1) {
  const double ts = sim.firstSingularity(
      t0, t1, [&](double tau, State& x) { integration.stateAt(tau, x.data()); });
  // (a point beyond tEnd is no concern of this call: the next one finds it again)
  const bool inRun = ts <= tEnd + endTolerance;
  if (dense && inRun && ts > t1 + 1e-9 * std::max(1.0, std::abs(ts))) return (1 - 1e-6) * (ts - t1);
  if (ts < 0 || !inRun) return 0;
  if (dense) {
    while (dueBy(std::min(ts, t1))) {
      integration.stateAt(sampleTime(sim.nextSample_), sample.data());
      sim.emitSample(sampleTime(sim.nextSample_), sample, onSample);
      ++sim.nextSample_;
    }
  } else {
    sim.x_ = sim.previous_;
    sim.t_ = t0;
  }
  integration.initialised = false;
  sim.throwSingularity(ts);
}

// The samples of a step with dense output, up to `reach`: the reconstructed entries from
// integration.marks, the others from the stepper's dense output.
void Simulation::Run::deliverInterpolated(double t1, double reach) {
  std::size_t mark = 0;
  while (dueBy(reach)) {
    const double ts = sampleTime(sim.nextSample_);
    if (plan) {
      for (int q : plan->entries) sample[q] = integration.marks[mark++];
    }
    integration.stateAt(std::min(ts, t1), sample.data());
    deliver(ts);
    ++sim.nextSample_;
  }
}

// A step with dense output at or past tEnd: the state exactly at tEnd, on the manifold.
void Simulation::Run::endAt(double t1) {
  if (t1 > tEnd) {
    integration.stateAt(tEnd, sim.x_.data());
    if (plan) {
      for (int i : plan->entries) sim.x_[i] = integration.carried[i];
    }
  } else {
    keep(t1);
  }
  sim.t_ = tEnd;
  if (options.projection) sim.equations_->project(sim.workspace_, sim.t_, sim.x_.data());
  integration.dt = stepper.currentTimeStep();
  integration.initialised = false;
}

// The stepper's state (with the reconstructed entries carried over the step) becomes the
// simulation's at t1.
void Simulation::Run::keep(double t1) {
  const double* z = stepper.currentState();
  if (integration.momenta) {
    sim.equations_->fromMomenta(sim.workspace_, t1, z, sim.x_.data());  // x_ holds the guess
  } else if (plan) {
    for (int k = 0; k < zSize; ++k) sim.x_[(*reduced)[k]] = z[k];
    for (int i : plan->entries) sim.x_[i] = integration.carried[i];
  } else {
    std::copy(z, z + size, sim.x_.data());
  }
  sim.t_ = t1;
}

// Drift control: the state is projected and the stepper restarts from it, unless it
// projects inside its steps (BDF, whose history a restart would throw away): its state is on
// the manifold already, and only the simulation's (with the reconstructed entries) is.
void Simulation::Run::projectAfterStep() {
  if (!options.projection) return;
  sim.equations_->project(sim.workspace_, sim.t_, sim.x_.data());
  if (!integration.projectsInside) integration.initialised = false;
}

// The output times up to now, for a stepper without dense output: its step ended at the one
// due, and the sample is the state there (already projected).
void Simulation::Run::deliverLanded() {
  while (dueBy(sim.t_)) {
    const double ts = sampleTime(sim.nextSample_++);
    sample = sim.x_;
    deliver(ts);
  }
}

// A run that stopped within rounding of tEnd is there.
void Simulation::Run::endWithinRounding() {
  if (!(sim.t_ < tEnd && tEnd - sim.t_ <= endTolerance)) return;
  while (dueBy(tEnd)) {
    const double ts = sampleTime(sim.nextSample_++);
    sample = sim.x_;
    deliver(ts);
  }
  sim.t_ = tEnd;
  // A stepper without dense output goes on from the simulation's state, now at tEnd.
  if (!dense) integration.initialised = false;
}

// Hands `sample`, the state at ts, to the callback: projected first with dense output (an
// interpolated state is off the manifold); without, it is a state projected after its step.
void Simulation::Run::deliver(double ts) {
  checkFrame(ts);
  if (dense)
    sim.emitSample(ts, sample, onSample);
  else if (onSample)
    onSample(ts, sample.data());
  deliveredEnd = ts == tEnd;
}

void Simulation::Run::throwStepBudget(double t) const {
  throw IntegrationError(
      "integration of '" + echoInput(sim.equations_->system().name()) + "' needs more than " +
          std::to_string(options.maxSteps) + " steps to reach t = " + fmt(tEnd) +
          "; stopped at t = " + fmt(t) +
          " (the motion is too fast for this time span, or the step too small; raise the "
          "budget with --max-steps or shorten t-end)",
      t);
}

void Simulation::Run::throwStepUnderflow(double t) const {
  throw IntegrationError("integration of '" + echoInput(sim.equations_->system().name()) +
                             "' blew up at t = " + fmt(t) + " (step size underflow)",
                         t);
}

void Simulation::Run::throwStepFailure(double t, const std::string& reason) const {
  if (reason == "step size underflow") throwStepUnderflow(t);
  throw IntegrationError("integration of '" + echoInput(sim.equations_->system().name()) +
                             "' stopped at t = " + fmt(t) + ": " + reason,
                         t);
}

bool Simulation::advance(double tEnd, double dtOut, const SampleCallback& onSample) {
  if (!(dtOut > 0) || !std::isfinite(dtOut))
    throw InputError("output interval must be a finite number > 0, got " + fmt(dtOut));
  if (!std::isfinite(tEnd)) throw InputError("end time must be finite, got " + fmt(tEnd));
  if (dtOut != lastDtOut_) {
    if (lastDtOut_ != 0) {  // a new sampling grid from the current time on
      origin_ = t_;
      nextSample_ = 1;
    }
    lastDtOut_ = dtOut;
  }
  // The output times origin + i·dtOut must be distinct doubles: dtOut at least 4 units in the
  // last place of the largest time (and of i itself: below 2^53).
  constexpr double kEps = std::numeric_limits<double>::epsilon();
  const double largestTime = std::max(std::abs(origin_), std::abs(tEnd));
  if (dtOut < 4 * kEps * largestTime || (tEnd - origin_) / dtOut > 0x1p52)
    throw InputError("output interval " + fmt(dtOut) + " is too small for times up to " +
                     fmt(largestTime) + ": give one of at least " + fmt(4 * kEps * largestTime) +
                     " (4·machine epsilon·t)");
  if (isFixedStep(options_.method) && tEnd > t_ && options_.step < 4 * kEps * largestTime)
    throw InputError(toString(options_.method) + " step " + fmt(options_.step) +
                     " is too small for times up to " + fmt(largestTime) +
                     ": give one of at least " + fmt(4 * kEps * largestTime) +
                     " (4·machine epsilon·t)");
  return Run(*this, tEnd, dtOut, onSample).execute();
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
