// `nhsim linearize`: the eigenvalues of the equations of motion linearised on the constraint
// manifold and reduced (core/nh/linearize.h), at the initial state `run` would use, or over
// a sweep of a parameter or an independent state variable.
#pragma once

#include <string>
#include <vector>

namespace nh::cli {

inline constexpr const char* kLinearizeUsage =
    "       nhsim linearize SYSTEM|MODEL.yaml|SCENARIO.json [--set NAME=VALUE]...\n"
    "                 [--init NAME=VALUE]... [--sweep NAME=FROM:TO:N] [--json]\n";

// Runs `nhsim linearize ARGS...` (args without the word "linearize"). Throws UsageError /
// InputError for bad input (exit 2), Error when stdout cannot be written (exit 1).
int linearizeCommand(const std::vector<std::string>& args);

}  // namespace nh::cli
