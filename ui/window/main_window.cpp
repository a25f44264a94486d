// MainWindow (main_window.h): the central 3D view and timeline, the tool bars, panels and
// docks, presentation mode, the settings read and written, and closing (unsaved edits, running
// exports); the menus' commands handed to the session and the model editing.
#include "ui/window/main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QResizeEvent>
#include <QSettings>
#include <QStatusBar>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>

#include "resources/app_resources.h"
#include "ui/export/export_dialog.h"  // ExportDialog::cancelAndWait
#include "ui/panels/compare_panel.h"
#include "ui/panels/display_panel.h"
#include "ui/panels/equations_panel.h"
#include "ui/panels/model_editor.h"
#include "ui/panels/parameter_panel.h"
#include "ui/panels/plan_dialog.h"
#include "ui/panels/system_chooser.h"  // SystemChooser, systemHtml
#include "ui/plot/plot_panels.h"
#include "ui/scene/scene_view.h"
#include "ui/study/study_panel.h"
#include "ui/window/model_editing.h"
#include "ui/window/presentation_mode.h"
#include "ui/window/timeline_bar.h"
#include "ui/window/view_binding.h"
#include "ui/window/window_actions.h"
#include "ui/window/window_parts.h"

namespace nhui {

MainWindow::MainWindow(bool useSettings, QWidget* parent)
    : QMainWindow(parent),
      useSettings_(useSettings),
      session_(new Session(this)),
      controller_(session_->controller()),
      normalPalette_(QApplication::palette()) {
  setAcceptDrops(true);
  setDockNestingEnabled(true);
  actions_ = new WindowActions(this, undoStack());
  createCentral();
  createToolBars();
  createPanels();
  createDocks();
  connectPanels();
  createMenus();
  connectActions();
  createPresentationMode();
  statusLine_ = new StatusLine(statusBar(), controller_, view_);
  connect(session_, &Session::errorOccurred, this, &MainWindow::reportError);
  connect(session_, &Session::notice, statusBar(), &QStatusBar::showMessage);
  connect(session_, &Session::documentChanged, this, [this] {
    updateTitle();
    lessonBar_->showLessonOf(*session_);
    banner_->expectEnergyDrift(session_->lessonDriftExpected());
  });
  connect(session_, &Session::viewChanged, this, [this](ViewParts parts) {
    if (parts & kViewDisplay) applyDisplayOptions();
  });
  connect(controller_, &SimulationController::ticked, this, &MainWindow::onTick);
  connect(controller_, &SimulationController::scenarioChanged, this,
          &MainWindow::onScenarioChanged);
  connect(controller_, &SimulationController::playingChanged, this, &MainWindow::updatePlayAction);
  connect(controller_, &SimulationController::planChanged, this,
          [this] { lessonBar_->showLessonOf(*session_); });
  updateTitle();
  setTheme(theme());
  resize(1600, 1000);
  if (useSettings_) readSettings();
  applyDisplayOptions();
  onScenarioChanged();
  controller_->play();  // the default scenario is already playing
}

MainWindow::~MainWindow() = default;

QSlider* MainWindow::timeline() const { return timelineBar_->slider(); }
QWidget* MainWindow::lessonBar() const { return lessonBar_; }
QLabel* MainWindow::errorBanner() const { return banner_; }
QString MainWindow::lastErrorMessage() const { return banner_->message(); }
QAction* MainWindow::tableFrameAction() const { return actions_->tableFrame; }
QAction* MainWindow::editInitialAction() const { return actions_->editInitial; }

// ---- Construction -------------------------------------------------------------------------

void MainWindow::connectActions() {
  connect(actions_->play, &QAction::triggered, controller_, &SimulationController::togglePlay);
  connect(actions_->step, &QAction::triggered, controller_, &SimulationController::stepForward);
  connect(actions_->stepBack, &QAction::triggered, controller_, &SimulationController::stepBack);
  connect(actions_->reset, &QAction::triggered, session_, &Session::reset);
  connect(actions_->open, &QAction::triggered, this, &MainWindow::openDialog);
  connect(actions_->save, &QAction::triggered, this, [this] {
    session_->currentFile().isEmpty() ? saveAsDialog() : saveScenario(session_->currentFile());
  });
  connect(actions_->saveAs, &QAction::triggered, this, &MainWindow::saveAsDialog);
  connect(actions_->presentation, &QAction::toggled, this, &MainWindow::setPresentationMode);
  connect(actions_->shortcuts, &QAction::triggered, shortcutOverlay_, &ShortcutOverlay::toggle);
  connect(actions_->chooseSystem, &QAction::triggered, this, [this] {
    SystemChooser dialog(QString::fromStdString(controller_->system().name()), this);
    if (dialog.exec() == QDialog::Accepted) chooseSystem(dialog.chosenSystem());
  });
  connect(actions_->resetCamera, &QAction::triggered, view_, &SceneView::resetCamera);
  connect(actions_->planMotion, &QAction::triggered, this, &MainWindow::showPlanDialog);
  connect(actions_->editInitial, &QAction::toggled, this, [this](bool on) {
    if (on && !view_->canEditInitial()) {
      reportError(
          tr("This system's initial state cannot be set by dragging; use the Initial "
             "conditions panel."));
      QSignalBlocker block(actions_->editInitial);
      actions_->editInitial->setChecked(false);
      return;
    }
    // Editing the start restarts the run: the history it discards stays on the undo stack.
    if (on)
      session_->restartForEditing([this] { view_->setEditInitial(true); });
    else
      view_->setEditInitial(false);
  });
}

void MainWindow::createCentral() {
  auto* central = new QWidget;
  auto* layout = new QVBoxLayout(central);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  banner_ = new ErrorBanner(statusBar(), controller_);
  layout->addWidget(banner_);
  lessonBar_ = new LessonBar;
  layout->addWidget(lessonBar_);
  view_ = new SceneView(controller_);
  view_->setObjectName("sceneView");
  layout->addWidget(view_, 1);
  timelineBar_ = new TimelineBar(controller_);
  layout->addWidget(timelineBar_);
  shortcutOverlay_ = new ShortcutOverlay(view_);
  setCentralWidget(central);
}

void MainWindow::createToolBars() {
  actions_->createToolBars(this, session_, view_);
  refreshSystemBox();
  connect(actions_->systemBox, &QComboBox::activated, this,
          [this](int i) { chooseSystem(actions_->systemBox->itemData(i).toString()); });
}

void MainWindow::createPanels() {
  parameters_ = new ParameterPanel(session_);
  initial_ = new InitialStatePanel(session_);
  systemText_ = new QTextBrowser;
  displayPanel_ = new DisplayPanel(session_);
  comparePanel_ = new ComparePanel(session_);
  modelEditor_ = new ModelEditor;
  equations_ = new EquationsPanel;
  phase_ = new PhasePortraitPanel(controller_);
  timeSeries_ = new TimeSeriesPanel(controller_);
  study_ = new StudyPanel(controller_);
}

void MainWindow::connectPanels() {
  bindView(session_, {view_, actions_->follow, actions_->tableFrame, phase_, timeSeries_, study_},
           this);
  connect(view_, &SceneView::initialDragStarted, session_, &Session::beginInitialDrag);
  connect(view_, &SceneView::initialDragMoved, session_, &Session::dragInitial);
  connect(view_, &SceneView::initialDragEnded, session_, &Session::endInitialDrag);
  connect(study_, &StudyPanel::runChosen, session_, &Session::openStudyRun);
  // The editor's check waits on GiNaC's lock: a derivation of the Equations dock pauses.
  connect(modelEditor_, &ModelEditor::aboutToCheck, equations_, &EquationsPanel::pauseDerivation);
  modelEditing_ = new ModelEditing(session_, modelEditor_, modelEditorDock_, this);
  connect(modelEditing_, &ModelEditing::catalogueChanged, this, &MainWindow::refreshSystemBox);
  // A control model does not run, but the Equations dock shows its Pontryagin's equations.
  connect(modelEditing_, &ModelEditing::controlModelRefused, this,
          [this](std::shared_ptr<const nh::SystemModel> system) {
            std::vector<double> parameters = system->defaultParameters();
            equations_->showSystem(std::move(system), std::move(parameters));
          });
  // A C++ system's equations show its parameter values; a model file's keep symbols.
  connect(controller_, &SimulationController::parametersChanged, this, [this] {
    if (!nh::model::asFormula(controller_->system()))
      equations_->showSystem(controller_->systemPtr(), controller_->parameters());
  });
}

void MainWindow::createPresentationMode() {
  PresentationMode::Parts parts;
  parts.window = this;
  parts.plot = timeDock_;
  parts.panels = docks_;
  parts.hiddenBars = {actions_->fileBar};
  parts.hiddenActions = {actions_->systemBoxAction};
  parts.largeIconBars = {actions_->simulationBar, actions_->viewBar};
  parts.setCompactPlot = [this](bool on) { timeSeries_->setCompact(on); };
  presentation_ = new PresentationMode(std::move(parts), this);
}

// ---- Settings -----------------------------------------------------------------------------

void MainWindow::readSettings() {
  QSettings settings;
  if (settings.contains("window/geometry"))
    restoreGeometry(settings.value("window/geometry").toByteArray());
  if (settings.contains("window/state")) restoreState(settings.value("window/state").toByteArray());
  recentFiles_->read(settings);
  ViewState view = session_->view();
  readViewSettings(settings, view);
  session_->setView(view, kViewAll);
  setTheme(theme());
}

void MainWindow::writeSettings() {
  QSettings settings;
  settings.setValue("window/geometry", saveGeometry());
  settings.setValue("window/state", saveState());
  recentFiles_->write(settings);
  writeViewSettings(settings, session_->view());
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!modelEditing_->maybeSave() || !maybeSaveScenario()) {
    event->ignore();
    return;
  }
  cancelExports();  // nothing half-written stays behind the closed window
  setPresentationMode(false);
  if (useSettings_) writeSettings();
  event->accept();
}

void MainWindow::cancelExports() {
  for (ExportDialog* dialog : findChildren<ExportDialog*>()) dialog->cancelAndWait();
}

// ---- Files and systems (opening and saving: window_files.cpp) -----------------------------

void MainWindow::chooseSystem(const QString& name) { session_->chooseSystem(name); }
bool MainWindow::newSystem() { return modelEditing_->newSystem(); }
bool MainWindow::openModelFile(const QString& path) { return modelEditing_->openFile(path); }
bool MainWindow::duplicateAndEdit() { return modelEditing_->duplicateAndEdit(); }
bool MainWindow::editSystem() { return modelEditing_->editSystem(); }
bool MainWindow::applyModel(std::shared_ptr<const nh::model::FormulaSystem> system) {
  return modelEditing_->apply(std::move(system));
}

void MainWindow::refreshSystemBox() {
  actions_->refreshSystemBox(QString::fromStdString(controller_->system().name()));
}

// ---- Updates ------------------------------------------------------------------------------

void MainWindow::showEquations(bool hamiltonian) {
  if (hamiltonian) equations_->setHamiltonian(true);
  equationsDock_->show();
  equationsDock_->raise();
}

void MainWindow::showPlan(bool solve) {
  PlanDialog* dialog = showPlanDialog();
  if (solve) dialog->solve();
}

bool MainWindow::openStudy(const QString& path, QString* error) {
  studyDock_->show();
  studyDock_->raise();
  resizeDocks({studyDock_}, {height() / 2}, Qt::Vertical);
  if (study_->openCsv(path)) return true;
  if (error) *error = study_->messageLabel()->text();
  return false;
}

void MainWindow::setEditStart(bool on) { actions_->editInitial->setChecked(on); }

QImage MainWindow::screenshot(Shot shot) {
  switch (shot) {
    case Shot::Window:
      return grab().toImage();
    case Shot::SceneView:
      return view_->grabFramebuffer();
    case Shot::PlanDialog:
      return planDialog_ ? planDialog_->grab().toImage() : QImage();
  }
  return {};
}

void MainWindow::reportError(const QString& message) { banner_->report(message); }

// The panels, plots and the 3D view follow the controller themselves; the window keeps what
// it owns: the system text, the trail choices, the system box, the editor, the camera actions.
void MainWindow::showSystemText() {
  bool pending = false;
  systemText_->setHtml(systemHtml(controller_->system(), &pending));
  if (!pending) return;
  QTimer::singleShot(500, this, [this, system = controller_->systemPtr()] {
    if (controller_->systemPtr() == system) showSystemText();
  });
}

void MainWindow::onScenarioChanged() {
  equations_->showSystem(controller_->systemPtr(), controller_->parameters());
  // By object, not name: an applied edit of a model keeps its name.
  if (controller_->systemPtr() == lastSystem_) return;
  lastSystem_ = controller_->systemPtr();
  if (planDialog_) planDialog_->reload();
  if (controller_->isControlModel()) offerPlan();
  showSystemText();
  std::vector<std::string> trailPoints;
  for (const auto& p : controller_->primary().layout().points) trailPoints.push_back(p.name);
  displayPanel_->setTrailPoints(trailPoints);
  refreshSystemBox();
  modelEditing_->systemChanged();
  const bool hasTable = controller_->system().info().editing.movingFrame;
  actions_->tableFrame->setEnabled(hasTable);
  if (!hasTable) actions_->tableFrame->setChecked(false);
  if (actions_->editInitial->isChecked()) actions_->editInitial->setChecked(false);
}

PlanDialog* MainWindow::showPlanDialog() {
  if (!planDialog_) {
    planDialog_ = new PlanDialog(session_, this);
    bindTargetGhost(planDialog_, view_);
  }
  planDialog_->show();
  planDialog_->raise();
  planDialog_->activateWindow();
  return planDialog_;
}

void MainWindow::offerPlan() {
  banner_->warn(tr("%1 is a control model: it moves along a plan — Simulation ▸ Plan a "
                   "motion… (Ctrl+Shift+P)")
                    .arg(QString::fromStdString(controller_->system().name())));
  // After the switch has finished: a scenario file with a plan solves it (no dialog then).
  QTimer::singleShot(0, this, [this] {
    if (controller_->isControlModel() && !controller_->plan() && !session_->planSolver()->running())
      showPlanDialog();
  });
}

void MainWindow::updateTitle() {
  const QString title = session_->title();
  setWindowTitle(title.isEmpty() ? tr("Nonholonomic Lab[*]")
                                 : tr("%1[*] — Nonholonomic Lab").arg(title));
  setWindowModified(session_->isModified());
  if (!session_->currentFile().isEmpty()) recentFiles_->add(session_->currentFile());
}

void MainWindow::updatePlayAction(bool playing) {
  actions_->play->setIcon(nhres::themedIcon(playing ? nhres::icons::pause : nhres::icons::play));
  actions_->play->setText(playing ? tr("Pause") : tr("Play"));
}

void MainWindow::onTick() {
  view_->refresh();
  if (!phaseDock_->isHidden() && phase_->isVisible()) phase_->refresh();
  if (!timeDock_->isHidden() && timeSeries_->isVisible()) timeSeries_->refresh();
  timelineBar_->refresh();
  statusLine_->update();
}

void MainWindow::applyDisplayOptions() {
  const ViewState& v = session_->view();
  SceneDisplayOptions o;
  static_cast<DisplayChoices&>(o) = v.display;
  o.hiddenTrails = v.hiddenTrails;
  o.overlayText = v.overlayText;
  o.textScale = presentationMode() ? 1.6 : 1.0;
  view_->setOptions(o);
}

MainWindow::Theme MainWindow::theme() const {
  return session_->view().display.dark ? Theme::Dark : Theme::Light;
}

void MainWindow::setTheme(Theme theme) {
  ViewState v = session_->view();
  v.display.dark = theme == Theme::Dark;
  session_->setView(v, kViewTheme);
  if (themeActions_)
    for (QAction* a : themeActions_->actions()) a->setChecked(a->data().toInt() == int(theme));
  const bool dark = theme == Theme::Dark;
  QApplication::setPalette(dark ? darkPalette() : normalPalette_);
  lessonBar_->setDark(dark);
  const PlotStyle style = plotStyleFor(dark, presentationMode());
  phase_->plot()->setStyle(style);
  timeSeries_->plot()->setStyle(style);
  applyDisplayOptions();
}

bool MainWindow::presentationMode() const { return presentation_ && presentation_->active(); }

void MainWindow::setPresentationMode(bool on) {
  if (presentationMode() == on) return;
  {
    QSignalBlocker block(actions_->presentation);
    actions_->presentation->setChecked(on);
  }
  on ? presentation_->enter() : presentation_->leave();
  setTheme(theme());  // plot line widths and text sizes follow the mode
}

void MainWindow::resizeEvent(QResizeEvent* event) {
  QMainWindow::resizeEvent(event);
  shortcutOverlay_->place();
  if (event->size().width() != event->oldSize().width()) presentation_->keepLayout();
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
