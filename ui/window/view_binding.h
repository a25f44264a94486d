// The widgets outside ui/session that show a part of the session's view and change it: the
// 3D view (camera mode, fixed arrow scales), the View menu's camera actions, the two plot
// panels and the Study panel. Each reads its part when the session says it changed
// (Session::viewChanged) and writes what the user changes through the session. The display
// choices and the theme are the window's to hand to the 3D view (with presentation mode's
// text size); the Display and Compare panels bind themselves. Also Plan a motion's target
// ghost in the 3D view.
#pragma once

#include <QObject>

class QAction;

namespace nhui {

class PhasePortraitPanel;
class PlanDialog;
class SceneView;
class Session;
class StudyPanel;
class TimeSeriesPanel;

struct ViewWidgets {
  SceneView* scene = nullptr;
  QAction* follow = nullptr;
  QAction* tableFrame = nullptr;
  PhasePortraitPanel* phase = nullptr;
  TimeSeriesPanel* timeSeries = nullptr;
  StudyPanel* study = nullptr;
};

// Binds `widgets` to the session's view for as long as `context` lives.
void bindView(Session* session, const ViewWidgets& widgets, QObject* context);

// While Plan a motion is open its targets are a ghost in the 3D view: showing the dialog shows
// the ghost, typing in the dialog moves it, dragging the ghost sets the dialog's fields,
// closing the dialog hides the ghost.
void bindTargetGhost(PlanDialog* dialog, SceneView* scene);

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
