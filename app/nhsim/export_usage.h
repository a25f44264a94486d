// The usage lines of `nhsim export`: printed by nhsim's --help (which does not load the
// renderer) and by nhsim-export.
#pragma once

namespace nh::cli {

inline constexpr const char* kExportUsage =
    "       nhsim export SYSTEM|MODEL.yaml|SCENARIO.json\n"
    "                 (--video OUT.mp4|OUT.webm|OUT.gif | --frames DIR)\n"
    "                 [--width W] [--height H] [--fps F] [--t-start T0] [--t-end T]\n"
    "                 [--speed S] [--set NAME=VALUE]... [--init NAME=VALUE]...\n"
    "                 [--dynamics nonholonomic|vakonomic] [--formulation "
    "multipliers|gibbs-appell]\n"
    "                 [--trail SECONDS] [--no-trails] [--no-forces] [--velocities] [--no-overlay]\n"
    "                 [--plots] [--plot-path X,Y|none] [--plot VAR[,VAR]...] [--csv FILE]\n"
    "                 [--no-scenario] [--force] [--quiet]\n";

}  // namespace nh::cli
