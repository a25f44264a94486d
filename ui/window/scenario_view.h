// The "view" part of a scenario file (format version 2, nh::Scenario::view): how nhlab shows
// a run — a lesson's title and "what to watch" note, playback speed, camera mode, display
// toggles, the plotted variables, the comparison and the Study panel's last study. Every entry is
// optional: what a file leaves out keeps the window's current setting. The part carries its own
// version (1).
#pragma once

#include <QString>
#include <QStringList>
#include <optional>
#include <string>

#include "ui/sim/simulation_controller.h"
#include "ui/study/study_panel.h"

namespace nhui {

inline constexpr int kScenarioViewVersion = 1;

struct ScenarioView {
  QString title;  // a lesson's title (the window title shows it)
  QString note;   // what to watch, shown beside the 3D view
  std::optional<double> speed;
  std::optional<double> step;  // seconds per Step
  std::optional<bool> follow;
  std::optional<bool> tableFrame;
  std::optional<bool> trails, forces, velocity, angularVelocity, grid, axes, legend;
  std::optional<double> trailSeconds;
  std::optional<bool> fixedArrowScale;  // "arrow_scale": "fixed" | "auto"
  std::optional<QStringList> phase;     // two variables
  std::optional<QStringList> timeSeries;
  std::optional<CompareMode> compare;
  QString ghostParameter;
  double ghostValue = 0;
  // "study": {"vary": [{"name", "from", "to", "count"}, …one or two], "measure", "t_end"}
  std::optional<StudySettings> study;
};

// Throws nh::InputError naming the key and what is allowed. Empty text: an empty view.
ScenarioView parseScenarioView(const std::string& json);
// Compact JSON with "version"; entries that are unset are left out.
std::string scenarioViewToJson(const ScenarioView& view);

}  // namespace nhui
