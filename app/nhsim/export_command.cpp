// `nhsim export` (export_command.h): the export options read into an export job (frame size,
// plots, output), the interactive page or the video rendered, a sidecar scenario written, and
// SIGINT/SIGTERM turned into a cancel that leaves no partial file.
#include "app/nhsim/export_command.h"

#include <signal.h>
#include <unistd.h>

#include <QGuiApplication>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <clocale>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <variant>

#include "app/nhsim/cli_support.h"
#include "app/nhsim/command_line.h"
#include "core/io/atomic_output.h"
#include "core/io/scenario_file.h"
#include "core/model/catalogue.h"
#include "core/nh/errors.h"
#include "core/nh/scenario.h"
#include "ui/export/animation_exporter.h"
#include "ui/export/interactive_page.h"
#include "ui/export/lesson_site.h"
#include "ui/export/media/virtual_display.h"
#include "ui/export/plan_source.h"
#include "ui/export/stills.h"
#include "ui/sim/run_history.h"

namespace nh::cli {

namespace {

int parseInteger(const std::string& text, const std::string& what) {
  const double v = parseNumber(text, what);
  if (v != std::floor(v) || std::abs(v) > 1e6)
    throw InputError(what + ": expected a whole number of pixels, got " + quote(text));
  return static_cast<int>(v);
}

std::vector<std::string> splitList(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    const std::string item =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!item.empty()) out.push_back(item);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

// What an export does: the scenario, the settings and the files it writes.
struct ExportJob {
  Scenario scenario;
  nhui::ExportSettings settings;
  std::string output;
  bool frames = false;
  bool html = false;  // an interactive page (--html), not a video
  bool live = false;  // the page runs the motion itself (--live)
  std::string csv;
  bool writeScenario = true;
  bool force = false;  // replace an existing sidecar that another export or the user wrote
  bool quiet = false;
  std::string input;  // the scenario file read, "" for a system name
};

// The frame size, rate, time span, speed and what is drawn, as the options give them.
void applyFrameOptions(const ExportOptions& o, nhui::ExportSettings& e) {
  if (!o.width.empty()) e.width = parseInteger(o.width, "--width");
  if (!o.height.empty()) e.height = parseInteger(o.height, "--height");
  if (!o.fps.empty()) e.fps = parseNumber(o.fps, "--fps");
  if (!o.tStart.empty()) e.tStart = parseNumber(o.tStart, "--t-start");
  if (!o.tEnd.empty()) e.tEnd = parseNumber(o.tEnd, "--t-end");
  if (!o.speed.empty()) e.speed = parseNumber(o.speed, "--speed");
  if (!o.trail.empty()) e.display.trailSeconds = parseNumber(o.trail, "--trail");
  if (o.noTrails) e.display.trails = false;
  if (o.noForces) e.display.reactionArrows = false;
  if (o.velocities) e.display.velocityArrows = true;
  if (o.noOverlay) e.overlay = false;
  if (o.plots) e.plots = true;
  if (!o.theme.empty()) {
    if (o.theme != "dark" && o.theme != "light")
      throw UsageError("--theme: expected dark or light, got " + quote(o.theme));
    e.display.dark = o.theme == "dark";
  }
}

// The plots beside the 3D view: --plot-path X,Y (or none) and --plot VAR,...; each implies
// --plots. What they do not name is the lesson's (its view's plots), else the ground-plane pair
// the system's drag handle moves (none without one, the rigid body) and the energy
// (applyScenarioPlots, applied before).
void applyPlotOptions(const ExportOptions& o, nhui::ExportSettings& e) {
  const bool pathGiven = !o.plotPath.empty();
  if (pathGiven) {
    const auto xy = splitList(o.plotPath);
    if (o.plotPath == "none") {
      e.pathX.clear();
      e.pathY.clear();
    } else if (xy.size() == 2) {
      e.pathX = xy[0];
      e.pathY = xy[1];
    } else {
      throw UsageError("--plot-path expects X,Y (two recorded variables) or none, got " +
                       quote(o.plotPath));
    }
    e.plots = true;
  }
  if (!o.plot.empty()) {
    e.timeSeries = distinctTimeSeries(splitList(o.plot), "--plot");
    e.plots = true;
  }
}

// The video file or the frames folder (with a final '/'), checked for its kind.
void chooseOutput(const ExportOptions& o, ExportJob& job) {
  if (!o.video.empty()) job.output = o.video;
  if (!o.frames.empty()) {
    job.output = o.frames;
    job.frames = true;
  }
  if (o.live && o.html.empty())
    throw UsageError("--live makes a live interactive page: give it with --html OUT.html");
  job.live = o.live;
  if (!o.html.empty()) {
    job.output = o.html;
    job.html = true;
  }
  if (job.output.empty())
    throw UsageError(
        "export needs --video OUT.mp4|OUT.webm|OUT.gif, --frames DIR or --html OUT.html");
  // --frames always means a PNG sequence (whatever the folder is called); --video a file.
  if (job.frames) {
    if (std::filesystem::is_regular_file(job.output))
      throw UsageError("--frames " + quote(job.output) +
                       ": this is a file; give a folder for the PNG frames");
    if (job.output.back() != '/') job.output += '/';
  } else if (!job.html && videoFormatForPath(job.output) == VideoFormat::PngSequence) {
    throw UsageError("--video " + quote(job.output) +
                     ": give a file ending in .mp4, .webm or .gif (or use --frames DIR)");
  }
}

// The export the checked options `o` ask for, its settings checked.
ExportJob exportJobOf(const ExportOptions& o) {
  ExportJob job;
  job.scenario = o.scenario.resolved;
  if (std::filesystem::is_regular_file(o.scenario.target)) job.input = o.scenario.target;
  job.force = o.force;
  const Scenario& s = job.scenario;
  nhui::ExportSettings& e = job.settings;
  // A lesson's span (a plan's T), camera, arrows, comparison and plots; the options win.
  e = nhui::scenarioExportSettings(s);
  applyFrameOptions(o, e);
  applyPlotOptions(o, e);
  job.csv = o.csv;
  job.writeScenario = !o.noScenario;
  job.quiet = o.quiet;
  chooseOutput(o, job);
  // parseCommandLine refused outputs over the inputs and over each other (--csv on the
  // scenario written beside the video, say).
  if (job.writeScenario) nhui::checkScenarioSidecar(job.output, job.input, job.force);
  e.validate();
  return job;
}

std::string megabytes(std::uintmax_t bytes) {
  char buf[32];
  if (bytes >= 1000000)
    std::snprintf(buf, sizeof buf, "%.1f MB", bytes / 1e6);
  else
    std::snprintf(buf, sizeof buf, "%.0f kB", bytes / 1e3);
  return buf;
}

// SIGINT, SIGTERM, SIGHUP: the handler only sets the exporter's cancel flag; the exporter
// stops at the next frame and removes its temporary, the private Xvfb is stopped on return.
// The registered temporaries are removed after that, in the normal control flow (not in the
// handler, which would unlink them under the encoder that is still writing and renaming).
std::atomic<bool> cancelRequested{false};
volatile sig_atomic_t stopSignal = 0;

void requestCancel(int signal) {
  stopSignal = signal;
  cancelRequested.store(true);
}

void catchStopSignals() {
  struct sigaction action {};
  action.sa_handler = requestCancel;
  sigemptyset(&action.sa_mask);
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(signal, &action, nullptr);
}

// Writes the resolved scenario beside an export's output; on failure removes the output (all
// or nothing: an export that cannot be reproduced is not left half-documented).
std::string writeSidecar(const nh::Scenario& resolved, const std::string& output) {
  const std::filesystem::path sidecar = nhui::scenarioPathFor(output);
  try {
    nh::writeScenarioFile(resolved, sidecar.string(), nhui::exportedNameOf(output));
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove(output, ec);
    throw;
  }
  return sidecar.string();
}

// `nhsim export --html`: the run's samples and scenes into one page, without a display or a
// renderer. The target is checked and its temporary created before the simulation, so that a
// bad target fails at once; the page appears complete or not at all.
int runPageExport(const ExportJob& o) {
  const auto started = std::chrono::steady_clock::now();
  removeTemporariesOnFatalSignals();  // SIGUSR1, SIGPIPE...: no hidden temporary left
  endOnStopSignals(o.output);         // SIGINT, SIGTERM, SIGHUP: the same, said, 128 + N
  if (!nhui::interactivePageAvailable()) throw InputError(nhui::kPageUnavailable);
  nh::AtomicOutput out(nhui::checkPageTarget(o.output).string());
  nhui::AnimationExporter exporter(o.scenario, o.settings);
  const std::string html = nhui::exportedPage(exporter, o.scenario, o.live);
  out.write(html);
  out.commit();
  const std::string sidecar =
      o.writeScenario ? writeSidecar(exporter.resolvedScenario(), o.output) : std::string();
  if (!o.csv.empty()) {
    const nhui::RunHistory& recorded = exporter.recordedRun();
    nhui::writeHistoryCsv(QString::fromStdString(o.csv), recorded, 0, recorded.size());
  }
  if (!o.quiet && o.csv != "-") {  // --csv -: standard output holds the rows alone
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::printf("%s: %s, t = %g … %g s, to %s, %s in %.1f s%s%s\n", o.scenario.system.c_str(),
                o.live ? "live interactive page" : "interactive page", o.settings.tStart,
                exporter.resolvedScenario().tEnd, o.output.c_str(), megabytes(html.size()).c_str(),
                seconds, sidecar.empty() ? "" : "; scenario ", sidecar.c_str());
  }
  return kOk;
}

// What VTK and QPainter need to render, for as long as it lives: an X display (without a
// reachable X server, a private Xvfb, stopped by its destructor: VTK renders through GLX only)
// and a QGuiApplication on the offscreen platform (text; it needs no display).
class Renderer {
 public:
  Renderer() : display_(ensureDisplay()) {
    // Qt's start-up chatter (XDG_RUNTIME_DIR and the like) is not for the user: errors only.
    qInstallMessageHandler([](QtMsgType type, const QMessageLogContext&, const QString& message) {
      if (type == QtCriticalMsg || type == QtFatalMsg)
        std::fprintf(stderr, "nhsim: qt: %s\n", qPrintable(message));
    });
    static int argc = 3;
    static char arg0[] = "nhsim", arg1[] = "-platform", arg2[] = "offscreen";
    static char* argv[] = {arg0, arg1, arg2, nullptr};
    if (!QCoreApplication::instance()) app_ = std::make_unique<QGuiApplication>(argc, argv);
    // QGuiApplication sets the locale from the environment; numbers in the CSV and JSON files
    // (printf, strtod) must not follow a decimal-comma locale.
    std::setlocale(LC_NUMERIC, "C");
  }

 private:
  std::unique_ptr<VirtualDisplay> display_;
  std::unique_ptr<QGuiApplication> app_;
};

// `nhsim export --lessons DIR [--live]`: every lesson's page and the index (a display for the
// pictures); an interrupt stops before the next lesson, with no index written.
int runLessonSite(const ExportOptions& o) {
  const auto started = std::chrono::steady_clock::now();
  removeTemporariesOnFatalSignals();
  catchStopSignals();
  if (!nhui::interactivePageAvailable()) throw InputError(nhui::kPageUnavailable);
  nhui::checkLessonFolder(o.lessons);
  const Renderer renderer;
  const bool showProgress = !o.quiet && isatty(STDERR_FILENO);
  auto progress = [&](int at, int count, const std::string& title) {
    if (showProgress)
      std::fprintf(stderr, "\rnhsim: lesson %d/%d: %-50.50s", at + 1, count, title.c_str());
  };
  nhui::LessonSiteOptions options;
  options.live = o.live;
  const nhui::LessonSite site =
      nhui::writeLessonSite(o.lessons, options, progress, &cancelRequested);
  if (showProgress) std::fprintf(stderr, "\r%70s\r", "");
  if (cancelRequested.load()) {
    nh::removeLiveTemporaries();
    std::fprintf(stderr, "nhsim: interrupted after %zu lessons; %s has no index.html\n",
                 site.pages.size(), o.lessons.c_str());
    return 128 + stopSignal;
  }
  if (!o.quiet) {
    int live = 0;
    for (const auto& page : site.pages) live += page.live;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::printf("lessons: %zu pages (%d live) and %s, %s in %.1f s\n", site.pages.size(), live,
                site.index.string().c_str(), megabytes(site.bytes).c_str(), seconds);
  }
  return kOk;
}

int runExport(const std::vector<std::string>& args) {
  std::vector<std::string> words{ExportOptions::kRow.name};
  words.insert(words.end(), args.begin(), args.end());
  const CommandLine parsed = parseArguments(words);
  if (const auto* help = std::get_if<HelpRequest>(&parsed)) {  // before any display is looked for
    std::fputs(help->text.c_str(), stdout);
    return kOk;
  }
  // Words that start with "export" are export's options or help (answered above).
  const CommandLine line = parseCommandLine(words);
  const ExportOptions& options = std::get<ExportOptions>(line);
  if (!options.lessons.empty()) return runLessonSite(options);
  const ExportJob o = exportJobOf(options);
  if (o.html) return runPageExport(o);  // no display, no renderer
  removeTemporariesOnFatalSignals();    // SIGUSR1, SIGPIPE...: no hidden temporary left
  catchStopSignals();
  const Renderer renderer;

  nhui::AnimationExporter exporter(o.scenario, o.settings);
  const bool showProgress = !o.quiet && isatty(STDERR_FILENO);
  auto progress = [&](const nhui::ExportProgress& p) {
    if (!showProgress) return;
    if (p.stage == nhui::ExportProgress::Stage::Rendering)
      std::fprintf(stderr, "\rnhsim: frame %d/%d, %.0f s left   ", p.frame, p.frameCount,
                   std::max(0.0, p.remainingSeconds));
    else if (p.stage == nhui::ExportProgress::Stage::Finishing)
      std::fprintf(stderr, "\rnhsim: finishing %s…                 ", o.output.c_str());
  };
  nhui::ExportResult r;
  try {
    r = exporter.run(o.output, progress, &cancelRequested, o.writeScenario);
  } catch (...) {
    if (showProgress) std::fputc('\n', stderr);
    throw;
  }
  if (r.cancelled) {
    nh::removeLiveTemporaries();
    if (showProgress) std::fputc('\n', stderr);
    std::fprintf(stderr, "nhsim: interrupted; %s was not written\n", o.output.c_str());
    return 128 + stopSignal;
  }
  if (showProgress) std::fprintf(stderr, "\r%60s\r", "");
  if (!o.csv.empty()) {
    const nhui::RunHistory& run = exporter.recordedRun();
    nhui::writeHistoryCsv(QString::fromStdString(o.csv), run, 0, run.size());
  }
  if (!o.quiet && o.csv != "-") {
    const auto& e = o.settings;
    const double videoSeconds = r.frames / e.fps;
    std::printf(
        "%s: %d frames %dx%d at %g fps (%.4g s of video, t = %g … %g s, speed %g) to %s, %s"
        " in %.1f s (%.2fx real time)%s%s\n",
        o.scenario.system.c_str(), r.frames, e.width, e.height, e.fps, videoSeconds, e.tStart,
        exporter.resolvedScenario().tEnd, e.speed, r.output.string().c_str(),
        megabytes(r.bytes).c_str(), r.seconds, videoSeconds / std::max(r.seconds, 1e-9),
        r.scenarioFile.empty() ? "" : "; scenario ",
        r.scenarioFile.empty() ? "" : r.scenarioFile.string().c_str());
  }
  return kOk;
}

}  // namespace

int exportCommand(const std::vector<std::string>& args) {
  // The same error lines and exit codes as the other commands; video errors are sorted by
  // whose fault they are.
  return reportErrors([&] {
    try {
      return runExport(args);
    } catch (const VideoError& e) {
      if (e.kind() == VideoError::Kind::UnsupportedFormat ||
          e.kind() == VideoError::Kind::InvalidSettings)
        throw InputError(e.what());
      throw;
    }
  });
}

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
