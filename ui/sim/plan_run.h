// A planned motion shown as a run: an extremal of nh::solveOptimalControl recorded in a
// RunHistory (columns t, the coordinates, the velocities — the state the scene reads — then
// the controls and costates or multipliers, the cost and the residual), the body at rest at
// its start for a control model that has no plan yet, and the nonholonomic motion from an
// extremal's initial velocity (a vakonomic plan's companion: vakonomic ≠ nonholonomic).
// These runs are complete: the controller plays them and never extends them.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/nh/optimal_control.h"
#include "core/nh/scenario.h"
#include "ui/sim/run_history.h"

namespace nhui {

// What a plan asks for, as the Plan dialog and a scenario's view ("plan") give it.
struct PlanSettings {
  double tEnd = 1;
  std::map<std::string, double> targets;  // coordinate → value at T (quaternions: all four)
  int starts = 8;
  int played = 0;  // the extremal shown (0: the lowest cost), kept in a saved scenario
  static constexpr int kMaxStarts = 64;
  bool operator==(const PlanSettings&) const = default;
};

// The problem a plan poses for `scenario` (its parameters and start, as
// nh::startFromScenario reads them) with the plan's T, targets and starts: what the app's Plan
// dialog and a scenario file's plan solve, and what an export of a planned motion solves.
// Throws nh::InputError.
nh::OptimalControlOptions planProblem(const std::shared_ptr<const nh::SystemModel>& system,
                                      const nh::Scenario& scenario, const PlanSettings& plan);

// The extremal a plan plays: `plan.played` when the solve found as many, else the lowest cost.
size_t playedExtremal(const PlanSettings& plan, const nh::OptimalControlResult& result);

// The record layout of a plan of `system` whose rows have `columns` (OptimalControlResult's,
// after t): the first n + m columns are the state (q, velocities); no energy.
RecordLayout makePlanLayout(const nh::SystemModel& system, const std::vector<std::string>& columns);

// Extremal `index` of `result` as a run (dynamics: vakonomic for a vakonomic problem).
std::unique_ptr<RunHistory> makePlanRun(std::shared_ptr<const nh::SystemModel> system,
                                        const std::vector<double>& parameters,
                                        const nh::OptimalControlResult& result, size_t index);

// One sample at t = 0: the body at `coordinates` with zero velocities.
std::unique_ptr<RunHistory> makeStartRun(std::shared_ptr<const nh::SystemModel> system,
                                         const std::vector<double>& parameters,
                                         const std::vector<double>& coordinates);

// The nonholonomic motion of `system` (no controls) from the extremal's first row (q and its
// velocities) until its last time, sampled at the extremal's spacing. Throws nh::Error when
// it cannot start there.
std::unique_ptr<RunHistory> makeNonholonomicCompanion(std::shared_ptr<const nh::SystemModel> system,
                                                      const std::vector<double>& parameters,
                                                      const nh::Extremal& extremal);

// The runs of a played plan: extremal `index` as a run and, for a vakonomic plan, its
// nonholonomic companion (null, with the reason in companionFailure, when it cannot start).
struct PlanRuns {
  std::unique_ptr<RunHistory> plan;
  std::unique_ptr<RunHistory> companion;
  std::string companionFailure;
};
PlanRuns makePlanRuns(std::shared_ptr<const nh::SystemModel> system,
                      const std::vector<double>& parameters, const nh::OptimalControlResult& result,
                      size_t index);

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
