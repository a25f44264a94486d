// FormulationMenu (formulation_menu.h): a checkable action per formulation choice with its
// tool tip, the choice sent to the session, and the check kept on the running formulation.
#include "ui/window/formulation_menu.h"

#include <QAction>
#include <QActionGroup>
#include <QMenu>

#include "ui/session/session.h"

namespace nhui {

namespace {

// The menu's words for each formulation of nh::kFormulationChoices.
QString menuLabel(nh::Formulation f) {
  switch (f) {
    case nh::Formulation::Multipliers:
      return QObject::tr("Multipliers (KKT)");
    case nh::Formulation::GibbsAppell:
      return QObject::tr("Gibbs–Appell");
    case nh::Formulation::Hamiltonian:
      return QObject::tr("Hamiltonian (q, p)");
  }
  return {};
}

}  // namespace

FormulationMenu::FormulationMenu(Session* session, QMenu* menu) : QObject(menu), session_(session) {
  menu->setObjectName("formulationMenu");
  menu->setToolTipsVisible(true);
  group_ = new QActionGroup(this);
  for (const auto& row : nh::kFormulationChoices) {
    const QString label = menuLabel(row.value);
    QAction* a = menu->addAction(label);
    a->setCheckable(true);
    a->setData(static_cast<int>(row.value));
    a->setToolTip(QString::fromUtf8(row.description));
    a->setStatusTip(QString::fromUtf8(row.description));
    group_->addAction(a);
    connect(a, &QAction::triggered, this, [this, f = row.value, label] {
      session_->setFormulation(f, label);
      sync();  // a refused choice leaves the running one checked
    });
  }
  SimulationController* controller = session_->controller();
  connect(controller, &SimulationController::scenarioChanged, this, &FormulationMenu::sync);
  connect(controller, &SimulationController::historyReset, this, &FormulationMenu::sync);
  sync();
}

void FormulationMenu::sync() {
  const nh::Formulation running = session_->controller()->scenario().formulation;
  for (QAction* a : group_->actions())
    a->setChecked(a->data().toInt() == static_cast<int>(running));
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
