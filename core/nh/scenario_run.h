// One run of a system, sample by sample: the loop every front end uses (nhsim run, the Python
// module, the sweep, the app's simulation worker, the video export and the plan player). The
// simulation is set up from a scenario (its start checked) or from a RunSetup (a restart or a
// comparison); every dt-out the output row is computed, checked finite, added to the run's
// tally (energy drift, constraints losing rank, extremes) and handed to the caller, then the
// caller's stop check runs. A run that stops early says why in one "partial" line.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/nh/comparison.h"
#include "core/nh/run_checks.h"
#include "core/nh/run_start.h"
#include "core/nh/scenario.h"

namespace nh {

// What the samples of a run showed: the summary's numbers and the watches behind its
// warnings.
struct RunTally {
  EnergyDriftWatch drift;
  ConstraintRankWatch rank;
  long rows = 0;
  double maxResidual = 0, maxLambda = 0, e0 = 0, e1 = 0;
  std::vector<double> first, last;  // the first and the last output row
  // The warnings of the watches ("" ones left out).
  std::vector<std::string> warnings() const;
};

class ScenarioRun {
 public:
  using EquationsPtr = std::shared_ptr<const EquationsOfMotion>;
  struct Sample {
    double t;
    const double* x;                 // the state (equations().stateSize())
    const Observables& observed;     // outputRow's observables at (t, x)
    const std::vector<double>& row;  // the output row (outputColumns())
  };
  using SampleSink = std::function<void(const Sample&)>;
  // Called at every step check of the integration and after every sample; throws to stop
  // the run (the exception passes through advance, the samples before it delivered).
  using StopCheck = std::function<void(double t)>;

  // The run of `scenario` (of `system`, its system found by the caller: findSystem) from its
  // checked start (checkedRunStart: bad input throws InputError before any step, with a hint
  // naming values far outside double range), at t = 0. `equations`, when given, are the
  // scenario's, taped with its parameters, and are reused.
  ScenarioRun(std::shared_ptr<const SystemModel> system, const Scenario& scenario,
              EquationsPtr equations = nullptr);
  // A run of `setup` from (t0, setup.x0): the start padded with zeros or cut to the state of
  // the equations (a vakonomic comparison's multipliers start at 0). `equations`, when given,
  // are those of setup's system, dynamics and formulation, and are given setup's parameters.
  // The state is set first, then the parameters: setting them projects the start onto the
  // constraints as they read with them (the table's Ω, say).
  ScenarioRun(const RunSetup& setup, double t0, EquationsPtr equations = nullptr);
  ~ScenarioRun();
  ScenarioRun(ScenarioRun&&) noexcept;
  ScenarioRun& operator=(ScenarioRun&&) noexcept;

  // The checked start of a scenario's run (empty notes and x0 for a RunSetup's).
  const RunStart& start() const { return start_; }
  const std::vector<double>& parameters() const { return parameters_; }
  const std::vector<std::string>& columns() const { return columns_; }
  const StateLayout& layout() const { return layout_; }
  Simulation& simulation() { return *simulation_; }
  const Simulation& simulation() const { return *simulation_; }
  const RunTally& tally() const { return tally_; }

  void setStopCheck(StopCheck check);
  // Timed edits (in time order) that advance applies at their moments: the run goes on from
  // its state there with the new parameter values (the sample at that time delivered again
  // with them), as nhlab goes on after a slider moved during a run. A comparison run takes the
  // primary's edits through `comparison` (a ghost keeps its own value). A scenario's run has
  // the scenario's edits already. Throws InputError naming a bad edit (checkEdits).
  void setEdits(std::vector<TimedEdit> edits, const Comparison& comparison = {});
  const std::vector<TimedEdit>& edits() const { return edits_; }
  // The equations the run was (re)started with, before any edit.
  const EquationsOfMotion& startEquations() const { return *startEquations_; }
  // Simulation::setGrowthLookahead, kept over the restarts of timed edits.
  void setGrowthLookahead(double seconds);
  // Appended to the message of an IntegrationError or SingularSystemError out of advance.
  void setHint(std::string hint) { hint_ = std::move(hint); }

  // Starts again at (t0, x0) with `equations` (those of the same system and dynamics, other
  // parameters, say) and a new tally.
  void restart(EquationsPtr equations, double t0, const std::vector<double>& x0);

  // Integrates to tEnd, a sample at every t = origin + i·dtOut in (time(), tEnd], the start
  // itself first after a (re)start (Simulation::advance). Each sample's row is computed and
  // checked: a non-finite entry throws IntegrationError "… blew up at t = …" (the samples
  // before it delivered). With `lastAtEnd`, a tEnd off the output grid gets a last sample at
  // tEnd, the run's final state. Throws what Simulation::advance throws, the hint appended.
  void advance(double tEnd, double dtOut, const SampleSink& sink, bool lastAtEnd = false);

 private:
  void takeSample(double t, const double* x, const SampleSink& sink);
  void setUp(EquationsPtr equations, IntegratorOptions options);
  // The next edit, at the current time: a new simulation (as a restarted run of nhlab's worker
  // is) from the state there, with the edited values.
  void applyEdit(const TimedEdit& edit);

  std::shared_ptr<const SystemModel> system_;
  std::unique_ptr<Simulation> simulation_;
  std::vector<double> parameters_;
  RunStart start_;
  StateLayout layout_;
  std::vector<std::string> columns_;
  Observables observed_;
  std::vector<double> row_;
  RunTally tally_;
  StopCheck stop_;
  std::string hint_;
  // Timed edits: those still to come from nextEdit_ on; the primary run's parameters they
  // change (this run's are comparisonParameters of them); the equations last made, reused.
  std::vector<TimedEdit> edits_;
  std::size_t nextEdit_ = 0;
  Comparison comparison_;
  std::vector<double> primaryParameters_;
  EquationsPtr lastEquations_;
  EquationsPtr startEquations_;  // the equations of the (re)start, before any edit
  double growthLookahead_ = 0;
};

// The "partial: …" line (without "# ") that the output of a run which stopped early ends
// with, from what stopped it: "partial: stopped at t = 3.2, 320 rows (the integration
// failed)", "… (not regular or a singular point)", or "partial: stopped after 320 rows".
std::string partialLine(const std::exception& stopped, long rows);
// "partial: interrupted at t = 3.2 by signal 2, 320 rows".
std::string interruptedLine(double t, int signal, long rows);

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
