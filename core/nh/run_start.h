// The start of a scenario's run as it is checked before anything is written (ScenarioRun,
// scenario_run.h, for nhsim and the Python module): the parameters set, the initial state
// completed, the integrator's conditions met and the first output row finite.
#pragma once

#include <string>
#include <vector>

#include "core/nh/integrators.h"
#include "core/nh/scenario.h"

namespace nh {

// For the messages of a failed run: extremeValueHint (run_checks.h) of the parameters
// `parameters` of `system` and the initial values `scenario` gives.
std::string runValuesHint(const SystemModel& system, const std::vector<double>& parameters,
                          const Scenario& scenario);

// `message` with `hint` after it ("…; m = 1e-310 is far outside …"), or as it is.
std::string withHint(const std::string& message, const std::string& hint);

struct RunStart {
  std::vector<double> x0;          // the initial state, completed (initialState)
  IntegratorFit fit;               // what the integrator conserves from x0 (integrators.h)
  std::vector<std::string> notes;  // one line per velocity the completion changed
};

// Sets the parameters of `simulation` (whose equations are those of `scenario`'s system) and
// returns the start of `scenario`, its first output row in `row` (`layout` the state layout of
// the scenario's dynamics, `observables` scratch). A system that cannot be evaluated at t = 0
// (not regular, a formula undefined there, values beyond double precision) or that the
// scenario's integrator refuses at x0 (its row's fit: discrete-gradient where it cannot
// conserve energy) is bad input: throws InputError, with `hint` after the message. Does not
// set the simulation's state.
RunStart checkedRunStart(Simulation& simulation, const Scenario& scenario,
                         const std::vector<double>& parameters, const StateLayout& layout,
                         const std::string& hint, Observables& observables,
                         std::vector<double>& row);

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
