// `nhsim export`: renders a scenario to MP4, WebM, GIF or a PNG sequence without any window,
// starting a private X server when DISPLAY is unset (see ui/export/animation_exporter.h).
// Built into the nhsim-export executable, which nhsim runs for `nhsim export` so that the
// other commands never load Qt or VTK.
#pragma once

#include <string>
#include <vector>

namespace nh::cli {

// Runs `nhsim export ARGS...` (args without the word "export"). Prints errors as one line
// "nhsim: error: ..." on stderr and returns nhsim's exit codes: 0 done, 1 output failed
// (unwritable target, encoder or rendering failure), 2 bad input, 3 simulation failed.
// Must be called on the main thread (it may start Xvfb, see nh::ensureDisplay()).
int exportCommand(const std::vector<std::string>& args);

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
