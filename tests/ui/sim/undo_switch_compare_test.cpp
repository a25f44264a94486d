// Undoing a system switch and redoing it brings back the comparison that was in force. Before,
// a ghost of a parameter the other system lacks was dropped by the undo and not restored by
// the redo; a later parameter edit's recorded history (which holds the ghost run) then no
// longer fit, and its redo set the value at the displayed moment instead of showing the
// history where the edit was made. The soak (default seed, strict) found it as parameters
// that differed after undoing and redoing everything.
#include <QUndoStack>
#include <QtTest>

#include "session_fixture.h"
#include "ui/session/session.h"
#include "ui/sim/simulation_controller.h"

using nhui::CompareMode;

class UndoSwitchCompareTest : public QObject {
  Q_OBJECT

 private slots:
  void switchUndoRedoKeepsTheGhostAndLaterHistories() {
    auto session = nhtest::startSession("rolling_disk");
    session->chooseSystem("ball_on_turntable");
    nhui::SimulationController* c = session->controller();
    QUndoStack* undo = session->undoStack();
    session->setComparison(CompareMode::Ghost, "Omega_freq", 1.5);
    // Right after the switch the run has no sample yet: the comparison is made when it has.
    QTRY_COMPARE_WITH_TIMEOUT(c->compareMode(), CompareMode::Ghost, 20000);
    c->play();
    QTRY_VERIFY_WITH_TIMEOUT(c->displayTime() >= 0.3, 20000);
    c->pause();
    session->setParameter("Omega0", 2.5);
    QCOMPARE(c->parameter("Omega0"), 2.5);
    const double editTime = c->displayTime();
    c->play();
    QTRY_VERIFY_WITH_TIMEOUT(c->displayTime() >= editTime + 0.3, 20000);
    c->pause();
    // Seen from before the edit, undone and redone: the edit's command now holds both
    // histories, the one without the edit and the one with it.
    c->seek(0.5 * editTime);
    c->tick();
    undo->undo();
    undo->redo();
    c->tick();
    const double shown = c->displayTime();
    const std::vector<double> parameters = c->parameters();
    const int index = undo->index();
    const int omega0 = c->system().parameterIndex("Omega0");
    QCOMPARE(parameters[omega0], 1.0);  // in force at the displayed moment, before the edit

    while (undo->index() > index - 3) undo->undo();  // the edit, the ghost, the switch
    QCOMPARE(c->system().name(), std::string("rolling_disk"));
    QCOMPARE(c->compareMode(), CompareMode::None);
    while (undo->index() < index) undo->redo();
    c->tick();

    QCOMPARE(c->system().name(), std::string("ball_on_turntable"));
    QCOMPARE(c->compareMode(), CompareMode::Ghost);
    QCOMPARE(c->ghostParameter(), std::string("Omega_freq"));
    QCOMPARE(c->ghostValue(), 1.5);
    // The history with the edit where it was made, shown at the same moment.
    QCOMPARE(c->parameters(), parameters);
    QCOMPARE(c->displayTime(), shown);
    const auto& run = c->primary();
    QCOMPARE(run.parametersAt(run.size() - 1)[omega0], 2.5);

    // A switch to a system without the ghost's parameter drops the ghost; undoing the switch
    // brings it back, and redoing it drops it again.
    session->chooseSystem("rolling_disk");
    QCOMPARE(c->compareMode(), CompareMode::None);
    undo->undo();
    QCOMPARE(c->system().name(), std::string("ball_on_turntable"));
    QCOMPARE(c->compareMode(), CompareMode::Ghost);
    QCOMPARE(c->ghostParameter(), std::string("Omega_freq"));
    QCOMPARE(c->ghostValue(), 1.5);
    undo->redo();
    QCOMPARE(c->system().name(), std::string("rolling_disk"));
    QCOMPARE(c->compareMode(), CompareMode::None);
  }
};

QTEST_GUILESS_MAIN(UndoSwitchCompareTest)
#include "undo_switch_compare_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
