#include "app/python/run_rows.h"

#include <cmath>

#include "core/model/catalogue.h"
#include "core/nh/errors.h"
#include "core/nh/run_checks.h"
#include "core/nh/run_start.h"

namespace nh::python {

struct RowRun::State {
  explicit State(const Scenario& s)
      : scenario(s),
        system(findSystem(s.system)),
        simulation(system, s.dynamics, s.formulation, s.integrator),
        parameters(resolveParameters(*system, s.parameters)),
        hint(runValuesHint(*system, parameters, s)),
        layout(stateLayout(*system, s.dynamics)) {}

  // The row at (t, x): computed, checked and kept, with the run's watches.
  void addRow(double t, const double* x) {
    const EquationsOfMotion& eq = simulation.equations();
    outputRow(eq, simulation.workspace(), layout, t, x, observables, row);
    checkFiniteRow(system->name(), out.columns, row, t);
    out.values.insert(out.values.end(), row.begin(), row.end());
    ++out.rows;
    drift.add(eq, simulation.workspace(), t, x, observables.energy);
    rank.add(t, observables);
  }

  const Scenario scenario;
  const std::shared_ptr<const SystemModel> system;
  Simulation simulation;
  const std::vector<double> parameters;
  const std::string hint;
  const StateLayout layout;
  Observables observables;
  std::vector<double> row;
  EnergyDriftWatch drift;
  ConstraintRankWatch rank;
  RunRows out;
};

RowRun::RowRun(const Scenario& scenario) : state_(std::make_unique<State>(scenario)) {
  State& s = *state_;
  RunStart start =
      checkedRunStart(s.simulation, scenario, s.parameters, s.layout, s.hint, s.observables, s.row);
  s.simulation.setState(0.0, start.x0);
  s.out.columns = outputColumns(s.simulation.equations());
  s.out.notes = std::move(start.notes);
  // A row every dt-out from 0 and one at t-end: known before any step.
  const double rows = std::floor(scenario.tEnd / scenario.dtOut) + 2;
  const double bytes = rows * static_cast<double>(s.out.columns.size()) * sizeof(double);
  if (bytes > kMaxRunBytes)
    throw InputError("a run of " + formatValue(rows) + " rows × " +
                     std::to_string(s.out.columns.size()) + " columns would need " +
                     formatValue(std::round(bytes / 1e8) / 10) + " GB in memory, more than the " +
                     formatValue(kMaxRunBytes / 1e9) +
                     " GB a run may hold: a larger dt_out or a shorter t_end (nhsim run --out "
                     "FILE writes rows as they come)");
  s.out.values.reserve(static_cast<size_t>(rows) * s.out.columns.size());
}

RowRun::~RowRun() = default;

RunRows RowRun::integrate(const std::atomic<bool>& cancel) {
  State& s = *state_;
  auto onSample = [&s, &cancel](double t, const double* x) {
    s.addRow(t, x);
    if (cancel) throw RunCancelled{};
  };
  s.simulation.setStepCheck([&cancel](double) {
    if (cancel) throw RunCancelled{};
  });
  try {
    // A t-end off the output grid still gets its row: the run's final state.
    if (!s.simulation.advance(s.scenario.tEnd, s.scenario.dtOut, onSample))
      onSample(s.simulation.time(), s.simulation.state().data());
  } catch (const SingularSystemError& e) {
    throw SingularSystemError(withHint(e.what(), s.hint), e.time(), e.conditionNumber());
  } catch (const IntegrationError& e) {
    throw IntegrationError(withHint(e.what(), s.hint), e.time());
  }
  for (const std::string& warning : {s.drift.warning(), s.rank.warning()})
    if (!warning.empty()) s.out.warnings.push_back(warning);
  return std::move(s.out);
}

}  // namespace nh::python
// SPDX-License-Identifier: GPL-3.0-or-later
