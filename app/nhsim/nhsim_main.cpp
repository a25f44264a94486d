// nhsim's entry point: nh::cli::main (nhsim.h) with the process's arguments.
#include "app/nhsim/nhsim.h"

int main(int argc, char** argv) { return nh::cli::main(argc, argv); }
// SPDX-License-Identifier: GPL-3.0-or-later
