// Simulation (simulation.h): its state and equations, the stepper its integrator's row makes,
// and the loop of advance() that drives the stepper to the end time, delivers the samples and
// carries the reconstructed coordinates.
#include "core/nh/simulation.h"

#include <algorithm>
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

namespace {
// Reconstruction pieces that count as one step against the step budget.
constexpr std::int64_t kPiecesPerStep = 4;
}  // namespace

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
  std::int64_t piecesCharged = 0;          // reconstruction pieces counted as steps so far
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
  // A step with dense output that passed the end of the last advance() call: the call ended
  // inside it (the state at its end interpolated) and the next call goes on inside it, the
  // stepper not restarted, as one longer call would have: the samples of a run are the same
  // however it is cut into calls (nhlab's worker advances in short pieces). Valid while
  // `initialised` (every change of state, equations or options clears that).
  bool pending = false;
  double pendingStart = 0, pendingEnd = 0;  // the step [t0, t1]
  double pendingFrom = 0;                   // where the last call ended (its tEnd)
  State pendingGuess;  // the state at t0: the guess of fromMomenta at t1 (Formulation::Hamiltonian)

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
      endWorkspace_(*equations_),
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
  s.stepper = integratorRow(options_.method).make(*equations_, options_);
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
  growth_.reset();
  reconstructionRejections_ = 0;
  integration_->initialised = false;
  integration_->dt = options_.step;
}

void Simulation::setParameters(const std::vector<double>& values) {
  useEquations(std::make_shared<const EquationsOfMotion>(equations_->withParameters(values)));
  // Constraints may depend on parameters (the table's Ω): the velocities jump onto the new
  // constraint manifold, as under an impulsive reaction (least change in kinetic energy).
  equations_->project(workspace_, t_, x_.data());
}

void Simulation::setEquations(std::shared_ptr<const EquationsOfMotion> equations) {
  if (equations->stateSize() != equations_->stateSize() ||
      &equations->system() != &equations_->system())
    throw std::logic_error("Simulation::setEquations: equations of another system");
  useEquations(std::move(equations));
}

void Simulation::setFormulation(Formulation formulation) {
  useEquations(std::make_shared<const EquationsOfMotion>(equations_->withFormulation(formulation)));
}

// The equations before are let go after the stepper is bound to the new ones (it never holds
// a pointer to equations that are gone). The stepper's cached derivative is stale.
void Simulation::useEquations(std::shared_ptr<const EquationsOfMotion> equations) {
  integration_->carryPlanTo(equations->reconstructionPlan());
  equations_.swap(equations);
  integration_->stepper->bind(*equations_);
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
          cause = "; " + layout.names[k] + " = " + shortNumber(x_[largest]) +
                  " is too close to the largest double (1.8e308): choose a smaller " +
                  layout.names[k];
    }
    throw IntegrationError("integration of '" + echoInput(equations_->system().name()) +
                               "' blew up at t = " + shortNumber(t) + " (" + name +
                               " is no longer finite" + cause + ")",
                           t);
  }
}

void Simulation::emitSample(double t, std::vector<double>& x, const SampleCallback& onSample) {
  if (options_.projection) equations_->project(workspace_, t, x.data());
  if (onSample) onSample(t, x.data());
}

// One call of advance(): its output grid, the reduction in use, and the loop that drives
// the stepper (any of steppers.h) from the current time to tEnd.
struct Simulation::Run {
  Run(Simulation& simulation, double end, double interval, const SampleCallback& callback);
  bool execute();  // advance()'s loop; returns whether a sample was delivered at tEnd

 private:
  double sampleTime(std::int64_t i) const { return sim.origin_ + static_cast<double>(i) * dtOut; }
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
  void endAt(double t0, double t1);
  bool resumeStep();
  bool carryPieces(double from, double t1);
  void afterKeep(double approach);
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
  std::int64_t lastSample = 0;  // the last output index of this call
  const ReconstructionPlan* plan = nullptr;
  const std::vector<int>* reduced = nullptr;
  int size = 0, zSize = 0;  // of the state, and of what the stepper integrates
  std::int64_t stepsThisCall = 0;
  // The step check is called where the state is that of the last accepted step (before the
  // next attempt), every kCheckSteps steps or reconstruction work counted as steps.
  std::int64_t nextCheck = kCheckSteps;
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
    lastSample = static_cast<std::int64_t>(std::floor((tEnd - sim.origin_) / dtOut));
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
    const bool resume = integration.pending && integration.initialised && dense;
    integration.pending = false;
    if (resume && resumeStep()) return deliveredEnd;
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
          endAt(t0, t1);
          break;
        }
        keep(t1);
      }
      afterKeep(approach);
    }
    endWithinRounding();
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {  // a solver that gives up in a way of its own
    throw IntegrationError("integration of '" + echoInput(sim.equations_->system().name()) +
                               "' failed at t = " + shortNumber(sim.t_) + ": " + e.what(),
                           sim.t_);
  }
  return deliveredEnd;
}

// What follows a step whose end is now the simulation's state: the growth watch, the next
// trial step, drift control, the landed samples, and a stop short of a singular point ahead.
void Simulation::Run::afterKeep(double approach) {
  sim.growth_.check(*sim.equations_, sim.t_, sim.x_.data(), tEnd, sim.steps_, stepsThisCall,
                    options.maxSteps);
  integration.dt = stepper.currentTimeStep();
  projectAfterStep();
  if (!dense) deliverLanded();
  if (approach > 0) {  // the next step stops short of a singular point
    integration.dt = approach;
    integration.initialised = false;
  }
}

// Goes on inside the step the last call ended in (Integration::pending), as the loop would
// have gone on had that call reached further. Returns whether this call ends in it too. When
// the reconstruction cannot be carried on over the rest of the step, the stepper restarts
// from the state where the last call ended instead.
bool Simulation::Run::resumeStep() {
  const double t0 = integration.pendingStart, t1 = integration.pendingEnd;
  if (plan && !carryPieces(integration.pendingFrom, t1)) {
    integration.initialised = false;
    return false;
  }
  if (integration.momenta)
    sim.x_ = integration.pendingGuess;  // the state at t0, as the loop has it
  const double approach = singular ? watchSingularities(t0, t1) : 0;
  const double reach = t1 >= tEnd - endTolerance ? tEnd : t1;
  deliverInterpolated(t1, reach);
  if (reach == tEnd) {
    endAt(t0, t1);
    return true;
  }
  keep(t1);
  afterKeep(approach);
  return false;
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
  // Without dense output the stepper cuts its steps at the stop times itself and keeps its
  // own trial step.
  integration.projectsInside =
      stepper.setProjection(options.projection ? integration.project : StepperProjection()) &&
      options.projection;
  // The first trial step is not cut at tEnd: with dense output a step past it is
  // interpolated, and the steps of a run do not depend on where its calls end. A dense output
  // of lower order than the steps (arkode78's) would spoil the state at tEnd: its first trial
  // step ends there at the latest, so its runs depend on where their calls end.
  const bool coarse = dense && !stepper.denseOutputCarriesReconstruction();
  stepper.initialize(start, zSize, sim.t_,
                     coarse ? std::min(integration.dt, tEnd - sim.t_) : integration.dt);
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
  integration.carried = sim.x_;
  if (carryPieces(t0, t1)) return true;
  stepper.rejectLast(0.25 * (t1 - t0));
  ++sim.reconstructionRejections_;
  return false;
}

// Carries integration.carried from `from` over the step ending at t1, stopping at each output
// time of this call: whether all of it could be.
bool Simulation::Run::carryPieces(double from, double t1) {
  const double tStop = t1 > tEnd ? tEnd : t1;  // where this call may end
  const double reach = t1 >= tEnd - endTolerance ? tEnd : t1;
  integration.marks.clear();
  double a = from;
  bool carried = true;
  for (std::int64_t i = sim.nextSample_; carried && i <= lastSample && sampleTime(i) <= reach;
       ++i) {
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
  const std::int64_t pieces = integration.reconstructor.pieces();
  if (pieces < integration.piecesCharged) integration.piecesCharged = 0;  // a new reconstructor
  stepsThisCall += (pieces - integration.piecesCharged) / kPiecesPerStep;
  integration.piecesCharged = pieces - (pieces - integration.piecesCharged) % kPiecesPerStep;
  if (stepsThisCall > options.maxSteps) throwStepBudget(t1);
  return carried;
}

// Whether a singular point lies on the step [t0, t1] (never with a plan: planReconstruction
// refuses singular systems). At one the run stops: the samples before it (with dense output)
// are delivered, the state stays at the step's start, SingularSystemError. Returns the
// length of the next step when a point lies just ahead (with dense output: integrate up to
// just short of it and look again from there), else 0.
double Simulation::Run::watchSingularities(double t0, double t1) {
  const double ts = sim.singularities_.first(*sim.equations_, t0, t1, integration.stateAt);
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
  sim.singularities_.throwAt(sim.equations_->system(), ts);
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

// A step with dense output at or past tEnd: the state exactly at tEnd, on the manifold. A
// step past it stays the stepper's (Integration::pending): the next call goes on inside it.
void Simulation::Run::endAt(double t0, double t1) {
  if (t1 > tEnd) {
    if (integration.momenta) integration.pendingGuess = sim.x_;
    if (deliveredEnd) {
      sim.x_ = sample;  // the sample at tEnd, on the manifold already
    } else {
      // Worked out in a scratch of its own, so that the warm starts kept in the workspace
      // (the Legendre inverse's last velocities) stay those of the step.
      if (integration.momenta) {
        stepper.calcState(integration.rhs, tEnd, integration.z.data());
        sim.equations_->fromMomenta(sim.endWorkspace_, tEnd, integration.z.data(), sim.x_.data());
      } else {
        integration.stateAt(tEnd, sim.x_.data());
      }
      if (plan) {
        for (int i : plan->entries) sim.x_[i] = integration.carried[i];
      }
      if (options.projection) sim.equations_->project(sim.endWorkspace_, tEnd, sim.x_.data());
    }
    integration.pending = true;
    integration.pendingStart = t0;
    integration.pendingEnd = t1;
    integration.pendingFrom = tEnd;
    sim.t_ = tEnd;
    return;
  }
  keep(t1);
  integration.dt = stepper.currentTimeStep();
  integration.initialised = false;
  sim.t_ = tEnd;
  if (options.projection) sim.equations_->project(sim.workspace_, sim.t_, sim.x_.data());
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
          std::to_string(options.maxSteps) + " steps to reach t = " + shortNumber(tEnd) +
          "; stopped at t = " + shortNumber(t) +
          " (the motion is too fast for this time span, or the step too small; raise the "
          "budget with --max-steps or shorten t-end)",
      t);
}

void Simulation::Run::throwStepUnderflow(double t) const {
  throw IntegrationError("integration of '" + echoInput(sim.equations_->system().name()) +
                             "' blew up at t = " + shortNumber(t) + " (step size underflow)",
                         t);
}

void Simulation::Run::throwStepFailure(double t, const std::string& reason) const {
  if (reason == "step size underflow") throwStepUnderflow(t);
  throw IntegrationError("integration of '" + echoInput(sim.equations_->system().name()) +
                             "' stopped at t = " + shortNumber(t) + ": " + reason,
                         t);
}

bool Simulation::advance(double tEnd, double dtOut, const SampleCallback& onSample) {
  if (!(dtOut > 0) || !std::isfinite(dtOut))
    throw InputError("output interval must be a finite number > 0, got " + shortNumber(dtOut));
  if (!std::isfinite(tEnd)) throw InputError("end time must be finite, got " + shortNumber(tEnd));
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
    throw InputError("output interval " + shortNumber(dtOut) + " is too small for times up to " +
                     shortNumber(largestTime) + ": give one of at least " +
                     shortNumber(4 * kEps * largestTime) + " (4·machine epsilon·t)");
  if (isFixedStep(options_.method) && tEnd > t_ && options_.step < 4 * kEps * largestTime)
    throw InputError(toString(options_.method) + " step " + shortNumber(options_.step) +
                     " is too small for times up to " + shortNumber(largestTime) +
                     ": give one of at least " + shortNumber(4 * kEps * largestTime) +
                     " (4·machine epsilon·t)");
  return Run(*this, tEnd, dtOut, onSample).execute();
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
