// SimulationController (simulation_controller.h): loading a scenario or a system, the edits
// (parameters along the timeline, initial state, formulation, integrator, step, comparison)
// sent to the worker as restarts, the timelines swapped for undo, and the display clock (play,
// pause, step, seek, speed) with the records drained from the worker on each tick.
#include "ui/sim/simulation_controller.h"

#include <QStringList>
#include <QThread>
#include <algorithm>
#include <cmath>

#include "core/model/catalogue.h"
#include "core/model/formula_system.h"
#include "core/model/model_data.h"
#include "core/model/model_file.h"
#include "core/nh/errors.h"
#include "ui/sim/run_style.h"

namespace nhui {

SimulationController::SimulationController(QObject* parent)
    : QObject(parent), worker_(std::make_unique<SimulationWorker>()) {
  wall_.start();
  loadScenario(nh::Scenario{});
  timer_.setTimerType(Qt::PreciseTimer);
  timer_.setInterval(16);
  connect(&timer_, &QTimer::timeout, this, &SimulationController::tick);
  timer_.start();
}

SimulationController::~SimulationController() = default;

// ---- Scenario ---------------------------------------------------------------------------

void SimulationController::loadScenario(const nh::Scenario& s) {
  s.validate();
  install(nh::findSystem(s.system), s, false);
}

void SimulationController::switchSystem(std::shared_ptr<const nh::SystemModel> system,
                                        const nh::Scenario& s) {
  s.validate();
  install(std::move(system), s, true);
}

void SimulationController::install(std::shared_ptr<const nh::SystemModel> system,
                                   const nh::Scenario& s, bool checkStart) {
  if (system->info().isControlModel()) {
    installControlModel(std::move(system), s);
    return;
  }
  const std::vector<double> parameters = nh::resolveParameters(*system, s.parameters);
  const nh::EquationsOfMotion equations(system, s.dynamics, s.formulation, parameters);
  std::vector<std::string> notes;
  const std::vector<double> x0 = nh::initialState(equations, 0.0, s.initial, &notes);
  if (checkStart) {
    // What the worker evaluates first; it would otherwise fail there, after the switch.
    nh::EquationsWorkspace workspace(equations);
    std::vector<double> dxdt(x0.size());
    equations.rhs(workspace, 0.0, x0.data(), dxdt.data());
  }

  system_ = std::move(system);
  scenario_ = s;
  // A system from a model file keeps its path: the catalogue does not know it by its name,
  // and saving writes the path back (relative to the scenario file).
  if (!nh::model::isModelFilePath(s.system)) scenario_.system = system_->name();
  parameters_ = parameters;
  initialOverrides_ = s.initial;
  x0_ = x0;
  reportNewNotes(notes);
  initialNotes_ = notes;
  // What the loader kept but wants said (a structure its anchor contradicts, kept under
  // structure_checked: false).
  if (const nh::model::FormulaSystem* formula = nh::model::asFormula(*system_))
    for (const std::string& warning : formula->data().loadWarnings)
      emit warningOccurred(QString::fromStdString(warning));
  dtOut_ = s.dtOut;
  if (compareMode_ == CompareMode::Ghost && system_->parameterIndex(ghostParameter_) < 0)
    compareMode_ = CompareMode::None;
  lastError_.clear();
  rebuildRuns();
  restartFromInitial();
  emit scenarioChanged();
  emit parametersChanged();
  emit initialChanged();
}

void SimulationController::installControlModel(std::shared_ptr<const nh::SystemModel> system,
                                               const nh::Scenario& s) {
  const std::vector<double> parameters = nh::resolveParameters(*system, s.parameters);
  const auto& info = system->info();
  std::vector<double> x0 = info.defaultCoordinates;
  for (const auto& [name, value] : s.initial) {
    const auto it = std::find(info.coordinates.begin(), info.coordinates.end(), name);
    if (it == info.coordinates.end())
      throw nh::InputError("'" + name + "' is not a coordinate of the control model '" +
                           system->name() + "' (its velocities follow from a plan)");
    x0[it - info.coordinates.begin()] = value;
  }
  x0.resize(system->n() + system->m(), 0.0);
  pause();
  worker_->halt();
  ++epoch_;
  system_ = std::move(system);
  scenario_ = s;
  // A system from a model file keeps its path: the catalogue does not know it by its name,
  // and saving writes the path back (relative to the scenario file).
  if (!nh::model::isModelFilePath(s.system)) scenario_.system = system_->name();
  parameters_ = parameters;
  initialOverrides_ = s.initial;
  x0_ = x0;
  initialNotes_.clear();
  dtOut_ = s.dtOut;
  compareMode_ = CompareMode::None;
  lastError_.clear();
  runs_.clear();
  runs_.push_back(makeStartRun(system_, parameters_, x0_));
  runFailed_.assign(1, false);
  fixed_ = true;
  plan_.reset();
  clock_ = displayTime_ = 0;
  scrubbed_ = false;
  emit historyReset();
  emit scenarioChanged();
  emit parametersChanged();
  emit initialChanged();
}

void SimulationController::refuseForControlModel(const char* what) const {
  if (isControlModel())
    throw nh::InputError("'" + system_->name() + "' is a control model: it moves only along a " +
                         "plan (Simulation > Plan a motion…), so " + what + " does not apply");
}

void SimulationController::leavePlan() {
  if (isControlModel()) {
    runs_.clear();
    runs_.push_back(makeStartRun(system_, parameters_, x0_));
    runFailed_.assign(1, false);
    plan_.reset();
    clock_ = displayTime_ = 0;
    scrubbed_ = false;
    emit historyReset();
    emit planChanged();
    return;
  }
  const bool compared = compareMode_ != CompareMode::None;
  compareMode_ = CompareMode::None;
  rebuildRuns();
  restartFromInitial();
  if (compared) emit comparisonChanged();
  emit planChanged();
}

std::shared_ptr<SimulationController::Timeline> SimulationController::planTimeline(
    std::vector<std::unique_ptr<RunHistory>> runs, const PlanSettings& plan) const {
  auto timeline = std::make_shared<Timeline>();
  timeline->settings = settings();
  timeline->settings.compare = runs.size() > 1 ? CompareMode::Vakonomic : CompareMode::None;
  timeline->settings.ghostParameter.clear();
  timeline->runFailed.assign(runs.size(), false);
  timeline->runs = std::move(runs);
  timeline->parameters = parameters_;
  timeline->fixed = true;
  timeline->plan = std::make_shared<const PlanSettings>(plan);
  return timeline;
}

nh::Scenario SimulationController::scenario() const {
  nh::Scenario s = scenario_;
  if (!nh::model::isModelFilePath(s.system)) s.system = system_->name();  // (see install)
  s.parameters.clear();
  const auto& infos = system_->info().parameters;
  for (size_t i = 0; i < infos.size(); ++i) s.parameters[infos[i].name] = parameters_[i];
  s.initial = initialOverrides_;
  return s;
}

double SimulationController::parameter(const std::string& name) const {
  const int i = system_->parameterIndex(name);
  if (i < 0) throw nh::InputError("unknown parameter '" + name + "'");
  return parameters_[i];
}

std::shared_ptr<SimulationController::Timeline> SimulationController::setParameter(
    const std::string& name, double value) {
  const int i = system_->parameterIndex(name);
  if (i < 0)
    throw nh::InputError("unknown parameter '" + name + "' for system '" + system_->name() + "'");
  const nh::ParameterInfo& info = system_->info().parameters[i];
  if (!info.allows(value))
    throw nh::InputError("'" + name + "' must be in " + info.rangeText() + ", got " +
                         nh::formatValue(value));
  if (parameters_[i] == value && !changesLater(i, value)) return nullptr;
  std::vector<double> candidate = parameters_;
  candidate[i] = value;
  if (fixed_) return setPlanParameter(name, candidate);
  if (!primary().empty()) keepContinuous(candidate, displayIndex(), i);
  if (const std::string why = system_->checkParameters(candidate.data()); !why.empty())
    throw nh::InputError("'" + name + "' = " + nh::formatValue(value) + " is not allowed: " + why);
  // Values that make the system non-regular where the run goes on (m = 1e15 against the
  // sleigh's small moment of inertia, say) are refused like values out of range, instead of
  // failing the run a moment later.
  // One taping for the check and the initial state below.
  const nh::EquationsOfMotion equations(system_, scenario_.dynamics, scenario_.formulation,
                                        candidate);
  if (!primary().empty()) {
    try {
      nh::EquationsWorkspace ws(equations);
      const std::vector<double> x = primary().state(displayIndex());
      std::vector<double> rate(x.size());
      equations.rhs(ws, primary().time(displayIndex()), x.data(), rate.data());
    } catch (const nh::SingularSystemError& e) {
      throw nh::InputError("'" + name + "' = " + nh::formatValue(value) +
                           " is not allowed: " + e.what());
    }
  }
  parameters_ = candidate;
  // The next reset starts from initial conditions completed for these parameters.
  try {
    std::vector<std::string> notes;
    const std::vector<double> before = x0_;
    x0_ = nh::initialState(equations, 0.0, initialOverrides_, &notes);
    reportMovedStart(before, name);
    initialNotes_ = notes;
  } catch (const nh::Error& e) {
    // The running motion goes on; Reset would start from the previous initial state.
    emit errorOccurred(QString("the initial conditions do not fit the new parameters (%1); Reset "
                               "keeps the previous ones")
                           .arg(QString::fromStdString(e.what())));
  }
  // Before the first sample (just after a system was chosen, say nhlab --set) there is no
  // state to go on from: the run restarts from the initial state completed above.
  std::shared_ptr<Timeline> replaced;
  if (!primary().empty())
    replaced = restartFrom(displayIndex(), true);
  else
    restartFromInitial();
  emit parametersChanged();
  emit initialChanged();
  return replaced;
}

std::shared_ptr<SimulationController::Timeline> SimulationController::setPlanParameter(
    const std::string& name, const std::vector<double>& candidate) {
  if (const std::string why = system_->checkParameters(candidate.data()); !why.empty())
    throw nh::InputError("'" + name + "' is not allowed: " + why);
  auto replaced = plan_ ? snapshot() : nullptr;
  parameters_ = candidate;
  if (!isControlModel()) {
    std::vector<std::string> notes;
    computeInitialState(initialOverrides_, x0_, notes);
    initialNotes_ = notes;
  }
  leavePlan();
  emit parametersChanged();
  emit initialChanged();
  return replaced;
}

void SimulationController::keepContinuous(std::vector<double>& candidate, size_t k,
                                          int edited) const {
  const RunHistory& run = primary();
  const std::vector<double>& before = run.parametersAt(k);
  const std::vector<double> x = run.state(k);
  const double t = run.time(k);
  const double* q = x.data();
  const double* y = x.data() + system_->n();
  for (const auto& phase : system_->info().continuousPhases) {
    const int j = system_->parameterIndex(phase.parameter);
    if (j < 0 || j == edited) continue;  // an edited phase turns the quantity on purpose
    const double target = system_->continuousValue(j, before.data(), t, q, y);
    if (!std::isfinite(target)) continue;
    // The quantity is the phase plus terms without it (slope 1): one step is exact. The
    // slope is measured, and the step repeated, so a model that breaks the rule still lands.
    for (int iteration = 0; iteration < 4; ++iteration) {
      const double now = system_->continuousValue(j, candidate.data(), t, q, y);
      const double miss = target - now;
      if (!(std::abs(miss) > 1e-13 * (1 + std::abs(target)))) break;
      const double phase0 = candidate[j];
      candidate[j] = phase0 + 1;
      const double slope = system_->continuousValue(j, candidate.data(), t, q, y) - now;
      candidate[j] = phase0;
      if (!(std::isfinite(slope) && slope != 0)) break;
      candidate[j] = phase0 + miss / slope;
    }
    const nh::ParameterInfo& info = system_->info().parameters[j];
    // A phase in radians is an angle: whole turns are dropped, so the panel shows it in
    // (−π, π] however far the table has turned (it read −44.87 rad after an edit of Ω).
    if (info.unit == "rad" && std::isfinite(candidate[j])) {
      double wrapped = std::remainder(candidate[j], 2 * M_PI);
      if (wrapped <= -M_PI) wrapped += 2 * M_PI;
      if (info.allows(wrapped)) candidate[j] = wrapped;
    }
    if (!info.allows(candidate[j]))
      throw nh::InputError("keeping " + phase.quantity + " continuous needs " + info.name + " = " +
                           nh::formatValue(candidate[j]) + ", outside " + info.rangeText());
  }
}

void SimulationController::computeInitialState(const std::map<std::string, double>& overrides,
                                               std::vector<double>& x0,
                                               std::vector<std::string>& notes) const {
  const nh::EquationsOfMotion equations(system_, scenario_.dynamics, scenario_.formulation,
                                        parameters_);
  std::vector<std::string> n;
  x0 = nh::initialState(equations, 0.0, overrides, &n);
  notes = n;
}

void SimulationController::setInitialOverrides(const std::map<std::string, double>& overrides) {
  refuseForControlModel("setting the initial conditions");
  std::vector<double> x0;
  std::vector<std::string> notes;
  computeInitialState(overrides, x0, notes);
  initialOverrides_ = overrides;
  x0_ = x0;
  reportNewNotes(notes);
  initialNotes_ = notes;
  emit initialChanged();
}

// The start Reset goes back to, when an edit of `parameter` moved its velocities (the
// constraints read the parameter: the turntable's Ω₀): said in the banner, since the values
// under Initial conditions change without being typed.
void SimulationController::reportMovedStart(const std::vector<double>& before,
                                            const std::string& parameter) {
  if (before.size() != x0_.size()) return;
  const nh::SystemInfo& info = system_->info();
  const int n = system_->n(), m = system_->m();
  QStringList moved;
  for (int a = 0; a < m; ++a) {
    const double v0 = before[n + a], v1 = x0_[n + a];
    if (std::abs(v1 - v0) > 1e-12 * std::max(1.0, std::abs(v0)))
      moved << QStringLiteral("%1 %2 → %3")
                   .arg(QString::fromStdString(info.velocities[a]))
                   .arg(v0, 0, 'g', 4)
                   .arg(v1, 0, 'g', 4);
  }
  if (moved.isEmpty()) return;
  const int index = system_->parameterIndex(parameter);
  const std::string shown = index >= 0 ? displayName(info.parameters[index]) : parameter;
  emit warningOccurred(tr("The start for Reset follows the constraints with the new %1: %2")
                           .arg(QString::fromStdString(shown), moved.join(", ")));
}

// A start the constraints changed is said in the banner, not only under Initial conditions:
// the values shown there are not the ones typed (or the ones shown before an edit).
void SimulationController::reportNewNotes(const std::vector<std::string>& notes) {
  if (notes.empty() || notes == initialNotes_) return;
  QStringList lines;
  for (const auto& note : notes) lines << QString::fromStdString(note);
  emit warningOccurred(tr("Start changed: %1").arg(lines.join("; ")));
}

void SimulationController::setFormulation(nh::Formulation formulation) {
  if (scenario_.formulation == formulation) return;
  refuseForControlModel("a formulation");
  nh::checkSupported(scenario_.dynamics, formulation);
  scenario_.formulation = formulation;
  restartAtDisplay();
}

void SimulationController::setStepSize(double dt) {
  if (!std::isfinite(dt) || dt < kMinStepSize || dt > kMaxStepSize)
    throw nh::InputError("the step size must be in [" + nh::formatValue(kMinStepSize) + ", " +
                         nh::formatValue(kMaxStepSize) + "] s, got " + nh::formatValue(dt));
  if (dt == dtOut_) return;
  refuseForControlModel("a step size");
  nh::Scenario candidate = scenario_;  // the rules a saved file is read with (an rk4 step ≤ dt)
  candidate.dtOut = dt;
  candidate.validate();
  dtOut_ = dt;
  scenario_.dtOut = dt;
  restartAtDisplay();
  emit stepSizeChanged(dt);
}

void SimulationController::setIntegrator(const nh::IntegratorOptions& options) {
  refuseForControlModel("an integrator");
  nh::Scenario candidate = scenario_;
  candidate.integrator = options;
  candidate.validate();
  scenario_.integrator = options;
  restartAtDisplay();
}

// ---- Comparison -------------------------------------------------------------------------

void SimulationController::setCompare(CompareMode mode, const std::string& ghostParameter,
                                      double ghostValue) {
  if (mode != CompareMode::None) refuseForControlModel("a comparison");
  if (isControlModel()) return;  // nothing to compare, nothing to switch off
  // Throws for a ghost parameter the system does not have or a value outside its range.
  nh::comparisonParameters(
      *system_, parameters_,
      {mode, ghostParameter, ghostValue, otherIntegrator_.method, otherIntegrator_.step});
  compareMode_ = mode;
  ghostParameter_ = ghostParameter;
  ghostValue_ = ghostValue;
  startComparison();
}

void SimulationController::setCompareIntegrator(const IntegratorChoice& other) {
  refuseForControlModel("a comparison");
  // The rules a saved file is read with: a fixed step at most the output step, and the
  // method able to step these dynamics in this formulation.
  nh::Scenario candidate = scenario_;
  candidate.integrator.method = other.method;
  candidate.integrator.step = other.step;
  candidate.validate();
  compareMode_ = CompareMode::Integrator;
  otherIntegrator_ = other;
  startComparison();
}

void SimulationController::startComparison() {
  rebuildRuns();
  restartFromInitial();
  emit comparisonChanged();
  emit scenarioChanged();
}

nh::Comparison SimulationController::comparisonChoice() const {
  return {compareMode_, ghostParameter_, ghostValue_, otherIntegrator_.method,
          otherIntegrator_.step};
}

nh::IntegratorOptions SimulationController::runIntegrator(size_t run) const {
  if (run == 0) return scenario_.integrator;
  nh::RunSetup primary;
  primary.options = scenario_.integrator;
  primary.system = system_;
  primary.parameters = parameters_;
  return nh::comparisonSetup(primary, comparisonChoice()).options;
}

nh::DynamicsKind SimulationController::comparisonDynamics() const {
  return nh::comparisonDynamics(scenario_.dynamics, compareMode_);
}

std::vector<double> SimulationController::comparisonParameters() const {
  return nh::comparisonParameters(*system_, parameters_, comparisonChoice());
}

std::vector<double> SimulationController::comparisonState(const std::vector<double>& x) const {
  // Same q and y; the vakonomic multipliers μ start at 0 (the nhsim default).
  std::vector<double> c = x;
  c.resize(runs_[1]->layout().stateSize, 0.0);
  return c;
}

void SimulationController::rebuildRuns() {
  fixed_ = false;
  plan_.reset();
  runs_.clear();
  auto makeRun = [&](nh::DynamicsKind dynamics) {
    nh::EquationsOfMotion equations(system_, dynamics,
                                    nh::formulationFor(dynamics, scenario_.formulation));
    return std::make_unique<RunHistory>(system_, dynamics, makeRecordLayout(equations));
  };
  runs_.push_back(makeRun(scenario_.dynamics));
  if (compareMode_ != CompareMode::None) runs_.push_back(makeRun(comparisonDynamics()));
  runFailed_.assign(runs_.size(), false);
}

// ---- Restarts ---------------------------------------------------------------------------

void SimulationController::submit(double t0, bool emitInitial,
                                  const std::vector<std::vector<double>>& states,
                                  const std::vector<std::vector<double>>& parameters) {
  SimulationWorker::Job job;
  job.epoch = ++epoch_;
  job.t0 = t0;
  job.dtOut = dtOut_;
  job.emitInitial = emitInitial;
  // A run in the lab has no end: it must be able to go on for the scenario's length (t_end,
  // 10 s by default) from wherever it is, as nhsim checks a run to t_end.
  job.growthLookahead = scenario_.tEnd;
  for (size_t i = 0; i < runs_.size(); ++i) {
    if (states[i].empty()) continue;
    if (i == 1 && states[0].empty()) break;
    SimulationWorker::RunSetup setup;
    setup.system = system_;
    setup.dynamics = runs_[i]->dynamics();
    setup.formulation = nh::formulationFor(setup.dynamics, scenario_.formulation);
    setup.options = runIntegrator(i);
    setup.parameters = i < parameters.size() ? parameters[i]
                       : i == 0              ? parameters_
                                             : comparisonParameters();
    setup.x0 = states[i];
    setup.layout = runs_[i]->layout();
    job.runs.push_back(std::move(setup));
  }
  // A failed comparison run has no state to restart from: the job holds the primary only.
  if (job.runs.size() < runs_.size() && runs_.size() > 1 && !states[0].empty())
    runFailed_[1] = true;
  worker_->submit(std::move(job));
  updateTarget();
}

void SimulationController::restartAtDisplay() {
  if (fixed_) {
    leavePlan();
    return;
  }
  if (primary().empty()) return;
  restartFrom(displayIndex());  // the caller keeps the history it replaced (Session)
}

void SimulationController::restartFromInitial() {
  std::vector<std::vector<double>> states;
  for (size_t i = 0; i < runs_.size(); ++i) {
    runs_[i]->clear();
    runs_[i]->setParametersFrom(0, i == 0 ? parameters_ : comparisonParameters());
    runFailed_[i] = false;
    states.push_back(i == 0 ? x0_ : comparisonState(x0_));
  }
  clock_ = displayTime_ = 0;
  scrubbed_ = false;
  rateWindow_.clear();
  submit(0.0, true, states);
  emit historyReset();
}

std::shared_ptr<SimulationController::Timeline> SimulationController::restartFrom(size_t k,
                                                                                  bool recompute) {
  // What the user had seen after k (scrubbed back to it) is kept for undo; the look-ahead
  // the worker computed past a paused or playing display is not.
  auto replaced = scrubbed_ && k + 1 < primary().size() ? snapshot() : nullptr;
  // An edit at k whose recomputed sample has not arrived yet (a restart right after it: the
  // formulation, say): this restart records that sample, or the edit would seem to take
  // effect only from the next one, and the paused view at k would show the old values.
  if (!recompute && primary().parametersAt(k) != parameters_) recompute = true;
  std::vector<std::vector<double>> states(runs_.size());
  const double t = primary().time(k);
  for (size_t i = 0; i < runs_.size(); ++i) {
    RunHistory& run = *runs_[i];
    if (run.empty() || run.time(std::min(k, run.size() - 1)) != t || run.size() <= k) continue;
    run.truncate(k + 1);
    run.setParametersFrom(k + 1, i == 0 ? parameters_ : comparisonParameters());
    states[i] = run.state(k);
    runFailed_[i] = false;
  }
  clock_ = displayTime_ = t;
  scrubbed_ = false;
  rateWindow_.clear();
  lastError_.clear();
  submit(t, recompute, states);
  emit historyReset();
  return replaced;
}

std::shared_ptr<SimulationController::Timeline> SimulationController::snapshot() const {
  auto timeline = std::make_shared<Timeline>();
  for (const auto& run : runs_) timeline->runs.push_back(std::make_unique<RunHistory>(*run));
  timeline->settings = settings();
  timeline->runFailed = runFailed_;
  // As recorded (setParameter calls this after taking the new values).
  timeline->parameters = recordedParameters();
  timeline->displayTime = displayTime_;
  timeline->lastError = lastError_;
  timeline->fixed = fixed_;
  timeline->plan = plan_;
  return timeline;
}

SimulationController::RunSettings SimulationController::settings() const {
  return {scenario_.formulation, scenario_.integrator, dtOut_,          compareMode_,
          ghostParameter_,       ghostValue_,          otherIntegrator_};
}

std::shared_ptr<SimulationController::Timeline> SimulationController::swapTimeline(
    std::shared_ptr<Timeline> other) {
  const auto mismatch = [] {
    return nh::InputError("the history to restore belongs to another system or dynamics");
  };
  if (!other || other->runs.empty() || other->parameters.size() != parameters_.size() ||
      other->runs.size() != (other->settings.compare == CompareMode::None ? 1u : 2u))
    throw mismatch();
  // The comparison run may differ (its settings come back with it); the primary must not,
  // unless a plan is shown or comes back (its columns are the plan's).
  if (!fixed_ && !other->fixed &&
      (other->runs[0]->dynamics() != runs_[0]->dynamics() ||
       other->runs[0]->layout().columns != runs_[0]->layout().columns))
    throw mismatch();
  for (const auto& run : other->runs)
    if (&run->system() != system_.get()) throw mismatch();
  pause();
  worker_->halt();
  ++epoch_;  // anything of the replaced timeline still in the outbox is ignored
  auto replaced = std::make_shared<Timeline>();
  replaced->runs = std::move(runs_);
  replaced->settings = settings();
  replaced->runFailed = runFailed_;
  replaced->parameters = parameters_;
  replaced->displayTime = displayTime_;
  replaced->lastError = lastError_;
  replaced->fixed = fixed_;
  replaced->plan = plan_;
  const bool planShownChanged = other->plan != plan_ || other->fixed != fixed_;
  fixed_ = other->fixed;
  plan_ = other->plan;
  // A plan's columns (controls, costates, cost) differ from a run's: the plots' variables follow.
  const bool columnsChanged =
      other->runs[0]->layout().columns != replaced->runs[0]->layout().columns;
  const RunSettings& s = other->settings;
  const bool compareChanged =
      !comparing(s.compare, s.ghostParameter, s.ghostValue, s.otherIntegrator);
  const bool stepChanged = s.dtOut != dtOut_;
  scenario_.formulation = s.formulation;
  scenario_.integrator = s.integrator;
  dtOut_ = scenario_.dtOut = s.dtOut;
  compareMode_ = s.compare;
  ghostParameter_ = s.ghostParameter;
  ghostValue_ = s.ghostValue;
  otherIntegrator_ = s.otherIntegrator;
  runs_ = std::move(other->runs);
  runFailed_ = other->runFailed;
  parameters_ = other->parameters;
  lastError_ = other->lastError;
  const RunHistory& run = primary();
  clock_ = displayTime_ =
      run.empty() ? 0 : std::clamp(other->displayTime, run.firstTime(), run.lastTime());
  scrubbed_ = !fixed_;  // Play from here forks again (a plan is only played)
  rateWindow_.clear();
  try {
    if (!isControlModel()) computeInitialState(initialOverrides_, x0_, initialNotes_);
  } catch (const nh::Error&) {
    // Reset keeps the previous initial state (as after an edit that does not fit).
  }
  continueFromEnd();
  emit historyReset();
  if (compareChanged) emit comparisonChanged();
  if (columnsChanged) emit scenarioChanged();
  if (planShownChanged) emit planChanged();
  if (stepChanged) emit stepSizeChanged(dtOut_);
  emit parametersChanged();
  emit initialChanged();
  emit ticked();
  return replaced;
}

void SimulationController::continueFromEnd() {
  if (fixed_ || primary().empty() || runFailed_[0]) return;
  const size_t last = primary().size() - 1;
  const double t = primary().time(last);
  std::vector<std::vector<double>> states(runs_.size()), parameters(runs_.size());
  for (size_t i = 0; i < runs_.size(); ++i) {
    const RunHistory& run = *runs_[i];
    if (runFailed_[i] || run.empty() || run.lastTime() != t) continue;
    states[i] = run.state(run.size() - 1);
    parameters[i] = run.parametersAt(run.size() - 1);
  }
  submit(t, false, states, parameters);
}

bool SimulationController::changesLater(int i, double value) const {
  // Scrubbed back before a later edit of the parameter: setting the value in force here
  // still removes that edit from the history after this moment (undo from an earlier moment).
  const RunHistory& run = primary();
  if (run.empty() || !scrubbed_) return false;
  for (size_t k = displayIndex() + 1; k < run.size(); ++k)
    if (run.parametersAt(k)[i] != value) return true;
  return false;
}

const std::vector<double>& SimulationController::recordedParameters() const {
  const RunHistory& run = primary();
  if (run.empty()) return parameters_;
  // At the last sample, the parameters the run goes on with (an edit's, before its
  // recomputed sample arrives).
  const size_t k = displayIndex() + 1 == run.size() ? run.size() : displayIndex();
  return run.parametersAt(k);
}

void SimulationController::followTimeline() {
  if (primary().empty()) return;
  const std::vector<double>& p = recordedParameters();
  if (p == parameters_) return;
  parameters_ = p;
  try {
    computeInitialState(initialOverrides_, x0_, initialNotes_);
  } catch (const nh::Error&) {
    // Reset keeps the previous initial state (as after an edit that does not fit).
  }
  emit parametersChanged();
  emit initialChanged();
}

// ---- Time -------------------------------------------------------------------------------

void SimulationController::play() {
  if (playing_) return;
  if (fixed_) {
    playPlan();
    return;
  }
  if (scrubbed_ && !primary().empty() && displayIndex() + 1 < primary().size()) {
    const double t = primary().time(displayIndex());
    auto replaced = restartFrom(displayIndex());
    emit historyForked(t, std::move(replaced));
  } else if (runFailed_[0] && !scrubbed_) {
    emit errorOccurred(lastError_.isEmpty() ? tr("The simulation stopped.") : lastError_);
    return;
  } else if (scrubbed_ && !primary().empty() && runFailed_[0]) {
    restartFrom(displayIndex());
  }
  scrubbed_ = false;
  playing_ = true;
  lastWallNs_ = wall_.nsecsElapsed();
  rateWindow_.clear();
  updateTarget();
  emit playingChanged(true);
}

void SimulationController::playPlan() {
  const RunHistory& run = primary();
  if (run.empty()) return;
  // At the end (T reached, or a control model's start alone): from the start again.
  if (displayTime_ >= run.lastTime()) clock_ = displayTime_ = run.firstTime();
  scrubbed_ = false;
  playing_ = true;
  lastWallNs_ = wall_.nsecsElapsed();
  rateWindow_.clear();
  emit playingChanged(true);
}

void SimulationController::pause() {
  if (!playing_) return;
  playing_ = false;
  clock_ = displayTime_;
  realTimeFactor_ = 0;
  updateTarget();
  emit playingChanged(false);
}

void SimulationController::stepForward() {
  pause();
  const RunHistory& run = primary();
  if (run.empty()) return;
  const size_t k = displayIndex();
  clock_ = k + 1 < run.size() ? run.time(k + 1) : run.time(k) + dtOut_;
  updateTarget();
}

void SimulationController::stepBack() {
  pause();
  const RunHistory& run = primary();
  if (run.empty()) return;
  size_t k = displayIndex();
  // Between two samples, "back" first lands on the earlier one; samples at the same time (an
  // edit's recomputed sample) are one moment.
  if (!(displayTime_ > run.time(k) + 1e-9 * dtOut_))
    while (k > 0 && run.time(k - 1) >= run.time(k) - 1e-9 * dtOut_) --k;
  if (!(displayTime_ > run.time(k) + 1e-9 * dtOut_) && k > 0) --k;
  clock_ = displayTime_ = run.time(k);
  scrubbed_ = true;
  updateTarget();
  followTimeline();
  emit ticked();
}

void SimulationController::reset() {
  if (fixed_) {  // a plan starts again from t = 0
    clock_ = displayTime_ = primary().empty() ? 0 : primary().firstTime();
    emit ticked();
    return;
  }
  const bool wasPlaying = playing_;
  lastError_.clear();
  restartFromInitial();
  if (wasPlaying) updateTarget();
}

void SimulationController::seek(double time) {
  pause();
  const RunHistory& run = primary();
  if (run.empty()) return;
  clock_ = displayTime_ = std::clamp(time, run.firstTime(), run.lastTime());
  scrubbed_ = true;
  updateTarget();
  followTimeline();
  emit ticked();
}

std::optional<std::shared_ptr<SimulationController::Timeline>> SimulationController::takeBackEdit(
    const std::string& name, double t, double value, double before) {
  if (fixed_) return std::nullopt;
  const int i = system_->parameterIndex(name);
  const RunHistory& run = primary();
  const double tolerance = 1e-9 * dtOut_;
  if (i < 0 || run.size() < 2 ||
      !(t >= run.firstTime() - tolerance && t <= run.lastTime() + tolerance))
    return std::nullopt;
  // The edit's sample is the last at t; the one before it, at the same time, was recorded
  // before the edit.
  const size_t edited = run.indexAtOrBefore(t + tolerance);
  if (edited == 0 || std::abs(run.time(edited) - t) > tolerance ||
      run.parametersAt(edited)[i] != value)
    return std::nullopt;
  const size_t k = edited - 1;
  if (std::abs(run.time(k) - run.time(edited)) > tolerance || run.parametersAt(k)[i] != before)
    return std::nullopt;
  pause();
  parameters_ = run.parametersAt(k);
  try {
    computeInitialState(initialOverrides_, x0_, initialNotes_);
  } catch (const nh::Error&) {
    // Reset keeps the previous initial state (as after an edit that does not fit).
  }
  scrubbed_ = true;  // what followed is kept for redo
  clock_ = displayTime_ = run.time(k);
  auto replaced = restartFrom(k);
  emit parametersChanged();
  emit initialChanged();
  return replaced;
}

void SimulationController::setSpeed(double factor) {
  factor = std::clamp(factor, 0.01, 1000.0);
  if (factor == speed_) return;
  speed_ = factor;
  rateWindow_.clear();
  updateTarget();
  emit speedChanged(speed_);
}

size_t SimulationController::displayIndex() const {
  const RunHistory& run = primary();
  if (run.empty()) return 0;
  return run.indexAtOrBefore(displayTime_ + 1e-9 * dtOut_);
}

bool SimulationController::displayedScene(int index, nh::SceneFrame& frame) const {
  if (index >= static_cast<int>(runs_.size())) return false;
  const RunHistory& run = *runs_[index];
  if (run.empty()) return false;
  run.sceneAt(std::min(displayTime_, run.lastTime()), frame);
  return true;
}

double SimulationController::displayedResidual() const {
  const RunHistory& run = primary();
  if (run.empty()) return 0;
  return run.column(run.layout().residualColumn)[displayIndex()];
}

void SimulationController::updateTarget() {
  if (fixed_) return;  // a plan is complete: the worker has no job
  // The worker stays a little ahead of the display: enough for a few frames at this speed.
  const double lead = playing_ ? std::max(0.3, 0.3 * speed_) : 3 * dtOut_;
  worker_->setTarget(clock_ + lead);
}

void SimulationController::drain() {
  bool failedNow = false;
  for (SimulationWorker::Output& out : worker_->take()) {
    if (out.epoch != epoch_ || out.run >= static_cast<int>(runs_.size())) continue;
    RunHistory& run = *runs_[out.run];
    if (!out.records.empty())
      run.append(out.records.data(), out.records.size() / static_cast<size_t>(out.stride));
    if (!out.warning.empty())
      emit warningOccurred(
          out.run == 0 ? QString::fromStdString(out.warning)
                       : tr("The comparison run: %1").arg(QString::fromStdString(out.warning)));
    if (!out.drift.empty())
      emit energyDrifted(out.run == 0
                             ? QString::fromStdString(out.drift)
                             : tr("The comparison run: %1").arg(QString::fromStdString(out.drift)));
    if (!out.error.empty()) {
      runFailed_[out.run] = true;
      if (out.run == 0) {
        lastError_ = QString::fromStdString(out.error);
        failedNow = true;
      } else {
        emit errorOccurred(
            tr("The comparison run stopped: %1").arg(QString::fromStdString(out.error)));
      }
    }
  }
  if (primary().size() > kMaxSamples) {
    const size_t drop = kMaxSamples / 4;
    for (auto& run : runs_) run->dropFront(std::min(drop, run->size()));
    emit historyReset();
  }
  if (failedNow) {
    pause();
    emit errorOccurred(lastError_);
  }
}

void SimulationController::tick() {
  drain();
  const qint64 now = wall_.nsecsElapsed();
  const double dt = std::min(0.1, (now - lastWallNs_) * 1e-9);  // no leap after a stall
  lastWallNs_ = now;
  const RunHistory& run = primary();
  if (playing_) {
    clock_ += speed_ * dt;
    // If the worker falls behind, the display waits for it (the real-time factor shows it).
    if (!run.empty() && clock_ > run.lastTime()) clock_ = run.lastTime();
  }
  displayTime_ = run.empty() ? 0 : std::clamp(clock_, run.firstTime(), run.lastTime());
  if (playing_) {
    rateWindow_.emplace_back(now, displayTime_);
    while (rateWindow_.size() > 2 && now - rateWindow_.front().first > 1'000'000'000LL)
      rateWindow_.pop_front();
    const double span = (rateWindow_.back().first - rateWindow_.front().first) * 1e-9;
    if (span > 0.2)
      realTimeFactor_ = (rateWindow_.back().second - rateWindow_.front().second) / span;
  }
  updateTarget();
  followTimeline();
  emit ticked();
  if (playing_ && fixed_ && !run.empty() && displayTime_ >= run.lastTime()) pause();
}

bool SimulationController::waitForTime(double t, int timeoutMs) {
  QElapsedTimer timer;
  timer.start();
  worker_->setTarget(std::max(t + dtOut_, clock_));
  if (fixed_) return !primary().empty() && primary().lastTime() >= t - 1e-9;
  while (timer.elapsed() < timeoutMs) {
    drain();
    if (!primary().empty() && primary().lastTime() >= t - 1e-9) return true;
    if (runFailed_[0]) return false;
    worker_->setTarget(std::max(t + dtOut_, clock_));
    QThread::msleep(2);
  }
  return false;
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
