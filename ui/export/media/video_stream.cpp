// FFmpeg's side of a video export (video_encoder_detail.h): its messages, the encoders, the
// log level, frames, and StreamWriter: a codec set up for bit-exact output whose packets
// libavformat muxes into a temporary file, completed and renamed over the target on commit.
#include <cstring>
#include <mutex>
#include <system_error>

#include "ui/export/media/video_encoder_detail.h"

extern "C" {
#include <libavutil/opt.h>
}

namespace nh::video {

std::string avError(int code) {
  char buffer[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, buffer, sizeof buffer);
  return buffer;
}

const AVCodec* requireEncoder(const char* name, const char* what) {
  const AVCodec* codec = avcodec_find_encoder_by_name(name);
  if (!codec) {
    fail(Kind::CodecMissing, std::string("cannot export ") + what + ": this FFmpeg build has no '" +
                                 name +
                                 "' encoder; install Debian's libavcodec59 (which "
                                 "includes it) or choose another format");
  }
  return codec;
}

// libav* print codec banners and statistics at the default "info" level; a command line or
// test log wants only errors. An application that chose another level keeps it.
void quietLibavLogging() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (av_log_get_level() == AV_LOG_INFO) av_log_set_level(AV_LOG_ERROR);
  });
}

AVRational frameRate(double fps) { return av_d2q(fps, 1000000); }

FramePtr allocateFrame(AVPixelFormat format, int width, int height) {
  FramePtr frame(av_frame_alloc());
  if (!frame) fail(Kind::EncodingFailed, "out of memory allocating a video frame");
  frame->format = format;
  frame->width = width;
  frame->height = height;
  const int result = av_frame_get_buffer(frame.get(), 0);
  if (result < 0) fail(Kind::EncodingFailed, "cannot allocate a video frame: " + avError(result));
  return frame;
}

void makeWritable(AVFrame* frame) {
  // The encoder may still reference the previous picture's buffers.
  const int result = av_frame_make_writable(frame);
  if (result < 0) fail(Kind::EncodingFailed, "cannot allocate a video frame: " + avError(result));
}

void copyRows(const std::uint8_t* rgb, std::ptrdiff_t stride, int width, int height,
              std::uint8_t* destination, std::ptrdiff_t destinationStride) {
  const std::size_t rowBytes = std::size_t(3) * width;
  for (int y = 0; y < height; ++y) {
    std::memcpy(destination + y * destinationStride, rgb + y * stride, rowBytes);
  }
}

StreamWriter::StreamWriter(const fs::path& target, const char* muxer, const AVCodec* codec,
                           const VideoSettings& settings, AVPixelFormat pixelFormat,
                           const Configure& configure, AVDictionary** muxerOptions)
    : target_(target) {
  codec_.reset(avcodec_alloc_context3(codec));
  packet_.reset(av_packet_alloc());
  if (!codec_ || !packet_) fail(Kind::EncodingFailed, "out of memory opening an encoder");
  codec_->width = settings.width;
  codec_->height = settings.height;
  codec_->pix_fmt = pixelFormat;
  codec_->framerate = frameRate(settings.fps);
  codec_->time_base = av_inv_q(codec_->framerate);
  codec_->sample_aspect_ratio = AVRational{1, 1};
  codec_->flags |= AV_CODEC_FLAG_BITEXACT;
  configure(codec_.get());

  temporary_ = createTemporaryFile(target, "partial");
  registration_ = nh::TemporaryRegistration(temporary_.string());
  try {
    int result = avformat_alloc_output_context2(&format_, nullptr, muxer, temporary_.c_str());
    if (result < 0 || !format_) {
      fail(Kind::CodecMissing,
           std::string("this FFmpeg build has no '") + muxer + "' muxer: " + avError(result));
    }
    // Bit-exact muxing leaves out library versions and random track UIDs (WebM).
    format_->flags |= AVFMT_FLAG_BITEXACT;
    if (format_->oformat->flags & AVFMT_GLOBALHEADER) {
      codec_->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    }
    result = avcodec_open2(codec_.get(), codec, nullptr);
    if (result < 0) {
      fail(Kind::EncodingFailed, std::string("cannot open the ") + codec->name + " encoder for " +
                                     std::to_string(settings.width) + "x" +
                                     std::to_string(settings.height) + ": " + avError(result));
    }
    stream_ = avformat_new_stream(format_, nullptr);
    if (!stream_) fail(Kind::EncodingFailed, "out of memory creating a video stream");
    stream_->time_base = codec_->time_base;
    stream_->avg_frame_rate = codec_->framerate;
    result = avcodec_parameters_from_context(stream_->codecpar, codec_.get());
    if (result < 0) fail(Kind::EncodingFailed, "cannot set up the stream: " + avError(result));
    result = avio_open(&format_->pb, temporary_.c_str(), AVIO_FLAG_WRITE);
    if (result < 0) {
      fail(Kind::Unwritable, "cannot write " + quoted(target) + ": " + avError(result) +
                                 "; choose a writable folder");
    }
    result = avformat_write_header(format_, muxerOptions);
    if (result < 0)
      fail(Kind::Unwritable, "cannot write " + quoted(target) + ": " + avError(result));
  } catch (...) {
    discard();
    throw;
  }
}

void StreamWriter::send(AVFrame* frame) {
  int result = avcodec_send_frame(codec_.get(), frame);
  if (result < 0) fail(Kind::EncodingFailed, "encoding a frame failed: " + avError(result));
  while (true) {
    result = avcodec_receive_packet(codec_.get(), packet_.get());
    if (result == AVERROR(EAGAIN) || result == AVERROR_EOF) break;
    if (result < 0) fail(Kind::EncodingFailed, "encoding a frame failed: " + avError(result));
    // Constant frame rate: each frame lasts one tick, including the last one (the MP4
    // duration would otherwise miss a frame period).
    if (packet_->duration <= 0) packet_->duration = 1;
    av_packet_rescale_ts(packet_.get(), codec_->time_base, stream_->time_base);
    packet_->stream_index = stream_->index;
    result = av_interleaved_write_frame(format_, packet_.get());
    if (result < 0) failWrite(result);
  }
}

void StreamWriter::commit() {
  send(nullptr);
  int result = av_write_trailer(format_);
  if (result < 0) failWrite(result);
  if (format_->pb->error < 0) failWrite(format_->pb->error);
  result = avio_closep(&format_->pb);
  if (result < 0) failWrite(result);
  syncFile(temporary_);
  std::error_code error;
  fs::rename(temporary_, target_, error);
  if (error) {
    fail(Kind::Unwritable, "cannot replace " + quoted(target_) + ": " + error.message() +
                               "; choose another file name");
  }
  temporary_.clear();
  registration_.release();
}

void StreamWriter::discard() noexcept {
  if (format_) {
    if (format_->pb) avio_closep(&format_->pb);
    avformat_free_context(format_);
    format_ = nullptr;
  }
  removeQuietly(temporary_);
  temporary_.clear();
  registration_.release();
}

void StreamWriter::failWrite(int code) {
  fail(Kind::Unwritable, "writing " + quoted(target_) + " failed: " + avError(code) +
                             "; free some disk space or choose another folder");
}

}  // namespace nh::video
// SPDX-License-Identifier: GPL-3.0-or-later
