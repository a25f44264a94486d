// Restarts that replace the shown history (Reset, a comparison, the formulation) are undoable,
// and undoing everything then redoing it returns the same parameters. Such a restart, made at
// a moment scrubbed back to before a later parameter edit, starts from the parameters shown
// there, so the later edit is no longer in force while its command stays on the stack. Before
// these restarts were on the stack, undoing the edit did nothing (its value was already gone)
// and redoing it set the value again: the soak (on whipple_bicycle, parameter zB) found it
// as "undo all, redo all changed the parameters".
#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QUndoStack>
#include <QtTest>

#include "session_fixture.h"
#include "ui/panels/compare_panel.h"
#include "ui/session/session.h"
#include "ui/sim/simulation_controller.h"

using nhui::CompareMode;
using nhui::Session;
using nhui::SimulationController;

namespace {
void playUntil(SimulationController* c, double t) {
  c->play();
  QTRY_VERIFY_WITH_TIMEOUT(c->displayTime() >= t, 20000);
  c->pause();
  c->tick();
}
}  // namespace

class UndoRestartTest : public QObject {
  Q_OBJECT

 private slots:
  void restartAfterScrubbingBackIsUndoable_data() {
    QTest::addColumn<QString>("restart");
    QTest::newRow("reset") << "reset";
    QTest::newRow("vakonomic comparison") << "vakonomic";
    QTest::newRow("ghost comparison") << "ghost";
    QTest::newRow("formulation") << "formulation";
  }

  void restartAfterScrubbingBackIsUndoable() {
    QFETCH(QString, restart);
    auto session = nhtest::startSession();
    nhui::ComparePanel panel(session.get());  // the comparison shown after undo and redo
    SimulationController* c = session->controller();
    QUndoStack* undo = session->undoStack();
    const int omega0 = c->system().parameterIndex("Omega0");
    const double before = c->parameters()[omega0];
    playUntil(c, 0.3);
    session->setParameter("Omega0", 2.5);
    QCOMPARE(c->parameters()[omega0], 2.5);
    const double editTime = c->displayTime();
    playUntil(c, editTime + 0.3);
    const double seenUntil = c->primary().lastTime();

    // Back before the edit: the value shown is the one before it.
    c->seek(0.5 * editTime);
    c->tick();
    QCOMPARE(c->parameters()[omega0], before);
    const int commands = undo->count();
    if (restart == "reset") {
      session->reset();
    } else if (restart == "vakonomic") {
      session->setComparison(CompareMode::Vakonomic);
    } else if (restart == "ghost") {
      session->setComparison(CompareMode::Ghost, "Omega_freq", 1.5);
    } else {
      session->setFormulation(nh::Formulation::GibbsAppell, QString::fromUtf8("Gibbs–Appell"));
    }
    QCOMPARE(undo->count(), commands + 1);  // the restart is on the stack
    c->pause();
    QTRY_VERIFY_WITH_TIMEOUT(!c->primary().empty(), 10000);
    c->tick();
    // It started from the parameters shown: the later edit is not in force now.
    QCOMPARE(c->parameters()[omega0], before);
    const auto& run = c->primary();
    QCOMPARE(run.parametersAt(run.size() - 1)[omega0], before);
    const std::vector<double> parameters = c->parameters();
    const CompareMode compare = c->compareMode();
    const nh::Formulation formulation = c->scenario().formulation;

    // Its undo brings back the replaced history, the edit in it, and the settings.
    undo->undo();
    c->tick();
    QVERIFY(c->primary().lastTime() >= seenUntil);
    QCOMPARE(c->primary().parametersAt(c->primary().size() - 1)[omega0], 2.5);
    QCOMPARE(c->compareMode(), CompareMode::None);
    QVERIFY(c->scenario().formulation == nh::Formulation::Multipliers);
    QCOMPARE(panel.findChild<QComboBox*>("compareMode")->currentIndex(), 0);

    // Undo everything, redo everything: the same parameters, comparison and formulation.
    while (undo->canUndo()) undo->undo();
    while (undo->canRedo()) undo->redo();
    c->tick();
    QCOMPARE(c->parameters(), parameters);
    QCOMPARE(c->compareMode(), compare);
    QVERIFY(c->scenario().formulation == formulation);
    QCOMPARE(c->primary().parametersAt(c->primary().size() - 1)[omega0], before);
    const int shownMode = compare == CompareMode::None        ? 0
                          : compare == CompareMode::Vakonomic ? 1
                                                              : 2;
    QCOMPARE(panel.findChild<QComboBox*>("compareMode")->currentIndex(), shownMode);
  }

  // An edit made live, undone from a moment scrubbed back before it and before another, earlier
  // edit: the undo takes it back where it was made, so the earlier edit stays in force (it
  // used to restart from the moment shown, dropping the earlier edit while its command stayed
  // on the stack: the soak, seed 2718, rolling_disk_3d's g).
  void undoFromBeforeKeepsEarlierEdits() {
    auto session = nhtest::startSession();
    nhui::ComparePanel panel(session.get());  // the comparison shown after undo and redo
    SimulationController* c = session->controller();
    QUndoStack* undo = session->undoStack();
    const int omega0 = c->system().parameterIndex("Omega0");
    const int g = c->system().parameterIndex("g");
    playUntil(c, 0.2);
    session->setParameter("Omega0", 2.5);
    const double first = c->displayTime();
    playUntil(c, first + 0.2);
    session->setParameter("g", 5);
    playUntil(c, c->displayTime() + 0.2);
    c->seek(0.5 * first);
    c->tick();
    const std::vector<double> shown = c->parameters();
    const double shownAt = c->displayTime();

    undo->undo();  // g = 5
    c->tick();
    QCOMPARE(c->displayTime(), shownAt);
    QCOMPARE(c->parameters(), shown);
    const auto& run = c->primary();
    QCOMPARE(run.parametersAt(run.size() - 1)[omega0], 2.5);  // the earlier edit
    QCOMPARE(run.parametersAt(run.size() - 1)[g], 9.81);

    undo->redo();
    c->tick();
    QCOMPARE(c->parameters(), shown);
    QCOMPARE(c->primary().parametersAt(c->primary().size() - 1)[g], 5.0);
    while (undo->canUndo()) undo->undo();
    while (undo->canRedo()) undo->redo();
    c->tick();
    QCOMPARE(c->parameters(), shown);
    QCOMPARE(c->primary().parametersAt(c->primary().size() - 1)[omega0], 2.5);
    QCOMPARE(c->primary().parametersAt(c->primary().size() - 1)[g], 5.0);
  }

  // The steps of one ghost value (its spin box) are one undo step; the comparison in force
  // already restarts nothing and adds no step.
  void ghostValueStepsMerge() {
    auto session = nhtest::startSession();
    nhui::ComparePanel panel(session.get());  // the comparison shown after undo and redo
    SimulationController* c = session->controller();
    QUndoStack* undo = session->undoStack();
    playUntil(c, 0.2);
    const int commands = undo->count();
    session->setComparison(CompareMode::Ghost, "Omega_freq", 1.5);
    session->setComparison(CompareMode::Ghost, "Omega_freq", 1.6);
    session->setComparison(CompareMode::Ghost, "Omega_freq", 1.7);
    // A step asked while the previous one's run has no sample yet is made when it has.
    QTRY_COMPARE_WITH_TIMEOUT(c->ghostValue(), 1.7, 20000);
    QCOMPARE(undo->count(), commands + 1);
    session->setComparison(CompareMode::Ghost, "Omega_freq", 1.7);
    QCOMPARE(undo->count(), commands + 1);
    undo->undo();
    QCOMPARE(c->compareMode(), CompareMode::None);
    QVERIFY(c->primary().lastTime() >= 0.2);  // the history before the comparison
    undo->redo();
    QCOMPARE(c->compareMode(), CompareMode::Ghost);
    QCOMPARE(c->ghostValue(), 1.7);
    auto* value = panel.findChild<QDoubleSpinBox*>("ghostValue");
    QVERIFY(value);
    QCOMPARE(value->value(), 1.7);
  }
};

QTEST_MAIN(UndoRestartTest)
#include "undo_restart_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
