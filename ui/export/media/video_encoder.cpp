// VideoEncoder (video_encoder.h): the temporary file or folder beside the target and its
// rename at finish(), and the three encoders behind it: H.264/VP9 in YUV through libavformat,
// GIF with a median-cut palette, and a folder of PNG frames.
#include "ui/export/media/video_encoder.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <mutex>
#include <random>
#include <system_error>
#include <utility>

#include "core/io/atomic_output.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

namespace nh {

namespace fs = std::filesystem;
using Kind = VideoError::Kind;

namespace {

// x264 and libvpx output depends on the thread count, so it is fixed (not "auto") to keep
// files identical across machines; 4 keeps two cores busy through frame/row parallelism.
constexpr int kCodecThreads = 4;
constexpr const char* kPngFramePattern = "frame_%06d.png";

[[noreturn]] void fail(Kind kind, const std::string& message) { throw VideoError(kind, message); }

std::string avError(int code) {
  char buffer[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, buffer, sizeof buffer);
  return buffer;
}

std::string quoted(const fs::path& path) {
  std::string text = path.string();
  text.insert(text.begin(), '\'');
  text.push_back('\'');
  return text;
}

std::string lowercase(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

fs::path folderOf(const fs::path& target) {
  const fs::path parent = target.parent_path();
  return parent.empty() ? fs::path(".") : parent;
}

// Target without a trailing separator, so that "frames/" names the directory "frames".
fs::path normalizedTarget(const fs::path& path) {
  fs::path p = path;
  while (!p.has_filename() && p.has_parent_path() && p != p.root_path()) p = p.parent_path();
  return p;
}

std::string randomTag() {
  static const char alphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  thread_local std::mt19937_64 generator{std::random_device{}()};
  std::string tag(6, 'x');
  for (char& c : tag) c = alphabet[generator() % (sizeof alphabet - 1)];
  return tag;
}

void requireWritableFolder(const fs::path& target) {
  const fs::path folder = folderOf(target);
  std::error_code error;
  const fs::file_status status = fs::status(folder, error);
  if (!fs::exists(status)) {
    fail(Kind::Unwritable, "cannot write " + quoted(target) + ": the folder " + quoted(folder) +
                               " does not exist; create it or choose another location");
  }
  if (!fs::is_directory(status)) {
    fail(Kind::Unwritable, "cannot write " + quoted(target) + ": " + quoted(folder) +
                               " is not a folder; choose a path inside a folder");
  }
}

[[noreturn]] void failCreate(const fs::path& target, int error) {
  fail(Kind::Unwritable, "cannot write " + quoted(target) + ": " + std::strerror(error) +
                             " (creating a temporary in " + quoted(folderOf(target)) +
                             "); choose a writable folder");
}

// A hidden sibling of target: ".clip.XXXXXX.partial.mp4" for "clip.mp4". The extension stays
// last so that tools recognise the temporary, and the name is unique so that concurrent
// exports to the same folder do not collide.
fs::path temporarySibling(const fs::path& target, const std::string& kind) {
  const std::string stem = target.stem().string();
  const std::string extension = target.extension().string();
  return folderOf(target) / ("." + stem + "." + randomTag() + "." + kind + extension);
}

// Creates an empty temporary file next to target and returns its path. Mode 0666 lets the
// umask decide the final permissions, as for any other file the user creates.
fs::path createTemporaryFile(const fs::path& target, const std::string& kind) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    const fs::path path = temporarySibling(target, kind);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) {
      ::close(fd);
      return path;
    }
    if (errno != EEXIST) failCreate(target, errno);
  }
  failCreate(target, EEXIST);
}

fs::path createTemporaryDirectory(const fs::path& target) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    const fs::path path = temporarySibling(target, "partial");
    if (::mkdir(path.c_str(), 0777) == 0) return path;
    if (errno != EEXIST) failCreate(target, errno);
  }
  failCreate(target, EEXIST);
}

void removeQuietly(const fs::path& path) noexcept {
  if (path.empty()) return;
  std::error_code ignored;
  fs::remove_all(path, ignored);
}

// Flushes a finished file to disk before it replaces the target, so that a crash right after
// the rename cannot leave a truncated video under the final name.
void syncFile(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

void writeAll(int fd, const std::uint8_t* data, std::size_t size, const fs::path& target) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      fail(Kind::Unwritable, "writing " + quoted(target) + " failed: " + std::strerror(errno) +
                                 "; free some disk space or choose another folder");
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
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

// Copies height rows of width RGB pixels (stride may be negative) into a packed buffer.
void copyRows(const std::uint8_t* rgb, std::ptrdiff_t stride, int width, int height,
              std::uint8_t* destination, std::ptrdiff_t destinationStride) {
  const std::size_t rowBytes = std::size_t(3) * width;
  for (int y = 0; y < height; ++y) {
    std::memcpy(destination + y * destinationStride, rgb + y * stride, rowBytes);
  }
}

// One encoded video stream muxed by libavformat into a temporary file next to the target;
// commit() completes the file and renames it over the target.
class StreamWriter {
 public:
  using Configure = std::function<void(AVCodecContext*)>;

  StreamWriter(const fs::path& target, const char* muxer, const AVCodec* codec,
               const VideoSettings& settings, AVPixelFormat pixelFormat, const Configure& configure,
               AVDictionary** muxerOptions)
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

  ~StreamWriter() { discard(); }
  StreamWriter(const StreamWriter&) = delete;
  StreamWriter& operator=(const StreamWriter&) = delete;

  AVCodecContext* codec() { return codec_.get(); }

  // Encodes one frame (pts = frame index) or, with nullptr, drains the encoder.
  void send(AVFrame* frame) {
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

  void commit() {
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

  void discard() noexcept {
    if (format_) {
      if (format_->pb) avio_closep(&format_->pb);
      avformat_free_context(format_);
      format_ = nullptr;
    }
    removeQuietly(temporary_);
    temporary_.clear();
    registration_.release();
  }

 private:
  [[noreturn]] void failWrite(int code) {
    fail(Kind::Unwritable, "writing " + quoted(target_) + " failed: " + avError(code) +
                               "; free some disk space or choose another folder");
  }

  fs::path target_;
  fs::path temporary_;
  nh::TemporaryRegistration registration_;  // so that nh::removeLiveTemporaries() finds it
  CodecPtr codec_;
  PacketPtr packet_;
  AVFormatContext* format_ = nullptr;
  AVStream* stream_ = nullptr;
};

}  // namespace

// ---------------------------------------------------------------------------------------------

class VideoEncoder::Impl {
 public:
  Impl(const fs::path& target, const VideoSettings& settings)
      : target_(target), settings_(settings) {}
  virtual ~Impl() = default;
  virtual void addFrame(const std::uint8_t* rgb, std::ptrdiff_t stride) = 0;
  virtual void finish() = 0;            // completes the output and moves it onto target_
  virtual void discard() noexcept = 0;  // removes every temporary

  fs::path target_;
  VideoSettings settings_;
  int frames_ = 0;
};

namespace {

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

// ---------------------------------------------------------------------------------------------
// GIF: one global palette for the whole clip, so that unchanged pixels keep their index from
// frame to frame and the GIF encoder can store only what moved (transparency diffing). The
// palette needs every frame, so addFrame() spools frames (zlib level 1) to an unlinked file in
// the target folder, and finish() builds the palette and encodes.

constexpr int kHistogramBits = 5;     // per channel: 32768 bins for the palette statistics
constexpr int kLookupBits = 6;        // per channel: resolution of the nearest-colour table
constexpr int kPaletteColours = 255;  // entry 255 is transparent, used by transparency diffing
constexpr int kTransparentIndex = 255;

struct ColourBin {
  std::uint64_t count = 0;
  std::array<std::uint64_t, 3> sum{};
};

// Median cut (Heckbert 1982) over a colour histogram: repeatedly split the box with the largest
// squared error at the weighted median of its widest-variance axis; each box's mean is one
// palette colour.
std::vector<std::array<std::uint8_t, 3>> medianCutPalette(const std::vector<ColourBin>& bins,
                                                          int maxColours) {
  struct Entry {
    std::array<double, 3> mean;
    double count;
    std::array<std::uint64_t, 3> sum;
    std::uint64_t n;
  };
  std::vector<Entry> entries;
  for (const ColourBin& bin : bins) {
    if (bin.count == 0) continue;
    const double n = static_cast<double>(bin.count);
    entries.push_back({{bin.sum[0] / n, bin.sum[1] / n, bin.sum[2] / n}, n, bin.sum, bin.count});
  }
  struct Box {
    std::size_t begin, end;
    double error;
    int axis;
  };
  auto measure = [&](std::size_t begin, std::size_t end) {
    Box box{begin, end, 0.0, 0};
    if (end - begin < 2) return box;
    std::array<double, 3> s{}, s2{};
    double total = 0;
    for (std::size_t i = begin; i < end; ++i) {
      const Entry& e = entries[i];
      total += e.count;
      for (int c = 0; c < 3; ++c) {
        s[c] += e.count * e.mean[c];
        s2[c] += e.count * e.mean[c] * e.mean[c];
      }
    }
    double best = -1;
    for (int c = 0; c < 3; ++c) {
      const double variance = s2[c] - s[c] * s[c] / total;
      box.error += variance;
      if (variance > best) {
        best = variance;
        box.axis = c;
      }
    }
    return box;
  };
  std::vector<Box> boxes;
  if (!entries.empty()) boxes.push_back(measure(0, entries.size()));
  while (static_cast<int>(boxes.size()) < maxColours) {
    auto worst = std::max_element(boxes.begin(), boxes.end(),
                                  [](const Box& a, const Box& b) { return a.error < b.error; });
    if (worst == boxes.end() || worst->end - worst->begin < 2 || worst->error <= 0) break;
    const Box box = *worst;
    const int axis = box.axis;
    std::sort(entries.begin() + box.begin, entries.begin() + box.end,
              [axis](const Entry& a, const Entry& b) {
                // Full tie-break keeps the order, hence the palette, deterministic.
                if (a.mean[axis] != b.mean[axis]) return a.mean[axis] < b.mean[axis];
                return a.mean < b.mean;
              });
    double total = 0;
    for (std::size_t i = box.begin; i < box.end; ++i) total += entries[i].count;
    double running = 0;
    std::size_t split = box.begin + 1;
    for (std::size_t i = box.begin; i < box.end - 1; ++i) {
      running += entries[i].count;
      split = i + 1;
      if (running >= total / 2) break;
    }
    *worst = measure(box.begin, split);
    boxes.push_back(measure(split, box.end));
  }
  std::vector<std::array<std::uint8_t, 3>> palette;
  for (const Box& box : boxes) {
    std::array<std::uint64_t, 3> sum{};
    std::uint64_t n = 0;
    for (std::size_t i = box.begin; i < box.end; ++i) {
      for (int c = 0; c < 3; ++c) sum[c] += entries[i].sum[c];
      n += entries[i].n;
    }
    std::array<std::uint8_t, 3> colour{};
    for (int c = 0; c < 3; ++c) colour[c] = static_cast<std::uint8_t>((sum[c] + n / 2) / n);
    palette.push_back(colour);
  }
  if (palette.empty()) palette.push_back({0, 0, 0});
  return palette;
}

// 8×8 Bayer matrix: ordered dithering gives the same pattern wherever the image does not
// change, which keeps static regions identical between frames (error diffusion would not).
constexpr std::array<std::array<int, 8>, 8> kBayer = {{
    {0, 32, 8, 40, 2, 34, 10, 42},
    {48, 16, 56, 24, 50, 18, 58, 26},
    {12, 44, 4, 36, 14, 46, 6, 38},
    {60, 28, 52, 20, 62, 30, 54, 22},
    {3, 35, 11, 43, 1, 33, 9, 41},
    {51, 19, 59, 27, 49, 17, 57, 25},
    {15, 47, 7, 39, 13, 45, 5, 37},
    {63, 31, 55, 23, 61, 29, 53, 21},
}};

class GifImpl final : public VideoEncoder::Impl {
 public:
  GifImpl(const fs::path& target, const VideoSettings& settings)
      : Impl(target, settings), bins_(std::size_t(1) << (3 * kHistogramBits)) {
    codec_ = requireEncoder("gif", "GIF");
    // Checks that a GIF can be written here now rather than after every frame was rendered.
    probe_ = createTemporaryFile(target, "partial");
    probeRegistration_ = nh::TemporaryRegistration(probe_.string());
    try {
      const fs::path spoolPath = createTemporaryFile(target, "spool");
      spool_ = ::open(spoolPath.c_str(), O_RDWR | O_CLOEXEC);
      const int error = errno;
      // Unlinked at once: the kernel frees the spool even if the process dies.
      ::unlink(spoolPath.c_str());
      if (spool_ < 0) failCreate(target, error);
    } catch (...) {
      removeQuietly(probe_);
      throw;
    }
    frame_.resize(std::size_t(3) * settings.width * settings.height);
  }

  ~GifImpl() override { discard(); }

  void addFrame(const std::uint8_t* rgb, std::ptrdiff_t stride) override {
    const int width = settings_.width;
    const int height = settings_.height;
    // Every second pixel of every second row is plenty for palette statistics.
    for (int y = 0; y < height; y += 2) {
      const std::uint8_t* row = rgb + y * stride;
      for (int x = 0; x < width; x += 2) {
        const std::uint8_t* p = row + 3 * x;
        constexpr int shift = 8 - kHistogramBits;
        const std::size_t key = (std::size_t(p[0] >> shift) << (2 * kHistogramBits)) |
                                (std::size_t(p[1] >> shift) << kHistogramBits) | (p[2] >> shift);
        ColourBin& bin = bins_[key];
        ++bin.count;
        bin.sum[0] += p[0];
        bin.sum[1] += p[1];
        bin.sum[2] += p[2];
      }
    }
    copyRows(rgb, stride, width, height, frame_.data(), std::ptrdiff_t(3) * width);
    uLongf size = compressBound(frame_.size());
    compressed_.resize(size);
    if (compress2(compressed_.data(), &size, frame_.data(), frame_.size(), 1) != Z_OK) {
      fail(Kind::EncodingFailed, "cannot compress a GIF frame (out of memory?)");
    }
    writeAll(spool_, compressed_.data(), size, target_);
    spoolSizes_.push_back(size);
  }

  void finish() override {
    buildPalette();
    removeQuietly(probe_);
    probe_.clear();
    probeRegistration_.release();
    auto configure = [](AVCodecContext* c) { c->thread_count = 1; };
    AVDictionary* options = nullptr;
    av_dict_set(&options, "loop", "0", 0);  // 0: loop forever
    try {
      writer_ = std::make_unique<StreamWriter>(target_, "gif", codec_, settings_, AV_PIX_FMT_PAL8,
                                               configure, &options);
    } catch (...) {
      av_dict_free(&options);
      throw;
    }
    av_dict_free(&options);

    FramePtr indexed = allocateFrame(AV_PIX_FMT_PAL8, settings_.width, settings_.height);
    if (::lseek(spool_, 0, SEEK_SET) < 0) failSpool();
    for (std::size_t i = 0; i < spoolSizes_.size(); ++i) {
      compressed_.resize(spoolSizes_[i]);
      readAll(compressed_.data(), compressed_.size());
      uLongf size = frame_.size();
      if (uncompress(frame_.data(), &size, compressed_.data(), compressed_.size()) != Z_OK ||
          size != frame_.size()) {
        failSpool();
      }
      makeWritable(indexed.get());
      quantize(indexed.get());
      indexed->pts = static_cast<std::int64_t>(i);
      writer_->send(indexed.get());
    }
    writer_->commit();
    writer_.reset();
  }

  void discard() noexcept override {
    if (writer_) writer_->discard();
    writer_.reset();
    removeQuietly(probe_);
    probe_.clear();
    probeRegistration_.release();
    if (spool_ >= 0) ::close(spool_);
    spool_ = -1;
  }

 private:
  [[noreturn]] void failSpool() {
    fail(Kind::Unwritable, "reading back the GIF frames spooled next to " + quoted(target_) +
                               " failed: " + std::strerror(errno));
  }

  void readAll(std::uint8_t* data, std::size_t size) {
    while (size > 0) {
      const ssize_t n = ::read(spool_, data, size);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) failSpool();
      data += n;
      size -= static_cast<std::size_t>(n);
    }
  }

  void buildPalette() {
    const auto colours = medianCutPalette(bins_, kPaletteColours);
    for (std::size_t i = 0; i < palette_.size(); ++i) {
      palette_[i] = 0xFF000000u;  // unused entries: opaque black
    }
    for (std::size_t i = 0; i < colours.size(); ++i) {
      palette_[i] = 0xFF000000u | (std::uint32_t(colours[i][0]) << 16) |
                    (std::uint32_t(colours[i][1]) << 8) | colours[i][2];
    }
    palette_[kTransparentIndex] = 0x00000000u;  // alpha 0: the encoder's transparent index
    colours_ = colours;
    lookup_.assign(std::size_t(1) << (3 * kLookupBits), -1);
  }

  int nearest(std::size_t key) {
    std::int16_t& cached = lookup_[key];
    if (cached >= 0) return cached;
    constexpr int shift = 8 - kLookupBits;
    constexpr int centre = 1 << (shift - 1);
    const int r = int((key >> (2 * kLookupBits)) << shift) + centre;
    const int g = int(((key >> kLookupBits) & ((1 << kLookupBits) - 1)) << shift) + centre;
    const int b = int((key & ((1 << kLookupBits) - 1)) << shift) + centre;
    int best = 0;
    int bestDistance = 1 << 30;
    for (std::size_t i = 0; i < colours_.size(); ++i) {
      const int dr = r - colours_[i][0];
      const int dg = g - colours_[i][1];
      const int db = b - colours_[i][2];
      // Weights approximate perceived differences (green counts most, blue least).
      const int distance = 2 * dr * dr + 4 * dg * dg + 3 * db * db;
      if (distance < bestDistance) {
        bestDistance = distance;
        best = static_cast<int>(i);
      }
    }
    cached = static_cast<std::int16_t>(best);
    return best;
  }

  void quantize(AVFrame* indexed) {
    std::memcpy(indexed->data[1], palette_.data(), palette_.size() * sizeof(std::uint32_t));
    const int width = settings_.width;
    constexpr int shift = 8 - kLookupBits;
    for (int y = 0; y < settings_.height; ++y) {
      const std::uint8_t* source = frame_.data() + std::size_t(3) * width * y;
      std::uint8_t* destination = indexed->data[0] + std::ptrdiff_t(indexed->linesize[0]) * y;
      const auto& bayerRow = kBayer[y & 7];
      for (int x = 0; x < width; ++x) {
        // Threshold offset in -8..7, the amplitude of FFmpeg's paletteuse bayer_scale=2.
        const int offset = (bayerRow[x & 7] >> 2) - 8;
        const int r = std::clamp(source[3 * x] + offset, 0, 255);
        const int g = std::clamp(source[3 * x + 1] + offset, 0, 255);
        const int b = std::clamp(source[3 * x + 2] + offset, 0, 255);
        const std::size_t key = (std::size_t(r >> shift) << (2 * kLookupBits)) |
                                (std::size_t(g >> shift) << kLookupBits) | std::size_t(b >> shift);
        destination[x] = static_cast<std::uint8_t>(nearest(key));
      }
    }
  }

  const AVCodec* codec_ = nullptr;
  fs::path probe_;  // empty placeholder reserving the output's temporary until finish()
  nh::TemporaryRegistration probeRegistration_;
  int spool_ = -1;
  std::vector<std::uint32_t> spoolSizes_;
  std::vector<ColourBin> bins_;
  std::vector<std::uint8_t> frame_;
  std::vector<std::uint8_t> compressed_;
  std::array<std::uint32_t, 256> palette_{};
  std::vector<std::array<std::uint8_t, 3>> colours_;
  std::vector<std::int16_t> lookup_;
  std::unique_ptr<StreamWriter> writer_;
};

// ---------------------------------------------------------------------------------------------
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

// ---------------------------------------------------------------------------------------------

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
  requireWritableFolder(target);
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
  quietLibavLogging();
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
      impl_ = std::make_unique<YuvVideoImpl>(target, settings);
      break;
    case VideoFormat::Gif:
      impl_ = std::make_unique<GifImpl>(target, settings);
      break;
    case VideoFormat::PngSequence:
      impl_ = std::make_unique<PngSequenceImpl>(target, settings);
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
