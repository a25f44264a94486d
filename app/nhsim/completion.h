// nhsim's bash completion, written from the commands and options the parser declares
// (declaredCommandLine in app/nhsim/command_line.h), so that it offers what nhsim accepts:
// the commands, each command's options, the words of an option with a fixed choice
// (--integrator, --format…), file names where a file is expected, and the systems of
// 'nhsim list' or model and scenario files for a command's target. The package installs the
// script (nhsim-completion prints it at build time).
#pragma once

#include <string>

#include "app/nhsim/command_line.h"

namespace nh::cli {

// What a value of the kind `type` (an option's value or a target, as the help shows it)
// completes to.
enum class ValueCompletion {
  None,     // a number, a NAME=VALUE…: nothing to offer
  Words,    // a fixed choice: "csv|hdf5"
  Files,    // a file: "FILE|-", "OUT.mp4|OUT.webm|OUT.gif"
  Folders,  // a folder: "DIR"
  Systems,  // a system name or a model or scenario file: "SYSTEM|MODEL.yaml"
};
ValueCompletion valueCompletion(const std::string& type);

// The bash script that completes `line` for the program nhsim (a function and `complete -F`).
std::string bashCompletion(const DeclaredCommandLine& line);

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
