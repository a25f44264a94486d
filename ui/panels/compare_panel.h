// The Compare dock: a second run beside the primary one, either the other dynamics
// (vakonomic) or a ghost with one parameter changed. Choosing starts the comparison on the
// controller and plays.
#pragma once

#include <QWidget>

#include "ui/sim/simulation_controller.h"

class QComboBox;

namespace nhui {

class CheckedSpinBox;

class ComparePanel : public QWidget {
  Q_OBJECT

 public:
  explicit ComparePanel(SimulationController* controller, QWidget* parent = nullptr);

  // Sets the widgets and starts the comparison. An unknown ghost parameter changes nothing
  // and is reported on `refused`.
  void setCompare(CompareMode mode, const QString& parameter = {}, double value = 0);
  // After a system change: the ghost parameters of the new system, ghost value 2·(first).
  void rebuild();
  // Shows the controller's compare mode (after a scenario was loaded), starting nothing.
  void syncMode();

 signals:
  // A comparison the controller refused, with its reason (for the status bar).
  void refused(const QString& message);

 private:
  void apply();

  SimulationController* controller_;
  QComboBox* mode_ = nullptr;
  QComboBox* ghostParameter_ = nullptr;
  CheckedSpinBox* ghostValue_ = nullptr;
};

}  // namespace nhui
