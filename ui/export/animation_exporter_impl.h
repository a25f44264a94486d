// What AnimationExporter (animation_exporter.h) keeps between its steps — the simulated runs,
// the frame grid, the offscreen scene, the plot blocks, the camera and a planned motion —
// shared by the files that implement it (animation_exporter.cpp, export_plots.cpp,
// plan_source.cpp). Private to ui/export.
#pragma once

#include <Eigen/Geometry>
#include <QImage>
#include <QRectF>
#include <QString>
#include <chrono>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/nh/comparison.h"
#include "core/nh/system.h"
#include "ui/export/animation_exporter.h"
#include "ui/export/offscreen_scene.h"
#include "ui/export/plan_source.h"
#include "ui/plot/plot_widget.h"
#include "ui/scene/scene_camera.h"
#include "ui/scene/scene_renderer.h"
#include "ui/sim/run_history.h"

namespace nhui {

// Thrown inside a simulation or a solve once the export's cancel flag is set.
struct Cancelled {};

struct AnimationExporter::Impl {
  std::shared_ptr<const nh::SystemModel> system;
  std::vector<double> parameters;
  std::vector<double> x0;
  int frames = 0;
  int samplesPerFrame = 1;  // recorded samples between two frames
  double sampleStep = 0;    // simulated seconds between samples
  size_t firstFrameSample = 0;
  std::unique_ptr<RunHistory> history;
  std::unique_ptr<RunHistory> steps;  // the run at its own steps (SampleGrid), or null

  // Rendering, created on first use on the rendering thread.
  std::unique_ptr<OffscreenScene> view;
  int sceneWidth = 0;
  QImage canvas;  // the whole frame (RGB888) when plots are shown
  QRectF plotArea;
  PlotStyle plotStyle;
  struct PlotBlock {
    QRectF rect;
    std::vector<std::string> yColumns;  // time series: one pane each; path: one pane
    std::string xColumn = "t";          // path: the x variable; time series: t
    bool path = false;
    PlotRange x;
    std::vector<PlotRange> y;
    QString xLabel;
    std::vector<QString> yLabels;  // each pane's title
    QRectF equalFrame;             // a path of two lengths: the frame its equal scales fit
  };
  std::vector<PlotBlock> plots;
  std::string overlayTail;  // system title and parameters
  int timeDecimals = 2;
  std::vector<TrailSpan> spans;
  nh::SceneFrame frame;

  // The comparison run (settings.comparison), on the same grid; it may end early (a diverging
  // vakonomic run fails) and is hidden from the sample where it left the scene.
  std::unique_ptr<RunHistory> comparison;
  nh::RunSetup primarySetup, comparisonSetup;  // the runs, as the view's are set up
  double comparisonLeftAt = std::numeric_limits<double>::quiet_NaN();
  nh::SceneFrame comparisonFrame;

  // The camera: direction, up and view angle as set at the first frame; the focal point and
  // distance move with Framing (framedUpTo: the last frame the framer has stepped to).
  CameraFramer framer;
  Eigen::Vector3d cameraOffset = Eigen::Vector3d(1, -2, 1);  // eye − focus
  Eigen::Vector3d cameraUp = Eigen::Vector3d::UnitZ();
  Eigen::Vector3d cameraFocus = Eigen::Vector3d::Zero();
  double viewAngle = 30;
  int framedUpTo = -1;
  nh::SceneFrame framingScratch;

  // A planned motion (plan_source.h): the plan and, once solved or given, its runs.
  std::optional<PlanSettings> plan;
  std::shared_ptr<const PlannedMotion> planned;

  size_t sampleOfFrame(int i) const {
    return firstFrameSample + static_cast<size_t>(i) * samplesPerFrame;
  }

  // Reports the simulating stage to `progress` (if any): the frames to come and the seconds
  // since `started`.
  void reportSimulating(const ProgressCallback& progress,
                        std::chrono::steady_clock::time_point started) const {
    if (!progress) return;
    ExportProgress p;
    p.stage = ExportProgress::Stage::Simulating;
    p.frameCount = frames;
    p.elapsedSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    progress(p);
  }
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
