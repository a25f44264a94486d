// `nhsim sweep --mpi` (sweep_mpi.h, which says how the work is shared): rows packed for the
// wire, rank 0's hand-out of chunks and writing, the other ranks' workers, and the collective
// checks that end every rank alike on bad input.
#include "app/nhsim/sweep_mpi.h"

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "app/nhsim/cli_support.h"
#include "app/nhsim/command_line.h"
#include "app/nhsim/sweep_command.h"

namespace nh::cli {

namespace {

constexpr int kRequestTag = 1;  // worker → rank 0: its finished rows and a request for more
constexpr int kChunkTag = 2;    // rank 0 → worker: runs [first, end); empty: no more
constexpr long kMaxChunk = 256;
// How long rank 0's main thread sleeps when no row and no request came (a request waits at
// most this long for its answer).
constexpr auto kPoll = std::chrono::microseconds(250);

// ---- Rows on the wire: index, varied values, measures (native doubles: ranks of one job
// run the same binary on like machines), status length and bytes. A request starts with
// two int32: "stopping" (the worker was interrupted and takes no more runs) and its signal.

template <class T>
void put(std::vector<char>& out, const T& value) {
  const char* bytes = reinterpret_cast<const char*>(&value);
  out.insert(out.end(), bytes, bytes + sizeof value);
}

template <class T>
T take(const std::vector<char>& in, size_t& at) {
  if (at + sizeof(T) > in.size()) throw Error("internal error: a short MPI message");
  T value;
  std::memcpy(&value, in.data() + at, sizeof value);
  at += sizeof value;
  return value;
}

void pack(const study::RunResult& result, std::vector<char>& out) {
  put<std::int64_t>(out, result.index);
  for (const double v : result.varied) put(out, v);
  for (const double v : result.measures) put(out, v);
  put<std::uint32_t>(out, static_cast<std::uint32_t>(result.status.size()));
  out.insert(out.end(), result.status.begin(), result.status.end());
  put(out, result.energyDrift);
}

study::RunResult unpack(const std::vector<char>& in, size_t& at, int varied, int measures) {
  study::RunResult result;
  result.index = static_cast<long>(take<std::int64_t>(in, at));
  for (int k = 0; k < varied; ++k) result.varied.push_back(take<double>(in, at));
  for (int k = 0; k < measures; ++k) result.measures.push_back(take<double>(in, at));
  const auto length = take<std::uint32_t>(in, at);
  if (at + length > in.size()) throw Error("internal error: a short MPI message");
  result.status.assign(in.data() + at, length);
  at += length;
  result.energyDrift = take<double>(in, at);
  return result;
}

struct Chunk {
  long first = 0, end = 0;
  bool empty() const { return first >= end; }
};

// Guided scheduling of [0, total) over `workers` workers; close() ends it (a stop).
class Scheduler {
 public:
  Scheduler(long total, long workers) : total_(total), workers_(std::max(1L, workers)) {}
  Chunk take() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closed_ || next_ >= total_) return {};
    const long left = total_ - next_;
    const long size = std::clamp((left + 2 * workers_ - 1) / (2 * workers_), 1L, kMaxChunk);
    const Chunk chunk{next_, next_ + size};
    next_ += size;
    return chunk;
  }
  void close() {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
  }

 private:
  std::mutex mutex_;
  long next_ = 0, total_, workers_;
  bool closed_ = false;
};

// The exit code and message of an exception, as reportErrors maps them.
int codeOf(const std::exception_ptr& error, std::string& message) {
  try {
    std::rethrow_exception(error);
  } catch (const SingularSystemError& e) {
    message = e.what();
    return kSimulationError;
  } catch (const IntegrationError& e) {
    message = e.what();
    return kSimulationError;
  } catch (const InputError& e) {
    message = e.what();
    return kInputError;
  } catch (const std::exception& e) {
    message = e.what();
    return kOutputError;
  }
}

const char* levelName(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE:
      return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED:
      return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED:
      return "MPI_THREAD_SERIALIZED";
    default:
      return "MPI_THREAD_MULTIPLE";
  }
}

struct Job {
  int rank = 0, size = 1, jobs = 1;
  const study::Study* study = nullptr;
  std::atomic<bool>* stop = nullptr;  // the signal flag (catchSweepStopSignals)
};

// A rank above 0: `jobs` workers, each asking rank 0 for chunks and sending its rows back.
// Returns the signal that stopped this rank, 0 if none.
void remoteWorker(const Job& job, std::mutex& mpi) {
  const study::Study& sweep = *job.study;
  study::StudyWorker worker(sweep);
  study::RunResult result;
  std::vector<char> outbox;
  bool stopping = false;
  for (;;) {
    std::vector<char> message;
    put<std::int32_t>(message, stopping ? 1 : 0);
    put<std::int32_t>(message, sweepStopSignal());
    message.insert(message.end(), outbox.begin(), outbox.end());
    outbox.clear();
    long chunk[2] = {0, 0};
    {
      std::lock_guard<std::mutex> lock(mpi);
      MPI_Send(message.data(), static_cast<int>(message.size()), MPI_BYTE, 0, kRequestTag,
               MPI_COMM_WORLD);
      MPI_Recv(chunk, 2, MPI_LONG, 0, kChunkTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (chunk[0] >= chunk[1]) return;  // also the answer to a stopping request
    for (long i = chunk[0]; i < chunk[1] && !stopping; ++i) {
      if (job.stop->load()) {
        stopping = true;
        break;
      }
      try {
        sweep.run(i, worker, result, job.stop);
      } catch (const study::RunCancelled&) {
        stopping = true;
        break;
      }
      pack(result, outbox);
    }
  }
}

int remoteRank(const Job& job) {
  std::mutex mpi;
  std::vector<std::thread> pool;
  for (int t = 1; t < job.jobs; ++t) pool.emplace_back([&] { remoteWorker(job, mpi); });
  remoteWorker(job, mpi);
  for (auto& thread : pool) thread.join();
  return sweepStopSignal() != 0 ? 128 + sweepStopSignal() : kOk;
}

// Rank 0: `jobs` local workers and, on this thread, the answers to the other ranks, the
// reorder buffer and the writing.
class RootRank {
 public:
  RootRank(const Job& job, SweepRecorder& recorder)
      : job_(job),
        recorder_(recorder),
        sweep_(*job.study),
        scheduler_(sweep_.runCount(), static_cast<long>(job.size) * job.jobs),
        stop_(*job.stop),
        measures_(static_cast<int>(sweep_.columns().size()) - sweep_.variedCount() - 1),
        running_(job.jobs),
        remote_((job.size - 1) * job.jobs) {}

  int run() {
    std::vector<std::thread> pool;
    for (int t = 0; t < job_.jobs; ++t) pool.emplace_back([this] { localWorker(); });
    try {
      for (;;) {
        const bool busy = answerRequests();
        const bool idle = collectLocal(busy);
        deliverInOrder();
        if (stop_.load()) scheduler_.close();
        if (idle && remote_ == 0) break;
      }
    } catch (...) {
      stop_ = true;
      scheduler_.close();
      for (auto& thread : pool) thread.join();
      throw;
    }
    for (auto& thread : pool) thread.join();
    if (signal_ == 0) signal_ = sweepStopSignal();
    char workers[64];
    std::snprintf(workers, sizeof workers, "%d MPI ranks × %d thread%s", job_.size, job_.jobs,
                  job_.jobs == 1 ? "" : "s");
    return recorder_.finish(delivered_, signal_, workers);
  }

 private:
  // One local worker: chunks from the scheduler, each finished run handed to the main thread.
  void localWorker() {
    try {
      study::StudyWorker worker(sweep_);
      study::RunResult result;
      for (Chunk chunk = scheduler_.take(); !chunk.empty(); chunk = scheduler_.take()) {
        for (long i = chunk.first; i < chunk.end; ++i) {
          if (stop_.load()) throw study::RunCancelled{};
          sweep_.run(i, worker, result, &stop_);
          std::lock_guard<std::mutex> lock(mutex_);
          finished_.push_back(std::move(result));
          wake_.notify_one();
        }
      }
    } catch (const study::RunCancelled&) {
    } catch (...) {  // memory: stops the study, rethrown by collectLocal
      std::lock_guard<std::mutex> lock(mutex_);
      if (!failure_) failure_ = std::current_exception();
      stop_ = true;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    --running_;
    wake_.notify_one();
  }

  // Answers every request waiting: takes the rows it brings, notes a rank that stopped, and
  // sends the next chunk (an empty one: no more). Whether there was any.
  bool answerRequests() {
    bool busy = false;
    for (;;) {
      int flag = 0;
      MPI_Status status;
      MPI_Iprobe(MPI_ANY_SOURCE, kRequestTag, MPI_COMM_WORLD, &flag, &status);
      if (!flag) return busy;
      busy = true;
      int bytes = 0;
      MPI_Get_count(&status, MPI_BYTE, &bytes);
      message_.resize(static_cast<size_t>(bytes));
      MPI_Recv(message_.data(), bytes, MPI_BYTE, status.MPI_SOURCE, kRequestTag, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      size_t at = 0;
      const bool stopping = take<std::int32_t>(message_, at) != 0;
      const int theirs = take<std::int32_t>(message_, at);
      while (at < message_.size()) {
        study::RunResult result = unpack(message_, at, sweep_.variedCount(), measures_);
        const long index = result.index;
        pending_.emplace(index, std::move(result));
      }
      if (stopping) {  // a rank was interrupted: the whole study stops
        if (signal_ == 0) signal_ = theirs;
        stop_ = true;
      }
      if (stop_.load()) scheduler_.close();
      const Chunk chunk = scheduler_.take();
      if (chunk.empty()) --remote_;
      long answer[2] = {chunk.first, chunk.end};
      MPI_Send(answer, 2, MPI_LONG, status.MPI_SOURCE, kChunkTag, MPI_COMM_WORLD);
    }
  }

  // The local workers' finished runs into the reorder buffer, after a short wait when nothing
  // came (`busy`: requests were answered). Whether the local workers are all done; rethrows
  // a worker's failure.
  bool collectLocal(bool busy) {
    bool idle;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      if (!busy && finished_.empty() && running_ > 0)
        wake_.wait_for(lock, kPoll, [&] { return !finished_.empty() || running_ == 0; });
      else if (!busy && finished_.empty() && remote_ > 0) {
        lock.unlock();
        std::this_thread::sleep_for(kPoll);
        lock.lock();
      }
      batch_.swap(finished_);
      idle = running_ == 0;
      if (failure_) std::rethrow_exception(failure_);
    }
    for (auto& result : batch_) {
      const long index = result.index;
      pending_.emplace(index, std::move(result));
    }
    batch_.clear();
    return idle;
  }

  // The rows that continue the run order, to the recorder.
  void deliverInOrder() {
    for (auto it = pending_.begin(); it != pending_.end() && it->first == delivered_;
         it = pending_.erase(it)) {
      recorder_.add(it->second);
      ++delivered_;
    }
  }

  const Job& job_;
  SweepRecorder& recorder_;
  const study::Study& sweep_;
  Scheduler scheduler_;
  std::atomic<bool>& stop_;
  const int measures_;

  std::mutex mutex_;  // guards finished_, running_ and failure_
  std::condition_variable wake_;
  std::vector<study::RunResult> finished_;
  int running_;
  std::exception_ptr failure_;

  std::map<long, study::RunResult> pending_;  // rows by run index, waiting for their turn
  long delivered_ = 0;
  int remote_;      // remote workers not yet told "no more"
  int signal_ = 0;  // the signal that stopped a rank
  std::vector<char> message_;
  std::vector<study::RunResult> batch_;
};

}  // namespace

int sweepMpiCommand(int argc, char** argv) {
  int provided = MPI_THREAD_SINGLE;
  // Rank 0's workers never call MPI; other ranks' workers do, one at a time.
  const std::vector<std::string> args(argv + 1, argv + argc);
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
  Job job;
  MPI_Comm_rank(MPI_COMM_WORLD, &job.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &job.size);

  // Everything that may refuse the command, on every rank; then one collective verdict.
  int code = kOk;
  std::string message;
  SweepOptions line;
  std::unique_ptr<study::Study> plan;
  std::unique_ptr<SweepRecorder> recorder;
  bool help = false;
  try {
    const CommandLine words = parseArguments(args);
    if (const auto* request = std::get_if<HelpRequest>(&words)) {
      help = true;
      message = request->text;
    } else {
      // The words start with "sweep" (isMpiSweep): they are the sweep's options or help.
      line = std::get<SweepOptions>(parseCommandLine(args));
      plan = studyOf(line);
      job.jobs = jobsOf(line, 1);
      const int needed = job.jobs > 1 ? MPI_THREAD_SERIALIZED : MPI_THREAD_FUNNELED;
      if (provided < needed)
        throw InputError(std::string("this MPI library grants ") + levelName(provided) +
                         ", --jobs " + std::to_string(job.jobs) + " with --mpi needs " +
                         levelName(needed) + (job.jobs > 1 ? " (try --jobs 1)" : ""));
      if (job.rank == 0) recorder = std::make_unique<SweepRecorder>(line, args, *plan);
    }
  } catch (...) {
    code = codeOf(std::current_exception(), message);
  }
  int worst = code, rootCode = code;
  MPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Bcast(&rootCode, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (help) {
    if (job.rank == 0) std::fputs(message.c_str(), stdout);
    MPI_Finalize();
    return kOk;
  }
  if (worst != kOk) {
    recorder.reset();  // removes the temporary: nothing written
    if (job.rank == 0 && code != kOk)
      std::fprintf(stderr, "nhsim: error: %s\n", oneLine(message).c_str());
    else if (code != kOk && rootCode == kOk)
      std::fprintf(stderr, "nhsim: error: on MPI rank %d: %s\n", job.rank,
                   oneLine(message).c_str());
    MPI_Finalize();
    return worst;
  }

  job.study = plan.get();
  job.stop = &catchSweepStopSignals();
  if (job.rank != 0) {
    const int result = remoteRank(job);
    MPI_Finalize();
    return result;
  }
  int result = kOk;
  try {
    result = RootRank(job, *recorder).run();
  } catch (...) {
    result = codeOf(std::current_exception(), message);
    recorder.reset();  // the temporary is removed before the other ranks are ended
    std::fprintf(stderr, "nhsim: error: %s (ending all %d MPI ranks)\n", oneLine(message).c_str(),
                 job.size);
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, result);
  }
  recorder.reset();
  std::fflush(stdout);
  MPI_Finalize();
  return result;
}

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
