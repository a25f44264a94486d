// What the nhsim commands share: number and NAME=VALUE parsing, loading a run target
// (a system name or a scenario file), the scenario options common to run and export, and the
// mapping of errors to one stderr line and an exit code.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/nh/errors.h"
#include "core/nh/scenario.h"

namespace nh::cli {

// Exit codes: 0 success, 1 failure writing output, 2 bad input (usage, names, values,
// scenario files), 3 the simulation failed (blow-up, non-regular system).
enum ExitCode { kOk = 0, kOutputError = 1, kInputError = 2, kSimulationError = 3 };

// A malformed command line (missing value, unknown option): reported like any bad input.
class UsageError : public InputError {
 public:
  using InputError::InputError;
};

// A finite number, all of `text`; `what` names the option in the error message.
double parseNumber(const std::string& text, const std::string& what);
// The value of --max-steps: a whole number ≥ 1 (an integrator's step budget per run).
long parseStepBudget(const std::string& text);
// "NAME=VALUE" with a numeric VALUE.
std::pair<std::string, double> parseAssignment(const std::string& text, const std::string& option);

// A system name (the scenario gets the defaults) or a scenario file (*.json or any existing
// file). Sets *fromFile accordingly when given.
Scenario loadTarget(const std::string& target, bool* fromFile = nullptr);

// The value of the option at args[i]: moves i to it and returns it; throws UsageError when
// the command line ends there.
const std::string& optionValue(const std::vector<std::string>& args, size_t& i);

// If args[i] is one of the scenario options shared by run and export (--set, --init,
// --dynamics, --formulation), applies it to `scenario`, moves i past its value and returns
// true; otherwise returns false and leaves i alone.
bool parseScenarioOption(const std::vector<std::string>& args, size_t& i, Scenario& scenario);

// Runs `command`, turning exceptions into "nhsim: error: …" on stderr and the exit codes
// above.
int reportErrors(const std::function<int()>& command);

}  // namespace nh::cli
