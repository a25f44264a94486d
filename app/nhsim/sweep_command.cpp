// `nhsim sweep` on threads (sweep_command.h): the SweepRecorder that writes rows in run order
// and reports progress, the stop signals that end a study with its finished prefix, and what
// tells an MPI sweep (--mpi, the launcher's rank) for nhsim-sweep's main.
#include "app/nhsim/sweep_command.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string_view>
#include <thread>

#include "app/nhsim/sweep_output.h"
#include "core/nh/run_checks.h"
#include "core/study/study_runner.h"

namespace nh::cli {

namespace {

// Set by SIGINT, SIGTERM and SIGHUP (a lock-free atomic: async-signal-safe); the workers
// take no new run and stop the runs under way at their next sample.
std::atomic<bool> stopRequested{false};
volatile sig_atomic_t stopSignal = 0;
static_assert(std::atomic<bool>::is_always_lock_free);

void recordStop(int signal) {
  stopSignal = signal;
  stopRequested.store(true);
}

std::string duration(double seconds) {
  char text[32];
  if (seconds < 60)
    std::snprintf(text, sizeof text, "%.0f s", seconds);
  else if (seconds < 3600)
    std::snprintf(text, sizeof text, "%.0f min %02.0f s", std::floor(seconds / 60),
                  std::fmod(seconds, 60));
  else
    std::snprintf(text, sizeof text, "%.0f h %02.0f min", std::floor(seconds / 3600),
                  std::floor(std::fmod(seconds, 3600) / 60));
  return text;
}

}  // namespace

std::atomic<bool>& catchSweepStopSignals() {
  stopRequested = false;
  stopSignal = 0;
  struct sigaction action {};
  action.sa_handler = recordStop;
  sigemptyset(&action.sa_mask);
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(signal, &action, nullptr);
  return stopRequested;
}

int sweepStopSignal() { return static_cast<int>(stopSignal); }

bool isMpiSweep(const std::vector<std::string>& args) {
  return !args.empty() && args[0] == SweepOptions::kRow.name &&
         std::find(args.begin(), args.end(), "--mpi") != args.end();
}

int launcherRank() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"}) {
    const char* value = std::getenv(name);
    int rank = 0;
    if (value && std::from_chars(value, value + std::strlen(value), rank).ec == std::errc())
      return rank;
  }
  return -1;
}

SweepRecorder::SweepRecorder(const SweepOptions& line, const std::vector<std::string>& args,
                             const study::Study& study)
    : line_(line),
      study_(study),
      out_(openSweepOutput(line.output.out, line.format, study, commandEcho(args))),
      progress_(!line.output.quiet),
      tty_(::isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()),
      lastReport_(start_),
      // A tty gets one line rewritten 4 times a second; a log, a line every 10 s.
      interval_(tty_ ? std::chrono::milliseconds(250) : std::chrono::milliseconds(10'000)) {}

SweepRecorder::~SweepRecorder() = default;

void SweepRecorder::report(bool last) {
  const long total = study_.runCount();
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double rate = elapsed > 0 ? static_cast<double>(done_) / elapsed : 0;
  const std::string left =
      rate > 0 && done_ < total
          ? ", " + duration(static_cast<double>(total - done_) / rate) + " left"
          : "";
  std::fprintf(stderr, "%snhsim: sweep %ld/%ld runs, %.4g runs/s%s%s", tty_ ? "\r" : "", done_,
               total, rate, left.c_str(), tty_ ? "\033[K" : "\n");
  if (tty_ && last) std::fputc('\n', stderr);
  std::fflush(stderr);
}

void SweepRecorder::add(const study::RunResult& result) {
  out_->add(result);
  ++done_;
  if (result.status != "ok") ++failed_;
  if (result.energyDrift > kEnergyDriftThreshold) {
    ++drifted_;
    worstDrift_ = std::max(worstDrift_, result.energyDrift);
  }
  if (progress_) {
    const auto now = std::chrono::steady_clock::now();
    if (now - lastReport_ >= interval_) {
      lastReport_ = now;
      report(false);
    }
  }
}

int SweepRecorder::finish(long written, int signal, const std::string& workers) {
  const long total = study_.runCount();
  if (progress_ && (tty_ || written < total)) report(true);
  out_->commit(written);
  if (written < total) {
    std::fprintf(stderr, "nhsim: interrupted: %ld of %ld runs kept in %s\n", written, total,
                 line_.output.out == "-" ? "standard output" : line_.output.out.c_str());
    return 128 + (signal != 0 ? signal : SIGINT);
  }
  if (drifted_ > 0)  // once for the sweep, whatever the number of runs
    std::fprintf(stderr,
                 "nhsim: warning: %ld of %ld runs changed their energy by more than 1 %% (up to "
                 "%.3g %%) although the equations conserve it: the integration is inaccurate; "
                 "tighten the tolerance (--rtol, --atol) or the step\n",
                 drifted_, total, 100 * worstDrift_);
  if (!line_.output.quiet && line_.output.out != "-") {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::printf("%s: %ld runs (%ld ok, %ld not) in %s, %.4g runs/s on %s, written to %s\n",
                study_.spec().base.system.c_str(), total, total - failed_, failed_,
                duration(elapsed).c_str(), elapsed > 0 ? static_cast<double>(total) / elapsed : 0.0,
                workers.c_str(), line_.output.out.c_str());
  }
  return kOk;
}

int sweepCommand(const SweepOptions& line, const std::vector<std::string>& args) {
  if (line.mpi)  // main() sends --mpi to sweepMpiCommand where MPI was built
    throw UsageError(kNoMpiSupport);
  const std::unique_ptr<study::Study> plan = studyOf(line);
  const study::Study& sweep = *plan;
  const unsigned hardware = std::thread::hardware_concurrency();
  const int jobs = jobsOf(line, static_cast<int>(hardware == 0 ? 1 : hardware));
  SweepRecorder recorder(line, args, sweep);

  const long total = sweep.runCount();
  const std::atomic<bool>& stop = catchSweepStopSignals();
  const long written = study::runStudy(
      sweep, 0, total, jobs, [&](const study::RunResult& result) { recorder.add(result); }, &stop);
  const int workers = static_cast<int>(std::min<long>(jobs, total));
  return recorder.finish(written, sweepStopSignal(), std::to_string(workers) + " workers");
}

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
