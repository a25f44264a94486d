// The display clock of SimulationController (simulation_controller.h): play, pause, step,
// seek, reset and speed; the displayed moment and what is shown there; and tick(), which
// takes the worker's samples into the histories and keeps the worker a little ahead.
#include <QThread>
#include <algorithm>

#include "ui/sim/simulation_controller.h"

namespace nhui {

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
    if (!out.records.empty()) appendRecords(static_cast<size_t>(out.run), out.records, out.stride);
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

void SimulationController::appendRecords(size_t i, const std::vector<double>& records, int stride) {
  RunHistory& run = *runs_[i];
  const size_t count = records.size() / static_cast<size_t>(stride);
  size_t begin = 0;
  for (size_t r = 0; r < count && i < nextScheduled_.size(); ++r) {
    const double t = records[r * stride];
    const bool again =
        r > begin ? records[(r - 1) * stride] == t : !run.empty() && run.lastTime() == t;
    size_t& next = nextScheduled_[i];
    if (!again || next >= scheduled_.size() || scheduled_[next].t != t) continue;
    // The sample at an edit's time again, with the edited values (ScenarioRun::setEdits).
    run.append(records.data() + begin * stride, r - begin);
    const std::vector<double> edited =
        nh::editedParameters(*system_, run.parametersAt(run.size() - 1), scheduled_[next++]);
    run.setParametersFrom(
        run.size(),
        i == 0 ? edited : nh::comparisonParameters(*system_, edited, comparisonChoice()));
    begin = r;
  }
  run.append(records.data() + begin * stride, count - begin);
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
