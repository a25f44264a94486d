// Frames per second of the 3D view and of the plots, at 1280×720, with 10⁵-point trails and
// curves (the ball on the turntable after 1000 s at dt_out = 0.01). Prints one line per case;
// the 3D view's lines are followed by VTK's offscreen rate on the same scene and the ratio.
// Run under an X display: scripts/with-display.sh build-gui/bench/gui/bench_gui
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkUnsignedCharArray.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QSurfaceFormat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include "core/model/catalogue.h"
#include "core/nh/scenario.h"
#include "ui/plot/plot_widget.h"
#include "ui/scene/scene_renderer.h"
#include "ui/scene/vtk_view_widget.h"
#include "ui/sim/run_history.h"

namespace {

double cpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

constexpr size_t kPoints = 100000;
constexpr int kFrames = 60;

// A recorded run of the default scenario with kPoints samples and the 2 × kFrames that the
// view's frames append (computed once).
std::unique_ptr<nhui::RunHistory> recordRun() {
  auto system = nh::findSystem("ball_on_turntable");
  nh::Scenario s;
  nh::Simulation sim(system, s.dynamics, s.formulation, s.integrator);
  sim.setParameters(system->defaultParameters());
  sim.setState(0, nh::initialState(sim.equations(), 0, {}));
  const nhui::RecordLayout layout = nhui::makeRecordLayout(sim.equations());
  auto run = std::make_unique<nhui::RunHistory>(system, s.dynamics, layout);
  run->setParametersFrom(0, system->defaultParameters());
  nh::Observables obs;
  std::vector<double> row, record(layout.stride());
  nh::SceneFrame scene;
  QElapsedTimer timer;
  timer.start();
  sim.advance(s.dtOut * (kPoints + 2 * kFrames - 1), s.dtOut, [&](double t, const double* x) {
    nhui::fillRecord(sim.equations(), sim.workspace(), layout, t, x, obs, row, scene,
                     record.data());
    run->append(record.data(), 1);
  });
  std::printf(
      "simulated %zu samples of ball_on_turntable in %.2f s (%.0f samples/s incl. records)\n",
      run->size(), timer.elapsed() / 1000.0, run->size() / (timer.elapsed() / 1000.0));
  return run;
}

// The trails of frame i of kFrames as playback shows them: the last `count` samples up to a
// point that advances 2 samples a frame (real time at dt_out = 0.01 and 60 frames/s), so each
// frame appends to the trails and drops their oldest samples. Frame 0 is the first timed one.
std::vector<nhui::TrailSpan> spans(const nhui::RunHistory& run, size_t count, int i) {
  std::vector<nhui::TrailSpan> out;
  const size_t end = run.size() - 2 * static_cast<size_t>(kFrames - i);
  const size_t begin = end - count;
  for (const auto& p : run.layout().points)
    out.push_back({p.name, p.inMovingFrame, run.column(p.column).data() + begin,
                   run.column(p.column + 1).data() + begin, run.column(p.column + 2).data() + begin,
                   count, begin});
  return out;
}

// The scene both the view and the offscreen window draw: the whole run's trails, and what
// the environment switches off to measure its cost (NOTEXT: text overlay and legend; NOAXES:
// the corner axes; NOGRADIENT: a solid clear instead of the gradient background).
void setUpScene(nhui::SceneRenderer& scene, vtkRenderer* renderer) {
  nhui::SceneDisplayOptions options;
  options.trailSeconds = 1e9;
  if (getenv("NOTEXT")) {
    options.legend = false;
    options.overlayText = false;
  }
  if (getenv("NOAXES")) options.axes = false;
  scene.setOptions(options);
  if (getenv("NOGRADIENT")) renderer->GradientBackgroundOff();
}

// Frames per second of one case.
struct Rate {
  double framesPerSecond = 0;
  double cpuMsPerFrame = 0;
};

Rate benchView(const nhui::RunHistory& run, size_t trailPoints) {
  nhui::VtkViewWidget view;
  view.resize(1280, 720);
  view.show();
  for (int i = 0; i < 20; ++i) QApplication::processEvents(QEventLoop::AllEvents, 10);
  nhui::SceneRenderer scene(view.renderer());
  setUpScene(scene, view.renderer());
  nh::SceneFrame frame;
  run.sceneAt(run.lastTime(), frame);
  scene.update(frame, spans(run, trailPoints, 0));
  scene.resetCamera();
  // Each frame goes through Qt's normal path: update(), paintGL(), composition and flush.
  auto paintOnce = [&view] {
    const long before = view.framesPainted();
    view.update();
    QElapsedTimer wait;
    wait.start();
    while (view.framesPainted() == before && wait.elapsed() < 5000)
      QApplication::processEvents(QEventLoop::AllEvents, 5);
  };
  for (int i = 0; i < 5; ++i) paintOnce();  // warm up (shader compilation)
  QElapsedTimer timer;
  timer.start();
  const double cpu0 = cpuSeconds();
  for (int i = 0; i < kFrames; ++i) {
    // A new frame each time: scene moved, trails grown by the samples since the last.
    run.sceneAt(run.lastTime() - 0.01 * (kFrames - i), frame);
    scene.update(frame, spans(run, trailPoints, i));
    paintOnce();
  }
  const double seconds = timer.nsecsElapsed() * 1e-9;
  // NH_BENCH_SHOT=prefix saves the last frame (to compare the look before and after a change).
  if (const char* shot = std::getenv("NH_BENCH_SHOT"))
    view.grabFramebuffer().save(QString("%1_view_%2.png").arg(shot).arg(trailPoints));
  // CPU time of all threads (llvmpipe rasterises on its own threads): less disturbed than
  // wall time when other processes share the cores.
  const Rate rate{kFrames / seconds, 1000 * (cpuSeconds() - cpu0) / kFrames};
  std::printf(
      "3D view    1280x720, 2 trails x %6zu points: %6.1f frames/s (%.1f ms/frame, CPU %.1f "
      "ms/frame, VTK Render() %.1f ms)\n",
      trailPoints, rate.framesPerSecond, 1000 * seconds / kFrames, rate.cpuMsPerFrame,
      1000 * view.renderer()->GetLastRenderTimeInSeconds());
  return rate;
}

// The same scene through an offscreen vtkRenderWindow (no Qt): what video export pays. The
// last frame is read back (a glFinish), so that frames still queued in the software
// rasteriser count.
Rate benchOffscreen(const nhui::RunHistory& run, size_t trailPoints) {
  vtkNew<vtkRenderWindow> window;
  window->SetOffScreenRendering(true);
  window->SetMultiSamples(0);  // as OffscreenScene (export); VTK's default is 8 samples
  window->SetSize(1280, 720);
  vtkNew<vtkRenderer> renderer;
  window->AddRenderer(renderer);
  nhui::SceneRenderer scene(renderer);
  setUpScene(scene, renderer);
  nh::SceneFrame frame;
  run.sceneAt(run.lastTime(), frame);
  scene.update(frame, spans(run, trailPoints, 0));
  scene.resetCamera();
  for (int i = 0; i < 5; ++i) window->Render();
  vtkNew<vtkUnsignedCharArray> pixels;
  window->GetRGBACharPixelData(0, 0, 0, 0, 1, pixels);
  QElapsedTimer timer;
  timer.start();
  const double cpu0 = cpuSeconds();
  double updateSeconds = 0;
  for (int i = 0; i < kFrames; ++i) {
    QElapsedTimer u;
    u.start();
    run.sceneAt(run.lastTime() - 0.01 * (kFrames - i), frame);
    scene.update(frame, spans(run, trailPoints, i));
    updateSeconds += u.nsecsElapsed() * 1e-9;
    window->Render();
  }
  window->GetRGBACharPixelData(0, 0, 0, 0, 1, pixels);
  const double seconds = timer.nsecsElapsed() * 1e-9;
  const Rate rate{kFrames / seconds, 1000 * (cpuSeconds() - cpu0) / kFrames};
  std::printf(
      "offscreen  1280x720, 2 trails x %6zu points: %6.1f frames/s (%.1f ms/frame, CPU %.1f "
      "ms/frame, scene sync %.1f ms)\n",
      trailPoints, rate.framesPerSecond, 1000 * seconds / kFrames, rate.cpuMsPerFrame,
      1000 * updateSeconds / kFrames);
  return rate;
}

// The view against VTK's offscreen window on the same scene, side by side: two rounds each,
// alternating (the machine's load drifts), and the faster round of each compared.
void benchViewAgainstOffscreen(const nhui::RunHistory& run, size_t trailPoints) {
  Rate offscreen, view;
  for (int round = 0; round < 2; ++round) {
    const Rate o = benchOffscreen(run, trailPoints);
    const Rate v = benchView(run, trailPoints);
    if (o.framesPerSecond > offscreen.framesPerSecond) offscreen = o;
    if (v.framesPerSecond > view.framesPerSecond) view = v;
  }
  std::printf(
      "=> 2 trails x %6zu points: view %.1f frames/s, offscreen %.1f frames/s, view/offscreen "
      "%.2f (CPU per frame %.1f / %.1f ms)\n",
      trailPoints, view.framesPerSecond, offscreen.framesPerSecond,
      view.framesPerSecond / offscreen.framesPerSecond, view.cpuMsPerFrame,
      offscreen.cpuMsPerFrame);
}

// Each frame the curves gain `append` samples (2 ≈ what the app records per frame at
// dt_out = 0.01 in real time at 60 frames/s), ending at 10⁵ points per curve; with
// append = 0 the data keys are 0 and every frame is drawn from scratch (what a change of
// range, size or history costs).
void benchPlot(const nhui::RunHistory& run, bool phase, bool comparison, size_t append) {
  nhui::PlotWidget plot;
  plot.resize(1280, 720);
  plot.show();
  QApplication::processEvents();
  const size_t start = run.size() - append * kFrames;
  std::vector<nhui::PlotPane> panes;
  auto curve = [&](const char* xs, const char* ys, int r) {
    nhui::PlotCurve c;
    c.name = r == 0 ? "nonholonomic" : "comparison";
    c.colour = r == 0 ? QColor(86, 180, 255) : QColor(255, 150, 40);
    c.x = run.column(run.columnIndex(xs)).data();
    c.y = run.column(run.columnIndex(ys)).data();
    c.count = start;
    c.increasingX = std::string(xs) == "t";
    c.dataKey = append > 0 ? qHash(QByteArray(xs) + "|" + ys) | 1 : 0;
    return c;
  };
  if (phase) {
    nhui::PlotPane pane;
    pane.yLabel = "x – y";
    pane.curves.push_back(curve("x", "y", 0));
    if (comparison) pane.curves.push_back(curve("vx", "vy", 1));
    panes.push_back(pane);
    plot.setEqualAspect(true);
  } else {
    for (const char* v : {"energy", "lambda_1", "residual"}) {
      nhui::PlotPane pane;
      pane.yLabel = v;
      pane.curves.push_back(curve("t", v, 0));
      if (comparison) pane.curves.push_back(curve("t", "lambda_2", 1));
      panes.push_back(pane);
    }
  }
  plot.setPanes(panes);
  for (int i = 0; i < 3; ++i) plot.repaint();
  const long redraws0 = plot.fullRedraws();
  QElapsedTimer timer;
  timer.start();
  const double cpu0 = cpuSeconds();
  for (int i = 1; i <= kFrames; ++i) {
    for (auto& pane : panes)
      for (auto& c : pane.curves) c.count = start + append * i;
    plot.setPanes(panes);
    plot.repaint();
  }
  const double seconds = timer.nsecsElapsed() * 1e-9;
  if (const char* shot = std::getenv("NH_BENCH_SHOT"))
    plot.grab().save(QString("%1_%2_%3_%4.png")
                         .arg(shot, phase ? "phase" : "series")
                         .arg(comparison ? 2 : 1)
                         .arg(append));
  const size_t curves = phase ? (comparison ? 2 : 1) : (comparison ? 6 : 3);
  std::printf(
      "%-11s 1280x720, %zu curve(s) x %zu points, %s: %6.1f frames/s (%.1f ms/frame, CPU "
      "%.1f ms/frame, %ld full redraws)\n",
      phase ? "phase plot" : "time series", curves, run.size(),
      append > 0 ? "+2 points/frame" : "from scratch  ", kFrames / seconds,
      1000 * seconds / kFrames, 1000 * (cpuSeconds() - cpu0) / kFrames,
      plot.fullRedraws() - redraws0);
}

}  // namespace

int main(int argc, char** argv) {
  QSurfaceFormat::setDefaultFormat(nhui::VtkViewWidget::vtkSurfaceFormat());
  QApplication app(argc, argv);
  const auto run = recordRun();
  // NH_BENCH_ONLY=view|offscreen|onscreen|phase|series runs one group (for profiling):
  // "view" compares the view with the offscreen window, the other two run one of them.
  const char* only = std::getenv("NH_BENCH_ONLY");
  auto wanted = [only](const char* group) { return !only || std::strcmp(only, group) == 0; };
  for (size_t points : {size_t{1000}, kPoints}) {
    if (wanted("view")) benchViewAgainstOffscreen(*run, points);
    if (only && std::strcmp(only, "offscreen") == 0) benchOffscreen(*run, points);
    if (only && std::strcmp(only, "onscreen") == 0) benchView(*run, points);
  }
  for (size_t append : {size_t{2}, size_t{0}}) {
    if (wanted("phase")) {
      benchPlot(*run, true, false, append);
      benchPlot(*run, true, true, append);
    }
    if (wanted("series")) {
      benchPlot(*run, false, false, append);
      benchPlot(*run, false, true, append);
    }
  }
  return 0;
}
// SPDX-License-Identifier: GPL-3.0-or-later
