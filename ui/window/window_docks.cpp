// The main window's docks: the one table of docks (MainWindow::createDocks).
#include <QDockWidget>
#include <QScrollArea>
#include <QScrollBar>
#include <QTabWidget>
#include <QTextBrowser>
#include <algorithm>

#include "ui/panels/compare_panel.h"
#include "ui/panels/display_panel.h"
#include "ui/panels/equations_panel.h"
#include "ui/panels/model_editor.h"
#include "ui/panels/parameter_panel.h"
#include "ui/plot/plot_panels.h"
#include "ui/study/study_panel.h"
#include "ui/window/main_window.h"

namespace nhui {

namespace {
QWidget* scrolled(QWidget* w) {
  auto* area = new QScrollArea;
  area->setWidget(w);
  area->setWidgetResizable(true);
  area->setFrameShape(QFrame::NoFrame);
  return area;
}
}  // namespace

// The one table of docks. Its order is the View menu's; `tabWith` puts a dock behind another
// (the first of a group stays in front); the side-bar name gives it a button in presentation
// mode, which shows the plot dock alone and hides every other.
void MainWindow::createDocks() {
  auto* tabs = new QTabWidget;
  tabs->addTab(scrolled(parameters_), tr("Parameters"));
  tabs->addTab(scrolled(initial_), tr("Initial conditions"));
  const struct {
    QDockWidget* MainWindow::*dock;
    const char* name;
    QString title;
    QWidget* content;
    Qt::DockWidgetArea area;
    QDockWidget* MainWindow::*tabWith;
    QString sideBar;
    bool shown;
  } docks[] = {
      {&MainWindow::parametersDock_, "parametersDock", tr("Parameters"), tabs,
       Qt::RightDockWidgetArea, nullptr, tr("Values"), true},
      {&MainWindow::systemDock_,
       "systemDock",
       tr("System"),
       systemText_,
       Qt::RightDockWidgetArea,
       &MainWindow::parametersDock_,
       {},
       true},
      {&MainWindow::equationsDock_,
       "equationsDock",
       tr("Equations"),
       equations_,
       Qt::RightDockWidgetArea,
       &MainWindow::parametersDock_,
       {},
       true},
      {&MainWindow::modelEditorDock_,
       "modelEditorDock",
       tr("Model editor"),
       modelEditor_,
       Qt::RightDockWidgetArea,
       &MainWindow::parametersDock_,
       {},
       false},
      {&MainWindow::phaseDock_, "phaseDock", tr("Phase portrait"), phase_, Qt::BottomDockWidgetArea,
       nullptr, tr("Phase"), true},
      {&MainWindow::timeDock_, "timeDock", tr("Time series"), timeSeries_, Qt::BottomDockWidgetArea,
       nullptr, tr("Plots"), true},
      {&MainWindow::displayDock_, "displayDock", tr("Display"), scrolled(displayPanel_),
       Qt::LeftDockWidgetArea, nullptr, tr("Display"), true},
      {&MainWindow::compareDock_, "compareDock", tr("Compare"), comparePanel_,
       Qt::LeftDockWidgetArea, nullptr, tr("Compare"), true},
      // Scrolled: its rows of fields must not widen the dock area (and the window) it shares.
      {&MainWindow::studyDock_,
       "studyDock",
       tr("Study"),
       scrolled(study_),
       Qt::BottomDockWidgetArea,
       &MainWindow::timeDock_,
       {},
       false},
  };
  for (const auto& d : docks) {
    auto* dock = this->*d.dock = new QDockWidget(d.title, this);
    dock->setObjectName(d.name);
    dock->setWidget(d.content);
    addDockWidget(d.area, dock);
    if (d.tabWith) tabifyDockWidget(this->*d.tabWith, dock);
    if (!d.shown) dock->hide();
    docks_.push_back({dock, d.sideBar});
    if (d.dock == &MainWindow::timeDock_) splitDockWidget(phaseDock_, timeDock_, Qt::Horizontal);
  }
  parametersDock_->raise();
  timeDock_->raise();
  resizeDocks({parametersDock_}, {380}, Qt::Horizontal);
  // The left docks as wide as their longest lines ("Fixed arrow scale" beside a scroll bar,
  // the Compare box's "Nonholonomic vs vakonomic"): they were cut at 230 px.
  auto* displayArea = static_cast<QScrollArea*>(displayDock_->widget());
  displayArea->setMinimumWidth(displayPanel_->minimumSizeHint().width() +
                               displayArea->verticalScrollBar()->sizeHint().width() +
                               2 * displayArea->frameWidth());
  resizeDocks({displayDock_},
              {std::max({230, displayArea->minimumWidth(), comparePanel_->wholeWidth()})},
              Qt::Horizontal);
  resizeDocks({phaseDock_, timeDock_}, {330, 330}, Qt::Vertical);
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
