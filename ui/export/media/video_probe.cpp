// The video probe (video_probe.h): a file opened with libavformat, its frames decoded one by
// one to count them, and a chosen frame returned as RGB.
#include "ui/export/media/video_probe.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <system_error>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
}

namespace nh {

namespace fs = std::filesystem;
using Kind = VideoError::Kind;

namespace {

std::string avError(int code) {
  char buffer[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, buffer, sizeof buffer);
  return buffer;
}

// See video_encoder.cpp: only errors reach stderr unless the application chose a level.
void quietLibavLogging() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (av_log_get_level() == AV_LOG_INFO) av_log_set_level(AV_LOG_ERROR);
  });
}

// Opens the best video stream of a file, or of a PNG sequence directory, and decodes it.
class Decoder {
 public:
  explicit Decoder(const fs::path& path) : path_(path) {
    quietLibavLogging();
    std::error_code error;
    std::string url = path.string();
    const AVInputFormat* input = nullptr;
    AVDictionary* options = nullptr;
    if (fs::is_directory(path, error)) {
      isImageSequence_ = true;
      url = (path / "frame_%06d.png").string();
      input = av_find_input_format("image2");
    }
    int result = avformat_open_input(&format_, url.c_str(), input, &options);
    av_dict_free(&options);
    if (result < 0) failOpen(avError(result));
    result = avformat_find_stream_info(format_, nullptr);
    if (result < 0) failOpen(avError(result));
    const AVCodec* codec = nullptr;
    stream_ = av_find_best_stream(format_, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
    if (stream_ < 0 || !codec) failOpen("no decodable video stream");
    codec_ = avcodec_alloc_context3(codec);
    packet_ = av_packet_alloc();
    frame_ = av_frame_alloc();
    if (!codec_ || !packet_ || !frame_) failOpen("out of memory");
    result = avcodec_parameters_to_context(codec_, format_->streams[stream_]->codecpar);
    if (result < 0) failOpen(avError(result));
    // Decoders are bit-exact whatever the thread count.
    codec_->thread_count = 0;
    result = avcodec_open2(codec_, codec, nullptr);
    if (result < 0) failOpen(avError(result));
  }

  ~Decoder() {
    av_frame_free(&frame_);
    av_packet_free(&packet_);
    avcodec_free_context(&codec_);
    avformat_close_input(&format_);
  }
  Decoder(const Decoder&) = delete;
  Decoder& operator=(const Decoder&) = delete;

  // Calls visit for each decoded frame until it returns false; returns the number visited.
  int run(const std::function<bool(const AVFrame&)>& visit) {
    int count = 0;
    bool more = true;
    bool draining = false;
    while (more && !draining) {
      const int read = av_read_frame(format_, packet_);
      if (read == AVERROR_EOF) {
        draining = true;
      } else if (read < 0) {
        failDecode(avError(read));
      } else if (packet_->stream_index != stream_) {
        av_packet_unref(packet_);
        continue;
      }
      const int sent = avcodec_send_packet(codec_, draining ? nullptr : packet_);
      av_packet_unref(packet_);
      if (sent < 0 && sent != AVERROR_EOF) failDecode(avError(sent));
      while (more) {
        const int received = avcodec_receive_frame(codec_, frame_);
        if (received == AVERROR(EAGAIN) || received == AVERROR_EOF) break;
        if (received < 0) failDecode(avError(received));
        ++count;
        more = visit(*frame_);
        av_frame_unref(frame_);
      }
    }
    return count;
  }

  const AVStream& stream() const { return *format_->streams[stream_]; }
  const AVFormatContext& format() const { return *format_; }
  bool isImageSequence() const { return isImageSequence_; }

 private:
  [[noreturn]] void failOpen(const std::string& reason) {
    throw VideoError(Kind::DecodingFailed, "cannot open video " + path_.string() + ": " + reason);
  }
  [[noreturn]] void failDecode(const std::string& reason) {
    throw VideoError(Kind::DecodingFailed, "cannot decode video " + path_.string() + ": " + reason);
  }

  fs::path path_;
  bool isImageSequence_ = false;
  AVFormatContext* format_ = nullptr;
  AVCodecContext* codec_ = nullptr;
  AVPacket* packet_ = nullptr;
  AVFrame* frame_ = nullptr;
  int stream_ = -1;
};

// Converts decoded frames to packed RGB with the matrix and range they are tagged with.
class RgbConverter {
 public:
  ~RgbConverter() { sws_freeContext(context_); }

  void convert(const AVFrame& frame, RgbImage& image) {
    const auto format = static_cast<AVPixelFormat>(frame.format);
    context_ = sws_getCachedContext(
        context_, frame.width, frame.height, format, frame.width, frame.height, AV_PIX_FMT_RGB24,
        SWS_BILINEAR | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, nullptr, nullptr, nullptr);
    if (!context_) {
      throw VideoError(Kind::DecodingFailed, std::string("cannot convert decoded frames from ") +
                                                 av_get_pix_fmt_name(format) + " to RGB");
    }
    const int colourspace =
        frame.colorspace == AVCOL_SPC_UNSPECIFIED ? SWS_CS_DEFAULT : int(frame.colorspace);
    // Fails harmlessly (and is ignored) for RGB and palette sources.
    sws_setColorspaceDetails(context_, sws_getCoefficients(colourspace),
                             frame.color_range == AVCOL_RANGE_JPEG ? 1 : 0,
                             sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16);
    if (image.width != frame.width || image.height != frame.height) {
      image = RgbImage(frame.width, frame.height);
    }
    std::uint8_t* destination[4] = {image.pixels.data(), nullptr, nullptr, nullptr};
    const int destinationStride[4] = {3 * image.width, 0, 0, 0};
    sws_scale(context_, frame.data, frame.linesize, 0, frame.height, destination,
              destinationStride);
  }

 private:
  SwsContext* context_ = nullptr;
};

}  // namespace

VideoInfo probeVideo(const fs::path& path, double imageSequenceFps) {
  Decoder decoder(path);
  VideoInfo info;
  std::int64_t first = std::numeric_limits<std::int64_t>::max();
  std::int64_t end = std::numeric_limits<std::int64_t>::min();
  info.frameCount = decoder.run([&](const AVFrame& frame) {
    info.width = frame.width;
    info.height = frame.height;
    const std::int64_t pts = frame.best_effort_timestamp;
    if (pts != AV_NOPTS_VALUE) {
      first = std::min(first, pts);
      end = std::max(end, pts + std::max<std::int64_t>(frame.pkt_duration, 0));
    }
    return true;
  });
  const AVStream& stream = decoder.stream();
  info.codecName = avcodec_get_name(stream.codecpar->codec_id);
  info.formatName = decoder.format().iformat->name;
  if (decoder.isImageSequence()) {
    info.durationSeconds = imageSequenceFps > 0 ? info.frameCount / imageSequenceFps : 0.0;
  } else if (end > first) {
    info.durationSeconds = double(end - first) * av_q2d(stream.time_base);
  }
  return info;
}

int forEachVideoFrame(const fs::path& path,
                      const std::function<bool(int index, const RgbImage& frame)>& visit) {
  Decoder decoder(path);
  RgbConverter converter;
  RgbImage image;
  int index = 0;
  return decoder.run([&](const AVFrame& frame) {
    converter.convert(frame, image);
    return visit(index++, image);
  });
}

RgbImage decodeVideoFrame(const fs::path& path, int index) {
  RgbImage result;
  bool found = false;
  const int visited = forEachVideoFrame(path, [&](int i, const RgbImage& frame) {
    if (i != index) return true;
    result = frame;
    found = true;
    return false;
  });
  if (!found) {
    throw VideoError(Kind::DecodingFailed, "video " + path.string() + " has " +
                                               std::to_string(visited) + " frames, no frame " +
                                               std::to_string(index));
  }
  return result;
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
