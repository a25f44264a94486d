// What the nhsim commands share: number and NAME=VALUE parsing, loading a run target
// (a system name or a scenario file), the scenario options common to run and export, and the
// mapping of errors to one stderr line and an exit code.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/nh/errors.h"
#include "core/nh/scenario.h"
#include "core/nh/system.h"

namespace nh::cli {

// Exit codes: 0 success, 1 failure writing output, 2 bad input (usage, names, values,
// scenario files), 3 the simulation failed (blow-up, non-regular system).
enum ExitCode { kOk = 0, kOutputError = 1, kInputError = 2, kSimulationError = 3 };

// A malformed command line (missing value, unknown option): reported like any bad input.
class UsageError : public InputError {
 public:
  using InputError::InputError;
};

// `text` as echoed in a message: at most 60 characters (then "…"), control characters, NUL
// and newlines escaped (\n, \x01), between single quotes. Every message that repeats user
// input goes through it, so that each error stays one readable line.
std::string quote(const std::string& text);
// `text` with control characters escaped like quote() does, not cut: one line.
std::string oneLine(const std::string& text);
// The command as it determines the output, for a "# " comment line: "nhsim" and `args`
// (shell-quoted where needed) without --out, --jobs, --format, --mpi and --quiet (and their
// values), which do not change the rows; one line.
std::string commandEcho(const std::vector<std::string>& args);
// Called in a catch block for `error`: rethrows it with each of `inputs` that the message
// repeats as 'input' shown by quote() (core messages echo names whole); rethrows it
// unchanged when there is nothing to shorten or escape.
[[noreturn]] void rethrowQuoting(const InputError& error, const std::vector<std::string>& inputs);

// Writes `text` to standard output and flushes it; throws Error "cannot write to standard
// output: …" when that fails.
void writeStdout(const std::string& text);

// A finite number, all of `text`; `what` names the option in the error message.
double parseNumber(const std::string& text, const std::string& what);
// The value of --max-steps: a whole number ≥ 1 (an integrator's step budget per run).
std::int64_t parseStepBudget(const std::string& text);
// "NAME=VALUE" with a numeric VALUE.
std::pair<std::string, double> parseAssignment(const std::string& text, const std::string& option);

// A system name (the scenario gets the defaults) or a scenario file (*.json or any existing
// file). Sets *fromFile accordingly when given.
Scenario loadTarget(const std::string& target, bool* fromFile = nullptr);

// The system named `name` (catalogue name or model file), like nh::findSystem, with the
// echoed name cut by quote().
std::shared_ptr<const SystemModel> findNamedSystem(const std::string& name);

// Applies the scenario options shared by run, export and linearize (--set NAME=VALUE and
// --init NAME=VALUE in order, --dynamics, --formulation when not empty) to `scenario`.
void applyScenarioOptions(const std::vector<std::string>& set, const std::vector<std::string>& init,
                          const std::string& dynamics, const std::string& formulation,
                          Scenario& scenario);

// SIGINT, SIGTERM and SIGHUP end the command at once, the one way of commands whose output is
// all or nothing (optimize, export --html, and those that only print): the live temporaries
// are removed (no hidden ".partial" is left), "nhsim: interrupted by signal N (SIGINT);
// OUTPUT was not written" goes to standard error ("nhsim: interrupted by signal N (SIGINT)"
// when `output` is "" or standard output) and the exit code is 128 + N. run, sweep and
// export --video install their own handlers, which keep what they have written.
void endOnStopSignals(const std::string& output = "");

// An error message as nhsim reports it, the last defence for messages that echo input: one
// line whatever the text, and no quoted input longer than quote() shows.
std::string errorLine(const std::string& message);

// Runs `command`, turning exceptions into one line "nhsim: error: …" on stderr and the exit
// codes above; then flushes standard output, and a failure to write it (e.g. a full disk)
// is reported as "cannot write to standard output: …" with kOutputError.
int reportErrors(const std::function<int()>& command);

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
