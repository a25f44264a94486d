#include "ui/panels/undo_commands.h"

#include <QObject>

#include "core/nh/errors.h"
#include "ui/sim/simulation_controller.h"

namespace nhui {

namespace {
// The controller calls below check everything before they change anything, so a command that
// throws has applied nothing. It is then made obsolete: QUndoStack deletes it (push, undo and
// redo all do), so the stack never lists an edit that is not in effect, and the reason goes
// out on the controller's error signal.
void refuse(QUndoCommand* command, SimulationController* controller, const char* action,
            const nh::Error& error) {
  command->setObsolete(true);
  controller->reportEditError(
      QObject::tr("Could not %1 \"%2\": %3. The edit was taken off the undo history.")
          .arg(QString::fromLatin1(action), command->text(), QString::fromUtf8(error.what())));
}

// For a command pushed with its change already in effect: true (and cleared) at its first
// redo(), which QUndoStack::push calls and which must then do nothing.
bool skipAppliedRedo(bool& skipRedo) {
  const bool skip = skipRedo;
  skipRedo = false;
  return skip;
}
}  // namespace

SetParameterCommand::SetParameterCommand(SimulationController* controller, std::string name,
                                         double before, double after, long mergeKey)
    : controller_(controller),
      name_(std::move(name)),
      before_(before),
      after_(after),
      mergeKey_(mergeKey) {
  updateText();
}

void SetParameterCommand::updateText() {
  setText(QObject::tr("Set %1 = %2").arg(QString::fromStdString(name_)).arg(after_));
}

void SetParameterCommand::apply(double value, const char* action) {
  try {
    controller_->setParameter(name_, value);
  } catch (const nh::Error& e) {
    refuse(this, controller_, action, e);
  }
}

// A fork's recorded history is restored while the runs still match it; once the comparison
// changed (it is not on the undo stack) the history cannot come back, but the value can: the
// command then sets it like an edit at the current moment and stays on the stack.
bool SetParameterCommand::swapRecordedTimeline() {
  if (!otherTimeline_) return false;
  try {
    otherTimeline_ = controller_->swapTimeline(std::move(otherTimeline_));
    return true;
  } catch (const nh::Error&) {
    otherTimeline_.reset();
    return false;
  }
}

void SetParameterCommand::redo() {
  if (swapRecordedTimeline()) return;
  apply(after_, "redo");
  if (!isObsolete()) otherTimeline_ = controller_->takeDroppedTimeline();
}

void SetParameterCommand::undo() {
  if (swapRecordedTimeline()) return;
  apply(before_, "undo");
  // Undone from a moment scrubbed to (before or after the edit): the history it replaced
  // comes back on redo, with the edit where it was made, instead of the edit being made again
  // at the moment displayed then.
  if (!isObsolete()) otherTimeline_ = controller_->takeDroppedTimeline();
}

bool SetParameterCommand::mergeWith(const QUndoCommand* other) {
  const auto* o = dynamic_cast<const SetParameterCommand*>(other);
  // A refused move applied nothing: it must not extend the drag it follows.
  if (!o || o->isObsolete() || o->name_ != name_ || o->mergeKey_ != mergeKey_ || mergeKey_ == 0 ||
      o->otherTimeline_)
    return false;
  after_ = o->after_;
  updateText();
  return true;
}

ReplaceTimelineCommand::ReplaceTimelineCommand(
    SimulationController* controller, std::shared_ptr<SimulationController::Timeline> replaced,
    const QString& text)
    : controller_(controller), other_(std::move(replaced)) {
  setText(text);
  if (!other_) setObsolete(true);  // nothing was replaced: nothing to undo
}

// A replaced history that no longer fits the runs (the comparison changed since, which is not
// on the undo stack) cannot come back; the command then stays on the stack doing nothing, so
// undoing past it still reaches the edits before it, and says so.
void ReplaceTimelineCommand::swap(const char* action) {
  if (!other_) return;  // lost earlier (below)
  try {
    other_ = controller_->swapTimeline(std::move(other_));
  } catch (const nh::Error& e) {
    other_.reset();
    controller_->reportEditError(
        QObject::tr("Could not %1 \"%2\": %3. The edits before and after it are kept.")
            .arg(QString::fromLatin1(action), text(), QString::fromUtf8(e.what())));
  }
}

void ReplaceTimelineCommand::redo() {
  if (skipAppliedRedo(skipRedo_)) return;
  swap("redo");
}

void ReplaceTimelineCommand::undo() { swap("undo"); }

SetInitialCommand::SetInitialCommand(SimulationController* controller,
                                     std::map<std::string, double> before,
                                     std::map<std::string, double> after, bool resetAfter,
                                     bool applied)
    : controller_(controller),
      before_(std::move(before)),
      after_(std::move(after)),
      resetAfter_(resetAfter),
      skipRedo_(applied) {
  setText(QObject::tr("Change initial conditions"));
}

bool SetInitialCommand::apply(const std::map<std::string, double>& overrides, const char* action) {
  try {
    controller_->setInitialOverrides(overrides);
  } catch (const nh::Error& e) {
    refuse(this, controller_, action, e);
    return false;
  }
  if (resetAfter_) controller_->reset();
  return true;
}

void SetInitialCommand::redo() {
  if (skipAppliedRedo(skipRedo_)) return;
  apply(after_, "redo");
}

void SetInitialCommand::undo() { apply(before_, "undo"); }

SwitchSystemCommand::SwitchSystemCommand(SimulationController* controller, Run before, Run after,
                                         bool applied)
    : controller_(controller),
      before_(std::move(before)),
      after_(std::move(after)),
      skipRedo_(applied) {
  setText(QObject::tr("Run system %1").arg(QString::fromStdString(after_.system->name())));
}

SwitchSystemCommand::Comparison SwitchSystemCommand::comparisonOf(
    const SimulationController& controller) {
  return {controller.compareMode(), controller.ghostParameter(), controller.ghostValue()};
}

void SwitchSystemCommand::apply(const Run& run, const char* action) {
  try {
    controller_->switchSystem(run.system, run.scenario);
  } catch (const nh::Error& e) {
    refuse(this, controller_, action, e);
    return;
  }
  if (run.comparison && *run.comparison != comparisonOf(*controller_)) {
    try {
      controller_->setCompare(run.comparison->mode, run.comparison->ghostParameter,
                              run.comparison->ghostValue);
    } catch (const nh::Error& e) {  // it was in force for this system: not expected
      controller_->reportEditError(QObject::tr("The comparison of \"%1\" could not be restored: %2")
                                       .arg(text(), QString::fromUtf8(e.what())));
    }
  }
  controller_->play();
}

void SwitchSystemCommand::redo() {
  if (skipAppliedRedo(skipRedo_)) return;
  before_.comparison = comparisonOf(*controller_);
  apply(after_, "redo");
}

void SwitchSystemCommand::undo() {
  after_.comparison = comparisonOf(*controller_);
  apply(before_, "undo");
}

}  // namespace nhui
