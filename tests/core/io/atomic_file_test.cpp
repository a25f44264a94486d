// Whole-file writes (core/io/atomic_file): a regular file is replaced atomically and a failed
// write leaves it untouched; a symlink is written through; a device or FIFO is written
// directly and never replaced; errors name the file and the reason.
#include "core/io/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QtTest>
#include <string>
#include <thread>

#include "core/nh/errors.h"
#include "tests/support/file_contents.h"

using nhtest::entries;
using nhtest::readAll;

class AtomicFileTest : public QObject {
  Q_OBJECT

 private slots:
  void replacesARegularFileAndLeavesNoTemporary() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("a.txt").toStdString();
    nh::writeFileAtomically(path, "first");
    nh::writeFileAtomically(path, "second, longer");
    QCOMPARE(readAll(path), std::string("second, longer"));
    QCOMPARE(entries(dir.path()), QStringList{"a.txt"});
    struct stat st {};
    QCOMPARE(::stat(path.c_str(), &st), 0);
    const mode_t mask = ::umask(0);
    ::umask(mask);
    QCOMPARE(st.st_mode & 0777, 0666 & ~mask);  // as a plain create, not mkstemp's 0600
  }

  void failureLeavesTheOldFileAndNoTemporary() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("keep.txt").toStdString();
    nh::writeFileAtomically(path, "old");
    QVERIFY(::chmod(dir.path().toLocal8Bit().constData(), 0500) == 0);  // no new files
    bool threw = false;
    try {
      nh::writeFileAtomically(path, "new");
    } catch (const nh::Error& e) {
      threw = true;
      QVERIFY2(QString(e.what()).startsWith(QString::fromStdString("cannot write '" + path + "'")),
               e.what());
    }
    ::chmod(dir.path().toLocal8Bit().constData(), 0700);
    if (::geteuid() == 0 && !threw) QSKIP("root ignores directory permissions");
    QVERIFY(threw);
    QCOMPARE(readAll(path), std::string("old"));
    QCOMPARE(entries(dir.path()), QStringList{"keep.txt"});
  }

  void writesThroughASymlink() {
    QTemporaryDir dir;
    const std::string target = dir.filePath("target.txt").toStdString();
    const std::string link = dir.filePath("link.txt").toStdString();
    nh::writeFileAtomically(target, "old");
    QCOMPARE(::symlink("target.txt", link.c_str()), 0);
    nh::writeFileAtomically(link, "through the link");
    struct stat st {};
    QCOMPARE(::lstat(link.c_str(), &st), 0);
    QVERIFY(S_ISLNK(st.st_mode));
    QCOMPARE(readAll(target), std::string("through the link"));
  }

  // /dev/full: the device stays a device and ENOSPC is reported.
  void aFullDeviceIsReportedNotReplaced() {
    struct stat before {};
    if (::stat("/dev/full", &before) != 0) QSKIP("no /dev/full");
    try {
      nh::writeFileAtomically("/dev/full", "data");
      QFAIL("no error writing /dev/full");
    } catch (const nh::Error& e) {
      QVERIFY2(QString(e.what()).contains("No space left on device"), e.what());
    }
    struct stat after {};
    QCOMPARE(::stat("/dev/full", &after), 0);
    QVERIFY(S_ISCHR(after.st_mode));
  }

  void aFifoIsWrittenDirectly() {
    QTemporaryDir dir;
    const std::string fifo = dir.filePath("pipe").toStdString();
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    std::string received;
    std::thread reader([&] { received = readAll(fifo); });
    nh::writeFileAtomically(fifo, "through the pipe");
    reader.join();
    QCOMPARE(received, std::string("through the pipe"));
    struct stat st {};
    QCOMPARE(::stat(fifo.c_str(), &st), 0);
    QVERIFY(S_ISFIFO(st.st_mode));
  }

  void readRefusesWhatIsNotARegularFile() {
    QTemporaryDir dir;
    QVERIFY_THROWS_EXCEPTION(nh::InputError, nh::readRegularFile(dir.path().toStdString(), "x"));
    QVERIFY_THROWS_EXCEPTION(nh::InputError, nh::readRegularFile("/dev/zero", "x"));
    QVERIFY_THROWS_EXCEPTION(nh::InputError,
                             nh::readRegularFile(dir.filePath("none").toStdString(), "x"));
    const std::string path = dir.filePath("f").toStdString();
    nh::writeFileAtomically(path, std::string("a\0b", 3));
    QCOMPARE(nh::readRegularFile(path, "x"), std::string("a\0b", 3));
  }
};

QTEST_GUILESS_MAIN(AtomicFileTest)
#include "atomic_file_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
