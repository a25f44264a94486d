// nhlab started as users start it from a terminal or a script: the window opens on the system,
// parameters and comparison given on its command line, which is the starting point and not an
// unsaved change, so a scripted screenshot (and quitting) never waits on an "Unsaved changes"
// question; a scenario file it cannot open (its view refused as nhsim refuses it, too) ends a
// scripted run with exit code 2 and the reason in one line on stderr; and a stop signal in its
// terminal ends it with 128 + the signal. Needs an X display (run under
// scripts/with-display.sh).
#include <signal.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

class NhlabScriptedTest : public QObject {
  Q_OBJECT

 private slots:
  void commandLineStartQuitsWithoutAsking_data() {
    QTest::addColumn<QStringList>("args");
    QTest::newRow("system") << QStringList{"--system", "rattleback"};
    QTest::newRow("system and set") << QStringList{"--system", "ball_on_table", "--set", "m=2"};
    QTest::newRow("presentation") << QStringList{"--system", "suslov", "--presentation"};
  }
  void commandLineStartQuitsWithoutAsking() {
    QFETCH(QStringList, args);
    QTemporaryDir dir;
    const QString shot = dir.filePath("shot.png");
    QProcess p;
    p.start(NHLAB_PATH, QStringList{"--no-settings", "--size", "800x600", "--screenshot", shot,
                                    "--after", "1"} +
                            args);
    QVERIFY(p.waitForStarted());
    // Before the fix the window asked about unsaved changes on quitting and never ended.
    const bool finished = p.waitForFinished(60000);
    if (!finished) p.kill();
    QVERIFY2(finished, "nhlab did not quit after its scripted screenshot");
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 0);
    QVERIFY(QFileInfo(shot).size() > 0);
  }

  // A scenario that cannot be opened is explained in the window's banner, and stderr gets the
  // same reason in one line (it said only "could not open FILE"); a scripted run then exits
  // with 2 instead of saving a screenshot of the previous system. A view that names what its
  // system lacks is refused as nhsim refuses it (it used to open, the ghost dropped).
  void aBadScenarioIsExplainedOnStderr_data() {
    QTest::addColumn<QByteArray>("rest");
    QTest::addColumn<QString>("says");
    QTest::newRow("unknown system")
        << QByteArray(R"("system": "no_such_system"})") << "no_such_system";
    QTest::newRow("ghost on no parameter")
        << QByteArray(R"("system": "nh_particle", "view": {"version": 1, "compare":
             {"mode": "ghost", "parameter": "bogus", "value": 1}}})")
        << "view: the ghost's parameter 'bogus' is not a parameter of 'nh_particle'";
  }
  void aBadScenarioIsExplainedOnStderr() {
    QFETCH(QByteArray, rest);
    QFETCH(QString, says);
    QTemporaryDir dir;
    const QString bad = dir.filePath("bad.json");
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"format": "nonholonomic-lab-scenario", "version": 2, )" + rest);
    f.close();
    const QString shot = dir.filePath("shot.png");
    QProcess p;
    p.start(NHLAB_PATH,
            {"--no-settings", "--size", "800x600", "--screenshot", shot, "--after", "0.5", bad});
    QVERIFY(p.waitForStarted());
    if (!p.waitForFinished(60000)) p.kill();
    QString lines;
    for (const QString& line : QString::fromUtf8(p.readAllStandardError()).split('\n'))
      if (line.startsWith("nhlab")) lines += line + '\n';
    QCOMPARE(lines.count('\n'), 1);
    QVERIFY2(lines.startsWith("nhlab: error: Could not open bad.json: ") && lines.contains(says),
             qPrintable(lines));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 2);
    QVERIFY(!QFile::exists(shot));
  }

  // Ctrl+C, SIGTERM or SIGHUP in nhlab's terminal close the window and exit with 128 + the
  // signal, as nhsim does (before: exit 0).
  void stopSignalsExitWithTheirCode_data() {
    QTest::addColumn<int>("signal");
    QTest::addColumn<int>("code");
    QTest::newRow("SIGINT") << SIGINT << 130;
    QTest::newRow("SIGTERM") << SIGTERM << 143;
    QTest::newRow("SIGHUP") << SIGHUP << 129;
  }
  void stopSignalsExitWithTheirCode() {
    QFETCH(int, signal);
    QFETCH(int, code);
    QProcess p;
    p.start(NHLAB_PATH, {"--no-settings", "--size", "800x600", "--system", "rattleback"});
    QVERIFY(p.waitForStarted());
    // nhlab catches the signal once its window is up (the handler is the last thing main()
    // installs before the event loop): wait until /proc shows it caught.
    QElapsedTimer timer;
    timer.start();
    while (!catches(p.processId(), signal) && timer.elapsed() < 60000) QTest::qWait(50);
    QVERIFY2(catches(p.processId(), signal), "nhlab did not install its signal handler");
    QCOMPARE(::kill(static_cast<pid_t>(p.processId()), signal), 0);
    const bool finished = p.waitForFinished(30000);
    if (!finished) p.kill();
    QVERIFY2(finished, "nhlab did not quit on the signal");
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), code);
  }

 private:
  // Whether process `pid` has a handler for `signal` (SigCgt in /proc/PID/status).
  static bool catches(qint64 pid, int signal) {
    QFile status(QString("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly)) return false;
    for (const QByteArray& line : status.readAll().split('\n'))
      if (line.startsWith("SigCgt:"))
        return (line.mid(7).trimmed().toULongLong(nullptr, 16) >> (signal - 1)) & 1;
    return false;
  }
};

QTEST_GUILESS_MAIN(NhlabScriptedTest)
#include "nhlab_scripted_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
