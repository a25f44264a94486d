// The long help of the commands that have one (what their options mean together), held by
// their rows of kCommands (CommandRow::footer, app/nhsim/command_line.h).
#pragma once

namespace nh::cli {

extern const char kRunFooter[];
extern const char kExportFooter[];
extern const char kSweepFooter[];
extern const char kOptimizeFooter[];

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
