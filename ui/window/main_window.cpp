#include "ui/window/main_window.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScrollArea>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTextBrowser>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>
#include <cmath>

#include <vtkRenderer.h>

#include "ui/export/export_dialog.h"
#include "core/nh/catalogue.h"
#include "core/nh/errors.h"
#include "ui/panels/parameter_panel.h"
#include "ui/plot/plot_panels.h"
#include "core/io/scenario_file.h"
#include "ui/scene/scene_view.h"
#include "ui/sim/simulation_controller.h"
#include "ui/panels/system_chooser.h"
#include "ui/panels/undo_commands.h"

namespace nhui {

namespace {

constexpr int kTimelineSteps = 10000;
constexpr int kSpeedSteps = 500;  // log scale 0.01× … 1000×

double speedFromSlider(int p) { return std::pow(10.0, -2.0 + 5.0 * p / kSpeedSteps); }
int sliderFromSpeed(double s) {
  return static_cast<int>(std::lround((std::log10(s) + 2.0) / 5.0 * kSpeedSteps));
}

QString speedText(double s) {
  return s < 1 ? QStringLiteral("%1×").arg(s, 0, 'g', 2)
               : QStringLiteral("%1×").arg(s, 0, 'f', s < 10 ? 1 : 0);
}

const char* kShortcutHelp =
    "<table cellspacing='6'>"
    "<tr><td colspan='2'><b style='font-size:15pt'>Keyboard</b></td></tr>"
    "<tr><td><b>Space</b></td><td>play / pause</td></tr>"
    "<tr><td><b>→ / ←</b></td><td>step / step back</td></tr>"
    "<tr><td><b>R</b></td><td>reset to the initial conditions</td></tr>"
    "<tr><td><b>Ctrl+Z / Ctrl+Shift+Z</b></td><td>undo / redo an edit</td></tr>"
    "<tr><td><b>Ctrl+O / Ctrl+S</b></td><td>open / save a scenario</td></tr>"
    "<tr><td><b>F11</b></td><td>presentation mode</td></tr>"
    "<tr><td><b>C</b></td><td>reset the camera</td></tr>"
    "<tr><td><b>F1</b></td><td>this overlay</td></tr>"
    "<tr><td colspan='2'><b style='font-size:15pt'>Mouse in the 3D view</b></td></tr>"
    "<tr><td><b>left drag</b></td><td>orbit</td></tr>"
    "<tr><td><b>Shift+left / middle drag</b></td><td>pan</td></tr>"
    "<tr><td><b>wheel / right drag</b></td><td>zoom</td></tr>"
    "<tr><td><b>Edit start</b> on</td><td>drag the body or its green arrow</td></tr>"
    "</table>";

}  // namespace

MainWindow::MainWindow(bool useSettings, QWidget* parent)
    : QMainWindow(parent),
      useSettings_(useSettings),
      controller_(new SimulationController(this)),
      undo_(new QUndoStack(this)) {
  setWindowTitle(tr("Nonholonomic Lab"));
  setAcceptDrops(true);
  setDockNestingEnabled(true);
  normalFont_ = QApplication::font();
  normalPalette_ = QApplication::palette();
  createActions();
  createCentral();
  createToolBars();
  createDockWindows();
  createMenus();
  createStatusBar();
  connect(controller_, &SimulationController::ticked, this, &MainWindow::onTick);
  connect(controller_, &SimulationController::scenarioChanged, this,
          &MainWindow::onScenarioChanged);
  connect(controller_, &SimulationController::errorOccurred, this, &MainWindow::onError);
  connect(controller_, &SimulationController::playingChanged, this, &MainWindow::updatePlayAction);
  connect(controller_, &SimulationController::historyReset, this, [this] { banner_->hide(); });
  connect(view_, &SceneView::initialDragged, this,
          [this](const std::map<std::string, double>& before,
                 const std::map<std::string, double>& after) {
            undo_->push(new SetInitialCommand(controller_, before, after, true, true));
          });
  lastSystem_ = controller_->system().name();
  resize(1600, 1000);
  if (useSettings_) readSettings();
  applyDisplayOptions();
  onScenarioChanged();
  controller_->play();  // the default scenario is already playing
}

MainWindow::~MainWindow() = default;

// ---- Construction -------------------------------------------------------------------------

void MainWindow::createActions() {
  QStyle* s = style();
  playAction_ = new QAction(s->standardIcon(QStyle::SP_MediaPlay), tr("Play"), this);
  playAction_->setShortcut(Qt::Key_Space);
  playAction_->setToolTip(tr("Play / pause (Space)"));
  connect(playAction_, &QAction::triggered, controller_, &SimulationController::togglePlay);

  stepAction_ = new QAction(s->standardIcon(QStyle::SP_MediaSeekForward), tr("Step"), this);
  stepAction_->setShortcut(Qt::Key_Right);
  stepAction_->setToolTip(tr("One output step forward (→)"));
  connect(stepAction_, &QAction::triggered, controller_, &SimulationController::stepForward);

  stepBackAction_ =
      new QAction(s->standardIcon(QStyle::SP_MediaSeekBackward), tr("Step back"), this);
  stepBackAction_->setShortcut(Qt::Key_Left);
  stepBackAction_->setToolTip(tr("One output step back through the history (←)"));
  connect(stepBackAction_, &QAction::triggered, controller_, &SimulationController::stepBack);

  resetAction_ = new QAction(s->standardIcon(QStyle::SP_MediaSkipBackward), tr("Reset"), this);
  resetAction_->setShortcut(Qt::Key_R);
  resetAction_->setToolTip(tr("Restart from the initial conditions (R)"));
  connect(resetAction_, &QAction::triggered, controller_, &SimulationController::reset);

  openAction_ =
      new QAction(s->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open scenario…"), this);
  openAction_->setShortcut(QKeySequence::Open);
  connect(openAction_, &QAction::triggered, this, &MainWindow::openDialog);
  saveAction_ =
      new QAction(s->standardIcon(QStyle::SP_DialogSaveButton), tr("&Save scenario"), this);
  saveAction_->setShortcut(QKeySequence::Save);
  connect(saveAction_, &QAction::triggered, this, [this] {
    if (currentFile_.isEmpty())
      saveAsDialog();
    else
      saveScenario(currentFile_);
  });
  saveAsAction_ = new QAction(tr("Save scenario &as…"), this);
  saveAsAction_->setShortcut(QKeySequence::SaveAs);
  connect(saveAsAction_, &QAction::triggered, this, &MainWindow::saveAsDialog);

  undoAction_ = undo_->createUndoAction(this, tr("&Undo"));
  undoAction_->setShortcut(QKeySequence::Undo);
  redoAction_ = undo_->createRedoAction(this, tr("&Redo"));
  redoAction_->setShortcuts(
      {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});

  presentationAction_ = new QAction(tr("&Presentation mode"), this);
  presentationAction_->setCheckable(true);
  presentationAction_->setShortcut(Qt::Key_F11);
  presentationAction_->setToolTip(tr("Full screen, large fonts, high contrast (F11)"));
  connect(presentationAction_, &QAction::toggled, this, &MainWindow::setPresentationMode);

  shortcutsAction_ = new QAction(tr("&Keyboard shortcuts"), this);
  shortcutsAction_->setShortcut(Qt::Key_F1);
  connect(shortcutsAction_, &QAction::triggered, this, &MainWindow::toggleShortcutOverlay);

  followAction_ = new QAction(tr("Follow"), this);
  followAction_->setCheckable(true);
  followAction_->setToolTip(tr("Keep the camera on the moving body"));
  tableFrameAction_ = new QAction(tr("Table frame"), this);
  tableFrameAction_->setCheckable(true);
  tableFrameAction_->setToolTip(tr("View from the rotating table's frame"));
  resetCameraAction_ = new QAction(tr("Reset camera"), this);
  resetCameraAction_->setShortcut(Qt::Key_C);
  editInitialAction_ = new QAction(tr("Edit start"), this);
  editInitialAction_->setCheckable(true);
  editInitialAction_->setToolTip(
      tr("Set the initial position and velocity by dragging the body and its velocity arrow "
         "(Ctrl+drag from the body pulls out a new velocity)"));
  chooseSystemAction_ = new QAction(tr("&Choose system…"), this);
  chooseSystemAction_->setShortcut(QKeySequence::New);
  connect(chooseSystemAction_, &QAction::triggered, this, [this] {
    SystemChooser dialog(QString::fromStdString(controller_->system().name()), this);
    if (dialog.exec() == QDialog::Accepted) chooseSystem(dialog.chosenSystem());
  });
  for (QAction* a : {playAction_, stepAction_, stepBackAction_, resetAction_, presentationAction_,
                     shortcutsAction_, resetCameraAction_})
    a->setShortcutContext(Qt::WindowShortcut);
  addActions({playAction_, stepAction_, stepBackAction_, resetAction_, presentationAction_,
              shortcutsAction_, resetCameraAction_, undoAction_, redoAction_});
}

void MainWindow::createCentral() {
  auto* central = new QWidget;
  auto* layout = new QVBoxLayout(central);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  banner_ = new QLabel;
  banner_->setObjectName("errorBanner");
  banner_->setWordWrap(true);
  banner_->setStyleSheet(
      "QLabel { background: #7a1f1a; color: white; padding: 8px; font-weight: bold; }");
  banner_->hide();
  layout->addWidget(banner_);
  view_ = new SceneView(controller_);
  view_->setObjectName("sceneView");
  layout->addWidget(view_, 1);

  auto* timeRow = new QHBoxLayout;
  timeRow->setContentsMargins(8, 4, 8, 4);
  timeline_ = new QSlider(Qt::Horizontal);
  timeline_->setObjectName("timeline");
  timeline_->setRange(0, kTimelineSteps);
  timeline_->setToolTip(tr("Scrub through the recorded history; Play resumes from there"));
  timelineLabel_ = new QLabel;
  timelineLabel_->setMinimumWidth(170);
  timeRow->addWidget(new QLabel(tr("History")));
  timeRow->addWidget(timeline_, 1);
  timeRow->addWidget(timelineLabel_);
  layout->addLayout(timeRow);
  connect(timeline_, &QSlider::sliderPressed, this, [this] { timelineDragging_ = true; });
  connect(timeline_, &QSlider::sliderReleased, this, [this] { timelineDragging_ = false; });
  connect(timeline_, &QSlider::valueChanged, this, [this](int v) {
    if (!timeline_->isSliderDown() && !timelineDragging_ && !timeline_->hasFocus()) return;
    const RunHistory& run = controller_->primary();
    if (run.empty()) return;
    controller_->seek(run.firstTime() + (run.lastTime() - run.firstTime()) * v / kTimelineSteps);
  });

  shortcutOverlay_ = new QLabel(view_);
  shortcutOverlay_->setText(tr(kShortcutHelp));
  shortcutOverlay_->setStyleSheet(
      "QLabel { background: rgba(15, 18, 24, 215); color: #f0f0f0; border: 1px solid #8090a0;"
      " border-radius: 10px; padding: 16px; font-size: 12pt; }");
  shortcutOverlay_->adjustSize();
  shortcutOverlay_->hide();
  setCentralWidget(central);
}

void MainWindow::createToolBars() {
  QToolBar* sim = addToolBar(tr("Simulation"));
  sim->setObjectName("simulationToolBar");
  systemBox_ = new QComboBox;
  systemBox_->setObjectName("systemBox");
  for (const auto& s : nh::catalogue())
    systemBox_->addItem(QString::fromStdString(s->info().title), QString::fromStdString(s->name()));
  systemBox_->setToolTip(tr("The system to simulate (File › Choose system… shows the details)"));
  connect(systemBox_, &QComboBox::activated, this,
          [this](int i) { chooseSystem(systemBox_->itemData(i).toString()); });
  sim->addWidget(systemBox_);
  sim->addSeparator();
  sim->addAction(resetAction_);
  sim->addAction(stepBackAction_);
  sim->addAction(playAction_);
  sim->addAction(stepAction_);
  sim->addSeparator();
  sim->addWidget(new QLabel(tr(" Speed ")));
  speedSlider_ = new QSlider(Qt::Horizontal);
  speedSlider_->setObjectName("speedSlider");
  speedSlider_->setRange(0, kSpeedSteps);
  speedSlider_->setValue(sliderFromSpeed(1));
  speedSlider_->setMaximumWidth(200);
  speedSlider_->setToolTip(tr("Simulated seconds per real second: 0.01× to 1000×"));
  speedLabel_ = new QLabel(speedText(1));
  speedLabel_->setMinimumWidth(56);
  sim->addWidget(speedSlider_);
  sim->addWidget(speedLabel_);
  connect(speedSlider_, &QSlider::valueChanged, this,
          [this](int p) { controller_->setSpeed(speedFromSlider(p)); });
  connect(controller_, &SimulationController::speedChanged, this, [this](double s) {
    speedLabel_->setText(speedText(s));
    QSignalBlocker block(speedSlider_);
    speedSlider_->setValue(sliderFromSpeed(s));
  });

  QToolBar* camera = addToolBar(tr("View"));
  camera->setObjectName("viewToolBar");
  camera->addAction(resetCameraAction_);
  camera->addAction(followAction_);
  camera->addAction(tableFrameAction_);
  camera->addAction(editInitialAction_);
  camera->addSeparator();
  camera->addAction(presentationAction_);
  connect(resetCameraAction_, &QAction::triggered, view_, &SceneView::resetCamera);
  connect(followAction_, &QAction::toggled, view_, &SceneView::setFollow);
  connect(tableFrameAction_, &QAction::toggled, view_, &SceneView::setTableFrame);
  connect(editInitialAction_, &QAction::toggled, this, [this](bool on) {
    if (on && !view_->canEditInitial()) {
      statusBar()->showMessage(tr("This system's initial state cannot be set by dragging; use the "
                                  "Initial conditions panel."),
                               6000);
      QSignalBlocker block(editInitialAction_);
      editInitialAction_->setChecked(false);
      return;
    }
    view_->setEditInitial(on);
  });
}

void MainWindow::createDockWindows() {
  auto makeDock = [this](const QString& title, const QString& name, QWidget* w,
                         Qt::DockWidgetArea area) {
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(name);
    dock->setWidget(w);
    addDockWidget(area, dock);
    return dock;
  };
  auto scrolled = [](QWidget* w) {
    auto* area = new QScrollArea;
    area->setWidget(w);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    return area;
  };

  parameters_ = new ParameterPanel(controller_, undo_);
  initial_ = new InitialStatePanel(controller_, undo_);
  auto* tabs = new QTabWidget;
  tabs->addTab(scrolled(parameters_), tr("Parameters"));
  tabs->addTab(scrolled(initial_), tr("Initial conditions"));
  parametersDock_ = makeDock(tr("Parameters"), "parametersDock", tabs, Qt::RightDockWidgetArea);

  systemText_ = new QTextBrowser;
  systemDock_ = makeDock(tr("System"), "systemDock", systemText_, Qt::RightDockWidgetArea);
  displayDock_ = makeDock(tr("Display"), "displayDock", scrolled(createDisplayPanel()),
                          Qt::LeftDockWidgetArea);
  compareDock_ =
      makeDock(tr("Compare"), "compareDock", createComparePanel(), Qt::LeftDockWidgetArea);
  tabifyDockWidget(parametersDock_, systemDock_);
  parametersDock_->raise();

  phase_ = new PhasePortraitPanel(controller_);
  timeSeries_ = new TimeSeriesPanel(controller_);
  phaseDock_ = makeDock(tr("Phase portrait"), "phaseDock", phase_, Qt::BottomDockWidgetArea);
  timeDock_ = makeDock(tr("Time series"), "timeDock", timeSeries_, Qt::BottomDockWidgetArea);
  splitDockWidget(phaseDock_, timeDock_, Qt::Horizontal);
  resizeDocks({parametersDock_}, {380}, Qt::Horizontal);
  resizeDocks({displayDock_}, {230}, Qt::Horizontal);
  resizeDocks({phaseDock_, timeDock_}, {330, 330}, Qt::Vertical);
}

QWidget* MainWindow::createDisplayPanel() {
  auto* panel = new QWidget;
  auto* layout = new QVBoxLayout(panel);
  auto check = [this, layout](const QString& text, bool SceneDisplayOptions::*member) {
    auto* box = new QCheckBox(text);
    box->setChecked(display_.*member);
    connect(box, &QCheckBox::toggled, this, [this, member](bool on) {
      display_.*member = on;
      applyDisplayOptions();
    });
    layout->addWidget(box);
    return box;
  };
  auto* arrows = new QLabel(tr("<b>Arrows</b>"));
  layout->addWidget(arrows);
  check(tr("Constraint && applied forces"), &SceneDisplayOptions::reactionArrows)
      ->setObjectName("forceArrows");
  check(tr("Velocity"), &SceneDisplayOptions::velocityArrows)->setObjectName("velocityArrows");
  check(tr("Angular velocity"), &SceneDisplayOptions::angularVelocityArrows)
      ->setObjectName("angularArrows");
  check(tr("Scale legend"), &SceneDisplayOptions::legend);
  layout->addWidget(new QLabel(tr("<b>Trails</b>")));
  check(tr("Show trails"), &SceneDisplayOptions::trails)->setObjectName("trails");
  auto* lengthRow = new QHBoxLayout;
  auto* length = new QDoubleSpinBox;
  length->setObjectName("trailLength");
  length->setRange(0.1, 100000);
  length->setDecimals(1);
  length->setSuffix(" s");
  length->setValue(display_.trailSeconds);
  length->setToolTip(tr("Length of the trails in simulated seconds"));
  connect(length, &QDoubleSpinBox::valueChanged, this, [this](double v) {
    display_.trailSeconds = v;
    applyDisplayOptions();
  });
  lengthRow->addWidget(new QLabel(tr("length")));
  lengthRow->addWidget(length, 1);
  layout->addLayout(lengthRow);
  trailChecks_ = new QWidget;
  trailChecksLayout_ = new QVBoxLayout(trailChecks_);
  trailChecksLayout_->setContentsMargins(12, 0, 0, 0);
  layout->addWidget(trailChecks_);
  layout->addWidget(new QLabel(tr("<b>Scene</b>")));
  check(tr("Ground grid"), &SceneDisplayOptions::grid);
  check(tr("Axes"), &SceneDisplayOptions::axes);
  check(tr("Time overlay"), &SceneDisplayOptions::overlayText);
  layout->addStretch(1);
  return panel;
}

void MainWindow::rebuildTrailChecks() {
  while (QLayoutItem* item = trailChecksLayout_->takeAt(0)) {
    delete item->widget();
    delete item;
  }
  for (const auto& p : controller_->primary().layout().points) {
    const QString name = QString::fromStdString(p.name);
    auto* box = new QCheckBox(name);
    box->setChecked(std::find(display_.hiddenTrails.begin(), display_.hiddenTrails.end(), p.name) ==
                    display_.hiddenTrails.end());
    connect(box, &QCheckBox::toggled, this, [this, n = p.name](bool on) {
      auto& hidden = display_.hiddenTrails;
      hidden.erase(std::remove(hidden.begin(), hidden.end(), n), hidden.end());
      if (!on) hidden.push_back(n);
      applyDisplayOptions();
    });
    trailChecksLayout_->addWidget(box);
  }
}

QWidget* MainWindow::createComparePanel() {
  auto* panel = new QWidget;
  auto* form = new QFormLayout(panel);
  compareMode_ = new QComboBox;
  compareMode_->setObjectName("compareMode");
  compareMode_->addItem(tr("Off"));
  compareMode_->addItem(tr("Nonholonomic vs vakonomic"));
  compareMode_->addItem(tr("Ghost: another parameter value"));
  ghostParameter_ = new QComboBox;
  ghostValue_ = new CheckedSpinBox([this](double v) {
    const int i =
        controller_->system().parameterIndex(ghostParameter_->currentText().toStdString());
    if (i < 0) return QString();
    const auto& info = controller_->system().info().parameters[i];
    return info.allows(v) ? QString()
                          : tr("must be in %1").arg(QString::fromStdString(info.rangeText()));
  });
  auto* reason = new QLabel;
  reason->setStyleSheet("color: #ff6b5b;");
  reason->setWordWrap(true);
  connect(ghostValue_, &CheckedSpinBox::refusalChanged, reason, &QLabel::setText);
  form->addRow(tr("Compare"), compareMode_);
  form->addRow(tr("Ghost parameter"), ghostParameter_);
  form->addRow(tr("Ghost value"), ghostValue_);
  form->addRow(reason);
  auto* note =
      new QLabel(tr("The second run starts from the same initial state and is drawn "
                    "in orange in the scene and in every plot."));
  note->setWordWrap(true);
  form->addRow(note);
  connect(compareMode_, &QComboBox::activated, this, &MainWindow::applyCompare);
  connect(ghostParameter_, &QComboBox::activated, this, [this] {
    const int i =
        controller_->system().parameterIndex(ghostParameter_->currentText().toStdString());
    if (i >= 0) {
      QSignalBlocker block(ghostValue_);
      ghostValue_->setValue(2 * controller_->parameters()[i] != 0 ? 2 * controller_->parameters()[i]
                                                                  : 1);
    }
    if (compareMode_->currentIndex() == 2) applyCompare();
  });
  connect(ghostValue_, &QDoubleSpinBox::valueChanged, this, [this] {
    if (compareMode_->currentIndex() == 2) applyCompare();
  });
  return panel;
}

void MainWindow::setCompare(CompareMode mode, const QString& parameter, double value) {
  {
    const QSignalBlocker blockMode(compareMode_), blockParameter(ghostParameter_), blockValue(ghostValue_);
    compareMode_->setCurrentIndex(mode == CompareMode::None ? 0 : mode == CompareMode::Vakonomic ? 1 : 2);
    if (mode == CompareMode::Ghost) {
      const int index = ghostParameter_->findText(parameter);
      if (index < 0) {
        statusBar()->showMessage(tr("unknown parameter '%1' for the ghost run").arg(parameter), 8000);
        return;
      }
      ghostParameter_->setCurrentIndex(index);
      ghostValue_->setValue(value);
    }
  }
  applyCompare();
}

void MainWindow::applyCompare() {
  const int mode = compareMode_->currentIndex();
  try {
    if (mode == 0)
      controller_->setCompare(CompareMode::None);
    else if (mode == 1)
      controller_->setCompare(CompareMode::Vakonomic);
    else
      controller_->setCompare(CompareMode::Ghost, ghostParameter_->currentText().toStdString(),
                              ghostValue_->value());
    controller_->play();
  } catch (const nh::Error& e) {
    statusBar()->showMessage(QString::fromStdString(e.what()), 8000);
  }
}

void MainWindow::createMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(chooseSystemAction_);
  file->addAction(openAction_);
  recentMenu_ = file->addMenu(tr("Open &recent"));
  file->addAction(saveAction_);
  file->addAction(saveAsAction_);
  file->addSeparator();
  QMenu* exportMenu = file->addMenu(tr("&Export"));
  QAction* exportAnimation = exportMenu->addAction(tr("&Animation (MP4, GIF, WebM, PNG frames)…"),
                                                   this, &MainWindow::exportAnimation);
  exportAnimation->setShortcut(QKeySequence(tr("Ctrl+E")));
  exportMenu->addAction(tr("&Screenshot of the 3D view…"), this, &MainWindow::exportScreenshot);
  exportMenu->addAction(tr("&Phase portrait (PNG, SVG)…"), this, [this] {
    nhui::exportPlot(this, *phase_->plot(), phase_->xVariable(), "phase-portrait");
  });
  exportMenu->addAction(tr("&Time series (PNG, SVG)…"), this, [this] {
    nhui::exportPlot(this, *timeSeries_->plot(), "t [s]", "time-series");
  });
  exportMenu->addAction(tr("Trajectory &data (CSV + scenario JSON)…"), this, [this] {
    nhui::exportData(this, controller_->primary(), controller_->scenario());
  });
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  edit->addAction(undoAction_);
  edit->addAction(redoAction_);

  QMenu* simMenu = menuBar()->addMenu(tr("&Simulation"));
  simMenu->addAction(playAction_);
  simMenu->addAction(stepAction_);
  simMenu->addAction(stepBackAction_);
  simMenu->addAction(resetAction_);
  QMenu* formulation = simMenu->addMenu(tr("Formulation"));
  for (auto [label, f] : {std::pair{tr("Multipliers (KKT)"), nh::Formulation::Multipliers},
                          std::pair{tr("Gibbs–Appell"), nh::Formulation::GibbsAppell}}) {
    QAction* a = formulation->addAction(label);
    connect(a, &QAction::triggered, this, [this, f = f] { controller_->setFormulation(f); });
  }

  viewMenu_ = menuBar()->addMenu(tr("&View"));
  for (QDockWidget* d :
       {parametersDock_, systemDock_, phaseDock_, timeDock_, displayDock_, compareDock_})
    viewMenu_->addAction(d->toggleViewAction());
  viewMenu_->addSeparator();
  viewMenu_->addAction(resetCameraAction_);
  viewMenu_->addAction(followAction_);
  viewMenu_->addAction(tableFrameAction_);
  viewMenu_->addAction(editInitialAction_);
  viewMenu_->addSeparator();
  viewMenu_->addAction(presentationAction_);

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(shortcutsAction_);
  help->addAction(tr("&About Nonholonomic Lab"), this, [this] {
    QMessageBox::about(this, tr("About Nonholonomic Lab"),
                       tr("<b>Nonholonomic Lab</b><br>Mechanical systems with nonholonomic "
                          "constraints: nonholonomic and vakonomic dynamics on Lie algebroids."));
  });
  updateRecentMenu();
}

void MainWindow::createStatusBar() {
  statusTime_ = new QLabel;
  statusRate_ = new QLabel;
  statusFps_ = new QLabel;
  statusResidual_ = new QLabel;
  statusResidual_->setToolTip(tr("Largest constraint residual |Φ| at the displayed moment"));
  for (QLabel* l : {statusTime_, statusRate_, statusFps_, statusResidual_}) {
    l->setMinimumWidth(120);
    statusBar()->addPermanentWidget(l);
  }
}

// ---- Settings -----------------------------------------------------------------------------

void MainWindow::readSettings() {
  QSettings settings;
  if (settings.contains("window/geometry"))
    restoreGeometry(settings.value("window/geometry").toByteArray());
  if (settings.contains("window/state")) restoreState(settings.value("window/state").toByteArray());
  recentFiles_ = settings.value("files/recent").toStringList();
  display_.trails = settings.value("display/trails", display_.trails).toBool();
  display_.trailSeconds = settings.value("display/trailSeconds", display_.trailSeconds).toDouble();
  display_.reactionArrows = settings.value("display/forces", display_.reactionArrows).toBool();
  display_.velocityArrows = settings.value("display/velocity", display_.velocityArrows).toBool();
  display_.angularVelocityArrows =
      settings.value("display/angularVelocity", display_.angularVelocityArrows).toBool();
  display_.grid = settings.value("display/grid", display_.grid).toBool();
  display_.axes = settings.value("display/axes", display_.axes).toBool();
  display_.legend = settings.value("display/legend", display_.legend).toBool();
  const double speed = settings.value("simulation/speed", 1.0).toDouble();
  controller_->setSpeed(speed);
  // The display panel was built with the defaults: bring its widgets in line.
  for (QCheckBox* box : displayDock_->findChildren<QCheckBox*>()) {
    const QString n = box->objectName();
    QSignalBlocker block(box);
    if (n == "forceArrows") box->setChecked(display_.reactionArrows);
    if (n == "velocityArrows") box->setChecked(display_.velocityArrows);
    if (n == "angularArrows") box->setChecked(display_.angularVelocityArrows);
    if (n == "trails") box->setChecked(display_.trails);
  }
  if (auto* length = displayDock_->findChild<QDoubleSpinBox*>("trailLength")) {
    QSignalBlocker block(length);
    length->setValue(display_.trailSeconds);
  }
  updateRecentMenu();
}

void MainWindow::writeSettings() {
  QSettings settings;
  settings.setValue("window/geometry", saveGeometry());
  settings.setValue("window/state", saveState());
  settings.setValue("files/recent", recentFiles_);
  settings.setValue("display/trails", display_.trails);
  settings.setValue("display/trailSeconds", display_.trailSeconds);
  settings.setValue("display/forces", display_.reactionArrows);
  settings.setValue("display/velocity", display_.velocityArrows);
  settings.setValue("display/angularVelocity", display_.angularVelocityArrows);
  settings.setValue("display/grid", display_.grid);
  settings.setValue("display/axes", display_.axes);
  settings.setValue("display/legend", display_.legend);
  settings.setValue("simulation/speed", controller_->speed());
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (presentation_) setPresentationMode(false);
  if (useSettings_) writeSettings();
  event->accept();
}

// ---- Files --------------------------------------------------------------------------------

bool MainWindow::openScenario(const QString& path) {
  try {
    const nh::Scenario s = nh::readScenarioFile(path.toStdString());
    controller_->loadScenario(s);
  } catch (const std::exception& e) {
    const QString message =
        tr("Could not open %1: %2").arg(QFileInfo(path).fileName(), QString::fromUtf8(e.what()));
    statusBar()->showMessage(message, 10000);
    banner_->setText(message);
    banner_->show();
    return false;
  }
  currentFile_ = path;
  addRecentFile(path);
  undo_->clear();
  setWindowTitle(tr("%1 — Nonholonomic Lab").arg(QFileInfo(path).fileName()));
  controller_->play();
  return true;
}

bool MainWindow::saveScenario(const QString& path) {
  try {
    const nh::Scenario s = controller_->scenario();
    nh::writeScenarioFile(
        nh::resolvedScenario(s, controller_->parameters(), controller_->initialState()), path.toStdString());
  } catch (const std::exception& e) {
    const QString message = tr("Could not save %1: %2").arg(path, QString::fromUtf8(e.what()));
    statusBar()->showMessage(message, 10000);
    banner_->setText(message);
    banner_->show();
    return false;
  }
  currentFile_ = path;
  addRecentFile(path);
  statusBar()->showMessage(tr("Saved %1").arg(path), 4000);
  return true;
}

void MainWindow::openDialog() {
  const QString path =
      QFileDialog::getOpenFileName(this, tr("Open scenario"), QFileInfo(currentFile_).path(),
                                   tr("Scenarios (*.json);;All files (*)"));
  if (!path.isEmpty()) openScenario(path);
}

bool MainWindow::saveAsDialog() {
  QString path = QFileDialog::getSaveFileName(
      this, tr("Save scenario"),
      currentFile_.isEmpty() ? QString::fromStdString(controller_->system().name()) + ".json"
                             : currentFile_,
      tr("Scenarios (*.json)"));
  if (path.isEmpty()) return false;
  if (!path.endsWith(".json")) path += ".json";
  return saveScenario(path);
}

void MainWindow::addRecentFile(const QString& path) {
  const QString abs = QFileInfo(path).absoluteFilePath();
  recentFiles_.removeAll(abs);
  recentFiles_.prepend(abs);
  while (recentFiles_.size() > 8) recentFiles_.removeLast();
  updateRecentMenu();
}

void MainWindow::updateRecentMenu() {
  if (!recentMenu_) return;
  recentMenu_->clear();
  for (const QString& f : recentFiles_)
    recentMenu_->addAction(QFileInfo(f).fileName(), this, [this, f] { openScenario(f); })
        ->setToolTip(f);
  recentMenu_->setEnabled(!recentFiles_.isEmpty());
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  for (const QUrl& url : event->mimeData()->urls())
    if (url.isLocalFile() && url.toLocalFile().endsWith(".json", Qt::CaseInsensitive)) {
      event->acceptProposedAction();
      return;
    }
}

void MainWindow::dropEvent(QDropEvent* event) {
  for (const QUrl& url : event->mimeData()->urls())
    if (url.isLocalFile() && url.toLocalFile().endsWith(".json", Qt::CaseInsensitive)) {
      openScenario(url.toLocalFile());
      event->acceptProposedAction();
      return;
    }
}

void MainWindow::chooseSystem(const QString& name) {
  if (name.toStdString() == controller_->system().name()) return;
  try {
    nh::Scenario s;
    s.system = name.toStdString();
    controller_->loadScenario(s);
  } catch (const nh::Error& e) {
    onError(QString::fromStdString(e.what()));
    return;
  }
  currentFile_.clear();
  undo_->clear();
  setWindowTitle(tr("Nonholonomic Lab"));
  controller_->play();
}

// ---- Updates ------------------------------------------------------------------------------

void MainWindow::onScenarioChanged() {
  const bool newSystem =
      controller_->system().name() != lastSystem_ || !systemText_->toPlainText().size();
  lastSystem_ = controller_->system().name();
  if (newSystem) {
    parameters_->rebuild();
    initial_->rebuild();
    phase_->resetVariables();
    timeSeries_->resetVariables();
    systemText_->setHtml(systemHtml(controller_->system()));
    view_->rebuild();
    rebuildTrailChecks();
    const int i = systemBox_->findData(QString::fromStdString(lastSystem_));
    systemBox_->setCurrentIndex(i);
    QSignalBlocker block(ghostParameter_);
    ghostParameter_->clear();
    for (const auto& p : controller_->system().info().parameters)
      ghostParameter_->addItem(QString::fromStdString(p.name));
    if (!controller_->parameters().empty()) {
      QSignalBlocker blockValue(ghostValue_);
      const double p0 = controller_->parameters()[0];
      ghostValue_->setValue(p0 != 0 ? 2 * p0 : 1);
    }
    const bool hasTable = controller_->system().info().editing.movingFrame;
    tableFrameAction_->setEnabled(hasTable);
    if (!hasTable) tableFrameAction_->setChecked(false);
    if (editInitialAction_->isChecked()) editInitialAction_->setChecked(false);
  } else {
    parameters_->syncValues();
    initial_->syncValues();
  }
  {
    QSignalBlocker block(compareMode_);
    compareMode_->setCurrentIndex(static_cast<int>(controller_->compareMode()));
  }
  phase_->refresh();
  timeSeries_->refresh();
}

void MainWindow::onError(const QString& message) {
  // Some errors (a refused undo, initial conditions that no longer fit) leave the run going.
  banner_->setText(controller_->playing()
                       ? tr("⚠  %1").arg(message)
                       : tr("⚠  %1\nThe simulation is paused; nothing recorded so far is lost. "
                            "Change a parameter, scrub back, or press R to reset.")
                             .arg(message));
  banner_->show();
  statusBar()->showMessage(message, 15000);
}

void MainWindow::updatePlayAction(bool playing) {
  playAction_->setIcon(
      style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
  playAction_->setText(playing ? tr("Pause") : tr("Play"));
}

void MainWindow::onTick() {
  view_->refresh();
  if (!phaseDock_->isHidden() && phase_->isVisible()) phase_->refresh();
  if (!timeDock_->isHidden() && timeSeries_->isVisible()) timeSeries_->refresh();
  updateTimeline();
  updateStatus();
}

void MainWindow::updateTimeline() {
  const RunHistory& run = controller_->primary();
  const double t = controller_->displayTime();
  const double t0 = run.firstTime(), t1 = run.lastTime();
  if (!timeline_->isSliderDown()) {
    QSignalBlocker block(timeline_);
    timeline_->setValue(t1 > t0
                            ? static_cast<int>(std::lround((t - t0) / (t1 - t0) * kTimelineSteps))
                            : kTimelineSteps);
  }
  timelineLabel_->setText(QStringLiteral("%1 / %2 s").arg(t, 0, 'f', 2).arg(t1, 0, 'f', 2));
}

void MainWindow::updateStatus() {
  const qint64 now = QDateTime::currentMSecsSinceEpoch();
  if (now - lastFpsTime_ >= 500) {
    const long frames = view_->framesPainted();
    if (lastFpsTime_ > 0) fps_ = (frames - lastFrames_) * 1000.0 / (now - lastFpsTime_);
    lastFrames_ = frames;
    lastFpsTime_ = now;
  }
  statusTime_->setText(tr("t = %1 s").arg(controller_->displayTime(), 0, 'f', 2));
  statusRate_->setText(controller_->playing()
                           ? tr("real time × %1").arg(controller_->realTimeFactor(), 0, 'g', 3)
                           : tr("paused"));
  statusFps_->setText(tr("%1 fps").arg(fps_, 0, 'f', 0));
  statusResidual_->setText(tr("max |Φ| %1").arg(controller_->displayedResidual(), 0, 'e', 1));
}

void MainWindow::applyDisplayOptions() {
  SceneDisplayOptions o = display_;
  o.textScale = presentation_ ? 1.7 : 1.0;
  o.highContrast = presentation_;
  view_->setOptions(o);
}

void MainWindow::setPresentationMode(bool on) {
  if (presentation_ == on) return;
  presentation_ = on;
  {
    QSignalBlocker block(presentationAction_);
    presentationAction_->setChecked(on);
  }
  PlotStyle plotStyle;
  if (on) {
    wasMaximized_ = isMaximized();
    QFont big = normalFont_;
    big.setPointSizeF(normalFont_.pointSizeF() * 1.5);
    QApplication::setFont(big);
    QPalette p;
    p.setColor(QPalette::Window, QColor(0, 0, 0));
    p.setColor(QPalette::WindowText, Qt::white);
    p.setColor(QPalette::Base, QColor(16, 16, 16));
    p.setColor(QPalette::AlternateBase, QColor(30, 30, 30));
    p.setColor(QPalette::Text, Qt::white);
    p.setColor(QPalette::Button, QColor(30, 30, 30));
    p.setColor(QPalette::ButtonText, Qt::white);
    p.setColor(QPalette::Highlight, QColor(255, 210, 0));
    p.setColor(QPalette::HighlightedText, Qt::black);
    p.setColor(QPalette::ToolTipBase, Qt::black);
    p.setColor(QPalette::ToolTipText, Qt::white);
    QApplication::setPalette(p);
    plotStyle.background = Qt::black;
    plotStyle.text = Qt::white;
    plotStyle.frame = QColor(200, 200, 200);
    plotStyle.grid = QColor(70, 70, 70);
    plotStyle.lineWidth = 2.4;
    plotStyle.fontScale = 1.5;
    showFullScreen();
  } else {
    QApplication::setFont(normalFont_);
    QApplication::setPalette(normalPalette_);
    if (wasMaximized_)
      showMaximized();
    else
      showNormal();
  }
  phase_->plot()->setStyle(plotStyle);
  timeSeries_->plot()->setStyle(plotStyle);
  applyDisplayOptions();
}

void MainWindow::toggleShortcutOverlay() {
  shortcutOverlay_->setVisible(!shortcutOverlay_->isVisible());
  shortcutOverlay_->adjustSize();
  positionOverlays();
  shortcutOverlay_->raise();
}

void MainWindow::positionOverlays() {
  if (!shortcutOverlay_) return;
  shortcutOverlay_->move((view_->width() - shortcutOverlay_->width()) / 2,
                         (view_->height() - shortcutOverlay_->height()) / 2);
}

void MainWindow::resizeEvent(QResizeEvent* event) {
  QMainWindow::resizeEvent(event);
  positionOverlays();
}

// Export entry points: the dialogs of ui/export, fed with what the window shows now.
void MainWindow::exportAnimation() {
  ExportDefaults defaults;
  defaults.baseName = QString::fromStdString(controller_->scenario().system);
  defaults.tEnd = std::max(1.0, controller_->primary().lastTime());
  defaults.view = view_->options();
  if (vtkRenderer* renderer = view_->renderer()) defaults.camera = cameraPoseOf(renderer->GetActiveCamera());
  defaults.pathX = phase_->xVariable().toStdString();
  defaults.pathY = phase_->yVariable().toStdString();
  defaults.timeSeries.clear();
  for (const QString& v : timeSeries_->variables()) defaults.timeSeries.push_back(v.toStdString());
  showExportDialog(this, controller_->scenario(), defaults);
}

void MainWindow::exportScreenshot() {
  SceneImageRequest request;
  request.size = QSize(1920, 1080);
  request.time = controller_->displayTime();
  request.options = view_->options();
  if (vtkRenderer* renderer = view_->renderer()) request.camera = cameraPoseOf(renderer->GetActiveCamera());
  request.overlayText = QString("t = %1 s").arg(controller_->displayTime(), 0, 'f', 2).toStdString();
  nhui::exportScreenshot(this, controller_->primary(), request);
}

}  // namespace nhui

