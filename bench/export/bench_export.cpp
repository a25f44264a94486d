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
#include <vector>

#include "ui/export/animation_exporter.h"
#include "ui/export/media/video_encoder.h"
#include "ui/export/media/virtual_display.h"

namespace {

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

// Seconds to render every frame of the export (kept in `frames` for encodeOnly).
double renderOnly(const Case& c, std::vector<nh::RgbImage>& frames) {
  QElapsedTimer timer;
  timer.start();
  nhui::AnimationExporter exporter(nh::Scenario{}, settingsOf(c));
  frames.clear();
  for (int i = 0; i < exporter.frameCount(); ++i) frames.push_back(exporter.renderFrame(i));
  return timer.nsecsElapsed() * 1e-9;
}

// Seconds to encode `frames` to `path` in the format its name says.
double encodeOnly(const Case& c, const std::vector<nh::RgbImage>& frames, const QString& path) {
  const nhui::ExportSettings s = settingsOf(c);
  QElapsedTimer timer;
  timer.start();
  nh::VideoEncoder encoder;
  encoder.open(path.toStdString(), nh::VideoSettings{s.width, s.height, s.fps,
                                                     nh::videoFormatForPath(path.toStdString())});
  for (const nh::RgbImage& frame : frames) encoder.addFrame(frame);
  encoder.finish();
  return timer.nsecsElapsed() * 1e-9;
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
      const double render = renderOnly(c, frames);
      const double encode = encodeOnly(c, frames, folder + "/encode_only_" + c.file);
      frames = {};
      nhui::AnimationExporter exporter(nh::Scenario{}, settingsOf(c));
      const auto r = exporter.run((folder + "/" + c.file).toStdString(), {}, nullptr, false);
      std::printf("%-12s %10.2f s %10.2f s %10.2f s %13.2fx %10.2fx  (%.1f ms/frame, %.1f MB)\n",
                  c.name, render, encode, r.seconds, r.seconds / std::max(render, encode),
                  10.0 / r.seconds, 1000 * r.seconds / r.frames, r.bytes / 1e6);
    } catch (const std::exception& e) {
      std::printf("%-12s failed: %s\n", c.name, e.what());
      return 1;
    }
    std::fflush(stdout);
  }
  return 0;
}
