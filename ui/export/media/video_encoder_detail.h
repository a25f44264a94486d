// Inside the video encoder (video_encoder.h; not for callers), shared by its parts: the
// errors and the temporaries next to the target (video_files.cpp); FFmpeg's encoders, frames
// and the muxed stream written to a temporary file (video_stream.cpp); the per-format encoder
// the VideoEncoder drives (VideoEncoder::Impl) and the three that exist: MP4 and WebM
// (yuv_video.cpp), GIF (gif_encoder.cpp), PNG sequence (png_sequence.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "core/io/atomic_output.h"
#include "ui/export/media/video_encoder.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswscale/swscale.h>
}

namespace nh {

// One clip being encoded in one format; VideoEncoder checks the calls and counts frames.
class VideoEncoder::Impl {
 public:
  Impl(const std::filesystem::path& target, const VideoSettings& settings)
      : target_(target), settings_(settings) {}
  virtual ~Impl() = default;
  virtual void addFrame(const std::uint8_t* rgb, std::ptrdiff_t stride) = 0;
  virtual void finish() = 0;            // completes the output and moves it onto target_
  virtual void discard() noexcept = 0;  // removes every temporary

  std::filesystem::path target_;
  VideoSettings settings_;
  int frames_ = 0;
};

namespace video {

namespace fs = std::filesystem;
using Kind = VideoError::Kind;

// ---- Errors and files (video_files.cpp) -------------------------------------------------

[[noreturn]] void fail(Kind kind, const std::string& message);
std::string quoted(const fs::path& path);   // 'path', for messages
fs::path folderOf(const fs::path& target);  // "." for a bare file name
// VideoError(Unwritable) when the target's folder is missing or not a folder.
void requireWritableFolder(const fs::path& target);
// VideoError(Unwritable) for a temporary that could not be made next to `target`.
[[noreturn]] void failCreate(const fs::path& target, int error);
fs::path createTemporaryFile(const fs::path& target, const std::string& kind);
fs::path createTemporaryDirectory(const fs::path& target);
void removeQuietly(const fs::path& path) noexcept;
void syncFile(const fs::path& path);
// Writes all of `data` to `fd`; VideoError(Unwritable) naming `target` when the disk refuses.
void writeAll(int fd, const std::uint8_t* data, std::size_t size, const fs::path& target);

// ---- FFmpeg (video_stream.cpp) ----------------------------------------------------------

std::string avError(int code);
// The named encoder; VideoError(CodecMissing) saying what cannot be exported without it.
const AVCodec* requireEncoder(const char* name, const char* what);
void quietLibavLogging();
AVRational frameRate(double fps);

struct FrameDeleter {
  void operator()(AVFrame* f) const { av_frame_free(&f); }
};
struct PacketDeleter {
  void operator()(AVPacket* p) const { av_packet_free(&p); }
};
struct CodecDeleter {
  void operator()(AVCodecContext* c) const { avcodec_free_context(&c); }
};
struct SwsDeleter {
  void operator()(SwsContext* s) const { sws_freeContext(s); }
};
using FramePtr = std::unique_ptr<AVFrame, FrameDeleter>;
using PacketPtr = std::unique_ptr<AVPacket, PacketDeleter>;
using CodecPtr = std::unique_ptr<AVCodecContext, CodecDeleter>;
using SwsPtr = std::unique_ptr<SwsContext, SwsDeleter>;

FramePtr allocateFrame(AVPixelFormat format, int width, int height);
void makeWritable(AVFrame* frame);
// Copies height rows of width RGB pixels (stride may be negative) into a packed buffer.
void copyRows(const std::uint8_t* rgb, std::ptrdiff_t stride, int width, int height,
              std::uint8_t* destination, std::ptrdiff_t destinationStride);

// One encoded video stream muxed by libavformat into a temporary file next to the target;
// commit() completes the file and renames it over the target.
class StreamWriter {
 public:
  using Configure = std::function<void(AVCodecContext*)>;

  StreamWriter(const fs::path& target, const char* muxer, const AVCodec* codec,
               const VideoSettings& settings, AVPixelFormat pixelFormat, const Configure& configure,
               AVDictionary** muxerOptions);
  ~StreamWriter() { discard(); }
  StreamWriter(const StreamWriter&) = delete;
  StreamWriter& operator=(const StreamWriter&) = delete;

  AVCodecContext* codec() { return codec_.get(); }
  // Encodes one frame (pts = frame index) or, with nullptr, drains the encoder.
  void send(AVFrame* frame);
  void commit();
  void discard() noexcept;

 private:
  [[noreturn]] void failWrite(int code);

  fs::path target_;
  fs::path temporary_;
  nh::TemporaryRegistration registration_;  // so that nh::removeLiveTemporaries() finds it
  CodecPtr codec_;
  PacketPtr packet_;
  AVFormatContext* format_ = nullptr;
  AVStream* stream_ = nullptr;
};

// ---- The formats ------------------------------------------------------------------------

// MP4 (H.264) or WebM (VP9), as settings.format says (yuv_video.cpp).
std::unique_ptr<VideoEncoder::Impl> makeYuvVideo(const fs::path& target,
                                                 const VideoSettings& settings);
std::unique_ptr<VideoEncoder::Impl> makeGif(const fs::path& target,
                                            const VideoSettings& settings);  // gif_encoder.cpp
std::unique_ptr<VideoEncoder::Impl> makePngSequence(
    const fs::path& target,
    const VideoSettings& settings);  // png_sequence.cpp

}  // namespace video

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
