// `nhsim export`: renders a scenario to MP4, WebM, GIF or a PNG sequence without any window,
// starting a private X server when DISPLAY is unset (see ui/export/animation_exporter.h).
// Compiled into nhsim only when the GUI libraries are built (NH_HAVE_EXPORT).
#pragma once

#include <string>
#include <vector>

namespace nh::cli {

// The usage lines of the export command, for nhsim's --help.
extern const char* const kExportUsage;

// Runs `nhsim export ARGS...` (args without the word "export"). Prints errors as one line
// "nhsim: error: ..." on stderr and returns nhsim's exit codes: 0 done, 1 output failed
// (unwritable target, encoder or rendering failure), 2 bad input, 3 simulation failed.
// Must be called on the main thread (it may start Xvfb, see nh::ensureDisplay()).
int exportCommand(const std::vector<std::string>& args);

}  // namespace nh::cli
