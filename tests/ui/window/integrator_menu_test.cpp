// Simulation › Integrator (ui/window/integrator_menu): one checkable action per row of
// nh::kIntegrators with its description as tool tip, the running integrator checked;
// choosing a fixed-step method gives it a step no larger than the output step and says so in
// a notice; the step action is enabled only for a fixed-step method; undo brings back the
// integrator before, and the check follows.
#include "ui/window/integrator_menu.h"

#include <QAction>
#include <QActionGroup>
#include <QMenu>
#include <QUndoStack>
#include <QWidget>
#include <QtTest>

#include "session_fixture.h"
#include "ui/session/session.h"

namespace {

QList<QAction*> methodActions(QMenu& menu) {
  QList<QAction*> out;
  for (QAction* a : menu.actions())
    if (a->isCheckable()) out.push_back(a);
  return out;
}

QAction* actionNamed(QMenu& menu, const char* name) {
  for (QAction* a : methodActions(menu))
    if (a->text() == QString::fromUtf8(name)) return a;
  return nullptr;
}

}  // namespace

class IntegratorMenuTest : public QObject {
  Q_OBJECT

 private slots:
  void actionsFollowTheTableAndTheRun() {
    auto session = nhtest::startSession("nh_particle");
    nhui::SimulationController* controller = session->controller();
    QWidget window;
    QMenu menu;
    new nhui::IntegratorMenu(&window, session.get(), &menu);
    const QList<QAction*> actions = methodActions(menu);
    QCOMPARE(actions.size(), static_cast<qsizetype>(std::size(nh::kIntegrators)));
    for (const auto& row : nh::kIntegrators) {
      QAction* a = actionNamed(menu, row.name);
      QVERIFY2(a, row.name);
      QCOMPARE(a->toolTip(), QString::fromUtf8(row.description));
      QCOMPARE(a->isChecked(), row.value == nh::Integrator::Dopri5);
    }
    QAction* step = menu.findChild<QAction*>("integratorStep");
    if (!step)
      for (QAction* a : menu.actions())
        if (a->objectName() == "integratorStep") step = a;
    QVERIFY(step);
    QVERIFY(!step->isEnabled());

    controller->play();
    QVERIFY(controller->waitForTime(0.2, 30000));
    controller->pause();
    QString notice;
    QObject::connect(session.get(), &nhui::Session::notice,
                     [&](const QString& message, int) { notice = message; });
    actionNamed(menu, "nh-rattle")->trigger();
    const nh::IntegratorOptions options = controller->scenario().integrator;
    QVERIFY(options.method == nh::Integrator::NhRattle);
    QVERIFY(options.step > 0 && options.step <= controller->dtOut());
    QVERIFY2(notice.contains("nh-rattle") && notice.contains("fixed step"), qPrintable(notice));
    QVERIFY(actionNamed(menu, "nh-rattle")->isChecked());
    QVERIFY(!actionNamed(menu, "dopri5")->isChecked());
    QVERIFY(step->isEnabled());
    // The run goes on under nh-rattle.
    const double t = controller->primary().lastTime();
    controller->play();
    QVERIFY(controller->waitForTime(t + 0.2, 30000));
    controller->pause();
    QVERIFY2(controller->lastError().isEmpty(), qPrintable(controller->lastError()));

    session->undoStack()->undo();
    QVERIFY(controller->scenario().integrator.method == nh::Integrator::Dopri5);
    QVERIFY(actionNamed(menu, "dopri5")->isChecked());
    QVERIFY(!step->isEnabled());
  }

  // The default step of a fixed-step method: the running one's when it has a fixed step, else
  // at most the output step.
  void defaultStepIsAtMostTheOutputStep() {
    nh::IntegratorOptions adaptive;
    adaptive.step = 0.5;
    QCOMPARE(nhui::IntegratorMenu::defaultStep(adaptive, 0.01), 0.01);
    adaptive.step = 1e-3;
    QCOMPARE(nhui::IntegratorMenu::defaultStep(adaptive, 0.01), 1e-3);
    nh::IntegratorOptions fixed;
    fixed.method = nh::Integrator::Rk4;
    fixed.step = 0.004;
    QCOMPARE(nhui::IntegratorMenu::defaultStep(fixed, 0.01), 0.004);
  }
};

QTEST_MAIN(IntegratorMenuTest)
#include "integrator_menu_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
