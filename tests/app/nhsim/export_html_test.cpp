// `nhsim export --html` end to end, as a child process without DISPLAY: the page and its
// scenario are written, a lesson keeps its note, and the targets --video refuses are refused
// with the same message and exit code.
#include <sys/stat.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "nhsim_process.h"

namespace {

using Result = nh::test::ProcessResult;

Result nhsim(const QStringList& args) { return nh::test::runNhsimExport(args); }

QByteArray contentsOf(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace

class ExportHtmlTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  // A page and the scenario beside it; the summary names them.
  void writesThePage() {
    const QString page = dir_.filePath("turntable.html");
    const Result r = nhsim({"ball_on_turntable", "--html", page, "--t-end", "2"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("interactive page") && r.out.contains(page), qPrintable(r.out));
    const QByteArray html = contentsOf(page);
    QVERIFY(html.startsWith("<!DOCTYPE html>"));
    QVERIFY(html.contains("default-src 'none'"));
    QVERIFY(html.contains("\"system\":\"ball_on_turntable\""));
    QVERIFY(QFile::exists(page + ".json"));
  }

  // --live finds the wasm preset's engine beside the program (build/wasm/bin next to
  // build/<preset>/bin) with no NH_WEB_ENGINE_DIR and no application object.
  void liveFindsTheBuiltEngine() {
    QProcessEnvironment env = nh::test::headlessEnvironment();
    env.remove("NH_WEB_ENGINE_DIR");
    const QString page = dir_.filePath("live.html");
    const Result r = nh::test::runNhsim(
        {"export", "ball_on_turntable", "--html", page, "--live", "--t-end", "1", "--no-scenario"},
        env);
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("live interactive page"), qPrintable(r.out));
    QVERIFY(contentsOf(page).contains("'wasm-unsafe-eval'"));
  }

  // A lesson's title and note are on its page.
  void lessonKeepsItsNote() {
    const QString page = dir_.filePath("lesson.html");
    const Result r = nhsim({NH_EXAMPLES_DIR "/disk_circle.json", "--html", page, "--t-end", "1",
                            "--no-scenario", "--quiet"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QByteArray html = contentsOf(page);
    QVERIFY(html.contains("<title>Rolling disk on a circle</title>"));
    QVERIFY(html.contains("A vertical coin turning at 1 rad/s"));
  }

  // A device (through a link), a FIFO and a missing folder: the same line and exit code as
  // --video, nothing written; a directory is refused as a video file's name would be.
  void refusesWhatVideoRefuses() {
    const QDir folder(dir_.filePath("targets"));
    QVERIFY(QDir().mkpath(folder.path()));
    for (const char* suffix : {".html", ".gif"}) {
      QVERIFY(QFile::link("/dev/null", folder.filePath(QString("null") + suffix)));
      QCOMPARE(
          ::mkfifo(QFile::encodeName(folder.filePath(QString("pipe") + suffix)).constData(), 0600),
          0);
      QVERIFY(folder.mkdir(QString("dir") + suffix));
    }
    for (const QString& name : QStringList{"null", "pipe", "missing/page"}) {
      const Result page = nhsim({"rolling_disk", "--t-end", "1", "--no-scenario", "--html",
                                 folder.filePath(name + ".html")});
      const Result video = nhsim({"rolling_disk", "--t-end", "1", "--no-scenario", "--video",
                                  folder.filePath(name + ".gif")});
      QVERIFY2(page.code != 0 && page.code == video.code, qPrintable(page.err + video.err));
      QCOMPARE(page.err, QString(video.err).replace("a video", "a page").replace(".gif", ".html"));
    }
    const Result dir = nhsim({"rolling_disk", "--html", folder.filePath("dir.html")});
    QCOMPARE(dir.code, 1);
    QVERIFY2(dir.err.contains("it is a directory; choose a file name"), qPrintable(dir.err));
    QCOMPARE(QDir(folder.filePath("dir.html")).entryList(QDir::NoDotAndDotDot | QDir::AllEntries),
             QStringList());
  }

  // --html is one of the outputs: not together with --video.
  void oneOutput() {
    const Result r = nhsim(
        {"rolling_disk", "--html", dir_.filePath("a.html"), "--video", dir_.filePath("a.gif")});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("give one of --video, --frames, --html and --lessons, once"),
             qPrintable(r.err));
  }

  // --lessons DIR writes the bundled lessons as they are set up: a system or scenario, or an
  // option that changes or frames one run, is refused in one line (exit 2) before any work;
  // the form `--lessons DIR --html --live` parses, and a folder that is a file is
  // refused with what to give instead.
  void lessonsTakeNoTargetOrRunOptions() {
    const QString site = dir_.filePath("site");
    const QList<QStringList> refused = {
        {"ball_on_turntable", "--lessons", site},
        {"--lessons", site, "--set", "m=2"},
        {"--lessons", site, "--t-end", "3"},
        {"--lessons", site, "--no-scenario"},
        {"--lessons", "-"},
        {"--lessons", site, "--html", dir_.filePath("one.html")},
    };
    const QStringList expected = {
        "it takes no system or scenario",
        "--set does not apply to --lessons, which writes each lesson as it is set up; it takes "
        "--live and --quiet",
        "--t-end does not apply to --lessons",
        "--no-scenario does not apply to --lessons",
        "--lessons: standard output is not supported for this output; give a folder",
        "give one of --video, --frames, --html and --lessons, once",
    };
    for (qsizetype i = 0; i < refused.size(); ++i) {
      const Result r = nhsim(refused[i]);
      QCOMPARE(r.code, 2);
      QVERIFY2(r.err.trimmed().count('\n') == 0 && r.err.contains(expected[i]), qPrintable(r.err));
    }
    QVERIFY(!QFile::exists(site));
    QFile file(dir_.filePath("a-file"));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.close();
    const Result r = nhsim({"--lessons", file.fileName(), "--html", "--live"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains(file.fileName() + ": this is a file; give a folder"),
             qPrintable(r.err));
  }

  // --plot plots each variable once (x named 5000 times made an 82 MB page): the page is the
  // size of the one with x named once; more than 12 different variables, as a scenario's
  // plots.time_series allows, are refused in one line (exit 2) before any work.
  void plotSeriesAreDistinctAndCapped() {
    const QString once = dir_.filePath("once.html"), repeated = dir_.filePath("repeated.html");
    const QStringList base{"nh_particle", "--t-end", "1", "--no-scenario", "--quiet", "--html"};
    const Result a = nhsim(base + QStringList{once, "--plot", "x"});
    const Result b =
        nhsim(base + QStringList{repeated, "--plot", QStringList(5000, "x").join(',')});
    QVERIFY2(a.code == 0 && b.code == 0, qPrintable(a.err + b.err));
    const qsizetype sizeOnce = contentsOf(once).size(), sizeRepeated = contentsOf(repeated).size();
    QVERIFY2(sizeOnce > 0 && sizeRepeated < sizeOnce + 1000,
             qPrintable(QString("%1 %2").arg(sizeOnce).arg(sizeRepeated)));
    QStringList thirteen;
    for (int k = 1; k <= 13; ++k) thirteen << QString("v%1").arg(k);
    const Result c =
        nhsim(base + QStringList{dir_.filePath("c.html"), "--plot", thirteen.join(',')});
    QCOMPARE(c.code, 2);
    QVERIFY2(c.err.trimmed().count('\n') == 0 &&
                 c.err.contains("--plot names 13 different variables; at most 12"),
             qPrintable(c.err));
    QVERIFY(!QFile::exists(dir_.filePath("c.html")));
  }

 private:
  QTemporaryDir dir_;
};

QTEST_GUILESS_MAIN(ExportHtmlTest)
#include "export_html_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
