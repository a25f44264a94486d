// Seconds to export 10 s of the default scenario (ball_on_turntable) at 1280×720, 30 fps
// (300 frames), rendered offscreen in software, to MP4, then GIF and WebM (and MP4 with plots
// beside the view). Prints one line per case with the ratio to real time (> 1: faster).
// Needs no display: a private Xvfb is started when DISPLAY is unusable.
// Usage: bench_export [OUTPUT_FOLDER]   (default: a temporary folder, removed afterwards)
#include <QElapsedTimer>
#include <QGuiApplication>
#include <QTemporaryDir>
#include <cstdio>
#include <cstdlib>

#include "ui/export/animation_exporter.h"
#include "ui/export/media/virtual_display.h"

int main(int argc, char** argv) {
  const auto display = nh::ensureDisplay();
  if (!std::getenv("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  int qtArgc = 1;
  QGuiApplication app(qtArgc, argv);
  QTemporaryDir temp;
  const QString folder = argc > 1 ? QString::fromLocal8Bit(argv[1]) : temp.path();

  struct Case {
    const char* name;
    const char* file;
    bool plots;
  };
  const Case cases[] = {{"MP4 (H.264)", "bench.mp4", false},
                        {"GIF", "bench.gif", false},
                        {"WebM (VP9)", "bench.webm", false},
                        {"MP4 + plots", "bench_plots.mp4", true}};
  {
    // Rendering alone (no encoder), to tell GL time from codec time.
    nhui::ExportSettings s;
    s.trails = !std::getenv("NH_BENCH_NO_TRAILS");
    s.overlay = !std::getenv("NH_BENCH_NO_OVERLAY");
    s.forceArrows = !std::getenv("NH_BENCH_NO_ARROWS");
    nhui::AnimationExporter exporter(nh::Scenario{}, s);
    exporter.renderFrame(0);  // simulation, shader compilation
    QElapsedTimer timer;
    timer.start();
    const int frames = 60;
    for (int i = 1; i <= frames; ++i) exporter.renderFrame(i);
    std::printf("render only  %6.1f ms/frame at 1280x720 (no encoding)\n",
                timer.nsecsElapsed() * 1e-6 / frames);
  }
  if (std::getenv("NH_BENCH_RENDER_ONLY")) return 0;
  std::printf(
      "export of 10 s of ball_on_turntable at 1280x720, 30 fps (300 frames), software GL\n");
  for (const Case& c : cases) {
    nhui::ExportSettings
        s;  // defaults: 1280×720, 30 fps, t = 0 … 10 s, speed 1, trails, forces, overlay
    s.plots = c.plots;
    try {
      nhui::AnimationExporter exporter(nh::Scenario{}, s);
      const auto r = exporter.run((folder + "/" + c.file).toStdString(), {}, nullptr, false);
      std::printf("%-12s %6.2f s  (%.2fx real time, %.1f ms/frame, %.1f MB)\n", c.name, r.seconds,
                  10.0 / r.seconds, 1000 * r.seconds / r.frames, r.bytes / 1e6);
    } catch (const std::exception& e) {
      std::printf("%-12s failed: %s\n", c.name, e.what());
      return 1;
    }
    std::fflush(stdout);
  }
  return 0;
}
