// AtomicOutput (core/io/atomic_output): one decision per path — "-" is stdout, a regular or
// new file goes through a hidden temporary renamed on commit, a device, FIFO or socket is
// written in place, a symlink is written through; write errors (ENOSPC, EFBIG) are reported
// and leave no temporary; the registry lets a signal handler remove live temporaries.
#include "core/io/atomic_output.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QtTest>
#include <array>
#include <ctime>
#include <string>
#include <thread>

#include "core/nh/errors.h"
#include "tests/support/file_contents.h"

using nhtest::entries;
using nhtest::readAll;

class AtomicOutputTest : public QObject {
  Q_OBJECT

 private slots:
  void decidesOncePerKindOfPath() {
    QCOMPARE(nh::outputTargetFor("-").kind, nh::OutputTarget::Kind::Stdout);
    QCOMPARE(nh::outputTargetFor("/dev/null").kind, nh::OutputTarget::Kind::Direct);
    QTemporaryDir dir;
    QCOMPARE(nh::outputTargetFor(dir.filePath("new.csv").toStdString()).kind,
             nh::OutputTarget::Kind::Replace);
    QVERIFY_THROWS_EXCEPTION(nh::Error, nh::outputTargetFor(dir.path().toStdString()));
  }

  void theTargetAppearsOnlyOnCommit() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("run.csv").toStdString();
    nh::AtomicOutput out(path);
    out.write(std::string("t,x\n0,1\n"));
    std::fflush(out.file());
    QVERIFY(!QFileInfo::exists(QString::fromStdString(path)));
    QCOMPARE(entries(dir.path()).size(), 1);
    QVERIFY(entries(dir.path()).front().startsWith(".run.csv."));
    QVERIFY(entries(dir.path()).front().endsWith(".partial"));
    out.commit();
    QCOMPARE(readAll(path), std::string("t,x\n0,1\n"));
    QCOMPARE(entries(dir.path()), QStringList{"run.csv"});
  }

  void abortKeepsTheOldFile() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("keep.csv").toStdString();
    nh::writeOutputFile(path, "old");
    {
      nh::AtomicOutput out(path);
      out.write(std::string("new, never committed"));
    }  // the destructor aborts
    QCOMPARE(readAll(path), std::string("old"));
    QCOMPARE(entries(dir.path()), QStringList{"keep.csv"});
  }

  void fullDeviceIsAnErrorAndStaysADevice() {
    bool threw = false;
    try {
      nh::AtomicOutput out("/dev/full");
      out.write(std::string(100000, 'x'));  // more than stdio buffers: fails in write()
      out.commit();
    } catch (const nh::Error& e) {
      threw = true;
      QVERIFY2(QString(e.what()).contains("No space left on device"), e.what());
    }
    QVERIFY(threw);
  }

  void fullDeviceSmallWriteFailsAtCommit() {
    nh::AtomicOutput out("/dev/full");
    out.write(std::string("t,x\n"));
    QVERIFY_THROWS_EXCEPTION(nh::Error, out.commit());
    struct stat st {};
    QCOMPARE(::stat("/dev/full", &st), 0);
    QVERIFY(S_ISCHR(st.st_mode));
  }

  void fifoWithAReaderIsWrittenThroughAndStaysAFifo() {
    QTemporaryDir dir;
    const std::string fifo = dir.filePath("pipe").toStdString();
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    std::string received;
    std::thread reader([&] { received = readAll(fifo); });
    nh::AtomicOutput out(fifo);
    out.write(std::string("through the pipe"));
    out.commit();
    reader.join();
    QCOMPARE(received, std::string("through the pipe"));
    struct stat st {};
    QCOMPARE(::lstat(fifo.c_str(), &st), 0);
    QVERIFY(S_ISFIFO(st.st_mode));
    QCOMPARE(entries(dir.path()), QStringList{"pipe"});
  }

  void symlinkIsKeptAndItsTargetWritten() {
    QTemporaryDir dir;
    const std::string target = dir.filePath("target.csv").toStdString();
    const std::string link = dir.filePath("link.csv").toStdString();
    nh::writeOutputFile(target, "old");
    QCOMPARE(::symlink("target.csv", link.c_str()), 0);
    nh::AtomicOutput out(link);
    out.write(std::string("new"));
    out.commit();
    struct stat st {};
    QCOMPARE(::lstat(link.c_str(), &st), 0);
    QVERIFY(S_ISLNK(st.st_mode));
    QCOMPARE(readAll(target), std::string("new"));
    QCOMPARE(entries(dir.path()), (QStringList{"link.csv", "target.csv"}));
  }

  void readOnlyFolderIsAClearErrorAndLeavesNothing() {
    if (::geteuid() == 0) QSKIP("runs as root here: root may create files in a read-only folder");
    QTemporaryDir dir;
    QVERIFY(::chmod(dir.path().toLocal8Bit().constData(), 0500) == 0);
    const std::string path = dir.filePath("x.csv").toStdString();
    try {
      nh::AtomicOutput out(path);
      QFAIL("opened a file in a read-only folder");
    } catch (const nh::Error& e) {
      QVERIFY2(QString(e.what()).contains("Permission denied"), e.what());
    }
    ::chmod(dir.path().toLocal8Bit().constData(), 0700);
    QVERIFY(entries(dir.path()).isEmpty());
  }

  // A short write (the file-size limit reached part-way) in a child process: the error is
  // reported and neither the target nor the temporary is left.
  void shortWriteIsReportedAndLeavesNothing() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("big.csv").toStdString();
    const pid_t child = ::fork();
    QVERIFY(child >= 0);
    if (child == 0) {
      ::signal(SIGXFSZ, SIG_IGN);
      const rlimit limit{10000, 10000};
      ::setrlimit(RLIMIT_FSIZE, &limit);
      try {
        nh::AtomicOutput out(path);
        out.write(std::string(50000, 'x'));
        out.commit();
      } catch (const nh::Error& e) {
        ::_exit(std::string(e.what()).find("File too large") != std::string::npos ? 7 : 8);
      }
      ::_exit(0);
    }
    int status = 0;
    QCOMPARE(::waitpid(child, &status, 0), child);
    QVERIFY(WIFEXITED(status));
    QCOMPARE(WEXITSTATUS(status), 7);
    QVERIFY(entries(dir.path()).isEmpty());
  }

  void registryRemovesLiveTemporaries() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("live.csv").toStdString();
    nh::AtomicOutput out(path);
    out.write(std::string("rows"));
    QCOMPARE(entries(dir.path()).size(), 1);
    nh::removeLiveTemporaries();  // what a signal handler calls
    QVERIFY(entries(dir.path()).isEmpty());
    out.abort();
  }

  // A temporary that a writer killed outright left (unlocked, not fresh) is removed when the
  // same output is written next; a live writer's (locked), a fresh one, another output's and
  // a file that only looks alike stay.
  void staleTemporariesOfTheSameOutputAreRemoved() {
    QTemporaryDir dir;
    // Last written a minute ago (a killed writer's temporary is not touched any more).
    auto age = [](const std::string& file) {
      const timespec minuteAgo{std::time(nullptr) - 60, 0};
      const std::array<timespec, 2> times{minuteAgo, minuteAgo};
      return ::utimensat(AT_FDCWD, file.c_str(), times.data(), 0) == 0;
    };
    auto make = [&](const QString& name, bool old) {
      QFile f(dir.filePath(name));
      if (!f.open(QIODevice::WriteOnly)) return false;
      f.close();
      return !old || age(dir.filePath(name).toStdString());
    };
    QVERIFY(make(".run.csv.Stale1.partial", true));
    QVERIFY(make(".run.csv.Fresh1.partial", false));
    QVERIFY(make(".other.csv.Stale2.partial", true));
    QVERIFY(make(".run.csv.not-six.partial", true));
    // A live writer of run.csv holds its temporary's lock, however old its last write.
    nh::AtomicOutput live(dir.filePath("run.csv").toStdString());
    live.write(std::string("rows"));
    std::fflush(live.file());
    QVERIFY(age(live.temporaryPath()));
    const QString liveName = QFileInfo(QString::fromStdString(live.temporaryPath())).fileName();
    nh::writeOutputFile(dir.filePath("run.csv").toStdString(), "t\n0\n");
    QStringList expected{".run.csv.Fresh1.partial", ".other.csv.Stale2.partial",
                         ".run.csv.not-six.partial", liveName, "run.csv"};
    QStringList left = entries(dir.path());
    expected.sort();
    left.sort();
    QCOMPARE(left, expected);
    live.abort();
  }
};

QTEST_GUILESS_MAIN(AtomicOutputTest)
#include "atomic_output_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
