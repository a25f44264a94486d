// Animation export: simulates a scenario on a fixed grid of frame times, renders every frame
// offscreen (SceneRenderer in an offscreen vtkRenderWindow), optionally paints plots beside
// the 3D view, and feeds the frames to nh::VideoEncoder (MP4, WebM, GIF or a PNG sequence).
//
// Deterministic by construction: frame i shows the simulated state at
//   t_i = tStart + i · speed / fps,   i = 0 … N−1,   N = round((tEnd − tStart) · fps / speed),
// taken from one Simulation::advance over a fixed output grid, never from wall-clock time. So
// the same scenario and settings give the same frames on any machine at any speed, and the
// video lasts exactly N / fps = (tEnd − tStart) / speed seconds.
//
// No Qt widgets: usable from the CLI (nhsim export), a worker thread of the app, tests and the
// benchmark. Rendering needs an X display (VTK renders through GLX only): call
// nh::ensureDisplay() on the main thread first. Painting plots needs a QGuiApplication.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/nh/comparison.h"
#include "core/nh/errors.h"
#include "core/nh/scenario.h"
#include "ui/export/media/video_encoder.h"
#include "ui/plot/plot_widget.h"
#include "ui/scene/scene_renderer.h"  // ScreenBox
#include "ui/session/display_choices.h"
#include "ui/session/view_state.h"  // CameraPose
#include "ui/sim/simulation_controller.h"

namespace nh {
class EncodingPipe;
}

namespace nhui {

class RunHistory;
struct PlannedMotion;

// An export's display choices before the view's or a scenario's are taken: 10 s of trail,
// force arrows and no velocity arrows, the dark theme; the rest as DisplayChoices has them.
inline DisplayChoices exportDisplayDefaults() {
  DisplayChoices d;
  d.trailSeconds = 10;
  d.velocityArrows = false;
  d.dark = true;
  return d;
}

struct ExportSettings {
  int width = 1280;  // output pixels, up to 1920 × 1080 (even for MP4 and WebM)
  int height = 720;
  double fps = 30;    // video frames per second (≤ 50 for GIF)
  double tStart = 0;  // simulated seconds: the first frame shows t = tStart
  double tEnd = 10;   // simulated seconds: the video ends here
  double speed = 1;   // simulated seconds per video second (< 1 slow motion, > 1 time-lapse)

  // What is drawn: trails and their length (simulated seconds behind each traced point), the
  // arrows (reaction and applied forces, velocity, angular velocity) and their scale, fixed
  // or auto, and the theme of the scene, the overlay and the plots (display.dark); by default
  // 10 s of trail, the forces, no velocity arrows and the dark theme. A video draws its
  // grid and axes, a legend when it shows an arrow, and frames its camera by `framing`: the
  // grid, axes, legend and keepInView choices here are not read.
  DisplayChoices display = exportDisplayDefaults();
  bool overlay = true;  // time, speed and parameter values in the top-left corner
  bool guides = true;   // the legend and the corner axes (a small picture leaves them out)

  bool plots = false;       // plots to the right of the 3D view
  std::string pathX = "x";  // phase portrait axes ("" for none; skipped if not recorded)
  std::string pathY = "y";
  std::vector<std::string> timeSeries = {"energy"};  // variables plotted against t
  double plotWidthFraction = 0.38;                   // share of the width given to plots

  // The camera moves over the clip the way the 3D view moves it, frame by frame from the
  // exported span's own bodies: KeepInView eases it just enough to keep the moving bodies
  // (and the comparison run's) in view (CameraFramer, with 1/fps as the time between frames),
  // Follow keeps the system's followed body at the focal point, Fixed leaves it where
  // `camera` puts it (or, without one, a 3/4 view of where the bodies go over the clip).
  enum class Framing { Fixed, KeepInView, Follow };
  Framing framing = Framing::KeepInView;
  // The start camera: its direction, up, view angle and distance (the user's zoom) are kept;
  // KeepInView and Follow move its focal point to the bodies. Default: the view's 3/4 view.
  std::optional<CameraPose> camera;

  // The comparison run drawn beside the primary one, translucent orange, as the view draws it:
  // the other dynamics (Vakonomic), the same with ghostParameter = ghostValue (Ghost), or the
  // same stepped by the other method and step (Integrator).
  nh::Comparison comparison;

  // Throws nh::InputError naming the setting, its value and the allowed range.
  void validate() const;
  int frameCount() const;                           // N above (validate() first)
  double frameStep() const { return speed / fps; }  // simulated seconds between frames
  double frameTime(int i) const { return tStart + i * frameStep(); }
};

// Progress of a running export, reported once per frame (and at stage changes).
struct ExportProgress {
  enum class Stage { Simulating, Rendering, Finishing };
  Stage stage = Stage::Simulating;
  int frame = 0;       // frames done
  int frameCount = 0;  // N
  double elapsedSeconds = 0;
  double remainingSeconds = -1;  // estimate; < 0 while unknown
};

struct ExportResult {
  bool cancelled = false;  // nothing was written
  std::filesystem::path output;
  std::filesystem::path scenarioFile;  // the resolved scenario, next to the output (or empty)
  int frames = 0;
  std::uintmax_t bytes = 0;  // size of the file, or of all frames of a PNG sequence
  double seconds = 0;        // wall-clock time taken
};

// A failure while rendering (no X display, no usable OpenGL). Encoding and file errors are
// nh::VideoError, simulation failures nh::IntegrationError / nh::SingularSystemError, bad
// settings nh::InputError; all derive from nh::Error.
class RenderError : public nh::Error {
 public:
  using nh::Error::Error;
};

// The sidecar that reproduces an export, named after the whole output name so that clips of
// one name in different formats keep their own: "clip.mp4" → "clip.mp4.json",
// "frames/" → "frames.json". It holds "exported_as": the output's file name.
std::filesystem::path scenarioPathFor(const std::filesystem::path& output);
// The output's file name as the sidecar records it ("clip.mp4", "frames").
std::string exportedNameOf(const std::filesystem::path& output);
// Throws nh::InputError if writing the sidecar of `output` would replace the scenario file
// the export reads (`input`, "" for a system name; refused even with force), or an existing
// file that is not the sidecar of an earlier export to the same output (unless force).
void checkScenarioSidecar(const std::filesystem::path& output, const std::filesystem::path& input,
                          bool force);

// Takes what a scenario file's "view" part (nh::Scenario::view, the lessons') says about the
// 3D view into `settings`: camera follow and pose, trails, arrows and arrow scale, the theme
// and the comparison.
// Entries it does not know or cannot read are left as they are (nhlab checks the part).
void applyScenarioView(const std::string& viewJson, ExportSettings& settings);

// The plots an export shows unless its options name others, into `settings` (pathX, pathY,
// timeSeries): a lesson's own (its view's "plots": the phase pair, the time series), else the
// ground-plane pair the system's drag handle moves (none without one) and the energy.
void applyScenarioPlots(const nh::Scenario& scenario, ExportSettings& settings);

// One line for the overlay per group of parameters, e.g. "Omega0 = 1 rad/s   r = 0.1 m".
std::string parameterSummary(const nh::SystemModel& system, const std::vector<double>& values,
                             int maxLineLength);

// One block of the plots beside a frame (AnimationExporter::plotsAt): the path or the stacked
// time series, each pane with the primary run's curve and, beside a comparison, the comparison
// run's (translucent orange's run colour, both named for the legend). A path of two lengths is
// drawn with equal scales fitted to equalFrame (empty otherwise).
struct ExportPlot {
  QRectF rect;
  bool path = false;
  PlotRange x;
  QString xLabel;
  std::vector<PlotPane> panes;
  QRectF equalFrame;
};

class AnimationExporter {
 public:
  using ProgressCallback = std::function<void(const ExportProgress&)>;

  // Validates both (nh::InputError: unknown system or parameter, bad range, bad settings).
  // A planned motion (plan_source.h) is not simulated: `played`, the plan the app plays, or
  // else the plan of the scenario's view, solved on first use as the app solves it. Its frames
  // show the extremal, its nonholonomic companion as the comparison and translucent copies of
  // the bodies at the start and the target; its last frame shows tEnd (≤ T) itself, so its
  // video has frameCount() = settings.frameCount() + 1 frames. A control model with no plan
  // is refused (kNoPlanRefused).
  AnimationExporter(const nh::Scenario& scenario, const ExportSettings& settings,
                    std::shared_ptr<const PlannedMotion> played = nullptr);
  ~AnimationExporter();
  AnimationExporter(const AnimationExporter&) = delete;
  AnimationExporter& operator=(const AnimationExporter&) = delete;

  const ExportSettings& settings() const { return settings_; }
  // The scenario as simulated: every parameter and initial value spelled out, t_end = tEnd and
  // dt_out = the sampling step, so `nhsim run` on it gives the samples behind the frames.
  const nh::Scenario& resolvedScenario() const { return resolved_; }

  // Exports to `output` (format from its extension, or a PNG sequence directory) and writes
  // the resolved scenario to scenarioPathFor(output) when writeScenario is set. Checks the
  // target before simulating, so an unwritable target fails at once. `cancel` is polled once
  // per frame: once set, the partial output is removed and the result says cancelled.
  // progress is called on the calling thread. Throws nh::Error subclasses (see RenderError).
  ExportResult run(const std::filesystem::path& output, const ProgressCallback& progress = {},
                   const std::atomic<bool>* cancel = nullptr, bool writeScenario = true);

  int frameCount() const;
  // The simulated time frame i shows: settings().frameTime(i) up to rounding of the grid.
  // Simulates on first use.
  double sampleTime(int i);
  // Frame i (0 ≤ i < frameCount()) as packed RGB, top row first (tests, previews). Simulates
  // on first use; renders on the calling thread.
  nh::RgbImage renderFrame(int i);

  // The recorded samples behind the frames, from t = 0 to the end of the video (the columns
  // of nh::outputColumns() first). Simulates on first use.
  const RunHistory& history();
  // The run as integrated, for its CSV: history(), or the states at the run's own steps when
  // they are fixed and longer than the samples, whose history() holds records interpolated
  // between them (sample_grid.h). Simulates on first use.
  const RunHistory& recordedRun();
  // The comparison run's samples (settings().comparison), nullptr without one; and whether it is
  // drawn in frame i (it is hidden once it has left the scene or failed). Simulate on first use.
  const RunHistory* comparisonHistory();
  bool comparisonShown(int i);
  // The comparison run's scene at simulated time t; false (frame untouched) without one or where
  // it is not drawn. Simulates on first use.
  bool comparisonSceneAt(double t, nh::SceneFrame& frame);
  // The line that tells the two runs apart ("blue: nonholonomic   orange: vakonomic"), "" without
  // a comparison.
  std::string comparisonLegend() const;
  // Each run's name in legends ([0] the primary run, [1] the comparison), as comparisonLegend()
  // names them; both "" without a comparison.
  std::array<std::string, 2> runLabels() const;
  // The plots painted beside frame i (settings().plots; none without), curves up to its sample.
  // Simulates and sets up the view on first use, as renderFrame does.
  std::vector<ExportPlot> plotsAt(int i);
  // The camera frame i is rendered with (settings().framing). Simulates on first use; frames
  // on the calling thread, as renderFrame does.
  CameraPose cameraAt(int i);
  // The planned motion shown (its plan, extremal and companion), nullptr for a simulated run.
  // Solves the plan on first use.
  const PlannedMotion* plannedMotion();
  // Frame i's overlay box and the boxes of its moving bodies (the comparison run's too) on
  // the 3D view, in its pixels from the bottom left, as renderFrame(i) draws them: the overlay
  // stands where it covers no body. Simulates on first use; frames on the calling thread.
  struct FrameBoxes {
    ScreenBox overlay;
    std::vector<ScreenBox> bodies;
  };
  FrameBoxes frameBoxes(int i);

 private:
  struct Impl;
  void simulate(const ProgressCallback& progress, const std::atomic<bool>* cancel);
  // The frame grid from the settings: frames, samples per frame, their step, the time format.
  void setUpFrameGrid();
  // A planned motion instead of a simulated run (plan_source.cpp): the plan and the grid; the
  // plan solved (unless played) and its extremal resampled on the grid; its ghosts and the
  // plan's line in the overlay; the legend of its two runs ("" without a companion).
  void setUpPlannedMotion(std::shared_ptr<const PlannedMotion> played);
  void adoptPlannedMotion(const ProgressCallback& progress, const std::atomic<bool>* cancel);
  void preparePlanView();
  std::array<std::string, 2> planLabels() const;
  void simulateComparison(const std::atomic<bool>* cancel);
  // Whether the comparison run is drawn at t (it may have failed or left), and its scene there.
  bool comparisonShownAt(double t, nh::SceneFrame& frame) const;
  // Puts the offscreen camera where frame i shows it (Framing), stepping the framer from the
  // last frame framed (or from the first).
  void frameCamera(int i);
  // The camera of frame 0 (settings().camera, else the view's 3/4 view), taken as the start of
  // the framing: its direction, up, view angle and distance.
  void placeStartCamera(const nh::SceneFrame& frame);
  // Steps the keep-in-view framer to frame j (sample k, whose scene is `frame`).
  void keepInView(int j, size_t k, const nh::SceneFrame& frame);
  // Renders frame i; *rgb and *stride then describe it (top row first), valid until the next call.
  void composeFrame(int i, const std::uint8_t** rgb, std::ptrdiff_t* stride);
  // composeFrame() in two halves around the rendering: the scene, camera and overlay of frame
  // i (returns its sample), then the frame from the rendered pixels (OffscreenScene::render()'s
  // layout) and the plots of sample k.
  size_t prepareFrame(int i);
  void finishFrame(size_t k, const std::uint8_t* pixels, const std::uint8_t** rgb,
                   std::ptrdiff_t* stride);
  // Renders every frame into `pipe`, frame i set up and submitted while the rasteriser still
  // draws frame i - 1 (OffscreenScene::startFrame), and calls frameDone(i) once frame i is
  // queued. Returns false, having queued less, when `cancel` was set.
  bool renderFrames(nh::EncodingPipe& pipe, const std::atomic<bool>* cancel,
                    const std::function<void(int)>& frameDone);
  // Puts the overlay of the frame being prepared where it covers no moving body: top left, else
  // top right, else bottom left (above the corner axes), at its size, then smaller; where each
  // covers one, where it covers least.
  void placeOverlay();
  void prepareView();  // the offscreen scene and plots, on first use
  void setUpPlots();
  void paintPlots(size_t sample);
  // The panes of plot block `block` with both runs' curves up to `sample`.
  std::vector<PlotPane> plotPanes(size_t block, size_t sample) const;

  nh::Scenario scenario_;
  nh::Scenario resolved_;
  ExportSettings settings_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
