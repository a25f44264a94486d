#include "ui/panels/undo_commands.h"

#include <QObject>

#include "core/nh/errors.h"
#include "ui/sim/simulation_controller.h"

namespace nhui {

SetParameterCommand::SetParameterCommand(SimulationController* controller, std::string name,
                                         double before, double after, long mergeKey)
    : controller_(controller),
      name_(std::move(name)),
      before_(before),
      after_(after),
      mergeKey_(mergeKey) {
  setText(QObject::tr("Set %1 = %2").arg(QString::fromStdString(name_)).arg(after_));
}

// Values were checked before the command was pushed; a failure here must not unwind
// through Qt's undo stack.
void SetParameterCommand::redo() {
  try {
    controller_->setParameter(name_, after_);
  } catch (const nh::Error&) {
  }
}

void SetParameterCommand::undo() {
  try {
    controller_->setParameter(name_, before_);
  } catch (const nh::Error&) {
  }
}

bool SetParameterCommand::mergeWith(const QUndoCommand* other) {
  const auto* o = dynamic_cast<const SetParameterCommand*>(other);
  if (!o || o->name_ != name_ || o->mergeKey_ != mergeKey_ || mergeKey_ == 0) return false;
  after_ = o->after_;
  setText(QObject::tr("Set %1 = %2").arg(QString::fromStdString(name_)).arg(after_));
  return true;
}

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

void SetInitialCommand::apply(const std::map<std::string, double>& overrides) {
  try {
    controller_->setInitialOverrides(overrides);
    if (resetAfter_) controller_->reset();
  } catch (const nh::Error&) {
  }
}

void SetInitialCommand::redo() {
  if (skipRedo_) {
    skipRedo_ = false;
    return;
  }
  apply(after_);
}

void SetInitialCommand::undo() { apply(before_); }

}  // namespace nhui
