#include "ui/sim/simulation_worker.h"

#include "core/nh/errors.h"
#include "core/nh/run_checks.h"

namespace nhui {

namespace {
struct ChunkAbandoned {};  // thrown by the step check: a new job or a halt is waiting
}  // namespace

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
  struct Run {
    std::unique_ptr<nh::Simulation> sim;
    RecordLayout layout;
    bool failed = false;
    nh::Observables obs;
    std::vector<double> row;
    nh::SceneFrame scene;
    std::vector<double> buffer;
    nh::EnergyDriftWatch drift;
    nh::ConstraintRankWatch rank;
    bool driftReported = false, rankReported = false;
  };
  std::vector<Run> runs;
  Job job;
  bool active = false;
  long chunk = 0;

  while (true) {
    {
      std::unique_lock lock(mutex_);
      auto ready = [&] {
        if (stop_ || pending_ || haltRequested_ != haltAcknowledged_) return true;
        if (!active) return false;
        return job.t0 + chunk * kChunkSamples * job.dtOut < target_.load();
      };
      // No timeout: every change of what `ready` reads is made under the mutex and notified.
      while (!ready()) {
        if (beforeWait_) beforeWait_();
        wake_.wait(lock);
      }
      if (stop_) return;
      abandon_.store(false);  // what was asked for is taken up now, under the lock
      if (haltRequested_ != haltAcknowledged_) {
        active = false;
        runs.clear();
        haltAcknowledged_ = haltRequested_;
        haltDone_.notify_all();
        continue;
      }
      if (pending_) {
        job = std::move(*pending_);
        pending_.reset();
        lock.unlock();
        runs.clear();
        active = true;
        chunk = 0;
        reached_.store(job.t0);
        for (size_t i = 0; i < job.runs.size(); ++i) {
          RunSetup& setup = job.runs[i];
          Run run;
          run.layout = setup.layout;
          try {
            run.sim = std::make_unique<nh::Simulation>(setup.system, setup.dynamics,
                                                       setup.formulation, setup.options);
            // State first: setting the parameters projects the current state onto the
            // constraints as they read with the new values (the table's Ω, say).
            run.sim->setState(job.t0, setup.x0);
            run.sim->setParameters(setup.parameters);
            run.sim->setGrowthLookahead(job.growthLookahead);
            run.sim->setStepCheck([this](double) {
              if (abandon_.load(std::memory_order_relaxed)) throw ChunkAbandoned{};
            });
          } catch (const std::exception& e) {
            run.failed = true;
            std::lock_guard relock(mutex_);
            outbox_.push_back({job.epoch, static_cast<int>(i), 0, {}, e.what(), {}});
          }
          runs.push_back(std::move(run));
        }
        if (runs.empty() || runs[0].failed) active = false;
        continue;
      }
    }

    // One chunk of every live run, outside the lock.
    const double tEnd = job.t0 + (chunk + 1) * kChunkSamples * job.dtOut;
    std::vector<Output> produced;
    bool abandoned = false;
    for (size_t i = 0; i < runs.size() && !abandoned; ++i) {
      Run& run = runs[i];
      if (run.failed) continue;
      const int stride = run.layout.stride();
      run.buffer.clear();
      bool skipFirst = !job.emitInitial && chunk == 0;
      std::string error;
      try {
        run.sim->advance(tEnd, job.dtOut, [&](double t, const double* x) {
          if (skipFirst) {  // the restart state is already recorded
            skipFirst = false;
            return;
          }
          const size_t at = run.buffer.size();
          run.buffer.resize(at + stride);
          try {
            fillRecord(run.sim->equations(), run.sim->workspace(), run.layout, t, x, run.obs,
                       run.row, run.scene, run.buffer.data() + at);
          } catch (...) {
            // A sample whose observables cannot be computed (a non-regular state, say) is
            // not recorded: a half-filled record would show as a sample at zero.
            run.buffer.resize(at);
            throw;
          }
          if (!run.driftReported)
            run.drift.add(run.sim->equations(), run.sim->workspace(), t, x, run.obs.energy);
          if (!run.rankReported) run.rank.add(t, run.obs);
        });
      } catch (const ChunkAbandoned&) {
        abandoned = true;  // the runs are replaced or dropped next: nothing of this chunk counts
        break;
      } catch (const std::exception& e) {
        error = e.what();
        run.failed = true;
      }
      std::string warning;  // both, joined, when they come in the same chunk
      if (!run.driftReported && !(warning = run.drift.warning()).empty()) run.driftReported = true;
      if (!run.rankReported) {
        const std::string rank = run.rank.warning();
        if (!rank.empty()) {
          warning += (warning.empty() ? "" : "; ") + rank;
          run.rankReported = true;
        }
      }
      if (!run.buffer.empty() || !error.empty() || !warning.empty())
        produced.push_back({job.epoch, static_cast<int>(i), stride, run.buffer, error, warning});
    }
    if (abandoned) continue;
    ++chunk;
    reached_.store(tEnd);
    {
      std::lock_guard lock(mutex_);
      for (auto& o : produced) outbox_.push_back(std::move(o));
      if (runs.empty() || runs[0].failed) active = false;
    }
  }
}

}  // namespace nhui
