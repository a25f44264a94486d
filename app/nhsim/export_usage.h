// The usage lines and help of `nhsim export`: printed by nhsim's --help and
// `nhsim export --help` (which load no renderer).
#pragma once

#include <string>

#include "core/nh/dynamics.h"
#include "core/nh/named_choice.h"

namespace nh::cli {

inline std::string exportUsage() {
  return "       nhsim export SYSTEM|MODEL.yaml|SCENARIO.json\n"
         "                 (--video OUT.mp4|OUT.webm|OUT.gif | --frames DIR | --html OUT.html)\n"
         "                 [--width W] [--height H] [--fps F] [--t-start T0] [--t-end T]\n"
         "                 [--speed S] [--set NAME=VALUE]... [--init NAME=VALUE]...\n"
         "                 [--dynamics " +
         alternatives(kDynamicsChoices) + "] [--formulation " + alternatives(kFormulationChoices) +
         "]\n"
         "                 [--trail SECONDS] [--no-trails] [--no-forces] [--velocities] "
         "[--no-overlay]\n"
         "                 [--plots] [--plot-path X,Y|none] [--plot VAR[,VAR]...] [--csv FILE]\n"
         "                 [--max-steps N] [--no-scenario] [--force] [--quiet]\n";
}

// What the options of `nhsim export` mean together (the end of its --help).
inline constexpr const char* kExportHelp =
    "Renders the 3D view (optionally with plots beside it) at fixed simulated times:\n"
    "frame i shows t = T0 + i*S/F, and the clip has round((T - T0)*F/S) frames, so it plays\n"
    "(T - T0)/S seconds. Defaults: 1280x720, 30 fps, T0 = 0, T = the scenario's t_end (10 s),\n"
    "S = 1 (simulated seconds per video second: 0.25 slow motion, 4 time-lapse), trails of\n"
    "10 s, force arrows and the time/parameter overlay on. The resolved scenario is written\n"
    "next to the output (clip.mp4 -> clip.mp4.json, DIR.json for frames) so that the export is\n"
    "reproducible; it never replaces the input scenario, and replaces an existing file that an\n"
    "earlier export to the same output did not write only with --force.\n"
    "SIGINT, SIGTERM or SIGHUP stop the export and remove its temporary (exit 130, 143, 129).\n"
    "Works without a display: with DISPLAY unset a private Xvfb is started and stopped.\n"
    "With --html the export writes one self-contained page instead (three.js and the samples\n"
    "inlined, no network): the 3D scene with an orbit camera, play/pause, speed, a time slider\n"
    "and the plots (those of --plot-path and --plot, else a lesson's), with a lesson's note;\n"
    "it needs no display and ignores --width, --height and --no-overlay.\n";

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
