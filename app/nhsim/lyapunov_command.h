// `nhsim lyapunov`: the largest finite-time Lyapunov exponents of a run on its constraint
// manifold (core/nh/jacobi_fields.h), at T/2 and at T, as text or JSON.
#pragma once

#include "app/nhsim/command_line.h"

namespace nh::cli {

// Runs `nhsim lyapunov` as parsed by parseCommandLine. Throws UsageError / InputError for bad
// input (exit 2), IntegrationError when the run fails (exit 3), Error when stdout cannot be
// written (exit 1).
int lyapunovCommand(const LyapunovOptions& command);

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
