// PNG sequences for the video encoder (video_encoder_detail.h): each frame encoded by the
// png encoder into its own file in a hidden sibling directory, renamed onto the target (a new
// or empty directory) when the clip is finished.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <system_error>

#include "ui/export/media/video_encoder_detail.h"

extern "C" {
#include <libavutil/opt.h>
}

namespace nh::video {

namespace {

constexpr const char* kPngFramePattern = "frame_%06d.png";

// PNG sequence: frames go to a hidden sibling directory that is renamed onto the target in
// finish(), so the target never holds an incomplete sequence.

class PngSequenceImpl final : public VideoEncoder::Impl {
 public:
  PngSequenceImpl(const fs::path& target, const VideoSettings& settings) : Impl(target, settings) {
    const AVCodec* codec = requireEncoder("png", "a PNG sequence");
    requireEmptyTarget();
    codec_.reset(avcodec_alloc_context3(codec));
    packet_.reset(av_packet_alloc());
    if (!codec_ || !packet_) fail(Kind::EncodingFailed, "out of memory opening the PNG encoder");
    codec_->width = settings.width;
    codec_->height = settings.height;
    codec_->pix_fmt = AV_PIX_FMT_RGB24;
    codec_->time_base = av_inv_q(frameRate(settings.fps));
    codec_->flags |= AV_CODEC_FLAG_BITEXACT;
    // PNG frames are independent, so frame threads do not change the output.
    codec_->thread_count = 0;
    // zlib level 3 with the "up" filter: most of the size reduction of level 9 at a fraction
    // of its time on rendered images.
    codec_->compression_level = 3;
    av_opt_set(codec_->priv_data, "pred", "up", 0);
    const int result = avcodec_open2(codec_.get(), codec, nullptr);
    if (result < 0) fail(Kind::EncodingFailed, "cannot open the PNG encoder: " + avError(result));
    frame_ = allocateFrame(AV_PIX_FMT_RGB24, settings.width, settings.height);
    directory_ = createTemporaryDirectory(target);
    registration_ = nh::TemporaryRegistration(directory_.string());
  }

  ~PngSequenceImpl() override { discard(); }

  void addFrame(const std::uint8_t* rgb, std::ptrdiff_t stride) override {
    makeWritable(frame_.get());
    copyRows(rgb, stride, settings_.width, settings_.height, frame_->data[0], frame_->linesize[0]);
    frame_->pts = frames_;
    send(frame_.get());
  }

  void finish() override {
    send(nullptr);
    requireEmptyTarget();
    // rename(2) replaces an empty directory.
    std::error_code error;
    fs::rename(directory_, target_, error);
    if (error) {
      fail(Kind::Unwritable, "cannot create " + quoted(target_) + ": " + error.message() +
                                 "; choose another directory");
    }
    directory_.clear();
    registration_.release();
  }

  void discard() noexcept override {
    removeQuietly(directory_);
    directory_.clear();
    registration_.release();
  }

 private:
  void requireEmptyTarget() {
    std::error_code error;
    const fs::file_status status = fs::status(target_, error);
    if (!fs::exists(status)) {
      requireWritableFolder(target_);
      return;
    }
    if (!fs::is_directory(status)) {
      fail(Kind::Unwritable, "cannot write PNG frames to " + quoted(target_) +
                                 ": it exists and is not a directory; choose a directory path");
    }
    if (!fs::is_empty(target_, error)) {
      fail(Kind::Unwritable, "cannot write PNG frames to " + quoted(target_) +
                                 ": the directory is not empty; choose a new or empty directory "
                                 "so that frames of different clips do not mix");
    }
  }

  void send(AVFrame* frame) {
    int result = avcodec_send_frame(codec_.get(), frame);
    if (result < 0) fail(Kind::EncodingFailed, "encoding a PNG frame failed: " + avError(result));
    while (true) {
      result = avcodec_receive_packet(codec_.get(), packet_.get());
      if (result == AVERROR(EAGAIN) || result == AVERROR_EOF) break;
      if (result < 0) fail(Kind::EncodingFailed, "encoding a PNG frame failed: " + avError(result));
      char name[64];
      std::snprintf(name, sizeof name, kPngFramePattern, written_++);
      const fs::path path = directory_ / name;
      const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
      if (fd < 0) failCreate(target_, errno);
      try {
        writeAll(fd, packet_->data, static_cast<std::size_t>(packet_->size), target_);
      } catch (...) {
        ::close(fd);
        av_packet_unref(packet_.get());
        throw;
      }
      ::close(fd);
      av_packet_unref(packet_.get());
    }
  }

  CodecPtr codec_;
  PacketPtr packet_;
  FramePtr frame_;
  fs::path directory_;
  // nh::removeLiveTemporaries() removes the folder only while it is empty (rmdir).
  nh::TemporaryRegistration registration_;
  int written_ = 0;
};

}  // namespace

std::unique_ptr<VideoEncoder::Impl> makePngSequence(const fs::path& target,
                                                    const VideoSettings& settings) {
  return std::make_unique<PngSequenceImpl>(target, settings);
}

}  // namespace nh::video
// SPDX-License-Identifier: GPL-3.0-or-later
