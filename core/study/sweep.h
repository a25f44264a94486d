// Parameter studies: a base scenario, varied over a grid (the product of
// NAME=FROM:TO:N axes) or a seeded random sample, each run integrated as `nhsim run` does and
// reduced to measures (measures.h) and a status. Run i is a pure function of i: any worker,
// thread or (later) MPI rank computes the same row for it, and writers put rows in index
// order (study_runner.h), so the output does not depend on who ran what.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/nh/scenario.h"
#include "core/nh/scenario_run.h"
#include "core/study/measures.h"

namespace nh::study {

// "NAME=FROM:TO:N": N ≥ 1 values from FROM to TO (both included), FROM < TO unless N = 1
// (then FROM = TO is allowed and is the one value).
struct GridAxis {
  std::string name;
  double from = 0, to = 0;
  long count = 1;
};
// "NAME=uniform:LO:HI" (LO < HI) or "NAME=normal:MU:SIGMA" (SIGMA > 0).
struct SampleAxis {
  enum class Law { Uniform, Normal };
  std::string name;
  Law law = Law::Uniform;
  double a = 0, b = 1;  // LO, HI or MU, SIGMA
};
// Throw InputError naming the option ("--vary", "--sample") and what is wrong.
GridAxis parseGridAxis(const std::string& text);
SampleAxis parseSampleAxis(const std::string& text);
std::string toString(const GridAxis& axis);    // "NAME=FROM:TO:N"
std::string toString(const SampleAxis& axis);  // "NAME=uniform:LO:HI"

// More runs than this are refused unless StudySpec::force.
inline constexpr double kMaxRuns = 1e7;

struct StudySpec {
  Scenario base;                   // validated as for `nhsim run`
  std::vector<GridAxis> grid;      // either grid axes…
  std::vector<SampleAxis> sample;  // …or sample axes with count and seed
  long count = 0;
  std::uint64_t seed = 0;
  std::vector<std::string> measures;  // "EXPR" or "NAME=EXPR" (measures.h)
  bool force = false;                 // allow more than kMaxRuns runs
};

// One run's row: the varied values, the measures (NaN unless the run ended ok) and a status:
// "ok", "blow-up at t=T", "non-regular at t=T", "failed at t=T: MESSAGE" or
// "error: MESSAGE" (one line).
struct RunResult {
  long index = -1;
  std::vector<double> varied, measures;
  std::string status;
  // For a run whose equations conserve energy: how much its energy changed, relative
  // (EnergyDriftWatch, core/nh/run_checks.h); 0 for the others. Not a column of the output.
  double energyDrift = 0;
};

// Thrown out of Study::run when the cancel flag is seen: the run has no row.
struct RunCancelled {};

class StudyWorker;

// A study ready to run: validated, its base equations compiled and its measures parsed.
// Immutable after construction: one instance is shared read-only by all workers.
class Study {
 public:
  // Throws InputError for: grid and sample axes both or neither given, an unknown or repeated
  // name (a name is a parameter, else a state variable of the system), a grid end outside a
  // parameter's range, a count below 1, more than kMaxRuns runs without force, a bad
  // measure (measures.h).
  explicit Study(StudySpec spec);
  ~Study();

  const StudySpec& spec() const { return spec_; }
  long runCount() const { return runs_; }
  // The CSV columns: the varied names, the measure names, "status".
  std::vector<std::string> columns() const;
  // Run i's varied values (spec order), size variedCount(): a grid's first axis varies
  // slowest; a sample's values come from a counter-based generator keyed by (seed, i, axis),
  // independent of which runs were drawn before.
  void variedValues(long i, double* out) const;
  int variedCount() const { return static_cast<int>(names_.size()); }

  // Runs i on `worker` (one per thread). A failing run is a result with its status, never
  // an exception; throws RunCancelled when *cancel becomes true during the run.
  void run(long i, StudyWorker& worker, RunResult& out,
           const std::atomic<bool>* cancel = nullptr) const;

  // The text before the rows: "# " comment lines (the command as `commandLine` gives it, the
  // system and run settings, the varied axes, the measures), then the header line.
  std::string headerText(const std::string& commandLine) const;
  // One CSV line (with '\n'); the status is quoted when it holds a comma or a quote.
  std::string rowText(const RunResult& result) const;
  // The last line of an interrupted study's file.
  static std::string partialText(long written, long total);

 private:
  friend class StudyWorker;
  // Whether each varied parameter's value is in its range and the system allows the set.
  bool parametersAllowed(const std::vector<double>& values) const;

  StudySpec spec_;
  long runs_ = 0;
  std::vector<std::string> names_;
  std::vector<bool> isParameter_;
  std::vector<int> index_;  // parameter index, or position in the state layout
  std::shared_ptr<const SystemModel> system_;
  std::vector<double> baseParameters_;
  std::shared_ptr<const EquationsOfMotion> baseEquations_;  // shared by every run that
                                                            // varies initial values only
  // The same with the varied parameters as inputs of the tape (null when none varies): runs
  // with other parameter values take it with their values, without a tape of their own.
  std::shared_ptr<const EquationsOfMotion> parametricEquations_;
  StateLayout layout_;
  std::vector<std::string> outputColumns_;
  MeasureSet measures_;
};

// What one worker reuses from run to run: its simulation (and so its equations workspace),
// its output row and its measure accumulator. Never shared between threads.
class StudyWorker {
 public:
  explicit StudyWorker(const Study& study);
  ~StudyWorker();

 private:
  friend class Study;
  std::unique_ptr<ScenarioRun> run_;
  std::vector<double> parameters_;  // those run_'s equations were compiled with
  MeasureSet::Accumulator accumulator_;
};

}  // namespace nh::study
// SPDX-License-Identifier: GPL-3.0-or-later
