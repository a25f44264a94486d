// The run loop every front end uses (scenario_run.h): ScenarioRun set up from a scenario or a
// RunSetup, restarted, and advanced a sample every dt-out with the tally of warnings, and the
// "partial" and "interrupted" lines of a run that stops early.
#include "core/nh/scenario_run.h"

#include <algorithm>
#include <cmath>

#include "core/nh/errors.h"

namespace nh {

std::vector<std::string> RunTally::warnings() const {
  std::vector<std::string> out;
  for (std::string warning : {drift.warning(), rank.warning()})
    if (!warning.empty()) out.push_back(std::move(warning));
  return out;
}

namespace {

void tallySample(RunTally& tally, const EquationsOfMotion& eq, EquationsWorkspace& ws, double t,
                 const double* x, const Observables& obs, const std::vector<double>& row) {
  tally.drift.add(eq, ws, t, x, obs.energy);
  tally.rank.add(t, obs);
  if (tally.rows == 0) {
    tally.e0 = obs.energy;
    tally.first = row;
  }
  tally.e1 = obs.energy;
  ++tally.rows;
  for (int c = 0; c < obs.phi.size(); ++c)
    tally.maxResidual = std::max(tally.maxResidual, std::abs(obs.phi[c]));
  for (int c = 0; c < obs.g.size(); ++c)
    tally.maxResidual = std::max(tally.maxResidual, std::abs(obs.g[c]));
  for (int c = 0; c < obs.lambda.size(); ++c)
    tally.maxLambda = std::max(tally.maxLambda, std::abs(obs.lambda[c]));
  tally.last = row;
}

}  // namespace

ScenarioRun::ScenarioRun(std::shared_ptr<const SystemModel> system, const Scenario& scenario,
                         EquationsPtr equations)
    : system_(std::move(system)),
      parameters_(resolveParameters(*system_, scenario.parameters)),
      layout_(stateLayout(*system_, scenario.dynamics)) {
  if (!equations)  // taped once, with the run's parameters (the start's setParameters keeps it)
    equations = std::make_shared<const EquationsOfMotion>(system_, scenario.dynamics,
                                                          scenario.formulation, parameters_);
  setUp(std::move(equations), scenario.integrator);
  hint_ = runValuesHint(*system_, parameters_, scenario);
  start_ = checkedRunStart(*simulation_, scenario, parameters_, layout_, hint_, observed_, row_);
  lastEquations_ = startEquations_ = simulation_->equationsPtr();
  // Started as every run restarted from a recorded state is (nhlab's worker, a timed edit):
  // the state set, then the parameters, which put it onto the constraints.
  simulation_->setState(0.0, start_.x0);
  simulation_->setParameters(parameters_);
  setEdits(scenario.edits);
}

ScenarioRun::ScenarioRun(const RunSetup& setup, double t0, EquationsPtr equations)
    : system_(setup.system),
      parameters_(setup.parameters),
      layout_(stateLayout(*system_, setup.dynamics)) {
  if (!equations)
    equations = std::make_shared<const EquationsOfMotion>(system_, setup.dynamics,
                                                          setup.formulation, setup.parameters);
  setUp(std::move(equations), setup.options);
  lastEquations_ = startEquations_ = simulation_->equationsPtr();
  primaryParameters_ = parameters_;
  std::vector<double> x0 = setup.x0;
  x0.resize(static_cast<size_t>(simulation_->equations().stateSize()), 0.0);
  simulation_->setState(t0, x0);
  simulation_->setParameters(setup.parameters);
}

void ScenarioRun::setUp(EquationsPtr equations, IntegratorOptions options) {
  simulation_ = std::make_unique<Simulation>(std::move(equations), options);
  columns_ = outputColumns(simulation_->equations());
  row_.reserve(columns_.size());
}

ScenarioRun::~ScenarioRun() = default;
ScenarioRun::ScenarioRun(ScenarioRun&&) noexcept = default;
ScenarioRun& ScenarioRun::operator=(ScenarioRun&&) noexcept = default;

void ScenarioRun::setStopCheck(StopCheck check) {
  stop_ = std::move(check);
  simulation_->setStepCheck(stop_);
}

void ScenarioRun::setGrowthLookahead(double seconds) {
  growthLookahead_ = seconds;
  simulation_->setGrowthLookahead(seconds);
}

void ScenarioRun::setEdits(std::vector<TimedEdit> edits, const Comparison& comparison) {
  if (primaryParameters_.empty()) primaryParameters_ = parameters_;
  std::vector<double> values = primaryParameters_;
  for (const TimedEdit& edit : edits) {
    values = editedParameters(*system_, values, edit);
    comparisonParameters(*system_, values, comparison);  // a ghost's value still allowed
  }
  edits_ = std::move(edits);
  nextEdit_ = 0;
  comparison_ = comparison;
}

void ScenarioRun::applyEdit(const TimedEdit& edit) {
  primaryParameters_ = editedParameters(*system_, primaryParameters_, edit);
  const Simulation& before = *simulation_;
  RunSetup setup{system_,
                 before.equations().dynamics(),
                 before.equations().formulation(),
                 before.options(),
                 comparisonParameters(*system_, primaryParameters_, comparison_),
                 {}};
  const double t = before.time();
  const std::vector<double> x = before.state();
  setUp(equationsFor(setup, lastEquations_), setup.options);
  simulation_->setStepCheck(stop_);
  simulation_->setGrowthLookahead(growthLookahead_);
  simulation_->setState(t, x);
  simulation_->setParameters(setup.parameters);
  parameters_ = setup.parameters;
}

void ScenarioRun::restart(EquationsPtr equations, double t0, const std::vector<double>& x0) {
  nextEdit_ = 0;                                // edits at or after t0 apply again
  if (!equations) equations = startEquations_;  // the run's own, not those of an edit
  startEquations_ = equations;
  if (equations != simulation_->equationsPtr()) {
    simulation_->setEquations(equations);
    parameters_ = equations->parameters();
    primaryParameters_ = parameters_;
    columns_ = outputColumns(simulation_->equations());
  }
  simulation_->setState(t0, x0);
  tally_ = RunTally();
}

void ScenarioRun::takeSample(double t, const double* x, const SampleSink& sink) {
  const EquationsOfMotion& eq = simulation_->equations();
  outputRow(eq, simulation_->workspace(), layout_, t, x, observed_, row_);
  checkFiniteRow(system_->name(), columns_, row_, t);  // the samples before it are delivered
  tallySample(tally_, eq, simulation_->workspace(), t, x, observed_, row_);
  sink(Sample{t, x, observed_, row_});
  if (stop_) stop_(t);
}

void ScenarioRun::advance(double tEnd, double dtOut, const SampleSink& sink, bool lastAtEnd) {
  auto onSample = [this, &sink](double t, const double* x) { takeSample(t, x, sink); };
  try {
    // Up to each edit due by tEnd (its sample delivered), then on with the edited values.
    while (nextEdit_ < edits_.size() && edits_[nextEdit_].t <= tEnd) {
      const TimedEdit& edit = edits_[nextEdit_++];
      if (edit.t < simulation_->time()) continue;  // before a restart: not this run's
      simulation_->advance(edit.t, dtOut, onSample);
      applyEdit(edit);
    }
    // A t-end off the output grid still gets its sample when asked: the run's final state.
    if (!simulation_->advance(tEnd, dtOut, onSample) && lastAtEnd)
      onSample(simulation_->time(), simulation_->state().data());
  } catch (const SingularSystemError& e) {
    if (hint_.empty()) throw;
    throw SingularSystemError(withHint(e.what(), hint_), e.time(), e.conditionNumber());
  } catch (const IntegrationError& e) {
    if (hint_.empty()) throw;
    throw IntegrationError(withHint(e.what(), hint_), e.time());
  }
}

std::string partialLine(const std::exception& stopped, long rows) {
  const std::string kept = std::to_string(rows) + " rows";
  if (const auto* singular = dynamic_cast<const SingularSystemError*>(&stopped))
    return "partial: stopped at t = " + formatValue(singular->time()) + ", " + kept +
           " (not regular or a singular point)";
  if (const auto* failed = dynamic_cast<const IntegrationError*>(&stopped))
    return "partial: stopped at t = " + formatValue(failed->time()) + ", " + kept +
           " (the integration failed)";
  return "partial: stopped after " + kept;
}

std::string interruptedLine(double t, int signal, long rows) {
  return "partial: interrupted at t = " + formatValue(t) + " by signal " + std::to_string(signal) +
         ", " + std::to_string(rows) + " rows";
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
