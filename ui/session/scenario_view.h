// The "view" part of a scenario file (format version 2, nh::Scenario::view): how nhlab shows
// a run — a lesson's title and "what to watch" note, playback speed, camera mode and pose,
// display toggles, the theme, the plotted variables, the comparison and the Study panel's
// last study. Every entry is optional: what a file leaves out keeps the window's current
// setting. The part carries its own version (1).
#pragma once

#include <QString>
#include <QStringList>
#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/nh/comparison.h"
#include "ui/session/display_choices.h"
#include "ui/sim/simulation_controller.h"

namespace nhui {

inline constexpr int kScenarioViewVersion = 1;

// A camera for the 3D view, in world coordinates (the app passes its view's camera): where it
// is, where it looks (its orbit and zoom about that target), which way is up, its view angle.
struct CameraPose {
  std::array<double, 3> position{};
  std::array<double, 3> focalPoint{};
  std::array<double, 3> viewUp{0, 0, 1};
  double viewAngle = 30;  // degrees
  bool operator==(const CameraPose&) const = default;
};

// What a study varies and measures, as a scenario file's view keeps it ("study" in the
// view): one or two axes, the measure and the end time of each run.
struct StudySettings {
  struct Axis {
    QString name;
    double from = 0, to = 1;
    int count = 2;
    bool operator==(const Axis&) const = default;
  };
  std::vector<Axis> axes;
  QString measure;
  double tEnd = 10;
  bool operator==(const StudySettings&) const = default;
};

struct ScenarioView {
  QString title;  // a lesson's title (the window title shows it)
  QString note;   // what to watch, shown beside the 3D view
  // "energy_drift_expected": the lesson is about an integrator's energy drift, so the app says
  // the drift in the status bar rather than as a warning.
  bool energyDriftExpected = false;
  std::optional<double> speed;
  std::optional<double> step;  // seconds per Step
  std::optional<bool> follow;
  std::optional<bool> tableFrame;
  // "camera": {"position", "target", "up", "view_angle"}: the 3D view's camera when saved.
  std::optional<CameraPose> camera;
  // "theme": "dark" | "light", the theme it was saved in: its exports draw in it (nhlab keeps
  // its own theme, the settings').
  std::optional<bool> dark;
  DisplayValues display;             // the "display" keys given (display_choices.h)
  std::optional<QStringList> phase;  // two variables
  std::optional<QStringList> timeSeries;
  // "compare": {"mode": "off" | "vakonomic" | "ghost", "parameter": NAME, "value": V |
  // "integrator", "integrator": NAME, "step": H}; only what its mode reads is set.
  std::optional<nh::Comparison> comparison;
  // Whether "compare" gave the other integrator's "step" (absent: the output step, or the
  // primary's fixed step when smaller).
  bool otherStepGiven = false;
  // "study": {"vary": [{"name", "from", "to", "count"}, …one or two], "measure", "t_end"}
  std::optional<StudySettings> study;
  // "plan": {"t_end", "targets": {name: value}, "starts"}: opened, it is solved and its
  // lowest-cost extremal played.
  std::optional<PlanSettings> plan;
  // "arrow_scales": {arrow name: magnitude drawn at the reference length}: the fixed arrow
  // scales in force when saved, so that a reopened view draws its arrows as long again.
  std::map<std::string, double> arrowScales;
};

// Throws nh::InputError naming the key and what is allowed. Empty text: an empty view.
ScenarioView parseScenarioView(const std::string& json);
// Compact JSON with "version"; entries that are unset are left out.
std::string scenarioViewToJson(const ScenarioView& view);

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
