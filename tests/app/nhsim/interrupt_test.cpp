// Interrupting nhsim: SIGINT, SIGTERM or SIGHUP during `nhsim run … --out run.csv` keeps every
// row written so far, each complete, ends the file with a "# partial" line, commits it, says
// where it stopped and exits 128 + the signal; during `nhsim export` the hidden temporary is
// removed and the private Xvfb stopped.
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "nhsim_process.h"

namespace {

QStringList hiddenPartials(const QString& folder) {
  return QDir(folder).entryList(
      {".*.partial*"}, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
}

qint64 largestPartialSize(const QString& folder) {
  qint64 size = 0;
  for (const QString& name : hiddenPartials(folder))
    size = std::max(size, QFileInfo(folder + "/" + name).size());
  return size;
}

// Xvfb processes whose parent is `pid`.
QStringList xvfbChildrenOf(qint64 pid) {
  QStringList found;
  for (QDirIterator it("/proc", QDir::Dirs | QDir::NoDotAndDotDot); it.hasNext();) {
    const QString dir = it.next();
    QFile stat(dir + "/stat");
    if (!stat.open(QIODevice::ReadOnly)) continue;
    const QString text = QString::fromUtf8(stat.readAll());
    const int close = text.lastIndexOf(')');
    if (close < 0) continue;
    const QString name = text.mid(text.indexOf('(') + 1, close - text.indexOf('(') - 1);
    const QStringList rest = text.mid(close + 2).split(' ');
    if (rest.size() > 1 && name.startsWith("Xvfb") && rest[1].toLongLong() == pid) found << dir;
  }
  return found;
}

}  // namespace

class InterruptTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void runKeepsCompleteRows_data() {
    QTest::addColumn<int>("signal");
    QTest::addColumn<int>("code");
    QTest::newRow("SIGINT") << SIGINT << 130;
    QTest::newRow("SIGTERM") << SIGTERM << 143;
    QTest::newRow("SIGHUP") << SIGHUP << 129;
  }
  void runKeepsCompleteRows() {
    QFETCH(int, signal);
    QFETCH(int, code);
    const QString folder = dir_.filePath(QString("run%1").arg(signal));
    QVERIFY(QDir().mkpath(folder));
    const QString out = folder + "/run.csv";
    QProcess p;
    nh::test::startNhsim(p, {"run", "rigid_body", "--t-end", "1e4", "--out", out});
    QVERIFY(p.waitForStarted());
    // Wait for rows in the hidden temporary (more than one stdio buffer).
    QElapsedTimer timer;
    timer.start();
    while (largestPartialSize(folder) < 20000 && timer.elapsed() < 60000) QTest::qWait(20);
    QVERIFY2(largestPartialSize(folder) >= 20000, "no rows were written");
    QCOMPARE(::kill(static_cast<pid_t>(p.processId()), signal), 0);
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), code);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(err.contains("nhsim: interrupted at t = ") && err.contains("rows kept in " + out),
             qPrintable(err));

    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray data = f.readAll();
    QVERIFY(data.endsWith('\n'));
    const QList<QByteArray> lines = data.split('\n');
    const qsizetype columns = lines.front().split(',').size();
    // The file says that it is cut short: its last line is the "# partial" marker.
    QVERIFY(lines.size() >= 3);
    const QByteArray marker = lines[lines.size() - 2];
    QVERIFY2(marker.startsWith("# partial: interrupted at t = ") &&
                 marker.contains(QByteArray("by signal ") + QByteArray::number(signal)),
             marker.constData());
    qsizetype rows = 0;
    for (qsizetype i = 1; i < lines.size() - 2; ++i, ++rows)
      QVERIFY2(lines[i].split(',').size() == columns,
               qPrintable(QString("row %1 is cut: %2").arg(i).arg(QString(lines[i]))));
    QVERIFY2(err.contains(QString("(%1 rows kept").arg(rows)), qPrintable(err));
    QVERIFY(hiddenPartials(folder).isEmpty());
  }

  // Signals nhsim does not stop on gracefully still end it without a hidden temporary; an
  // earlier complete file stays as it was.
  // A motion too fast for its time span (the ball spun at 1e16 rad/s by vx = 1e15) delivers no
  // row for a long time: a stop signal still ends it at once (it was ignored, and the run went
  // on for hours), and with a step budget it ends by itself with the budget's message (the
  // reconstruction's pieces count against it).
  void aRunWithoutRowsStillStopsAndKeepsItsBudget() {
    const QString out = dir_.filePath("fast.csv");
    QProcess p;
    nh::test::startNhsim(p, {"run", "ball_on_turntable", "--init", "vx=1e15", "--out", out});
    QVERIFY(p.waitForStarted());
    // Its output's hidden temporary exists once the run is set up; the signal handlers are
    // installed right after it.
    QTRY_VERIFY_WITH_TIMEOUT(!hiddenPartials(dir_.path()).isEmpty(), 30000);
    QTest::qWait(500);
    QElapsedTimer clock;
    clock.start();
    ::kill(static_cast<pid_t>(p.processId()), SIGTERM);
    const bool ended = p.waitForFinished(10000);
    if (!ended) p.kill();
    QVERIFY2(ended, "SIGTERM did not end the run");
    QVERIFY(clock.elapsed() < 5000);
    QCOMPARE(p.exitCode(), 143);
    const nh::test::ProcessResult budget = nh::test::runNhsim(
        {"run", "ball_on_turntable", "--init", "vx=1e15", "--max-steps", "20000", "--out", out},
        QProcessEnvironment::systemEnvironment(), 60000);
    QCOMPARE(budget.code, 3);
    QVERIFY2(budget.err.contains("needs more than 20000 steps"), qPrintable(budget.err));
  }

  void fatalSignalsLeaveNoTemporary_data() {
    QTest::addColumn<int>("signal");
    QTest::newRow("SIGUSR1") << SIGUSR1;
    QTest::newRow("SIGUSR2") << SIGUSR2;
    QTest::newRow("SIGPIPE") << SIGPIPE;
    QTest::newRow("SIGALRM") << SIGALRM;
  }
  void fatalSignalsLeaveNoTemporary() {
    QFETCH(int, signal);
    const QString folder = dir_.filePath(QString("fatal%1").arg(signal));
    QVERIFY(QDir().mkpath(folder));
    const QString out = folder + "/run.csv";
    {
      QFile old(out);
      QVERIFY(old.open(QIODevice::WriteOnly));
      old.write("t,x\n0,1\n");
    }
    QProcess p;
    nh::test::startNhsim(p, {"run", "rigid_body", "--t-end", "1e4", "--out", out});
    QVERIFY(p.waitForStarted());
    QElapsedTimer timer;
    timer.start();
    while (largestPartialSize(folder) < 20000 && timer.elapsed() < 60000) QTest::qWait(20);
    QVERIFY2(largestPartialSize(folder) >= 20000, "no rows were written");
    QCOMPARE(::kill(static_cast<pid_t>(p.processId()), signal), 0);
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitStatus(), QProcess::CrashExit);  // ended by the signal itself
    QVERIFY2(hiddenPartials(folder).isEmpty(), qPrintable(hiddenPartials(folder).join(' ')));
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray("t,x\n0,1\n"));
  }

  // A FIFO that nobody reads is refused after a short wait, not waited on for ever; one with
  // a reader gets every row.
  void fifoWithoutReaderIsRefused() {
    const QString fifo = dir_.filePath("out.fifo");
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    QElapsedTimer timer;
    timer.start();
    const nh::test::ProcessResult r =
        nh::test::runNhsim({"run", "nh_particle", "--t-end", "0.1", "--out", fifo},
                           QProcessEnvironment::systemEnvironment(), 60000);
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("no process opened this FIFO for reading within 5 s"),
             qPrintable(r.err));
    QVERIFY(timer.elapsed() < 30000);
    QProcess p;
    nh::test::startNhsim(p, {"run", "nh_particle", "--t-end", "0.1", "--out", fifo, "--quiet"});
    QVERIFY(p.waitForStarted());
    QTest::qWait(500);  // the reader comes after the writer
    QFile reader(fifo);
    QVERIFY(reader.open(QIODevice::ReadOnly));
    const QByteArray rows = reader.readAll();
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitCode(), 0);
    QCOMPARE(rows.count('\n'), 12);  // the header and t = 0, 0.01, …, 0.1
  }

  // optimize: SIGINT, SIGTERM or SIGHUP during the solve end it at once (it had no handler
  // and died by the signal): a message, 128 + the signal, no hidden temporary, no CSV (its
  // output is opened before the solve, so the temporary is there to be removed).
  void optimizeEndsTheOneWay_data() { runKeepsCompleteRows_data(); }
  void optimizeEndsTheOneWay() {
    QFETCH(int, signal);
    QFETCH(int, code);
    const QString folder = dir_.filePath(QString("optimize%1").arg(signal));
    QVERIFY(QDir().mkpath(folder));
    const QString out = folder + "/path.csv";
    QProcess p;
    nh::test::startNhsim(p, {"optimize", "nh_particle", "--t-end", "1", "--target", "x=1",
                             "--target", "z=100", "--starts", "10000", "--out", out});
    QVERIFY(p.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(!hiddenPartials(folder).isEmpty(), 30000);
    QTest::qWait(300);
    QCOMPARE(::kill(static_cast<pid_t>(p.processId()), signal), 0);
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), code);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(err.contains(QString("nhsim: interrupted by signal %1 (").arg(signal)) &&
                 err.contains("'" + out + "' was not written"),
             qPrintable(err));
    QVERIFY2(hiddenPartials(folder).isEmpty(), qPrintable(hiddenPartials(folder).join(' ')));
    QVERIFY(!QFileInfo::exists(out));
  }

  // A command that prints (linearize over a long sweep; it died by the signal): the same
  // message and exit code.
  void printingCommandEndsTheOneWay() {
    QProcess p;
    nh::test::startNhsim(p, {"linearize", "nh_particle", "--sweep", "m=1:2:1000000"});
    QVERIFY(p.waitForStarted());
    QTest::qWait(1000);  // sweeping (it prints once every point is linearised)
    QCOMPARE(p.state(), QProcess::Running);
    QCOMPARE(::kill(static_cast<pid_t>(p.processId()), SIGHUP), 0);
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 129);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(err.contains("nhsim: interrupted by signal 1 (SIGHUP)\n"), qPrintable(err));
  }

  // export --html: the page is all or nothing; a stop signal during its run ends it with the
  // message and the code --video gives (it died by the signal, its temporary left behind).
  void pageExportEndsTheOneWay() {
#ifndef NH_HAVE_EXPORT
    QSKIP("nhsim-export is built with the GUI only (not in the sanitizer presets)");
#endif
    const QString folder = dir_.filePath("page");
    QVERIFY(QDir().mkpath(folder));
    const QString page = folder + "/page.html";
    QProcess p;
    nh::test::startNhsim(
        p, {"export", "ball_on_turntable", "--html", page, "--t-end", "20000", "--speed", "400"},
        nh::test::headlessEnvironment());
    QVERIFY(p.waitForStarted());
    // The page's temporary is made before the run.
    QTRY_VERIFY_WITH_TIMEOUT(!hiddenPartials(folder).isEmpty(), 60000);
    QTest::qWait(300);
    QCOMPARE(::kill(static_cast<pid_t>(p.processId()), SIGTERM), 0);
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 143);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(
        err.contains("nhsim: interrupted by signal 15 (SIGTERM); '" + page + "' was not written"),
        qPrintable(err));
    QVERIFY2(hiddenPartials(folder).isEmpty(), qPrintable(hiddenPartials(folder).join(' ')));
    QVERIFY(!QFileInfo::exists(page));
    QVERIFY(!QFileInfo::exists(page + ".json"));
  }

  // A writer killed outright (SIGKILL) leaves its hidden temporary; the next write of the
  // same output removes it. A live writer's temporary (locked) and another output's stay.
  void staleTemporaryIsRemovedByTheNextWrite() {
    const QString folder = dir_.filePath("stale");
    QVERIFY(QDir().mkpath(folder));
    const QString out = folder + "/run.csv";
    {
      QProcess killed;
      nh::test::startNhsim(killed, {"run", "rigid_body", "--t-end", "1e4", "--out", out});
      QVERIFY(killed.waitForStarted());
      QTRY_VERIFY_WITH_TIMEOUT(largestPartialSize(folder) >= 20000, 60000);
      killed.kill();
      QVERIFY(killed.waitForFinished(30000));
    }
    QCOMPARE(hiddenPartials(folder).size(), 1);
    const QString stale = hiddenPartials(folder).front();
    const QString otherName = ".other.csv.AbC123.partial";
    QFile other(folder + "/" + otherName);
    QVERIFY(other.open(QIODevice::WriteOnly));
    other.close();
    QProcess live;
    nh::test::startNhsim(live, {"run", "rigid_body", "--t-end", "1e4", "--out", out});
    QVERIFY(live.waitForStarted());
    auto liveName = [&] {
      for (const QString& name : hiddenPartials(folder))
        if (name != stale && name != otherName) return name;
      return QString();
    };
    QTRY_VERIFY_WITH_TIMEOUT(!liveName().isEmpty(), 30000);
    const QString running = liveName();
    QTest::qWait(2500);  // every temporary older than a writer's fresh one
    const nh::test::ProcessResult next =
        nh::test::runNhsim({"run", "nh_particle", "--t-end", "0.1", "--quiet", "--out", out});
    QCOMPARE(next.code, 0);
    QStringList left = hiddenPartials(folder);
    left.sort();
    QStringList kept{running, otherName};
    kept.sort();
    QCOMPARE(left, kept);  // the killed writer's is gone; the live one's and the other's stay
    QCOMPARE(::kill(static_cast<pid_t>(live.processId()), SIGINT), 0);
    QVERIFY(live.waitForFinished(30000));
    QCOMPARE(live.exitCode(), 130);
    QCOMPARE(hiddenPartials(folder), QStringList{otherName});
  }

  // SIGINT after the first frames of a long clip: no ".*.partial*" left, no Xvfb child left.
  void exportRemovesItsTemporaryAndXvfb() {
#ifndef NH_HAVE_EXPORT
    QSKIP("nhsim-export is built with the GUI only (not in the sanitizer presets)");
#endif
    const QString folder = dir_.filePath("export");
    QVERIFY(QDir().mkpath(folder));
    QProcess p;
    nh::test::startNhsim(p,
                         {"export", "ball_on_turntable", "--video", folder + "/clip.mp4", "--width",
                          "160", "--height", "120", "--t-end", "30"},
                         nh::test::headlessEnvironment());
    QVERIFY(p.waitForStarted());
    QElapsedTimer timer;
    timer.start();
    // The encoder's temporary appears once frames are being written.
    while (largestPartialSize(folder) == 0 && timer.elapsed() < 120000) QTest::qWait(50);
    QVERIFY2(largestPartialSize(folder) > 0, "the export wrote no frame");
    const QStringList xvfb = xvfbChildrenOf(p.processId());  // the private display
    QVERIFY(!xvfb.isEmpty());
    const qint64 pid = p.processId();
    QCOMPARE(::kill(static_cast<pid_t>(pid), SIGINT), 0);
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 130);
    QVERIFY2(hiddenPartials(folder).isEmpty(), qPrintable(hiddenPartials(folder).join(' ')));
    QVERIFY(!QFileInfo::exists(folder + "/clip.mp4"));
    QVERIFY(!QFileInfo::exists(folder + "/clip.mp4.json"));
    // An Xvfb left behind would now belong to init: check its /proc entry instead.
    for (const QString& process : xvfb) QTRY_VERIFY_WITH_TIMEOUT(!QFileInfo::exists(process), 5000);
  }

 private:
  QTemporaryDir dir_;
};

QTEST_GUILESS_MAIN(InterruptTest)
#include "interrupt_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
