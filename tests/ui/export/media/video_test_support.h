// Synthetic clips for the video tests: a moving coloured square on a static gradient, the
// kind of content (static background, small moving bodies) the exported scenes have.
#pragma once

#include <QDir>
#include <QStringList>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "ui/export/media/video_encoder.h"

namespace nh::test {

// Frame `index` of a `count`-frame clip.
inline RgbImage syntheticFrame(int width, int height, int index, int count) {
  RgbImage image(width, height);
  const int side = std::max(4, height / 5);
  const int left = (width - side) * index / std::max(1, count - 1);
  const int top = (height - side) / 2 + static_cast<int>((height / 4) * std::sin(index * 0.2));
  for (int y = 0; y < height; ++y) {
    std::uint8_t* row = image.row(y);
    for (int x = 0; x < width; ++x) {
      std::uint8_t* p = row + 3 * x;
      const bool inSquare = x >= left && x < left + side && y >= top && y < top + side;
      if (inSquare) {
        p[0] = 230;
        p[1] = static_cast<std::uint8_t>(60 + (index * 3) % 120);
        p[2] = 40;
      } else {
        p[0] = static_cast<std::uint8_t>(40 + 150 * x / width);
        p[1] = static_cast<std::uint8_t>(60 + 120 * y / height);
        p[2] = 170;
      }
    }
  }
  return image;
}

// Mean absolute difference per channel value (0..255); -1 if the sizes differ.
inline double meanAbsoluteDifference(const RgbImage& a, const RgbImage& b) {
  if (a.width != b.width || a.height != b.height || a.pixels.size() != b.pixels.size()) return -1;
  double sum = 0;
  for (std::size_t i = 0; i < a.pixels.size(); ++i) sum += std::abs(a.pixels[i] - b.pixels[i]);
  return a.pixels.empty() ? 0.0 : sum / static_cast<double>(a.pixels.size());
}

inline void encodeSynthetic(const std::filesystem::path& path, const VideoSettings& settings,
                            int count) {
  VideoEncoder encoder;
  encoder.open(path, settings);
  for (int i = 0; i < count; ++i) {
    encoder.addFrame(syntheticFrame(settings.width, settings.height, i, count));
  }
  encoder.finish();
}

// Every entry of a folder, hidden ones included (temporaries start with a dot).
inline QStringList entriesOf(const QString& folder) {
  return QDir(folder).entryList(QDir::AllEntries | QDir::Hidden | QDir::System |
                                QDir::NoDotAndDotDot);
}

}  // namespace nh::test
// SPDX-License-Identifier: GPL-3.0-or-later
