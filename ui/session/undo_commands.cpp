// The session's undo steps (undo_commands.h): a parameter value (merged while a slider moves),
// the initial-condition overrides, a replaced timeline and a system switch, each refused whole
// with one line when the controller refuses it.
#include "ui/session/undo_commands.h"

#include <QLocale>
#include <QObject>
#include <QStringList>
#include <QUndoStack>

#include "core/nh/errors.h"
#include "ui/session/session.h"
#include "ui/sim/run_style.h"
#include "ui/sim/simulation_controller.h"

namespace nhui {

namespace {
// The controller calls below check everything before they change anything, so a command that
// throws has applied nothing. It is then made obsolete: QUndoStack deletes it (push, undo and
// redo all do), so the stack never lists an edit that is not in effect, and the reason goes
// out on the session's error signal.
void refuse(QUndoCommand* command, Session* session, const char* action, const nh::Error& error) {
  command->setObsolete(true);
  session->reportError(
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

SetParameterCommand::SetParameterCommand(Session* session, std::string name, double before,
                                         double after, long mergeKey)
    : session_(session),
      name_(std::move(name)),
      before_(before),
      after_(after),
      mergeKey_(mergeKey) {
  updateText();
}

// "Set Ω₀ = 3 rad/s": the parameter as the panel names it (run_style.h).
void SetParameterCommand::updateText() {
  const nh::SystemModel& system = session_->controller()->system();
  const int i = system.parameterIndex(name_);
  const std::string said = i >= 0 ? displayValue(system.info().parameters[i], after_)
                                  : name_ + " = " + nh::formatValue(after_);
  setText(QObject::tr("Set %1").arg(QString::fromStdString(said)));
}

void SetParameterCommand::apply(double value, const char* action) {
  try {
    otherTimeline_ = session_->controller()->setParameter(name_, value);
  } catch (const nh::Error& e) {
    refuse(this, session_, action, e);
  }
}

// A fork's recorded history is restored with the settings it was computed with. A history of
// another system or dynamics (not expected: those changes are on the stack in order) cannot
// come back, but the value can: the command then sets it like an edit at the current moment
// and stays on the stack.
bool SetParameterCommand::swapRecordedTimeline() {
  if (!otherTimeline_) return false;
  try {
    otherTimeline_ = session_->controller()->swapTimeline(std::move(otherTimeline_));
    return true;
  } catch (const nh::Error&) {
    otherTimeline_.reset();
    return false;
  }
}

void SetParameterCommand::redo() {
  if (swapRecordedTimeline()) return;
  apply(after_, "redo");
  if (isObsolete()) return;
  madeAt_ = session_->controller()->displayTime();
  // Made at a moment scrubbed back to: what followed it was replaced (undo brings it back).
  if (otherTimeline_)
    emit session_->notice(
        QObject::tr("Edited from t = %1 s: the history after it was replaced (%2 brings it back)")
            .arg(madeAt_, 0, 'f', 2)
            .arg(Session::undoKey()),
        10000);
}

void SetParameterCommand::undo() {
  if (swapRecordedTimeline()) return;
  // Shown from before the moment the edit was made: the edit is taken back there, so that
  // edits between the moment shown and it stay in force; the display then returns, and redo
  // shows the history with the edit from that same moment.
  SimulationController* controller = session_->controller();
  const double shown = controller->displayTime();
  if (std::isfinite(madeAt_) && shown < madeAt_) {
    if (auto replaced = controller->takeBackEdit(name_, madeAt_, after_, before_)) {
      otherTimeline_ = std::move(*replaced);
      controller->seek(shown);
      if (otherTimeline_) {
        otherTimeline_->displayTime = controller->displayTime();
        otherTimeline_->parameters = controller->parameters();
      }
      return;
    }
  }
  // Undone from a moment scrubbed to (before or after the edit): the history it replaced
  // comes back on redo (apply keeps it), with the edit where it was made, instead of the edit
  // being made again at the moment displayed then.
  apply(before_, "undo");
}

bool SetParameterCommand::mergeWith(const QUndoCommand* other) {
  const auto* o = dynamic_cast<const SetParameterCommand*>(other);
  // A refused move applied nothing: it must not extend the drag it follows.
  if (!o || o->isObsolete() || o->name_ != name_ || o->mergeKey_ != mergeKey_ || mergeKey_ == 0 ||
      o->otherTimeline_)
    return false;
  after_ = o->after_;
  madeAt_ = o->madeAt_;  // where after_ took effect
  updateText();
  return true;
}

ReplaceTimelineCommand::ReplaceTimelineCommand(
    Session* session, std::shared_ptr<SimulationController::Timeline> replaced, const QString& text,
    const QString& mergeKey)
    : session_(session), other_(std::move(replaced)), mergeKey_(mergeKey) {
  setText(text);
  if (!other_) setObsolete(true);  // nothing was replaced: nothing to undo
}

bool ReplaceTimelineCommand::mergeWith(const QUndoCommand* other) {
  const auto* o = dynamic_cast<const ReplaceTimelineCommand*>(other);
  if (!o || mergeKey_.isEmpty() || o->mergeKey_ != mergeKey_ || !other_) return false;
  setText(o->text());  // the history before the first change stays the one undo brings back
  return true;
}

// A replaced history that no longer fits the runs (another system or dynamics: not expected,
// those changes are on the stack in order) cannot come back; the command then stays on the
// stack doing nothing, so undoing past it still reaches the edits before it, and says so.
void ReplaceTimelineCommand::swap(const char* action) {
  if (!other_) return;  // lost earlier (below)
  try {
    other_ = session_->controller()->swapTimeline(std::move(other_));
  } catch (const nh::Error& e) {
    other_.reset();
    session_->reportError(
        QObject::tr("Could not %1 \"%2\": %3. The edits before and after it are kept.")
            .arg(QString::fromLatin1(action), text(), QString::fromUtf8(e.what())));
  }
}

void ReplaceTimelineCommand::redo() {
  if (skipAppliedRedo(skipRedo_)) return;
  swap("redo");
}

void ReplaceTimelineCommand::undo() { swap("undo"); }

SetInitialCommand::SetInitialCommand(Session* session, std::map<std::string, double> before,
                                     std::map<std::string, double> after, bool resetAfter,
                                     bool applied,
                                     std::shared_ptr<SimulationController::Timeline> replaced)
    : session_(session),
      before_(std::move(before)),
      after_(std::move(after)),
      resetAfter_(resetAfter),
      skipRedo_(applied),
      otherTimeline_(std::move(replaced)) {
  setText(QObject::tr("Change initial conditions"));
}

bool SetInitialCommand::apply(const std::map<std::string, double>& overrides, const char* action) {
  SimulationController* controller = session_->controller();
  try {
    controller->setInitialOverrides(overrides);
  } catch (const nh::Error& e) {
    refuse(this, session_, action, e);
    return false;
  }
  if (!resetAfter_) return true;
  // The history this command replaced (or, after an undo, the one it made) comes back whole;
  // a history that no longer fits (another system now) is dropped and the run restarts.
  if (otherTimeline_) {
    try {
      otherTimeline_ = controller->swapTimeline(std::move(otherTimeline_));
      return true;
    } catch (const nh::Error&) {
      otherTimeline_.reset();
    }
  }
  otherTimeline_ = controller->copyTimeline();
  controller->reset();
  return true;
}

void SetInitialCommand::redo() {
  if (skipAppliedRedo(skipRedo_)) return;
  apply(after_, "redo");
}

void SetInitialCommand::undo() { apply(before_, "undo"); }

SwitchSystemCommand::SwitchSystemCommand(Session* session, Run before, Run after, bool applied)
    : session_(session), before_(std::move(before)), after_(std::move(after)), skipRedo_(applied) {
  setText(QObject::tr("Run system %1").arg(QString::fromStdString(after_.system->name())));
}

void SwitchSystemCommand::apply(Run& run, const char* action) {
  SimulationController* controller = session_->controller();
  try {
    controller->switchSystem(run.system, run.scenario);
  } catch (const nh::Error& e) {
    refuse(this, session_, action, e);
    return;
  }
  // The history left behind, shown paused at its moment as every undo shows one (play()
  // would fork it there).
  if (auto timeline = std::move(run.timeline)) {
    try {
      controller->swapTimeline(std::move(timeline));
      return;
    } catch (const nh::Error&) {
      // Not expected (the same system object): the run starts from the scenario below.
    }
  }
  if (run.comparison && *run.comparison != comparisonInForce(*controller)) {
    const nh::Comparison& c = *run.comparison;
    try {
      if (c.mode == CompareMode::Integrator)
        controller->setCompareIntegrator({c.method, c.step});
      else
        controller->setCompare(c.mode, c.ghostParameter, c.ghostValue);
    } catch (const nh::Error& e) {  // it was in force for this system: not expected
      session_->reportError(QObject::tr("The comparison of \"%1\" could not be restored: %2")
                                .arg(text(), QString::fromUtf8(e.what())));
    }
  }
  controller->play();
}

void SwitchSystemCommand::redo() {
  if (skipAppliedRedo(skipRedo_)) return;
  before_.comparison = comparisonInForce(*session_->controller());
  before_.timeline = session_->controller()->copyTimeline();
  apply(after_, "redo");
}

void SwitchSystemCommand::undo() {
  after_.comparison = comparisonInForce(*session_->controller());
  after_.timeline = session_->controller()->copyTimeline();
  apply(before_, "undo");
}

QString unsavedChanges(const QUndoStack& stack, int limit) {
  if (stack.isClean()) return {};
  const int clean = stack.cleanIndex(), now = stack.index();
  if (clean < 0)
    return QObject::tr(
        "The scenario was changed since it was saved (the saved state is no longer "
        "on the undo stack).");
  const bool undone = clean > now;
  QStringList steps;
  for (int i = std::min(clean, now); i < std::max(clean, now); ++i) steps << stack.text(i);
  const int more = static_cast<int>(steps.size()) - limit;
  if (more > 0) {
    steps = steps.mid(0, limit);
    steps << QObject::tr("%n more", nullptr, more);
  }
  const QString list = QLocale().createSeparatedList(steps);
  return undone ? QObject::tr("Undone since the scenario was saved: %1.").arg(list)
                : QObject::tr("Changed since the scenario was saved: %1.").arg(list);
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
