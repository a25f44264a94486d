// The checked start of a scenario's run (run_start.h): parameters, initial state and integrator
// set, the first row finite, and each refusal with a hint naming the values it was given.
#include "core/nh/run_start.h"

#include "core/nh/errors.h"
#include "core/nh/run_checks.h"

namespace nh {

std::string runValuesHint(const SystemModel& system, const std::vector<double>& parameters,
                          const Scenario& scenario) {
  std::vector<std::pair<std::string, double>> values;
  for (size_t i = 0; i < parameters.size(); ++i)
    values.emplace_back(system.info().parameters[i].name, parameters[i]);
  for (const auto& entry : scenario.initial) values.push_back(entry);
  return extremeValueHint(values);
}

std::string withHint(const std::string& message, const std::string& hint) {
  return hint.empty() ? message : message + "; " + hint;
}

RunStart checkedRunStart(Simulation& simulation, const Scenario& scenario,
                         const std::vector<double>& parameters, const StateLayout& layout,
                         const std::string& hint, Observables& observables,
                         std::vector<double>& row) {
  RunStart start;
  try {
    simulation.setParameters(parameters);  // new equations: eq is taken after this
    const EquationsOfMotion& eq = simulation.equations();
    start.x0 = initialState(eq, 0.0, scenario.initial, &start.notes);
    start.fit = integratorFit(scenario.integrator.method,
                              {eq.dynamics(), eq.formulation(), &eq, start.x0.data(), 0.0});
    if (!start.fit.refusal.empty()) throw InputError(start.fit.refusal);
    outputRow(eq, simulation.workspace(), layout, 0.0, start.x0.data(), observables, row);
    const std::string entry = nonFiniteEntry(outputColumns(eq), row);
    if (!entry.empty())
      throw InputError("the start of '" + eq.system().name() + "' is not finite: " + entry +
                       " at t = 0 (parameters or initial values beyond double precision, or "
                       "a formula undefined there)");
  } catch (const SingularSystemError& e) {
    throw InputError(withHint(e.what(), hint));
  } catch (const IntegrationError& e) {
    throw InputError(withHint(e.what(), hint));
  } catch (const InputError& e) {
    if (hint.empty()) throw;
    throw InputError(withHint(e.what(), hint));
  }
  return start;
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
