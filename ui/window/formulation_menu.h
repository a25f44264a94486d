// Simulation › Formulation: one checkable action per formulation (in the order of
// nh::kFormulationChoices, its description as tool tip), the running one checked, as the
// Integrator menu does. Choices go through the session (undoable); a refused choice (the
// Hamiltonian formulation of vakonomic dynamics) leaves the running one checked.
#pragma once

#include <QObject>

#include "core/nh/dynamics.h"

class QActionGroup;
class QMenu;

namespace nhui {

class Session;

class FormulationMenu : public QObject {
  Q_OBJECT

 public:
  FormulationMenu(Session* session, QMenu* menu);

 private:
  void sync();  // checks the running formulation

  Session* session_;
  QActionGroup* group_ = nullptr;
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
