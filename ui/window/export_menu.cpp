#include "ui/window/export_menu.h"

#include <vtkRenderer.h>

#include <QAction>
#include <QMenu>
#include <algorithm>

#include "ui/export/export_dialog.h"
#include "ui/plot/plot_panels.h"
#include "ui/scene/scene_view.h"
#include "ui/session/session.h"

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
  defaults.view = s_.view->options();
  if (vtkRenderer* renderer = s_.view->renderer())
    defaults.camera = cameraPoseOf(renderer->GetActiveCamera());
  defaults.follow = s_.view->follow();
  defaults.compare = c->compareMode();
  defaults.ghostParameter = c->ghostParameter();
  defaults.ghostValue = c->ghostValue();
  defaults.otherIntegrator = c->otherIntegrator();
  defaults.pathX = s_.phase->xVariable().toStdString();
  defaults.pathY = s_.phase->yVariable().toStdString();
  defaults.timeSeries.clear();
  for (const QString& v : s_.timeSeries->variables())
    defaults.timeSeries.push_back(v.toStdString());
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

}  // namespace nhui
