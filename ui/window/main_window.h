// The nhlab main window, built in small steps (actions, tool bars, docks, status bar).
#pragma once

#include <QFutureWatcher>
#include <QMainWindow>
#include <QStringList>
#include <QVector>
#include <atomic>
#include <memory>
#include <vector>

#include "core/model/formula_system.h"
#include "ui/scene/scene_renderer.h"
#include "ui/sim/simulation_controller.h"
#include "ui/window/scenario_view.h"

class QLabel;
class QSlider;
class QUndoStack;
class QComboBox;
class QDoubleSpinBox;
class QCheckBox;
class QDockWidget;
namespace nhui {
class EquationsPanel;
}
class QTextBrowser;
class QToolButton;
class QMenu;
class QVBoxLayout;
class QToolBar;
class QActionGroup;

namespace nhui {

class SimulationController;
class SceneView;
class ParameterPanel;
class InitialStatePanel;
class PhasePortraitPanel;
class TimeSeriesPanel;
class DisplayPanel;
class TimelineBar;
class ComparePanel;
class ModelEditor;
class StudyPanel;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  // useSettings: restore and keep layout and preferences in QSettings (off in tests).
  explicit MainWindow(bool useSettings = true, QWidget* parent = nullptr);
  ~MainWindow() override;

  SimulationController* controller() const { return controller_; }
  SceneView* sceneView() const { return view_; }
  ParameterPanel* parameterPanel() const { return parameters_; }
  InitialStatePanel* initialPanel() const { return initial_; }
  PhasePortraitPanel* phasePanel() const { return phase_; }
  TimeSeriesPanel* timeSeriesPanel() const { return timeSeries_; }
  QUndoStack* undoStack() const { return undo_; }
  static constexpr int kUndoLimit = 100;  // undo steps kept
  QSlider* timeline() const;
  QLabel* errorBanner() const { return banner_; }
  ModelEditor* modelEditor() const { return modelEditor_; }
  QDockWidget* modelEditorDock() const { return modelEditorDock_; }
  QDockWidget* equationsDock() const { return equationsDock_; }
  EquationsPanel* equationsPanel() const { return equations_; }
  StudyPanel* studyPanel() const { return study_; }
  QDockWidget* studyDock() const { return studyDock_; }
  void showEquations();  // the Equations dock, in front of its tab group
  // Checkable View actions: "view from the moving frame" (enabled only when the system's scene
  // has one) and "edit the start by dragging".
  QAction* tableFrameAction() const { return tableFrameAction_; }
  QAction* editInitialAction() const { return editInitialAction_; }

  // Cancels every running animation export and waits until each has removed its temporary
  // (closing the window and Ctrl+C in nhlab's terminal do this).
  void cancelExports();

  // Open/save without dialogs; false (and a message) on failure.
  bool openScenario(const QString& path);
  bool saveScenario(const QString& path);
  void chooseSystem(const QString& name);

  // The model editor (File menu). Each that replaces the editor's text first asks about
  // unsaved edits (Save/Discard/Cancel) and returns false if it was cancelled.
  bool newSystem();                         // a small valid template, name my_system
  bool openModelFile(const QString& path);  // into the editor; run it if it loads
  bool duplicateAndEdit();                  // the running system's model file, as <name>_copy
  bool editSystem();  // the running system's own model file, else duplicateAndEdit()
  // Registers `system` for this session and runs it, keeping the start and parameters by
  // name (see carriedScenario); one undoable command. False (the message in the editor, the
  // running system unchanged) if it cannot start.
  bool applyModel(std::shared_ptr<const nh::model::FormulaSystem> system);

  // Presentation mode: full screen, larger text, the 3D view with one large plot, the other
  // panels behind a slim side bar (their buttons show them on demand).
  void setPresentationMode(bool on);
  enum class Theme { Light, Dark };
  void setTheme(Theme theme);
  Theme theme() const { return theme_; }
  // The opened lesson's "what to watch" note (empty: none) and the bar that shows it.
  QString lessonNote() const { return lessonView_.note; }
  QWidget* lessonBar() const { return lessonBar_; }
  // What a saved scenario's "view" part holds now (speed, camera mode, display, plots,
  // comparison, and the opened lesson's title and note).
  ScenarioView currentView() const;
  // Applies a scenario's view part (what it leaves out stays as it is).
  void applyView(const ScenarioView& view);
  // Sets the Compare panel (mode, ghost parameter and value) and starts the comparison.
  void setCompare(CompareMode mode, const QString& parameter = {}, double value = 0);
  bool presentationMode() const { return presentation_; }

 protected:
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  void createActions();
  void createToolBars();
  void createCentral();
  void createDockWindows();
  void updateEquations();  // derives the running system's equations when the dock is shown
  void createMenus();
  void exportAnimation();
  void exportScreenshot();
  void createStatusBar();
  void readSettings();
  void writeSettings();

  void onTick();
  void onScenarioChanged();
  void onError(const QString& message);
  void updatePlayAction(bool playing);
  void updateStatus();
  void applyDisplayOptions();
  void addRecentFile(const QString& path);
  void presentPanel(QDockWidget* dock);
  void keepPresentationLayout();
  void fitToScreen();
  void updateRecentMenu();
  void openDialog();
  bool saveAsDialog();
  void toggleShortcutOverlay();
  void positionOverlays();
  void showModelEditor();
  bool maybeSaveModel();  // false: cancelled
  // Unsaved scenario edits (the undo stack is not clean): Save/Discard/Cancel; false: cancelled.
  bool maybeSaveScenario();
  void updateWindowTitle();
  void setSpeedFromText(const QString& text);
  void openModelDialog();
  void onModelSaved(const QString& path);
  void updateModelTitle();
  void refreshSystemBox();
  // The current scenario for `next`: integrator, dynamics and times as they are; parameter
  // values and initial overrides the user changed, by name where `next` has the name and
  // allows the value; everything else is `next`'s own default.
  nh::Scenario carriedScenario(const nh::SystemModel& next) const;

  bool useSettings_;
  SimulationController* controller_;
  QUndoStack* undo_;
  SceneView* view_ = nullptr;
  ParameterPanel* parameters_ = nullptr;
  InitialStatePanel* initial_ = nullptr;
  PhasePortraitPanel* phase_ = nullptr;
  TimeSeriesPanel* timeSeries_ = nullptr;
  QTextBrowser* systemText_ = nullptr;
  QDockWidget* parametersDock_ = nullptr;
  QDockWidget* systemDock_ = nullptr;
  QDockWidget* phaseDock_ = nullptr;
  QDockWidget* timeDock_ = nullptr;
  QDockWidget* displayDock_ = nullptr;
  QDockWidget* compareDock_ = nullptr;
  ModelEditor* modelEditor_ = nullptr;
  QDockWidget* modelEditorDock_ = nullptr;
  QDockWidget* equationsDock_ = nullptr;
  EquationsPanel* equations_ = nullptr;
  // The Study dock and the opening of one of its runs in the main view: the varied
  // values set at t = 0 as one undoable edit.
  StudyPanel* study_ = nullptr;
  QDockWidget* studyDock_ = nullptr;
  void openStudyRun(const QStringList& names, const QVector<double>& values);
  bool equationsStale_ = true;  // derived again when shown
  // The derivation runs off the GUI thread (seconds for a large C++ system: the bicycle):
  // one at a time; a newer request cancels it and starts once it has ended.
  struct DerivedResult;
  QFutureWatcher<std::shared_ptr<const DerivedResult>>* equationsJob_ = nullptr;
  std::shared_ptr<std::atomic<bool>> equationsCancel_;

  QAction* playAction_ = nullptr;
  QAction* stepAction_ = nullptr;
  QAction* stepBackAction_ = nullptr;
  QAction* resetAction_ = nullptr;
  QAction* openAction_ = nullptr;
  QAction* saveAction_ = nullptr;
  QAction* saveAsAction_ = nullptr;
  QAction* exportAnimationAction_ = nullptr;
  QAction* undoAction_ = nullptr;
  QAction* redoAction_ = nullptr;
  QAction* presentationAction_ = nullptr;
  QAction* shortcutsAction_ = nullptr;
  QAction* followAction_ = nullptr;
  QAction* tableFrameAction_ = nullptr;
  QAction* resetCameraAction_ = nullptr;
  QAction* editInitialAction_ = nullptr;
  QAction* chooseSystemAction_ = nullptr;
  QAction* newSystemAction_ = nullptr;
  QAction* openSystemAction_ = nullptr;
  QAction* editSystemAction_ = nullptr;
  QAction* duplicateSystemAction_ = nullptr;
  QAction* saveSystemAction_ = nullptr;
  QAction* saveSystemAsAction_ = nullptr;
  QMenu* recentMenu_ = nullptr;
  QMenu* viewMenu_ = nullptr;

  QComboBox* systemBox_ = nullptr;
  QAction* systemBoxAction_ = nullptr;
  QSlider* speedSlider_ = nullptr;
  QComboBox* speedBox_ = nullptr;  // editable: presets and typed factors
  QToolBar* fileToolBar_ = nullptr;
  QToolBar* simToolBar_ = nullptr;
  QToolBar* viewToolBar_ = nullptr;
  QToolBar* sideBar_ = nullptr;
  QActionGroup* themeActions_ = nullptr;  // presentation mode: one button per panel
  QByteArray normalDockState_;            // the layout before presentation mode
  struct DockEntry {
    QDockWidget* dock;
    QString sideBarName;  // empty: no button on presentation mode's side bar
  };
  std::vector<DockEntry> docks_;  // every dock, in the View menu's order
  QByteArray normalGeometry_;     // the window's geometry before presentation mode
  QWidget* lessonBar_ = nullptr;
  QLabel* lessonText_ = nullptr;
  ScenarioView lessonView_;  // the opened lesson's title and note
  QString titleBase_;        // file or lesson name in the title
  TimelineBar* timelineBar_ = nullptr;
  QLabel* banner_ = nullptr;
  QLabel* shortcutOverlay_ = nullptr;

  QLabel* statusTime_ = nullptr;
  QLabel* statusRate_ = nullptr;
  QLabel* statusFps_ = nullptr;
  QLabel* statusResidual_ = nullptr;

  DisplayPanel* displayPanel_ = nullptr;
  ComparePanel* comparePanel_ = nullptr;

  QString currentFile_;
  QStringList recentFiles_;
  // The system the panels were last built for (held, so that its address stays its own).
  std::shared_ptr<const nh::SystemModel> lastSystem_;
  bool presentation_ = false;
  Theme theme_ = Theme::Light;
  QFont normalFont_;
  QPalette normalPalette_;
  bool wasMaximized_ = false;
  long lastFrames_ = 0;
  qint64 lastFpsTime_ = 0;
  double fps_ = 0;
};

}  // namespace nhui
