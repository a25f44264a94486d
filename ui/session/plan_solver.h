// Solves a plan (nh::solveOptimalControl) on a worker thread so the window never waits: the
// fraction done as it goes, Cancel, and the extremals or the one-line reason at the end. The
// result carries the system and parameters it was solved for, so a Play after the user
// switched systems can be refused. Qt Core only.
#pragma once

#include <QObject>
#include <QString>
#include <atomic>
#include <memory>
#include <vector>

#include "core/nh/optimal_control.h"
#include "ui/sim/plan_run.h"

class QThread;

namespace nhui {

// A solved plan: what it was solved for and the extremals.
struct PlanOutcome {
  std::shared_ptr<const nh::SystemModel> system;
  std::vector<double> parameters;
  PlanSettings settings;
  nh::OptimalControlResult result;
};

class PlanSolver : public QObject {
  Q_OBJECT

 public:
  explicit PlanSolver(QObject* parent = nullptr);
  ~PlanSolver() override;  // cancels a running solve and waits for it

  // Starts solving; false while another solve runs. `options` holds parameters, start and
  // targets (the system's order; see nh::OptimalControlOptions).
  bool start(std::shared_ptr<const nh::SystemModel> system,
             const nh::OptimalControlOptions& options, const PlanSettings& settings);
  void cancel();  // the solve stops at its next progress report (failed, cancelled)
  bool running() const { return thread_ != nullptr; }
  // Blocks until the running solve has ended and its signal went out (tests); false on timeout.
  bool wait(int timeoutMs);

 signals:
  void progressed(double fraction);
  void solved(std::shared_ptr<const nhui::PlanOutcome> outcome);
  // InputError's one line, or "cancelled"; `cancelled` tells which.
  void failed(const QString& message, bool cancelled);

 private:
  void finish();
  QThread* thread_ = nullptr;
  std::atomic<bool> cancel_{false};
  std::atomic<double> fraction_{0};
  std::shared_ptr<PlanOutcome> outcome_;  // filled by the thread
  QString error_;
  bool cancelled_ = false;
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
