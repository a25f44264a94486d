// GIF for the video encoder (video_encoder_detail.h): frames spooled compressed to an
// unlinked file while the colour statistics grow, then one palette for the whole clip by
// median cut, ordered dithering to it, and the frames encoded through the stream writer.
#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <vector>

#include "ui/export/media/video_encoder_detail.h"

namespace nh::video {

namespace {

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

}  // namespace

std::unique_ptr<VideoEncoder::Impl> makeGif(const fs::path& target, const VideoSettings& settings) {
  return std::make_unique<GifImpl>(target, settings);
}

}  // namespace nh::video
// SPDX-License-Identifier: GPL-3.0-or-later
