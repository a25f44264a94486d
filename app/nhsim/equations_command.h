// `nhsim equations`: the derived equations of a system (theory §2: M, F, A, b and, where the
// constraints can be eliminated, ẏ and λ explicitly) as plain text or LaTeX.
#pragma once

#include <string>
#include <vector>

namespace nh::cli {

inline constexpr const char* kEquationsUsage =
    "       nhsim equations SYSTEM|MODEL.yaml [--latex] [--set NAME=VALUE]...\n";

// Runs `nhsim equations ARGS...` (args without the word "equations"): prints the equations
// on stdout. Throws UsageError / InputError for bad input (exit 2), Error when stdout
// cannot be written (exit 1).
int equationsCommand(const std::vector<std::string>& args);

}  // namespace nh::cli
