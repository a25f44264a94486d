// The long help of the commands that have one (what their options mean together), held by
// their rows of kCommands (CommandRow::footer, app/nhsim/command_line.h).
#pragma once

#include <string>

namespace nh::cli {

std::string runFooter();
std::string exportFooter();
std::string sweepFooter();
std::string optimizeFooter();
std::string lyapunovFooter();

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
