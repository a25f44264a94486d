// `nhsim equations`: the derived equations of a system (theory §2: M, F, A, b and, where the
// constraints can be eliminated, ẏ and λ explicitly) as plain text or LaTeX.
#pragma once

#include <string>

#include "app/nhsim/command_line.h"

namespace nh::cli {

// The text `nhsim equations` prints for `line` (parsed by parseCommandLine): plain text or
// LaTeX. Throws UsageError / InputError for bad input.
std::string equationsText(const EquationsOptions& line);

// Runs `nhsim equations` as parsed by parseCommandLine: prints the equations
// on stdout. Throws UsageError / InputError for bad input (exit 2), Error when stdout
// cannot be written (exit 1).
int equationsCommand(const EquationsOptions& line);

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
