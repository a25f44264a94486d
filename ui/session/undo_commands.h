// The undoable steps of a Session (its undo stack): a parameter value, the initial-condition
// overrides, a restart that replaced the shown history, and the running system. Each acts on
// the session's controller. A step the controller refuses (nh::Error) applies nothing,
// reports the reason through Session::reportError and makes itself obsolete, so QUndoStack
// drops it.
#pragma once

#include <QUndoCommand>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "core/nh/comparison.h"
#include "core/nh/scenario.h"
#include "ui/sim/simulation_controller.h"

class QUndoStack;

namespace nhui {

class Session;

// Sets one parameter. Slider moves of one drag (same `mergeKey` ≠ 0) merge into one command.
// Set at a scrubbed moment, the edit forks the history there; undo then brings back the
// replaced timeline (and redo the edited one) instead of setting the value back.
class SetParameterCommand : public QUndoCommand {
 public:
  SetParameterCommand(Session* session, std::string name, double before, double after,
                      long mergeKey = 0);
  void redo() override;
  void undo() override;
  int id() const override { return mergeKey_ != 0 ? 1 : -1; }
  bool mergeWith(const QUndoCommand* other) override;

 private:
  bool swapRecordedTimeline();                   // true if the recorded history was restored
  void apply(double value, const char* action);  // refuses (see refuse()) on nh::Error
  void updateText();

  Session* session_;
  std::string name_;
  double before_, after_;
  long mergeKey_;
  std::shared_ptr<SimulationController::Timeline> otherTimeline_;  // the fork's other branch
  double madeAt_ = std::nan("");  // the moment the last redo set the value (no fork recorded)
};

// The shown history was replaced (Play from a scrubbed moment forked it, see
// SimulationController::historyForked; Edit start, Reset, a comparison, formulation or step
// size restarted the run): undo shows the replaced timeline again with its settings, redo the
// new one. `replaced`: the timeline before; the replacement is in effect, so the first
// redo() does nothing. Without a
// replaced timeline the command is obsolete (QUndoStack drops it).
// A non-empty `mergeKey`: a following command with the same key (the next step of a ghost
// value's spin box, keyed by the ghost parameter) merges into this one, which keeps the
// history from before the first.
class ReplaceTimelineCommand : public QUndoCommand {
 public:
  ReplaceTimelineCommand(Session* session, std::shared_ptr<SimulationController::Timeline> replaced,
                         const QString& text, const QString& mergeKey = {});
  void redo() override;
  void undo() override;
  int id() const override { return mergeKey_.isEmpty() ? -1 : 2; }
  bool mergeWith(const QUndoCommand* other) override;

 private:
  void swap(const char* action);
  Session* session_;
  std::shared_ptr<SimulationController::Timeline> other_;
  QString mergeKey_;
  bool skipRedo_ = true;
};

// What changed since the stack was last clean (saved), in words for a question to the user:
// the texts of the steps done since then ("Set m = 2", "Compare: nonholonomic vs
// vakonomic"), or of the steps undone since then, at most `limit` (then "and N more"); a
// general sentence when the saved state is no longer on the stack. Empty when clean.
QString unsavedChanges(const QUndoStack& stack, int limit = 4);

// Replaces the initial-condition overrides; `applied` says the change is already in effect
// (a drag in the view), so the first redo() does nothing. With `resetAfter` the run restarts
// from the new initial state; the history that replaces is kept, so undo and redo swap the
// recorded histories (SetParameterCommand's way) instead of restarting with the parameters
// shown at that time.
class SetInitialCommand : public QUndoCommand {
 public:
  // `replaced`: with `applied` and `resetAfter`, the history before the change (a drag's).
  SetInitialCommand(Session* session, std::map<std::string, double> before,
                    std::map<std::string, double> after, bool resetAfter, bool applied,
                    std::shared_ptr<SimulationController::Timeline> replaced = nullptr);
  void redo() override;
  void undo() override;

 private:
  // false: refused; `action` ("undo", "redo") names it in the report.
  bool apply(const std::map<std::string, double>& overrides, const char* action);
  Session* session_;
  std::map<std::string, double> before_, after_;
  bool resetAfter_;
  bool skipRedo_;
  std::shared_ptr<SimulationController::Timeline> otherTimeline_;  // with resetAfter_
};

// Runs another system (SimulationController::switchSystem) with its scenario; undo returns
// to the previous system object and scenario (parameters, initial overrides). `applied`: the
// switch is already in effect, so the first redo() does nothing. The comparison in force when
// a system was left comes back with it (a ghost of a parameter the other system lacks is
// dropped by the switch), so later commands' recorded histories, which hold the comparison
// run, can be shown again.
class SwitchSystemCommand : public QUndoCommand {
 public:
  struct Run {
    std::shared_ptr<const nh::SystemModel> system;
    nh::Scenario scenario;
    std::optional<nh::Comparison> comparison;  // unset: as the switch leaves it
    // The history shown when the system was left (copyTimeline()); it comes back whole, with
    // its comparison, so edits later in time than the moment shown then stay in force.
    // nullptr: the run restarts from the scenario (and the comparison above).
    std::shared_ptr<SimulationController::Timeline> timeline;
  };
  SwitchSystemCommand(Session* session, Run before, Run after, bool applied);
  void redo() override;
  void undo() override;

 private:
  void apply(Run& run, const char* action);  // uses up run.timeline
  Session* session_;
  Run before_, after_;
  bool skipRedo_;
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
