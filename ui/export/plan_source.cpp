// A planned motion as an export's source (plan_source.h): a scenario's plan solved as the app
// solves it, its ghosts and its view; and the exporter's frames of a planned motion — the
// extremal resampled on the frame grid, its companion as the comparison, the start and target
// ghosts and the plan's line in the overlay (AnimationExporter, animation_exporter.h).
#include "ui/export/plan_source.h"

#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/model/catalogue.h"
#include "core/nh/errors.h"
#include "ui/export/animation_exporter.h"
#include "ui/export/animation_exporter_impl.h"
#include "ui/export/sample_grid.h"
#include "ui/session/scenario_view.h"
#include "ui/sim/run_style.h"

namespace nhui {

std::optional<PlanSettings> scenarioPlan(const nh::Scenario& scenario) {
  try {
    return parseScenarioView(scenario.view).plan;
  } catch (const nh::Error&) {
    return std::nullopt;  // a view the reader refuses plans nothing
  }
}

PlannedMotion solvePlannedMotion(const nh::Scenario& scenario, const PlanSettings& plan,
                                 const nh::OptimalControlProgress& progress) {
  const auto system = nh::findSystem(scenario.system);
  const nh::OptimalControlOptions options = planProblem(system, scenario, plan);
  const nh::OptimalControlResult result = nh::solveOptimalControl(system, options, progress);
  if (result.extremals.empty())
    throw nh::InputError("the scenario's plan has no extremal (best residual " +
                         nh::formatValue(result.bestResidual) + "): " + result.advice);
  const std::vector<double> parameters =
      options.parameters.empty() ? system->defaultParameters() : options.parameters;
  const size_t index = playedExtremal(plan, result);
  PlanRuns runs = makePlanRuns(system, parameters, result, index);
  PlannedMotion motion;
  motion.plan = plan;
  motion.plan.played = static_cast<int>(index);
  motion.run = std::move(runs.plan);
  motion.companion = std::move(runs.companion);
  return motion;
}

std::array<nh::SceneFrame, 2> planGhostScenes(const RunHistory& run) {
  std::array<nh::SceneFrame, 2> ghosts;
  if (run.empty()) return ghosts;
  run.sceneAt(run.firstTime(), ghosts[0]);
  run.sceneAt(run.lastTime(), ghosts[1]);
  return ghosts;
}

std::string viewWithPlan(const std::string& viewJson, const PlanSettings& plan) {
  using Json = nlohmann::json;
  Json view = Json::object();
  if (!viewJson.empty()) {
    const Json given = Json::parse(viewJson, nullptr, false);
    if (given.is_object()) view = given;
  }
  // The plan as the session's writer spells it.
  ScenarioView planOnly;
  planOnly.plan = plan;
  const Json written = Json::parse(scenarioViewToJson(planOnly));
  if (!view.contains("version")) view["version"] = written["version"];
  view["plan"] = written["plan"];
  return view.dump();
}

// ---- The exporter's frames of a planned motion ------------------------------------------------

void AnimationExporter::setUpPlannedMotion(std::shared_ptr<const PlannedMotion> played) {
  Impl& d = *impl_;
  d.plan = played ? std::optional<PlanSettings>(played->plan) : scenarioPlan(scenario_);
  if (!d.plan) throw nh::InputError(kNoPlanRefused);
  d.planned = std::move(played);
  d.parameters = nh::resolveParameters(*d.system, scenario_.parameters);
  const double planEnd = d.planned ? d.planned->run->lastTime() : d.plan->tEnd;
  if (settings_.tEnd > planEnd * (1 + 1e-9))
    throw nh::InputError("the planned motion ends at T = " + nh::formatValue(planEnd) +
                         " s: the end time (" + nh::formatValue(settings_.tEnd) +
                         " s) must be at most that");
  if (!scenario_.edits.empty())
    throw nh::InputError(
        "a planned motion takes no timed edits: its parameters are those the "
        "plan is solved with (remove the scenario's \"edits\")");
  // The comparison of a planned motion is its companion (none for a control model).
  settings_.comparison = nh::Comparison{};
  setUpFrameGrid();
  ++d.frames;  // the last frame shows tEnd itself: the bodies at the target at T
  // The scenario as exported: the same plan solved again (its extremal, its span).
  resolved_ = scenario_;
  resolved_.parameters.clear();
  for (size_t i = 0; i < d.parameters.size(); ++i)
    resolved_.parameters[d.system->info().parameters[i].name] = d.parameters[i];
  resolved_.view = viewWithPlan(scenario_.view, d.planned ? d.planned->plan : *d.plan);
  resolved_.tEnd = settings_.tEnd;
  resolved_.dtOut = d.sampleStep;
}

void AnimationExporter::adoptPlannedMotion(const ProgressCallback& progress,
                                           const std::atomic<bool>* cancel) {
  Impl& d = *impl_;
  if (!d.planned) {
    const auto started = std::chrono::steady_clock::now();
    try {
      d.planned =
          std::make_shared<const PlannedMotion>(solvePlannedMotion(scenario_, *d.plan, [&](double) {
            d.reportSimulating(progress, started);
            return !(cancel && cancel->load());
          }));
    } catch (const nh::OptimalControlCancelled&) {
      throw Cancelled{};
    }
    resolved_.view = viewWithPlan(scenario_.view, d.planned->plan);  // the extremal played
  }
  // The extremal on the frame grid (k·h, restarted at tStart), interpolated between its rows.
  const RunHistory& plan = *d.planned->run;
  const RecordLayout& layout = plan.layout();
  auto history = std::make_unique<RunHistory>(d.system, plan.dynamics(), layout);
  history->setParametersFrom(0, plan.parametersAt(0));
  const double h = d.sampleStep;
  SampleGrid grid(layout.stride(), h, settings_.tStart,
                  [&](const double* r) { history->append(r, 1); });
  std::vector<double> record(layout.stride());
  const auto recordAt = [&](size_t k) {
    for (int c = 0; c < layout.stride(); ++c) record[c] = plan.column(c)[k];
  };
  for (size_t k = 0; k < plan.size(); ++k) {
    recordAt(k);
    grid.add(record.data());
  }
  // The end held a sample longer, so that a last frame at T exists despite rounding of the grid.
  recordAt(plan.size() - 1);
  record[0] += h;
  grid.add(record.data());
  grid.finish();
  d.firstFrameSample = history->indexAtOrAfter(settings_.tStart - 1e-6 * h);
  if (history->size() < d.sampleOfFrame(d.frames - 1) + 1)
    throw nh::InputError("the planned motion ends before the last frame");
  d.history = std::move(history);
  d.steps = std::make_unique<RunHistory>(plan);  // the CSV: the extremal as solved
  if (d.planned->companion) d.comparison = std::make_unique<RunHistory>(*d.planned->companion);
}

void AnimationExporter::preparePlanView() {
  Impl& d = *impl_;
  const std::array<nh::SceneFrame, 2> ghosts = planGhostScenes(*d.planned->run);
  const SceneDisplayOptions& options = d.view->scene().options();
  for (int which = 0; which < 2; ++which) {
    SceneRenderer& ghost = d.view->ghost(which);
    ghost.setSystem(d.system.get());
    ghost.setOptions(options);
    ghost.update(ghosts[which], {});
  }
  // The plan in the overlay: its extremal and cost.
  const RunHistory& run = *d.planned->run;
  const int cost = run.columnIndex("cost");
  std::string line = "planned motion, extremal " + std::to_string(d.planned->plan.played + 1);
  if (cost >= 0) {
    char value[32];
    std::snprintf(value, sizeof value, "%.4g", run.column(cost).back());
    line += std::string(", cost ") + value;
  }
  d.overlayTail = line + "\n" + d.overlayTail;
}

std::array<std::string, 2> AnimationExporter::planLabels() const {
  const Impl& d = *impl_;
  if (!d.planned || !d.planned->companion) return {};
  return {nh::toString(d.planned->run->dynamics()), nh::toString(d.planned->companion->dynamics())};
}

const PlannedMotion* AnimationExporter::plannedMotion() {
  if (!impl_->history) simulate({}, nullptr);
  return impl_->planned.get();
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
