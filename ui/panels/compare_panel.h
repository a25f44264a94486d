// The Compare dock: a second run beside the primary one, either the other dynamics
// (vakonomic) or a ghost with one parameter changed. Choosing starts the comparison on the
// controller and plays.
#pragma once

#include <QWidget>

#include "ui/sim/simulation_controller.h"

class QComboBox;
class QUndoStack;

namespace nhui {

class CheckedSpinBox;

class ComparePanel : public QWidget {
  Q_OBJECT

 public:
  // A comparison chosen restarts the run; it goes on `undo` (pushTimelineChange), so undo
  // brings back the comparison and the history before it.
  ComparePanel(SimulationController* controller, QUndoStack* undo, QWidget* parent = nullptr);

  // Sets the widgets and starts the comparison (undoably). An unknown ghost parameter changes
  // nothing and is reported on `refused`.
  void setCompare(CompareMode mode, const QString& parameter = {}, double value = 0);
  // After a system change: the ghost parameters of the new system, ghost value 2·(first).
  void rebuild();
  // Shows the controller's comparison (after a scenario was loaded or a history restored),
  // starting nothing.
  void syncMode();

 signals:
  // A comparison the controller refused, with its reason (for the status bar).
  void refused(const QString& message);

 private:
  void apply();
  void updateEnabled();

  SimulationController* controller_;
  QUndoStack* undo_;
  QComboBox* mode_ = nullptr;
  QComboBox* ghostParameter_ = nullptr;
  CheckedSpinBox* ghostValue_ = nullptr;
};

}  // namespace nhui
