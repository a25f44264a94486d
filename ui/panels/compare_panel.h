// The Compare dock: a second run beside the primary one, either the other dynamics
// (vakonomic), a ghost with one parameter changed, or the same run stepped by another
// integrator (its step for the fixed-step ones). Choosing starts the comparison on the
// controller and plays.
#pragma once

#include <QWidget>
#include <memory>

#include "ui/sim/simulation_controller.h"

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;

namespace nhui {

class Session;

class CheckedSpinBox;

class ComparePanel : public QWidget {
  Q_OBJECT

 public:
  // A comparison chosen restarts the run; it goes on the session's undo stack, so undo
  // brings back the comparison and the history before it.
  explicit ComparePanel(Session* session, QWidget* parent = nullptr);

  // Sets the widgets and starts the comparison (undoably). An unknown ghost parameter changes
  // nothing and is reported on the session's error signal.
  void setCompare(CompareMode mode, const QString& parameter = {}, double value = 0);
  // Sets the widgets and starts the comparison with another integrator (undoably); a refused
  // integrator or step is reported on the session's error signal.
  void setCompareIntegrator(const IntegratorChoice& other);
  // After a system change: the ghost parameters of the new system, ghost value 2·(first).
  void rebuild();
  // Shows the controller's comparison (after a scenario was loaded or a history restored),
  // starting nothing.
  void syncMode();
  // The width at which the mode box shows its longest choice whole ("Nonholonomic vs
  // vakonomic"), with the panel's margins: the window gives the dock at least this.
  int wholeWidth() const;

 private:
  void addIntegratorRows(QFormLayout* form);
  void apply();
  void updateEnabled();
  CompareMode chosenMode() const;
  IntegratorChoice chosenIntegrator() const;
  void showIntegrator(const IntegratorChoice& other);

  Session* session_;
  SimulationController* controller_;
  std::shared_ptr<const nh::SystemModel> builtFor_;  // the system whose parameters it lists
  QComboBox* mode_ = nullptr;
  QComboBox* ghostParameter_ = nullptr;
  CheckedSpinBox* ghostValue_ = nullptr;
  QComboBox* integrator_ = nullptr;  // kIntegrators, in table order
  QDoubleSpinBox* integratorStep_ = nullptr;
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
