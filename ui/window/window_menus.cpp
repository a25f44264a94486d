// The main window's menu bar: File, Edit, Simulation, View and Help (MainWindow::createMenus).
#include <QActionGroup>
#include <QDockWidget>
#include <QInputDialog>
#include <QMenuBar>
#include <QMessageBox>

#include "resources/app_resources.h"
#include "ui/window/export_menu.h"
#include "ui/window/formulation_menu.h"
#include "ui/window/integrator_menu.h"
#include "ui/window/main_window.h"
#include "ui/window/model_editing.h"
#include "ui/window/window_actions.h"
#include "ui/window/window_parts.h"

namespace nhui {

void MainWindow::createMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(actions_->chooseSystem);
  modelEditing_->fillMenu(file->addMenu(tr("S&ystem model")));
  file->addSeparator();
  file->addAction(actions_->open);
  QMenu* examples = file->addMenu(tr("Open e&xample"));
  examples->setObjectName("examplesMenu");
  examples->setToolTipsVisible(true);
  for (const nhres::Example& example : nhres::examples()) {
    QAction* a = examples->addAction(example.title, this,
                                     [this, example] { openScenario(example.resourcePath()); });
    a->setToolTip(example.note);
    a->setStatusTip(example.note);
  }
  recentFiles_ = new RecentFiles(file->addMenu(tr("Open &recent")));
  connect(recentFiles_, &RecentFiles::chosen, this, &MainWindow::openScenario);
  file->addActions({actions_->save, actions_->saveAs});
  file->addSeparator();
  new ExportMenu({this, session_, view_, phase_, timeSeries_, useSettings_},
                 file->addMenu(tr("&Export")), actions_->exportAnimation);
  file->addSeparator();
  file->addAction(tr("&Quit"), this, &QWidget::close)->setShortcut(QKeySequence::Quit);

  menuBar()->addMenu(tr("&Edit"))->addActions({actions_->undo, actions_->redo});

  QMenu* simMenu = menuBar()->addMenu(tr("&Simulation"));
  simMenu->addActions({actions_->play, actions_->step, actions_->stepBack, actions_->reset});
  simMenu->addAction(tr("Step si&ze…"), this, [this] {
    bool ok = false;
    const double dt = QInputDialog::getDouble(
        this, tr("Step size"), tr("Output step (the spacing of samples and of Step) [s]:"),
        controller_->dtOut(), SimulationController::kMinStepSize,
        SimulationController::kMaxStepSize, 4, &ok, Qt::WindowFlags(), 0.001);
    if (ok) session_->setStepSize(dt);
  });
  simMenu->addAction(actions_->planMotion);
  simMenu->addAction(tr("St&udy…"), this, [this] {
    studyDock_->show();
    studyDock_->raise();
  });
  new FormulationMenu(session_, simMenu->addMenu(tr("&Formulation")));
  new IntegratorMenu(this, session_, simMenu->addMenu(tr("&Integrator")));

  QMenu* viewMenu = menuBar()->addMenu(tr("&View"));
  for (const PresentationMode::Panel& d : docks_) viewMenu->addAction(d.dock->toggleViewAction());
  viewMenu->addSeparator();
  viewMenu->addActions(
      {actions_->resetCamera, actions_->follow, actions_->tableFrame, actions_->editInitial});
  viewMenu->addSeparator();
  viewMenu->addAction(actions_->presentation);
  QMenu* themeMenu = viewMenu->addMenu(tr("&Theme"));
  themeMenu->setObjectName("themeMenu");
  themeActions_ = new QActionGroup(this);
  for (auto [label, theme] :
       {std::pair{tr("&Light"), Theme::Light}, std::pair{tr("&Dark"), Theme::Dark}}) {
    QAction* a = themeMenu->addAction(label);
    a->setCheckable(true);
    a->setChecked(theme == this->theme());
    a->setData(static_cast<int>(theme));
    themeActions_->addAction(a);
    connect(a, &QAction::triggered, this, [this, theme = theme] { setTheme(theme); });
  }

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(actions_->shortcuts);
  help->addAction(tr("&About Nonholonomic Lab"), this, [this] {
    QMessageBox::about(this, tr("About Nonholonomic Lab"),
                       tr("<b>Nonholonomic Lab</b><br>Mechanical systems with nonholonomic "
                          "constraints: nonholonomic and vakonomic dynamics on Lie algebroids."));
  });
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
