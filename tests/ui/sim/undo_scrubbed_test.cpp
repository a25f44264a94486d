// Undoing a parameter edit while scrubbed back before it. Before, the undo set the value in
// force at the displayed moment, which there was already the old one: nothing happened, the
// edit stayed in the later history; redo then made the edit again at the displayed moment,
// not where it was made. The soak (seed 99) found parameters that differed after undoing and
// redoing everything. Driven through the session, the value typed into its parameter panel.
#include <QUndoStack>
#include <QtTest>

#include "session_fixture.h"
#include "spin_box_typing.h"
#include "ui/panels/parameter_panel.h"
#include "ui/sim/simulation_controller.h"
#include "window_fixture.h"

class UndoScrubbedTest : public QObject {
  Q_OBJECT

 private slots:
  void undoFromBeforeTheEditRemovesItAndRedoPutsItBack() {
    const auto session = nhtest::startSession("rolling_disk_3d");
    nhui::ParameterPanel panel(session.get());
    QVERIFY(nhtest::showActive(panel));
    nhui::SimulationController* c = session->controller();
    const int g = c->system().parameterIndex("g");
    QVERIFY(g >= 0);
    const double g0 = c->parameter("g");
    c->play();
    QTRY_VERIFY_WITH_TIMEOUT(c->displayTime() >= 0.3, 20000);
    c->pause();
    nhtest::typeInto(panel.spinBox("g"), "6.5");
    QCOMPARE(c->parameter("g"), 6.5);
    const double editTime = c->displayTime();
    // Let the run go on past the edit, then look back before it.
    c->play();
    QTRY_VERIFY_WITH_TIMEOUT(c->displayTime() >= editTime + 0.2, 20000);
    c->pause();
    c->seek(0.5 * editTime);
    c->tick();
    QCOMPARE(c->parameter("g"), g0);  // in force at the displayed moment
    const auto later = [&] {
      const auto& run = c->primary();
      return run.parametersAt(run.size() - 1)[g];
    };
    QCOMPARE(later(), 6.5);
    session->undoStack()->undo();
    c->tick();
    QCOMPARE(later(), g0);  // the edit is gone from the later history too
    QCOMPARE(c->parameter("g"), g0);
    session->undoStack()->redo();
    c->tick();
    // The history with the edit where it was made comes back, seen from the same moment.
    QCOMPARE(c->parameter("g"), g0);
    QCOMPARE(later(), 6.5);
    const auto& run = c->primary();
    QCOMPARE(run.parametersAt(run.indexAtOrBefore(0.5 * editTime))[g], g0);
  }
};

QTEST_MAIN(UndoScrubbedTest)
#include "undo_scrubbed_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
