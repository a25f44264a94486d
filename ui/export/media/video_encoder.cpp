// VideoEncoder (video_encoder.h): its public calls checked, the format chosen from the
// target's ending and handed to its encoder (yuv_video.cpp, gif_encoder.cpp,
// png_sequence.cpp), whose temporary is renamed over the target at finish() (video_files.cpp).
#include "ui/export/media/video_encoder.h"

#include <cctype>
#include <cmath>
#include <system_error>
#include <utility>

#include "core/io/atomic_output.h"
#include "ui/export/media/video_encoder_detail.h"

namespace nh {

namespace fs = std::filesystem;
using Kind = VideoError::Kind;
using video::fail;
using video::quoted;

namespace {

std::string lowercase(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// Target without a trailing separator, so that "frames/" names the directory "frames".
fs::path normalizedTarget(const fs::path& path) {
  fs::path p = path;
  while (!p.has_filename() && p.has_parent_path() && p != p.root_path()) p = p.parent_path();
  return p;
}

}  // namespace

VideoFormat videoFormatForPath(const fs::path& path) {
  std::error_code error;
  if (fs::is_directory(path, error) || !path.has_filename()) return VideoFormat::PngSequence;
  const std::string extension = lowercase(path.extension().string());
  if (extension.empty()) return VideoFormat::PngSequence;
  if (extension == ".mp4") return VideoFormat::Mp4;
  if (extension == ".webm") return VideoFormat::WebM;
  if (extension == ".gif") return VideoFormat::Gif;
  fail(Kind::UnsupportedFormat,
       "cannot export video to " + quoted(path) + ": unsupported extension '" +
           path.extension().string() +
           "'; use .mp4 (H.264), .webm (VP9), .gif, or a directory for PNG frames");
}

const char* videoFormatName(VideoFormat format) {
  switch (format) {
    case VideoFormat::Mp4:
      return "MP4 (H.264)";
    case VideoFormat::WebM:
      return "WebM (VP9)";
    case VideoFormat::Gif:
      return "GIF";
    case VideoFormat::PngSequence:
      return "PNG sequence";
  }
  return "unknown";
}

void validateVideoSettings(const VideoSettings& settings) {
  const std::string size = std::to_string(settings.width) + "x" + std::to_string(settings.height);
  if (settings.width < kMinVideoSide || settings.width > kMaxVideoWidth ||
      settings.height < kMinVideoSide || settings.height > kMaxVideoHeight) {
    fail(Kind::InvalidSettings,
         "video size " + size + " is out of range: width must be " + std::to_string(kMinVideoSide) +
             ".." + std::to_string(kMaxVideoWidth) + " and height " +
             std::to_string(kMinVideoSide) + ".." + std::to_string(kMaxVideoHeight) + " pixels");
  }
  const bool chromaSubsampled =
      settings.format == VideoFormat::Mp4 || settings.format == VideoFormat::WebM;
  if (chromaSubsampled && (settings.width % 2 != 0 || settings.height % 2 != 0)) {
    const int evenWidth = settings.width + settings.width % 2;
    const int evenHeight = settings.height + settings.height % 2;
    fail(Kind::InvalidSettings, "video size " + size + " must have an even width and height for " +
                                    videoFormatName(settings.format) +
                                    " (colour is stored at half resolution); use for example " +
                                    std::to_string(evenWidth) + "x" + std::to_string(evenHeight));
  }
  if (!std::isfinite(settings.fps) || settings.fps < 1 || settings.fps > 120) {
    fail(Kind::InvalidSettings,
         "frame rate " + std::to_string(settings.fps) + " fps is out of range: use 1..120 fps");
  }
  if (settings.format == VideoFormat::Gif && settings.fps > 50) {
    fail(Kind::InvalidSettings,
         "frame rate " + std::to_string(settings.fps) +
             " fps is too high for GIF: frame delays are whole hundredths of a second and "
             "players slow down delays under 20 ms; use at most 50 fps (e.g. 25)");
  }
}

fs::path regularFileTarget(const fs::path& path, const std::string& what) {
  const fs::path target = normalizedTarget(path);
  video::requireWritableFolder(target);
  std::error_code error;
  if (fs::is_directory(target, error)) {
    fail(Kind::Unwritable,
         "cannot write " + quoted(target) + ": it is a directory; choose a file name");
  }
  // The decision every output file goes through (core/io/atomic_output.h): a symlink is
  // written through (its target replaced, the link kept); the output needs a regular file.
  const nh::OutputTarget decided = nh::outputTargetFor(target.string());
  if (decided.kind != nh::OutputTarget::Kind::Replace) {
    fail(Kind::Unwritable, "cannot write " + quoted(target) + ": it is a device, FIFO or socket; " +
                               what + " needs a regular file");
  }
  return decided.path;
}

VideoEncoder::VideoEncoder() = default;
VideoEncoder::~VideoEncoder() { cancel(); }
VideoEncoder::VideoEncoder(VideoEncoder&&) noexcept = default;
VideoEncoder& VideoEncoder::operator=(VideoEncoder&& other) noexcept {
  if (this != &other) {
    cancel();
    impl_ = std::move(other.impl_);
  }
  return *this;
}

void VideoEncoder::open(const fs::path& path, const VideoSettings& settings) {
  if (impl_) {
    fail(Kind::InvalidSettings, "the encoder is already writing " + quoted(impl_->target_) +
                                    "; finish() or cancel() it before opening another clip");
  }
  video::quietLibavLogging();
  fs::path target = normalizedTarget(path);
  const VideoFormat detected = videoFormatForPath(path);
  if (detected != settings.format) {
    fail(Kind::InvalidSettings, std::string("cannot write ") + videoFormatName(settings.format) +
                                    " to " + quoted(path) + ", which names " +
                                    videoFormatName(detected) + "; change the extension");
  }
  validateVideoSettings(settings);
  if (settings.format != VideoFormat::PngSequence) {
    target = regularFileTarget(target, "a video");
  } else {
    // A folder given as a symlink gets the frames, and the link stays: the sequence's
    // temporary is made beside the folder the link names and renamed over that folder.
    target = nh::writeThroughLink(target.string());
  }
  switch (settings.format) {
    case VideoFormat::Mp4:
    case VideoFormat::WebM:
      impl_ = video::makeYuvVideo(target, settings);
      break;
    case VideoFormat::Gif:
      impl_ = video::makeGif(target, settings);
      break;
    case VideoFormat::PngSequence:
      impl_ = video::makePngSequence(target, settings);
      break;
  }
}

void VideoEncoder::addFrame(const std::uint8_t* rgb, std::ptrdiff_t stride) {
  if (!impl_) fail(Kind::InvalidSettings, "addFrame() called before open()");
  const std::ptrdiff_t rowBytes = std::ptrdiff_t(3) * impl_->settings_.width;
  if (!rgb || std::abs(stride) < rowBytes) {
    const std::string message = !rgb ? "addFrame() got no pixels"
                                     : "addFrame() stride " + std::to_string(stride) +
                                           " is shorter than a row of " + std::to_string(rowBytes) +
                                           " bytes";
    cancel();
    fail(Kind::InvalidSettings, message);
  }
  try {
    impl_->addFrame(rgb, stride);
    ++impl_->frames_;
  } catch (...) {
    cancel();
    throw;
  }
}

void VideoEncoder::addFrame(const RgbImage& image) {
  if (!impl_) fail(Kind::InvalidSettings, "addFrame() called before open()");
  const VideoSettings& s = impl_->settings_;
  if (image.width != s.width || image.height != s.height ||
      image.pixels.size() != std::size_t(3) * image.width * image.height) {
    const std::string message = "frame size " + std::to_string(image.width) + "x" +
                                std::to_string(image.height) + " differs from the video size " +
                                std::to_string(s.width) + "x" + std::to_string(s.height);
    cancel();
    fail(Kind::InvalidSettings, message);
  }
  addFrame(image.pixels.data(), std::ptrdiff_t(3) * image.width);
}

void VideoEncoder::finish() {
  if (!impl_) fail(Kind::InvalidSettings, "finish() called before open()");
  if (impl_->frames_ == 0) {
    const fs::path target = impl_->target_;
    cancel();
    fail(Kind::InvalidSettings, "no frames were added to " + quoted(target) + "; nothing written");
  }
  try {
    impl_->finish();
  } catch (...) {
    cancel();
    throw;
  }
  impl_.reset();
}

void VideoEncoder::cancel() noexcept {
  if (!impl_) return;
  impl_->discard();
  impl_.reset();
}

bool VideoEncoder::isOpen() const { return impl_ != nullptr; }
int VideoEncoder::frameCount() const { return impl_ ? impl_->frames_ : 0; }
const VideoSettings& VideoEncoder::settings() const {
  static const VideoSettings closed{};
  return impl_ ? impl_->settings_ : closed;
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
