#include "ui/export/animation_exporter.h"

#include <vtkCamera.h>
#include <vtkRenderer.h>

#include <QImage>
#include <QPainter>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>

#include "core/io/scenario_file.h"
#include "core/model/catalogue.h"
#include "ui/export/media/encoding_pipe.h"
#include "ui/export/offscreen_scene.h"
#include "ui/plot/plot_widget.h"
#include "ui/sim/run_history.h"

namespace nhui {

namespace {

// Trails and plots are drawn from samples at least this dense (simulated seconds), whatever
// the frame step: a time-lapse at 4× would otherwise draw the ball's path as a polygon.
constexpr double kMaxSampleStep = 0.01;
// Upper bound on recorded samples (about 40 columns each), so hour-long time-lapses stay
// within a few hundred MB.
constexpr double kMaxSamples = 400000;
constexpr int kMaxFrames = 200000;

struct Cancelled {};

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string compact(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

void requireFinite(double v, const char* name) {
  if (!std::isfinite(v))
    throw nh::InputError(std::string(name) + " must be a finite number, got " + compact(v));
}

// Margins paintPane() keeps around its frame, for equal x/y scales in the path plot.
QRectF innerPlotRect(const QRectF& outer, double fontScale) {
  return outer.adjusted(80 * fontScale, 8, -8, -30 * fontScale);
}

PlotRange padded(double lo, double hi, double fraction) {
  if (!std::isfinite(lo) || !std::isfinite(hi) || !(hi >= lo)) return {0, 1};
  const double span = hi - lo;
  // A conserved quantity drifts by round-off only: show it flat, not its last digits' noise.
  const double minSpan = 1e-6 * std::max({std::abs(lo), std::abs(hi), 1e-9});
  if (!(span > minSpan)) {
    const double c = 0.5 * (lo + hi);
    return {c - 5 * minSpan, c + 5 * minSpan};
  }
  return {lo - fraction * span, hi + fraction * span};
}

PlotRange columnRange(const std::vector<double>& c, size_t begin, size_t end) {
  double lo = INFINITY, hi = -INFINITY;
  for (size_t i = begin; i < end; ++i)
    if (std::isfinite(c[i])) {
      lo = std::min(lo, c[i]);
      hi = std::max(hi, c[i]);
    }
  return padded(lo, hi, 0.06);
}

}  // namespace

// ---- Settings ---------------------------------------------------------------------------------

void ExportSettings::validate() const {
  if (width < nh::kMinVideoSide || width > nh::kMaxVideoWidth || height < nh::kMinVideoSide ||
      height > nh::kMaxVideoHeight)
    throw nh::InputError("video size must be between " + std::to_string(nh::kMinVideoSide) + "x" +
                         std::to_string(nh::kMinVideoSide) + " and " +
                         std::to_string(nh::kMaxVideoWidth) + "x" +
                         std::to_string(nh::kMaxVideoHeight) + ", got " + std::to_string(width) +
                         "x" + std::to_string(height));
  requireFinite(fps, "fps");
  if (!(fps >= 1 && fps <= 120))
    throw nh::InputError("fps must be in [1, 120], got " + compact(fps));
  requireFinite(tStart, "start time");
  requireFinite(tEnd, "end time");
  requireFinite(speed, "speed");
  if (tStart < 0) throw nh::InputError("start time must be >= 0 s, got " + compact(tStart));
  if (!(tEnd > tStart))
    throw nh::InputError("end time (" + compact(tEnd) + " s) must be after the start time (" +
                         compact(tStart) + " s)");
  if (!(speed > 0 && speed <= 1e4))
    throw nh::InputError("speed (simulated seconds per video second) must be in (0, 10000], got " +
                         compact(speed));
  requireFinite(trailSeconds, "trail length");
  if (trailSeconds < 0)
    throw nh::InputError("trail length must be >= 0 s, got " + compact(trailSeconds));
  if (!(plotWidthFraction >= 0.2 && plotWidthFraction <= 0.7))
    throw nh::InputError("plot width fraction must be in [0.2, 0.7], got " +
                         compact(plotWidthFraction));
  // Too many frames first: std::lround of a count beyond the range of long is undefined.
  const double frames = (tEnd - tStart) * fps / speed;
  if (frames > kMaxFrames)
    throw nh::InputError("the export would have " + compact(frames) + " frames (at most " +
                         std::to_string(kMaxFrames) + "); raise the speed or shorten the span");
  if (std::lround(frames) < 1)
    throw nh::InputError("the time span " + compact(tStart) + " … " + compact(tEnd) +
                         " s at speed " + compact(speed) + " and " + compact(fps) +
                         " fps gives no frame; lengthen the span or lower the speed");
}

int ExportSettings::frameCount() const {
  return static_cast<int>(std::lround((tEnd - tStart) * fps / speed));
}

std::filesystem::path scenarioPathFor(const std::filesystem::path& output) {
  std::filesystem::path p = output;
  if (!p.has_filename()) p = p.parent_path();  // "frames/" → "frames"
  p += ".json";
  return p;
}

std::string exportedNameOf(const std::filesystem::path& output) {
  const std::filesystem::path p = output.has_filename() ? output : output.parent_path();
  return p.filename().string();
}

void checkScenarioSidecar(const std::filesystem::path& output, const std::filesystem::path& input,
                          bool force) {
  const std::filesystem::path sidecar = scenarioPathFor(output);
  std::error_code ec;
  if (!input.empty() && std::filesystem::equivalent(sidecar, input, ec))
    throw nh::InputError("the scenario written beside the export, '" + sidecar.string() +
                         "', would replace the input scenario; choose another output name or "
                         "give --no-scenario");
  if (force || !std::filesystem::exists(std::filesystem::symlink_status(sidecar, ec))) return;
  if (nh::exportedAsOf(sidecar.string()) != exportedNameOf(output))
    throw nh::InputError("'" + sidecar.string() + "' exists and is not the scenario of an " +
                         "earlier export to '" + exportedNameOf(output) +
                         "'; give --force to replace it or --no-scenario to write none");
}

std::string parameterSummary(const nh::SystemModel& system, const std::vector<double>& values,
                             int maxLineLength) {
  std::string out, line;
  const auto& params = system.info().parameters;
  for (size_t i = 0; i < params.size() && i < values.size(); ++i) {
    std::string item = params[i].name + " = " + compact(values[i]);
    if (!params[i].unit.empty() && params[i].unit != "-") item += " " + params[i].unit;
    if (!line.empty() && static_cast<int>(line.size() + 3 + item.size()) > maxLineLength) {
      out += (out.empty() ? "" : "\n") + line;
      line.clear();
    }
    line += (line.empty() ? "" : "   ") + item;
  }
  if (!line.empty()) out += (out.empty() ? "" : "\n") + line;
  return out;
}

// ---- Exporter ---------------------------------------------------------------------------------

struct AnimationExporter::Impl {
  std::shared_ptr<const nh::SystemModel> system;
  std::vector<double> parameters;
  std::vector<double> x0;
  int frames = 0;
  int samplesPerFrame = 1;  // recorded samples between two frames
  double sampleStep = 0;    // simulated seconds between samples
  size_t firstFrameSample = 0;
  std::unique_ptr<RunHistory> history;

  // Rendering, created on first use on the rendering thread.
  std::unique_ptr<OffscreenScene> view;
  int sceneWidth = 0;
  QImage canvas;  // the whole frame (RGB888) when plots are shown
  QRectF plotArea;
  PlotStyle plotStyle;
  struct PlotBlock {
    QRectF rect;
    std::vector<int> yColumns;  // time series: one pane each; path: one pane
    int xColumn = 0;            // path: x variable column; time series: t
    bool path = false;
    PlotRange x;
    std::vector<PlotRange> y;
    QString xLabel;
  };
  std::vector<PlotBlock> plots;
  std::string overlayTail;  // system title and parameters
  int timeDecimals = 2;
  std::vector<TrailSpan> spans;
  nh::SceneFrame frame;
  bool cameraSet = false;

  size_t sampleOfFrame(int i) const {
    return firstFrameSample + static_cast<size_t>(i) * samplesPerFrame;
  }
};

AnimationExporter::AnimationExporter(const nh::Scenario& scenario, const ExportSettings& settings)
    : scenario_(scenario), settings_(settings), impl_(std::make_unique<Impl>()) {
  settings_.validate();
  scenario_.validate();
  Impl& d = *impl_;
  d.system = nh::findSystem(scenario_.system);
  d.parameters = nh::resolveParameters(*d.system, scenario_.parameters);
  const nh::EquationsOfMotion equations(d.system, scenario_.dynamics, scenario_.formulation,
                                        d.parameters);
  d.x0 = nh::initialState(equations, 0.0, scenario_.initial);
  if (settings_.plots) {
    // Unknown plot variables fail here, before a file is opened or a frame rendered.
    const RecordLayout layout = makeRecordLayout(equations);
    auto check = [&](const std::string& name) {
      if (std::find(layout.columns.begin(), layout.columns.end(), name) == layout.columns.end())
        throw nh::InputError("cannot plot '" + name + "': " + d.system->name() +
                             " records no such variable (see 'nhsim info " + d.system->name() +
                             "')");
    };
    if (!settings_.pathX.empty() || !settings_.pathY.empty()) {
      check(settings_.pathX);
      check(settings_.pathY);
    }
    for (const auto& name : settings_.timeSeries) check(name);
  }
  d.frames = settings_.frameCount();
  const double step = settings_.frameStep();
  const double wanted = std::max(std::ceil(step / kMaxSampleStep - 1e-9), 1.0);
  const double affordable = std::floor(kMaxSamples * step / std::max(settings_.tEnd, step));
  d.samplesPerFrame = static_cast<int>(std::max(1.0, std::min(wanted, affordable)));
  d.sampleStep = step / d.samplesPerFrame;

  resolved_ = nh::resolvedScenario(scenario_, d.parameters, d.x0);
  resolved_.tEnd = settings_.frameTime(d.frames);
  resolved_.dtOut = d.sampleStep;
  d.timeDecimals = std::clamp(static_cast<int>(std::ceil(-std::log10(step) + 1e-9)), 1, 4);
}

AnimationExporter::~AnimationExporter() = default;

int AnimationExporter::frameCount() const { return impl_->frames; }

const RunHistory& AnimationExporter::history() {
  if (!impl_->history) simulate({}, nullptr);
  return *impl_->history;
}

void AnimationExporter::simulate(const ProgressCallback& progress,
                                 const std::atomic<bool>* cancel) {
  Impl& d = *impl_;
  const auto started = std::chrono::steady_clock::now();
  nh::Simulation sim(d.system, scenario_.dynamics, scenario_.formulation, scenario_.integrator);
  sim.setParameters(d.parameters);
  sim.setState(0.0, d.x0);
  const RecordLayout layout = makeRecordLayout(sim.equations());
  auto history = std::make_unique<RunHistory>(d.system, scenario_.dynamics, layout);
  history->setParametersFrom(0, d.parameters);

  nh::Observables obs;
  std::vector<double> row, record(layout.stride());
  nh::SceneFrame scratch;
  const double tStart = settings_.tStart, h = d.sampleStep;
  const double tLast = settings_.frameTime(d.frames);  // end of the video
  long count = 0;
  auto add = [&](double t, const double* x) {
    fillRecord(sim.equations(), sim.workspace(), layout, t, x, obs, row, scratch, record.data());
    history->append(record.data(), 1);
    if (++count % 2000 == 0) {
      if (cancel && cancel->load()) throw Cancelled{};
      if (progress) {
        ExportProgress p;
        p.stage = ExportProgress::Stage::Simulating;
        p.frameCount = d.frames;
        p.elapsedSeconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        progress(p);
      }
    }
  };
  // advance() reports the (projected) initial state first, then every grid point.
  if (tStart > 0) {
    sim.advance(tStart, h, add);
    // A start off the sampling grid: a new grid from there (the next advance reports tStart).
    if (std::abs(history->lastTime() - tStart) > 1e-9 * h) sim.setState(tStart, sim.state());
  }
  // A little past the end, so the last frame's sample exists despite rounding of the grid.
  sim.advance(tLast + 0.5 * h, h, add);
  d.firstFrameSample = history->indexAtOrAfter(tStart - 1e-6 * h);
  const size_t needed = d.sampleOfFrame(d.frames - 1) + 1;
  if (history->size() < needed)
    throw nh::IntegrationError("the simulation stopped before the last frame", history->lastTime());
  d.history = std::move(history);
}

nh::RgbImage AnimationExporter::renderFrame(int i) {
  if (!impl_->history) simulate({}, nullptr);
  const std::uint8_t* rgb = nullptr;
  std::ptrdiff_t stride = 0;
  composeFrame(i, &rgb, &stride);
  nh::RgbImage image(settings_.width, settings_.height);
  for (int y = 0; y < image.height; ++y)
    std::memcpy(image.row(y), rgb + y * stride, std::size_t(3) * image.width);
  return image;
}

void AnimationExporter::composeFrame(int i, const std::uint8_t** rgb, std::ptrdiff_t* stride) {
  Impl& d = *impl_;
  const RunHistory& run = *d.history;
  if (i < 0 || i >= d.frames) throw nh::InputError("frame " + std::to_string(i) + " out of range");

  if (!d.view) {
    // Plots take a column on the right; the 3D view keeps an even width for the encoders.
    d.sceneWidth = settings_.width;
    if (settings_.plots) {
      d.sceneWidth = 2 * static_cast<int>(
                             std::lround(settings_.width * (1 - settings_.plotWidthFraction) / 2));
      d.canvas = QImage(settings_.width, settings_.height, QImage::Format_RGB888);
    }
    d.view = std::make_unique<OffscreenScene>(d.sceneWidth, settings_.height);
    SceneDisplayOptions options;
    options.trails = settings_.trails;
    options.trailSeconds = settings_.trailSeconds;
    options.reactionArrows = settings_.forceArrows;
    options.velocityArrows = settings_.velocityArrows;
    options.legend = settings_.forceArrows || settings_.velocityArrows;
    options.overlayText = settings_.overlay;
    // Text is sized for a 720-pixel-high view; smaller videos get smaller text.
    options.textScale = std::clamp(settings_.height / 720.0, 0.6, 1.5);
    d.view->scene().setSystem(d.system.get());
    d.view->scene().setOptions(options);
    const int maxLine = std::max(30, static_cast<int>(d.sceneWidth / (9.5 * options.textScale)));
    d.overlayTail = d.system->info().title;
    const std::string params = parameterSummary(*d.system, d.parameters, maxLine);
    if (!params.empty()) d.overlayTail += "\n" + params;
    if (settings_.plots) setUpPlots();
  }

  const size_t k = d.sampleOfFrame(i);
  const double t = run.time(k);
  run.sceneAt(t, d.frame);
  d.spans.clear();
  if (settings_.trails) {
    const size_t begin = run.indexAtOrAfter(t - settings_.trailSeconds - 1e-9);
    for (const auto& p : run.layout().points)
      d.spans.push_back({p.name, p.inMovingFrame, run.column(p.column).data() + begin,
                         run.column(p.column + 1).data() + begin,
                         run.column(p.column + 2).data() + begin, k + 1 - begin});
  }
  SceneRenderer& scene = d.view->scene();
  scene.update(d.frame, d.spans);
  if (!d.cameraSet) {
    d.cameraSet = true;
    if (settings_.camera) {
      const CameraPose& c = *settings_.camera;
      vtkCamera* cam = d.view->camera();
      cam->SetPosition(c.position.data());
      cam->SetFocalPoint(c.focalPoint.data());
      cam->SetViewUp(c.viewUp.data());
      cam->SetViewAngle(c.viewAngle);
    } else {
      // Frame where the trail points go over the whole clip (the run is simulated first).
      Eigen::AlignedBox3d region;
      for (const auto& p : run.layout().points) {
        if (p.inMovingFrame) continue;
        const auto& xs = run.column(p.column);
        const auto& ys = run.column(p.column + 1);
        const auto& zs = run.column(p.column + 2);
        for (size_t j = d.firstFrameSample; j < run.size(); ++j)
          if (std::isfinite(xs[j]) && std::isfinite(ys[j]) && std::isfinite(zs[j]))
            region.extend(Eigen::Vector3d(xs[j], ys[j], zs[j]));
      }
      scene.resetCamera(region);
    }
  }
  if (settings_.overlay) {
    std::string text = "t = " + fixed(t, d.timeDecimals) + " s";
    if (std::abs(settings_.speed - 1) > 1e-12)
      text += "   (" + compact(settings_.speed) + "x, " +
              (settings_.speed < 1 ? "slow motion)" : "time-lapse)");
    scene.setOverlayText(text + "\n" + d.overlayTail);
  } else {
    scene.setOverlayText("");
  }
  const std::uint8_t* pixels = d.view->render();
  if (!settings_.plots) {
    *rgb = d.view->topRow(pixels);
    *stride = d.view->topDownStride();
    return;
  }
  // The 3D view into the left part of the canvas, top row first.
  const std::uint8_t* top = d.view->topRow(pixels);
  for (int y = 0; y < settings_.height; ++y)
    std::memcpy(d.canvas.scanLine(y), top + y * d.view->topDownStride(),
                std::size_t(3) * d.sceneWidth);
  paintPlots(k);
  *rgb = d.canvas.constBits();
  *stride = d.canvas.bytesPerLine();
}

double AnimationExporter::sampleTime(int i) {
  if (!impl_->history) simulate({}, nullptr);
  if (i < 0 || i >= impl_->frames)
    throw nh::InputError("frame " + std::to_string(i) + " out of range");
  return impl_->history->time(impl_->sampleOfFrame(i));
}

void AnimationExporter::setUpPlots() {
  Impl& d = *impl_;
  const RunHistory& run = *d.history;
  const size_t begin = d.firstFrameSample, end = d.sampleOfFrame(d.frames - 1) + 1;
  d.plotStyle.fontScale = std::clamp(settings_.height / 600.0, 0.7, 1.8);
  d.plotStyle.lineWidth = 1.8;
  d.plotArea = QRectF(d.sceneWidth, 0, settings_.width - d.sceneWidth, settings_.height);

  const int xc = settings_.pathX.empty() ? -1 : run.columnIndex(settings_.pathX);
  const int yc = settings_.pathY.empty() ? -1 : run.columnIndex(settings_.pathY);
  std::vector<int> series;
  for (const auto& name : settings_.timeSeries) {
    const int c = run.columnIndex(name);
    if (c < 0)
      throw nh::InputError("cannot plot '" + name + "': " + d.system->name() +
                           " records no such variable");
    series.push_back(c);
  }
  if (!settings_.pathX.empty() && (xc < 0 || yc < 0))
    throw nh::InputError("cannot plot the path " + settings_.pathX + "–" + settings_.pathY + ": " +
                         d.system->name() + " records no such variable");
  const bool havePath = xc >= 0 && yc >= 0;
  if (!havePath && series.empty()) return;

  // The path takes a square-ish block at the top; time series share the rest.
  const QRectF area = d.plotArea.adjusted(6, 6, -6, -6);
  double pathHeight = 0;
  if (havePath)
    pathHeight =
        series.empty() ? area.height() : std::min(area.height() * 0.55, area.width() * 0.95);
  if (havePath) {
    Impl::PlotBlock b;
    b.path = true;
    b.rect = QRectF(area.left(), area.top(), area.width(), pathHeight);
    b.xColumn = xc;
    b.yColumns = {yc};
    b.xLabel = QString::fromStdString(settings_.pathX);
    PlotRange xr = columnRange(run.column(xc), begin, end),
              yr = columnRange(run.column(yc), begin, end);
    // Equal scales on both axes: a circle stays a circle.
    const QRectF inner = innerPlotRect(b.rect, d.plotStyle.fontScale);
    if (inner.width() > 0 && inner.height() > 0) {
      const double sx = (xr.hi - xr.lo) / inner.width(), sy = (yr.hi - yr.lo) / inner.height();
      if (sx > sy) {
        const double c = 0.5 * (yr.lo + yr.hi), half = 0.5 * sx * inner.height();
        yr = {c - half, c + half};
      } else {
        const double c = 0.5 * (xr.lo + xr.hi), half = 0.5 * sy * inner.width();
        xr = {c - half, c + half};
      }
    }
    b.x = xr;
    b.y = {yr};
    d.plots.push_back(std::move(b));
  }
  if (!series.empty()) {
    Impl::PlotBlock b;
    b.rect = QRectF(area.left(), area.top() + pathHeight + (havePath ? 6 : 0), area.width(),
                    area.height() - pathHeight - (havePath ? 6 : 0));
    b.xColumn = 0;
    b.yColumns = series;
    b.xLabel = "t [s]";
    b.x = {settings_.tStart, settings_.frameTime(d.frames)};
    for (int c : series) b.y.push_back(columnRange(run.column(c), begin, end));
    d.plots.push_back(std::move(b));
  }
}

void AnimationExporter::paintPlots(size_t sample) {
  Impl& d = *impl_;
  const RunHistory& run = *d.history;
  QPainter painter(&d.canvas);
  painter.fillRect(d.plotArea, d.plotStyle.background);
  const size_t begin = d.firstFrameSample, count = sample + 1 - begin;
  static const QColor kCurve(86, 180, 255);
  for (const Impl::PlotBlock& b : d.plots) {
    std::vector<PlotPane> panes;
    for (size_t j = 0; j < b.yColumns.size(); ++j) {
      const int c = b.yColumns[j];
      PlotPane pane;
      pane.yLabel = b.path ? b.xLabel + " – " + QString::fromStdString(run.layout().columns[c])
                           : QString::fromStdString(run.layout().columns[c]);
      PlotCurve curve;
      curve.colour = kCurve;
      curve.x = run.column(b.xColumn).data() + begin;
      curve.y = run.column(c).data() + begin;
      curve.count = count;
      curve.increasingX = !b.path;
      pane.curves.push_back(curve);
      pane.y = b.y[j];
      panes.push_back(std::move(pane));
    }
    paintPlot(painter, b.rect, panes, b.x, b.xLabel, d.plotStyle);
  }
}

ExportResult AnimationExporter::run(const std::filesystem::path& output,
                                    const ProgressCallback& progress,
                                    const std::atomic<bool>* cancel, bool writeScenario) {
  const auto started = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  };
  Impl& d = *impl_;
  ExportResult result;
  result.output = output;
  const nh::VideoFormat format = nh::videoFormatForPath(output);
  nh::VideoEncoder encoder;
  // Opening first checks the format, the settings and that the target folder is writable,
  // before any time goes into simulating or rendering.
  encoder.open(output, nh::VideoSettings{settings_.width, settings_.height, settings_.fps, format});
  auto cancelled = [&] {
    if (!cancel || !cancel->load()) return false;
    encoder.cancel();
    result.cancelled = true;
    result.seconds = elapsed();
    return true;
  };

  if (!d.history) {
    try {
      simulate(progress, cancel);
    } catch (const Cancelled&) {
      cancelled();
      return result;
    }
  }
  const double simulated = elapsed();
  ExportProgress p;
  p.frameCount = d.frames;
  nh::EncodingPipe pipe(
      [&encoder](const std::uint8_t* rgb, std::ptrdiff_t stride) { encoder.addFrame(rgb, stride); },
      static_cast<std::size_t>(settings_.width) * 3, settings_.height);
  auto stop = [&] {
    pipe.abandon();
    return cancelled();
  };
  for (int i = 0; i < d.frames; ++i) {
    if (cancel && cancel->load() && stop()) return result;
    const std::uint8_t* rgb = nullptr;
    std::ptrdiff_t stride = 0;
    composeFrame(i, &rgb, &stride);
    pipe.push(rgb, stride);
    if (progress) {
      p.stage = ExportProgress::Stage::Rendering;
      p.frame = i + 1;
      p.elapsedSeconds = elapsed();
      const double perFrame = (p.elapsedSeconds - simulated) / (i + 1);
      // GIF spends about a third of its time building the palette in finish().
      const double finishShare = format == nh::VideoFormat::Gif ? 0.5 : 0.02;
      p.remainingSeconds = perFrame * ((d.frames - i - 1) + finishShare * d.frames);
      progress(p);
    }
  }
  pipe.close();
  if (cancelled()) return result;
  if (progress) {
    p.stage = ExportProgress::Stage::Finishing;
    p.elapsedSeconds = elapsed();
    progress(p);
  }
  encoder.finish();

  std::error_code ec;
  if (writeScenario) {
    result.scenarioFile = scenarioPathFor(output);
    try {
      nh::writeScenarioFile(resolved_, result.scenarioFile.string(), exportedNameOf(output));
    } catch (...) {
      // All or nothing: a video that cannot be reproduced is not left half-documented.
      std::filesystem::remove_all(output, ec);
      throw;
    }
  }
  result.frames = d.frames;
  if (std::filesystem::is_directory(output, ec)) {
    for (const auto& e : std::filesystem::directory_iterator(output, ec))
      if (e.is_regular_file(ec)) result.bytes += e.file_size(ec);
  } else {
    result.bytes = std::filesystem::file_size(output, ec);
  }
  result.seconds = elapsed();
  return result;
}

}  // namespace nhui
