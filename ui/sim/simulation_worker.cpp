// SimulationWorker (simulation_worker.h): the thread's loop, taking jobs, advancing the primary
// and comparison runs chunk by chunk up to the target time, and handing records, warnings and
// drift back to the GUI thread through take().
#include "ui/sim/simulation_worker.h"

#include <algorithm>

#include "core/nh/errors.h"
#include "core/nh/scenario_run.h"

namespace nhui {

namespace {

struct ChunkAbandoned {};  // thrown by the step check: a new job or a halt is waiting

// One run of the job (the core's run loop, nh::ScenarioRun) and the scratch its records are
// made in.
struct LiveRun {
  std::unique_ptr<nh::ScenarioRun> run;
  RecordLayout layout;
  bool failed = false;
  nh::SceneFrame scene;
  std::vector<double> buffer;
  bool rankReported = false;
  double driftReported = 0;  // the relative energy change last reported (0: none yet)
};

using EquationsPtr = std::shared_ptr<const nh::EquationsOfMotion>;

// The run of one setup from the job's start; a new job or a halt (`abandon`) gives up its
// chunk at the next step. Throws what nh::Simulation throws for a refused start.
std::unique_ptr<nh::ScenarioRun> startedRun(const SimulationWorker::RunSetup& setup,
                                            const SimulationWorker::Job& job,
                                            const std::atomic<bool>& abandon,
                                            EquationsPtr& lastEquations) {
  auto run =
      std::make_unique<nh::ScenarioRun>(setup, job.t0, nh::equationsFor(setup, lastEquations));
  run->setGrowthLookahead(job.growthLookahead);
  run->setEdits(job.edits, &setup == &job.runs.front() ? nh::Comparison{} : job.comparison);
  run->setStopCheck([&abandon](double) {
    if (abandon.load(std::memory_order_relaxed)) throw ChunkAbandoned{};
  });
  return run;
}

// Integrates `live` up to tEnd, its records into live.buffer (the restart state left out when
// the job says it is recorded already). A failure (a non-finite sample among them) is kept in
// `error` and marks the run failed; ChunkAbandoned is passed on.
void advanceRun(LiveRun& live, const SimulationWorker::Job& job, bool firstChunk, double tEnd,
                std::string& error) {
  const int stride = live.layout.stride();
  live.buffer.clear();
  bool skipFirst = !job.emitInitial && firstChunk;
  try {
    live.run->advance(tEnd, job.dtOut, [&](const nh::ScenarioRun::Sample& sample) {
      if (skipFirst) {  // the restart state is already recorded
        skipFirst = false;
        return;
      }
      const size_t at = live.buffer.size();
      live.buffer.resize(at + stride);
      try {
        // The run's equations now: a timed edit brings new ones (and a new simulation).
        nh::recordFromRow(live.run->simulation().equations(), live.layout, sample.t, sample.x,
                          sample.observed, sample.row, live.scene, live.buffer.data() + at);
      } catch (...) {
        live.buffer.resize(at);  // a half-filled record would show as a sample at zero
        throw;
      }
    });
  } catch (const ChunkAbandoned&) {
    throw;
  } catch (const std::exception& e) {
    error = e.what();
    live.failed = true;
  }
}

// What the run's energy watch says anew: again each time the drift has grown by a tenth since
// it was last said, so the banner keeps up with the plot of a run that goes on drifting.
std::string newDrift(LiveRun& run) {
  const nh::EnergyDriftWatch& drift = run.run->tally().drift;
  const double change = drift.relativeChange();
  if (!(change > 1.1 * run.driftReported)) return {};
  std::string warning = drift.warning();
  if (!warning.empty()) run.driftReported = change;
  return warning;
}

// What the run's rank watch says, once per job.
std::string newWarnings(LiveRun& run) {
  if (run.rankReported) return {};
  std::string rank = run.run->tally().rank.warning();
  if (!rank.empty()) run.rankReported = true;
  return rank;
}

}  // namespace

// What the thread works on: the job taken last, its runs and the next chunk. Only the
// worker thread touches it.
struct SimulationWorker::LoopState {
  std::vector<LiveRun> runs;
  EquationsPtr lastEquations[2];  // per run index (primary, comparison): see equationsFor
  Job job;
  bool active = false;
  long chunk = 0;
};

SimulationWorker::SimulationWorker() {
  thread_ = std::thread([this] { loop(); });
}

SimulationWorker::~SimulationWorker() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
    abandon_.store(true);
  }
  wake_.notify_all();
  thread_.join();
}

void SimulationWorker::submit(Job job) {
  {
    std::lock_guard lock(mutex_);
    pending_ = std::move(job);
    abandon_.store(true);
  }
  wake_.notify_all();
}

// The predicate the thread waits on is read under the mutex, so it is changed under the
// mutex too: a change between the thread's check and its wait would otherwise be missed.
void SimulationWorker::setTarget(double t) {
  {
    std::lock_guard lock(mutex_);
    target_.store(t);
  }
  wake_.notify_all();
}

void SimulationWorker::halt() {
  std::unique_lock lock(mutex_);
  pending_.reset();
  abandon_.store(true);
  const long request = ++haltRequested_;
  wake_.notify_all();
  haltDone_.wait(lock, [&] { return haltAcknowledged_ >= request || stop_; });
}

void SimulationWorker::setBeforeWaitHook(std::function<void()> hook) {
  std::lock_guard lock(mutex_);
  beforeWait_ = std::move(hook);
}

std::vector<SimulationWorker::Output> SimulationWorker::take() {
  std::lock_guard lock(mutex_);
  std::vector<Output> out;
  out.swap(outbox_);
  return out;
}

void SimulationWorker::loop() {
  LoopState state;
  while (true) {
    std::unique_lock lock(mutex_);
    waitForWork(lock, state);
    if (stop_) return;
    abandon_.store(false);  // what was asked for is taken up now, under the lock
    if (haltRequested_ != haltAcknowledged_) {
      acknowledgeHalt(state);
      continue;
    }
    if (pending_) {
      Job job = std::move(*pending_);
      pending_.reset();
      lock.unlock();
      startJob(std::move(job), state);
      continue;
    }
    lock.unlock();
    runChunk(state);
  }
}

void SimulationWorker::waitForWork(std::unique_lock<std::mutex>& lock, const LoopState& state) {
  auto ready = [&] {
    if (stop_ || pending_ || haltRequested_ != haltAcknowledged_) return true;
    if (!state.active) return false;
    return state.job.t0 + state.chunk * kChunkSamples * state.job.dtOut < target_.load();
  };
  // No timeout: every change of what `ready` reads is made under the mutex and notified.
  while (!ready()) {
    if (beforeWait_) beforeWait_();
    wake_.wait(lock);
  }
}

void SimulationWorker::acknowledgeHalt(LoopState& state) {
  state.active = false;
  state.runs.clear();
  haltAcknowledged_ = haltRequested_;
  haltDone_.notify_all();
}

void SimulationWorker::startJob(Job job, LoopState& state) {
  state.job = std::move(job);
  state.runs.clear();
  state.active = true;
  state.chunk = 0;
  reached_.store(state.job.t0);
  for (size_t i = 0; i < state.job.runs.size(); ++i) {
    LiveRun run;
    run.layout = state.job.runs[i].layout;
    try {
      run.run = startedRun(state.job.runs[i], state.job, abandon_,
                           state.lastEquations[std::min<size_t>(i, 1)]);
    } catch (const std::exception& e) {
      run.failed = true;
      std::lock_guard relock(mutex_);
      outbox_.push_back({state.job.epoch, static_cast<int>(i), 0, {}, e.what(), {}, {}});
    }
    state.runs.push_back(std::move(run));
  }
  if (state.runs.empty() || state.runs[0].failed) state.active = false;
}

void SimulationWorker::runChunk(LoopState& state) {
  // One chunk of every live run, outside the lock.
  const Job& job = state.job;
  const double tEnd = job.t0 + (state.chunk + 1) * kChunkSamples * job.dtOut;
  std::vector<Output> produced;
  for (size_t i = 0; i < state.runs.size(); ++i) {
    LiveRun& run = state.runs[i];
    if (run.failed) continue;
    std::string error;
    try {
      advanceRun(run, job, state.chunk == 0, tEnd, error);
    } catch (const ChunkAbandoned&) {
      return;  // the runs are replaced or dropped next: nothing of this chunk counts
    }
    const std::string warning = newWarnings(run), drift = newDrift(run);
    if (!run.buffer.empty() || !error.empty() || !warning.empty() || !drift.empty())
      produced.push_back(
          {job.epoch, static_cast<int>(i), run.layout.stride(), run.buffer, error, warning, drift});
  }
  ++state.chunk;
  reached_.store(tEnd);
  std::lock_guard lock(mutex_);
  for (auto& o : produced) outbox_.push_back(std::move(o));
  if (state.runs.empty() || state.runs[0].failed) state.active = false;
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
