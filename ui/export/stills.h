// Stills and data for the app's "Export screenshot / plots / data": the 3D scene as a PNG at a
// chosen resolution, a plot as PNG or SVG, the trajectory as CSV with the scenario JSON next
// to it. Every file goes through nh::AtomicOutput (core/io/atomic_output.h): a failure never leaves
// a truncated file. Errors are nh::Error with a message naming the file and the cause.
#pragma once

#include <QSize>
#include <QString>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ui/export/animation_exporter.h"
#include "ui/plot/plot_widget.h"
#include "ui/scene/scene_renderer.h"

class vtkCamera;

namespace nhui {

class RunHistory;

// ---- 3D view --------------------------------------------------------------------------------

struct SceneImageRequest {
  QSize size{1920, 1080};            // pixels, any size the GPU renders (not limited to 1920×1080)
  double time = 0;                   // simulated time shown (the history's nearest earlier sample)
  SceneDisplayOptions options;       // trails, arrows, legend, overlay… as in the view
  std::optional<CameraPose> camera;  // the view's camera; default 3/4 view
  std::string overlayText;           // e.g. "t = 3.20 s"; shown if options.overlayText
  // The on-screen view's height in logical pixels: text and lines are scaled by
  // size.height / viewHeight, so the image shows them at the same fraction of its height as
  // the screen (0: as for a 720 px high view). options.pixelRatio is replaced by this.
  int viewHeight = 0;
  // The view's arrow scales by arrow name (SceneRenderer::arrowReferences()), so the image
  // draws the arrows and legend the screen shows; empty: scales from this frame alone.
  std::map<std::string, double> arrowReferences;
};

// Renders the scene of `run` (trails over options.trailSeconds before `time`) offscreen and
// saves it as PNG. Needs an X display (nh::ensureDisplay()) and a QGuiApplication; call it
// from the thread that owns no other VTK context (the GUI thread is fine: the offscreen
// window has its own context).
void saveSceneImage(const QString& path, const RunHistory& run, const SceneImageRequest& request);

// The camera of a VTK renderer as a CameraPose (for SceneImageRequest::camera).
CameraPose cameraPoseOf(vtkCamera* camera);

// ---- Plots ----------------------------------------------------------------------------------

// What a plot shows, copied out of a PlotWidget (its curves still point into the histories:
// save before the histories change).
struct PlotSnapshot {
  std::vector<PlotPane> panes;
  PlotRange x;
  QString xLabel;
  PlotStyle style;
};

// The widget's panes, ranges and style; xLabel as the panel set it ("t [s]" for time series,
// the x variable for phase portraits).
PlotSnapshot plotSnapshot(const PlotWidget& plot, const QString& xLabel);

// Saves the plot at `size` (pixels for PNG; the SVG's view box). Format from the suffix:
// ".png" or ".svg" (case-insensitive); anything else throws nh::InputError.
void savePlotImage(const QString& path, const PlotSnapshot& plot, const QSize& size);

// ---- Data -----------------------------------------------------------------------------------

// The companion of a data file: "run.csv" → "run.json".
QString scenarioPathForData(const QString& csvPath);

// Writes samples [begin, end) of the run's output columns (t, state, energy, residuals,
// multipliers: exactly the columns of `nhsim run`) as CSV, and scenario — resolved with the
// run's first parameters and state, so that `nhsim run` on it reproduces the data, with the
// parameter changes during the run as its timed edits (SimulationController::recordedScenario)
// — to scenarioPathForData(csvPath). end = npos means to the end. Returns a note for the user
// if parameters changed during the run and the scenario has no edits (the JSON then
// reproduces only the part before the first change), or the run's first samples were
// dropped, else an empty string.
QString saveTrajectory(const QString& csvPath, const RunHistory& run, const nh::Scenario& scenario,
                       size_t begin = 0, size_t end = static_cast<size_t>(-1));

// Writes samples [begin, end) of the run's output columns as CSV (no JSON) through a
// temporary next to path, renamed on success.
void writeHistoryCsv(const QString& path, const RunHistory& run, size_t begin, size_t end);

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
