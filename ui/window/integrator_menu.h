// Simulation › Integrator: one checkable action per row of nh::kIntegrators (its
// description as tool tip), the running integrator checked, and "Integrator step…" for the
// fixed-step methods. Choices go through the session (undoable).
#pragma once

#include <QObject>

#include "core/nh/simulation.h"

class QAction;
class QActionGroup;
class QMenu;
class QWidget;

namespace nhui {

class Session;

class IntegratorMenu : public QObject {
  Q_OBJECT

 public:
  IntegratorMenu(QWidget* window, Session* session, QMenu* menu);

  // The step a fixed-step method starts with when chosen: the running step when the running
  // method has a fixed step too, else the smaller of the options' step and the output step.
  static double defaultStep(const nh::IntegratorOptions& running, double dtOut);

 private:
  void choose(nh::Integrator method);
  void askStep();
  void sync();  // checks the running integrator; the step action only for a fixed step

  QWidget* window_;
  Session* session_;
  QActionGroup* group_ = nullptr;
  QAction* step_ = nullptr;
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
