// Planned motions as runs (plan_run.h): the record layout of a plan, an extremal's samples
// recorded into a RunHistory, the body at rest at its start, the nonholonomic companion run
// from an extremal's initial velocity, and the problem a scenario's plan poses.
#include "ui/sim/plan_run.h"

#include <algorithm>
#include <cmath>

#include "core/nh/errors.h"
#include "core/nh/scenario_run.h"

namespace nhui {

namespace {

// The scene's named points (trails) at one state, into the row's point columns.
void fillPoints(const nh::SystemModel& system, const RecordLayout& layout,
                const std::vector<double>& parameters, double t, const double* state,
                nh::SceneFrame& frame, double* out) {
  if (layout.points.empty()) return;
  const double lambda = 0;
  system.scene(parameters.data(), t, state, state + system.n(), &lambda, frame);
  for (const auto& p : layout.points) {
    Eigen::Vector3d v = Eigen::Vector3d::Constant(std::nan(""));
    for (const auto& sp : frame.points)
      if (sp.name == p.name) v = sp.position;
    for (int axis = 0; axis < 3; ++axis) out[p.column + axis] = v[axis];
  }
}

// Appends one record: t, `values` (the plan's columns), the residual and the points.
void appendPlanRecord(RunHistory& run, const std::vector<double>& parameters, double t,
                      const std::vector<double>& values, double residual, nh::SceneFrame& frame) {
  const RecordLayout& layout = run.layout();
  std::vector<double> record(layout.stride(), 0.0);
  record[0] = t;
  std::copy(values.begin(), values.end(), record.begin() + 1);
  record[layout.residualColumn] = residual;
  fillPoints(run.system(), layout, parameters, t, values.data(), frame, record.data());
  run.append(record.data(), 1);
}

}  // namespace

nh::OptimalControlOptions planProblem(const std::shared_ptr<const nh::SystemModel>& system,
                                      const nh::Scenario& scenario, const PlanSettings& plan) {
  nh::OptimalControlOptions options;
  nh::startFromScenario(system, scenario, options);
  options.tEnd = plan.tEnd;
  options.targets = plan.targets;
  options.starts = plan.starts;
  return options;
}

size_t playedExtremal(const PlanSettings& plan, const nh::OptimalControlResult& result) {
  return plan.played > 0 && static_cast<size_t>(plan.played) < result.extremals.size()
             ? static_cast<size_t>(plan.played)
             : 0;
}

RecordLayout makePlanLayout(const nh::SystemModel& system,
                            const std::vector<std::string>& columns) {
  RecordLayout layout;
  layout.columns.push_back("t");
  layout.columns.insert(layout.columns.end(), columns.begin(), columns.end());
  const int stateSize = system.n() + system.m();
  for (int i = 0; i < stateSize; ++i) {
    layout.state.names.push_back(columns[i]);
    layout.state.index.push_back(i);
  }
  layout.stateSize = stateSize;
  layout.firstState = 1;
  layout.firstLambda = static_cast<int>(layout.columns.size());
  layout.lambdaCount = 0;
  layout.energyColumn = -1;  // a plan has a cost, no energy
  layout.energyErrorColumn = -1;
  layout.residualColumn = static_cast<int>(layout.columns.size());
  layout.outputColumnCount = layout.residualColumn;  // the plan's columns, as nhsim optimize's
  layout.columns.push_back("residual");
  const auto& info = system.info();
  std::vector<double> state(info.defaultCoordinates);
  state.resize(stateSize, 0.0);
  const double lambda = 0;
  nh::SceneFrame frame;
  system.scene(system.defaultParameters().data(), 0.0, state.data(), state.data() + system.n(),
               &lambda, frame);
  for (const nh::ScenePoint& p : frame.points) {
    layout.points.push_back({p.name, p.inMovingFrame, static_cast<int>(layout.columns.size())});
    for (const char* axis : {".x", ".y", ".z"}) layout.columns.push_back(p.name + axis);
  }
  return layout;
}

std::unique_ptr<RunHistory> makePlanRun(std::shared_ptr<const nh::SystemModel> system,
                                        const std::vector<double>& parameters,
                                        const nh::OptimalControlResult& result, size_t index) {
  const nh::Extremal& extremal = result.extremals.at(index);
  const auto dynamics =
      result.vakonomic ? nh::DynamicsKind::Vakonomic : nh::DynamicsKind::Nonholonomic;
  auto run =
      std::make_unique<RunHistory>(system, dynamics, makePlanLayout(*system, result.columns));
  run->setParametersFrom(0, parameters);
  nh::SceneFrame frame;
  for (size_t k = 0; k < extremal.times.size(); ++k)
    appendPlanRecord(*run, parameters, extremal.times[k], extremal.rows[k], extremal.residual,
                     frame);
  return run;
}

std::unique_ptr<RunHistory> makeStartRun(std::shared_ptr<const nh::SystemModel> system,
                                         const std::vector<double>& parameters,
                                         const std::vector<double>& coordinates) {
  std::vector<std::string> columns = system->info().coordinates;
  for (const auto& v : system->info().velocities) columns.push_back(v);
  auto run = std::make_unique<RunHistory>(system, nh::DynamicsKind::Nonholonomic,
                                          makePlanLayout(*system, columns));
  run->setParametersFrom(0, parameters);
  std::vector<double> values(coordinates);
  values.resize(columns.size(), 0.0);
  nh::SceneFrame frame;
  appendPlanRecord(*run, parameters, 0.0, values, 0.0, frame);
  return run;
}

std::unique_ptr<RunHistory> makeNonholonomicCompanion(std::shared_ptr<const nh::SystemModel> system,
                                                      const std::vector<double>& parameters,
                                                      const nh::Extremal& extremal) {
  const int stateSize = system->n() + system->m();
  nh::RunSetup setup;
  setup.system = system;
  setup.parameters = parameters;
  setup.x0.assign(extremal.rows.front().begin(), extremal.rows.front().begin() + stateSize);
  nh::ScenarioRun sim(setup, extremal.times.front());
  const nh::EquationsOfMotion& equations = sim.simulation().equations();
  auto run = std::make_unique<RunHistory>(system, nh::DynamicsKind::Nonholonomic,
                                          makeRecordLayout(equations));
  run->setParametersFrom(0, parameters);
  const RecordLayout& layout = run->layout();
  std::vector<double> record(layout.stride());
  nh::SceneFrame frame;
  const double dt = extremal.times.size() > 1 ? extremal.times[1] - extremal.times[0] : 0.01;
  sim.advance(extremal.times.back(), dt, [&](const nh::ScenarioRun::Sample& sample) {
    nh::recordFromRow(equations, layout, sample.t, sample.x, sample.observed, sample.row, frame,
                      record.data());
    run->append(record.data(), 1);
  });
  return run;
}

PlanRuns makePlanRuns(std::shared_ptr<const nh::SystemModel> system,
                      const std::vector<double>& parameters, const nh::OptimalControlResult& result,
                      size_t index) {
  PlanRuns runs;
  runs.plan = makePlanRun(system, parameters, result, index);
  if (result.vakonomic) {
    try {
      runs.companion = makeNonholonomicCompanion(system, parameters, result.extremals.at(index));
    } catch (const nh::Error& e) {
      runs.companionFailure = e.what();
    }
  }
  return runs;
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
