// The nhsim command line: list, info, run (and export when built with the renderer).
#pragma once

#include "app/nhsim/cli_support.h"  // exit codes

namespace nh::cli {

int main(int argc, char** argv);

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
