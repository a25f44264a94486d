// nhlab started as users start it from a terminal or a script: the window opens on the system,
// parameters and comparison given on its command line, which is the starting point and not an
// unsaved change, so a scripted screenshot (and quitting) never waits on an "Unsaved changes"
// question. Needs an X display (run under scripts/with-display.sh).
#include <QDir>
#include <QElapsedTimer>
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
};

QTEST_GUILESS_MAIN(NhlabScriptedTest)
#include "nhlab_scripted_test.moc"
