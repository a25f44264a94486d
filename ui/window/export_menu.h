// File › Export: an animation, a screenshot of the 3D view, the plots, the trajectory data —
// each dialog of ui/export fed with the session's view (display choices, camera mode,
// comparison, plotted variables), the 3D view's camera and the scenario file; a played plan
// exported as the planned motion with its start and target.
#pragma once

#include <QObject>
#include <QString>

class QAction;
class QMenu;
class QWidget;

namespace nhui {

class PhasePortraitPanel;
class SceneView;
class Session;
class TimeSeriesPanel;

class ExportMenu : public QObject {
  Q_OBJECT

 public:
  struct Sources {
    QWidget* window = nullptr;
    Session* session = nullptr;
    SceneView* view = nullptr;
    PhasePortraitPanel* phase = nullptr;  // the plots, for their pictures
    TimeSeriesPanel* timeSeries = nullptr;
    bool rememberSettings = true;  // the export dialog keeps its choices in the settings
  };
  ExportMenu(const Sources& sources, QMenu* menu, QAction* animation);

  void exportAnimation();
  void exportScreenshot();
  // The interactive page of the current run, with the view's display choices and plots and
  // the lesson's title and note; live (the browser runs the motion from the run's scenario and
  // its timed edits) when "Live page" is checked and the run can be run live.
  void exportPage();
  QAction* liveAction() const { return live_; }

 private:
  // Says why nothing was exported, in a message box titled `title`.
  void refused(const QString& title, const QString& reason);
  Sources s_;
  QAction* live_ = nullptr;
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
