// IntegratorMenu (integrator_menu.h): the checkable action per kIntegrators row, the step asked
// for a fixed-step method (its default from the running step and dt-out), and the check kept
// on the running integrator.
#include "ui/window/integrator_menu.h"

#include <QAction>
#include <QActionGroup>
#include <QInputDialog>
#include <QMenu>
#include <algorithm>

#include "ui/session/session.h"

namespace nhui {

IntegratorMenu::IntegratorMenu(QWidget* window, Session* session, QMenu* menu)
    : QObject(menu), window_(window), session_(session) {
  menu->setObjectName("integratorMenu");
  menu->setToolTipsVisible(true);
  group_ = new QActionGroup(this);
  for (const auto& row : nh::kIntegrators) {
    QAction* a = menu->addAction(QString::fromUtf8(row.name));
    a->setCheckable(true);
    a->setData(static_cast<int>(row.value));
    a->setToolTip(QString::fromUtf8(row.description));
    a->setStatusTip(QString::fromUtf8(row.description));
    group_->addAction(a);
    connect(a, &QAction::triggered, this, [this, method = row.value] { choose(method); });
  }
  menu->addSeparator();
  step_ = menu->addAction(tr("Integrator &step…"), this, &IntegratorMenu::askStep);
  step_->setObjectName("integratorStep");
  SimulationController* controller = session_->controller();
  connect(controller, &SimulationController::scenarioChanged, this, &IntegratorMenu::sync);
  connect(controller, &SimulationController::historyReset, this, &IntegratorMenu::sync);
  sync();
}

double IntegratorMenu::defaultStep(const nh::IntegratorOptions& running, double dtOut) {
  if (nh::isFixedStep(running.method)) return running.step;
  return std::min(running.step, dtOut);
}

void IntegratorMenu::choose(nh::Integrator method) {
  SimulationController* controller = session_->controller();
  nh::IntegratorOptions options = controller->scenario().integrator;
  if (options.method == method) return;
  if (nh::isFixedStep(method)) options.step = defaultStep(options, controller->dtOut());
  options.method = method;
  session_->setIntegrator(options);
  sync();  // a refused choice leaves the running one checked
}

void IntegratorMenu::askStep() {
  SimulationController* controller = session_->controller();
  nh::IntegratorOptions options = controller->scenario().integrator;
  if (!nh::isFixedStep(options.method)) return;
  bool ok = false;
  const double step = QInputDialog::getDouble(
      window_, tr("Integrator step"),
      tr("Fixed step of %1 [s] (at most the output step, %2 s):")
          .arg(QString::fromStdString(nh::toString(options.method)))
          .arg(controller->dtOut()),
      options.step, 1e-6, controller->dtOut(), 6, &ok, Qt::WindowFlags(), 0.001);
  if (!ok) return;
  options.step = step;
  session_->setIntegrator(options);
}

void IntegratorMenu::sync() {
  const nh::IntegratorOptions options = session_->controller()->scenario().integrator;
  for (QAction* a : group_->actions())
    a->setChecked(a->data().toInt() == static_cast<int>(options.method));
  step_->setEnabled(nh::isFixedStep(options.method));
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
