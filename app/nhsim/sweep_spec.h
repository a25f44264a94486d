// The study a sweep command line describes, shared by nhsim-sweep and the Python module's
// System.sweep(): its axes, count, seed and measures checked as `nhsim sweep` checks them.
#pragma once

#include <memory>

#include "app/nhsim/command_line.h"
#include "core/study/sweep.h"

namespace nh::cli {

// The study of a sweep command line (parsed by parseCommandLine): axes, count, seed,
// measures as given. Throws UsageError / InputError naming the option.
study::StudySpec studySpecOf(const SweepOptions& line);

// The study of a sweep command line, ready to run. Throws UsageError / InputError.
std::unique_ptr<study::Study> studyOf(const SweepOptions& line);

// A worker count from --jobs (1 … 1024), else `fallback`. Throws UsageError.
int jobsOf(const SweepOptions& line, int fallback);

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
