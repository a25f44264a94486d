// The view: how the app shows a run — playback speed, the display choices (trails, arrows,
// grid …), the camera mode, the plotted variables, the comparison, the Study panel's last
// study and the theme — as one record the session owns (Session::view()), and the one table
// of its fields: each field's key in a scenario file's view part and in the app's settings,
// its type, its default and where it applies (the scenario file, the settings, the video
// export, the page export). Panels read the record when the session says a part changed and
// write it through the session; the scenario file, the settings and both exports read and
// write this record through the table.
#pragma once

#include <QSettings>
#include <QString>
#include <QStringList>
#include <array>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/nh/comparison.h"
#include "ui/session/display_choices.h"
#include "ui/session/scenario_view.h"
#include "ui/sim/simulation_controller.h"

namespace nhui {

// The parts of the view, one bit each: Session::viewChanged names those that changed.
enum ViewPart : unsigned {
  kViewSpeed = 1u << 0,
  kViewDisplay = 1u << 1,      // display choices, hidden trails, the time overlay
  kViewArrowScales = 1u << 2,  // the fixed arrow scales a scenario file was saved with
  kViewCamera = 1u << 3,       // follow, the moving frame
  kViewPlots = 1u << 4,
  kViewComparison = 1u << 5,
  kViewStudy = 1u << 6,
  kViewTheme = 1u << 7,
  kViewCameraPose = 1u << 8,  // the camera's orbit, zoom and target a scenario file gave
  kViewAll = (1u << 9) - 1,
};
using ViewParts = unsigned;

struct ViewState {
  double speed = 1;  // simulated seconds per second of playback
  DisplayChoices display;
  std::vector<std::string> hiddenTrails;  // trail point names switched off
  bool overlayText = true;                // the time overlay in the 3D view
  // With display.arrowScaleFixed: the magnitude each arrow draws at the reference length (a
  // reopened scenario's, so that its arrows are drawn as long as when it was saved).
  std::map<std::string, double> arrowScales;
  bool follow = false;      // the camera follows the system's followed body
  bool tableFrame = false;  // the view from the moving frame (when the scene has one)
  // The 3D view's camera a scenario file gave (its orbit, zoom and target; kViewCameraPose),
  // and the one a saved scenario keeps (the session asks the view for it when saving).
  std::optional<CameraPose> camera;
  // The plotted variables (the plot panels write those of the running system).
  QString phaseX = "x", phaseY = "y";
  QStringList timeSeries = {"energy"};
  // The comparison in force (the controller's: Session::setComparison changes it).
  nh::Comparison comparison;
  std::optional<StudySettings> study;  // the Study panel's last study
  // The theme is display.dark (its own part, kViewTheme, beside the other display choices).

  bool operator==(const ViewState&) const = default;
};

// Where a field applies, one bit each.
enum ViewUse : unsigned {
  kUseFile = 1u << 0,      // a scenario file's view part
  kUseSettings = 1u << 1,  // the app's settings (QSettings)
  kUseVideo = 1u << 2,     // the animation export
  kUsePage = 1u << 3,      // the interactive page export
};

// One field of the view. A switch or a number (get/set given) is read and written by the
// table alone; the other fields (lists, the comparison, the study) are read and written as
// their rows say, by scenario_view.cpp and by their owners.
struct ViewField {
  const char* key;          // in a scenario's view part ("display.trails", "camera.follow")
  const char* settingsKey;  // in the settings ("display/trails"); nullptr: not kept there
  const char* type;         // "switch", "number", "choice", "names", "comparison" …
  const char* defaultText;  // the default, as the docs say it
  ViewPart part;
  unsigned uses;  // ViewUse bits
  double (*get)(const ViewState&) = nullptr;
  void (*set)(ViewState&, double) = nullptr;
  // A choice kept as text: the value for 1 and for 0 ("fixed"/"auto", "dark"/"light").
  const char* on = nullptr;
  const char* off = nullptr;
};
std::span<const ViewField> viewFields();
// The row of `key` (a view part key such as "display.grid"); nullptr: none.
const ViewField* findViewField(const std::string& key);

// The comparison `controller` has in force, as the view holds it.
nh::Comparison comparisonInForce(const SimulationController& controller);

// Copies the parts `parts` of `from` into `to`; the parts in which two views differ.
void copyViewParts(const ViewState& from, ViewParts parts, ViewState& to);
ViewParts differingViewParts(const ViewState& a, const ViewState& b);

// The settings: every field kept there that `settings` holds; the others keep `view`'s value.
void readViewSettings(const QSettings& settings, ViewState& view);
void writeViewSettings(QSettings& settings, const ViewState& view);

// A scenario's "display" part as read (display_choices.h's DisplayValues) from the view, and
// the values given into the view's display choices.
DisplayValues displayValues(const ViewState& view);
void applyDisplayValues(const DisplayValues& values, ViewState& view);

// A scenario file's view part taken into `view`: what it gives, the rest kept; returns the
// parts it gave. The comparison's other step is the file's (see ScenarioView::otherStepGiven).
ViewParts applyScenarioView(const ScenarioView& file, ViewState& view);
// The view part a saved scenario holds: speed, camera mode (tableFrame only with
// `hasMovingFrame`) and pose, display choices, the theme, fixed arrow scales, plots,
// comparison and study.
ScenarioView scenarioViewOf(const ViewState& view, bool hasMovingFrame);

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
