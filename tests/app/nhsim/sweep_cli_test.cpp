// `nhsim sweep` as users run it: the same bytes for --jobs 1, 2 and 3, help, bad
// input refused with one line and exit 2 before anything is written, and Ctrl+C keeping the
// finished rows in a file that says it is partial.
#include <signal.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "nhsim_process.h"

namespace {

using Result = nh::test::ProcessResult;

QByteArray contents(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace

class SweepCliTest : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;

  QString path(const QString& name) const { return dir_.filePath(name); }

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void sameBytesForAnyNumberOfJobs() {
    // A grid over a parameter (re-taped per worker) and an initial value, with measures.
    const QStringList args = {"sweep",     "ball_on_turntable",
                              "--vary",    "Omega0=0.5:2:4",
                              "--vary",    "vx=-0.2:0.2:3",
                              "--t-end",   "2",
                              "--measure", "xmax=max(x)",
                              "--measure", "first_crossing(y)",
                              "--measure", "drift=max(energy)-min(energy)"};
    QByteArray first;
    for (const QString jobs : {"1", "2", "3"}) {
      const QString out = path("grid" + jobs + ".csv");
      const Result r = nh::test::runNhsim(args + QStringList{"--jobs", jobs, "--out", out});
      QVERIFY2(r.code == 0, qPrintable(r.err));
      QVERIFY2(r.out.contains("12 runs (12 ok, 0 not)"), qPrintable(r.out));
      const QByteArray bytes = contents(out);
      if (first.isEmpty()) first = bytes;
      QCOMPARE(bytes, first);
    }
    const QList<QByteArray> lines = first.split('\n');
    QVERIFY2(lines[0].startsWith("# nhsim sweep ball_on_turntable --vary Omega0=0.5:2:4"),
             lines[0].constData());
    QVERIFY(!lines[0].contains("--jobs") && !lines[0].contains("--out"));
    int header = 0;
    while (lines[header].startsWith('#')) ++header;
    QCOMPARE(lines[header], QByteArray("Omega0,vx,xmax,first_crossing(y),drift,status"));
    QCOMPARE(lines.size(), header + 1 + 12 + 1);  // rows, then the empty piece after '\n'
    QVERIFY(lines[header + 1].startsWith("0.5,-0.2,"));
    QVERIFY(lines[header + 2].startsWith("0.5,0,"));
    QVERIFY(lines[header + 12].startsWith("2,0.2,"));
    for (int i = header + 1; i <= header + 12; ++i) QVERIFY(lines[i].endsWith(",ok"));

    // Samples too, and standard output.
    const QStringList sample = {"sweep",     "rolling_disk",
                                "--sample",  "wphi=normal:0.5:0.2",
                                "--count",   "30",
                                "--seed",    "11",
                                "--t-end",   "1",
                                "--measure", "final(phi)",
                                "--quiet"};
    const Result a = nh::test::runNhsim(sample + QStringList{"--jobs", "1"});
    const Result b = nh::test::runNhsim(sample + QStringList{"--jobs", "2"});
    QCOMPARE(a.code, 0);
    QVERIFY(a.err.isEmpty());
    QCOMPARE(b.out, a.out);
    QVERIFY2(a.out.contains("# count 30, seed 11"), qPrintable(a.out));
  }

  void help() {
    const Result r = nh::test::runNhsim({"sweep", "--help"});
    QCOMPARE(r.code, 0);
    for (const char* m : {"--vary", "--sample", "--count", "--seed", "--measure", "--jobs",
                          "--force", "first_crossing(E)", "partial", "--max-steps"})
      QVERIFY2(r.out.contains(m), m);
    QVERIFY(nh::test::runNhsim({"--help"}).out.contains("nhsim sweep"));
  }

  void badInputWritesNothing_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("fragment");
    const QStringList disk = {"sweep", "rolling_disk", "--t-end", "1"};
    QTest::newRow("unknown name") << disk + QStringList{"--vary", "nope=0:1:2"}
                                  << "unknown name 'nope'";
    QTest::newRow("reversed") << disk + QStringList{"--vary", "m=2:1:2"} << "reversed";
    QTest::newRow("N < 1") << disk + QStringList{"--vary", "m=1:2:0"} << "N must be";
    QTest::newRow("both") << disk + QStringList{"--vary",   "m=1:2:2",
                                                "--sample", "r=uniform:0.1:0.2",
                                                "--count",  "3"}
                          << "not both";
    QTest::newRow("nothing varies") << disk << "--vary";
    QTest::newRow("sample without count")
        << disk + QStringList{"--sample", "r=uniform:0.1:0.2"} << "--count";
    QTest::newRow("count too large")
        << disk + QStringList{"--sample", "r=uniform:0.1:0.2", "--count", "20000000"} << "--force";
    QTest::newRow("measure syntax")
        << disk + QStringList{"--vary", "m=1:2:2", "--measure", "final(x) +"} << "measure";
    QTest::newRow("measure unknown column")
        << disk + QStringList{"--vary", "m=1:2:2", "--measure", "max(lambda_7)"}
        << "unknown name 'lambda_7'";
    QTest::newRow("long measure cut")
        << disk + QStringList{"--vary", "m=1:2:2", "--measure", "final(" + QString(100, 'x') + ")"}
        << "…";
    QTest::newRow("jobs 0") << disk + QStringList{"--vary", "m=1:2:2", "--jobs", "0"} << "--jobs";
    QTest::newRow("unwritable output")
        << disk + QStringList{"--vary", "m=1:2:2", "--out", "/nonexistent/dir/out.csv"}
        << "cannot write";
  }
  void badInputWritesNothing() {
    QFETCH(QStringList, args);
    QFETCH(QString, fragment);
    const QString out = path("bad.csv");
    QFile::remove(out);
    QStringList full = args;
    if (!full.contains("--out")) full << "--out" << out;
    const Result r = nh::test::runNhsim(full);
    const QString context = full.join(' ') + " → " + QString::number(r.code) + ": " + r.err;
    QVERIFY2(r.code == 2, qPrintable(context));
    QVERIFY2(r.err.startsWith("nhsim: error: ") && r.err.count('\n') == 1, qPrintable(context));
    QVERIFY2(r.err.contains(fragment), qPrintable(context));
    QVERIFY(!QFile::exists(out));
    QCOMPARE(QDir(dir_.path()).entryList({".*bad*"}, QDir::Hidden | QDir::Files).size(), 0);
  }

  void failingRunIsARow() {
    const QString out = path("failing.csv");
    const Result r = nh::test::runNhsim({"sweep", "ball_on_turntable", "--vary",
                                         "inertia_ratio=0:0.4:2", "--t-end", "0.2", "--measure",
                                         "final(x)", "--out", out, "--jobs", "2"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("2 runs (1 ok, 1 not)"), qPrintable(r.out));
    const QByteArray data = contents(out);
    QVERIFY2(data.contains("\n0,nan,non-regular at t=0\n"), data.constData());
    QVERIFY(data.endsWith(",ok\n"));
  }

  void interruptKeepsFinishedRows() {
    const QString out = path("interrupted.csv");
    QProcess p;
    p.start(NHSIM_PATH,
            {"sweep", "rolling_disk", "--sample", "wphi=uniform:0.1:1", "--count", "1000000",
             "--t-end", "1", "--measure", "final(x)", "--jobs", "2", "--out", out});
    QVERIFY(p.waitForStarted());
    // Until rows reach the hidden temporary (more than one stdio buffer).
    QVERIFY2(nh::test::waitForTemporaryBytes(dir_.path(), ".interrupted", 20000, 60000),
             "no rows were written");
    QCOMPARE(::kill(static_cast<pid_t>(p.processId()), SIGINT), 0);
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 130);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(err.contains("nhsim: interrupted: ") && err.contains("of 1000000 runs kept in " + out),
             qPrintable(err));
    const QList<QByteArray> lines = contents(out).split('\n');
    int header = 0;
    while (lines[header].startsWith('#')) ++header;
    QCOMPARE(lines[header], QByteArray("wphi,final(x),status"));
    int rows = 0;
    while (!lines[header + 1 + rows].startsWith('#')) {
      QVERIFY2(lines[header + 1 + rows].endsWith(",ok"), lines[header + 1 + rows].constData());
      ++rows;
    }
    QCOMPARE(lines[header + 1 + rows], QByteArray("# partial: ") + QByteArray::number(rows) +
                                           " of 1000000 runs (interrupted)");
    QVERIFY(rows > 100 && rows < 1000000);
    QVERIFY2(err.contains(QString("%1 of 1000000").arg(rows)), qPrintable(err));
    QCOMPARE(lines.size(), header + rows + 3);
  }
};

QTEST_GUILESS_MAIN(SweepCliTest)
#include "sweep_cli_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
