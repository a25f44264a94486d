#include "ui/window/main_window.h"

#include <vtkRenderer.h>

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QRegularExpression>
#include <QResizeEvent>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSlider>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTextBrowser>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>
#include <QtConcurrent>
#include <algorithm>
#include <cmath>

#include "core/io/scenario_file.h"
#include "core/model/catalogue.h"
#include "core/model/derived_equations.h"
#include "core/model/formula_system.h"
#include "core/nh/errors.h"
#include "core/nh/read_file.h"
#include "resources/app_resources.h"
#include "ui/export/export_dialog.h"
#include "ui/panels/compare_panel.h"
#include "ui/panels/equations_panel.h"
#include "ui/panels/model_editor.h"
#include "ui/panels/parameter_panel.h"
#include "ui/panels/system_chooser.h"
#include "ui/panels/undo_commands.h"
#include "ui/plot/plot_panels.h"
#include "ui/scene/scene_view.h"
#include "ui/sim/simulation_controller.h"
#include "ui/study/study_panel.h"
#include "ui/window/display_panel.h"
#include "ui/window/status_fit.h"
#include "ui/window/timeline_bar.h"

namespace nhui {

namespace {

constexpr int kSpeedSteps = 500;  // log scale 0.01× … 1000×

double speedFromSlider(int p) { return std::pow(10.0, -2.0 + 5.0 * p / kSpeedSteps); }
int sliderFromSpeed(double s) {
  return static_cast<int>(std::lround((std::log10(s) + 2.0) / 5.0 * kSpeedSteps));
}

QString speedText(double s) {
  return s < 1 ? QStringLiteral("%1×").arg(s, 0, 'g', 2)
               : QStringLiteral("%1×").arg(s, 0, 'f', s < 10 ? 1 : 0);
}

// The speed presets of the tool bar's box; the slider snaps to them.
constexpr double kSpeedPresets[] = {0.1, 0.25, 1, 4, 10};
constexpr int kSpeedSnap = 4;  // slider steps (of 500) within which a preset catches

double snappedSpeed(int p) {
  for (double preset : kSpeedPresets)
    if (std::abs(p - sliderFromSpeed(preset)) <= kSpeedSnap) return preset;
  return speedFromSlider(p);
}

}  // namespace

MainWindow::MainWindow(bool useSettings, QWidget* parent)
    : QMainWindow(parent),
      useSettings_(useSettings),
      controller_(new SimulationController(this)),
      undo_(new QUndoStack(this)) {
  // Commands that replace the history hold the history they replaced (a copy of the recorded
  // samples): the oldest steps are dropped beyond this many, so a long session's memory stays
  // bounded by the histories of the last steps.
  undo_->setUndoLimit(kUndoLimit);
  updateWindowTitle();
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
  setTheme(theme_);
  connect(controller_, &SimulationController::ticked, this, &MainWindow::onTick);
  connect(controller_, &SimulationController::scenarioChanged, this,
          &MainWindow::onScenarioChanged);
  connect(controller_, &SimulationController::errorOccurred, this, &MainWindow::onError);
  // A warning leaves the run going: said in the banner (until the next reset) and the status.
  connect(controller_, &SimulationController::warningOccurred, this, [this](const QString& m) {
    banner_->setText(tr("⚠  %1").arg(m));
    banner_->show();
    statusBar()->showMessage(m, 15000);
  });
  // An undo that brings back a history restores its comparison: the panel and plots follow.
  connect(controller_, &SimulationController::comparisonChanged, this, [this] {
    comparePanel_->syncMode();
    phase_->refresh();
    timeSeries_->refresh();
  });
  // A C++ system's equations show its parameter values; a model file's keep symbols.
  connect(controller_, &SimulationController::parametersChanged, this, [this] {
    if (nh::model::asFormula(controller_->system())) return;
    equationsStale_ = true;
    updateEquations();
  });
  connect(controller_, &SimulationController::playingChanged, this, &MainWindow::updatePlayAction);
  connect(controller_, &SimulationController::historyReset, this, [this] { banner_->hide(); });
  connect(undo_, &QUndoStack::cleanChanged, this,
          [this](bool clean) { setWindowModified(!clean); });
  // A fork replaces what followed the moment: said in the status bar, and undoable (an
  // edit's own command holds the replaced history; Play's gets a command of its own).
  connect(controller_, &SimulationController::historyForked, this, [this](double t, bool byEdit) {
    statusBar()->showMessage(
        tr("%1 from t = %2 s: the history after it was replaced (%3 brings it back)")
            .arg(byEdit ? tr("Edited") : tr("Resumed"))
            .arg(t, 0, 'f', 2)
            .arg(QKeySequence(QKeySequence::Undo).toString(QKeySequence::NativeText)),
        10000);
    if (!byEdit)
      undo_->push(new ReplaceTimelineCommand(controller_, controller_->takeDroppedTimeline(),
                                             tr("Resume from t = %1 s").arg(t, 0, 'f', 2)));
  });
  connect(view_, &SceneView::initialDragged, this,
          [this](const std::map<std::string, double>& before,
                 const std::map<std::string, double>& after,
                 std::shared_ptr<SimulationController::Timeline> replaced) {
            undo_->push(
                new SetInitialCommand(controller_, before, after, true, true, std::move(replaced)));
          });
  resize(1600, 1000);
  if (useSettings_) readSettings();
  applyDisplayOptions();
  onScenarioChanged();
  controller_->play();  // the default scenario is already playing
}

MainWindow::~MainWindow() {
  if (equationsCancel_) equationsCancel_->store(true);
  if (equationsJob_) equationsJob_->waitForFinished();  // stops at its next simplification
}

QSlider* MainWindow::timeline() const { return timelineBar_->slider(); }

// ---- Construction -------------------------------------------------------------------------

void MainWindow::createActions() {
  playAction_ = new QAction(nhres::themedIcon(nhres::icons::play), tr("Play"), this);
  playAction_->setShortcut(Qt::Key_Space);
  playAction_->setToolTip(tr("Play / pause (Space)"));
  connect(playAction_, &QAction::triggered, controller_, &SimulationController::togglePlay);

  stepAction_ = new QAction(nhres::themedIcon(nhres::icons::stepForward), tr("Step"), this);
  stepAction_->setShortcut(Qt::Key_Right);
  stepAction_->setToolTip(tr("One output step forward (→)"));
  connect(stepAction_, &QAction::triggered, controller_, &SimulationController::stepForward);

  stepBackAction_ = new QAction(nhres::themedIcon(nhres::icons::stepBack), tr("Step back"), this);
  stepBackAction_->setShortcut(Qt::Key_Left);
  stepBackAction_->setToolTip(tr("One output step back through the history (←)"));
  connect(stepBackAction_, &QAction::triggered, controller_, &SimulationController::stepBack);

  resetAction_ = new QAction(nhres::themedIcon(nhres::icons::reset), tr("Reset"), this);
  resetAction_->setShortcut(Qt::Key_R);
  resetAction_->setToolTip(tr("Restart from the initial conditions (R)"));
  // Reset restarts from t = 0 with the parameters shown: undoable, like every restart that
  // replaces the history (undo_commands.h, pushTimelineChange).
  connect(resetAction_, &QAction::triggered, this, [this] { resetUndoably(undo_, controller_); });

  openAction_ = new QAction(nhres::themedIcon(nhres::icons::open), tr("&Open scenario…"), this);
  openAction_->setShortcut(QKeySequence::Open);
  openAction_->setToolTip(tr("Open a scenario file (Ctrl+O)"));
  connect(openAction_, &QAction::triggered, this, &MainWindow::openDialog);
  saveAction_ = new QAction(nhres::themedIcon(nhres::icons::save), tr("&Save scenario"), this);
  saveAction_->setShortcut(QKeySequence::Save);
  saveAction_->setToolTip(tr("Save the scenario (Ctrl+S)"));
  connect(saveAction_, &QAction::triggered, this, [this] {
    if (currentFile_.isEmpty())
      saveAsDialog();
    else
      saveScenario(currentFile_);
  });
  saveAsAction_ = new QAction(tr("Save scenario &as…"), this);
  // QKeySequence::SaveAs is empty under Qt's plain X11 key scheme (no desktop theme).
  saveAsAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
  connect(saveAsAction_, &QAction::triggered, this, &MainWindow::saveAsDialog);
  exportAnimationAction_ = new QAction(nhres::themedIcon(nhres::icons::exportAnimation),
                                       tr("&Animation (MP4, GIF, WebM, PNG frames)…"), this);
  exportAnimationAction_->setShortcut(QKeySequence(tr("Ctrl+E")));
  exportAnimationAction_->setToolTip(tr("Export an animation (Ctrl+E)"));
  connect(exportAnimationAction_, &QAction::triggered, this, &MainWindow::exportAnimation);

  undoAction_ = undo_->createUndoAction(this, tr("&Undo"));
  undoAction_->setShortcut(QKeySequence::Undo);
  redoAction_ = undo_->createRedoAction(this, tr("&Redo"));
  redoAction_->setShortcuts(
      {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});

  presentationAction_ =
      new QAction(nhres::themedIcon(nhres::icons::presentation), tr("&Presentation mode"), this);
  presentationAction_->setCheckable(true);
  presentationAction_->setShortcut(Qt::Key_F11);
  presentationAction_->setToolTip(
      tr("Full screen for a projector: large text, the 3D view with one large plot, the other "
         "panels behind a side bar (F11)"));
  connect(presentationAction_, &QAction::toggled, this, &MainWindow::setPresentationMode);

  shortcutsAction_ = new QAction(tr("&Keyboard shortcuts"), this);
  shortcutsAction_->setShortcut(Qt::Key_F1);
  connect(shortcutsAction_, &QAction::triggered, this, &MainWindow::toggleShortcutOverlay);

  followAction_ = new QAction(nhres::themedIcon(nhres::icons::follow), tr("Follow"), this);
  followAction_->setCheckable(true);
  followAction_->setToolTip(tr("Keep the camera on the moving body"));
  tableFrameAction_ =
      new QAction(nhres::themedIcon(nhres::icons::tableFrame), tr("Table frame"), this);
  tableFrameAction_->setCheckable(true);
  tableFrameAction_->setToolTip(tr("View from the rotating table's frame"));
  resetCameraAction_ =
      new QAction(nhres::themedIcon(nhres::icons::resetCamera), tr("Reset camera"), this);
  resetCameraAction_->setShortcut(Qt::Key_C);
  resetCameraAction_->setToolTip(tr("Reset the camera (C)"));
  editInitialAction_ =
      new QAction(nhres::themedIcon(nhres::icons::editStart), tr("Edit start"), this);
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
  newSystemAction_ = new QAction(tr("&New system"), this);
  newSystemAction_->setToolTip(tr("Write a system as a model file, starting from a template"));
  connect(newSystemAction_, &QAction::triggered, this, &MainWindow::newSystem);
  openSystemAction_ = new QAction(tr("Open s&ystem…"), this);
  openSystemAction_->setToolTip(tr("Open a model file (YAML or JSON) in the editor and run it"));
  connect(openSystemAction_, &QAction::triggered, this, &MainWindow::openModelDialog);
  editSystemAction_ = new QAction(tr("&Edit system"), this);
  editSystemAction_->setToolTip(
      tr("The running system's model file in the editor (a copy for a built-in system)"));
  connect(editSystemAction_, &QAction::triggered, this, &MainWindow::editSystem);
  duplicateSystemAction_ = new QAction(tr("&Duplicate and edit"), this);
  duplicateSystemAction_->setToolTip(
      tr("The running system's model file, renamed <name>_copy, in the editor"));
  connect(duplicateSystemAction_, &QAction::triggered, this, &MainWindow::duplicateAndEdit);
  saveSystemAction_ = new QAction(tr("Save s&ystem"), this);
  saveSystemAction_->setToolTip(tr("Save the model file in the editor"));
  saveSystemAsAction_ = new QAction(tr("Save system as…"), this);
  saveSystemAsAction_->setToolTip(
      tr("Save the model file in the editor to a new file (your model folder by default)"));

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
  lessonBar_ = new QFrame;
  lessonBar_->setObjectName("lessonBar");
  auto* lessonLayout = new QHBoxLayout(lessonBar_);
  lessonLayout->setContentsMargins(10, 6, 6, 6);
  lessonText_ = new QLabel;
  lessonText_->setObjectName("lessonNote");
  lessonText_->setWordWrap(true);
  lessonText_->setTextFormat(Qt::RichText);
  lessonLayout->addWidget(lessonText_, 1);
  auto* closeLesson = new QToolButton;
  closeLesson->setObjectName("closeLessonNote");
  closeLesson->setText(QStringLiteral("✕"));
  closeLesson->setAutoRaise(true);
  closeLesson->setToolTip(tr("Hide the note (it comes back with the next lesson)"));
  connect(closeLesson, &QToolButton::clicked, lessonBar_, &QWidget::hide);
  lessonLayout->addWidget(closeLesson, 0, Qt::AlignTop);
  lessonBar_->hide();
  layout->addWidget(lessonBar_);
  view_ = new SceneView(controller_);
  view_->setObjectName("sceneView");
  layout->addWidget(view_, 1);

  timelineBar_ = new TimelineBar(controller_);
  layout->addWidget(timelineBar_);

  shortcutOverlay_ = new QLabel(view_);
  shortcutOverlay_->setTextFormat(Qt::RichText);
  shortcutOverlay_->setText(nhres::shortcutHelpHtml());
  shortcutOverlay_->hide();  // styled and placed when shown (positionOverlays)
  setCentralWidget(central);
}

void MainWindow::createToolBars() {
  QToolBar* files = fileToolBar_ = addToolBar(tr("File"));
  files->setObjectName("fileToolBar");
  files->addAction(openAction_);
  files->addAction(saveAction_);
  files->addAction(exportAnimationAction_);

  QToolBar* sim = simToolBar_ = addToolBar(tr("Simulation"));
  sim->setObjectName("simulationToolBar");
  systemBox_ = new QComboBox;
  systemBox_->setObjectName("systemBox");
  // As wide as a usual title; a longer one elides instead of widening the tool bar.
  systemBox_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  systemBox_->setMinimumContentsLength(26);
  refreshSystemBox();
  systemBox_->setToolTip(tr("The system to simulate (File › Choose system… shows the details)"));
  connect(systemBox_, &QComboBox::activated, this,
          [this](int i) { chooseSystem(systemBox_->itemData(i).toString()); });
  systemBoxAction_ = sim->addWidget(systemBox_);
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
  speedSlider_->setToolTip(
      tr("Simulated seconds per real second: 0.01× to 1000× (snaps to 0.1×, 0.25×, 1×, 4×, 10×)"));
  speedBox_ = new QComboBox;
  speedBox_->setObjectName("speedBox");
  speedBox_->setEditable(true);
  speedBox_->setInsertPolicy(QComboBox::NoInsert);
  speedBox_->setToolTip(tr("Playback speed: pick a preset or type a factor from 0.01 to 1000"));
  for (double preset : kSpeedPresets) speedBox_->addItem(speedText(preset), preset);
  speedBox_->setCurrentIndex(speedBox_->findData(1.0));
  speedBox_->setMinimumContentsLength(6);
  sim->addWidget(speedSlider_);
  sim->addWidget(speedBox_);
  connect(speedSlider_, &QSlider::valueChanged, this,
          [this](int p) { controller_->setSpeed(snappedSpeed(p)); });
  connect(speedBox_, &QComboBox::activated, this,
          [this](int i) { setSpeedFromText(speedBox_->itemText(i)); });
  connect(speedBox_->lineEdit(), &QLineEdit::editingFinished, this,
          [this] { setSpeedFromText(speedBox_->lineEdit()->text()); });
  connect(controller_, &SimulationController::speedChanged, this, [this](double s) {
    QSignalBlocker blockBox(speedBox_);
    speedBox_->setEditText(speedText(s));
    QSignalBlocker block(speedSlider_);
    speedSlider_->setValue(sliderFromSpeed(s));
  });

  QToolBar* camera = viewToolBar_ = addToolBar(tr("View"));
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
    // Editing the start restarts the run: the history it discards stays on the undo stack.
    auto kept = on ? controller_->copyTimeline() : nullptr;
    const double shownUntil = controller_->primary().lastTime();
    view_->setEditInitial(on);
    if (kept && shownUntil > 0) {
      undo_->push(new ReplaceTimelineCommand(controller_, std::move(kept),
                                             tr("Edit start (restart from t = 0)")));
      statusBar()->showMessage(
          tr("Edit start: the run restarted from its initial state; %1 brings back the "
             "%2 s recorded before")
              .arg(QKeySequence(QKeySequence::Undo).toString(QKeySequence::NativeText))
              .arg(shownUntil, 0, 'f', 1),
          10000);
    }
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
  displayPanel_ = new DisplayPanel;
  connect(displayPanel_, &DisplayPanel::optionsChanged, this, &MainWindow::applyDisplayOptions);
  displayDock_ =
      makeDock(tr("Display"), "displayDock", scrolled(displayPanel_), Qt::LeftDockWidgetArea);
  comparePanel_ = new ComparePanel(controller_, undo_);
  connect(comparePanel_, &ComparePanel::refused, this,
          [this](const QString& message) { statusBar()->showMessage(message, 8000); });
  compareDock_ = makeDock(tr("Compare"), "compareDock", comparePanel_, Qt::LeftDockWidgetArea);
  modelEditor_ = new ModelEditor;
  modelEditorDock_ =
      makeDock(tr("Model editor"), "modelEditorDock", modelEditor_, Qt::RightDockWidgetArea);
  equations_ = new EquationsPanel;
  equationsDock_ = makeDock(tr("Equations"), "equationsDock", equations_, Qt::RightDockWidgetArea);
  tabifyDockWidget(parametersDock_, systemDock_);
  tabifyDockWidget(parametersDock_, equationsDock_);
  tabifyDockWidget(parametersDock_, modelEditorDock_);
  // Derived (GiNaC, 1–15 ms) when shown and the system or, for a C++ system, its values
  // changed.
  connect(equationsDock_, &QDockWidget::visibilityChanged, this, [this](bool visible) {
    if (visible) updateEquations();
  });
  modelEditorDock_->hide();
  parametersDock_->raise();
  connect(modelEditor_, &ModelEditor::applyRequested, this, &MainWindow::applyModel);
  // The editor's check waits on GiNaC's lock: a derivation of the Equations dock running then
  // is cancelled (it is started again when it has stopped), so typing never stalls on it.
  connect(modelEditor_, &ModelEditor::aboutToCheck, this, [this] {
    if (equationsJob_ && equationsJob_->isRunning() && equationsCancel_) {
      equationsCancel_->store(true);
      equationsStale_ = true;
    }
  });
  connect(modelEditor_, &ModelEditor::saved, this, &MainWindow::onModelSaved);
  connect(modelEditor_, &ModelEditor::documentChanged, this, &MainWindow::updateModelTitle);
  // Shown empty (View menu, or a layout restored with it open): the running system's model;
  // from the View menu, in front of the docks it shares a place with.
  connect(modelEditorDock_->toggleViewAction(), &QAction::toggled, this, [this](bool on) {
    if (!on || !modelEditor_->text().isEmpty() || !modelEditor_->path().isEmpty()) return;
    if (nh::catalogueEntry(controller_->system()).modelText.empty())
      modelEditor_->showNote(tr("%1 is written in C++ and has no model file; File › System "
                                "model › New system starts from a template.")
                                 .arg(QString::fromStdString(controller_->system().info().title)));
    else
      editSystem();
  });
  connect(modelEditorDock_->toggleViewAction(), &QAction::triggered, this, [this](bool on) {
    if (on) modelEditorDock_->raise();
  });
  connect(saveSystemAction_, &QAction::triggered, this, [this] {
    showModelEditor();
    modelEditor_->save();
  });
  connect(saveSystemAsAction_, &QAction::triggered, this, [this] {
    showModelEditor();
    modelEditor_->saveAs();
  });

  phase_ = new PhasePortraitPanel(controller_);
  timeSeries_ = new TimeSeriesPanel(controller_);
  phaseDock_ = makeDock(tr("Phase portrait"), "phaseDock", phase_, Qt::BottomDockWidgetArea);
  timeDock_ = makeDock(tr("Time series"), "timeDock", timeSeries_, Qt::BottomDockWidgetArea);
  splitDockWidget(phaseDock_, timeDock_, Qt::Horizontal);
  study_ = new StudyPanel(controller_);
  // Scrolled: its rows of fields must not widen the dock area (and the window) it shares.
  studyDock_ = makeDock(tr("Study"), "studyDock", scrolled(study_), Qt::BottomDockWidgetArea);
  tabifyDockWidget(timeDock_, studyDock_);
  studyDock_->hide();
  timeDock_->raise();
  connect(study_, &StudyPanel::runChosen, this, &MainWindow::openStudyRun);
  resizeDocks({parametersDock_}, {380}, Qt::Horizontal);
  resizeDocks({displayDock_}, {230}, Qt::Horizontal);
  resizeDocks({phaseDock_, timeDock_}, {330, 330}, Qt::Vertical);
  // Every dock, once: the View menu lists them in this order, presentation mode hides them all
  // but the plot, and those with a short name get a button on its side bar.
  docks_ = {{parametersDock_, tr("Values")},
            {systemDock_, {}},
            {equationsDock_, {}},
            {modelEditorDock_, {}},
            {phaseDock_, tr("Phase")},
            {timeDock_, tr("Plots")},
            {displayDock_, tr("Display")},
            {compareDock_, tr("Compare")},
            {studyDock_, {}}};
}

void MainWindow::openStudyRun(const QStringList& names, const QVector<double>& values) {
  const nh::SystemModel& system = controller_->system();
  const nh::StateLayout layout = nh::stateLayout(system, controller_->scenario().dynamics);
  const std::map<std::string, double> initialBefore = controller_->initialOverrides();
  std::map<std::string, double> initialAfter = initialBefore;
  std::vector<std::pair<std::string, double>> parameters;
  for (int i = 0; i < names.size(); ++i) {
    const std::string name = names[i].toStdString();
    if (system.parameterIndex(name) >= 0)
      parameters.emplace_back(name, values[i]);
    else if (layout.find(name) >= 0)
      initialAfter[name] = values[i];
    else
      return controller_->reportEditError(
          tr("Cannot open this run: '%1' is neither a parameter nor a state variable of %2")
              .arg(names[i], QString::fromStdString(system.name())));
  }
  // The run starts at t = 0: the edit is made there, so it forks the history at the start
  // and its undo brings the replaced history back.
  controller_->seek(0);
  undo_->beginMacro(tr("Open study run"));
  for (const auto& [name, value] : parameters)
    undo_->push(new SetParameterCommand(controller_, name, controller_->parameter(name), value));
  if (initialAfter != initialBefore)
    undo_->push(new SetInitialCommand(controller_, initialBefore, initialAfter, true, false));
  undo_->endMacro();
  controller_->play();
}

void MainWindow::setCompare(CompareMode mode, const QString& parameter, double value) {
  comparePanel_->setCompare(mode, parameter, value);
}

void MainWindow::createMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(chooseSystemAction_);
  QMenu* systemMenu = file->addMenu(tr("S&ystem model"));
  systemMenu->setObjectName("systemModelMenu");
  systemMenu->setToolTipsVisible(true);
  for (QAction* a : {newSystemAction_, openSystemAction_, editSystemAction_, duplicateSystemAction_,
                     saveSystemAction_, saveSystemAsAction_})
    systemMenu->addAction(a);
  file->addSeparator();
  file->addAction(openAction_);
  QMenu* examples = file->addMenu(tr("Open e&xample"));
  examples->setObjectName("examplesMenu");
  examples->setToolTipsVisible(true);
  for (const nhres::Example& example : nhres::examples()) {
    QAction* a = examples->addAction(example.title, this,
                                     [this, example] { openScenario(example.resourcePath()); });
    a->setToolTip(example.note);
    a->setStatusTip(example.note);
  }
  recentMenu_ = file->addMenu(tr("Open &recent"));
  file->addAction(saveAction_);
  file->addAction(saveAsAction_);
  file->addSeparator();
  QMenu* exportMenu = file->addMenu(tr("&Export"));
  exportMenu->addAction(exportAnimationAction_);
  exportMenu->addAction(tr("&Screenshot of the 3D view…"), this, &MainWindow::exportScreenshot);
  exportMenu->addAction(tr("&Phase portrait (PNG, SVG)…"), this, [this] {
    nhui::exportPlot(this, *phase_->plot(), phase_->plot()->xLabel(), "phase-portrait");
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
  simMenu->addAction(tr("Step si&ze…"), this, [this] {
    bool ok = false;
    const double dt = QInputDialog::getDouble(
        this, tr("Step size"), tr("Output step (the spacing of samples and of Step) [s]:"),
        controller_->dtOut(), SimulationController::kMinStepSize,
        SimulationController::kMaxStepSize, 4, &ok, Qt::WindowFlags(), 0.001);
    if (!ok || dt == controller_->dtOut()) return;
    try {
      pushTimelineChange(undo_, controller_, tr("Step size %1 s").arg(dt),
                         [&] { controller_->setStepSize(dt); });
    } catch (const nh::Error& e) {
      controller_->reportEditError(QString::fromUtf8(e.what()));
    }
  });
  simMenu->addAction(tr("St&udy…"), this, [this] {
    studyDock_->show();
    studyDock_->raise();
  });
  QMenu* formulation = simMenu->addMenu(tr("Formulation"));
  for (auto [label, f] : {std::pair{tr("Multipliers (KKT)"), nh::Formulation::Multipliers},
                          std::pair{tr("Gibbs–Appell"), nh::Formulation::GibbsAppell}}) {
    QAction* a = formulation->addAction(label);
    connect(a, &QAction::triggered, this, [this, f = f, label = label] {
      if (controller_->scenario().formulation == f) return;
      pushTimelineChange(undo_, controller_, tr("Formulation: %1").arg(label),
                         [&] { controller_->setFormulation(f); });
    });
  }

  viewMenu_ = menuBar()->addMenu(tr("&View"));
  for (const DockEntry& d : docks_) viewMenu_->addAction(d.dock->toggleViewAction());
  viewMenu_->addSeparator();
  viewMenu_->addAction(resetCameraAction_);
  viewMenu_->addAction(followAction_);
  viewMenu_->addAction(tableFrameAction_);
  viewMenu_->addAction(editInitialAction_);
  viewMenu_->addSeparator();
  viewMenu_->addAction(presentationAction_);
  QMenu* themeMenu = viewMenu_->addMenu(tr("&Theme"));
  themeMenu->setObjectName("themeMenu");
  auto* themes = new QActionGroup(this);
  for (auto [label, theme] :
       {std::pair{tr("&Light"), Theme::Light}, std::pair{tr("&Dark"), Theme::Dark}}) {
    QAction* a = themeMenu->addAction(label);
    a->setCheckable(true);
    a->setChecked(theme == theme_);
    a->setData(static_cast<int>(theme));
    themes->addAction(a);
    connect(a, &QAction::triggered, this, [this, theme = theme] { setTheme(theme); });
  }
  themeActions_ = themes;

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
  // A long message is shown whole: the frame rate, the rate and the residual step aside.
  new StatusMessageFit(statusBar(), {statusFps_, statusRate_, statusResidual_});
}

// ---- Settings -----------------------------------------------------------------------------

void MainWindow::readSettings() {
  QSettings settings;
  if (settings.contains("window/geometry"))
    restoreGeometry(settings.value("window/geometry").toByteArray());
  if (settings.contains("window/state")) restoreState(settings.value("window/state").toByteArray());
  recentFiles_ = settings.value("files/recent").toStringList();
  SceneDisplayOptions display = displayPanel_->options();
  display.trails = settings.value("display/trails", display.trails).toBool();
  display.trailSeconds = settings.value("display/trailSeconds", display.trailSeconds).toDouble();
  display.reactionArrows = settings.value("display/forces", display.reactionArrows).toBool();
  display.velocityArrows = settings.value("display/velocity", display.velocityArrows).toBool();
  display.angularVelocityArrows =
      settings.value("display/angularVelocity", display.angularVelocityArrows).toBool();
  display.grid = settings.value("display/grid", display.grid).toBool();
  display.axes = settings.value("display/axes", display.axes).toBool();
  display.legend = settings.value("display/legend", display.legend).toBool();
  display.keepInView = settings.value("display/keepInView", display.keepInView).toBool();
  displayPanel_->setOptions(display);
  const double speed = settings.value("simulation/speed", 1.0).toDouble();
  controller_->setSpeed(speed);
  setTheme(settings.value("view/theme").toString() == "dark" ? Theme::Dark : Theme::Light);
  updateRecentMenu();
}

void MainWindow::writeSettings() {
  QSettings settings;
  settings.setValue("window/geometry", saveGeometry());
  settings.setValue("window/state", saveState());
  settings.setValue("files/recent", recentFiles_);
  const SceneDisplayOptions& display = displayPanel_->options();
  settings.setValue("display/trails", display.trails);
  settings.setValue("display/trailSeconds", display.trailSeconds);
  settings.setValue("display/forces", display.reactionArrows);
  settings.setValue("display/velocity", display.velocityArrows);
  settings.setValue("display/angularVelocity", display.angularVelocityArrows);
  settings.setValue("display/grid", display.grid);
  settings.setValue("display/axes", display.axes);
  settings.setValue("display/legend", display.legend);
  settings.setValue("display/keepInView", display.keepInView);
  settings.setValue("simulation/speed", controller_->speed());
  settings.setValue("view/theme", theme_ == Theme::Dark ? "dark" : "light");
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!maybeSaveModel() || !maybeSaveScenario()) {
    event->ignore();
    return;
  }
  cancelExports();  // nothing half-written stays behind the closed window
  if (presentation_) setPresentationMode(false);
  if (useSettings_) writeSettings();
  event->accept();
}

void MainWindow::cancelExports() {
  for (ExportDialog* dialog : findChildren<ExportDialog*>()) dialog->cancelAndWait();
}

// ---- Files --------------------------------------------------------------------------------

bool MainWindow::openScenario(const QString& path) {
  if (!maybeSaveScenario()) return false;
  ScenarioView view;
  try {
    // A path under ":/" is a bundled example, read from the Qt resource.
    const nh::Scenario s = path.startsWith(":/") ? nhres::readResourceScenario(path)
                                                 : nh::readScenarioFile(path.toStdString());
    view = parseScenarioView(s.view);  // checked before anything changes
    controller_->loadScenario(s);
  } catch (const std::exception& e) {
    const QString message =
        tr("Could not open %1: %2").arg(QFileInfo(path).fileName(), QString::fromUtf8(e.what()));
    statusBar()->showMessage(message, 10000);
    banner_->setText(message);
    banner_->show();
    return false;
  }
  // A bundled example has no file to save back to: Save asks for one.
  const bool bundled = path.startsWith(":/");
  currentFile_ = bundled ? QString() : path;
  if (!bundled) addRecentFile(path);
  applyView(view);
  undo_->clear();  // after the view's comparison: the file's state is the start, not an edit
  titleBase_ = view.title.isEmpty() ? QFileInfo(path).fileName() : view.title;
  updateWindowTitle();
  controller_->play();
  return true;
}

bool MainWindow::saveScenario(const QString& path) {
  try {
    nh::Scenario s = controller_->scenario();
    s.view = scenarioViewToJson(currentView());
    nh::writeScenarioFile(
        nh::resolvedScenario(s, controller_->parameters(), controller_->initialState()),
        path.toStdString());
  } catch (const std::exception& e) {
    const QString message = tr("Could not save %1: %2").arg(path, QString::fromUtf8(e.what()));
    statusBar()->showMessage(message, 10000);
    banner_->setText(message);
    banner_->show();
    return false;
  }
  currentFile_ = path;
  addRecentFile(path);
  undo_->setClean();
  if (lessonView_.title.isEmpty()) titleBase_ = QFileInfo(path).fileName();
  updateWindowTitle();
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
  // Undoable: Undo returns to the previous system with its edited parameters and start.
  SwitchSystemCommand::Run before{controller_->systemPtr(), controller_->scenario(),
                                  SwitchSystemCommand::comparisonOf(*controller_),
                                  controller_->copyTimeline()};
  try {
    nh::Scenario s;
    s.system = name.toStdString();
    controller_->loadScenario(s);
  } catch (const nh::Error& e) {
    onError(QString::fromStdString(e.what()));
    return;
  }
  SwitchSystemCommand::Run after{controller_->systemPtr(), controller_->scenario(), {}, {}};
  const QString previous = QString::fromStdString(before.system->name());
  undo_->push(new SwitchSystemCommand(controller_, std::move(before), std::move(after), true));
  statusBar()->showMessage(
      tr("Running %1 (%2 returns to %3 with its parameters)")
          .arg(name, QKeySequence(QKeySequence::Undo).toString(QKeySequence::NativeText), previous),
      8000);
  currentFile_.clear();
  applyView(ScenarioView{});  // a lesson's note described the previous system
  titleBase_.clear();
  updateWindowTitle();
  controller_->play();
}

// ---- System models (the editor) -----------------------------------------------------------

void MainWindow::showModelEditor() {
  modelEditorDock_->show();
  modelEditorDock_->raise();
  // Wide enough for a model's lines next to the 3D view.
  resizeDocks({modelEditorDock_}, {std::clamp(width() * 2 / 5, 380, 640)}, Qt::Horizontal);
  modelEditor_->textEdit()->setFocus();
}

bool MainWindow::maybeSaveModel() {
  if (!modelEditor_->isModified()) return true;
  showModelEditor();
  const auto answer = QMessageBox::warning(
      this, tr("Unsaved model"),
      tr("The model in the editor has changes that are not saved. Save them?"),
      QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
  if (answer == QMessageBox::Save) return modelEditor_->save();
  return answer == QMessageBox::Discard;
}

bool MainWindow::newSystem() {
  if (!maybeSaveModel()) return false;
  modelEditor_->setDocument(ModelEditor::templateText(), QString());
  showModelEditor();
  return true;
}

void MainWindow::openModelDialog() {
  if (!maybeSaveModel()) return;
  const QString folder = QString::fromStdString(nh::userModelFolder());
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Open system"), QFileInfo::exists(folder) ? folder : QString(),
      tr("Model files (*.yaml *.yml *.json);;All files (*)"));
  if (!path.isEmpty()) openModelFile(path);
}

bool MainWindow::openModelFile(const QString& path) {
  std::string text;
  try {
    text = nh::readRegularFile(path.toStdString(), "model file");
  } catch (const nh::Error& e) {
    // The editor keeps what it holds.
    const QString message = tr("Could not open %1: %2").arg(path, QString::fromUtf8(e.what()));
    statusBar()->showMessage(message, 10000);
    QMessageBox::warning(this, tr("Open system"), message);
    return false;
  }
  modelEditor_->setDocument(QString::fromStdString(text), QFileInfo(path).absoluteFilePath());
  showModelEditor();
  // A file that loads runs at once (undoably); one with an error stays in the editor, marked.
  if (auto system = modelEditor_->system()) return applyModel(system);
  return false;
}

bool MainWindow::duplicateAndEdit() {
  const nh::SystemModel& running = controller_->system();
  const nh::CatalogueEntry entry = nh::catalogueEntry(running);
  const QString name = QString::fromStdString(running.name());
  if (entry.modelText.empty()) {
    QMessageBox::information(
        this, tr("Duplicate and edit"),
        tr("%1 has no model file: it is written in C++ only, so there is nothing to copy. "
           "File › System model › New system starts from a template.")
            .arg(name));
    return false;
  }
  if (!maybeSaveModel()) return false;
  QString text = QString::fromStdString(entry.modelText);
  static const QRegularExpression nameLine("^name:[ \t]*[\"']?[A-Za-z0-9_]*[\"']?",
                                           QRegularExpression::MultilineOption);
  text.replace(nameLine, QStringLiteral("name: %1_copy").arg(name));
  modelEditor_->setDocument(text, QString());
  showModelEditor();
  return true;
}

bool MainWindow::editSystem() {
  const nh::CatalogueEntry entry = nh::catalogueEntry(controller_->system());
  if (entry.path.empty() || entry.modelText.empty()) return duplicateAndEdit();
  if (!maybeSaveModel()) return false;
  modelEditor_->setDocument(QString::fromStdString(entry.modelText),
                            QString::fromStdString(entry.path));
  showModelEditor();
  return true;
}

nh::Scenario MainWindow::carriedScenario(const nh::SystemModel& next) const {
  const nh::SystemModel& now = controller_->system();
  nh::Scenario s = controller_->scenario();
  s.system = next.name();
  // Only what the user changed is carried: a default edited in the file then takes effect.
  s.parameters.clear();
  for (const nh::ParameterInfo& p : next.info().parameters) {
    const int i = now.parameterIndex(p.name);
    if (i < 0) continue;
    const double value = controller_->parameters()[i];
    if (value != now.info().parameters[i].defaultValue && p.allows(value))
      s.parameters[p.name] = value;
  }
  s.initial.clear();
  const nh::StateLayout layout = nh::stateLayout(next, s.dynamics);
  for (const auto& [name, value] : controller_->initialOverrides()) {
    if (layout.find(name) < 0) continue;
    const auto& limits = next.info().stateLimits;
    if (std::all_of(limits.begin(), limits.end(), [&, n = name, v = value](const auto& limit) {
          return limit.name != n || limit.allows(v);
        }))
      s.initial[name] = value;
  }
  return s;
}

bool MainWindow::applyModel(std::shared_ptr<const nh::model::FormulaSystem> system) {
  if (!system) return false;
  SwitchSystemCommand::Run before{controller_->systemPtr(), controller_->scenario(),
                                  SwitchSystemCommand::comparisonOf(*controller_),
                                  controller_->copyTimeline()};
  SwitchSystemCommand::Run after{system, carriedScenario(*system), {}, {}};
  try {
    controller_->switchSystem(after.system, after.scenario);
  } catch (const nh::Error& e) {
    modelEditor_->showRunError(QString::fromUtf8(e.what()));
    statusBar()->showMessage(tr("The model was not applied: %1").arg(e.what()), 10000);
    return false;
  }
  nh::registerSessionSystem(system);
  refreshSystemBox();
  modelEditor_->setRunningText(QString::fromStdString(system->text()));
  undo_->push(new SwitchSystemCommand(controller_, std::move(before), std::move(after), true));
  // A scenario file described the previous system.
  currentFile_.clear();
  applyView(ScenarioView{});
  titleBase_.clear();
  updateWindowTitle();
  controller_->play();
  statusBar()->showMessage(tr("Running %1").arg(QString::fromStdString(system->name())), 4000);
  return true;
}

void MainWindow::onModelSaved(const QString& path) {
  const QString folder = QString::fromStdString(nh::userModelFolder());
  if (QFileInfo(path).absoluteDir() == QDir(folder)) {
    nh::reloadUserModels();
    // A file the catalogue skips (its name taken by another system, say) is said so at once.
    for (const std::string& problem : nh::catalogueProblems())
      if (QString::fromStdString(problem).startsWith(path)) {
        modelEditor_->showNote(
            tr("Saved, but not listed: %1").arg(QString::fromStdString(problem)));
        statusBar()->showMessage(QString::fromStdString(problem), 10000);
        refreshSystemBox();
        return;
      }
  }
  refreshSystemBox();
  statusBar()->showMessage(tr("Saved %1").arg(path), 4000);
}

void MainWindow::updateModelTitle() {
  const QString state = modelEditor_->path().isEmpty() ? tr(" (not saved yet)")
                        : modelEditor_->isModified()   ? QStringLiteral(" *")
                                                       : QString();
  modelEditorDock_->setWindowTitle(
      tr("Model editor — %1%2").arg(modelEditor_->documentName(), state));
}

void MainWindow::refreshSystemBox() {
  QSignalBlocker block(systemBox_);
  systemBox_->clear();
  for (const nh::CatalogueEntry& e : nh::catalogueEntries()) {
    const QString name = QString::fromStdString(e.system->name());
    systemBox_->addItem(QString::fromStdString(e.system->info().title), name);
    systemBox_->setItemData(systemBox_->count() - 1, tr("%1 — %2").arg(name, originText(e.origin)),
                            Qt::ToolTipRole);
  }
  systemBox_->setCurrentIndex(
      systemBox_->findData(QString::fromStdString(controller_->system().name())));
}

// ---- Updates ------------------------------------------------------------------------------

void MainWindow::showEquations() {
  equationsDock_->show();
  equationsDock_->raise();
  updateEquations();
}

struct MainWindow::DerivedResult {
  QString title;
  nh::model::DerivedEquations equations;
  QString error;
  bool cancelled = false;
};

void MainWindow::updateEquations() {
  if (!equationsJob_) {
    equationsJob_ = new QFutureWatcher<std::shared_ptr<const DerivedResult>>(this);
    connect(equationsJob_, &QFutureWatcherBase::finished, this, [this] {
      const std::shared_ptr<const DerivedResult> r = equationsJob_->result();
      if (!r->cancelled && !equationsStale_) {
        equations_->setTitle(r->title);
        if (r->error.isEmpty())
          equations_->setEquations(r->equations);
        else
          equations_->setMessage(tr("The equations could not be derived: %1").arg(r->error));
      }
      updateEquations();  // a request that came while it ran
    });
  }
  if (!equationsDock_->isVisible() || !equationsStale_) return;
  if (equationsJob_->isRunning()) {
    equationsCancel_->store(true);
    return;
  }
  equationsStale_ = false;
  equationsCancel_ = std::make_shared<std::atomic<bool>>(false);
  equationsJob_->setFuture(
      QtConcurrent::run([system = controller_->systemPtr(), parameters = controller_->parameters(),
                         cancel = equationsCancel_] {
        auto r = std::make_shared<DerivedResult>();
        r->title = QString::fromStdString(system->info().title);
        try {
          r->equations = nh::model::deriveEquations(*system, parameters, cancel.get());
        } catch (const nh::model::DerivationCancelled&) {
          r->cancelled = true;
        } catch (const std::exception& e) {
          r->error = QString::fromUtf8(e.what());
        }
        return std::shared_ptr<const DerivedResult>(std::move(r));
      }));
}

void MainWindow::onScenarioChanged() {
  equationsStale_ = true;
  updateEquations();
  // By object, not name: an applied edit of a model keeps its name.
  const bool newSystem = controller_->systemPtr() != lastSystem_;
  lastSystem_ = controller_->systemPtr();
  if (newSystem) {
    parameters_->rebuild();
    initial_->rebuild();
    phase_->resetVariables();
    timeSeries_->resetVariables();
    systemText_->setHtml(systemHtml(controller_->system()));
    view_->rebuild();
    std::vector<std::string> trailPoints;
    for (const auto& p : controller_->primary().layout().points) trailPoints.push_back(p.name);
    displayPanel_->setTrailPoints(trailPoints);
    const int i = systemBox_->findData(QString::fromStdString(lastSystem_->name()));
    systemBox_->setCurrentIndex(i);
    const nh::CatalogueEntry entry = nh::catalogueEntry(*lastSystem_);
    modelEditor_->setRunningText(QString::fromStdString(entry.modelText));
    comparePanel_->rebuild();
    const bool hasTable = controller_->system().info().editing.movingFrame;
    tableFrameAction_->setEnabled(hasTable);
    if (!hasTable) tableFrameAction_->setChecked(false);
    if (editInitialAction_->isChecked()) editInitialAction_->setChecked(false);
  } else {
    parameters_->syncValues();
    initial_->syncValues();
  }
  comparePanel_->syncMode();
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
  playAction_->setIcon(nhres::themedIcon(playing ? nhres::icons::pause : nhres::icons::play));
  playAction_->setText(playing ? tr("Pause") : tr("Play"));
}

void MainWindow::onTick() {
  view_->refresh();
  if (!phaseDock_->isHidden() && phase_->isVisible()) phase_->refresh();
  if (!timeDock_->isHidden() && timeSeries_->isVisible()) timeSeries_->refresh();
  timelineBar_->refresh();
  updateStatus();
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
  SceneDisplayOptions o = displayPanel_->options();
  o.textScale = presentation_ ? 1.6 : 1.0;
  o.darkBackground = theme_ == Theme::Dark;
  view_->setOptions(o);
}

namespace {

QPalette darkPalette() {
  QPalette p;
  p.setColor(QPalette::Window, QColor(18, 20, 24));
  p.setColor(QPalette::WindowText, QColor(236, 238, 242));
  p.setColor(QPalette::Base, QColor(10, 11, 14));
  p.setColor(QPalette::AlternateBase, QColor(30, 33, 38));
  p.setColor(QPalette::Text, QColor(236, 238, 242));
  p.setColor(QPalette::Button, QColor(40, 44, 52));
  p.setColor(QPalette::ButtonText, QColor(236, 238, 242));
  p.setColor(QPalette::Light, QColor(90, 96, 108));
  p.setColor(QPalette::Midlight, QColor(64, 70, 80));
  p.setColor(QPalette::Mid, QColor(48, 52, 60));
  p.setColor(QPalette::Dark, QColor(12, 13, 16));
  p.setColor(QPalette::Shadow, Qt::black);
  p.setColor(QPalette::Highlight, QColor(255, 200, 40));
  p.setColor(QPalette::HighlightedText, Qt::black);
  p.setColor(QPalette::ToolTipBase, QColor(30, 33, 38));
  p.setColor(QPalette::ToolTipText, QColor(236, 238, 242));
  p.setColor(QPalette::PlaceholderText, QColor(150, 156, 166));
  p.setColor(QPalette::Link, QColor(120, 180, 255));
  for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
    p.setColor(QPalette::Disabled, role, QColor(120, 126, 136));
  return p;
}

}  // namespace

void MainWindow::setTheme(Theme theme) {
  theme_ = theme;
  if (themeActions_)
    for (QAction* a : themeActions_->actions()) a->setChecked(a->data().toInt() == int(theme));
  const bool dark = theme == Theme::Dark;
  QApplication::setPalette(dark ? darkPalette() : normalPalette_);
  lessonBar_->setStyleSheet(
      dark ? "QFrame#lessonBar { background: #1d2b3a; border-bottom: 1px solid #3d5a78; }"
             "QFrame#lessonBar QLabel { color: #eef2f6; }"
           : "QFrame#lessonBar { background: #fff6d6; border-bottom: 1px solid #d9c37a; }"
             "QFrame#lessonBar QLabel { color: #202020; }");
  PlotStyle plotStyle;
  if (!dark) {
    plotStyle.background = QColor(255, 255, 255);
    plotStyle.frame = QColor(120, 126, 136);
    plotStyle.grid = QColor(226, 229, 234);
    plotStyle.text = QColor(30, 32, 36);
  }
  if (presentation_) {
    plotStyle.lineWidth = 2.6;
    plotStyle.fontScale = 1.5;
  }
  phase_->plot()->setStyle(plotStyle);
  timeSeries_->plot()->setStyle(plotStyle);
  applyDisplayOptions();
}

void MainWindow::setPresentationMode(bool on) {
  if (presentation_ == on) return;
  presentation_ = on;
  {
    QSignalBlocker block(presentationAction_);
    presentationAction_->setChecked(on);
  }
  if (on) {
    wasMaximized_ = isMaximized();
    normalDockState_ = saveState();
    normalGeometry_ = saveGeometry();
    QFont big = normalFont_;
    big.setPointSizeF(normalFont_.pointSizeF() * 1.3);
    QApplication::setFont(big);
    // The 3D view and one large plot; the other panels wait behind the side bar.
    for (const DockEntry& d : docks_)
      if (d.dock != timeDock_) d.dock->hide();
    fileToolBar_->hide();
    systemBoxAction_->setVisible(false);
    for (QToolBar* t : {simToolBar_, viewToolBar_}) t->setIconSize(QSize(36, 36));
    sideBar_ = new QToolBar(tr("Panels"), this);
    sideBar_->setObjectName("presentationSideBar");
    sideBar_->setMovable(false);
    sideBar_->setToolButtonStyle(Qt::ToolButtonTextOnly);
    // Short names keep the bar slim; each button shows or hides its panel.
    for (const auto& [dock, name] : docks_) {
      if (name.isEmpty()) continue;
      QAction* a = sideBar_->addAction(name);
      a->setCheckable(true);
      a->setChecked(dock->isVisible() || dock == timeDock_);
      a->setToolTip(dock->windowTitle());
      connect(a, &QAction::toggled, dock, [this, dock = dock](bool shown) {
        if (shown && dock != timeDock_) presentPanel(dock);
        dock->setVisible(shown);
        if (shown) dock->raise();
        keepPresentationLayout();
      });
      connect(dock, &QDockWidget::visibilityChanged, a, [a, dock = dock] {
        QSignalBlocker block(a);
        a->setChecked(!dock->isHidden());
      });
    }
    addToolBar(Qt::LeftToolBarArea, sideBar_);
    removeDockWidget(timeDock_);
    addDockWidget(Qt::RightDockWidgetArea, timeDock_);
    timeDock_->show();
    timeSeries_->setCompact(true);
    showFullScreen();
    keepPresentationLayout();
  } else {
    QApplication::setFont(normalFont_);
    timeSeries_->setCompact(false);
    if (sideBar_) {
      removeToolBar(sideBar_);
      delete sideBar_;
      sideBar_ = nullptr;
    }
    fileToolBar_->show();
    systemBoxAction_->setVisible(true);
    const int icon = style()->pixelMetric(QStyle::PM_ToolBarIconSize);
    for (QToolBar* t : {simToolBar_, viewToolBar_}) t->setIconSize(QSize(icon, icon));
    restoreState(normalDockState_);
    if (wasMaximized_)
      showMaximized();
    else
      showNormal();
    restoreGeometry(normalGeometry_);
    fitToScreen();
  }
  setTheme(theme_);  // plot line widths and text sizes follow the mode
}

ScenarioView MainWindow::currentView() const {
  ScenarioView v;
  v.title = lessonView_.title;
  v.note = lessonView_.note;
  v.speed = controller_->speed();
  v.follow = followAction_->isChecked();
  if (tableFrameAction_->isEnabled()) v.tableFrame = tableFrameAction_->isChecked();
  const SceneDisplayOptions& d = displayPanel_->options();
  v.trails = d.trails;
  v.trailSeconds = d.trailSeconds;
  v.forces = d.reactionArrows;
  v.velocity = d.velocityArrows;
  v.angularVelocity = d.angularVelocityArrows;
  v.grid = d.grid;
  v.axes = d.axes;
  v.legend = d.legend;
  v.fixedArrowScale = d.arrowScaleFixed;
  v.phase = QStringList{phase_->xVariable(), phase_->yVariable()};
  v.timeSeries = timeSeries_->variables();
  v.compare = controller_->compareMode();
  v.ghostParameter = QString::fromStdString(controller_->ghostParameter());
  v.ghostValue = controller_->ghostValue();
  v.study = study_->lastSettings();
  return v;
}

void MainWindow::applyView(const ScenarioView& view) {
  lessonView_ = view;
  if (view.speed) controller_->setSpeed(*view.speed);
  if (view.follow) followAction_->setChecked(*view.follow);
  if (view.tableFrame && tableFrameAction_->isEnabled())
    tableFrameAction_->setChecked(*view.tableFrame);
  SceneDisplayOptions d = displayPanel_->options();
  const std::pair<const std::optional<bool>*, bool*> flags[] = {
      {&view.trails, &d.trails},
      {&view.forces, &d.reactionArrows},
      {&view.velocity, &d.velocityArrows},
      {&view.angularVelocity, &d.angularVelocityArrows},
      {&view.grid, &d.grid},
      {&view.axes, &d.axes},
      {&view.legend, &d.legend}};
  for (const auto& [from, to] : flags)
    if (*from) *to = **from;
  if (view.trailSeconds) d.trailSeconds = *view.trailSeconds;
  if (view.fixedArrowScale) d.arrowScaleFixed = *view.fixedArrowScale;
  displayPanel_->setOptions(d);
  applyDisplayOptions();
  // Variables this system does not record are left out (the panels keep their choice).
  if (view.phase) phase_->setVariables(view.phase->at(0), view.phase->at(1));
  if (view.timeSeries) timeSeries_->setVariables(*view.timeSeries);
  if (view.compare) setCompare(*view.compare, view.ghostParameter, view.ghostValue);
  if (view.study) study_->applySettings(*view.study);
  if (view.note.isEmpty()) {
    lessonBar_->hide();
  } else {
    lessonText_->setText(QStringLiteral("<b>%1</b>%2%3")
                             .arg(view.title.toHtmlEscaped(),
                                  view.title.isEmpty() ? QString() : QStringLiteral(" — "),
                                  view.note.toHtmlEscaped()));
    lessonBar_->show();
  }
}

bool MainWindow::maybeSaveScenario() {
  if (undo_->isClean()) return true;
  QMessageBox box(QMessageBox::Warning, tr("Unsaved changes"),
                  tr("%1 Save the scenario first?").arg(unsavedChanges(*undo_)),
                  QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
  box.setObjectName("unsavedScenarioBox");
  box.setTextFormat(Qt::PlainText);
  box.setDefaultButton(QMessageBox::Save);
  const int answer = box.exec();
  if (answer == QMessageBox::Save) {
    if (currentFile_.isEmpty()) return saveAsDialog();
    return saveScenario(currentFile_);
  }
  return answer == QMessageBox::Discard;
}

void MainWindow::updateWindowTitle() {
  setWindowTitle(titleBase_.isEmpty() ? tr("Nonholonomic Lab[*]")
                                      : tr("%1[*] — Nonholonomic Lab").arg(titleBase_));
  setWindowModified(!undo_->isClean());
}

void MainWindow::setSpeedFromText(const QString& text) {
  QString t = text.trimmed();
  if (t.endsWith(QStringLiteral("×")) || t.endsWith('x') || t.endsWith('X')) t.chop(1);
  bool ok = false;
  const double v = QLocale::c().toDouble(t.trimmed(), &ok);
  if (!ok || !(v >= 0.01 && v <= 1000)) {
    statusBar()->showMessage(
        tr("Speed '%1' refused: type a factor from 0.01 to 1000 (for example 0.5 or 2×)")
            .arg(text.left(40)),
        8000);
    QSignalBlocker block(speedBox_);
    speedBox_->setEditText(speedText(controller_->speed()));
    return;
  }
  controller_->setSpeed(v);
  // The speed is set: the keyboard goes back to the view, so Space plays and pauses again
  // (the box's line edit would take it as text).
  if (focusWidget() == speedBox_ || focusWidget() == speedBox_->lineEdit()) view_->setFocus();
}

void MainWindow::toggleShortcutOverlay() {
  shortcutOverlay_->setVisible(!shortcutOverlay_->isVisible());
  positionOverlays();
  shortcutOverlay_->raise();
}

// The shortcut overlay is centred on the 3D view and fits inside it: its text gets smaller
// (down to 7 pt) until it does, so no line is cut at a projector's 1024×768.
void MainWindow::positionOverlays() {
  if (!shortcutOverlay_ || !shortcutOverlay_->isVisible()) return;
  const QSize room = view_->size() - QSize(8, 8);
  for (double points = 12; points >= 7; points -= 0.5) {
    shortcutOverlay_->setStyleSheet(
        QStringLiteral("QLabel { background: rgba(15, 18, 24, 215); color: #f0f0f0; border: 1px "
                       "solid #8090a0; border-radius: 10px; padding: %1px; font-size: %2pt; }")
            .arg(points >= 10 ? 16 : 8)
            .arg(points));
    shortcutOverlay_->adjustSize();
    if (shortcutOverlay_->width() <= room.width() && shortcutOverlay_->height() <= room.height())
      break;
  }
  shortcutOverlay_->move(std::max(0, (view_->width() - shortcutOverlay_->width()) / 2),
                         std::max(0, (view_->height() - shortcutOverlay_->height()) / 2));
}

void MainWindow::resizeEvent(QResizeEvent* event) {
  QMainWindow::resizeEvent(event);
  positionOverlays();
  if (presentation_ && event->size().width() != event->oldSize().width()) keepPresentationLayout();
}

// In presentation mode a panel opened from the side bar becomes a tab beside the plot, in the
// plot's third of the screen: it takes space from the plot, never from the 3D view.
void MainWindow::presentPanel(QDockWidget* dock) {
  if (dockWidgetArea(dock) == Qt::RightDockWidgetArea && !dock->isFloating() &&
      tabifiedDockWidgets(timeDock_).contains(dock))
    return;
  removeDockWidget(dock);
  addDockWidget(Qt::RightDockWidgetArea, dock);
  tabifyDockWidget(timeDock_, dock);
}

// Presentation mode keeps the panels' side at about a third of the width, whatever the
// screen and whichever panels are open.
void MainWindow::keepPresentationLayout() {
  if (!presentation_) return;
  QList<QDockWidget*> shown;
  for (QDockWidget* d : findChildren<QDockWidget*>())
    if (!d->isHidden() && dockWidgetArea(d) == Qt::RightDockWidgetArea) shown << d;
  if (shown.isEmpty()) return;
  const int side = std::max(260, width() * 34 / 100);
  resizeDocks(shown, QList<int>(shown.size(), side), Qt::Horizontal);
}

// A window restored from full screen keeps within the screen it is on (its docks' minimum
// widths could otherwise leave it wider than a 1024 px projector).
void MainWindow::fitToScreen() {
  const QScreen* s = screen();
  if (!s || isMaximized() || isFullScreen()) return;
  const QRect available = s->availableGeometry();
  QRect g = frameGeometry();
  const QSize size(std::min(width(), available.width() - (g.width() - width())),
                   std::min(height(), available.height() - (g.height() - height())));
  if (size != this->size()) resize(size);
  g = frameGeometry();
  if (!available.contains(g))
    move(std::clamp(g.left(), available.left(),
                    std::max(available.left(), available.right() - g.width() + 1)),
         std::clamp(g.top(), available.top(),
                    std::max(available.top(), available.bottom() - g.height() + 1)));
}

// Export entry points: the dialogs of ui/export, fed with what the window shows now.
void MainWindow::exportAnimation() {
  ExportDefaults defaults;
  defaults.baseName = QString::fromStdString(controller_->scenario().system);
  defaults.tEnd = std::max(1.0, controller_->primary().lastTime());
  defaults.view = view_->options();
  if (vtkRenderer* renderer = view_->renderer())
    defaults.camera = cameraPoseOf(renderer->GetActiveCamera());
  defaults.follow = view_->follow();
  defaults.compare = controller_->compareMode();
  defaults.ghostParameter = controller_->ghostParameter();
  defaults.ghostValue = controller_->ghostValue();
  defaults.pathX = phase_->xVariable().toStdString();
  defaults.pathY = phase_->yVariable().toStdString();
  defaults.timeSeries.clear();
  for (const QString& v : timeSeries_->variables()) defaults.timeSeries.push_back(v.toStdString());
  defaults.inputScenario = currentFile_;
  defaults.rememberSettings = useSettings_;
  showExportDialog(this, controller_->scenario(), defaults);
}

void MainWindow::exportScreenshot() {
  SceneImageRequest request;
  request.size = QSize(1920, 1080);
  request.time = controller_->displayTime();
  request.options = view_->options();
  if (vtkRenderer* renderer = view_->renderer())
    request.camera = cameraPoseOf(renderer->GetActiveCamera());
  request.overlayText =
      QString("t = %1 s").arg(controller_->displayTime(), 0, 'f', 2).toStdString();
  request.viewHeight = view_->height();
  request.arrowReferences = view_->primaryRenderer().arrowReferences();
  nhui::exportScreenshot(this, controller_->primary(), request);
}

}  // namespace nhui
