// The recorded histories of SimulationController (simulation_controller.h): the jobs given to
// the worker, restarts from the initial state or from a recorded sample (a fork, whose
// replaced history is returned for undo), timelines copied and swapped back in with their
// settings, the parameters in force at the displayed moment, and an edit taken back.
#include <algorithm>
#include <cmath>

#include "core/nh/errors.h"
#include "ui/sim/simulation_controller.h"

namespace nhui {

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
  // The loaded scenario's edits after t0 (at t0 too for a start at 0).
  job.comparison = comparisonChoice();
  nextScheduled_.assign(2, scheduled_.size());
  for (size_t k = 0; k < scheduled_.size(); ++k) {
    if (scheduled_[k].t < t0 || (scheduled_[k].t == t0 && !(t0 == 0 && emitInitial))) continue;
    job.edits.assign(scheduled_.begin() + static_cast<std::ptrdiff_t>(k), scheduled_.end());
    nextScheduled_.assign(2, k);
    break;
  }
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

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
