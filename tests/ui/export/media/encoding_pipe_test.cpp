// The encoding thread of video export (nh::EncodingPipe) with a stand-in encoder, so that it
// runs in every preset, ThreadSanitizer's included: frames reach the encoder whole and in
// order (top-down, also from bottom-up buffers), an encoder error reaches the pushing thread,
// and abandoning drops what waits.
#include "ui/export/media/encoding_pipe.h"

#include <QtTest>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

namespace {
constexpr int kWidth = 37, kHeight = 11;  // odd sizes: no accidental alignment
constexpr std::size_t kRowBytes = kWidth * 3;

std::uint8_t pixel(int frame, int row, std::size_t byte) {
  return static_cast<std::uint8_t>(frame * 31 + row * 7 + static_cast<int>(byte) * 3);
}
}  // namespace

class EncodingPipeTest : public QObject {
  Q_OBJECT

 private slots:
  void framesArriveWholeAndInOrder() {
    const int frames = 300;
    int seen = 0;  // only the encoding thread touches these two
    QString mismatch;
    std::mt19937 random(7);
    std::vector<int> pauses(frames);
    for (int& p : pauses) p = static_cast<int>(random() % 300);  // microseconds
    {
      nh::EncodingPipe pipe(
          [&](const std::uint8_t* rgb, std::ptrdiff_t rowBytes) {
            if (rowBytes != static_cast<std::ptrdiff_t>(kRowBytes) && mismatch.isEmpty())
              mismatch = QStringLiteral("rows %1 bytes apart").arg(rowBytes);
            for (int y = 0; y < kHeight && mismatch.isEmpty(); ++y)
              for (std::size_t b = 0; b < kRowBytes; ++b)
                if (rgb[y * rowBytes + static_cast<std::ptrdiff_t>(b)] != pixel(seen, y, b)) {
                  mismatch = QStringLiteral("frame %1 row %2 byte %3").arg(seen).arg(y).arg(b);
                  break;
                }
            std::this_thread::sleep_for(std::chrono::microseconds(pauses[seen]));
            ++seen;
          },
          kRowBytes, kHeight, 3);
      std::vector<std::uint8_t> buffer(kRowBytes * kHeight);
      for (int f = 0; f < frames; ++f) {
        const bool bottomUp = f % 2 == 1;  // as OpenGL reads them
        for (int y = 0; y < kHeight; ++y) {
          const int stored = bottomUp ? kHeight - 1 - y : y;
          for (std::size_t b = 0; b < kRowBytes; ++b)
            buffer[static_cast<std::size_t>(stored) * kRowBytes + b] = pixel(f, y, b);
        }
        if (bottomUp)
          pipe.push(buffer.data() + (kHeight - 1) * kRowBytes,
                    -static_cast<std::ptrdiff_t>(kRowBytes));
        else
          pipe.push(buffer.data(), static_cast<std::ptrdiff_t>(kRowBytes));
        // The pipe copied the frame: overwriting the buffer now must not reach the encoder.
        std::fill(buffer.begin(), buffer.end(), std::uint8_t{0xEE});
      }
      pipe.close();
    }
    QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
    QCOMPARE(seen, frames);
  }

  void anEncoderErrorReachesThePusher() {
    std::atomic<int> encoded{0};
    nh::EncodingPipe pipe(
        [&](const std::uint8_t*, std::ptrdiff_t) {
          if (encoded.load() == 5) throw std::runtime_error("disk full (stand-in)");
          ++encoded;
        },
        kRowBytes, kHeight, 2);
    std::vector<std::uint8_t> buffer(kRowBytes * kHeight, 1);
    QString message;
    try {
      for (int f = 0; f < 1000; ++f) pipe.push(buffer.data(), kRowBytes);
      pipe.close();
    } catch (const std::runtime_error& e) {
      message = QString::fromUtf8(e.what());
    }
    QCOMPARE(message, QStringLiteral("disk full (stand-in)"));
    QCOMPARE(encoded.load(), 5);
  }

  void abandonDropsWhatWaits() {
    std::atomic<int> encoded{0};
    std::atomic<bool> release{false};
    nh::EncodingPipe pipe(
        [&](const std::uint8_t*, std::ptrdiff_t) {
          while (!release.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
          ++encoded;
        },
        kRowBytes, kHeight, 3);
    std::vector<std::uint8_t> buffer(kRowBytes * kHeight, 2);
    for (int f = 0; f < 4; ++f) pipe.push(buffer.data(), kRowBytes);  // 1 in hand, 3 waiting
    std::thread releaser([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      release = true;
    });
    pipe.abandon();  // drops the 3 waiting, then lets the one in hand finish
    releaser.join();
    QCOMPARE(encoded.load(), 1);
  }
};

QTEST_GUILESS_MAIN(EncodingPipeTest)
#include "encoding_pipe_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
