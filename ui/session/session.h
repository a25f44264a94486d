// The document the app works on, as Step's WorldModel is for Step: the simulation (the
// controller, which owns the worker), its undo history, the scenario file it came from or was
// saved to, the title the window shows, the lesson's note and the view (view_state.h: display
// choices, plots, camera mode, comparison, study, theme). Every edit the user makes goes
// through here, an undoable command where it changes the run; the histories an edit or a
// restart replaces are kept on the undo stack here, never handed back to the window. No edit
// waits for the simulation thread: it is posted, and the worker picks it up. Panels and the
// window subscribe to its signals (and to its controller's); the view's parts changed reach
// them by viewChanged, errors by errorOccurred.
// Qt Core and Qt Gui's undo stack only: no widgets.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <QVector>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "core/nh/scenario.h"
#include "ui/session/plan_solver.h"
#include "ui/session/scenario_view.h"
#include "ui/session/view_state.h"
#include "ui/sim/simulation_controller.h"

class QUndoCommand;
class QUndoStack;

namespace nhui {

class Session : public QObject {
  Q_OBJECT

 public:
  explicit Session(QObject* parent = nullptr);
  ~Session() override;

  SimulationController* controller() const { return controller_; }
  QUndoStack* undoStack() const { return undo_; }
  // Commands that replace the history hold the history they replaced (a copy of the recorded
  // samples): the oldest steps are dropped beyond this many, so a long session's memory stays
  // bounded by the histories of the last steps.
  static constexpr int kUndoLimit = 100;

  // ---- The document -----------------------------------------------------------------------
  // The scenario file (empty: none — a bundled example, a chosen or edited system); the name
  // the window title shows (the lesson's title, else the file's name; empty: none); the
  // lesson's title and "what to watch" note (empty: no lesson).
  const QString& currentFile() const { return currentFile_; }
  const QString& title() const { return title_; }
  const QString& lessonTitle() const { return lessonTitle_; }
  const QString& lessonNote() const { return lessonNote_; }
  // The plan the lesson's note is about (none: the lesson has none), and whether the lesson
  // is about an integrator's energy drift (said in the status bar, not as a warning).
  const std::optional<PlanSettings>& lessonPlan() const { return lessonPlan_; }
  bool lessonDriftExpected() const { return lessonDriftExpected_; }
  bool isModified() const;

  // Reads a scenario file (a path under ":/" is a bundled example: it has no file to save
  // back to) and runs it; its view part is taken into the view (viewChanged) and its
  // comparison started, none of it an undoable step (the file's state is the start, not an
  // edit). False (errorOccurred, nothing changed) if it cannot be read or its view is refused
  // against its system (nh::checkScenarioViewFor, the check nhsim makes).
  bool openScenario(const QString& path);
  // Writes the running scenario with the view and the lesson's title and note.
  bool saveScenario(const QString& path);

  // What has been done so far (a command line's values and comparison, also one still
  // waiting for the run's first sample) is where the document starts: nothing to undo,
  // nothing unsaved.
  void startHere();

  // ---- The view ---------------------------------------------------------------------------
  const ViewState& view() const { return view_; }
  // Takes the parts `parts` of `view` (viewChanged names those that differ). The speed goes
  // to the controller; the comparison is not taken (it restarts the run: changeTimeline).
  void setView(const ViewState& view, ViewParts parts);
  // Where the arrow scales in force come from (the 3D view's renderer): a saved scenario
  // keeps them when they are fixed.
  void setArrowScaleSource(std::function<std::map<std::string, double>()> source);
  // Where the camera in force comes from (the 3D view's): a saved scenario keeps its pose.
  void setCameraSource(std::function<CameraPose()> source);

  // ---- Systems ----------------------------------------------------------------------------
  // Runs catalogue system `name` with its defaults (undoable; undo returns to the previous
  // system with its parameters, start and history). False (errorOccurred) if it cannot start.
  bool chooseSystem(const QString& name);
  // Runs `system` (the model editor's), carrying the parameters and start the user changed by
  // name (carriedScenario); one undoable command. False with `error` set (nothing changed,
  // nothing reported: the editor shows it beside the text) if it cannot start.
  bool applyModel(std::shared_ptr<const nh::SystemModel> system, QString& error);
  // The current scenario for `next`: integrator, dynamics and times as they are; parameter
  // values and initial overrides the user changed, by name where `next` has the name and
  // allows the value; everything else is `next`'s own default.
  nh::Scenario carriedScenario(const nh::SystemModel& next) const;

  // ---- Edits (each one undoable step) -----------------------------------------------------
  // Steps with the same mergeKey ≠ 0 (one slider drag) merge.
  void setParameter(const std::string& name, double value, long mergeKey = 0);
  // Replaces the initial-condition overrides; with `resetAfter` the run restarts from them.
  // False with `error` set (nothing changed, nothing reported: the panel shows it) when the
  // constraints cannot complete the state.
  bool setInitial(const std::map<std::string, double>& overrides, bool resetAfter,
                  QString* error = nullptr);
  // Runs `change`, a restart that replaces the shown history (a comparison, formulation or
  // step-size change), as one step that brings the history before it back on undo. An
  // nh::Error from `change` goes out on errorOccurred and nothing is pushed. Steps with the
  // same non-empty mergeKey merge (the ghost value's spin box).
  // False if `change` was refused.
  // Before the run's first sample has arrived (right after a switch) there is nothing to keep
  // yet: the change is made once it has (true then; a refusal is reported when it is made).
  bool changeTimeline(const QString& text, const std::function<void()>& change,
                      const QString& mergeKey = {});
  // Starts a comparison (changeTimeline's step; the steps of one ghost parameter's value
  // merge) and plays; nothing to restart when it is in force already. The ghost's parameter
  // and value count for CompareMode::Ghost only, `other` for CompareMode::Integrator only. An
  // unknown ghost parameter changes nothing (errorOccurred). False if refused.
  bool setComparison(CompareMode mode, const std::string& parameter = {}, double value = 0,
                     std::optional<IntegratorChoice> other = std::nullopt);
  void reset();  // restart from the initial conditions with the parameters shown
  void setFormulation(nh::Formulation formulation, const QString& label);
  // Steps the runs with `options` from the displayed moment (one undoable step); a fixed-step
  // method's step is said in the status bar (notice).
  void setIntegrator(const nh::IntegratorOptions& options);
  void setStepSize(double dt);
  // Editing the start by dragging in the view: begin keeps the history shown; each move
  // posts its overrides (moves coalesce: the latest is applied once the event loop is free,
  // and the run restarts from it without waiting for the simulation thread); end applies the
  // last move and makes the drag one step whose undo brings the history back. A state the
  // constraints cannot complete keeps the last good one.
  void beginInitialDrag();
  void dragInitial(const std::map<std::string, double>& overrides);
  void endInitialDrag();
  // Edit start switched on: `start` restarts the run from its initial state (the view does);
  // the history it replaced becomes one undoable step.
  void restartForEditing(const std::function<void()>& start);
  // Opens one run of a study: the varied values set at t = 0 as one undoable step, then plays.
  void openStudyRun(const QStringList& names, const QVector<double>& values);

  // ---- Planned motions (Simulation ▸ Plan a motion…) --------------------------------------
  // One solver per session: the Plan dialog's and a scenario file's plan.
  PlanSolver* planSolver() const { return planSolver_; }
  // The solver's options for `settings`: the running scenario's parameters and start.
  // Throws nh::InputError.
  nh::OptimalControlOptions planOptions(const PlanSettings& settings) const;
  // Starts solving for the running system; false with `error` (one line) if refused at once
  // or a solve is running.
  bool solvePlan(const PlanSettings& settings, QString& error);
  // Shows extremal `index` of `outcome` (with the nonholonomic motion from its initial
  // velocity beside a vakonomic one) as the run: one undoable step whose undo shows what was
  // shown before. False with `error` when the outcome was solved for another system or
  // parameters, or has no such extremal.
  bool playPlan(const PlanOutcome& outcome, size_t index, QString& error);

  // ---- Messages ---------------------------------------------------------------------------
  // What could not be done (a refused edit or undo, a file that cannot be read, a failed
  // run: the controller's errors are forwarded) — the one route to the user.
  void reportError(const QString& message);
  // The undo key as messages name it ("Ctrl+Z").
  static QString undoKey();

 signals:
  void errorOccurred(const QString& message);
  // Something done that deserves a line in the status bar (for `milliseconds`).
  void notice(const QString& message, int milliseconds);
  // The parts of the view that changed (ViewPart bits).
  void viewChanged(ViewParts parts);
  // The file, the title or the lesson changed (the window title, recent files and the
  // lesson's note follow).
  void documentChanged();

 private:
  // The one place the file, title and lesson change.
  void setCurrentFile(const QString& path, const QString& title, const ScenarioView& view);
  // A scenario file's comparison, started on the controller (no undoable step).
  void startFileComparison(const ScenarioView& file);
  // The view follows what the controller owns: speed, comparison, a system without a frame.
  void followController(ViewParts parts);
  void applyDrag();  // the latest posted drag move
  // What a comparison is called on the undo stack ("Compare: ghost Ω₀ = 2 rad/s").
  QString comparisonText(CompareMode mode, const std::string& parameter, double value,
                         const IntegratorChoice& other) const;
  void runPendingChanges();  // changeTimeline's, once the first sample is there
  // After a system switch (chosen or applied): the switch is one step, the lesson and file
  // belong to the previous system, and the run plays.
  void switched(QUndoCommand* command, const QString& message);
  void onHistoryForked(double t, std::shared_ptr<SimulationController::Timeline> replaced);
  // A scenario file's plan solved (or not): its lowest-cost extremal is played.
  void onFilePlanSolved(std::shared_ptr<const PlanOutcome> outcome);

  SimulationController* controller_;
  QUndoStack* undo_;
  QString currentFile_;
  QString title_;
  QString lessonTitle_;
  QString lessonNote_;
  bool lessonDriftExpected_ = false;
  std::optional<PlanSettings> lessonPlan_;
  ViewState view_;
  std::function<std::map<std::string, double>()> arrowScaleSource_;
  std::function<CameraPose()> cameraSource_;
  std::shared_ptr<SimulationController::Timeline> dragKept_;  // beginInitialDrag's
  std::map<std::string, double> dragBefore_;                  // the overrides it started with
  std::optional<std::map<std::string, double>> dragPending_;  // the move not applied yet
  struct PendingChange {
    QString text;
    std::function<void()> change;
    QString mergeKey;
  };
  std::vector<PendingChange> pendingChanges_;
  bool startAfterPending_ = false;  // startHere() once the pending changes are made
  PlanSolver* planSolver_;
  bool filePlanPending_ = false;  // the running solve is the opened file's plan
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
