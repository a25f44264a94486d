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

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
