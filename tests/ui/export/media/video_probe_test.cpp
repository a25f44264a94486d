// video_probe agrees with an independent reader (ffprobe, which counts frames by decoding
// them too), and reports unreadable input as VideoError.
#include "ui/export/media/video_probe.h"

#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>

#include "ui/export/media/video_encoder.h"
#include "video_test_support.h"

namespace fs = std::filesystem;
using nh::VideoError;
using nh::VideoFormat;
using nh::VideoSettings;

class VideoProbeTest : public QObject {
  Q_OBJECT

 private slots:
  void agreesWithFfprobe_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("format");
    QTest::newRow("mp4") << "clip.mp4" << int(VideoFormat::Mp4);
    QTest::newRow("webm") << "clip.webm" << int(VideoFormat::WebM);
    QTest::newRow("gif") << "clip.gif" << int(VideoFormat::Gif);
  }

  void agreesWithFfprobe() {
    QFETCH(QString, name);
    QFETCH(int, format);
    const QString ffprobe = QStandardPaths::findExecutable("ffprobe");
    if (ffprobe.isEmpty()) QSKIP("ffprobe not installed (Debian package 'ffmpeg')");
    QTemporaryDir dir;
    const fs::path path = fs::path(dir.path().toStdString()) / name.toStdString();
    nh::test::encodeSynthetic(path, VideoSettings{256, 144, 25, VideoFormat(format)}, 17);

    QProcess process;
    process.start(ffprobe, {"-v", "error", "-select_streams", "v:0", "-count_frames",
                            "-show_entries", "stream=codec_name,width,height,nb_read_frames", "-of",
                            "default=noprint_wrappers=1", QString::fromStdString(path.string())});
    QVERIFY(process.waitForFinished(30000));
    QCOMPARE(process.exitCode(), 0);
    QMap<QString, QString> fields;
    for (const QByteArray& line : process.readAllStandardOutput().split('\n')) {
      const int equals = line.indexOf('=');
      if (equals > 0) fields[QString(line.left(equals))] = QString(line.mid(equals + 1)).trimmed();
    }
    const nh::VideoInfo info = nh::probeVideo(path);
    QCOMPARE(info.frameCount, 17);
    QCOMPARE(QString::number(info.frameCount), fields["nb_read_frames"]);
    QCOMPARE(QString::number(info.width), fields["width"]);
    QCOMPARE(QString::number(info.height), fields["height"]);
    QCOMPARE(QString::fromStdString(info.codecName), fields["codec_name"]);
  }

  void reportsUnreadableInput() {
    QTemporaryDir dir;
    const fs::path text = fs::path(dir.path().toStdString()) / "notes.mp4";
    {
      QFile file(QString::fromStdString(text.string()));
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write("this is not a video\n");
    }
    for (const fs::path& path : {text, fs::path(dir.path().toStdString()) / "missing.mp4"}) {
      try {
        nh::probeVideo(path);
        QFAIL("no error for an unreadable video");
      } catch (const VideoError& e) {
        QCOMPARE(e.kind(), VideoError::Kind::DecodingFailed);
        QVERIFY(QString(e.what()).contains(QString::fromStdString(path.filename().string())));
      }
    }
  }

  void rejectsFrameIndexOutOfRange() {
    QTemporaryDir dir;
    const fs::path path = fs::path(dir.path().toStdString()) / "clip.gif";
    nh::test::encodeSynthetic(path, VideoSettings{64, 48, 10, VideoFormat::Gif}, 3);
    QCOMPARE(nh::decodeVideoFrame(path, 2).width, 64);
    try {
      nh::decodeVideoFrame(path, 3);
      QFAIL("no error for frame 3 of 3");
    } catch (const VideoError& e) {
      QCOMPARE(e.kind(), VideoError::Kind::DecodingFailed);
      QVERIFY(QString(e.what()).contains("has 3 frames"));
    }
  }
};

QTEST_APPLESS_MAIN(VideoProbeTest)
#include "video_probe_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
