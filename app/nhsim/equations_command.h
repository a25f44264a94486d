// `nhsim equations`: the derived equations of a system (theory §2: M, F, A, b and, where the
// constraints can be eliminated, ẏ and λ explicitly) as plain text or LaTeX.
#pragma once

#include "app/nhsim/command_line.h"

namespace nh::cli {

// Runs `nhsim equations` as parsed by parseCommandLine: prints the equations
// on stdout. Throws UsageError / InputError for bad input (exit 2), Error when stdout
// cannot be written (exit 1).
int equationsCommand(const EquationsOptions& line);

}  // namespace nh::cli
