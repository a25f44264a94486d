// `mpirun -n 2 nhsim sweep … --mpi`: the same bytes as --jobs 1 and --jobs 2 for a
// grid and a sample with failing runs (status rows), bad input refused with one line from
// rank 0 and nothing written, and an interrupted mpirun leaving the finished prefix in a file
// that says it is partial. In a build without MPI, --mpi is refused with one line.
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

[[maybe_unused]] QByteArray contents(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

#ifdef NH_HAVE_MPI
// mpirun as CI may run it: as root, in a container (shared memory without CMA), on fewer
// cores than ranks.
QProcessEnvironment mpiEnvironment() {
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert("OMPI_ALLOW_RUN_AS_ROOT", "1");
  env.insert("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
  env.insert("OMPI_MCA_btl_vader_single_copy_mechanism", "none");
  env.insert("OMPI_MCA_rmaps_base_oversubscribe", "1");
  return env;
}

QStringList mpirunArgs(int ranks, const QStringList& args) {
  return QStringList{"-n",  QString::number(ranks), "--oversubscribe", "--mca",
                     "btl", "self,vader",           NHSIM_PATH} +
         args + QStringList{"--mpi"};
}

Result runMpi(int ranks, const QStringList& args) {
  QProcess p;
  p.setProcessEnvironment(mpiEnvironment());
  p.start(MPIEXEC_PATH, mpirunArgs(ranks, args));
  if (!p.waitForFinished(240000)) p.kill();
  Result r;
  r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  r.out = QString::fromUtf8(p.readAllStandardOutput());
  r.err = QString::fromUtf8(p.readAllStandardError());
  return r;
}

// nhsim's own lines on standard error (mpirun adds its banner about a non-zero exit).
QStringList nhsimLines(const QString& err) {
  QStringList lines;
  for (const QString& line : err.split('\n'))
    if (line.startsWith("nhsim:")) lines << line;
  return lines;
}
#endif

}  // namespace

class SweepMpiTest : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;

  QString path(const QString& name) const { return dir_.filePath(name); }

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void sameBytesOnThreadsAndRanks_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("failing");
    // A grid over two parameters; inertia_ratio = 0 makes the ball non-regular.
    QTest::newRow("grid") << QStringList{"sweep",     "ball_on_turntable",
                                         "--vary",    "Omega0=0.5:2:7",
                                         "--vary",    "inertia_ratio=0:0.4:5",
                                         "--t-end",   "1",
                                         "--measure", "xmax=max(x)",
                                         "--measure", "first_crossing(y)"}
                          << "non-regular at t=0";
    // A sample of a parameter and an initial value; a parameter drawn below 0 leaves the
    // parameter's range: an "error: …" row, its status quoted (it holds a comma).
    QTest::newRow("sample") << QStringList{"sweep",     "ball_on_turntable",
                                           "--sample",  "inertia_ratio=uniform:-0.1:0.6",
                                           "--sample",  "vx=normal:0:0.3",
                                           "--count",   "60",
                                           "--seed",    "5",
                                           "--t-end",   "0.5",
                                           "--measure", "final(x)",
                                           "--measure", "drift=max(energy)-min(energy)"}
                            << "\"error: parameter 'inertia_ratio' must be in [0, 1]";
  }
  void sameBytesOnThreadsAndRanks() {
#ifndef NH_HAVE_MPI
    QSKIP("this nhsim was built without MPI (NH_WITH_MPI=OFF or no MPI found): --mpi is refused");
#else
    QFETCH(QStringList, args);
    QFETCH(QString, failing);
    const QString tag = QTest::currentDataTag();
    const QString one = path(tag + "-jobs1.csv");
    const Result a = nh::test::runNhsim(args + QStringList{"--jobs", "1", "--out", one});
    QVERIFY2(a.code == 0, qPrintable(a.err));
    const QByteArray expected = contents(one);
    QVERIFY2(expected.contains(failing.toUtf8()), expected.constData());
    QVERIFY(expected.contains(",ok\n"));

    const QString two = path(tag + "-jobs2.csv");
    const Result b = nh::test::runNhsim(args + QStringList{"--jobs", "2", "--out", two});
    QVERIFY2(b.code == 0, qPrintable(b.err));
    QCOMPARE(contents(two), expected);

    // 2 ranks of 1 thread (the default), and 2 ranks of 2 threads (MPI_THREAD_SERIALIZED).
    for (const QString jobs : {"1", "2"}) {
      const QString ranks = path(tag + "-mpi2x" + jobs + ".csv");
      const Result m = runMpi(2, args + QStringList{"--jobs", jobs, "--out", ranks});
      QVERIFY2(m.code == 0, qPrintable(m.err));
      QVERIFY2(m.out.contains("on 2 MPI ranks × " + jobs + " thread"), qPrintable(m.out));
      QVERIFY2(m.out.count('\n') == 1, qPrintable(m.out));  // the summary, from rank 0 only
      QCOMPARE(contents(ranks), expected);
    }
    // Standard output: rank 0 writes it, the others nothing.
    const Result s = runMpi(2, args + QStringList{"--quiet"});
    QVERIFY2(s.code == 0, qPrintable(s.err));
    QCOMPARE(s.out.toUtf8(), expected);
    QVERIFY(!expected.contains("--mpi"));
#endif
  }

  void badInputOneLineNothingWritten_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("fragment");
    const QStringList disk = {"sweep", "rolling_disk", "--t-end", "1", "--measure", "final(x)"};
    QTest::newRow("unknown name") << disk + QStringList{"--vary", "nope=0:1:2"}
                                  << "unknown name 'nope'";
    QTest::newRow("reversed") << disk + QStringList{"--vary", "m=2:1:2"} << "reversed";
    QTest::newRow("jobs 0") << disk + QStringList{"--vary", "m=1:2:2", "--jobs", "0"} << "--jobs";
    QTest::newRow("unknown option")
        << disk + QStringList{"--vary", "m=1:2:2", "--nope"} << "--nope";
    // Only rank 0 opens the output: the others learn of it from the collective check.
    QTest::newRow("unwritable output")
        << disk + QStringList{"--vary", "m=1:2:2", "--out", "/nonexistent/dir/out.csv"}
        << "cannot write";
  }
  void badInputOneLineNothingWritten() {
#ifndef NH_HAVE_MPI
    QSKIP("this nhsim was built without MPI (NH_WITH_MPI=OFF or no MPI found): --mpi is refused");
#else
    QFETCH(QStringList, args);
    QFETCH(QString, fragment);
    const QString out = path("bad.csv");
    QFile::remove(out);
    QStringList full = args;
    if (!full.contains("--out")) full << "--out" << out;
    const Result r = runMpi(2, full);
    const QStringList lines = nhsimLines(r.err);
    const QString context = full.join(' ') + " → " + QString::number(r.code) + ": " + r.err;
    QVERIFY2(r.code == 2, qPrintable(context));
    QVERIFY2(lines.size() == 1, qPrintable(context));
    QVERIFY2(lines[0].startsWith("nhsim: error: ") && lines[0].contains(fragment),
             qPrintable(context));
    QVERIFY(r.out.isEmpty());
    QVERIFY(!QFile::exists(out));
    QCOMPARE(QDir(dir_.path()).entryList({".*bad*"}, QDir::Hidden | QDir::Files).size(), 0);
#endif
  }

  void helpOnceUnderMpirun() {
#ifndef NH_HAVE_MPI
    QSKIP("this nhsim was built without MPI (NH_WITH_MPI=OFF or no MPI found): --mpi is refused");
#else
    const Result r = runMpi(2, {"sweep", "--help"});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out.count("Usage: nhsim sweep"), 1);
    QVERIFY(r.out.contains("--mpi") && r.out.contains("1 per rank"));
#endif
  }

  // mpirun answers SIGINT and SIGTERM by sending SIGTERM to every rank (then SIGKILL after
  // its odls_base_sigkill_timeout, 1 s by default; 3 s here, for a loaded machine) and exits
  // 1 itself: rank 0 keeps the finished prefix and ends the file with the partial line.
  void interruptedMpirunKeepsPrefix() {
#ifndef NH_HAVE_MPI
    QSKIP("this nhsim was built without MPI (NH_WITH_MPI=OFF or no MPI found): --mpi is refused");
#else
    const QString out = path("interrupted.csv");
    QProcess p;
    QProcessEnvironment env = mpiEnvironment();
    env.insert("OMPI_MCA_odls_base_sigkill_timeout", "3");
    p.setProcessEnvironment(env);
    p.start(MPIEXEC_PATH,
            mpirunArgs(2, {"sweep", "rolling_disk", "--sample", "wphi=uniform:0.1:1", "--count",
                           "1000000", "--t-end", "1", "--measure", "final(x)", "--out", out}));
    QVERIFY(p.waitForStarted());
    QVERIFY2(nh::test::waitForTemporaryBytes(dir_.path(), ".interrupted", 20000, 120000),
             "no rows were written");
    QCOMPARE(::kill(static_cast<pid_t>(p.processId()), SIGINT), 0);
    QVERIFY(p.waitForFinished(60000));
    QVERIFY(p.exitCode() != 0);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(err.contains("nhsim: interrupted: ") && err.contains("of 1000000 runs kept in " + out),
             qPrintable(err));
    const QList<QByteArray> lines = contents(out).split('\n');
    QVERIFY2(lines.size() > 10, qPrintable(err));
    int header = 0;
    while (lines[header].startsWith('#')) ++header;
    QCOMPARE(lines[header], QByteArray("wphi,final(x),status"));
    int rows = 0;
    while (header + 1 + rows < lines.size() && !lines[header + 1 + rows].startsWith('#')) {
      QVERIFY2(lines[header + 1 + rows].endsWith(",ok"), lines[header + 1 + rows].constData());
      ++rows;
    }
    QCOMPARE(lines[header + 1 + rows], QByteArray("# partial: ") + QByteArray::number(rows) +
                                           " of 1000000 runs (interrupted)");
    QVERIFY(rows > 100 && rows < 1000000);
    QCOMPARE(lines.size(), header + rows + 3);
    QCOMPARE(QDir(dir_.path()).entryList({".interrupted*"}, QDir::Hidden | QDir::Files).size(), 0);
#endif
  }
  void mpiRefusedWithoutMpi() {
#ifdef NH_HAVE_MPI
    QSKIP("this nhsim was built with MPI: --mpi runs");
#else
    const QString out = path("nompi.csv");
    const Result r = nh::test::runNhsim({"sweep", "rolling_disk", "--vary", "m=1:2:2", "--measure",
                                         "final(x)", "--mpi", "--out", out});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.startsWith("nhsim: error: this nhsim was built without MPI support") &&
                 r.err.count('\n') == 1,
             qPrintable(r.err));
    QVERIFY(!QFile::exists(out));
#endif
  }
};

QTEST_GUILESS_MAIN(SweepMpiTest)
#include "sweep_mpi_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
