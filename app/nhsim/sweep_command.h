// `nhsim sweep`: a parameter study (core/study) on all cores, written as CSV or HDF5; under
// MPI (--mpi) on all ranks too (sweep_mpi.h).
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "app/nhsim/command_line.h"
#include "app/nhsim/sweep_spec.h"
#include "core/study/sweep.h"

namespace nh::cli {

class SweepOutput;

// What the threaded and the MPI sweep (rank 0) do with the rows, in run order: write them
// (CSV or HDF5, sweep_output.h), report progress on standard error, then end the file and
// print the summary. `args` as for sweepCommand.
class SweepRecorder {
 public:
  // Opens the output (throws InputError for bad input, before anything is written).
  SweepRecorder(const SweepOptions& line, const std::vector<std::string>& args,
                const study::Study& study);
  ~SweepRecorder();
  // The next row; throws Error on a failed write (the output is then removed).
  void add(const study::RunResult& result);
  // Ends the output with the `written` first runs: commits it (a partial file when written
  // is below the run count), prints the interruption (`signal`) or the summary, whose
  // `workers` says who ran them ("2 workers", "2 MPI ranks × 1 thread"), and returns the
  // exit code: 0, or 128 + signal when interrupted.
  int finish(long written, int signal, const std::string& workers);

 private:
  void report(bool last);
  const SweepOptions& line_;
  const study::Study& study_;
  std::unique_ptr<SweepOutput> out_;
  long done_ = 0, failed_ = 0;
  long drifted_ = 0;       // runs whose conserved energy changed by more than 1 %
  double worstDrift_ = 0;  // the largest such change, relative
  bool progress_, tty_;
  std::chrono::steady_clock::time_point start_, lastReport_;
  std::chrono::milliseconds interval_;
};

// What `nhsim sweep --mpi` says, exit 2, in a build without MPI.
inline constexpr const char* kNoMpiSupport =
    "this nhsim was built without MPI support (NH_WITH_MPI, Debian libopenmpi-dev): run the "
    "sweep without --mpi, on --jobs threads";

// Makes SIGINT, SIGTERM and SIGHUP set the returned flag (and record the signal for
// sweepStopSignal), clearing both first: workers take no new run and stop the runs under way.
std::atomic<bool>& catchSweepStopSignals();
int sweepStopSignal();  // the last of those signals caught, 0 if none

// True when `args` (the words after "nhsim") ask for `sweep … --mpi`.
bool isMpiSweep(const std::vector<std::string>& args);
// This process's rank as an MPI launcher (mpirun, srun) gives it in the environment, or -1
// when not started by one: a build without MPI prints its refusal on rank 0 only.
int launcherRank();

// Runs `nhsim sweep`; `args` are the words after "nhsim" (echoed in the file's first comment
// line without the options commandEcho drops). Bad input, an
// unwritable output included, throws InputError before anything is written (exit 2); a write
// error throws Error (exit 1) and leaves no file; Ctrl+C (SIGINT, SIGTERM, SIGHUP) keeps the
// finished rows, ends the file with "# partial: N of M runs" and returns 128 + the signal.
int sweepCommand(const SweepOptions& line, const std::vector<std::string>& args);

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
