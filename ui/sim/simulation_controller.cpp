// SimulationController (simulation_controller.h): loading a scenario or a system (one install
// path for simulated systems and control models), the edits (parameters along the timeline,
// initial state, formulation, integrator, step, comparison) sent to the worker as restarts,
// and the settings it runs with; its histories are in controller_timelines.cpp, its display
// clock in controller_clock.cpp.
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
#include "core/nh/messages.h"
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

namespace {

// What install() reads from a scenario before it changes anything (so that a refusal leaves
// the running system as it was): the parameters, the start and notes about its completion.
struct Start {
  std::vector<double> parameters;
  std::vector<double> x0;
  std::vector<std::string> notes;
};

// A simulated system: the initial state completed by the constraints. checkStart: the
// equations are evaluated there, as the worker will first (it would otherwise fail there,
// after the switch).
Start simulatedStart(const std::shared_ptr<const nh::SystemModel>& system, const nh::Scenario& s,
                     bool checkStart) {
  Start start;
  start.parameters = nh::resolveParameters(*system, s.parameters);
  const nh::EquationsOfMotion equations(system, s.dynamics, s.formulation, start.parameters);
  start.x0 = nh::initialState(equations, 0.0, s.initial, &start.notes);
  if (checkStart) {
    nh::EquationsWorkspace workspace(equations);
    std::vector<double> dxdt(start.x0.size());
    equations.rhs(workspace, 0.0, start.x0.data(), dxdt.data());
  }
  return start;
}

// A control model: the body at rest at the scenario's start coordinates.
Start controlModelStart(const nh::SystemModel& system, const nh::Scenario& s) {
  Start start;
  start.parameters = nh::resolveParameters(system, s.parameters);
  const auto& info = system.info();
  start.x0 = info.defaultCoordinates;
  for (const auto& [name, value] : s.initial) {
    const auto it = std::find(info.coordinates.begin(), info.coordinates.end(), name);
    if (it == info.coordinates.end())
      throw nh::InputError("'" + name + "' is not a coordinate of the control model '" +
                           system.name() + "' (its velocities follow from a plan)");
    start.x0[it - info.coordinates.begin()] = value;
  }
  start.x0.resize(system.n() + system.m(), 0.0);
  return start;
}

}  // namespace

void SimulationController::install(std::shared_ptr<const nh::SystemModel> system,
                                   const nh::Scenario& s, bool checkStart) {
  const bool control = system->info().isControlModel();
  const Start start =
      control ? controlModelStart(*system, s) : simulatedStart(system, s, checkStart);
  if (control) {  // no run goes on: the worker stops here
    pause();
    worker_->halt();
    ++epoch_;
  }
  if (!s.edits.empty()) nh::checkEdits(*system, s);
  system_ = std::move(system);
  scenario_ = s;
  scheduled_ = control ? std::vector<nh::TimedEdit>{} : s.edits;
  // A system from a model file keeps its path: the catalogue does not know it by its name,
  // and saving writes the path back (relative to the scenario file).
  if (!nh::model::isModelFilePath(s.system)) scenario_.system = system_->name();
  parameters_ = start.parameters;
  initialOverrides_ = s.initial;
  x0_ = start.x0;
  reportNewNotes(start.notes);
  initialNotes_ = start.notes;
  // What the loader kept but wants said (a structure its anchor contradicts, kept under
  // structure_checked: false), with every run: a control model has none.
  if (const nh::model::FormulaSystem* formula = control ? nullptr : nh::model::asFormula(*system_))
    for (const std::string& warning : formula->data().loadWarnings)
      emit warningOccurred(QString::fromStdString(warning));
  dtOut_ = s.dtOut;
  // A control model is compared with nothing; a ghost of a parameter the system lacks goes.
  if (control ||
      (compareMode_ == CompareMode::Ghost && system_->parameterIndex(ghostParameter_) < 0))
    compareMode_ = CompareMode::None;
  lastError_.clear();
  if (control) {
    showControlStart();
  } else {
    rebuildRuns();
    restartFromInitial();
  }
  emit scenarioChanged();
  emit parametersChanged();
  emit initialChanged();
}

void SimulationController::showControlStart() {
  runs_.clear();
  runs_.push_back(makeStartRun(system_, parameters_, x0_));
  runFailed_.assign(1, false);
  fixed_ = true;
  plan_.reset();
  clock_ = displayTime_ = 0;
  scrubbed_ = false;
  emit historyReset();
}

void SimulationController::refuseForControlModel(const char* what) const {
  if (isControlModel())
    throw nh::InputError("'" + system_->name() + "' is a control model: it moves only along a " +
                         "plan (Simulation > Plan a motion…), so " + what + " does not apply");
}

void SimulationController::leavePlan() {
  if (isControlModel()) {
    showControlStart();
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

nh::Scenario SimulationController::recordedScenario() const {
  nh::Scenario s = scenario();
  s.edits = recordedEdits();
  if (s.edits.empty()) return s;
  const std::vector<double>& start = primary().parametersAt(0);
  const auto& infos = system_->info().parameters;
  for (size_t i = 0; i < infos.size(); ++i) s.parameters[infos[i].name] = start[i];
  s.dtOut = dtOut_;
  s.tEnd = std::max(s.tEnd, primary().lastTime());
  return s;
}

std::vector<nh::TimedEdit> SimulationController::recordedEdits() const {
  std::vector<nh::TimedEdit> edits;
  const RunHistory& h = primary();
  if (fixed_ || h.empty()) return edits;
  const auto& infos = system_->info().parameters;
  for (size_t k = 1; k < h.segmentCount(); ++k) {
    if (h.segmentStart(k) >= h.size()) break;
    const std::vector<double>& before = h.segmentParameters(k - 1);
    const std::vector<double>& after = h.segmentParameters(k);
    nh::TimedEdit edit;
    edit.t = h.time(h.segmentStart(k));
    std::vector<std::string> said;
    for (size_t i = 0; i < infos.size() && i < after.size(); ++i) {
      if (after[i] == before[i]) continue;
      edit.parameters[infos[i].name] = after[i];
      const std::string& shown = infos[i].label.empty() ? infos[i].name : infos[i].label;
      said.push_back(shown + " = " + nh::shortNumber(after[i]) +
                     (infos[i].unit.empty() ? "" : " " + infos[i].unit));
    }
    if (edit.parameters.empty()) continue;
    edit.label = nh::joined(said);
    edits.push_back(std::move(edit));
  }
  return edits;
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
  // The user's edit replaces the motion from here: a loaded scenario's later edits go.
  std::erase_if(scheduled_, [&](const nh::TimedEdit& e) { return e.t > displayTime_; });
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

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
