#include "core/nh/simulation.h"

#include <algorithm>
#include <array>
#include <boost/numeric/odeint.hpp>
#include <cmath>
#include <cstdio>
#include <limits>
#include <tuple>
#include <variant>

#include "core/nh/errors.h"
#include "core/nh/messages.h"
#include "core/nh/reconstruction.h"
#include "core/nh/scenario.h"
#include "core/nh/steppers.h"

namespace nh {

namespace odeint = boost::numeric::odeint;
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

// The adaptive steppers with dense output (steppers.h) or one of odeint's controlled and
// fixed steppers, and the reduction in use with the former.
struct Simulation::Stepper {
  using Controlled78 = odeint::controlled_runge_kutta<odeint::runge_kutta_fehlberg78<State>>;
  using Fixed = odeint::runge_kutta4<State>;
  std::variant<std::monostate, Controlled78, Fixed> impl;
  std::unique_ptr<DenseStepper> dense;
  double dt = 0;  // current (trial) step
  bool initialised = false;
  // Reduction (reconstruction.h): the plan in use (null: the stepper takes the whole state).
  const ReconstructionPlan* plan = nullptr;
  Reconstructor reconstructor;
  State z, full, fullDot, carried, marks;  // scratch, sized once per plan
  long piecesCharged = 0;                  // reconstruction pieces counted as steps so far
  State beforeProjection;                  // of a stepper with a history
  // The stepper's right-hand side (the reduced rows of the full one when a plan is in use)
  // and the full state at τ within the last step (reconstructed entries left as they are).
  // Made once: they capture only the Simulation, so no call allocates.
  StepperRhs rhs;
  Reconstructor::StateAt stateAt;
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
      stepper_(std::make_unique<Stepper>()) {
  stepper_->rhs = [this](double t, const double* z, double* dz) {
    Stepper& s = *stepper_;
    if (!s.plan) return equations_->rhs(workspace_, t, z, dz);
    const std::vector<int>& reduced = s.plan->reduced;
    const int zSize = static_cast<int>(reduced.size());
    for (int k = 0; k < zSize; ++k) s.full[reduced[k]] = z[k];
    equations_->rhs(workspace_, t, s.full.data(), s.fullDot.data());
    for (int k = 0; k < zSize; ++k) dz[k] = s.fullDot[reduced[k]];
  };
  stepper_->stateAt = [this](double tau, double* x) {
    Stepper& s = *stepper_;
    if (!s.plan) return s.dense->calcState(s.rhs, tau, x);
    s.dense->calcState(s.rhs, tau, s.z.data());
    const std::vector<int>& reduced = s.plan->reduced;
    for (std::size_t k = 0; k < reduced.size(); ++k) x[reduced[k]] = s.z[k];
  };
  setOptions(options);
  x_.assign(equations_->stateSize(), 0.0);
}

Simulation::~Simulation() = default;

void Simulation::setOptions(const IntegratorOptions& options) {
  options.validate();
  options_ = options;
  auto& s = *stepper_;
  s.dense.reset();
  s.impl = std::monostate();
  switch (options_.method) {
    case Integrator::Dopri5:
      s.dense = makeOdeintDopri5(options_.atol, options_.rtol);
      break;
    case Integrator::Dop853:
      s.dense = makeDop853(options_.atol, options_.rtol);
      break;
    case Integrator::Rk78:
      s.impl = odeint::make_controlled(options_.atol, options_.rtol,
                                       odeint::runge_kutta_fehlberg78<State>());
      break;
    case Integrator::Rk4:
      s.impl = Stepper::Fixed();
      break;
    case Integrator::Fehlberg78Arkode:
      s.dense = makeArkodeFehlberg78(options_.atol, options_.rtol);
      break;
    case Integrator::BdfCvode:
      s.dense = makeCvodeBdf(options_.atol, options_.rtol);
      break;
  }
  s.dt = options_.step;
  s.initialised = false;
}

bool Simulation::reconstructs() const {
  const ReconstructionPlan* plan = equations_->reconstructionPlan();
  return stepper_->dense && stepper_->dense->denseOutputCarriesReconstruction() &&
         options_.reconstruction && plan && plan->available;
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
  stepper_->initialised = false;
  stepper_->dt = options_.step;
}

void Simulation::setParameters(const std::vector<double>& values) {
  equations_ = std::make_shared<const EquationsOfMotion>(equations_->withParameters(values));
  stepper_->initialised = false;  // the dense stepper's cached derivative is stale
  // Constraints may depend on parameters (the table's Ω): the velocities jump onto the new
  // constraint manifold, as under an impulsive reaction (least change in kinetic energy).
  equations_->project(workspace_, t_, x_.data());
}

void Simulation::setFormulation(Formulation formulation) {
  equations_ = std::make_shared<const EquationsOfMotion>(equations_->withFormulation(formulation));
  stepper_->initialised = false;
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
  if (options_.method == Integrator::Rk4 && tEnd > t_ && options_.step < 4 * kEps * largestTime)
    throw InputError("rk4 step " + fmt(options_.step) + " is too small for times up to " +
                     fmt(largestTime) + ": give one of at least " + fmt(4 * kEps * largestTime) +
                     " (4·machine epsilon·t)");
  auto system = [this](const State& x, State& dxdt, double t) {
    dxdt.resize(x.size());
    equations_->rhs(workspace_, t, x.data(), dxdt.data());
  };
  // Where a step counts as reaching tEnd (a step ending within a few rounding errors of it):
  // the integration's end, never the sampling's, which compares sample times exactly.
  const double endTolerance = 4 * kEps * largestTime;
  auto sampleTime = [&](long i) { return origin_ + static_cast<double>(i) * dtOut; };
  // The last output index of this call: the largest i with origin + i·dtOut ≤ tEnd, computed
  // in the same arithmetic as the sample times (never accumulated).
  long lastSample = nextSample_ - 1;
  if (tEnd >= origin_) {
    lastSample = static_cast<long>(std::floor((tEnd - origin_) / dtOut));
    while (sampleTime(lastSample + 1) <= tEnd) ++lastSample;
    while (lastSample >= 0 && sampleTime(lastSample) > tEnd) --lastSample;
  }
  bool deliveredEnd = false;
  // A step below 1e-14 of this (or of t) is a stalled integration: 1 s, or the whole span of
  // a run that is shorter.
  const double timeScale = std::min(1.0, std::abs(tEnd - origin_));
  auto dueBy = [&](double t) {  // the next output time is at or before t (and tEnd)
    return nextSample_ <= lastSample && sampleTime(nextSample_) <= t;
  };
  State& sample = sample_;  // sized once: advance() allocates nothing after its first call
  sample.resize(x_.size());

  if (nextSample_ == 0) {  // the initial state
    if (options_.projection) equations_->project(workspace_, t_, x_.data());
    sample = x_;
    if (onSample) onSample(t_, sample.data());
    nextSample_ = 1;
    deliveredEnd = t_ == tEnd;
  }

  Stepper& s = *stepper_;
  long stepsThisCall = 0;
  // The step check is called where the state is that of the last accepted step (before the
  // next attempt), every kCheckSteps steps or reconstruction work counted as steps.
  long nextCheck = kCheckSteps;
  auto checkSteps = [this](long steps, long& next) {
    if (!stepCheck_ || steps < next) return;
    next = steps + kCheckSteps;
    stepCheck_(t_);
  };
  const bool singular = !equations_->system().info().singularities.empty();
  auto throwStepBudget = [&](double t) {
    throw IntegrationError(
        "integration of '" + echoInput(equations_->system().name()) + "' needs more than " +
            std::to_string(options_.maxSteps) + " steps to reach t = " + fmt(tEnd) +
            "; stopped at t = " + fmt(t) +
            " (the motion is too fast for this time span, or the step too small; raise the "
            "budget with --max-steps or shorten t-end)",
        t);
  };
  try {
    if (s.dense) {
      const ReconstructionPlan* available = equations_->reconstructionPlan();
      const ReconstructionPlan* plan = options_.reconstruction && available &&
                                               available->available &&
                                               s.dense->denseOutputCarriesReconstruction()
                                           ? available
                                           : nullptr;
      const int size = static_cast<int>(x_.size());
      if (plan != s.plan) {
        s.plan = plan;
        s.initialised = false;
        if (plan) {
          s.reconstructor = Reconstructor(plan, equations_->system().n(), size, 1 + size);
          s.z.assign(plan->reduced.size(), 0.0);
          s.full.assign(size, 0.0);
          s.fullDot.assign(size, 0.0);
          s.carried.assign(size, 0.0);
          // Room for the reconstructed values at 64 output times a step; more grows it once.
          s.marks.reserve(64 * plan->entries.size());
        }
      }
      const std::vector<int>* reduced = plan ? &plan->reduced : nullptr;
      const int zSize = plan ? static_cast<int>(reduced->size()) : size;
      DenseStepper& dense = *s.dense;
      dense.setTimeScale(timeScale);
      const StepperRhs& f = s.rhs;
      const Reconstructor::StateAt& stateAt = s.stateAt;
      const auto currentState = [&](double* x) {
        const double* z = dense.currentState();
        if (!plan) return static_cast<void>(std::copy(z, z + size, x));
        for (int k = 0; k < zSize; ++k) x[(*reduced)[k]] = z[k];
      };
      auto copyReconstructed = [&](const double* from, double* to) {
        for (int i : plan->entries) to[i] = from[i];
      };
      while (tEnd - t_ > endTolerance) {
        checkSteps(stepsThisCall, nextCheck);
        if (!s.initialised) {
          const double* start = x_.data();
          if (plan) {
            for (int k = 0; k < zSize; ++k) s.z[k] = x_[(*reduced)[k]];
            s.full = x_;
            start = s.z.data();
          }
          dense.initialize(start, zSize, t_, std::min(s.dt, tEnd - t_));
          s.initialised = true;
        }
        double t0, t1;
        try {
          std::tie(t0, t1) = dense.doStep(f);
        } catch (const std::runtime_error&) {
          throw IntegrationError("integration of '" + echoInput(equations_->system().name()) +
                                     "' blew up at t = " + fmt(t_) + " (step size underflow)",
                                 t_);
        }
        double approach = 0;
        if (++stepsThisCall > options_.maxSteps) throwStepBudget(t1);
        const double tStop = t1 > tEnd ? tEnd : t1;  // where this call may end
        // How far this step delivers samples: to tEnd when it ends there (within rounding).
        const double reach = t1 >= tEnd - endTolerance ? tEnd : t1;
        if (plan) {
          // Carry the reconstructed coordinates over the step, stopping at each output time
          // (their values there go to s.marks): all of it, or the step is retaken shorter.
          s.carried = x_;
          s.marks.clear();
          double a = t0;
          bool carried = true;
          for (long i = nextSample_; carried && i <= lastSample && sampleTime(i) <= reach; ++i) {
            const double b = std::min(sampleTime(i), t1);
            carried = s.reconstructor.advance(stateAt, a, b, s.carried.data(), options_.atol,
                                              options_.rtol);
            for (int q : plan->entries) s.marks.push_back(s.carried[q]);
            a = b;
          }
          if (carried)
            carried = s.reconstructor.advance(stateAt, a, tStop, s.carried.data(), options_.atol,
                                              options_.rtol);
          // The pieces a step's reconstruction took count against the step budget (one
          // step per kPiecesPerStep): a motion too fast to reconstruct (a ball spun at 1e16
          // rad/s) ends with the budget's message instead of subdividing for hours.
          const long pieces = s.reconstructor.pieces();
          if (pieces < s.piecesCharged) s.piecesCharged = 0;  // a new reconstructor
          stepsThisCall += (pieces - s.piecesCharged) / kPiecesPerStep;
          s.piecesCharged = pieces - (pieces - s.piecesCharged) % kPiecesPerStep;
          if (stepsThisCall > options_.maxSteps) throwStepBudget(t1);
          if (!carried) {
            dense.rejectLast(0.25 * (t1 - t0));
            ++reconstructionRejections_;
            continue;
          }
        }
        ++steps_;
        checkState(t1, dense.currentState(), zSize, reduced);  // the stepped state, in place
        if (plan) checkState(t1, s.carried.data(), size);      // and what was carried over the step
        if (singular) {  // (never with a plan: planReconstruction refuses singular systems)
          const double ts =
              firstSingularity(t0, t1, [&](double tau, State& x) { stateAt(tau, x.data()); });
          // (a point beyond tEnd is no concern of this call: the next one finds it again)
          if (ts > t1 + 1e-9 * std::max(1.0, std::abs(ts)) && ts <= tEnd + endTolerance) {
            // Ahead, within the next step: integrate up to just short of it (the samples on
            // the way are delivered) and look again from there.
            approach = (1 - 1e-6) * (ts - t1);
          } else if (ts >= 0 && ts <= tEnd + endTolerance) {  // the samples before it, then stop
            while (dueBy(std::min(ts, t1))) {
              stateAt(sampleTime(nextSample_), sample.data());
              emitSample(sampleTime(nextSample_), sample, onSample);
              ++nextSample_;
            }
            s.initialised = false;
            throwSingularity(ts);
          }
        }
        if (dense.currentTimeStep() < 1e-14 * std::max(std::abs(t1), timeScale))
          throw IntegrationError("integration of '" + echoInput(equations_->system().name()) +
                                     "' blew up at t = " + fmt(t1) + " (step size underflow)",
                                 t1);
        std::size_t mark = 0;
        while (dueBy(reach)) {
          const double ts = sampleTime(nextSample_);
          if (plan) {
            for (int q : plan->entries) sample[q] = s.marks[mark++];
          }
          stateAt(std::min(ts, t1), sample.data());
          emitSample(ts, sample, onSample);
          deliveredEnd = ts == tEnd;
          ++nextSample_;
        }
        if (reach == tEnd) {  // at or past tEnd: the state exactly at tEnd, on the manifold
          if (t1 > tEnd)
            stateAt(tEnd, x_.data());
          else
            currentState(x_.data());
          if (plan) copyReconstructed(s.carried.data(), x_.data());
          t_ = tEnd;
          if (options_.projection) equations_->project(workspace_, t_, x_.data());
          s.dt = dense.currentTimeStep();
          s.initialised = false;
          break;
        }
        currentState(x_.data());
        if (plan) copyReconstructed(s.carried.data(), x_.data());
        t_ = t1;
        watchGrowth(t_, x_.data(), tEnd, stepsThisCall);
        s.dt = dense.currentTimeStep();
        if (options_.projection) {
          // Restart from the projected state. A stepper with a history (BDF) would restart at
          // order 1: it goes on from its own state while the projection moves the state by
          // less than its tolerance (the samples and x_ are projected all the same).
          if (dense.keepsHistory()) s.beforeProjection = x_;
          equations_->project(workspace_, t_, x_.data());
          bool restart = true;
          if (dense.keepsHistory()) {
            double moved = 0;
            for (int i = 0; i < size; ++i)
              moved = std::max(moved, std::abs(x_[i] - s.beforeProjection[i]) /
                                          (options_.atol + options_.rtol * std::abs(x_[i])));
            restart = moved > 1;
          }
          if (restart) s.initialised = false;
        }
        if (approach > 0) {  // the next step stops short of a singular point
          s.dt = approach;
          s.initialised = false;
        }
      }
      if (t_ < tEnd && tEnd - t_ <= endTolerance) {  // within rounding of tEnd: there
        while (dueBy(tEnd)) {
          const double ts = sampleTime(nextSample_++);
          sample = x_;
          emitSample(ts, sample, onSample);
          deliveredEnd = ts == tEnd;
        }
        t_ = tEnd;
      }
    } else {
      // Fixed and controlled steppers land exactly on every output time (a step that is
      // clamped to it ends there, not at a rounded sum).
      while (true) {
        if (dueBy(t_)) {
          const double ts = sampleTime(nextSample_++);
          sample = x_;
          if (onSample) onSample(ts, sample.data());
          deliveredEnd = ts == tEnd;
          continue;
        }
        if (tEnd - t_ <= endTolerance) break;
        checkSteps(stepsThisCall, nextCheck);
        const double target = nextSample_ <= lastSample ? sampleTime(nextSample_) : tEnd;
        double dt = std::min(s.dt, target - t_);
        const double tStart = t_;
        const bool lands = dt == target - t_;
        if (singular) previous_ = x_;
        const bool clamped = dt < s.dt;
        if (auto* fixed = std::get_if<Stepper::Fixed>(&s.impl)) {
          fixed->do_step(system, x_, t_, dt);
          t_ = lands ? target : t_ + dt;
        } else {
          auto& controlled = std::get<Stepper::Controlled78>(s.impl);
          int failures = 0;
          while (controlled.try_step(system, x_, t_, dt) == odeint::fail) {
            if (++failures > 500 || dt < 1e-14 * std::max(std::abs(t_), timeScale))
              throw IntegrationError("integration of '" + echoInput(equations_->system().name()) +
                                         "' blew up at t = " + fmt(t_) + " (step size underflow)",
                                     t_);
          }
          // try_step left its proposal for the next step in dt; a step shortened to hit an
          // output time says nothing about the step size the solution allows.
          if (!clamped || failures > 0) s.dt = dt;
          if (lands && failures == 0) t_ = target;
        }
        if (++stepsThisCall > options_.maxSteps) throwStepBudget(t_);
        ++steps_;
        checkState(t_, x_.data(), static_cast<int>(x_.size()));
        watchGrowth(t_, x_.data(), tEnd, stepsThisCall);
        if (singular) {  // these steppers have no dense output: the chord between the ends
          const double ts = firstSingularity(tStart, t_, [&](double tau, State& x) {
            const double w = t_ > tStart ? (tau - tStart) / (t_ - tStart) : 1.0;
            for (std::size_t i = 0; i < x.size(); ++i) x[i] = (1 - w) * previous_[i] + w * x_[i];
          });
          if (ts >= 0 && ts <= tEnd + endTolerance) {
            x_ = previous_;
            t_ = tStart;
            throwSingularity(ts);
          }
        }
        if (options_.projection) equations_->project(workspace_, t_, x_.data());
      }
      if (t_ < tEnd && tEnd - t_ <= endTolerance) {  // within rounding of tEnd: there
        while (dueBy(tEnd)) {
          const double ts = sampleTime(nextSample_++);
          sample = x_;
          if (onSample) onSample(ts, sample.data());
          deliveredEnd = ts == tEnd;
        }
        t_ = tEnd;
      }
    }
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {  // odeint gives up after too many rejected steps
    throw IntegrationError("integration of '" + echoInput(equations_->system().name()) +
                               "' failed at t = " + fmt(t_) + ": " + e.what(),
                           t_);
  }
  return deliveredEnd;
}

}  // namespace nh
