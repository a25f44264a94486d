// ExportMenu (export_menu.h): the File › Export actions, each gathering the session's view,
// the camera and the scenario for its dialog of ui/export.
#include "ui/window/export_menu.h"

#include <vtkRenderer.h>

#include <QAction>
#include <QMenu>
#include <QMessageBox>
#include <algorithm>
#include <memory>

#include "ui/export/export_dialog.h"
#include "ui/export/interactive_page.h"
#include "ui/export/plan_source.h"
#include "ui/export/web_engine.h"
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
  live_ = menu->addAction(tr("&Live page (the browser runs the motion)"));
  live_->setCheckable(true);
  // Without the web engine (a build without the wasm preset) pages play the record.
  const bool engine = webEngineAvailable();
  live_->setEnabled(engine);
  live_->setChecked(engine);
  live_->setToolTip(engine ? tr("The interactive page carries the engine: parameters as sliders, "
                                "changes while it plays, undo, the setup in its link")
                           : tr("The web engine is not installed (build the wasm preset): pages "
                                "play the recorded run"));
  menu->addAction(tr("Trajectory &data (CSV + scenario JSON)…"), this, [this] {
    const SimulationController* c = s_.session->controller();
    exportData(s_.window, c->primary(), c->recordedScenario());
  });
}

namespace {

// The plan the window plays as an export's source: its settings and copies of its runs (the
// export runs on a worker thread while the window may play another); null without a plan.
std::shared_ptr<const PlannedMotion> playedMotion(const SimulationController& c) {
  if (!c.plan() || c.primary().empty()) return nullptr;
  auto played = std::make_shared<PlannedMotion>();
  played->plan = *c.plan();
  played->run = std::make_shared<RunHistory>(c.primary());
  if (const RunHistory* companion = c.comparison(); companion && !companion->empty())
    played->companion = std::make_shared<RunHistory>(*companion);
  return played;
}

}  // namespace

void ExportMenu::refused(const QString& title, const QString& reason) {
  // In the export's own message box, as its other outcomes are: the window's error banner
  // is for the run and stays clear of exports.
  QMessageBox::warning(s_.window, title, tr("Not exported: %1.").arg(reason));
}

void ExportMenu::exportAnimation() {
  const SimulationController* c = s_.session->controller();
  // A control model at rest at its start moves only along a plan, and none is played.
  if (c->showingPlan() && !c->plan()) {
    refused(tr("Export animation"), QString::fromUtf8(kNoPlanRefused));
    return;
  }
  ExportDefaults defaults;
  defaults.baseName = QString::fromStdString(c->scenario().system);
  defaults.tEnd = std::max(1.0, c->primary().lastTime());
  defaults.played = playedMotion(*c);
  if (defaults.played) defaults.tEnd = c->primary().lastTime();  // the plan's T
  defaults.view = s_.session->view();
  if (vtkRenderer* renderer = s_.view->renderer())
    defaults.camera = cameraPoseOf(renderer->GetActiveCamera());
  defaults.inputScenario = s_.session->currentFile();
  defaults.rememberSettings = s_.rememberSettings;
  showExportDialog(s_.window, c->recordedScenario(), defaults);
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
    refused(tr("Export interactive page"), tr("there is no run to put on the page yet"));
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
  // Fixed arrow scales: those the view draws with now.
  if (v.display.arrowScaleFixed)
    for (const auto& [name, value] : s_.view->primaryRenderer().arrowReferences())
      if (value > 0) page.arrowScales[name] = value;
  // The comparison run as the view draws it, where it has samples, and in every plot.
  ComparisonScene comparison;
  const RunHistory* other = c->comparison();
  if (other && !other->empty()) {
    page.runLabels = {runLabel(*c, 0).toStdString(), runLabel(*c, 1).toStdString()};
    page.comparisonLegend = comparisonLegendLine(page.runLabels[0], page.runLabels[1]);
    comparison = [other](double t, nh::SceneFrame& frame) {
      if (t > other->lastTime() || t < other->firstTime()) return false;
      other->sceneAt(t, frame);
      return true;
    };
  }
  // A played plan's start and target, as the view draws them.
  if (c->plan()) {
    const auto ghosts = planGhostScenes(run);
    page.ghosts.assign(ghosts.begin(), ghosts.end());
  }
  // Live where the run has dynamics the page's engine runs (not a plan, a control model or a
  // SUNDIALS integrator: those pages play the record).
  page.liveScenario = c->recordedScenario();
  page.live = live_->isChecked() && !c->plan() && livePageRefusal(page.liveScenario).empty();
  exportInteractivePage(s_.window, run, page, QString::fromStdString(c->scenario().system),
                        comparison, other && !other->empty() ? other : nullptr);
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
