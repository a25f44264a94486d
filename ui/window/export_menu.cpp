// ExportMenu (export_menu.h): the File › Export actions, each gathering the session's view,
// the camera and the scenario for its dialog of ui/export.
#include "ui/window/export_menu.h"

#include <vtkRenderer.h>

#include <QAction>
#include <QMenu>
#include <algorithm>

#include "ui/export/export_dialog.h"
#include "ui/plot/plot_panels.h"
#include "ui/scene/scene_view.h"
#include "ui/session/session.h"
#include "ui/sim/run_style.h"

namespace nhui {

ExportMenu::ExportMenu(const Sources& sources, QMenu* menu, QAction* animation)
    : QObject(menu), s_(sources) {
  connect(animation, &QAction::triggered, this, &ExportMenu::exportAnimation);
  menu->addAction(animation);
  menu->addAction(tr("&Screenshot of the 3D view…"), this, &ExportMenu::exportScreenshot);
  menu->addAction(tr("&Phase portrait (PNG, SVG)…"), this, [this] {
    exportPlot(s_.window, *s_.phase->plot(), s_.phase->plot()->xLabel(), "phase-portrait");
  });
  menu->addAction(tr("&Time series (PNG, SVG)…"), this, [this] {
    exportPlot(s_.window, *s_.timeSeries->plot(), "t [s]", "time-series");
  });
  menu->addAction(tr("&Interactive page (HTML)…"), this, &ExportMenu::exportPage);
  menu->addAction(tr("Trajectory &data (CSV + scenario JSON)…"), this, [this] {
    const SimulationController* c = s_.session->controller();
    exportData(s_.window, c->primary(), c->scenario());
  });
}

void ExportMenu::exportAnimation() {
  const SimulationController* c = s_.session->controller();
  // The exporter simulates the scenario: a played plan would come out as another motion.
  if (c->showingPlan()) {
    s_.session->reportError(tr("Not exported: %1.").arg(kPlanExportRefused));
    return;
  }
  ExportDefaults defaults;
  defaults.baseName = QString::fromStdString(c->scenario().system);
  defaults.tEnd = std::max(1.0, c->primary().lastTime());
  defaults.view = s_.session->view();
  if (vtkRenderer* renderer = s_.view->renderer())
    defaults.camera = cameraPoseOf(renderer->GetActiveCamera());
  defaults.inputScenario = s_.session->currentFile();
  defaults.rememberSettings = s_.rememberSettings;
  showExportDialog(s_.window, c->scenario(), defaults);
}

void ExportMenu::exportScreenshot() {
  const SimulationController* c = s_.session->controller();
  SceneImageRequest request;
  request.size = QSize(1920, 1080);
  request.time = c->displayTime();
  request.options = s_.view->options();
  if (vtkRenderer* renderer = s_.view->renderer())
    request.camera = cameraPoseOf(renderer->GetActiveCamera());
  request.overlayText = QString("t = %1 s").arg(c->displayTime(), 0, 'f', 2).toStdString();
  request.viewHeight = s_.view->height();
  request.arrowReferences = s_.view->primaryRenderer().arrowReferences();
  nhui::exportScreenshot(s_.window, c->primary(), request);
}

void ExportMenu::exportPage() {
  const SimulationController* c = s_.session->controller();
  const RunHistory& run = c->primary();
  if (run.empty()) {
    s_.session->reportError(tr("Not exported: there is no run to put on the page yet."));
    return;
  }
  PageSettings page;
  page.title = s_.session->lessonTitle().isEmpty() ? c->scenario().system
                                                   : s_.session->lessonTitle().toStdString();
  page.note = s_.session->lessonNote().toStdString();
  page.tStart = run.firstTime();
  page.tEnd = run.lastTime();
  const ViewState& v = s_.session->view();
  page.speed = v.speed;
  page.display = v.display;
  page.follow = v.follow;
  page.pathX = v.phaseX.toStdString();
  page.pathY = v.phaseY.toStdString();
  for (const QString& name : v.timeSeries) page.timeSeries.push_back(name.toStdString());
  // The comparison run as the view draws it, where it has samples.
  ComparisonScene comparison;
  if (const RunHistory* other = c->comparison(); other && !other->empty()) {
    page.comparisonLegend =
        comparisonLegendLine(runLabel(*c, 0).toStdString(), runLabel(*c, 1).toStdString());
    comparison = [other](double t, nh::SceneFrame& frame) {
      if (t > other->lastTime() || t < other->firstTime()) return false;
      other->sceneAt(t, frame);
      return true;
    };
  }
  exportInteractivePage(s_.window, run, page, QString::fromStdString(c->scenario().system),
                        comparison);
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
