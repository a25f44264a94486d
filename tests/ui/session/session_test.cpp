// The session (no window): the histories an edit or Play replaces at a scrubbed moment stay
// on the session's undo stack and come back on undo; a refused edit says why on the one error
// signal and leaves no step; a scenario file sets the file, title and lesson in one place,
// its view part becomes the session's view and its comparison starts without any undo step,
// and a view its system cannot show is refused as nhsim refuses it; choosing a system forgets
// the file and lesson and is one undoable step; a drag of the start posts its moves
// (coalesced, applied once the event loop is free) and ends as one step; a restart asked
// before the run's first sample is made once it has come, without waiting.
#include "ui/session/session.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>
#include <cmath>
#include <fstream>

#include "core/io/scenario_file.h"
#include "resources/app_resources.h"
#include "session_fixture.h"

using nhui::Session;
using nhui::SimulationController;

class SessionTest : public QObject {
  Q_OBJECT

 private slots:
  void init() { session_ = nhtest::startSession(); }
  void cleanup() { session_.reset(); }

  // Play at a scrubbed moment replaces what followed: one "Resume" step brings it back.
  void resumingForksAndUndoBringsTheHistoryBack() {
    SimulationController& c = *session_->controller();
    QUndoStack& stack = *session_->undoStack();
    QVERIFY(c.waitForTime(2.0, 30000));
    c.seek(1.0);
    QSignalSpy notices(session_.get(), &Session::notice);
    c.play();
    QCOMPARE(stack.count(), 1);
    QVERIFY(stack.text(0).startsWith("Resume from t = 1.00 s"));
    QCOMPARE(notices.count(), 1);
    QVERIFY(notices.at(0).at(0).toString().startsWith("Resumed from t = 1.00 s"));
    c.pause();
    QVERIFY(c.primary().lastTime() < 1.9);
    stack.undo();
    QVERIFY(c.primary().lastTime() >= 2.0 - 1e-9);
    QVERIFY(std::abs(c.displayTime() - 1.0) < 1e-9);
    QVERIFY(!c.playing());
    // The restored timeline goes on from its end (Play at its last moment continues it).
    QVERIFY(c.waitForTime(2.2, 30000));
    stack.redo();
    QVERIFY(c.primary().lastTime() < 1.9);
  }

  // An edit at a scrubbed moment forks too; its undo brings the replaced history back.
  void editAtScrubbedMomentIsUndoneWithItsHistory() {
    SimulationController& c = *session_->controller();
    QUndoStack& stack = *session_->undoStack();
    QVERIFY(c.waitForTime(2.0, 30000));
    c.seek(1.0);
    QSignalSpy notices(session_.get(), &Session::notice);
    QSignalSpy errors(session_.get(), &Session::errorOccurred);
    session_->setParameter("Omega0", 3.0);
    QCOMPARE(stack.count(), 1);
    QCOMPARE(notices.count(), 1);
    QVERIFY(notices.at(0).at(0).toString().startsWith("Edited from t = 1.00 s"));
    QCOMPARE(c.parameter("Omega0"), 3.0);
    QVERIFY(c.primary().lastTime() < 1.9);
    stack.undo();
    QVERIFY2(errors.isEmpty(), errors.isEmpty() ? "" : qPrintable(errors.at(0).at(0).toString()));
    QCOMPARE(c.parameter("Omega0"), 1.0);
    QVERIFY(c.primary().lastTime() >= 2.0 - 1e-9);
    stack.redo();
    QCOMPARE(c.parameter("Omega0"), 3.0);
    QVERIFY(c.primary().lastTime() < 1.9);
  }

  // A value out of range: one line on the error signal, no step, the value unchanged.
  void aRefusedEditIsReportedOnceAndLeavesNoStep() {
    SimulationController& c = *session_->controller();
    QSignalSpy errors(session_.get(), &Session::errorOccurred);
    session_->setParameter("Omega0", 500.0);  // the range is [-100, 100]
    QCOMPARE(errors.count(), 1);
    QVERIFY2(errors.at(0).at(0).toString().contains("Omega0"),
             qPrintable(errors.at(0).at(0).toString()));
    QCOMPARE(session_->undoStack()->count(), 0);
    QCOMPARE(c.parameter("Omega0"), 1.0);
    session_->setParameter("no_such_parameter", 1.0);
    QCOMPARE(errors.count(), 2);
    QCOMPARE(session_->undoStack()->count(), 0);
  }

  // Open sets file, title and lesson together; the view goes out before the history starts.
  void openingAScenarioSetsTheDocumentInOnePlace() {
    QTemporaryDir dir;
    const QString path = dir.filePath("lesson.json");
    std::ofstream(path.toStdString())
        << R"({"format": "nonholonomic-lab-scenario", "version": 2, "system": "chaplygin_sleigh",)"
        << R"( "parameters": {"m": 2},)"
        << R"( "view": {"version": 1, "title": "Sleigh", "note": "Watch the contact point.",)"
        << R"( "display": {"keep_in_view": false}}})";
    QSignalSpy views(session_.get(), &Session::viewChanged);
    QSignalSpy changed(session_.get(), &Session::documentChanged);
    session_->setParameter("Omega0", 2.0);  // an edit of the previous document
    QVERIFY(session_->openScenario(path));
    QCOMPARE(session_->currentFile(), path);
    QCOMPARE(session_->title(), QStringLiteral("Sleigh"));
    QCOMPARE(session_->lessonNote(), QStringLiteral("Watch the contact point."));
    // The file's view part is the session's view: its display choice, said once.
    QVERIFY(!session_->view().display.keepInView);
    int displayChanges = 0;
    for (const auto& args : views)
      displayChanges += (args.at(0).toUInt() & nhui::kViewDisplay) ? 1 : 0;
    QCOMPARE(displayChanges, 1);
    QVERIFY(changed.count() >= 1);
    QCOMPARE(session_->undoStack()->count(), 0);
    QVERIFY(!session_->isModified());
    QCOMPARE(session_->controller()->parameter("m"), 2.0);

    // Saved elsewhere: the file and the name follow, the lesson stays.
    const QString copy = dir.filePath("copy.json");
    QVERIFY(session_->saveScenario(copy));
    QCOMPARE(session_->currentFile(), copy);
    QCOMPARE(session_->title(), QStringLiteral("Sleigh"));

    // A file that cannot be read changes nothing and says why.
    QSignalSpy errors(session_.get(), &Session::errorOccurred);
    QVERIFY(!session_->openScenario(dir.filePath("missing.json")));
    QCOMPARE(errors.count(), 1);
    QVERIFY(errors.at(0).at(0).toString().startsWith("Could not open missing.json"));
    QCOMPARE(session_->currentFile(), copy);
  }

  // A view naming what its system lacks, or a comparison outside the run's rules, is refused
  // as nhsim and export refuse it (checkScenarioViewFor): one line, nothing changed.
  void aViewTheSystemCannotShowIsRefused_data() {
    QTest::addColumn<QString>("view");
    QTest::addColumn<QString>("says");
    QTest::newRow("ghost") << R"({"version": 1, "compare": {"mode": "ghost", "parameter": "bogus",
        "value": 1}})"
                           << "view: the ghost's parameter 'bogus' is not a parameter of "
                              "'nh_particle'";
    QTest::newRow("large step") << R"({"version": 1, "compare": {"mode": "integrator",
        "integrator": "rk4", "step": 1e6}})"
                                << "larger than dt-out";
    QTest::newRow("tiny step") << R"({"version": 1, "compare": {"mode": "integrator",
        "integrator": "rk4", "step": 1e-300}})"
                               << "view: the comparison integrator: step must be at least 1e-12";
    QTest::newRow("plan") << R"({"version": 1, "plan": {"t_end": 1, "targets": {"bogus": 1}}})"
                          << "view: 'plan.targets.bogus' is not a coordinate of 'nh_particle'";
  }
  void aViewTheSystemCannotShowIsRefused() {
    QFETCH(QString, view);
    QFETCH(QString, says);
    QTemporaryDir dir;
    const QString path = dir.filePath("view.json");
    std::ofstream(path.toStdString())
        << R"({"format": "nonholonomic-lab-scenario", "version": 2, "system": "nh_particle", )"
        << R"("view": )" << view.toStdString() << "}";
    QSignalSpy errors(session_.get(), &Session::errorOccurred);
    QSignalSpy views(session_.get(), &Session::viewChanged);
    QVERIFY(!session_->openScenario(path));
    QCOMPARE(errors.count(), 1);
    const QString message = errors.at(0).at(0).toString();
    QVERIFY2(message.startsWith("Could not open view.json: ") && message.contains(says) &&
                 !message.contains('\n'),
             qPrintable(message));
    QCOMPARE(views.count(), 0);
    QCOMPARE(session_->controller()->system().name(), std::string("ball_on_turntable"));
    QCOMPARE(session_->currentFile(), QString());
  }

  // The bundled lessons pass that check (the Examples menu opens them through it).
  void theBundledLessonsPassTheViewCheck() {
    for (const nhres::Example& lesson : nhres::examples()) {
      try {
        nh::checkScenarioViewFor(nhres::readResourceScenario(lesson.resourcePath()));
      } catch (const std::exception& e) {
        QFAIL(qPrintable(lesson.file + ": " + QString::fromUtf8(e.what())));
      }
    }
  }

  // A system chosen is one step; the file and lesson belonged to the previous system.
  void choosingASystemForgetsTheFileAndIsUndoable() {
    QTemporaryDir dir;
    const QString path = dir.filePath("s.json");
    QVERIFY(session_->saveScenario(path));
    QCOMPARE(session_->currentFile(), path);
    QSignalSpy views(session_.get(), &Session::viewChanged);
    QVERIFY(session_->chooseSystem("chaplygin_sleigh"));
    QVERIFY(session_->currentFile().isEmpty());
    QVERIFY(session_->title().isEmpty());
    // The fixed arrow scales of the previous system are let go (none preset).
    QVERIFY(!views.isEmpty());
    QVERIFY(views.last().at(0).toUInt() & nhui::kViewArrowScales);
    QCOMPARE(session_->undoStack()->count(), 1);
    QCOMPARE(session_->controller()->system().name(), std::string("chaplygin_sleigh"));
    session_->undoStack()->undo();
    QCOMPARE(session_->controller()->system().name(), std::string("ball_on_turntable"));
    QSignalSpy errors(session_.get(), &Session::errorOccurred);
    QVERIFY(!session_->chooseSystem("no_such_system"));
    QCOMPARE(errors.count(), 1);
  }

  // A scenario file's comparison is the file's state: no step is pushed (and thrown away).
  void openingAComparisonPushesNoStep() {
    QTemporaryDir dir;
    const QString path = dir.filePath("compare.json");
    std::ofstream(path.toStdString())
        << R"({"format": "nonholonomic-lab-scenario", "version": 2, "system": "chaplygin_sleigh",)"
        << R"( "view": {"version": 1, "compare": {"mode": "ghost", "parameter": "m",)"
        << R"( "value": 3}, "plots": {"time_series": ["energy"]}}})";
    QSignalSpy indexes(session_->undoStack(), &QUndoStack::indexChanged);
    QVERIFY(session_->openScenario(path));
    for (const auto& args : indexes) QCOMPARE(args.at(0).toInt(), 0);
    QCOMPARE(session_->undoStack()->count(), 0);
    QCOMPARE(session_->controller()->compareMode(), nhui::CompareMode::Ghost);
    QCOMPARE(session_->controller()->ghostValue(), 3.0);
    // The view says the comparison in force.
    QCOMPARE(session_->view().comparison.mode, nhui::CompareMode::Ghost);
    QCOMPARE(session_->view().comparison.ghostParameter, std::string("m"));
    QCOMPARE(session_->view().timeSeries, QStringList{"energy"});
  }

  // A drag's moves are posted: none is applied at once, those made before the event loop
  // runs again are applied once (the last), and the drag is one undoable step.
  void aDragIsPostedCoalescedAndOneStep() {
    SimulationController& c = *session_->controller();
    QVERIFY(c.waitForTime(1.0, 30000));
    const auto before = c.initialOverrides();
    QSignalSpy applied(&c, &SimulationController::initialChanged);
    session_->beginInitialDrag();
    session_->dragInitial({{"x", 0.1}});
    session_->dragInitial({{"x", 0.2}});
    session_->dragInitial({{"x", 0.3}});
    QCOMPARE(applied.count(), 0);  // nothing done in the mouse's event: the GUI goes on
    QCoreApplication::processEvents();
    QCOMPARE(applied.count(), 1);
    QCOMPARE(c.initialOverrides().at("x"), 0.3);
    session_->dragInitial({{"x", 0.4}});
    session_->endInitialDrag();  // the last move applied, then the step
    QCOMPARE(c.initialOverrides().at("x"), 0.4);
    QCOMPARE(session_->undoStack()->count(), 1);
    session_->undoStack()->undo();
    QVERIFY(c.initialOverrides() == before);
  }

  // A restart asked right after a switch (no sample yet) returns at once and is made, as one
  // undoable step, when the first sample has come.
  void aRestartBeforeTheFirstSampleWaitsForItWithoutBlocking() {
    SimulationController& c = *session_->controller();
    QVERIFY(session_->chooseSystem("chaplygin_sleigh"));
    session_->undoStack()->clear();
    QVERIFY(c.primary().empty());
    session_->setStepSize(0.02);
    QCOMPARE(session_->undoStack()->count(), 0);  // not made yet: nothing to keep
    QTRY_COMPARE_WITH_TIMEOUT(session_->undoStack()->count(), 1, 30000);
    QCOMPARE(c.dtOut(), 0.02);
  }

 private:
  std::unique_ptr<Session> session_;
};

QTEST_GUILESS_MAIN(SessionTest)
#include "session_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
