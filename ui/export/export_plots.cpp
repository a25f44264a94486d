// The plots beside an exported animation (animation_exporter.h): the path block with equal
// scales and the time-series panes laid out once from the whole clip's ranges, then painted
// up to each frame's sample.
#include <QPainter>
#include <algorithm>
#include <cmath>

#include "core/nh/errors.h"
#include "ui/export/animation_exporter.h"
#include "ui/export/animation_exporter_impl.h"
#include "ui/plot/plot_widget.h"
#include "ui/sim/run_style.h"

namespace nhui {

namespace {

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

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
