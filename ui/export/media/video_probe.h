// A small decoder over libavformat/libavcodec that checks exported videos: it counts frames
// by decoding every one (container headers can be wrong), and returns frames as RGB.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

#include "ui/export/media/video_encoder.h"

namespace nh {

struct VideoInfo {
  int frameCount = 0;          // frames actually decoded
  int width = 0;               // pixels
  int height = 0;              // pixels
  double durationSeconds = 0;  // first frame start to last frame end, from decoded timestamps
  std::string codecName;       // libavcodec's name: "h264", "vp9", "gif", "png"
  std::string formatName;      // libavformat's demuxer name, e.g. "mov,mp4,m4a,3gp,3g2,mj2"
};

// Probes a video file, or a PNG sequence directory written by VideoEncoder
// (frame_000000.png, ...). A PNG sequence has no timing: its duration is
// frameCount / imageSequenceFps, or 0 if imageSequenceFps <= 0.
// Throws VideoError(DecodingFailed) if the path cannot be opened or decoded.
VideoInfo probeVideo(const std::filesystem::path& path, double imageSequenceFps = 0);

// Calls visit(index, frame) for every decoded frame in display order, converted to RGB with
// the colour matrix and range the stream is tagged with; stops early if visit returns false.
// Returns the number of frames visited.
int forEachVideoFrame(const std::filesystem::path& path,
                      const std::function<bool(int index, const RgbImage& frame)>& visit);

// Decoded frame `index` (0-based) as RGB; throws VideoError(DecodingFailed) if out of range.
RgbImage decodeVideoFrame(const std::filesystem::path& path, int index);

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
