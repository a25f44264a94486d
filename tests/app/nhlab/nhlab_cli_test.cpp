// nhlab's command line: a malformed --size, --set or --compare, or a model file that cannot be
// read, is refused with one line on stderr and exit code 2 before any window opens (the
// offscreen Qt platform is enough).
#include <QDir>
#include <QProcess>
#include <QtTest>

namespace {

struct Result {
  int code = -1;
  QString err;  // nhlab's own lines on stderr (Qt's platform notes left out)
};

Result runNhlab(const QStringList& args) {
  QProcess p;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert("QT_QPA_PLATFORM", "offscreen");
  p.setProcessEnvironment(env);
  p.start(NHLAB_PATH, QStringList{"--no-settings"} + args);
  if (!p.waitForFinished(30000)) p.kill();
  Result r;
  r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  for (const QString& line : QString::fromUtf8(p.readAllStandardError()).split('\n'))
    if (line.startsWith("nhlab")) r.err += line + '\n';
  return r;
}

}  // namespace

class NhlabCliTest : public QObject {
  Q_OBJECT

 private slots:
  void badSizesAreRefused_data() {
    QTest::addColumn<QString>("size");
    for (const char* size : {"10x10", "319x600", "800x239", "7681x600", "800x4321", "800",
                             "800x600x2", "wide", "800X600", "0x0", "99999999x1"})
      QTest::newRow(size) << QString(size);
  }
  void badSizesAreRefused() {
    QFETCH(QString, size);
    const Result r = runNhlab({"--size", size});
    QCOMPARE(r.code, 2);
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY2(r.err.startsWith("nhlab: error: --size expects WIDTHxHEIGHT between 320x240 and "
                              "7680x4320, got '" +
                              size + "'"),
             qPrintable(r.err));
  }

  void badAssignmentsAreRefused_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("no value") << QStringList{"--set", "r"} << "--set expects NAME=VALUE";
    QTest::newRow("no name") << QStringList{"--set", "=1"} << "--set expects NAME=VALUE";
    QTest::newRow("not a number") << QStringList{"--set", "r=abc"} << "--set r";
    QTest::newRow("trailing junk") << QStringList{"--set", "r=1x"} << "--set r";
    QTest::newRow("ghost") << QStringList{"--compare", "Omega0"} << "--compare expects NAME=VALUE";
    QTest::newRow("ghost value") << QStringList{"--compare", "Omega0=fast"} << "--compare Omega0";
  }
  void badAssignmentsAreRefused() {
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const Result r = runNhlab(args);
    QCOMPARE(r.code, 2);
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY2(r.err.startsWith("nhlab: error: ") && r.err.contains(message), qPrintable(r.err));
  }

  void unreadableModelFileIsRefused() {
    // Read before the window exists: one line, not a dialog.
    for (const QString& path : {QString("/nonexistent/model.yaml"), QDir::tempPath()}) {
      const Result r = runNhlab({"--open-model", path});
      QCOMPARE(r.code, 2);
      QCOMPARE(r.err.count('\n'), 1);
      QVERIFY2(r.err.startsWith("nhlab: error: cannot read model file '" + path + "'"),
               qPrintable(r.err));
    }
  }
};

QTEST_GUILESS_MAIN(NhlabCliTest)
#include "nhlab_cli_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
