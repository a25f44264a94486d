// Video export: encodes RGB frames to MP4 (H.264), WebM (VP9), animated GIF or a PNG
// sequence through libavcodec/libavformat (no ffmpeg program, no Qt).
//
// Writes never leave partial output (style guide: "Errors"): the encoder writes to a hidden
// temporary next to the target (".name.XXXXXX.partial.ext", or a sibling directory for PNG
// frames) and renames it into place in finish(); cancel(), destruction without finish() and
// any failure remove the temporary.
//
// Output is deterministic: the same frames and settings give byte-identical files on the same
// library versions (fixed codec thread counts, bit-exact muxing, no timestamps in metadata).
//
// libav* log at "info" level by default (codec banners, statistics on stderr); unless the
// application set another level, the first open() lowers it to "error" for the process.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/nh/errors.h"

namespace nh {

enum class VideoFormat {
  Mp4,          // H.264 (libx264), yuv420p, CRF 20, preset veryfast, +faststart
  WebM,         // VP9 (libvpx-vp9), yuv420p, CRF 32, realtime deadline, row-mt
  Gif,          // 8-bit palette (median cut over all frames), ordered dithering, loops forever
  PngSequence,  // directory of frame_000000.png, frame_000001.png, ... (lossless RGB)
};

// A user-facing export error; kind() lets callers (CLI exit codes, GUI dialogs) tell them apart.
class VideoError : public Error {
 public:
  enum class Kind {
    UnsupportedFormat,  // extension not .mp4/.webm/.gif (or a directory)
    InvalidSettings,    // size, fps, frame size or call order
    Unwritable,         // target folder missing, not a folder, not writable, or disk full
    CodecMissing,       // the FFmpeg build lacks libx264 / libvpx-vp9 / gif / png
    EncodingFailed,     // libav* reported an error while encoding or muxing
    DecodingFailed,     // video_probe: the file cannot be opened or decoded
  };
  VideoError(Kind kind, const std::string& message) : Error(message), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

// A packed 8-bit RGB image, top row first; row y starts at pixels[3 * width * y].
struct RgbImage {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> pixels;  // size 3 * width * height

  RgbImage() = default;
  RgbImage(int w, int h) : width(w), height(h), pixels(std::size_t(3) * w * h) {}
  std::uint8_t* row(int y) { return pixels.data() + std::size_t(3) * width * y; }
  const std::uint8_t* row(int y) const { return pixels.data() + std::size_t(3) * width * y; }
};

struct VideoSettings {
  int width = 1280;   // pixels, 16..1920; even for Mp4 and WebM
  int height = 720;   // pixels, 16..1080; even for Mp4 and WebM
  double fps = 30.0;  // frames per second, 1..120 (1..50 for Gif)
  VideoFormat format = VideoFormat::Mp4;
};

inline constexpr int kMinVideoSide = 16;
inline constexpr int kMaxVideoWidth = 1920;
inline constexpr int kMaxVideoHeight = 1080;

// The format for a target path: ".mp4", ".webm", ".gif" (any case) pick the file formats; an
// existing directory, a path ending in a separator or a path without extension is a PNG
// sequence directory. Throws VideoError(UnsupportedFormat) naming the allowed choices otherwise.
VideoFormat videoFormatForPath(const std::filesystem::path& path);

// The regular file an output to `path` writes (a symbolic link resolved to its target), after
// the checks every single-file export makes: VideoError(Unwritable) when the folder is missing
// or not a folder, when `path` is a directory, or a device, FIFO or socket ("cannot write
// 'P': it is a device, FIFO or socket; <what> needs a regular file").
std::filesystem::path regularFileTarget(const std::filesystem::path& path, const std::string& what);

// Human-readable name, e.g. "MP4 (H.264)", for messages and menus.
const char* videoFormatName(VideoFormat format);

// Throws VideoError(InvalidSettings) with an actionable message if the settings cannot be
// encoded. H.264/VP9 in 4:2:0 need even sizes: odd sizes are rejected (not padded or cropped,
// so the output is exactly the requested size); GIF and PNG accept odd sizes. GIF frame delays
// are whole centiseconds and players slow down delays under 20 ms, hence fps <= 50 for GIF.
void validateVideoSettings(const VideoSettings& settings);

// Encodes frames of one clip. Not thread-safe: use one encoder from one thread at a time.
// Typical use: open(), addFrame() per frame, finish(). Every method except cancel() throws
// VideoError; after an error the encoder is closed and the temporary is already removed.
class VideoEncoder {
 public:
  VideoEncoder();
  ~VideoEncoder();  // cancels (removes the temporary) if open
  VideoEncoder(const VideoEncoder&) = delete;
  VideoEncoder& operator=(const VideoEncoder&) = delete;
  VideoEncoder(VideoEncoder&&) noexcept;
  VideoEncoder& operator=(VideoEncoder&&) noexcept;

  // Starts a clip at path; settings.format should come from videoFormatForPath(path). An
  // existing file at path is replaced only by a successful finish(). A PNG sequence target must
  // not exist or be an empty directory. Checks settings, codec availability and that the target
  // folder is writable, so that errors surface before any frame is rendered.
  void open(const std::filesystem::path& path, const VideoSettings& settings);

  // Adds the next frame: height rows of 3 * width bytes of packed RGB, row y at rgb + y * stride.
  // A negative stride reads bottom-up buffers (OpenGL/VTK): pass the address of the top row.
  void addFrame(const std::uint8_t* rgb, std::ptrdiff_t stride);
  // image must be exactly settings.width × settings.height.
  void addFrame(const RgbImage& image);

  // Flushes the encoder, completes the file and renames it to the target. For GIF this is when
  // the palette is built and all frames are encoded (addFrame only spools them), so it takes
  // most of the GIF's time. Throws if no frame was added.
  void finish();

  // Abandons the clip and removes the temporary; no-op if not open.
  void cancel() noexcept;

  bool isOpen() const;
  int frameCount() const;  // frames added since open()
  const VideoSettings& settings() const;

  class Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
