// `nhsim linearize`: the eigenvalues of the equations of motion linearised on the constraint
// manifold and reduced (core/nh/linearize.h), at the initial state `run` would use, or over
// a sweep of a parameter or an independent state variable.
#pragma once

#include "app/nhsim/command_line.h"

namespace nh::cli {

// Runs `nhsim linearize` as parsed by parseCommandLine. Throws UsageError /
// InputError for bad input (exit 2), Error when stdout cannot be written (exit 1).
// `args`: the words after "nhsim", echoed in the CSV's first comment line.
int linearizeCommand(const LinearizeOptions& command, const std::vector<std::string>& args);

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
