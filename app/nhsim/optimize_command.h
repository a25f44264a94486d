// nhsim optimize: an optimal motion (optimal control or vakonomic) from the start to the
// targets at T, as CSV or, with --json, every extremal found (core/nh/optimal_control.h).
#pragma once

#include <string>
#include <vector>

#include "app/nhsim/command_line.h"

namespace nh::cli {

// `args` are the words after "nhsim" (echoed in the CSV's first line).
int optimizeCommand(const OptimizeOptions& options, const std::vector<std::string>& args);

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
