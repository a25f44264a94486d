// `nhsim export` end to end, run as a child process with DISPLAY (and WAYLAND_DISPLAY) removed
// from its environment: every export here goes through the private Xvfb (headless path).
// Clips are short (2 s at 15 fps, 320×240) to keep the suite near half a minute.
//
// Frame-count rule checked here (animation_exporter.h): N = round((tEnd − tStart)·fps/speed),
// frame i shows t = tStart + i·speed/fps, and the video lasts N/fps seconds.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

#include "core/io/scenario_file.h"
#include "core/nh/scenario.h"
#include "nhsim_process.h"
#include "ui/export/media/video_probe.h"

namespace {

using Result = nh::test::ProcessResult;

// Every export runs without DISPLAY and WAYLAND_DISPLAY: the headless path.
Result nhsim(const QStringList& args) { return nh::test::runNhsimExport(args); }

QStringList entriesOf(const QString& folder) {
  return QDir(folder).entryList(
      QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
}

// Share of pixels close to the ball's red checker colour (236, 84, 62), as rendered and lit.
double ballRedShare(const nh::RgbImage& image) {
  long hits = 0;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) {
      const std::uint8_t* p = image.row(y) + 3 * x;
      if (p[0] > 150 && p[1] < 110 && p[2] < 100 && p[0] > p[1] + 80) ++hits;
    }
  return static_cast<double>(hits) / (image.width * image.height);
}

double channelVariance(const nh::RgbImage& image) {
  double sum = 0, sum2 = 0;
  for (std::uint8_t v : image.pixels) {
    sum += v;
    sum2 += double(v) * v;
  }
  const double n = static_cast<double>(image.pixels.size());
  return sum2 / n - (sum / n) * (sum / n);
}

double meanAbsDiff(const nh::RgbImage& a, const nh::RgbImage& b) {
  if (a.pixels.size() != b.pixels.size()) return -1;
  double s = 0;
  for (size_t i = 0; i < a.pixels.size(); ++i) s += std::abs(a.pixels[i] - b.pixels[i]);
  return s / a.pixels.size();
}

const QStringList kSmall = {"--width", "320", "--height", "240", "--fps", "15", "--t-end", "2"};

}  // namespace

class ExportCliTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  // MP4, GIF and WebM decode with the expected frame count, size and duration; nothing but the
  // clip and its scenario is left in the folder; the scenario reads back; a frame shows the scene.
  void videoFormats_data() {
    QTest::addColumn<QString>("suffix");
    QTest::addColumn<QString>("codec");
    QTest::newRow("mp4") << "mp4"
                         << "h264";
    QTest::newRow("gif") << "gif"
                         << "gif";
    QTest::newRow("webm") << "webm"
                          << "vp9";
  }
  void videoFormats() {
    QFETCH(QString, suffix);
    QFETCH(QString, codec);
    const QString folder = dir_.filePath("formats_" + suffix);
    QVERIFY(QDir().mkpath(folder));
    const QString clip = folder + "/clip." + suffix;
    const Result r = nhsim(QStringList{"ball_on_turntable", "--video", clip} + kSmall);
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("30 frames"), qPrintable(r.out));
    QStringList expected{"clip." + suffix, "clip." + suffix + ".json"};
    expected.sort();
    QCOMPARE(entriesOf(folder), expected);

    const nh::VideoInfo info = nh::probeVideo(clip.toStdString());
    QCOMPARE(QString::fromStdString(info.codecName), codec);
    QCOMPARE(info.frameCount, 30);  // round(2 s · 15 fps / speed 1)
    QCOMPARE(info.width, 320);
    QCOMPARE(info.height, 240);
    // GIF delays are whole centiseconds (6 or 7 for 15 fps): within one frame of 2 s.
    QVERIFY2(std::abs(info.durationSeconds - 2.0) < 1.0 / 15,
             qPrintable(QString("duration %1 s").arg(info.durationSeconds)));

    const nh::Scenario s =
        nh::readScenarioFile((folder + "/clip." + suffix + ".json").toStdString());
    QCOMPARE(QString::fromStdString(s.system), QString("ball_on_turntable"));
    QVERIFY(std::abs(s.tEnd - 2.0) < 1e-12);
    QVERIFY(s.parameters.count("Omega0") == 1);  // every parameter spelled out

    // The scene is there: structure (variance of the channels) and the ball's red.
    const nh::RgbImage frame = nh::decodeVideoFrame(clip.toStdString(), 15);
    QVERIFY2(channelVariance(frame) > 200, qPrintable(QString::number(channelVariance(frame))));
    QVERIFY2(ballRedShare(frame) > 0.002, qPrintable(QString::number(ballRedShare(frame))));
    // And it moves: the first and last frames differ clearly.
    const double change = meanAbsDiff(nh::decodeVideoFrame(clip.toStdString(), 0),
                                      nh::decodeVideoFrame(clip.toStdString(), 29));
    QVERIFY2(change > 0.5, qPrintable(QString::number(change)));
  }

  // A PNG sequence: exactly frame_000000.png … frame_(N−1).png, the scenario beside the folder.
  void pngSequence() {
    const QString frames = dir_.filePath("seq/frames");
    QVERIFY(QDir().mkpath(dir_.filePath("seq")));
    const Result r = nhsim(QStringList{"chaplygin_sleigh", "--frames", frames} + kSmall);
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QStringList expected;
    for (int i = 0; i < 30; ++i) expected << QString("frame_%1.png").arg(i, 6, 10, QChar('0'));
    QCOMPARE(entriesOf(frames), expected);
    QCOMPARE(entriesOf(dir_.filePath("seq")), (QStringList{"frames", "frames.json"}));
    const nh::VideoInfo info = nh::probeVideo(frames.toStdString(), 15);
    QCOMPARE(info.frameCount, 30);
    QCOMPARE(info.width, 320);
  }

  // --theme light draws the light theme's sky where the default, dark, draws the dark one.
  void theme() {
    double top[2] = {0, 0};
    for (const bool light : {false, true}) {
      const QString clip = dir_.filePath(light ? "light.gif" : "dark.gif");
      QStringList args{
          "ball_on_turntable", "--video", clip, "--width", "160", "--height", "90", "--fps", "5",
          "--t-end",           "0.4"};
      if (light)
        args << "--theme"
             << "light";
      const Result r = nhsim(args);
      QVERIFY2(r.code == 0, qPrintable(r.err));
      const nh::RgbImage frame = nh::decodeVideoFrame(clip.toStdString(), 0);
      double sum = 0;
      for (int x = 100; x < 150; ++x)
        for (int c = 0; c < 3; ++c) sum += frame.row(1)[3 * x + c];
      top[light] = sum / 150;
    }
    QVERIFY2(top[1] > 220 && top[0] < 150, qPrintable(QString("%1 %2").arg(top[0]).arg(top[1])));
  }

  // The frame-count rule with a start time, slow motion and time-lapse (rounding half up).
  void frameCountRule_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("frames");
    QTest::newRow("slow motion") << QStringList{"--t-start", "1",   "--t-end", "1.5",
                                                "--speed",   "0.5", "--fps",   "10"}
                                 << 10;
    QTest::newRow("time-lapse") << QStringList{"--t-end", "3", "--speed", "4", "--fps", "10"}
                                << 8;  // 7.5 → 8
    QTest::newRow("off grid") << QStringList{"--t-start", "0.33", "--t-end", "0.93", "--fps", "12"}
                              << 7;  // 7.2
  }
  void frameCountRule() {
    QFETCH(QStringList, args);
    QFETCH(int, frames);
    const QString out = dir_.filePath("rule_" + QString(QTest::currentDataTag()).replace(' ', '_'));
    const Result r = nhsim(QStringList{"rolling_disk", "--frames", out, "--width", "64", "--height",
                                       "48", "--no-overlay"} +
                           args);
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QCOMPARE(entriesOf(out).size(), frames);
  }

  // Same scenario twice: identical decoded frames (and identical files).
  void deterministic() {
    const QString a = dir_.filePath("det_a.mp4"), b = dir_.filePath("det_b.mp4");
    const QStringList args = QStringList{"--set", "Omega0=2", "--init", "vy=0.3"} + kSmall;
    QCOMPARE(nhsim(QStringList{"ball_on_turntable", "--video", a} + args).code, 0);
    QCOMPARE(nhsim(QStringList{"ball_on_turntable", "--video", b} + args).code, 0);
    std::vector<nh::RgbImage> first;
    nh::forEachVideoFrame(a.toStdString(), [&](int, const nh::RgbImage& f) {
      first.push_back(f);
      return true;
    });
    QCOMPARE(static_cast<int>(first.size()), 30);
    int compared = 0;
    nh::forEachVideoFrame(b.toStdString(), [&](int i, const nh::RgbImage& f) {
      if (i < static_cast<int>(first.size()) && f.pixels == first[i].pixels) ++compared;
      return true;
    });
    QCOMPARE(compared, 30);
    QFile fa(a), fb(b);
    QVERIFY(fa.open(QIODevice::ReadOnly) && fb.open(QIODevice::ReadOnly));
    QVERIFY(fa.readAll() == fb.readAll());
  }

  // Unwritable targets: exit code 1, one clear line, nothing written.
  void unwritableTarget() {
    Result r = nhsim(
        QStringList{"ball_on_turntable", "--video", dir_.filePath("missing/clip.mp4")} + kSmall);
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.startsWith("nhsim: error: ") && r.err.trimmed().count('\n') == 0,
             qPrintable(r.err));
    QVERIFY2(r.err.contains("missing"), qPrintable(r.err));
    QVERIFY(!QFileInfo::exists(dir_.filePath("missing")));

    QFile plain(dir_.filePath("plain"));
    QVERIFY(plain.open(QIODevice::WriteOnly));
    plain.close();
    r = nhsim(QStringList{"ball_on_turntable", "--video", dir_.filePath("plain/clip.gif")} +
              kSmall);
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.startsWith("nhsim: error: ") && r.err.contains("plain"), qPrintable(r.err));
  }

  // Bad values: exit code 2 with one line naming the problem, before anything is rendered.
  void badInput_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("mentions");
    const QString clip = "unused.mp4";
    QTest::newRow("too wide") << QStringList{"--video", clip, "--width", "4000"} << "1920";
    QTest::newRow("fps") << QStringList{"--video", clip, "--fps", "0"} << "fps";
    QTest::newRow("speed") << QStringList{"--video", clip, "--speed", "-1"} << "speed";
    QTest::newRow("span") << QStringList{"--video", clip, "--t-start", "5", "--t-end", "2"}
                          << "start time";
    QTest::newRow("odd mp4") << QStringList{"--video", clip, "--width", "321"} << "even";
    QTest::newRow("gif fps") << QStringList{"--video", "x.gif", "--fps", "60"} << "50";
    QTest::newRow("format") << QStringList{"--video", "x.avi"} << ".mp4";
    QTest::newRow("no output") << QStringList{"--fps", "10"} << "--video";
    QTest::newRow("parameter") << QStringList{"--video", clip, "--set", "nope=1"} << "nope";
    QTest::newRow("option") << QStringList{"--video", clip, "--colour", "red"} << "--colour";
    QTest::newRow("plot variable") << QStringList{"--video", clip, "--plot", "nope"} << "nope";
    QTest::newRow("theme") << QStringList{"--video", clip, "--theme", "blue"}
                           << "--theme: expected dark or light, got 'blue'";
  }
  void badInput() {
    QFETCH(QStringList, args);
    QFETCH(QString, mentions);
    const Result r = nhsim(QStringList{"ball_on_turntable"} + args);
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.startsWith("nhsim: error: ") && r.err.trimmed().count('\n') == 0,
             qPrintable(r.err));
    QVERIFY2(r.err.contains(mentions), qPrintable(r.err));
    QVERIFY(!QFileInfo::exists("unused.mp4"));
  }

  // A scenario with a plan exports its planned motion: the plan solved, T = 4 s at 5 fps in
  // 21 frames (the last at T), a sidecar that solves it again, the CSV of the extremal (its
  // controls and costates, ending at the target), and a page with its ghosts and companion.
  void planExported() {
    const QString scenario = NH_EXAMPLES_DIR "/parallel_parking.json";
    const QString frames = dir_.filePath("planned/frames");
    QVERIFY(QDir().mkpath(dir_.filePath("planned")));
    const QString csv = dir_.filePath("planned/plan.csv");
    const Result r = nhsim({scenario, "--frames", frames, "--width", "160", "--height", "120",
                            "--fps", "5", "--csv", csv});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QCOMPARE(entriesOf(frames).size(), 21);
    const nh::Scenario sidecar =
        nh::readScenarioFile(dir_.filePath("planned/frames.json").toStdString());
    QCOMPARE(sidecar.tEnd, 4.0);
    QVERIFY(QString::fromStdString(sidecar.view).contains("\"plan\""));
    QFile rows(csv);
    QVERIFY(rows.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = rows.readAll().trimmed().split('\n');
    const QList<QByteArray> header = lines.front().split(',');
    for (const char* column : {"t", "x", "y", "theta", "u1", "u2", "xi_v1", "cost"})
      QVERIFY2(header.contains(column), column);
    const QList<QByteArray> end = lines.back().split(',');
    QVERIFY(std::abs(end[header.indexOf("t")].toDouble() - 4) < 1e-9);
    QVERIFY(std::abs(end[header.indexOf("y")].toDouble() - 1) < 1e-6);
    QVERIFY(std::abs(end[header.indexOf("x")].toDouble()) < 1e-6);

    // The vakonomic lesson's page (a quicker solve): its ghosts and its nonholonomic companion.
    const QString page = dir_.filePath("planned/plan.html");
    const Result html = nhsim({NH_EXAMPLES_DIR "/particle_vakonomic_ends.json", "--html", page});
    QVERIFY2(html.code == 0, qPrintable(html.err));
    QFile file(page);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    QVERIFY(text.contains("\"ghosts\":[[{"));
    QVERIFY(text.contains("\"comparison\":{"));
    QVERIFY(text.contains("blue: vakonomic   orange: nonholonomic"));
  }

  // A control model without a plan is refused in one line: it has no motion of its own.
  void unplannedControlModelRefused() {
    const QString clip = dir_.filePath("unplanned.mp4");
    const Result r = nhsim(QStringList{"unicycle", "--video", clip} + kSmall);
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.startsWith("nhsim: error: ") && r.err.trimmed().count('\n') == 0,
             qPrintable(r.err));
    QVERIFY2(r.err.contains("a control model moves only along a planned motion"),
             qPrintable(r.err));
    QVERIFY(!QFileInfo::exists(clip));
  }

  void help() {
    const Result r = nhsim({"--help"});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("--frames DIR") && r.out.contains("--speed"));
  }

 private:
  QTemporaryDir dir_;
};

QTEST_GUILESS_MAIN(ExportCliTest)
#include "export_cli_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
