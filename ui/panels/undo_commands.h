// Undoable edits (QUndoStack): a parameter value, the initial-condition overrides, and the
// running system (the model editor's Apply). A
// command the controller refuses (nh::Error) applies nothing, reports the reason through
// SimulationController::reportEditError and makes itself obsolete, so QUndoStack drops it.
#pragma once

#include <QUndoCommand>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "core/nh/scenario.h"
#include "ui/sim/simulation_controller.h"

namespace nhui {

// Sets one parameter. Slider moves of one drag (same `mergeKey` ≠ 0) merge into one command.
// Set at a scrubbed moment, the edit forks the history there; undo then brings back the
// replaced timeline (and redo the edited one) instead of setting the value back.
class SetParameterCommand : public QUndoCommand {
 public:
  SetParameterCommand(SimulationController* controller, std::string name, double before,
                      double after, long mergeKey = 0);
  void redo() override;
  void undo() override;
  int id() const override { return mergeKey_ != 0 ? 1 : -1; }
  bool mergeWith(const QUndoCommand* other) override;

 private:
  bool swapRecordedTimeline();                   // true if the recorded history was restored
  void apply(double value, const char* action);  // refuses (see refuse()) on nh::Error
  void updateText();

  SimulationController* controller_;
  std::string name_;
  double before_, after_;
  long mergeKey_;
  std::shared_ptr<SimulationController::Timeline> otherTimeline_;  // the fork's other branch
};

// The shown history was replaced (Play from a scrubbed moment forked it, see
// SimulationController::historyForked; Edit start restarted the run): undo shows the replaced
// timeline again, redo the new one. `replaced`: the timeline before (takeDroppedTimeline(),
// copyTimeline()); the replacement is in effect, so the first redo() does nothing. Without a
// replaced timeline the command is obsolete (QUndoStack drops it).
class ReplaceTimelineCommand : public QUndoCommand {
 public:
  ReplaceTimelineCommand(SimulationController* controller,
                         std::shared_ptr<SimulationController::Timeline> replaced,
                         const QString& text);
  void redo() override;
  void undo() override;

 private:
  void swap(const char* action);
  SimulationController* controller_;
  std::shared_ptr<SimulationController::Timeline> other_;
  bool skipRedo_ = true;
};

// Replaces the initial-condition overrides; `applied` says the change is already in effect
// (a drag in the view), so the first redo() does nothing.
class SetInitialCommand : public QUndoCommand {
 public:
  SetInitialCommand(SimulationController* controller, std::map<std::string, double> before,
                    std::map<std::string, double> after, bool resetAfter, bool applied);
  void redo() override;
  void undo() override;

 private:
  // false: refused; `action` ("undo", "redo") names it in the report.
  bool apply(const std::map<std::string, double>& overrides, const char* action);
  SimulationController* controller_;
  std::map<std::string, double> before_, after_;
  bool resetAfter_;
  bool skipRedo_;
};

// Runs another system (SimulationController::switchSystem) with its scenario; undo returns
// to the previous system object and scenario (parameters, initial overrides). `applied`: the
// switch is already in effect, so the first redo() does nothing. The comparison in force when
// a system was left comes back with it (a ghost of a parameter the other system lacks is
// dropped by the switch), so later commands' recorded histories, which hold the comparison
// run, can be shown again.
class SwitchSystemCommand : public QUndoCommand {
 public:
  struct Comparison {
    CompareMode mode = CompareMode::None;
    std::string ghostParameter;
    double ghostValue = 0;
    bool operator==(const Comparison&) const = default;
  };
  static Comparison comparisonOf(const SimulationController& controller);
  struct Run {
    std::shared_ptr<const nh::SystemModel> system;
    nh::Scenario scenario;
    std::optional<Comparison> comparison;  // unset: as the switch leaves it
  };
  SwitchSystemCommand(SimulationController* controller, Run before, Run after, bool applied);
  void redo() override;
  void undo() override;

 private:
  void apply(const Run& run, const char* action);
  SimulationController* controller_;
  Run before_, after_;
  bool skipRedo_;
};

}  // namespace nhui
