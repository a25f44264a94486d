// Session (session.h): opening and saving scenario files, the view set part by part, and every
// edit the window makes (system, model, parameters, initial state and its drag, comparison,
// integrator, step, the study's run, the plan solved and played) as a command on its undo stack.
#include "ui/session/session.h"

#include <QFileInfo>
#include <QGuiApplication>
#include <QKeySequence>
#include <QTimer>
#include <QUndoStack>
#include <algorithm>
#include <utility>

#include "core/io/scenario_file.h"
#include "core/model/catalogue.h"
#include "core/nh/errors.h"
#include "resources/app_resources.h"
#include "ui/session/undo_commands.h"
#include "ui/sim/run_style.h"

namespace nhui {

namespace {
// A path under ":/" is a bundled example, read from the Qt resource.
nh::Scenario readScenario(const QString& path) {
  return path.startsWith(":/") ? nhres::readResourceScenario(path)
                               : nh::readScenarioFile(path.toStdString());
}
}  // namespace

QString Session::undoKey() {
  // Without a GUI application (a suite) there is no platform key map: Qt's X11 default.
  if (!qobject_cast<QGuiApplication*>(QCoreApplication::instance()))
    return QStringLiteral("Ctrl+Z");
  return QKeySequence(QKeySequence::Undo).toString(QKeySequence::NativeText);
}

Session::Session(QObject* parent)
    : QObject(parent),
      controller_(new SimulationController(this)),
      undo_(new QUndoStack(this)),
      planSolver_(new PlanSolver(this)) {
  undo_->setUndoLimit(kUndoLimit);
  connect(controller_, &SimulationController::errorOccurred, this, &Session::errorOccurred);
  connect(controller_, &SimulationController::historyForked, this, &Session::onHistoryForked);
  connect(undo_, &QUndoStack::cleanChanged, this, &Session::documentChanged);
  connect(planSolver_, &PlanSolver::solved, this, &Session::onFilePlanSolved);
  connect(controller_, &SimulationController::speedChanged, this,
          [this] { followController(kViewSpeed); });
  connect(controller_, &SimulationController::comparisonChanged, this,
          [this] { followController(kViewComparison); });
  connect(controller_, &SimulationController::scenarioChanged, this,
          [this] { followController(kViewComparison | kViewCamera); });
  connect(controller_, &SimulationController::ticked, this, &Session::runPendingChanges);
  followController(kViewSpeed | kViewComparison);
  connect(planSolver_, &PlanSolver::failed, this, [this](const QString& message, bool cancelled) {
    if (!std::exchange(filePlanPending_, false) || cancelled) return;
    reportError(tr("The scenario's plan could not be solved: %1").arg(message));
  });
}

Session::~Session() = default;

bool Session::isModified() const { return !undo_->isClean(); }

void Session::reportError(const QString& message) { emit errorOccurred(message); }

// ---- The document -------------------------------------------------------------------------

void Session::setCurrentFile(const QString& path, const QString& title, const ScenarioView& view) {
  currentFile_ = path;
  lessonTitle_ = view.title;
  lessonNote_ = view.note;
  lessonDriftExpected_ = view.energyDriftExpected;
  lessonPlan_ = view.plan;
  title_ = view.title.isEmpty() ? title : view.title;
  emit documentChanged();
}

bool Session::openScenario(const QString& path) {
  ScenarioView view;
  try {
    const nh::Scenario s = readScenario(path);
    // What nhsim and the Python module refuse too (a ghost on no parameter of the system, a
    // comparison step outside the run's rules, plan targets that are not coordinates).
    nh::checkScenarioViewFor(s);
    view = parseScenarioView(s.view);  // checked before anything changes
    controller_->loadScenario(s);
  } catch (const std::exception& e) {
    reportError(
        tr("Could not open %1: %2").arg(QFileInfo(path).fileName(), QString::fromUtf8(e.what())));
    return false;
  }
  const bool bundled = path.startsWith(":/");  // nothing to save back to: Save asks
  undo_->clear();                              // the steps of the document left behind
  pendingChanges_.clear();
  startAfterPending_ = false;
  setCurrentFile(bundled ? QString() : path, QFileInfo(path).fileName(), view);
  ViewState next = view_;
  setView(next, applyScenarioView(view, next));
  startFileComparison(view);
  controller_->play();
  if (view.plan) {
    planSolver_->cancel();
    planSolver_->wait(10000);
    QString error;
    filePlanPending_ = solvePlan(*view.plan, error);
    if (!filePlanPending_) reportError(tr("The scenario's plan was refused: %1").arg(error));
  }
  return true;
}

bool Session::saveScenario(const QString& path) {
  ViewState shown = view_;
  if (arrowScaleSource_) shown.arrowScales = arrowScaleSource_();
  if (cameraSource_) shown.camera = cameraSource_();
  ScenarioView view = scenarioViewOf(shown, controller_->system().info().editing.movingFrame);
  if (controller_->plan()) view.plan = *controller_->plan();
  view.title = lessonTitle_;
  view.note = lessonNote_;
  view.energyDriftExpected = lessonDriftExpected_;
  try {
    nh::Scenario s = controller_->recordedScenario();  // with the run's timed edits
    s.view = scenarioViewToJson(view);
    nh::Scenario resolved = nh::resolvedScenario(
        s,
        s.edits.empty() ? controller_->parameters()
                        : nh::resolveParameters(controller_->system(), s.parameters),
        s.edits.empty() ? controller_->initialState() : controller_->primary().state(0));
    // A control model's velocities follow from its plan: its start is its coordinates.
    if (controller_->isControlModel())
      for (const std::string& v : controller_->system().info().velocities)
        resolved.initial.erase(v);
    nh::writeScenarioFile(resolved, path.toStdString());
  } catch (const std::exception& e) {
    reportError(tr("Could not save %1: %2").arg(path, QString::fromUtf8(e.what())));
    return false;
  }
  undo_->setClean();
  setCurrentFile(path, QFileInfo(path).fileName(), view);
  emit notice(tr("Saved %1").arg(path), 4000);
  return true;
}

// ---- The view -----------------------------------------------------------------------------

void Session::setView(const ViewState& view, ViewParts parts) {
  parts &= ~kViewComparison;                                  // the controller's: changeTimeline
  if (parts & kViewSpeed) controller_->setSpeed(view.speed);  // speedChanged brings it back
  parts &= ~kViewSpeed;
  ViewState next = view_;
  copyViewParts(view, parts, next);
  if (!controller_->system().info().editing.movingFrame) next.tableFrame = false;
  // Arrow scales given are always said: "none" presets none; so is a camera pose given (the
  // view has moved since the same pose was given last).
  const ViewParts changed =
      differingViewParts(view_, next) | (parts & (kViewArrowScales | kViewCameraPose));
  view_ = std::move(next);
  if (changed) emit viewChanged(changed);
}

void Session::setArrowScaleSource(std::function<std::map<std::string, double>()> source) {
  arrowScaleSource_ = std::move(source);
}

void Session::setCameraSource(std::function<CameraPose()> source) {
  cameraSource_ = std::move(source);
}

void Session::followController(ViewParts parts) {
  ViewState next = view_;
  if (parts & kViewSpeed) next.speed = controller_->speed();
  if (parts & kViewComparison) {
    next.comparison = comparisonInForce(*controller_);
    // A comparison with another integrator is about the energy: its error is plotted for both.
    if (next.comparison.mode == CompareMode::Integrator &&
        !next.timeSeries.contains("energy_error"))
      next.timeSeries.prepend("energy_error");
  }
  if ((parts & kViewCamera) && !controller_->system().info().editing.movingFrame)
    next.tableFrame = false;
  const ViewParts changed = differingViewParts(view_, next);
  view_ = std::move(next);
  if (changed) emit viewChanged(changed);
}

void Session::startFileComparison(const ScenarioView& file) {
  if (!file.comparison) return;
  const nh::Comparison& c = *file.comparison;
  try {
    if (c.mode == CompareMode::Integrator) {
      IntegratorChoice other{c.method, c.step};
      // No step given: the output step, or the primary's fixed step when that is smaller.
      if (!file.otherStepGiven) {
        const nh::IntegratorOptions primary = controller_->scenario().integrator;
        other.step = nh::isFixedStep(primary.method) ? std::min(primary.step, controller_->dtOut())
                                                     : controller_->dtOut();
      }
      if (!controller_->comparing(CompareMode::Integrator, {}, 0, other))
        controller_->setCompareIntegrator(other);
      return;
    }
    const bool ghost = c.mode == CompareMode::Ghost;
    if (ghost && controller_->system().parameterIndex(c.ghostParameter) < 0)
      return reportError(tr("unknown parameter '%1' for the ghost run")
                             .arg(QString::fromStdString(c.ghostParameter)));
    const std::string parameter = ghost ? c.ghostParameter : std::string();
    const double value = ghost ? c.ghostValue : 0.0;
    if (!controller_->comparing(c.mode, parameter, value, controller_->otherIntegrator()))
      controller_->setCompare(c.mode, parameter, value);
  } catch (const nh::Error& e) {
    reportError(QString::fromUtf8(e.what()));
  }
}

// ---- Systems ------------------------------------------------------------------------------

namespace {
SwitchSystemCommand::Run leaving(const SimulationController& c) {
  return {c.systemPtr(), c.scenario(), comparisonInForce(c), c.copyTimeline()};
}
}  // namespace

void Session::switched(QUndoCommand* command, const QString& message) {
  undo_->push(command);
  // A lesson's note and fixed arrow scales described the previous system.
  setCurrentFile({}, {}, ScenarioView{});
  ViewState next = view_;
  next.arrowScales.clear();
  setView(next, kViewArrowScales);  // none preset, as when a scenario gives none
  controller_->play();
  emit notice(message, 8000);
}

bool Session::chooseSystem(const QString& name) {
  if (name.toStdString() == controller_->system().name()) return true;
  SwitchSystemCommand::Run before = leaving(*controller_);
  try {
    nh::Scenario s;
    s.system = name.toStdString();
    controller_->loadScenario(s);
  } catch (const nh::Error& e) {
    reportError(QString::fromStdString(e.what()));
    return false;
  }
  SwitchSystemCommand::Run after{controller_->systemPtr(), controller_->scenario(), {}, {}};
  const QString previous = QString::fromStdString(before.system->name());
  switched(new SwitchSystemCommand(this, std::move(before), std::move(after), true),
           tr("Running %1 (%2 returns to %3 with its parameters)")
               .arg(name, Session::undoKey(), previous));
  return true;
}

bool Session::applyModel(std::shared_ptr<const nh::SystemModel> system, QString& error) {
  SwitchSystemCommand::Run before = leaving(*controller_);
  SwitchSystemCommand::Run after{system, carriedScenario(*system), {}, {}};
  try {
    controller_->switchSystem(after.system, after.scenario);
  } catch (const nh::Error& e) {
    error = QString::fromUtf8(e.what());
    return false;
  }
  switched(new SwitchSystemCommand(this, std::move(before), std::move(after), true),
           tr("Running %1").arg(QString::fromStdString(system->name())));
  return true;
}

nh::Scenario Session::carriedScenario(const nh::SystemModel& next) const {
  const nh::SystemModel& now = controller_->system();
  nh::Scenario s = controller_->scenario();
  s.system = next.name();
  // Only what the user changed is carried: a default edited in the file then takes effect.
  s.parameters.clear();
  for (const nh::ParameterInfo& p : next.info().parameters) {
    const int i = now.parameterIndex(p.name);
    if (i < 0) continue;
    const double value = controller_->parameters()[i];
    if (value != now.info().parameters[i].defaultValue && p.allows(value))
      s.parameters[p.name] = value;
  }
  s.initial.clear();
  const nh::StateLayout layout = nh::stateLayout(next, s.dynamics);
  for (const auto& [name, value] : controller_->initialOverrides()) {
    if (layout.find(name) < 0) continue;
    const auto& limits = next.info().stateLimits;
    if (std::all_of(limits.begin(), limits.end(), [&, n = name, v = value](const auto& limit) {
          return limit.name != n || limit.allows(v);
        }))
      s.initial[name] = value;
  }
  return s;
}

// ---- Edits --------------------------------------------------------------------------------

void Session::setParameter(const std::string& name, double value, long mergeKey) {
  double before = 0;
  try {
    before = controller_->parameter(name);
  } catch (const nh::Error& e) {
    reportError(QString::fromUtf8(e.what()));
    return;
  }
  undo_->push(new SetParameterCommand(this, name, before, value, mergeKey));
}

bool Session::setInitial(const std::map<std::string, double>& overrides, bool resetAfter,
                         QString* error) {
  const std::map<std::string, double> before = controller_->initialOverrides();
  // Applied here, once: a state the constraints cannot complete is refused before any step.
  try {
    controller_->setInitialOverrides(overrides);
  } catch (const nh::Error& e) {
    if (error)
      *error = QString::fromUtf8(e.what());
    else
      reportError(QString::fromUtf8(e.what()));
    return false;
  }
  std::shared_ptr<SimulationController::Timeline> kept;
  if (resetAfter) {
    kept = controller_->copyTimeline();
    controller_->reset();
  }
  undo_->push(new SetInitialCommand(this, before, overrides, resetAfter, true, std::move(kept)));
  return true;
}

bool Session::changeTimeline(const QString& text, const std::function<void()>& change,
                             const QString& mergeKey) {
  // Before the first sample of a run has arrived (a change right after a switch) there is
  // nothing to keep yet: the change waits for it (runPendingChanges), so it is undoable too.
  if (controller_->primary().empty() || !pendingChanges_.empty()) {
    pendingChanges_.push_back({text, change, mergeKey});
    return true;
  }
  auto kept = controller_->copyTimeline();
  try {
    change();
  } catch (const nh::Error& e) {
    reportError(QString::fromUtf8(e.what()));
    return false;
  }
  undo_->push(new ReplaceTimelineCommand(this, std::move(kept), text, mergeKey));
  return true;
}

QString Session::comparisonText(CompareMode mode, const std::string& parameter, double value,
                                const IntegratorChoice& other) const {
  switch (mode) {
    case CompareMode::None:
      return tr("Compare: off");
    case CompareMode::Vakonomic:
      return tr("Compare: nonholonomic vs vakonomic");
    case CompareMode::Ghost: {
      const int i = controller_->system().parameterIndex(parameter);
      const std::string said = i >= 0
                                   ? displayValue(controller_->system().info().parameters[i], value)
                                   : parameter + " = " + nh::formatValue(value);
      return tr("Compare: ghost %1").arg(QString::fromStdString(said));
    }
    case CompareMode::Integrator: {
      const QString name = QString::fromStdString(nh::toString(other.method));
      return nh::isFixedStep(other.method)
                 ? tr("Compare: integrator %1, step %2 s")
                       .arg(name, QString::fromStdString(nh::formatValue(other.step)))
                 : tr("Compare: integrator %1").arg(name);
    }
  }
  return {};
}

bool Session::setComparison(CompareMode mode, const std::string& ghostParameter, double ghostValue,
                            std::optional<IntegratorChoice> otherChoice) {
  const bool ghost = mode == CompareMode::Ghost;
  const std::string parameter = ghost ? ghostParameter : std::string();
  const double value = ghost ? ghostValue : 0.0;
  const IntegratorChoice other = otherChoice.value_or(controller_->otherIntegrator());
  if (ghost && controller_->system().parameterIndex(parameter) < 0) {
    reportError(
        tr("unknown parameter '%1' for the ghost run").arg(QString::fromStdString(parameter)));
    return false;
  }
  // The comparison in force already: nothing to restart (unless a restart waits, which the
  // comparison asked for now must follow).
  if (!pendingChanges_.empty() || !controller_->comparing(mode, parameter, value, other)) {
    // The steps of one ghost parameter's value merge into one undo step.
    const QString mergeKey = ghost ? "ghost " + QString::fromStdString(parameter) : QString();
    const bool done = changeTimeline(
        comparisonText(mode, parameter, value, other),
        [this, mode, parameter, value, other] {
          if (mode == CompareMode::Integrator)
            controller_->setCompareIntegrator(other);
          else
            controller_->setCompare(mode, parameter, value);
        },
        mergeKey);
    if (!done) return false;
  }
  controller_->play();
  return true;
}

void Session::reset() {
  changeTimeline(tr("Reset (restart from t = 0)"), [this] { controller_->reset(); });
}

void Session::setFormulation(nh::Formulation formulation, const QString& label) {
  if (controller_->scenario().formulation == formulation) return;
  changeTimeline(tr("Formulation: %1").arg(label),
                 [this, formulation] { controller_->setFormulation(formulation); });
}

void Session::setIntegrator(const nh::IntegratorOptions& options) {
  const nh::IntegratorOptions now = controller_->scenario().integrator;
  if (now.method == options.method && now.step == options.step) return;
  const QString name = QString::fromStdString(nh::toString(options.method));
  const bool fixed = nh::isFixedStep(options.method);
  const QString step = QString::fromStdString(nh::formatValue(options.step));
  const QString text =
      fixed ? tr("Integrator: %1, step %2 s").arg(name, step) : tr("Integrator: %1").arg(name);
  if (!changeTimeline(text, [this, options] { controller_->setIntegrator(options); })) return;
  if (fixed)
    emit notice(tr("%1 steps with a fixed step of %2 s (Simulation ▸ Integrator step… changes it)")
                    .arg(name, step),
                8000);
}

void Session::setStepSize(double dt) {
  if (dt == controller_->dtOut()) return;
  changeTimeline(tr("Step size %1 s").arg(dt), [this, dt] { controller_->setStepSize(dt); });
}

void Session::startHere() {
  startAfterPending_ = !pendingChanges_.empty();
  undo_->clear();
}

void Session::runPendingChanges() {
  if (pendingChanges_.empty() || controller_->primary().empty()) return;
  std::vector<PendingChange> changes = std::move(pendingChanges_);
  pendingChanges_.clear();
  for (const PendingChange& c : changes)
    if (!changeTimeline(c.text, c.change, c.mergeKey))
      emit viewChanged(kViewComparison);  // a refused comparison is not shown as in force
  if (startAfterPending_ && pendingChanges_.empty()) {
    startAfterPending_ = false;
    undo_->clear();
  }
}

void Session::beginInitialDrag() {
  dragKept_ = controller_->copyTimeline();
  dragBefore_ = controller_->initialOverrides();
  dragPending_.reset();
}

void Session::dragInitial(const std::map<std::string, double>& overrides) {
  const bool scheduled = dragPending_.has_value();
  dragPending_ = overrides;
  if (!scheduled) QTimer::singleShot(0, this, &Session::applyDrag);
}

void Session::applyDrag() {
  if (!dragPending_) return;
  std::map<std::string, double> overrides = std::move(*dragPending_);
  dragPending_.reset();
  const std::map<std::string, double> before = controller_->initialOverrides();
  try {
    controller_->setInitialOverrides(overrides);
    // The constraints may not allow a dragged velocity (a sleigh cannot slide sideways): what
    // they allow becomes the value set, so no note reports a value nobody typed.
    const nh::StateLayout& layout = controller_->primary().layout().state;
    const std::vector<double>& x0 = controller_->initialState();
    bool completed = false;
    for (auto& [name, value] : overrides) {
      const auto was = before.find(name);
      if (was != before.end() && was->second == value) continue;  // not dragged
      if (const int pos = layout.find(name); pos >= 0 && x0[layout.index[pos]] != value) {
        value = x0[layout.index[pos]];
        completed = true;
      }
    }
    if (completed) controller_->setInitialOverrides(overrides);
    controller_->reset();  // the worker records the new start; the next tick shows it
  } catch (const nh::Error&) {
    // An unreachable state while dragging: keep the last good one.
  }
}

void Session::endInitialDrag() {
  applyDrag();
  const std::map<std::string, double> after = controller_->initialOverrides();
  if (after == dragBefore_) {
    dragKept_.reset();
    return;
  }
  undo_->push(new SetInitialCommand(this, dragBefore_, after, true, true, std::move(dragKept_)));
}

void Session::restartForEditing(const std::function<void()>& start) {
  auto kept = controller_->copyTimeline();
  const double shownUntil = controller_->primary().lastTime();
  start();
  if (!kept || shownUntil <= 0) return;
  undo_->push(
      new ReplaceTimelineCommand(this, std::move(kept), tr("Edit start (restart from t = 0)")));
  emit notice(tr("Edit start: the run restarted from its initial state; %1 brings back the "
                 "%2 s recorded before")
                  .arg(Session::undoKey())
                  .arg(shownUntil, 0, 'f', 1),
              10000);
}

void Session::openStudyRun(const QStringList& names, const QVector<double>& values) {
  const nh::SystemModel& system = controller_->system();
  const nh::StateLayout layout = nh::stateLayout(system, controller_->scenario().dynamics);
  const std::map<std::string, double> initialBefore = controller_->initialOverrides();
  std::map<std::string, double> initialAfter = initialBefore;
  std::vector<std::pair<std::string, double>> parameters;
  for (int i = 0; i < names.size(); ++i) {
    const std::string name = names[i].toStdString();
    if (system.parameterIndex(name) >= 0)
      parameters.emplace_back(name, values[i]);
    else if (layout.find(name) >= 0)
      initialAfter[name] = values[i];
    else
      return reportError(
          tr("Cannot open this run: '%1' is neither a parameter nor a state variable of %2")
              .arg(names[i], QString::fromStdString(system.name())));
  }
  // The run starts at t = 0: the edit is made there, so it forks the history at the start
  // and its undo brings the replaced history back.
  controller_->seek(0);
  undo_->beginMacro(tr("Open study run"));
  for (const auto& [name, value] : parameters)
    undo_->push(new SetParameterCommand(this, name, controller_->parameter(name), value));
  if (initialAfter != initialBefore)
    undo_->push(new SetInitialCommand(this, initialBefore, initialAfter, true, false));
  undo_->endMacro();
  controller_->play();
}

// Play from a scrubbed moment replaced what followed it: said, and undoable.
void Session::onHistoryForked(double t, std::shared_ptr<SimulationController::Timeline> replaced) {
  emit notice(tr("Resumed from t = %1 s: the history after it was replaced (%2 brings it back)")
                  .arg(t, 0, 'f', 2)
                  .arg(Session::undoKey()),
              10000);
  undo_->push(new ReplaceTimelineCommand(this, std::move(replaced),
                                         tr("Resume from t = %1 s").arg(t, 0, 'f', 2)));
}

}  // namespace nhui

namespace nhui {

// ---- Planned motions ----------------------------------------------------------------------

nh::OptimalControlOptions Session::planOptions(const PlanSettings& settings) const {
  return planProblem(controller_->systemPtr(), controller_->scenario(), settings);
}

bool Session::solvePlan(const PlanSettings& settings, QString& error) {
  if (planSolver_->running()) {
    error = tr("a plan is being solved (Cancel it first)");
    return false;
  }
  try {
    planSolver_->start(controller_->systemPtr(), planOptions(settings), settings);
  } catch (const nh::Error& e) {
    error = QString::fromUtf8(e.what());
    return false;
  }
  filePlanPending_ = false;
  return true;
}

bool Session::playPlan(const PlanOutcome& outcome, size_t index, QString& error) {
  if (outcome.system != controller_->systemPtr() ||
      outcome.parameters != controller_->parameters()) {
    error = tr("the plan was solved for another system or other parameters: solve it again");
    return false;
  }
  if (index >= outcome.result.extremals.size()) {
    error = tr("there is no extremal %1").arg(index + 1);
    return false;
  }
  const nh::Extremal& extremal = outcome.result.extremals[index];
  PlanRuns played = makePlanRuns(outcome.system, outcome.parameters, outcome.result, index);
  std::vector<std::unique_ptr<RunHistory>> runs;
  runs.push_back(std::move(played.plan));
  if (played.companion) runs.push_back(std::move(played.companion));
  if (!played.companionFailure.empty())
    emit notice(
        tr("No nonholonomic comparison: %1").arg(QString::fromStdString(played.companionFailure)),
        8000);
  PlanSettings shown = outcome.settings;
  shown.played = static_cast<int>(index);
  auto replaced = controller_->swapTimeline(controller_->planTimeline(std::move(runs), shown));
  controller_->seek(0);
  undo_->push(new ReplaceTimelineCommand(
      this, std::move(replaced),
      tr("Play extremal %1 (cost %2)").arg(index + 1).arg(extremal.cost, 0, 'g', 6)));
  controller_->play();
  return true;
}

void Session::onFilePlanSolved(std::shared_ptr<const PlanOutcome> outcome) {
  if (!std::exchange(filePlanPending_, false)) return;
  if (outcome->result.extremals.empty()) {
    reportError(tr("The scenario's plan has no extremal (best residual %1)")
                    .arg(outcome->result.bestResidual, 0, 'g', 3));
    return;
  }
  const bool fresh = undo_->count() == 0;  // nothing edited since the file was opened
  // The extremal the file was saved playing, when the solve found as many again.
  QString error;
  if (!playPlan(*outcome, playedExtremal(outcome->settings, outcome->result), error)) {
    reportError(tr("The scenario's plan could not be played: %1").arg(error));
    return;
  }
  if (fresh) undo_->clear();  // the played plan is the file's state, not an edit
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
