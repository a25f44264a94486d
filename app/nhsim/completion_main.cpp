// nhsim-completion [FILE]: writes nhsim's bash completion script (app/nhsim/completion.h) to
// FILE, or to standard output. Run at build time for the package; not installed.
#include <fstream>
#include <iostream>

#include "app/nhsim/completion.h"

int main(int argc, char** argv) {
  const std::string script = nh::cli::bashCompletion(nh::cli::declaredCommandLine());
  if (argc < 2) {
    std::cout << script;
    return std::cout ? 0 : 1;
  }
  std::ofstream file(argv[1], std::ios::binary);
  file << script;
  file.close();
  if (file) return 0;
  std::cerr << "nhsim-completion: cannot write '" << argv[1] << "'\n";
  return 1;
}
// SPDX-License-Identifier: GPL-3.0-or-later
