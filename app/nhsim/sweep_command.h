// `nhsim sweep`: a parameter study (core/study) on all cores, written as CSV.
#pragma once

#include <string>
#include <vector>

#include "app/nhsim/command_line.h"
#include "core/study/sweep.h"

namespace nh::cli {

// The study of a sweep command line (parsed by parseCommandLine): axes, count, seed,
// measures as given. Throws UsageError / InputError naming the option.
study::StudySpec studySpecOf(const CommandLine& line);

// Runs `nhsim sweep`; `args` are the words after "nhsim" (echoed in the file's first comment
// line without --out, --jobs and --quiet, which do not change the rows). Bad input, an
// unwritable output included, throws InputError before anything is written (exit 2); a write
// error throws Error (exit 1) and leaves no file; Ctrl+C (SIGINT, SIGTERM, SIGHUP) keeps the
// finished rows, ends the file with "# partial: N of M runs" and returns 128 + the signal.
int sweepCommand(const CommandLine& line, const std::vector<std::string>& args);

}  // namespace nh::cli
