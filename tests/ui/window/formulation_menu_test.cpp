// Simulation › Formulation (ui/window/formulation_menu): one checkable action per formulation
// of nh::kFormulationChoices with its description as tool tip, exactly one checked — the
// running formulation (the menu had no mark at all, while Integrator had one); choosing one
// moves the mark and the run goes on; undo brings back the one before, and the mark follows.
#include "ui/window/formulation_menu.h"

#include <QAction>
#include <QMenu>
#include <QUndoStack>
#include <QtTest>

#include "session_fixture.h"
#include "ui/session/session.h"

namespace {

QAction* checkedAction(QMenu& menu, int* count) {
  QAction* found = nullptr;
  *count = 0;
  for (QAction* a : menu.actions())
    if (a->isCheckable() && a->isChecked()) {
      found = a;
      ++*count;
    }
  return found;
}

QAction* actionFor(QMenu& menu, nh::Formulation f) {
  for (QAction* a : menu.actions())
    if (a->isCheckable() && a->data().toInt() == static_cast<int>(f)) return a;
  return nullptr;
}

}  // namespace

class FormulationMenuTest : public QObject {
  Q_OBJECT

 private slots:
  void theRunningFormulationIsChecked() {
    auto session = nhtest::startSession("nh_particle");
    nhui::SimulationController* controller = session->controller();
    QMenu menu;
    new nhui::FormulationMenu(session.get(), &menu);
    int checkable = 0;
    for (QAction* a : menu.actions()) checkable += a->isCheckable() ? 1 : 0;
    QCOMPARE(checkable, static_cast<int>(std::size(nh::kFormulationChoices)));
    for (const auto& row : nh::kFormulationChoices) {
      QAction* a = actionFor(menu, row.value);
      QVERIFY2(a, row.name);
      QCOMPARE(a->toolTip(), QString::fromUtf8(row.description));
    }
    int count = 0;
    QCOMPARE(checkedAction(menu, &count), actionFor(menu, controller->scenario().formulation));
    QCOMPARE(count, 1);

    controller->play();
    QVERIFY(controller->waitForTime(0.2, 30000));
    controller->pause();
    actionFor(menu, nh::Formulation::GibbsAppell)->trigger();
    QVERIFY(controller->scenario().formulation == nh::Formulation::GibbsAppell);
    QCOMPARE(checkedAction(menu, &count), actionFor(menu, nh::Formulation::GibbsAppell));
    QCOMPARE(count, 1);
    const double t = controller->primary().lastTime();
    controller->play();
    QVERIFY(controller->waitForTime(t + 0.2, 30000));
    controller->pause();
    QVERIFY2(controller->lastError().isEmpty(), qPrintable(controller->lastError()));

    session->undoStack()->undo();
    QVERIFY(controller->scenario().formulation == nh::Formulation::Multipliers);
    QCOMPARE(checkedAction(menu, &count), actionFor(menu, nh::Formulation::Multipliers));
    QCOMPARE(count, 1);
  }
};

QTEST_MAIN(FormulationMenuTest)
#include "formulation_menu_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
