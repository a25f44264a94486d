// The nhlab main window. It assembles: the session (ui/session: the simulation, its undo
// history, the file and lesson) is the document; the panels, the 3D view and the plots
// subscribe to it and to its view (view_state.h, bound in view_binding.h); this class builds
// the actions, tool bars, menus and docks (from one dock table), routes every error to one
// place (the banner and the status bar), and hands the view's display choices to the 3D view
// with the presentation mode's text size.
#pragma once

#include <QImage>
#include <QMainWindow>
#include <memory>
#include <vector>

#include "core/model/formula_system.h"
#include "ui/session/scenario_view.h"
#include "ui/session/session.h"
#include "ui/window/presentation_mode.h"

class QAction;
class QActionGroup;
class QComboBox;
class QDockWidget;
class QLabel;
class QMenu;
class QSlider;
class QTextBrowser;
class QToolBar;
class QUndoStack;

namespace nhui {

class ComparePanel;
class DisplayPanel;
class ErrorBanner;
class EquationsPanel;
class InitialStatePanel;
class LessonBar;
class ModelEditing;
class ModelEditor;
class ParameterPanel;
class PlanDialog;
class PhasePortraitPanel;
class PresentationMode;
class RecentFiles;
class SceneView;
class ShortcutOverlay;
class StatusLine;
class StudyPanel;
class TimelineBar;
class TimeSeriesPanel;
class WindowActions;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  // useSettings: restore and keep layout and preferences in QSettings (off in tests).
  explicit MainWindow(bool useSettings = true, QWidget* parent = nullptr);
  ~MainWindow() override;

  Session* session() const { return session_; }
  SimulationController* controller() const { return session_->controller(); }
  QUndoStack* undoStack() const { return session_->undoStack(); }
  SceneView* sceneView() const { return view_; }
  ParameterPanel* parameterPanel() const { return parameters_; }
  InitialStatePanel* initialPanel() const { return initial_; }
  PhasePortraitPanel* phasePanel() const { return phase_; }
  TimeSeriesPanel* timeSeriesPanel() const { return timeSeries_; }
  QSlider* timeline() const;
  QLabel* errorBanner() const;
  QString lastErrorMessage() const;  // the banner's last error, without decoration
  ModelEditor* modelEditor() const { return modelEditor_; }
  QDockWidget* modelEditorDock() const { return modelEditorDock_; }
  QDockWidget* equationsDock() const { return equationsDock_; }
  EquationsPanel* equationsPanel() const { return equations_; }
  StudyPanel* studyPanel() const { return study_; }
  // Simulation ▸ Plan a motion…: the dialog (made at the first call), shown and raised.
  PlanDialog* showPlanDialog();
  PlanDialog* planDialog() const { return planDialog_; }  // nullptr until first shown
  QDockWidget* studyDock() const { return studyDock_; }
  // The Equations dock, in front of its tab group (on its Hamiltonian side with `hamiltonian`).
  void showEquations(bool hamiltonian = false);
  // The Plan dialog shown; with `solve` it solves what it shows.
  void showPlan(bool solve);
  // The Study dock shown (half the window high) with a CSV of nhsim sweep or nhsim linearize
  // --sweep; false with `error` set when it cannot be read.
  bool openStudy(const QString& path, QString* error);
  // Edit start (View ▸ Edit start by dragging) on or off, as its action does.
  void setEditStart(bool on);
  // What a screenshot shows: the window, the 3D view alone, the Plan dialog (a null image
  // when it was not shown).
  enum class Shot { Window, SceneView, PlanDialog };
  QImage screenshot(Shot shot);
  // Checkable View actions: "view from the moving frame" (enabled only when the system's scene
  // has one) and "edit the start by dragging".
  QAction* tableFrameAction() const;
  QAction* editInitialAction() const;

  // Cancels every running animation export and waits until each has removed its temporary
  // (closing the window and Ctrl+C in nhlab's terminal do this).
  void cancelExports();

  // Open/save without dialogs; false (and a message) on failure.
  bool openScenario(const QString& path);
  bool saveScenario(const QString& path);
  void chooseSystem(const QString& name);

  // The model editor (File › System model; see ModelEditing).
  bool newSystem();
  bool openModelFile(const QString& path);
  bool duplicateAndEdit();
  bool editSystem();
  bool applyModel(std::shared_ptr<const nh::model::FormulaSystem> system);

  // Presentation mode (see PresentationMode) and the colour theme.
  void setPresentationMode(bool on);
  bool presentationMode() const;
  enum class Theme { Light, Dark };
  void setTheme(Theme theme);
  Theme theme() const;  // the session's view's
  // The opened lesson's "what to watch" note (empty: none) and the bar that shows it.
  QString lessonNote() const { return session_->lessonNote(); }
  QWidget* lessonBar() const;

 protected:
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  void connectActions();
  void createCentral();
  void createToolBars();
  void createPanels();
  void createDocks();  // window_docks.cpp
  void connectPanels();
  void createMenus();  // window_menus.cpp
  void createPresentationMode();
  void readSettings();
  void writeSettings();

  void reportError(const QString& message);  // the one route: banner and status bar
  void onTick();
  void onScenarioChanged();
  // The system text, shown again every half second while the structure's kind waits for
  // GiNaC (another thread deriving equations) and the system is the same.
  void showSystemText();
  // A control model was chosen: the hint in the banner, and the Plan dialog offered.
  void offerPlan();
  void updateTitle();
  void updatePlayAction(bool playing);
  void applyDisplayOptions();
  void refreshSystemBox();
  void openDialog();
  bool saveAsDialog();
  bool maybeSaveScenario();  // unsaved edits: Save/Discard/Cancel; false: cancelled

  bool useSettings_;
  Session* session_;
  SimulationController* controller_;  // the session's

  // Central area.
  ErrorBanner* banner_ = nullptr;
  LessonBar* lessonBar_ = nullptr;
  SceneView* view_ = nullptr;
  TimelineBar* timelineBar_ = nullptr;
  ShortcutOverlay* shortcutOverlay_ = nullptr;
  StatusLine* statusLine_ = nullptr;

  // Panels and their docks (the dock table in main_window.cpp lists the docks).
  ParameterPanel* parameters_ = nullptr;
  InitialStatePanel* initial_ = nullptr;
  PhasePortraitPanel* phase_ = nullptr;
  TimeSeriesPanel* timeSeries_ = nullptr;
  QTextBrowser* systemText_ = nullptr;
  DisplayPanel* displayPanel_ = nullptr;
  ComparePanel* comparePanel_ = nullptr;
  ModelEditor* modelEditor_ = nullptr;
  EquationsPanel* equations_ = nullptr;
  StudyPanel* study_ = nullptr;
  PlanDialog* planDialog_ = nullptr;
  QDockWidget *parametersDock_ = nullptr, *systemDock_ = nullptr, *equationsDock_ = nullptr,
              *modelEditorDock_ = nullptr, *phaseDock_ = nullptr, *timeDock_ = nullptr,
              *displayDock_ = nullptr, *compareDock_ = nullptr, *studyDock_ = nullptr;
  ModelEditing* modelEditing_ = nullptr;
  PresentationMode* presentation_ = nullptr;
  RecentFiles* recentFiles_ = nullptr;

  WindowActions* actions_ = nullptr;
  std::vector<PresentationMode::Panel> docks_;  // every dock, in the View menu's order
  QActionGroup* themeActions_ = nullptr;

  // The system the panels were last built for (held, so that its address stays its own).
  std::shared_ptr<const nh::SystemModel> lastSystem_;
  QPalette normalPalette_;
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
