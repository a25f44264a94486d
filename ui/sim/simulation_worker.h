// The simulation thread: the only place where simulation state changes. It integrates one
// or two runs (primary and comparison) in lockstep, in chunks of simulated time laid on a
// fixed grid from the restart time, so a run depends only on its start (t0, x0, parameters)
// and never on wall-clock pacing. The GUI queues jobs (every edit is a restart from a
// recorded state with new settings), moves the target time along, and collects records.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/nh/comparison.h"
#include "core/nh/simulation.h"
#include "ui/sim/run_history.h"

namespace nhui {

class SimulationWorker {
 public:
  // A run of the job (nh::RunSetup: system, dynamics, formulation, integrator, parameters,
  // start) and the layout of its records.
  struct RunSetup : nh::RunSetup {
    RecordLayout layout;
  };
  struct Job {
    long epoch = 0;
    double t0 = 0;
    double dtOut = 0.01;
    bool emitInitial = true;  // false when t0 is already the last recorded sample
    // Simulated seconds ahead that a vakonomic run must be able to reach within its step
    // budget (nh::Simulation::setGrowthLookahead): the chunks alone end too soon to tell.
    double growthLookahead = 0;
    std::vector<RunSetup> runs;  // [0] primary, [1] comparison (optional)
    // A loaded scenario's timed edits still to come (nh::ScenarioRun::setEdits), applied to the
    // comparison run through `comparison`.
    std::vector<nh::TimedEdit> edits;
    nh::Comparison comparison;
  };
  // Records produced since the last take(), per run, or the error that stopped a run.
  struct Output {
    long epoch = 0;
    int run = 0;
    int stride = 0;
    std::vector<double> records;
    std::string error;  // non-empty: the run stopped here
    // Non-empty: said once per job, the run goes on (multipliers of a constraint losing
    // rank, nh::ConstraintRankWatch).
    std::string warning;
    // Non-empty: a conserved energy drifting numerically (nh::EnergyDriftWatch), said again
    // each time the change has grown by a tenth; the run goes on.
    std::string drift;
  };

  SimulationWorker();
  ~SimulationWorker();

  // Replaces whatever the thread was doing after its current chunk.
  void submit(Job job);
  // Integrate until the runs reach this simulated time (then wait).
  void setTarget(double t);
  // Drops the pending job and stops integrating until the next submit(). Returns once the
  // thread has finished its current chunk and let go of the runs: nothing of the halted job is
  // added to the outbox afterwards (what is already there stays for take()).
  void halt();
  std::vector<Output> take();
  // Simulated time the worker has reached (for its epoch).
  double reachedTime() const { return reached_.load(); }

  // Samples per chunk (an advance call; a run goes on through its calls unchanged).
  static constexpr int kChunkSamples = 5;

  // For tests: called on the worker thread, with the worker's mutex held, each time it has
  // found nothing to do and is about to wait. Empty: none.
  void setBeforeWaitHook(std::function<void()> hook);

 private:
  struct LoopState;  // the job the thread works on, its runs and the next chunk
  void loop();
  // With the mutex held: waits until there is something to do (a stop, a new job, a halt, or
  // a chunk to integrate below the target).
  void waitForWork(std::unique_lock<std::mutex>& lock, const LoopState& state);
  void acknowledgeHalt(LoopState& state);  // with the mutex held: the runs are dropped
  // Without the mutex: sets up the job's runs (a run that cannot start says why in the outbox).
  void startJob(Job job, LoopState& state);
  // Without the mutex: integrates one chunk of every live run and posts what it gave, unless
  // a new job or a halt abandoned it.
  void runChunk(LoopState& state);

  std::thread thread_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable haltDone_;
  std::optional<Job> pending_;
  std::vector<Output> outbox_;
  std::atomic<double> target_{0};
  std::atomic<double> reached_{0};
  // Set when a new job, a halt or the end is asked for: the chunk being integrated is given up
  // at its next step check (nh::Simulation::setStepCheck), so a chunk that would take long (a
  // motion too fast for its steps) never keeps the window waiting.
  std::atomic<bool> abandon_{false};
  bool stop_ = false;
  long haltRequested_ = 0;
  long haltAcknowledged_ = 0;
  std::function<void()> beforeWait_;
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
