// A planned motion as an export's source: the plan a scenario's view holds, solved as the app
// solves it (planProblem and nh::solveOptimalControl, the extremal it plays, its runs from
// plan_run.h), or the plan the app plays now; the start and target ghosts drawn with it; and
// the one refusal left, a control model with no plan. The exporter reads it instead of
// simulating (AnimationExporter, the frames of a planned motion in plan_source.cpp).
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>

#include "core/nh/optimal_control.h"
#include "core/nh/scenario.h"
#include "ui/sim/plan_run.h"
#include "ui/sim/run_history.h"

namespace nhui {

// What an export of a control model without a plan says: it has no dynamics of its own, so
// there is nothing to show until a plan is solved.
inline constexpr const char* kNoPlanRefused =
    "a control model moves only along a planned motion and this scenario plans none: give its "
    "view a \"plan\" (in nhlab: Simulation ▸ Plan a motion, then save), or find one with nhsim "
    "optimize";

// A planned motion: the plan (T, targets, starts, the extremal played), the extremal as a run
// (makePlanRun: t, q, velocities, controls and costates or multipliers, cost) and, for a
// vakonomic plan, its nonholonomic companion (null without one), shown as the comparison.
struct PlannedMotion {
  PlanSettings plan;
  std::shared_ptr<const RunHistory> run;
  std::shared_ptr<const RunHistory> companion;
};

// The plan of a scenario's view (none without one, or when the view is refused).
std::optional<PlanSettings> scenarioPlan(const nh::Scenario& scenario);

// Solves `plan` for `scenario` as the app does for a scenario file's plan: the problem of
// planProblem, nh::solveOptimalControl with `progress` (false cancels: it throws
// nh::OptimalControlCancelled), the extremal playedExtremal picks and its runs. Throws
// nh::InputError for a problem the solver refuses or a plan with no extremal.
PlannedMotion solvePlannedMotion(const nh::Scenario& scenario, const PlanSettings& plan,
                                 const nh::OptimalControlProgress& progress = {});

// The start and the target of a planned motion as the app's view draws them (translucent
// copies of the bodies): the scene of `run` at its first and at its last sample.
std::array<nh::SceneFrame, 2> planGhostScenes(const RunHistory& run);

// A scenario's view (JSON, "" for none) with `plan` as its plan: the sidecar of an export of
// a played plan solves the same plan again.
std::string viewWithPlan(const std::string& viewJson, const PlanSettings& plan);

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
