// How the two runs of a comparison are told apart, everywhere the app shows them: the 3D
// view's trails and comparison bodies, the plots' curves and legends, the Compare panel and the
// lessons' notes. One table, so that the words always match the screen.
#pragma once

#include <QString>
#include <array>
#include <string>

#include "core/nh/scene_table.h"

namespace nh {
struct ParameterInfo;
}

namespace nhui {

class SimulationController;

// The runs' colours are the scene table's (core/nh/scene_table.h: kRunColours), shared with
// the interactive page; these names are the app's for them.
using Rgb8 = nh::Rgb;
using RunStyle = nh::RunColours;
// [0] the primary run, [1] the comparison run (vakonomic, or the ghost).
inline constexpr const std::array<RunStyle, 2>& kRunStyles = nh::kRunColours;

// The run's name in legends: its dynamics ("nonholonomic", "vakonomic") when the comparison
// is of dynamics, and "NAME = VALUE" with the run's value of the ghost parameter when it is a
// ghost, the parameter as displayValue says it (the primary run "Ω₀ = 1 rad/s", the ghost
// "Ω₀ = 2 rad/s"); "" for a run that is not there.
QString runLabel(const SimulationController& controller, int run);

// The line under the time in the 3D view and in exports that says which run is which, in the
// runs' colours' names: "blue: nonholonomic   orange: vakonomic" or "blue: Omega0 = 1
// orange: Omega0 = 2"; labels as runLabel gives them.
std::string comparisonLegendLine(const std::string& primaryLabel, const std::string& otherLabel);
// A parameter's name as shown: the model's `label` ("Ω₀") where it gives one, else its name.
// Every place that names a parameter to the user takes it from here (the parameter panel, the
// Compare panel's list, undo texts, legends); the identifier ("Omega0") is for files, --set
// and tool tips.
std::string displayName(const nh::ParameterInfo& parameter);
// Its unit as shown: "" for none (a model's "-" means none too).
std::string displayUnit(const nh::ParameterInfo& parameter);
// The name with its unit, as a field or a list names it: "Ω₀ [rad/s]" ("m" without a unit).
std::string displayHeading(const nh::ParameterInfo& parameter);
// A value of it, as a sentence says it: "Ω₀ = 3 rad/s" ("e = 0.5" without a unit).
std::string displayValue(const nh::ParameterInfo& parameter, double value);
// The overlay's words when the comparison run has left the scene (the view and exports stop
// drawing it there, the plots go on): "orange run (vakonomic) left the scene at t = 27.80 s:
// over 10 scene sizes from the blue run, it is no longer drawn; the plots show it on".
std::string leftSceneLine(const std::string& otherLabel, double leftAt, double extents);
// runLabel's ghost form, for callers without a controller (the exporter).
std::string ghostLabel(const std::string& parameter, double value);

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
