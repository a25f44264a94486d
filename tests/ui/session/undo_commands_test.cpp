// Undoable edits on a real controller: undo and redo restore parameter values and initial
// conditions, consecutive slider moves merge into one command, and a command the controller
// refuses is reported on the session's errorOccurred and leaves no entry that is not in
// effect.
#include "ui/session/undo_commands.h"

#include <QSignalSpy>
#include <QUndoStack>
#include <QtTest>

#include "session_fixture.h"
#include "ui/sim/simulation_controller.h"

using nhui::SetInitialCommand;
using nhui::SetParameterCommand;
using nhui::SimulationController;

class UndoCommandsTest : public QObject {
  Q_OBJECT

 private slots:
  void init() { session_ = nhtest::startSession(); }
  void cleanup() { session_.reset(); }

  void undoAndRedoRestoreValues() {
    SimulationController& c = *session_->controller();
    nhui::Session* session = session_.get();
    QUndoStack stack;
    stack.push(new SetParameterCommand(session, "Omega0", 1.0, 2.5));
    QCOMPARE(c.parameter("Omega0"), 2.5);
    stack.push(new SetInitialCommand(session, {}, {{"x", 0.3}}, true, false));
    QCOMPARE(c.initialOverrides().at("x"), 0.3);
    QCOMPARE(c.initialState()[0], 0.3);
    stack.undo();
    QVERIFY(c.initialOverrides().empty());
    QCOMPARE(c.initialState()[0], 0.6);  // the system's default x
    stack.undo();
    QCOMPARE(c.parameter("Omega0"), 1.0);
    stack.redo();
    stack.redo();
    QCOMPARE(c.parameter("Omega0"), 2.5);
    QCOMPARE(c.initialOverrides().at("x"), 0.3);
    // A drag in the view is in effect before its command is pushed: the push changes nothing.
    c.setInitialOverrides({{"x", 0.4}});
    stack.push(new SetInitialCommand(session, {{"x", 0.3}}, {{"x", 0.4}}, true, true));
    QCOMPARE(c.initialOverrides().at("x"), 0.4);
    stack.undo();
    QCOMPARE(c.initialOverrides().at("x"), 0.3);
  }

  void consecutiveSliderMovesMerge() {
    SimulationController& c = *session_->controller();
    nhui::Session* session = session_.get();
    QUndoStack stack;
    stack.push(new SetParameterCommand(session, "Omega0", 1.0, 1.5, 7));
    stack.push(new SetParameterCommand(session, "Omega0", 1.5, 2.0, 7));
    stack.push(new SetParameterCommand(session, "Omega0", 2.0, 2.5, 7));
    QCOMPARE(stack.count(), 1);
    QCOMPARE(c.parameter("Omega0"), 2.5);
    // Another drag (key), another parameter, or no key at all: separate commands.
    stack.push(new SetParameterCommand(session, "Omega0", 2.5, 3.0, 8));
    stack.push(new SetParameterCommand(session, "r", 0.1, 0.2, 8));
    stack.push(new SetParameterCommand(session, "r", 0.2, 0.3));
    stack.push(new SetParameterCommand(session, "r", 0.3, 0.4));
    QCOMPARE(stack.count(), 5);
    while (stack.canUndo()) stack.undo();
    QCOMPARE(c.parameter("Omega0"), 1.0);
    QCOMPARE(c.parameter("r"), 0.1);
  }

  // A refused push, redo, undo or slider move applies nothing, says why, and the stack keeps
  // only commands whose effect is what it claims.
  void refusedCommandsAreReportedAndDropped() {
    SimulationController& c = *session_->controller();
    nhui::Session* session = session_.get();
    QSignalSpy errors(session, &nhui::Session::errorOccurred);
    QUndoStack stack;

    stack.push(new SetParameterCommand(session, "r", 0.1, -1.0));  // r must be > 0
    QCOMPARE(errors.count(), 1);
    QVERIFY2(errors.last().at(0).toString().contains("'r' must be in"),
             qPrintable(errors.last().at(0).toString()));
    QCOMPARE(stack.count(), 0);
    QCOMPARE(c.parameter("r"), 0.1);

    stack.push(new SetInitialCommand(session, {}, {{"no_such_state", 1.0}}, true, false));
    QCOMPARE(errors.count(), 2);
    QCOMPARE(stack.count(), 0);
    QVERIFY(c.initialOverrides().empty());

    // A drag that goes out of range half way: the refused move does not extend the command.
    stack.push(new SetParameterCommand(session, "Omega0", 1.0, 2.0, 9));
    stack.push(new SetParameterCommand(session, "Omega0", 2.0, 500.0, 9));  // range is [-100, 100]
    QCOMPARE(errors.count(), 3);
    QCOMPARE(stack.count(), 1);
    QCOMPARE(c.parameter("Omega0"), 2.0);
    stack.undo();
    QCOMPARE(c.parameter("Omega0"), 1.0);
    stack.redo();
    QCOMPARE(c.parameter("Omega0"), 2.0);
    QCOMPARE(errors.count(), 3);

    // An undo that cannot be applied: the value stays, the command leaves the stack.
    stack.push(new SetParameterCommand(session, "r", -5.0, 0.2));
    QCOMPARE(c.parameter("r"), 0.2);
    QCOMPARE(stack.count(), 2);
    stack.undo();
    QCOMPARE(errors.count(), 4);
    QVERIFY(errors.last().at(0).toString().startsWith("Could not undo"));
    QCOMPARE(c.parameter("r"), 0.2);
    QCOMPARE(stack.count(), 1);
    QCOMPARE(stack.index(), 1);
    QVERIFY(!stack.canRedo());
    stack.undo();  // the earlier command still works
    QCOMPARE(c.parameter("Omega0"), 1.0);
    QCOMPARE(errors.count(), 4);
  }

  // The question before closing names what changed since the save, not a fixed guess (it
  // said "the parameters or initial conditions" when only the comparison had changed).
  void unsavedChangesNameTheSteps() {
    SimulationController& c = *session_->controller();
    nhui::Session* session = session_.get();
    QUndoStack stack;
    QVERIFY(nhui::unsavedChanges(stack).isEmpty());
    auto* compare = new QUndoCommand(QStringLiteral("Compare: nonholonomic vs vakonomic"));
    stack.push(compare);
    QCOMPARE(nhui::unsavedChanges(stack),
             QStringLiteral("Changed since the scenario was saved: Compare: nonholonomic vs "
                            "vakonomic."));
    stack.setClean();
    QVERIFY(nhui::unsavedChanges(stack).isEmpty());
    for (double v : {2.0, 3.0, 4.0, 5.0, 6.0})
      stack.push(new SetParameterCommand(session, "Omega0", c.parameter("Omega0"), v));
    const QString five = nhui::unsavedChanges(stack);
    // The parameter as the panel names it, with its unit (it said "Set Omega0 = 2", the
    // identifier, while the panel shows "Ω₀ [rad/s]").
    QVERIFY2(five.startsWith(QStringLiteral("Changed since the scenario was saved: Set Ω₀ = 2 "
                                            "rad/s")),
             qPrintable(five));
    QVERIFY2(five.contains("1 more"), qPrintable(five));
    QVERIFY2(!five.contains(QStringLiteral("Set Ω₀ = 6")), qPrintable(five));
    QVERIFY2(!five.contains("Omega0"), qPrintable(five));
    for (int i = 0; i < 6; ++i) stack.undo();
    QVERIFY2(nhui::unsavedChanges(stack).startsWith("Undone since the scenario was saved: Compare"),
             qPrintable(nhui::unsavedChanges(stack)));
  }

 private:
  std::unique_ptr<nhui::Session> session_;
};

QTEST_GUILESS_MAIN(UndoCommandsTest)
#include "undo_commands_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
