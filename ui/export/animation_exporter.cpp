// The animation export (animation_exporter.h): the export settings and their checks, the
// scenario sidecar beside the output, the run (and comparison) simulated on the frame grid,
// and each frame's camera and scene composed with its plots (export_plots.cpp) and fed to the
// encoder through its pipe.
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
#include <limits>
#include <optional>

#include "core/io/scenario_file.h"
#include "core/model/catalogue.h"
#include "core/nh/errors.h"
#include "core/nh/scenario_run.h"
#include "ui/export/animation_exporter_impl.h"
#include "ui/export/media/encoding_pipe.h"
#include "ui/export/offscreen_scene.h"
#include "ui/export/plan_source.h"
#include "ui/export/sample_grid.h"
#include "ui/plot/plot_widget.h"
#include "ui/scene/scene_camera.h"
#include "ui/scene/scene_view.h"
#include "ui/session/scenario_view.h"
#include "ui/sim/run_history.h"
#include "ui/sim/run_style.h"

namespace nhui {

namespace {

// Trails and plots are drawn from samples at least this dense (simulated seconds), whatever
// the frame step: a time-lapse at 4× would otherwise draw the ball's path as a polygon.
constexpr double kMaxSampleStep = 0.01;
// Upper bound on recorded samples (about 40 columns each), so hour-long time-lapses stay
// within a few hundred MB.
constexpr double kMaxSamples = 400000;
constexpr int kMaxFrames = 200000;
// The smallest text (of the 1280 × 720 size), and the overlay's sizes tried off the bodies.
constexpr double kMinTextScale = 0.5;
constexpr double kOverlaySizes[] = {1.0, 0.8};

// Whether a run takes fixed steps longer than the export's sample step h: it then steps at its
// own step and its samples between are interpolated (sample_grid.h).
bool takesOwnSteps(const nh::IntegratorOptions& options, double h) {
  return nh::isFixedStep(options.method) && options.step > h * (1 + 1e-9);
}

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

// The trail spans of `run` from `begin` up to and including sample k.
std::vector<TrailSpan> spansOf(const RunHistory& run, size_t begin, size_t k) {
  std::vector<TrailSpan> spans;
  for (const auto& p : run.layout().points)
    spans.push_back({p.name, p.inMovingFrame, run.column(p.column).data() + begin,
                     run.column(p.column + 1).data() + begin,
                     run.column(p.column + 2).data() + begin, k + 1 - begin, begin});
  return spans;
}

// Where the trail points of the world frame go from sample `first` to the end of the run (a
// box around every finite position).
Eigen::AlignedBox3d regionOfPoints(const RunHistory& run, size_t first) {
  Eigen::AlignedBox3d region;
  for (const auto& p : run.layout().points) {
    if (p.inMovingFrame) continue;
    const auto& xs = run.column(p.column);
    const auto& ys = run.column(p.column + 1);
    const auto& zs = run.column(p.column + 2);
    for (size_t m = first; m < run.size(); ++m)
      if (std::isfinite(xs[m]) && std::isfinite(ys[m]) && std::isfinite(zs[m]))
        region.extend(Eigen::Vector3d(xs[m], ys[m], zs[m]));
  }
  return region;
}

// The 3D view's display options for an export: what the settings show (trails, arrows and
// their scale, the theme, the overlay), a legend when any arrow is shown and the corner axes
// (unless the settings leave out their guides), text sized for the video's height; the rest
// (grid, keeping in view) as the options' defaults, whatever the settings' display choices
// say of them.
SceneDisplayOptions sceneOptionsOf(const ExportSettings& settings) {
  SceneDisplayOptions options;
  const DisplayChoices own = options;
  const DisplayChoices& d = settings.display;
  static_cast<DisplayChoices&>(options) = d;
  options.grid = own.grid;
  options.axes = own.axes && settings.guides;
  options.keepInView = own.keepInView;
  options.legend =
      settings.guides && (d.reactionArrows || d.velocityArrows || d.angularVelocityArrows);
  options.overlayText = settings.overlay;
  // Text is sized for a 1280 × 720 view; smaller frames get smaller text.
  options.textScale =
      std::clamp(std::min(settings.height / 720.0, settings.width / 1280.0), kMinTextScale, 1.5);
  return options;
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
  requireFinite(display.trailSeconds, "trail length");
  if (display.trailSeconds < 0)
    throw nh::InputError("trail length must be >= 0 s, got " + compact(display.trailSeconds));
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

void applyScenarioView(const std::string& viewJson, ExportSettings& settings) {
  ScenarioView view;
  try {
    view = parseScenarioView(viewJson);  // the session's reader: one set of keys and rules
  } catch (const nh::Error&) {
    return;  // a view the reader refuses leaves the settings as they are
  }
  if (view.follow)
    settings.framing =
        *view.follow ? ExportSettings::Framing::Follow : ExportSettings::Framing::KeepInView;
  if (view.camera) settings.camera = view.camera;
  // The display keys through the display choices' one table, and the theme it was saved in.
  ViewState shown;
  shown.display = settings.display;
  applyDisplayValues(view.display, shown);
  if (view.dark) shown.display.dark = *view.dark;
  settings.display = shown.display;
  if (view.comparison) {
    // Without a step the other integrator keeps the settings' step.
    const double step = settings.comparison.step;
    settings.comparison = *view.comparison;
    if (!view.otherStepGiven && view.comparison->mode == CompareMode::Integrator)
      settings.comparison.step = step;
  }
}

void applyScenarioPlots(const nh::Scenario& scenario, ExportSettings& settings) {
  const auto& drag = nh::findSystem(scenario.system)->info().editing.drag;
  settings.pathX = drag ? drag->x : std::string();
  settings.pathY = drag ? drag->y : std::string();
  settings.timeSeries = {"energy"};
  ScenarioView view;
  try {
    view = parseScenarioView(scenario.view);
  } catch (const nh::Error&) {
    return;  // a view the reader refuses names no plots
  }
  if (view.phase && view.phase->size() == 2) {
    settings.pathX = (*view.phase)[0].toStdString();
    settings.pathY = (*view.phase)[1].toStdString();
  }
  if (view.timeSeries) {
    settings.timeSeries.clear();
    for (const QString& name : *view.timeSeries) settings.timeSeries.push_back(name.toStdString());
  }
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

AnimationExporter::AnimationExporter(const nh::Scenario& scenario, const ExportSettings& settings,
                                     std::shared_ptr<const PlannedMotion> played)
    : scenario_(scenario), settings_(settings), impl_(std::make_unique<Impl>()) {
  settings_.validate();
  scenario_.validate();
  Impl& d = *impl_;
  d.system = nh::findSystem(scenario_.system);
  // A planned motion is solved, not simulated (plan_source.cpp).
  if (played || scenarioPlan(scenario_) || d.system->info().isControlModel()) {
    setUpPlannedMotion(std::move(played));
    return;
  }
  d.parameters = nh::resolveParameters(*d.system, scenario_.parameters);
  const nh::EquationsOfMotion equations(d.system, scenario_.dynamics, scenario_.formulation,
                                        d.parameters);
  d.x0 = nh::initialState(equations, 0.0, scenario_.initial);
  d.primarySetup = {
      d.system, scenario_.dynamics, scenario_.formulation, scenario_.integrator, d.parameters,
      d.x0};
  if (settings_.comparison.mode != CompareMode::None) {
    requireFinite(settings_.comparison.ghostValue, "the ghost run's value");
    d.comparisonSetup = nh::comparisonSetup(d.primarySetup, settings_.comparison);
    if (settings_.comparison.mode == CompareMode::Integrator) {
      // The other integrator under the rules a scenario is read with (its step, say).
      nh::Scenario other = scenario_;
      other.integrator = d.comparisonSetup.options;
      other.validate();
    }
  }
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
  setUpFrameGrid();
  resolved_ = nh::resolvedScenario(scenario_, d.parameters, d.x0);
  resolved_.tEnd = settings_.frameTime(d.frames);
  // A run with timed edits keeps its own output step: its samples are the app's record.
  if (scenario_.edits.empty()) resolved_.dtOut = d.sampleStep;
  std::erase_if(resolved_.edits, [&](const nh::TimedEdit& e) { return e.t > resolved_.tEnd; });
}

void AnimationExporter::setUpFrameGrid() {
  Impl& d = *impl_;
  d.frames = settings_.frameCount();
  const double step = settings_.frameStep();
  const double wanted = std::max(std::ceil(step / kMaxSampleStep - 1e-9), 1.0);
  const double affordable = std::floor(kMaxSamples * step / std::max(settings_.tEnd, step));
  d.samplesPerFrame = static_cast<int>(std::max(1.0, std::min(wanted, affordable)));
  d.sampleStep = step / d.samplesPerFrame;
  d.timeDecimals = std::clamp(static_cast<int>(std::ceil(-std::log10(step) + 1e-9)), 1, 4);
}

AnimationExporter::~AnimationExporter() = default;

int AnimationExporter::frameCount() const { return impl_->frames; }

const RunHistory& AnimationExporter::history() {
  if (!impl_->history) simulate({}, nullptr);
  return *impl_->history;
}

const RunHistory& AnimationExporter::recordedRun() {
  const RunHistory& samples = history();
  return impl_->steps ? *impl_->steps : samples;
}

void AnimationExporter::simulate(const ProgressCallback& progress,
                                 const std::atomic<bool>* cancel) {
  Impl& d = *impl_;
  if (d.plan) return adoptPlannedMotion(progress, cancel);
  const auto started = std::chrono::steady_clock::now();
  nh::ScenarioRun sim(d.primarySetup, 0.0);
  sim.setEdits(scenario_.edits);
  const RecordLayout layout = makeRecordLayout(sim.simulation().equations());
  auto history = std::make_unique<RunHistory>(d.system, scenario_.dynamics, layout);
  history->setParametersFrom(0, d.parameters);
  // The parameters of each timed edit, from its time on (the samples' energy error restarts
  // there, the overlay names the new values).
  std::vector<std::pair<double, std::vector<double>>> changes;
  size_t nextChange = 0;

  std::vector<double> record(layout.stride());
  nh::SceneFrame scratch;
  const double tStart = settings_.tStart, h = d.sampleStep;
  const double tLast = settings_.frameTime(d.frames);  // end of the video
  long count = 0;
  auto keep = [&](const double* r) {
    for (; nextChange < changes.size() && r[0] >= changes[nextChange].first - 1e-9 * h;
         ++nextChange)
      history->setParametersFrom(history->size(), changes[nextChange].second);
    history->append(r, 1);
    if (++count % 2000 == 0) {
      if (cancel && cancel->load()) throw Cancelled{};
      d.reportSimulating(progress, started);
    }
  };
  // A run of fixed steps longer than h takes its own steps, and a run with timed edits its
  // own samples (every dt-out from each edit, as the app recorded it): the frames' samples are
  // interpolated between them (sample_grid.h), a step past the end; the grid restarts at
  // tStart as below.
  const nh::IntegratorOptions& options = scenario_.integrator;
  const double ownStep = !scenario_.edits.empty() ? scenario_.dtOut : options.step;
  std::optional<SampleGrid> grid;
  std::unique_ptr<RunHistory> steps;
  if (takesOwnSteps(options, h) || !scenario_.edits.empty()) {
    grid.emplace(layout.stride(), h, tStart, keep);
    steps = std::make_unique<RunHistory>(d.system, scenario_.dynamics, layout);
    steps->setParametersFrom(0, d.parameters);
  }
  auto add = [&](const nh::ScenarioRun::Sample& sample) {
    nh::recordFromRow(sim.simulation().equations(), layout, sample.t, sample.x, sample.observed,
                      sample.row, scratch, record.data());
    if (sim.parameters() != (changes.empty() ? d.parameters : changes.back().second)) {
      changes.emplace_back(sample.t, sim.parameters());
      if (steps) steps->setParametersFrom(steps->size(), sim.parameters());
    }
    if (!grid) return keep(record.data());
    steps->append(record.data(), 1);
    grid->add(record.data());
  };
  if (grid) {
    sim.advance(tLast + ownStep, ownStep, add);
    grid->finish();
  } else {
    // advance() reports the (projected) initial state first, then every grid point.
    if (tStart > 0) {
      sim.advance(tStart, h, add);
      // A start off the sampling grid: a new grid from there (the next advance reports tStart).
      if (std::abs(history->lastTime() - tStart) > 1e-9 * h)
        sim.simulation().setState(tStart, sim.simulation().state());
    }
    // A little past the end, so the last frame's sample exists despite rounding of the grid.
    sim.advance(tLast + 0.5 * h, h, add);
  }
  d.firstFrameSample = history->indexAtOrAfter(tStart - 1e-6 * h);
  const size_t needed = d.sampleOfFrame(d.frames - 1) + 1;
  if (history->size() < needed)
    throw nh::IntegrationError("the simulation stopped before the last frame", history->lastTime());
  d.history = std::move(history);
  d.steps = std::move(steps);
  if (settings_.comparison.mode != CompareMode::None) simulateComparison(cancel);
}

void AnimationExporter::simulateComparison(const std::atomic<bool>* cancel) {
  Impl& d = *impl_;
  const RunHistory& primary = *d.history;
  const nh::IntegratorOptions& options = d.comparisonSetup.options;
  // The same start as the primary run, set up as the view's comparison is (core/nh/comparison.h).
  nh::ScenarioRun sim(d.comparisonSetup, 0.0);
  sim.setEdits(scenario_.edits, settings_.comparison);
  const RecordLayout layout = makeRecordLayout(sim.simulation().equations());
  auto run = std::make_unique<RunHistory>(d.system, d.comparisonSetup.dynamics, layout);
  run->setParametersFrom(0, d.comparisonSetup.parameters);
  std::vector<double> record(layout.stride());
  nh::SceneFrame scratch;
  long count = 0;
  const double h = d.sampleStep, tLast = primary.lastTime();
  auto keep = [&](const double* r) {
    run->append(r, 1);
    if (++count % 2000 == 0 && cancel && cancel->load()) throw Cancelled{};
  };
  try {
    // On the primary run's grid (one grid from t = 0: a start off the grid is drawn from the
    // comparison's nearest earlier sample), at its own steps if they are fixed and longer.
    std::optional<SampleGrid> grid;
    if (takesOwnSteps(options, h) || !scenario_.edits.empty())
      grid.emplace(layout.stride(), h, keep);
    const double dt = !scenario_.edits.empty() ? scenario_.dtOut : grid ? options.step : h;
    sim.advance(tLast + (grid ? dt : 0.5 * h), dt, [&](const nh::ScenarioRun::Sample& sample) {
      nh::recordFromRow(sim.simulation().equations(), layout, sample.t, sample.x, sample.observed,
                        sample.row, scratch, record.data());
      if (grid)
        grid->add(record.data());
      else
        keep(record.data());
    });
    if (grid) grid->finish();
  } catch (const nh::Error&) {
    // A comparison that fails (a vakonomic run that diverges) is drawn up to where it got.
  }
  // Where it left the scene: the first sample with a point not finite or farther than the
  // view's limit from the same point of the primary run (points matched by name).
  primary.sceneAt(primary.firstTime(), scratch);
  const double limit = SceneView::kLeaveExtents * std::max(1e-6, scratch.extent);
  std::vector<std::pair<int, int>> columns;
  for (const auto& p : run->layout().points)
    for (const auto& q : primary.layout().points)
      if (p.name == q.name) columns.emplace_back(p.column, q.column);
  for (size_t k = 0; k < run->size() && std::isnan(d.comparisonLeftAt); ++k) {
    const size_t j = primary.indexAtOrBefore(run->time(k));
    for (const auto& [ca, cb] : columns) {
      const Eigen::Vector3d a(run->column(ca)[k], run->column(ca + 1)[k], run->column(ca + 2)[k]);
      const Eigen::Vector3d b(primary.column(cb)[j], primary.column(cb + 1)[j],
                              primary.column(cb + 2)[j]);
      if (!a.allFinite() || (b.allFinite() && (a - b).norm() > limit)) {
        d.comparisonLeftAt = run->time(k);
        break;
      }
    }
  }
  d.comparison = std::move(run);
}

std::array<std::string, 2> AnimationExporter::runLabels() const {
  const Impl& d = *impl_;
  if (d.plan) return planLabels();
  switch (settings_.comparison.mode) {
    case CompareMode::Vakonomic:
      return {nh::toString(scenario_.dynamics), nh::toString(d.comparisonSetup.dynamics)};
    case CompareMode::Ghost: {
      const int index = d.system->parameterIndex(settings_.comparison.ghostParameter);
      const nh::ParameterInfo& parameter = d.system->info().parameters[index];
      return {displayValue(parameter, d.parameters[index]),
              displayValue(parameter, settings_.comparison.ghostValue)};
    }
    case CompareMode::Integrator:
      return {nh::toString(scenario_.integrator.method), nh::toString(settings_.comparison.method)};
    case CompareMode::None:
      break;
  }
  return {};
}

std::string AnimationExporter::comparisonLegend() const {
  const std::array<std::string, 2> labels = runLabels();
  if (labels[1].empty()) return {};
  return comparisonLegendLine(labels[0], labels[1]);
}

bool AnimationExporter::comparisonSceneAt(double t, nh::SceneFrame& frame) {
  if (!comparisonHistory()) return false;
  return comparisonShownAt(t, frame);
}

bool AnimationExporter::comparisonShownAt(double t, nh::SceneFrame& frame) const {
  const Impl& d = *impl_;
  if (!d.comparison || d.comparison->empty()) return false;
  if (!std::isnan(d.comparisonLeftAt) && t >= d.comparisonLeftAt) return false;
  // A failed run is shown up to its last sample only.
  if (t > d.comparison->lastTime() + 0.5 * d.sampleStep) return false;
  d.comparison->sceneAt(t, frame);
  return true;
}

void AnimationExporter::frameCamera(int i) {
  Impl& d = *impl_;
  const RunHistory& run = *d.history;
  const std::string& follow = d.system->info().editing.followBody;
  // Frame by frame from the first, so that any frame shows the camera the clip shows there.
  if (i < d.framedUpTo) d.framedUpTo = -1;
  for (int j = d.framedUpTo + 1; j <= i; ++j) {
    const size_t k = d.sampleOfFrame(j);
    const double t = run.time(k);
    nh::SceneFrame& frame = d.framingScratch;
    run.sceneAt(t, frame);
    if (j == 0) placeStartCamera(frame);
    if (settings_.framing == ExportSettings::Framing::Follow) {
      for (const auto& b : frame.bodies)
        if (b.name == follow && b.position.allFinite()) d.cameraFocus = b.position;
    } else if (settings_.framing == ExportSettings::Framing::KeepInView) {
      keepInView(j, k, frame);
    }
    d.framedUpTo = j;
  }
  vtkCamera* cam = d.view->camera();
  const Eigen::Vector3d eye = d.cameraFocus + d.cameraOffset;
  cam->SetFocalPoint(d.cameraFocus.x(), d.cameraFocus.y(), d.cameraFocus.z());
  cam->SetPosition(eye.x(), eye.y(), eye.z());
  cam->SetViewUp(d.cameraUp.x(), d.cameraUp.y(), d.cameraUp.z());
  cam->SetViewAngle(d.viewAngle);
}

void AnimationExporter::placeStartCamera(const nh::SceneFrame& frame) {
  Impl& d = *impl_;
  // The one given, else the view's default 3/4 view of this moment.
  SceneRenderer& scene = d.view->scene();
  vtkCamera* cam = d.view->camera();
  if (settings_.camera) {
    const CameraPose& c = *settings_.camera;
    cam->SetPosition(c.position.data());
    cam->SetFocalPoint(c.focalPoint.data());
    cam->SetViewUp(c.viewUp.data());
    cam->SetViewAngle(c.viewAngle);
  } else if (settings_.framing == ExportSettings::Framing::Fixed) {
    // Where the trail points go over the whole clip (the run is simulated first).
    scene.update(frame, {});
    scene.resetCamera(regionOfPoints(*d.history, d.firstFrameSample));
  } else {
    scene.update(frame, {});
    scene.resetCamera();
  }
  double fp[3], pos[3], up[3];
  cam->GetFocalPoint(fp);
  cam->GetPosition(pos);
  cam->GetViewUp(up);
  d.cameraFocus = Eigen::Vector3d(fp[0], fp[1], fp[2]);
  d.cameraOffset = Eigen::Vector3d(pos[0], pos[1], pos[2]) - d.cameraFocus;
  d.cameraUp = Eigen::Vector3d(up[0], up[1], up[2]);
  d.viewAngle = cam->GetViewAngle();
  if (!(d.cameraOffset.norm() > 0)) d.cameraOffset = Eigen::Vector3d(1, -2, 1);
  d.framer.adopt(d.cameraFocus, d.cameraOffset.norm());
}

void AnimationExporter::keepInView(int j, size_t k, const nh::SceneFrame& frame) {
  Impl& d = *impl_;
  const RunHistory& run = *d.history;
  const std::string& follow = d.system->info().editing.followBody;
  const double t = run.time(k);
  std::vector<CameraFramer::Sphere> bodies = movingBodySpheres(frame, follow);
  if (comparisonShownAt(t, d.comparisonFrame))
    for (const auto& s : movingBodySpheres(d.comparisonFrame, follow)) bodies.push_back(s);
  const double recent = std::min(3.0, settings_.display.trailSeconds);
  const size_t keep = static_cast<size_t>(recent / d.sampleStep) + 1;
  const size_t begin = k + 1 > keep ? k + 1 - keep : 0;
  const std::vector<CameraFramer::Sphere> trail = recentTrailSpheres(spansOf(run, begin, k), keep);
  CameraFramer::View view;
  view.direction = -d.cameraOffset.normalized();
  view.up = d.cameraUp;
  view.viewAngleDegrees = d.viewAngle;
  view.aspect = static_cast<double>(d.sceneWidth) / settings_.height;
  if (j == 0)
    d.framer.settle(view, bodies, trail);
  else
    d.framer.step(1.0 / settings_.fps, view, bodies, trail);
  d.cameraFocus = d.framer.focus();
  d.cameraOffset = d.cameraOffset.normalized() * d.framer.distance();
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

void AnimationExporter::prepareView() {
  Impl& d = *impl_;
  if (d.view) return;
  // Plots take a column on the right; the 3D view keeps an even width for the encoders.
  d.sceneWidth = settings_.width;
  if (settings_.plots) {
    d.sceneWidth =
        2 * static_cast<int>(std::lround(settings_.width * (1 - settings_.plotWidthFraction) / 2));
    d.canvas = QImage(settings_.width, settings_.height, QImage::Format_RGB888);
  }
  d.view = std::make_unique<OffscreenScene>(d.sceneWidth, settings_.height);
  const SceneDisplayOptions options = sceneOptionsOf(settings_);
  d.view->scene().setSystem(d.system.get());
  d.view->scene().setOptions(options);
  d.view->comparison().setSystem(d.system.get());
  d.view->comparison().setOptions(options);
  const int maxLine = std::max(30, static_cast<int>(d.sceneWidth / (9.5 * options.textScale)));
  d.overlayTail = d.system->info().title;
  const std::string params = parameterSummary(*d.system, d.parameters, maxLine);
  if (!params.empty()) d.overlayTail += "\n" + params;
  if (settings_.plots) {
    d.plotStyle = settings_.display.dark ? PlotStyle::dark() : PlotStyle::light();
    setUpPlots();
  }
  if (d.plan) preparePlanView();
}

void AnimationExporter::composeFrame(int i, const std::uint8_t** rgb, std::ptrdiff_t* stride) {
  const size_t k = prepareFrame(i);
  finishFrame(k, impl_->view->render(), rgb, stride);
}

size_t AnimationExporter::prepareFrame(int i) {
  Impl& d = *impl_;
  const RunHistory& run = *d.history;
  if (i < 0 || i >= d.frames) throw nh::InputError("frame " + std::to_string(i) + " out of range");

  prepareView();
  const size_t k = d.sampleOfFrame(i);
  const double t = run.time(k);
  run.sceneAt(t, d.frame);
  d.spans.clear();
  if (settings_.display.trails)
    d.spans = spansOf(run, run.indexAtOrAfter(t - settings_.display.trailSeconds - 1e-9), k);
  frameCamera(i);
  SceneRenderer& scene = d.view->scene();
  // The comparison run as the view draws it: translucent orange, until it left the scene, on
  // the primary run's table.
  SceneRenderer& other = d.view->comparison();
  const bool compared = comparisonShownAt(t, d.comparisonFrame);
  scene.setTableGuests(compared ? d.comparisonFrame.bodies : std::vector<nh::SceneBody>{});
  scene.setCompared(d.comparison != nullptr);
  scene.update(d.frame, d.spans);
  other.setVisible(compared);
  if (compared) {
    const RunHistory& c = *d.comparison;
    const size_t kc = c.indexAtOrBefore(t + 1e-9 * d.sampleStep);
    other.update(
        d.comparisonFrame,
        settings_.display.trails
            ? spansOf(c, std::min(kc, c.indexAtOrAfter(t - settings_.display.trailSeconds - 1e-9)),
                      kc)
            : std::vector<TrailSpan>{});
  }
  if (settings_.overlay) {
    std::string text = "t = " + fixed(t, d.timeDecimals) + " s";
    if (std::abs(settings_.speed - 1) > 1e-12)
      text += "   (" + compact(settings_.speed) + "x, " +
              (settings_.speed < 1 ? "slow motion)" : "time-lapse)");
    if (const std::string legend = comparisonLegend(); !legend.empty()) text += "\n" + legend;
    if (settings_.comparison.mode != CompareMode::None && !std::isnan(d.comparisonLeftAt) &&
        t >= d.comparisonLeftAt) {
      text += '\n';
      text += leftSceneLine(settings_.comparison.mode == CompareMode::Vakonomic    ? "vakonomic"
                            : settings_.comparison.mode == CompareMode::Integrator ? "comparison"
                                                                                   : "ghost",
                            d.comparisonLeftAt, SceneView::kLeaveExtents);
    }
    scene.setOverlayText(text + "\n" + d.overlayTail);
    placeOverlay();
  } else {
    scene.setOverlayText("");
  }
  return k;
}

void AnimationExporter::placeOverlay() {
  Impl& d = *impl_;
  SceneRenderer& scene = d.view->scene();
  std::vector<ScreenBox> bodies = scene.bodyBoxes();
  for (const ScreenBox& b : d.view->comparison().bodyBoxes()) bodies.push_back(b);
  // Never smaller than the smallest text. The frame alone decides (no state carried from the
  // frame before), so that a frame looks the same however it is reached.
  const double scale = scene.options().textScale;
  double leastCovered = INFINITY;
  std::pair<OverlayCorner, double> least{OverlayCorner::TopLeft, 1.0};
  for (const double size : kOverlaySizes) {
    const double factor = std::max(size, std::min(1.0, kMinTextScale * 0.9 / scale));
    for (const OverlayCorner corner :
         {OverlayCorner::TopLeft, OverlayCorner::TopRight, OverlayCorner::BottomLeft}) {
      scene.placeOverlay(corner, factor);
      double covered = 0;
      for (const ScreenBox& b : bodies) covered += scene.overlayBox().overlap(b);
      if (covered == 0) return;
      if (covered < leastCovered) {
        leastCovered = covered;
        least = {corner, factor};
      }
    }
  }
  scene.placeOverlay(least.first, least.second);
}

void AnimationExporter::finishFrame(size_t k, const std::uint8_t* pixels, const std::uint8_t** rgb,
                                    std::ptrdiff_t* stride) {
  Impl& d = *impl_;
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

const RunHistory* AnimationExporter::comparisonHistory() {
  if (!impl_->history) simulate({}, nullptr);
  return impl_->comparison.get();
}

bool AnimationExporter::comparisonShown(int i) {
  nh::SceneFrame frame;
  return comparisonShownAt(sampleTime(i), frame);
}

CameraPose AnimationExporter::cameraAt(int i) {
  Impl& d = *impl_;
  if (!d.history) simulate({}, nullptr);
  if (i < 0 || i >= d.frames) throw nh::InputError("frame " + std::to_string(i) + " out of range");
  prepareView();
  frameCamera(i);
  CameraPose pose;
  vtkCamera* cam = d.view->camera();
  cam->GetPosition(pose.position.data());
  cam->GetFocalPoint(pose.focalPoint.data());
  cam->GetViewUp(pose.viewUp.data());
  pose.viewAngle = cam->GetViewAngle();
  return pose;
}

AnimationExporter::FrameBoxes AnimationExporter::frameBoxes(int i) {
  if (!impl_->history) simulate({}, nullptr);
  prepareFrame(i);
  FrameBoxes boxes;
  boxes.overlay = impl_->view->scene().overlayBox();
  boxes.bodies = impl_->view->scene().bodyBoxes();
  for (const ScreenBox& b : impl_->view->comparison().bodyBoxes()) boxes.bodies.push_back(b);
  return boxes;
}

double AnimationExporter::sampleTime(int i) {
  if (!impl_->history) simulate({}, nullptr);
  if (i < 0 || i >= impl_->frames)
    throw nh::InputError("frame " + std::to_string(i) + " out of range");
  return impl_->history->time(impl_->sampleOfFrame(i));
}

bool AnimationExporter::renderFrames(nh::EncodingPipe& pipe, const std::atomic<bool>* cancel,
                                     const std::function<void(int)>& frameDone) {
  Impl& d = *impl_;
  // Frame i - 1 is read back, composed and queued for the encoder after frame i was submitted.
  auto deliver = [&](int i, size_t k) {
    d.view->takeFrame([&](const std::uint8_t* pixels) {
      const std::uint8_t* rgb = nullptr;
      std::ptrdiff_t stride = 0;
      finishFrame(k, pixels, &rgb, &stride);
      pipe.push(rgb, stride);
    });
    frameDone(i);
  };
  size_t previous = 0;
  for (int i = 0; i < d.frames; ++i) {
    if (cancel && cancel->load()) return false;
    const size_t k = prepareFrame(i);
    d.view->startFrame();
    if (i > 0) deliver(i - 1, previous);
    previous = k;
  }
  if (d.frames > 0) deliver(d.frames - 1, previous);
  return true;
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
  auto frameDone = [&](int i) {
    if (!progress) return;
    p.stage = ExportProgress::Stage::Rendering;
    p.frame = i + 1;
    p.elapsedSeconds = elapsed();
    const double perFrame = (p.elapsedSeconds - simulated) / (i + 1);
    // GIF spends about a third of its time building the palette in finish().
    const double finishShare = format == nh::VideoFormat::Gif ? 0.5 : 0.02;
    p.remainingSeconds = perFrame * ((d.frames - i - 1) + finishShare * d.frames);
    progress(p);
  };
  if (!renderFrames(pipe, cancel, frameDone)) {
    pipe.abandon();
    if (cancelled()) return result;
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
// SPDX-License-Identifier: GPL-3.0-or-later
