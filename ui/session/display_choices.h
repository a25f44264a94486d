// The display choices a user makes in the Display dock — trails, arrows, grid, axes, legend,
// keeping the bodies in view, the arrow scale — and the one table that says where each is
// kept: its key in a scenario file's "display" part and in the app's settings. The scene's
// options (SceneDisplayOptions) extend these; the Display dock, the settings, the scenario
// view and the export dialog all copy them through this table.
#pragma once

#include <QSettings>
#include <map>
#include <span>
#include <string>

#include "core/nh/system.h"

namespace nhui {

struct DisplayChoices {
  bool trails = true;
  double trailSeconds = 30;    // simulated seconds of trail kept (the caller slices the history)
  bool reactionArrows = true;  // reaction (constraint) and applied forces
  bool velocityArrows = true;
  bool angularVelocityArrows = false;
  bool grid = true;
  bool axes = true;
  bool legend = true;
  // The camera keeps the moving bodies (and, while they fit, their recent trail) in view,
  // translating and zooming out only when needed (CameraFramer, scene_camera.h). Off: the
  // camera stays where the user put it. "Follow" (SceneView::setFollow) takes precedence.
  bool keepInView = true;
  // Arrow scales. Auto (false): each arrow's scale follows its magnitude in 1-2-5 steps with
  // hysteresis (it grows when a vector outgrows it, shrinks after a while far below it).
  // Fixed (true): the scale stays (see SceneDisplayOptions::fixedArrowReference). Lessons fix
  // the scales so that speeds compare across runs.
  bool arrowScaleFixed = false;

  // Whether arrows of this kind are drawn (forces go with the reactions).
  bool shows(nh::ArrowKind kind) const;
};

// One display choice: a switch (flag) or a number, with its key in a scenario's "display"
// part (whose kind and bounds core/io's viewDisplayKeys() give) and in the settings.
struct DisplayField {
  const char* viewKey;      // in a scenario's "display" part
  const char* settingsKey;  // in the settings, under "display/"
  bool DisplayChoices::*flag = nullptr;
  double DisplayChoices::*number = nullptr;
};
std::span<const DisplayField> displayFields();

// A scenario's "display" part as read: the value of each key it gives (a switch as 0 or 1).
using DisplayValues = std::map<std::string, double>;

DisplayValues displayValues(const DisplayChoices& choices);                     // every field
void applyDisplayValues(const DisplayValues& values, DisplayChoices& choices);  // those given

// The settings (QSettings "display/…"): what they leave out keeps `choices`' value.
void readDisplaySettings(const QSettings& settings, DisplayChoices& choices);
void writeDisplaySettings(QSettings& settings, const DisplayChoices& choices);

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
