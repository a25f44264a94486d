// bindView (view_binding.h): the camera, the plots and the Study panel each bound to their part
// of the session's view, read when it changes and written back when the user changes them.
#include "ui/window/view_binding.h"

#include <QAction>
#include <QEvent>
#include <functional>

#include "ui/panels/plan_dialog.h"
#include "ui/plot/plot_panels.h"
#include "ui/scene/scene_view.h"
#include "ui/session/session.h"
#include "ui/study/study_panel.h"

namespace nhui {

namespace {

// Calls `shown` each time the object it filters is shown.
class ShowWatcher : public QObject {
 public:
  ShowWatcher(QObject* watched, std::function<void()> shown)
      : QObject(watched), shown_(std::move(shown)) {
    watched->installEventFilter(this);
  }
  bool eventFilter(QObject*, QEvent* event) override {
    if (event->type() == QEvent::Show) shown_();
    return false;
  }

 private:
  std::function<void()> shown_;
};

// The camera mode: the actions and the 3D view show the view's; a toggled action writes it.
void bindCamera(Session* session, const ViewWidgets& w, QObject* context) {
  QObject::connect(w.follow, &QAction::toggled, context, [session](bool on) {
    ViewState v = session->view();
    v.follow = on;
    session->setView(v, kViewCamera);
  });
  QObject::connect(w.tableFrame, &QAction::toggled, context, [session](bool on) {
    ViewState v = session->view();
    v.tableFrame = on;
    session->setView(v, kViewCamera);
  });
  QObject::connect(session, &Session::viewChanged, context, [session, w](ViewParts parts) {
    const ViewState v = session->view();
    if (parts & kViewCamera) {
      {
        const QSignalBlocker blockFollow(w.follow), blockTable(w.tableFrame);
        w.follow->setChecked(v.follow);
        w.tableFrame->setChecked(v.tableFrame);
      }
      w.scene->setFollow(v.follow);
      w.scene->setTableFrame(v.tableFrame);
    }
    if (parts & kViewArrowScales) w.scene->primaryRenderer().setArrowReferences(v.arrowScales);
    if ((parts & kViewCameraPose) && v.camera) w.scene->setCameraPose(*v.camera);
  });
  // A saved scenario keeps the scales the view draws with, and its camera.
  session->setArrowScaleSource(
      [scene = w.scene] { return scene->primaryRenderer().arrowReferences(); });
  session->setCameraSource([scene = w.scene] { return scene->cameraPose(); });
}

// The plotted variables: a panel shows the view's (those its system records); what it plots
// after a choice, a set or a reset is written back.
void bindPlots(Session* session, const ViewWidgets& w, QObject* context) {
  // Each panel writes its own variables only: a panel set from the view writes back before
  // the other has been set, and must not write the other's old variables over the view's.
  auto writePhase = [session, w] {
    ViewState v = session->view();
    v.phaseX = w.phase->xVariable();
    v.phaseY = w.phase->yVariable();
    session->setView(v, kViewPlots);
  };
  auto writeTimeSeries = [session, w] {
    ViewState v = session->view();
    v.timeSeries = w.timeSeries->variables();
    session->setView(v, kViewPlots);
  };
  QObject::connect(w.phase, &PhasePortraitPanel::variablesChanged, context, writePhase);
  QObject::connect(w.timeSeries, &TimeSeriesPanel::variablesChanged, context, writeTimeSeries);
  QObject::connect(session, &Session::viewChanged, context, [session, w](ViewParts parts) {
    if (!(parts & kViewPlots)) return;
    const ViewState v = session->view();  // a copy: setting a panel writes back to the view
    if (v.phaseX != w.phase->xVariable() || v.phaseY != w.phase->yVariable())
      w.phase->setVariables(v.phaseX, v.phaseY);
    if (v.timeSeries != w.timeSeries->variables()) w.timeSeries->setVariables(v.timeSeries);
  });
  writePhase();
  writeTimeSeries();
}

// The Study panel's last study: shown when the view brings one (a scenario file's), kept in
// the view when a study starts or another system voids it.
void bindStudy(Session* session, const ViewWidgets& w, QObject* context) {
  QObject::connect(w.study, &StudyPanel::settingsChanged, context,
                   [session](const std::optional<StudySettings>& settings) {
                     ViewState v = session->view();
                     v.study = settings;
                     session->setView(v, kViewStudy);
                   });
  QObject::connect(session, &Session::viewChanged, context, [session, w](ViewParts parts) {
    const std::optional<StudySettings>& study = session->view().study;
    if ((parts & kViewStudy) && study && w.study->lastSettings() != study)
      w.study->applySettings(*study);
  });
}
}  // namespace

void bindView(Session* session, const ViewWidgets& widgets, QObject* context) {
  bindCamera(session, widgets, context);
  bindPlots(session, widgets, context);
  bindStudy(session, widgets, context);
}

void bindTargetGhost(PlanDialog* dialog, SceneView* scene) {
  QObject::connect(dialog, &PlanDialog::targetsEdited, scene,
                   [dialog, scene](const std::map<std::string, double>& targets) {
                     if (dialog->isVisible()) scene->setTargetGhost(targets);
                   });
  QObject::connect(scene, &SceneView::targetGhostDragged, dialog,
                   &PlanDialog::setTargetCoordinates);
  QObject::connect(dialog, &QDialog::finished, scene, [scene] { scene->setTargetGhost({}); });
  new ShowWatcher(dialog, [dialog, scene] { scene->setTargetGhost(dialog->targetCoordinates()); });
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
