// nhsim-export: the `nhsim export` command as its own executable, so that nhsim's other
// commands load neither Qt nor VTK. nhsim runs it with the arguments after "export".
#include <string>
#include <vector>

#include "app/nhsim/export_command.h"

int main(int argc, char** argv) {
  return nh::cli::exportCommand(std::vector<std::string>(argv + 1, argv + argc));
}
// SPDX-License-Identifier: GPL-3.0-or-later
