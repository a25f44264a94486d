// The display choices a user makes in the Display dock — trails, arrows, grid, axes, legend,
// keeping the bodies in view, the arrow scale — and the theme (View › Theme). The scene's options
// (SceneDisplayOptions) extend these; where each is kept (a scenario file's "display" part, the
// settings, the exports) is said by the view's one field table (view_state.h).
#pragma once

#include <map>
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
  // The theme, the one background switch: true, a dark blue-grey gradient with light grid
  // lines and text (the dark theme, projectors); false, a light grey gradient with dark grid
  // lines and text (the light theme). Trail and arrow colours are chosen to read on both. The
  // exports draw their scenes, plots and pages in it.
  bool dark = false;

  // Whether arrows of this kind are drawn (forces go with the reactions).
  bool shows(nh::ArrowKind kind) const;
  bool operator==(const DisplayChoices&) const = default;
};

// A scenario's "display" part as read: the value of each key it gives (a switch as 0 or 1).
// Its keys are the "display." rows of the view's field table (view_state.h).
using DisplayValues = std::map<std::string, double>;

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
