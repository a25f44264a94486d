// PlanSolver (plan_solver.h): a plan solved on a worker thread, cancelled through a flag, and
// its outcome (the extremals or the reason) handed back on the GUI thread.
#include "ui/session/plan_solver.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QThread>

#include "core/nh/errors.h"

namespace nhui {

PlanSolver::PlanSolver(QObject* parent) : QObject(parent) {}

PlanSolver::~PlanSolver() {
  if (!thread_) return;
  cancel_ = true;
  thread_->wait();
  delete thread_;
}

bool PlanSolver::start(std::shared_ptr<const nh::SystemModel> system,
                       const nh::OptimalControlOptions& options, const PlanSettings& settings) {
  if (thread_) return false;
  cancel_ = false;
  fraction_ = 0;
  error_.clear();
  cancelled_ = false;
  outcome_ = std::make_shared<PlanOutcome>();
  outcome_->system = system;
  outcome_->parameters =
      options.parameters.empty() ? system->defaultParameters() : options.parameters;
  outcome_->settings = settings;
  thread_ = QThread::create([this, system, options] {
    const auto progress = [this](double f) {
      if (f > fraction_ + 0.01 || f >= 1) {
        fraction_ = f;
        QMetaObject::invokeMethod(
            this, [this, f] { emit progressed(f); }, Qt::QueuedConnection);
      }
      return !cancel_.load();
    };
    try {
      outcome_->result = nh::solveOptimalControl(system, options, progress);
    } catch (const nh::OptimalControlCancelled&) {
      cancelled_ = true;
      error_ = tr("cancelled");
    } catch (const std::exception& e) {
      error_ = QString::fromUtf8(e.what());
    }
  });
  connect(thread_, &QThread::finished, this, &PlanSolver::finish);
  thread_->start(QThread::LowPriority);
  return true;
}

void PlanSolver::cancel() { cancel_ = true; }

void PlanSolver::finish() {
  if (!thread_) return;
  thread_->wait();
  delete thread_;
  thread_ = nullptr;
  auto outcome = std::move(outcome_);
  if (!error_.isEmpty())
    emit failed(error_, cancelled_);
  else
    emit solved(outcome);
}

bool PlanSolver::wait(int timeoutMs) {
  QElapsedTimer timer;
  timer.start();
  while (thread_ && timer.elapsed() < timeoutMs) {
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    QThread::msleep(5);
  }
  return !thread_;
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
