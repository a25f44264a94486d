// Every writer of nhsim and nhsim export on special paths (core/io/atomic_output.h): a full
// device is an error (exit 1, one line) and stays a device; a symlink is written through and
// kept; and numbers in the CSV files keep the decimal point under a decimal-comma locale.
#include <sys/stat.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "nhsim_process.h"

namespace {

using Result = nh::test::ProcessResult;

using nh::test::headlessEnvironment;

bool isCharDevice(const char* path) {
  struct stat st {};
  return ::lstat(path, &st) == 0 && S_ISCHR(st.st_mode);
}

const QStringList kTiny = {"--width", "160", "--height", "120", "--fps", "10", "--t-end", "0.5"};

// Every line of a CSV has as many fields as its header, and every field reads as a number.
void checkCsv(const QString& path) {
  QFile f(path);
  QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(path));
  const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
  QVERIFY(lines.size() >= 2);
  const int columns = static_cast<int>(lines.front().split(',').size());
  for (int i = 1; i < lines.size(); ++i) {
    const QStringList fields = lines[i].split(',');
    QVERIFY2(fields.size() == columns, qPrintable(QString("row %1: %2 fields under a %3-column "
                                                          "header: %4")
                                                      .arg(i)
                                                      .arg(fields.size())
                                                      .arg(columns)
                                                      .arg(lines[i].left(200))));
    for (const QString& field : fields) {
      bool ok = false;
      field.toDouble(&ok);  // QString::toDouble is C-locale
      QVERIFY2(ok || field == "nan" || field == "inf" || field == "-inf",
               qPrintable("not a number: " + field));
    }
  }
}

}  // namespace

class OutputFilesTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void runOutToFullDevice() {
    const Result r = nh::test::runNhsim({"run", "ball_on_turntable", "--out", "/dev/full"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("No space left on device"), qPrintable(r.err));
    QVERIFY(isCharDevice("/dev/full"));
  }

  void saveScenarioToFullDevice() {
    const Result r = nh::test::runNhsim({"run", "ball_on_turntable", "--t-end", "0.1", "--out",
                                         dir_.filePath("s.csv"), "--save-scenario", "/dev/full"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("No space left on device"), qPrintable(r.err));
    QVERIFY(isCharDevice("/dev/full"));
  }

  // The run's CSV is complete or absent: no hidden temporary is left beside it.
  void runOutLeavesOnlyTheFile() {
    const QString folder = dir_.filePath("run");
    QVERIFY(QDir().mkpath(folder));
    const Result r = nh::test::runNhsim(
        {"run", "ball_on_turntable", "--t-end", "1", "--out", folder + "/run.csv", "--quiet"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QCOMPARE(QDir(folder).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
             QStringList{"run.csv"});
    checkCsv(folder + "/run.csv");
  }

  void exportCsvToFullDevice() {
    const QString folder = dir_.filePath("full");
    QVERIFY(QDir().mkpath(folder));
    const Result r = nh::test::runNhsim(QStringList{"export", "ball_on_turntable", "--video",
                                                    folder + "/clip.mp4", "--csv", "/dev/full"} +
                                            kTiny,
                                        headlessEnvironment());
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("No space left on device"), qPrintable(r.err));
    QVERIFY(isCharDevice("/dev/full"));
  }

  void exportVideoThroughSymlink() {
    const QString folder = dir_.filePath("link");
    QVERIFY(QDir().mkpath(folder + "/real"));
    const QString target = folder + "/real/clip.mp4";
    const QString link = folder + "/clip.mp4";
    QVERIFY(QFile::link("real/clip.mp4", link));
    const Result r = nh::test::runNhsim(
        QStringList{"export", "ball_on_turntable", "--video", link, "--no-scenario"} + kTiny,
        headlessEnvironment());
    QVERIFY2(r.code == 0, qPrintable(r.err));
    struct stat st {};
    QCOMPARE(::lstat(link.toLocal8Bit().constData(), &st), 0);
    QVERIFY2(S_ISLNK(st.st_mode), "the symlink was replaced");
    QVERIFY(QFileInfo(target).isFile());
    QVERIFY(QFileInfo(target).size() > 1000);
  }

  // --frames LINK, LINK a symlink to an empty folder (given with and without the trailing
  // slash): the frames go into that folder and LINK stays a link (the sequence was renamed
  // over the link, replacing it by a folder).
  void exportFramesThroughSymlink_data() {
    QTest::addColumn<QString>("suffix");
    QTest::newRow("LINK") << "";
    QTest::newRow("LINK/") << "/";
  }
  void exportFramesThroughSymlink() {
    QFETCH(QString, suffix);
    const QString folder = dir_.filePath(suffix.isEmpty() ? "frames_link" : "frames_link_slash");
    QVERIFY(QDir().mkpath(folder + "/real/frames"));
    const QString link = folder + "/frames";
    QVERIFY(QFile::link("real/frames", link));
    const Result r = nh::test::runNhsim(
        QStringList{"export", "ball_on_turntable", "--frames", link + suffix, "--no-scenario"} +
            kTiny,
        headlessEnvironment());
    QVERIFY2(r.code == 0, qPrintable(r.err));
    struct stat st {};
    QCOMPARE(::lstat(link.toLocal8Bit().constData(), &st), 0);
    QVERIFY2(S_ISLNK(st.st_mode), "the symlink was replaced");
    QCOMPARE(QDir(folder + "/real/frames").entryList({"*.png"}, QDir::Files).size(), 5);
    // No temporary left beside the link or beside the real folder.
    const auto entries = [](const QString& path) {
      return QDir(path).entryList(QDir::AllEntries | QDir::Hidden | QDir::System |
                                  QDir::NoDotAndDotDot);
    };
    QCOMPARE(entries(folder), (QStringList{"frames", "real"}));
    QCOMPARE(entries(folder + "/real"), QStringList{"frames"});
  }

  // Under de_DE.UTF-8, export --csv wrote decimal commas. The locale is generated
  // into a temporary folder (LOCPATH), so no root is needed.
  void csvUnderDecimalCommaLocale() {
    const QString localedef = QStandardPaths::findExecutable("localedef");
    if (localedef.isEmpty()) QSKIP("localedef is not installed: cannot generate de_DE");
    const QString locales = dir_.filePath("locales");
    QVERIFY(QDir().mkpath(locales));
    QProcess gen;
    gen.start(localedef, {"-i", "de_DE", "-f", "UTF-8", locales + "/de_DE.UTF-8"});
    QVERIFY(gen.waitForFinished(60000));
    if (!QFileInfo(locales + "/de_DE.UTF-8").isDir())
      QSKIP("localedef could not generate de_DE.UTF-8 (no locale sources)");
    QProcessEnvironment env = headlessEnvironment();
    env.insert("LOCPATH", locales);
    env.insert("LC_ALL", "de_DE.UTF-8");
    const QString folder = dir_.filePath("locale");
    QVERIFY(QDir().mkpath(folder));

    const Result run = nh::test::runNhsim(
        {"run", "ball_on_turntable", "--t-end", "0.5", "--out", folder + "/run.csv", "--quiet"},
        env);
    QVERIFY2(run.code == 0, qPrintable(run.err));
    checkCsv(folder + "/run.csv");

    const Result e =
        nh::test::runNhsim(QStringList{"export", "ball_on_turntable", "--video",
                                       folder + "/clip.gif", "--csv", folder + "/clip.csv"} +
                               kTiny,
                           env);
    QVERIFY2(e.code == 0, qPrintable(e.err));
    checkCsv(folder + "/clip.csv");
  }

 private:
  QTemporaryDir dir_;
};

QTEST_GUILESS_MAIN(OutputFilesTest)
#include "output_files_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
