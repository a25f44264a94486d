// Stills and data (stills.h): the 3D scene rendered offscreen to a PNG, a plot painted to PNG
// or SVG, and the trajectory written as CSV with its scenario file beside it, all through
// AtomicOutput.
#include "ui/export/stills.h"

#include <vtkCamera.h>

#include <QBuffer>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/io/atomic_output.h"
#include "core/io/scenario_file.h"
#include "ui/export/offscreen_scene.h"
#include "ui/sim/run_history.h"

namespace nhui {

namespace {

// Encoded in memory, then written through AtomicOutput (core/io/atomic_output.h): a regular
// file is replaced whole, a device or FIFO written in place, a symlink written through.
void saveImage(const QImage& image, const QString& path) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  if (!image.save(&buffer, "PNG"))
    throw nh::Error("cannot encode the PNG image for '" + path.toStdString() + "'");
  nh::writeOutputFile(path.toStdString(), bytes.toStdString());
}

}  // namespace

// ---- 3D view --------------------------------------------------------------------------------

CameraPose cameraPoseOf(vtkCamera* camera) {
  CameraPose pose;
  camera->GetPosition(pose.position.data());
  camera->GetFocalPoint(pose.focalPoint.data());
  camera->GetViewUp(pose.viewUp.data());
  pose.viewAngle = camera->GetViewAngle();
  return pose;
}

void saveSceneImage(const QString& path, const RunHistory& run, const SceneImageRequest& request) {
  if (run.empty()) throw nh::InputError("nothing to show yet: the run has no samples");
  if (request.size.width() < 16 || request.size.height() < 16 || request.size.width() > 8192 ||
      request.size.height() > 8192)
    throw nh::InputError("screenshot size must be between 16x16 and 8192x8192, got " +
                         std::to_string(request.size.width()) + "x" +
                         std::to_string(request.size.height()));
  OffscreenScene view(request.size.width(), request.size.height());
  view.scene().setSystem(&run.system());
  SceneDisplayOptions options = request.options;
  options.pixelRatio = static_cast<double>(request.size.height()) /
                       (request.viewHeight > 0 ? request.viewHeight : 720);
  view.scene().setOptions(options);
  const size_t k = run.indexAtOrBefore(request.time);
  const double t = run.time(k);
  nh::SceneFrame frame;
  run.sceneAt(t, frame);
  std::vector<TrailSpan> spans;
  if (request.options.trails) {
    const size_t begin = run.indexAtOrAfter(t - request.options.trailSeconds);
    for (const auto& p : run.layout().points)
      spans.push_back({p.name, p.inMovingFrame, run.column(p.column).data() + begin,
                       run.column(p.column + 1).data() + begin,
                       run.column(p.column + 2).data() + begin, k + 1 - begin});
  }
  view.scene().update(frame, spans);
  if (!request.arrowReferences.empty()) view.scene().setArrowReferences(request.arrowReferences);
  view.scene().setOverlayText(request.overlayText);
  if (request.camera) {
    vtkCamera* cam = view.camera();
    cam->SetPosition(request.camera->position.data());
    cam->SetFocalPoint(request.camera->focalPoint.data());
    cam->SetViewUp(request.camera->viewUp.data());
    cam->SetViewAngle(request.camera->viewAngle);
  } else {
    view.scene().resetCamera();
  }
  const std::uint8_t* pixels = view.render();
  const QImage bottomUp(pixels, view.width(), view.height(), 3 * view.width(),
                        QImage::Format_RGB888);
  saveImage(bottomUp.mirrored(false, true), path);
}

// ---- Plots ----------------------------------------------------------------------------------

PlotSnapshot plotSnapshot(const PlotWidget& plot, const QString& xLabel) {
  return PlotSnapshot{plot.panes(), plot.xRange(), xLabel, plot.plotStyle()};
}

void savePlotImage(const QString& path, const PlotSnapshot& plot, const QSize& size) {
  if (size.width() < 16 || size.height() < 16 || size.width() > 16384 || size.height() > 16384)
    throw nh::InputError("plot size must be between 16x16 and 16384x16384, got " +
                         std::to_string(size.width()) + "x" + std::to_string(size.height()));
  const QString suffix = QFileInfo(path).suffix().toLower();
  const QRectF rect(QPointF(0, 0), QSizeF(size));
  if (suffix == "png") {
    QImage image(size, QImage::Format_RGB32);
    image.fill(plot.style.background);
    {
      QPainter painter(&image);
      paintPlot(painter, rect, plot.panes, plot.x, plot.xLabel, plot.style);
    }
    saveImage(image, path);
  } else if (suffix == "svg") {
    // Generated in memory, then written whole (as saveImage).
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(size);
    svg.setViewBox(rect);
    svg.setTitle(plot.panes.empty() ? QStringLiteral("plot") : plot.panes.front().yLabel);
    svg.setDescription(QStringLiteral("Nonholonomic Lab plot"));
    {
      QPainter painter(&svg);
      painter.fillRect(rect, plot.style.background);
      paintPlot(painter, rect, plot.panes, plot.x, plot.xLabel, plot.style);
    }
    nh::writeOutputFile(path.toStdString(), bytes.toStdString());
  } else {
    throw nh::InputError("cannot save a plot as '" + path.toStdString() +
                         "': choose a file name ending in .png or .svg");
  }
}

// ---- Data -----------------------------------------------------------------------------------

QString scenarioPathForData(const QString& csvPath) {
  const QFileInfo info(csvPath);
  return info.dir().filePath(info.completeBaseName() + ".json");
}

void writeHistoryCsv(const QString& path, const RunHistory& run, size_t begin, size_t end) {
  end = std::min(end, run.size());
  const QFileInfo info(path);
  const QString folder = info.absolutePath();
  if (!QFileInfo(folder).isDir())
    throw nh::Error("cannot write '" + path.toStdString() + "': folder '" + folder.toStdString() +
                    "' does not exist");
  // Complete or absent (a device or FIFO is written in place): core/io/atomic_output.h.
  nh::AtomicOutput out(path.toStdString());
  const int columns = run.layout().outputColumnCount;  // as `nhsim run` writes them
  std::string text;
  for (int c = 0; c < columns; ++c) text += (c ? "," : "") + run.layout().columns[c];
  text += '\n';
  for (size_t k = begin; k < end; ++k) {
    for (int c = 0; c < columns; ++c) {
      if (c) text += ',';
      text += nh::formatValue(run.column(c)[k]);
    }
    text += '\n';
    if (text.size() > (1 << 20)) {
      out.write(text);
      text.clear();
    }
  }
  out.write(text);
  out.commit();
}

QString saveTrajectory(const QString& csvPath, const RunHistory& run, const nh::Scenario& scenario,
                       size_t begin, size_t end) {
  if (run.empty()) throw nh::InputError("nothing to save yet: the run has no samples");
  if (QFileInfo(csvPath).suffix().toLower() == "json")
    throw nh::InputError("the data file '" + csvPath.toStdString() +
                         "' would collide with its scenario file; choose a name ending in .csv");
  end = std::min(end, run.size());
  nh::Scenario s = nh::resolvedScenario(scenario, run.parametersAt(0), run.state(0));
  s.tEnd = run.lastTime();
  if (run.size() >= 2) s.dtOut = run.time(1) - run.time(0);
  QString note;
  // A change of parameters the scenario does not carry as a timed edit.
  for (size_t k = 1; k < run.size() && s.edits.empty(); ++k)
    if (&run.parametersAt(k) != &run.parametersAt(0)) {
      note = QString(
                 "Parameters changed at t = %1 s during this run: the scenario file "
                 "reproduces the data up to that time only.")
                 .arg(run.time(k));
      break;
    }
  if (run.firstTime() != 0)
    note = QString(
               "The run's older samples were dropped (it starts at t = %1 s): the scenario "
               "file starts from this state at t = 0.")
               .arg(run.firstTime());
  writeHistoryCsv(csvPath, run, begin, end);
  nh::writeScenarioFile(s, scenarioPathForData(csvPath).toStdString());
  return note;
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
