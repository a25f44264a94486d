// Seconds to export 10 s of the default scenario (ball_on_turntable) at 1280×720, 30 fps
// (300 frames), rendered offscreen in software, to MP4, GIF and WebM (and MP4 with plots beside
// the view). Per format it measures, on the same 300 frames:
//   render only  the exporter rendering every frame and reading it back (no encoder),
//   encode only  the encoder fed the frames rendered before (no rendering),
//   export       the whole export (AnimationExporter::run), both overlapped,
// and prints export / limit, the limit being the slower of the first two (what a perfect
// overlap of rendering and encoding would take). Each includes its own start-up (simulation,
// shader compilation; opening and finishing the file).
// Needs no display: a private Xvfb is started when DISPLAY is unusable.
// Usage: bench_export [OUTPUT_FOLDER]   (default: a temporary folder, removed afterwards)
#include <QElapsedTimer>
#include <QGuiApplication>
#include <QTemporaryDir>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#include "ui/export/animation_exporter.h"
#include "ui/export/media/video_encoder.h"
#include "ui/export/media/virtual_display.h"

namespace {

double cpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

// Wall-clock and CPU seconds (all threads: the rasteriser's, the encoder's) of one part.
struct Timing {
  double wall = 0;
  double cpu = 0;
};

template <typename F>
Timing timed(F&& f) {
  QElapsedTimer timer;
  timer.start();
  const double cpu0 = cpuSeconds();
  f();
  return {timer.nsecsElapsed() * 1e-9, cpuSeconds() - cpu0};
}

struct Case {
  const char* name;
  const char* file;
  bool plots;
};

nhui::ExportSettings settingsOf(const Case& c) {
  nhui::ExportSettings s;  // defaults: 1280×720, 30 fps, t = 0 … 10 s, speed 1, trails, forces
  s.plots = c.plots;
  return s;
}

// Renders every frame of the export (kept in `frames` for encodeOnly).
Timing renderOnly(const Case& c, std::vector<nh::RgbImage>& frames) {
  return timed([&] {
    nhui::AnimationExporter exporter(nh::Scenario{}, settingsOf(c));
    frames.clear();
    for (int i = 0; i < exporter.frameCount(); ++i) frames.push_back(exporter.renderFrame(i));
  });
}

// Encodes `frames` to `path` in the format its name says.
Timing encodeOnly(const Case& c, const std::vector<nh::RgbImage>& frames, const QString& path) {
  const nhui::ExportSettings s = settingsOf(c);
  return timed([&] {
    nh::VideoEncoder encoder;
    encoder.open(path.toStdString(), nh::VideoSettings{s.width, s.height, s.fps,
                                                       nh::videoFormatForPath(path.toStdString())});
    for (const nh::RgbImage& frame : frames) encoder.addFrame(frame);
    encoder.finish();
  });
}

}  // namespace

int main(int argc, char** argv) {
  const auto display = nh::ensureDisplay();
  if (!std::getenv("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  int qtArgc = 1;
  QGuiApplication app(qtArgc, argv);
  QTemporaryDir temp;
  const QString folder = argc > 1 ? QString::fromLocal8Bit(argv[1]) : temp.path();

  const Case cases[] = {{"MP4 (H.264)", "bench.mp4", false},
                        {"GIF", "bench.gif", false},
                        {"WebM (VP9)", "bench.webm", false},
                        {"MP4 + plots", "bench_plots.mp4", true}};
  std::printf(
      "export of 10 s of ball_on_turntable at 1280x720, 30 fps (300 frames), software GL\n"
      "%-12s %12s %12s %12s %14s %12s\n",
      "format", "render only", "encode only", "export", "export/limit", "real time");
  for (const Case& c : cases) {
    try {
      std::vector<nh::RgbImage> frames;
      const Timing render = renderOnly(c, frames);
      const Timing encode = encodeOnly(c, frames, folder + "/encode_only_" + c.file);
      frames = {};
      nhui::AnimationExporter exporter(nh::Scenario{}, settingsOf(c));
      nhui::ExportResult r;
      const Timing all = timed(
          [&] { r = exporter.run((folder + "/" + c.file).toStdString(), {}, nullptr, false); });
      std::printf("%-12s %10.2f s %10.2f s %10.2f s %13.2fx %10.2fx  (%.1f MB)\n", c.name,
                  render.wall, encode.wall, all.wall, all.wall / std::max(render.wall, encode.wall),
                  10.0 / all.wall, r.bytes / 1e6);
      // The two cores bound the overlap too: CPU time of render and encode over 2.
      std::printf(
          "%-12s %8.2f CPU-s %8.2f CPU-s %8.2f CPU-s   (render + encode CPU / 2 = %.2f s)\n", "",
          render.cpu, encode.cpu, all.cpu, (render.cpu + encode.cpu) / 2);
    } catch (const std::exception& e) {
      std::printf("%-12s failed: %s\n", c.name, e.what());
      return 1;
    }
    std::fflush(stdout);
  }
  return 0;
}
// SPDX-License-Identifier: GPL-3.0-or-later
