// MP4 (H.264) and WebM (VP9) for the video encoder (video_encoder_detail.h): the codec set-up
// of libx264 and libvpx-vp9 (quality, speed, threads, colour tagging) and the conversion of
// each RGB frame to BT.709 yuv420p before it is sent to the stream writer.
#include <algorithm>
#include <cmath>

#include "ui/export/media/video_encoder_detail.h"

extern "C" {
#include <libavutil/opt.h>
}

namespace nh::video {

namespace {

// x264 and libvpx output depends on the thread count, so it is fixed (not "auto") to keep
// files identical across machines; 4 keeps two cores busy through frame/row parallelism.
constexpr int kCodecThreads = 4;

// MP4 (H.264) and WebM (VP9): RGB converted to BT.709 limited-range yuv420p, the tagging
// browsers and players assume for HD video.
class YuvVideoImpl final : public VideoEncoder::Impl {
 public:
  YuvVideoImpl(const fs::path& target, const VideoSettings& settings) : Impl(target, settings) {
    const bool mp4 = settings.format == VideoFormat::Mp4;
    const AVCodec* codec =
        mp4 ? requireEncoder("libx264", "MP4 (H.264)") : requireEncoder("libvpx-vp9", "WebM (VP9)");
    const int width = settings.width;
    auto configure = [&](AVCodecContext* c) {
      c->thread_count = kCodecThreads;
      c->gop_size = std::max(1, static_cast<int>(std::lround(2 * settings.fps)));
      c->color_range = AVCOL_RANGE_MPEG;
      c->colorspace = AVCOL_SPC_BT709;
      c->color_primaries = AVCOL_PRI_BT709;
      c->color_trc = AVCOL_TRC_BT709;
      if (mp4) {
        // CRF 20 is visually lossless for rendered scenes; veryfast keeps 720p well above
        // real time on two cores.
        av_opt_set(c->priv_data, "preset", "veryfast", 0);
        av_opt_set(c->priv_data, "crf", "20", 0);
        av_opt_set(c->priv_data, "profile", "high", 0);
      } else {
        // Constant quality (CRF with zero bitrate) at libvpx's realtime speed: the "good"
        // deadline is 10x slower for a small gain on clean synthetic images.
        c->bit_rate = 0;
        av_opt_set_int(c->priv_data, "crf", 32, 0);
        av_opt_set(c->priv_data, "deadline", "realtime", 0);
        av_opt_set_int(c->priv_data, "cpu-used", 8, 0);
        av_opt_set_int(c->priv_data, "row-mt", 1, 0);
        av_opt_set_int(c->priv_data, "lag-in-frames", 0, 0);
        // Tiles are at least 256 px wide; log2 of the count.
        int tiles = 0;
        while ((256 << (tiles + 1)) <= width && tiles < 2) ++tiles;
        av_opt_set_int(c->priv_data, "tile-columns", tiles, 0);
      }
    };
    AVDictionary* options = nullptr;
    // +faststart puts the index first so that browsers and slides start playing at once.
    if (mp4) av_dict_set(&options, "movflags", "+faststart", 0);
    try {
      writer_ = std::make_unique<StreamWriter>(target, mp4 ? "mp4" : "webm", codec, settings,
                                               AV_PIX_FMT_YUV420P, configure, &options);
    } catch (...) {
      av_dict_free(&options);
      throw;
    }
    av_dict_free(&options);

    frame_ = allocateFrame(AV_PIX_FMT_YUV420P, settings.width, settings.height);
    frame_->color_range = AVCOL_RANGE_MPEG;
    frame_->colorspace = AVCOL_SPC_BT709;
    frame_->color_primaries = AVCOL_PRI_BT709;
    frame_->color_trc = AVCOL_TRC_BT709;
    scaler_.reset(sws_getContext(settings.width, settings.height, AV_PIX_FMT_RGB24, settings.width,
                                 settings.height, AV_PIX_FMT_YUV420P,
                                 SWS_BICUBIC | SWS_ACCURATE_RND, nullptr, nullptr, nullptr));
    if (!scaler_) fail(Kind::EncodingFailed, "cannot set up the RGB to YUV conversion");
    sws_setColorspaceDetails(scaler_.get(), sws_getCoefficients(SWS_CS_DEFAULT), 1,
                             sws_getCoefficients(SWS_CS_ITU709), 0, 0, 1 << 16, 1 << 16);
  }

  void addFrame(const std::uint8_t* rgb, std::ptrdiff_t stride) override {
    makeWritable(frame_.get());
    const std::uint8_t* source[4] = {rgb, nullptr, nullptr, nullptr};
    const int sourceStride[4] = {static_cast<int>(stride), 0, 0, 0};
    sws_scale(scaler_.get(), source, sourceStride, 0, settings_.height, frame_->data,
              frame_->linesize);
    frame_->pts = frames_;
    writer_->send(frame_.get());
  }

  void finish() override { writer_->commit(); }
  void discard() noexcept override {
    if (writer_) writer_->discard();
  }

 private:
  std::unique_ptr<StreamWriter> writer_;
  FramePtr frame_;
  SwsPtr scaler_;
};

}  // namespace

std::unique_ptr<VideoEncoder::Impl> makeYuvVideo(const fs::path& target,
                                                 const VideoSettings& settings) {
  return std::make_unique<YuvVideoImpl>(target, settings);
}

}  // namespace nh::video
// SPDX-License-Identifier: GPL-3.0-or-later
