// VideoEncoder: each format decodes back to the frames it was given (count, size, duration,
// content), output is deterministic, and no failure or cancellation leaves a file behind.
#include "ui/export/media/video_encoder.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>

#include "ui/export/media/video_probe.h"
#include "video_test_support.h"

namespace fs = std::filesystem;
using nh::VideoEncoder;
using nh::VideoError;
using nh::VideoFormat;
using nh::VideoSettings;
using nh::test::encodeSynthetic;
using nh::test::entriesOf;
using nh::test::syntheticFrame;

Q_DECLARE_METATYPE(nh::VideoFormat)

namespace {

QByteArray readBytes(const fs::path& path) {
  QFile file(QString::fromStdString(path.string()));
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// Runs f, which must throw VideoError of `kind` with a message containing every `needles`.
template <typename F>
bool throwsVideoError(F&& f, VideoError::Kind kind, const QStringList& needles) {
  try {
    f();
  } catch (const VideoError& e) {
    const QString message = QString::fromUtf8(e.what());
    bool ok = e.kind() == kind;
    for (const QString& needle : needles) ok = ok && message.contains(needle, Qt::CaseInsensitive);
    if (!ok) qWarning() << "unexpected VideoError" << int(e.kind()) << message;
    return ok;
  }
  qWarning() << "no VideoError thrown";
  return false;
}

}  // namespace

class VideoEncoderTest : public QObject {
  Q_OBJECT

 private slots:
  void detectsFormatFromPath() {
    QTemporaryDir dir;
    const fs::path root = dir.path().toStdString();
    QCOMPARE(nh::videoFormatForPath(root / "a.mp4"), VideoFormat::Mp4);
    QCOMPARE(nh::videoFormatForPath(root / "a.MP4"), VideoFormat::Mp4);
    QCOMPARE(nh::videoFormatForPath(root / "a.webm"), VideoFormat::WebM);
    QCOMPARE(nh::videoFormatForPath(root / "a.Gif"), VideoFormat::Gif);
    QCOMPARE(nh::videoFormatForPath(root), VideoFormat::PngSequence);  // existing dir
    QCOMPARE(nh::videoFormatForPath(root / "frames"), VideoFormat::PngSequence);
    QCOMPARE(nh::videoFormatForPath(root / "frames.d/"), VideoFormat::PngSequence);
    QVERIFY(throwsVideoError([&] { nh::videoFormatForPath(root / "clip.avi"); },
                             VideoError::Kind::UnsupportedFormat,
                             {".avi", ".mp4", ".webm", ".gif"}));
  }

  void validatesSettings() {
    auto check = [](int w, int h, double fps, VideoFormat f) {
      nh::validateVideoSettings(VideoSettings{w, h, fps, f});
    };
    check(1920, 1080, 60, VideoFormat::Mp4);
    check(16, 16, 1, VideoFormat::WebM);
    check(161, 97, 25, VideoFormat::Gif);  // GIF and PNG store full-resolution colour
    check(161, 97, 25, VideoFormat::PngSequence);
    const auto invalid = VideoError::Kind::InvalidSettings;
    QVERIFY(throwsVideoError([&] { check(641, 480, 30, VideoFormat::Mp4); }, invalid,
                             {"641x480", "even", "642x480"}));
    QVERIFY(throwsVideoError([&] { check(640, 479, 30, VideoFormat::WebM); }, invalid, {"even"}));
    QVERIFY(throwsVideoError([&] { check(2560, 1440, 30, VideoFormat::Mp4); }, invalid,
                             {"2560x1440", "1920", "1080"}));
    QVERIFY(throwsVideoError([&] { check(1080, 1920, 30, VideoFormat::Gif); }, invalid, {"1080"}));
    QVERIFY(throwsVideoError([&] { check(8, 8, 30, VideoFormat::PngSequence); }, invalid, {"16"}));
    QVERIFY(throwsVideoError([&] { check(640, 480, 0, VideoFormat::Mp4); }, invalid, {"fps"}));
    QVERIFY(throwsVideoError([&] { check(640, 480, std::nan(""), VideoFormat::Mp4); }, invalid,
                             {"fps"}));
    QVERIFY(
        throwsVideoError([&] { check(640, 480, 60, VideoFormat::Gif); }, invalid, {"GIF", "50"}));
  }

  // Decoding gives back what was encoded. Thresholds on the middle frame's mean absolute
  // difference (per channel value, 0..255): PNG is lossless (0); H.264 at CRF 20 and VP9 at
  // CRF 32 keep smooth gradients within ~1 level and only blur the square's edges (measured
  // 0.5-1.3), bound 4; GIF's ±8 ordered dither adds ~3 on average (measured 2.9), bound 8.
  // The square moves only ~2% of the pixels per frame, so to catch an off-by-one frame the
  // decoded frame must also be closer to its own input than to the neighbouring inputs.
  // Size bounds are about 3x the measured sizes.
  void encodesAndDecodesBack_data() {
    QTest::addColumn<VideoFormat>("format");
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("height");
    QTest::addColumn<double>("fps");
    QTest::addColumn<QString>("codec");
    QTest::addColumn<double>("maxDifference");
    QTest::addColumn<qint64>("maxBytes");
    QTest::newRow("mp4 720p") << VideoFormat::Mp4 << "clip.mp4" << 1280 << 720 << 30.0 << "h264"
                              << 4.0 << qint64(300'000);
    QTest::newRow("mp4 small") << VideoFormat::Mp4 << "clip.mp4" << 320 << 180 << 29.97 << "h264"
                               << 4.0 << qint64(60'000);
    QTest::newRow("webm 720p") << VideoFormat::WebM << "clip.webm" << 1280 << 720 << 30.0 << "vp9"
                               << 4.0 << qint64(200'000);
    QTest::newRow("webm small") << VideoFormat::WebM << "clip.webm" << 320 << 180 << 24.0 << "vp9"
                                << 4.0 << qint64(60'000);
    // The GIF of the 720p clip must stay small: its static background is stored once and
    // later frames hold only the moving square (measured 0.36 MB; raw frames are 177 MB and
    // a GIF re-storing every full frame at this size would be > 10 MB). 30 fps gives frame
    // delays of alternately 3 and 4 hundredths of a second, checked through the duration.
    QTest::newRow("gif 720p") << VideoFormat::Gif << "clip.gif" << 1280 << 720 << 25.0 << "gif"
                              << 8.0 << qint64(1'000'000);
    QTest::newRow("gif odd") << VideoFormat::Gif << "clip.gif" << 161 << 97 << 30.0 << "gif" << 8.0
                             << qint64(80'000);
    QTest::newRow("png 720p") << VideoFormat::PngSequence << "frames" << 1280 << 720 << 30.0
                              << "png" << 0.0 << qint64(3'000'000);
    QTest::newRow("png odd") << VideoFormat::PngSequence << "frames" << 161 << 97 << 30.0 << "png"
                             << 0.0 << qint64(150'000);
  }

  void encodesAndDecodesBack() {
    QFETCH(VideoFormat, format);
    QFETCH(QString, name);
    QFETCH(int, width);
    QFETCH(int, height);
    QFETCH(double, fps);
    QFETCH(QString, codec);
    QFETCH(double, maxDifference);
    QFETCH(qint64, maxBytes);
    constexpr int kFrames = 64;
    QTemporaryDir dir;
    const fs::path path = fs::path(dir.path().toStdString()) / name.toStdString();

    QElapsedTimer timer;
    timer.start();
    encodeSynthetic(path, VideoSettings{width, height, fps, format}, kFrames);
    const qint64 encodeMs = timer.elapsed();
    QCOMPARE(entriesOf(dir.path()), QStringList{name});  // no temporary left beside it

    const nh::VideoInfo info = nh::probeVideo(path, fps);
    QCOMPARE(info.frameCount, kFrames);
    QCOMPARE(info.width, width);
    QCOMPARE(info.height, height);
    QCOMPARE(QString::fromStdString(info.codecName), codec);
    QVERIFY2(
        std::abs(info.durationSeconds - kFrames / fps) < 1 / fps,
        qPrintable(
            QString("duration %1 s, expected %2 s").arg(info.durationSeconds).arg(kFrames / fps)));

    const int middle = kFrames / 2;
    const nh::RgbImage decoded = nh::decodeVideoFrame(path, middle);
    const double difference =
        nh::test::meanAbsoluteDifference(decoded, syntheticFrame(width, height, middle, kFrames));
    QVERIFY2(difference >= 0 && difference <= maxDifference,
             qPrintable(QString("mean absolute difference %1").arg(difference)));
    for (int neighbour : {middle - 1, middle + 1}) {
      const double other = nh::test::meanAbsoluteDifference(
          decoded, syntheticFrame(width, height, neighbour, kFrames));
      QVERIFY2(
          difference < other,
          qPrintable(
              QString("frame %1 is closer (%2 < %3)").arg(neighbour).arg(other).arg(difference)));
    }

    qint64 bytes = 0;
    if (fs::is_directory(path)) {
      for (const auto& entry : fs::directory_iterator(path)) bytes += fs::file_size(entry);
      QVERIFY(fs::exists(path / "frame_000000.png"));
      QVERIFY(fs::exists(path / "frame_000063.png"));
    } else {
      bytes = static_cast<qint64>(fs::file_size(path));
    }
    QVERIFY2(bytes <= maxBytes, qPrintable(QString("%1 bytes").arg(bytes)));
    if (format == VideoFormat::Mp4) {
      // +faststart: the index (moov) precedes the data (mdat) so playback starts at once.
      const QByteArray file = readBytes(path);
      QVERIFY(file.indexOf("moov") >= 0 && file.indexOf("moov") < file.indexOf("mdat"));
    }
    if (format == VideoFormat::Gif) {
      // NETSCAPE2.0 application extension with loop count 0: loop forever.
      const QByteArray file = readBytes(path);
      const int loop = file.indexOf("NETSCAPE2.0");
      QVERIFY(loop > 0);
      QCOMPARE(file.mid(loop + 11, 4), QByteArray("\x03\x01\x00\x00", 4));
    }
    qInfo("%s %dx%d: %d frames encoded in %lld ms, %lld bytes, difference %.2f",
          nh::videoFormatName(format), width, height, kFrames, encodeMs, bytes, difference);
  }

  // Same frames, same file: fixed codec thread counts and bit-exact muxing.
  void isDeterministic_data() {
    QTest::addColumn<VideoFormat>("format");
    QTest::addColumn<QString>("name");
    QTest::newRow("mp4") << VideoFormat::Mp4 << "clip.mp4";
    QTest::newRow("webm") << VideoFormat::WebM << "clip.webm";
    QTest::newRow("gif") << VideoFormat::Gif << "clip.gif";
    QTest::newRow("png") << VideoFormat::PngSequence << "frames";
  }

  void isDeterministic() {
    QFETCH(VideoFormat, format);
    QFETCH(QString, name);
    QTemporaryDir dir;
    const fs::path first = fs::path(dir.path().toStdString()) / (QString("1" + name).toStdString());
    const fs::path second =
        fs::path(dir.path().toStdString()) / (QString("2" + name).toStdString());
    const VideoSettings settings{480, 270, 30, format};
    encodeSynthetic(first, settings, 24);
    encodeSynthetic(second, settings, 24);

    std::vector<nh::RgbImage> frames;
    nh::forEachVideoFrame(first, [&](int, const nh::RgbImage& frame) {
      frames.push_back(frame);
      return true;
    });
    QCOMPARE(int(frames.size()), 24);
    int compared = 0;
    nh::forEachVideoFrame(second, [&](int index, const nh::RgbImage& frame) {
      if (index < int(frames.size()) && frame.pixels == frames[index].pixels) ++compared;
      return true;
    });
    QCOMPARE(compared, 24);
    if (format != VideoFormat::PngSequence) QCOMPARE(readBytes(first), readBytes(second));
  }

  void cancelLeavesNothing_data() { isDeterministic_data(); }

  void cancelLeavesNothing() {
    QFETCH(VideoFormat, format);
    QFETCH(QString, name);
    QTemporaryDir dir;
    const fs::path path = fs::path(dir.path().toStdString()) / name.toStdString();
    const VideoSettings settings{320, 180, 30, format};
    {
      VideoEncoder encoder;
      encoder.open(path, settings);
      QVERIFY(!entriesOf(dir.path()).isEmpty());  // the temporary exists while encoding
      for (int i = 0; i < 5; ++i) encoder.addFrame(syntheticFrame(320, 180, i, 5));
      QCOMPARE(encoder.frameCount(), 5);
      encoder.cancel();
      QVERIFY(!encoder.isOpen());
      QCOMPARE(entriesOf(dir.path()), QStringList());
    }
    {
      VideoEncoder encoder;  // destroyed without finish()
      encoder.open(path, settings);
      for (int i = 0; i < 5; ++i) encoder.addFrame(syntheticFrame(320, 180, i, 5));
    }
    QCOMPARE(entriesOf(dir.path()), QStringList());
    {
      VideoEncoder encoder;  // a failure (a frame of the wrong size) closes and cleans up
      encoder.open(path, settings);
      encoder.addFrame(syntheticFrame(320, 180, 0, 5));
      QVERIFY(throwsVideoError([&] { encoder.addFrame(syntheticFrame(322, 180, 1, 5)); },
                               VideoError::Kind::InvalidSettings, {"322x180", "320x180"}));
      QVERIFY(!encoder.isOpen());
      QCOMPARE(entriesOf(dir.path()), QStringList());
    }
    {
      VideoEncoder encoder;
      encoder.open(path, settings);
      QVERIFY(throwsVideoError([&] { encoder.finish(); }, VideoError::Kind::InvalidSettings,
                               {"no frames"}));
      QCOMPARE(entriesOf(dir.path()), QStringList());
    }
  }

  // An existing file is replaced only when the new one is complete.
  void replacesExistingFileOnlyOnFinish() {
    QTemporaryDir dir;
    const fs::path path = fs::path(dir.path().toStdString()) / "clip.mp4";
    {
      QFile old(QString::fromStdString(path.string()));
      QVERIFY(old.open(QIODevice::WriteOnly));
      old.write("previous export");
    }
    const VideoSettings settings{320, 180, 30, VideoFormat::Mp4};
    VideoEncoder encoder;
    encoder.open(path, settings);
    encoder.addFrame(syntheticFrame(320, 180, 0, 2));
    encoder.cancel();
    QCOMPARE(readBytes(path), QByteArray("previous export"));
    encodeSynthetic(path, settings, 2);
    QCOMPARE(nh::probeVideo(path).frameCount, 2);
    QCOMPARE(entriesOf(dir.path()), QStringList{"clip.mp4"});
  }

  // Bottom-up buffers (OpenGL, VTK) are read through a negative stride. PNG is lossless, so
  // its decoded frame must equal the top-down original exactly; MP4 goes through the RGB to
  // YUV conversion, whose output must equal that of the same image passed top-down.
  void readsBottomUpBuffers_data() {
    QTest::addColumn<VideoFormat>("format");
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("width");
    QTest::newRow("png") << VideoFormat::PngSequence << "frames" << 161;
    QTest::newRow("mp4") << VideoFormat::Mp4 << "clip.mp4" << 160;
    QTest::newRow("gif") << VideoFormat::Gif << "clip.gif" << 161;
  }

  void readsBottomUpBuffers() {
    QFETCH(VideoFormat, format);
    QFETCH(QString, name);
    QFETCH(int, width);
    constexpr int kHeight = 96;
    QTemporaryDir dir;
    const fs::path topDown = fs::path(dir.path().toStdString()) / ("top" + name.toStdString());
    const fs::path bottomUp = fs::path(dir.path().toStdString()) / ("bottom" + name.toStdString());
    const VideoSettings settings{width, kHeight, 30, format};
    const nh::RgbImage image = syntheticFrame(width, kHeight, 3, 8);
    nh::RgbImage flipped(width, kHeight);
    for (int y = 0; y < kHeight; ++y) {
      std::copy_n(image.row(kHeight - 1 - y), 3 * width, flipped.row(y));
    }
    VideoEncoder encoder;
    encoder.open(bottomUp, settings);
    encoder.addFrame(flipped.row(kHeight - 1), -3 * width);
    encoder.finish();
    encoder.open(topDown, settings);
    encoder.addFrame(image);
    encoder.finish();
    const nh::RgbImage decoded = nh::decodeVideoFrame(bottomUp, 0);
    QCOMPARE(decoded.pixels, nh::decodeVideoFrame(topDown, 0).pixels);
    if (format == VideoFormat::PngSequence) QCOMPARE(decoded.pixels, image.pixels);
  }

  void rejectsUnwritableTargets() {
    QTemporaryDir dir;
    const fs::path root = dir.path().toStdString();
    {
      QFile file(dir.filePath("file.txt"));
      QVERIFY(file.open(QIODevice::WriteOnly));
    }
    const VideoSettings mp4{320, 180, 30, VideoFormat::Mp4};
    const auto unwritable = VideoError::Kind::Unwritable;
    VideoEncoder encoder;
    // Tests run as root, so a read-only folder would still be writable: use a folder that is
    // a regular file, and one that does not exist.
    QVERIFY(throwsVideoError([&] { encoder.open(root / "file.txt" / "out.mp4", mp4); }, unwritable,
                             {"file.txt", "not a folder"}));
    QVERIFY(throwsVideoError([&] { encoder.open(root / "missing" / "out.mp4", mp4); }, unwritable,
                             {"missing", "does not exist"}));
    QVERIFY(throwsVideoError(
        [&] {
          encoder.open(root / "missing" / "out.gif", VideoSettings{320, 180, 25, VideoFormat::Gif});
        },
        unwritable, {"does not exist"}));
    QVERIFY(throwsVideoError(
        [&] {
          encoder.open(root / "missing" / "frames",
                       VideoSettings{320, 180, 25, VideoFormat::PngSequence});
        },
        unwritable, {"does not exist"}));
    QVERIFY(throwsVideoError([&] { encoder.open(root, mp4); }, VideoError::Kind::InvalidSettings,
                             {"PNG"}));  // a directory is a PNG target, not MP4
    QVERIFY(!encoder.isOpen());
    QCOMPARE(entriesOf(dir.path()), QStringList{"file.txt"});
  }

  void rejectsUnsupportedExtension() {
    QTemporaryDir dir;
    VideoEncoder encoder;
    QVERIFY(throwsVideoError(
        [&] {
          encoder.open(fs::path(dir.path().toStdString()) / "clip.avi",
                       VideoSettings{320, 180, 30, VideoFormat::Mp4});
        },
        VideoError::Kind::UnsupportedFormat, {"clip.avi", ".mp4"}));
    QCOMPARE(entriesOf(dir.path()), QStringList());
  }

  void pngSequenceNeedsNewOrEmptyDirectory() {
    QTemporaryDir dir;
    const fs::path frames = fs::path(dir.path().toStdString()) / "frames";
    const VideoSettings settings{64, 48, 30, VideoFormat::PngSequence};
    fs::create_directory(frames);
    encodeSynthetic(frames, settings, 3);  // an empty directory is replaced
    QCOMPARE(entriesOf(QString::fromStdString(frames.string())),
             (QStringList{"frame_000000.png", "frame_000001.png", "frame_000002.png"}));
    VideoEncoder encoder;
    QVERIFY(throwsVideoError([&] { encoder.open(frames, settings); }, VideoError::Kind::Unwritable,
                             {"not empty"}));
    QCOMPARE(entriesOf(dir.path()), QStringList{"frames"});
  }
};

QTEST_APPLESS_MAIN(VideoEncoderTest)
#include "video_encoder_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
