// The plots beside an exported animation (animation_exporter.h): the path block (equal scales
// for two lengths) and the time-series panes laid out once from the whole clip's ranges of
// both runs, titled with the app's display names, then painted up to each frame's sample with
// the comparison run's curve beside the primary run's.
#include <QFont>
#include <QPainter>
#include <algorithm>
#include <cmath>

#include "core/nh/errors.h"
#include "ui/export/animation_exporter.h"
#include "ui/export/animation_exporter_impl.h"
#include "ui/plot/plot_panels.h"
#include "ui/plot/plot_widget.h"
#include "ui/sim/run_style.h"

namespace nhui {

namespace {

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

// Widens the shorter of the two ranges so that x and y have one scale in `frame`.
void equalScales(const QRectF& frame, PlotRange& xr, PlotRange& yr) {
  if (!(frame.width() > 0) || !(frame.height() > 0)) return;
  const double sx = (xr.hi - xr.lo) / frame.width(), sy = (yr.hi - yr.lo) / frame.height();
  if (sx > sy) {
    const double c = 0.5 * (yr.lo + yr.hi), half = 0.5 * sx * frame.height();
    yr = {c - half, c + half};
  } else {
    const double c = 0.5 * (xr.lo + xr.hi), half = 0.5 * sy * frame.width();
    xr = {c - half, c + half};
  }
}

}  // namespace

void AnimationExporter::setUpPlots() {
  Impl& d = *impl_;
  const RunHistory& run = *d.history;
  const RunHistory* other = d.comparison.get();
  const size_t begin = d.firstFrameSample, end = d.sampleOfFrame(d.frames - 1) + 1;
  d.plotStyle.fontScale = std::clamp(settings_.height / 600.0, 0.7, 1.8);
  d.plotStyle.lineWidth = 1.8;
  d.plotArea = QRectF(d.sceneWidth, 0, settings_.width - d.sceneWidth, settings_.height);
  const nh::SystemInfo& info = d.system->info();
  auto title = [&](const std::string& column) {
    return columnDisplayName(run.layout(), info, QString::fromStdString(column));
  };
  // A column's range over the clip, the comparison run's samples included.
  auto rangeOf = [&](const std::string& column) {
    std::vector<double> both(run.column(run.columnIndex(column)).begin() + begin,
                             run.column(run.columnIndex(column)).begin() + end);
    if (const int c = other ? other->columnIndex(column) : -1; c >= 0 && other->size() > begin)
      both.insert(both.end(), other->column(c).begin() + begin,
                  other->column(c).begin() + std::min(end, other->size()));
    return columnRange(both, 0, both.size());
  };

  for (const auto& name : settings_.timeSeries)
    if (run.columnIndex(name) < 0)
      throw nh::InputError("cannot plot '" + name + "': " + d.system->name() +
                           " records no such variable");
  const bool havePath = !settings_.pathX.empty();
  if (havePath && (run.columnIndex(settings_.pathX) < 0 || run.columnIndex(settings_.pathY) < 0))
    throw nh::InputError("cannot plot the path " + settings_.pathX + "–" + settings_.pathY + ": " +
                         d.system->name() + " records no such variable");
  if (!havePath && settings_.timeSeries.empty()) return;

  // The path takes a square-ish block at the top; time series share the rest.
  const QRectF area = d.plotArea.adjusted(6, 6, -6, -6);
  double pathHeight = 0;
  if (havePath)
    pathHeight = settings_.timeSeries.empty() ? area.height()
                                              : std::min(area.height() * 0.55, area.width() * 0.95);
  if (havePath) {
    Impl::PlotBlock b;
    b.path = true;
    b.rect = QRectF(area.left(), area.top(), area.width(), pathHeight);
    b.xColumn = settings_.pathX;
    b.yColumns = {settings_.pathY};
    b.xLabel = title(settings_.pathX);
    b.yLabels = {b.xLabel + " – " + title(settings_.pathY)};
    b.x = rangeOf(settings_.pathX);
    b.y = {rangeOf(settings_.pathY)};
    d.plots.push_back(std::move(b));
    // Equal scales when both axes are lengths (a circle stays round), fitted to the pane's frame
    // as paintPlot lays it out (twice: the tick labels' margin follows the ranges).
    if (equalPathScales(run.layout(), info, settings_.pathX, settings_.pathY)) {
      Impl::PlotBlock& path = d.plots.back();
      for (int pass = 0; pass < 2; ++pass) {
        const std::vector<PlotPane> panes = plotPanes(d.plots.size() - 1, end - 1);
        path.equalFrame = plotFrame(QFont(), path.rect, panes[0], path.x, d.plotStyle);
        equalScales(path.equalFrame, path.x, path.y[0]);
      }
    }
  }
  if (!settings_.timeSeries.empty()) {
    Impl::PlotBlock b;
    b.rect = QRectF(area.left(), area.top() + pathHeight + (havePath ? 6 : 0), area.width(),
                    area.height() - pathHeight - (havePath ? 6 : 0));
    b.yColumns = settings_.timeSeries;
    b.xLabel = title("t");
    b.x = {settings_.tStart, settings_.frameTime(d.frames)};
    for (const auto& name : settings_.timeSeries) {
      b.y.push_back(rangeOf(name));
      b.yLabels.push_back(title(name));
    }
    d.plots.push_back(std::move(b));
  }
}

std::vector<PlotPane> AnimationExporter::plotPanes(size_t block, size_t sample) const {
  const Impl& d = *impl_;
  const Impl::PlotBlock& b = d.plots[block];
  const size_t begin = d.firstFrameSample;
  const std::array<std::string, 2> labels = runLabels();
  std::vector<PlotPane> panes;
  for (size_t j = 0; j < b.yColumns.size(); ++j) {
    PlotPane pane;
    pane.yLabel = b.yLabels[j];
    pane.y = b.y[j];
    // The primary run and, beside it, the comparison run up to where it ended (it may fail).
    for (int r = 0; r < 2; ++r) {
      const RunHistory* run = r == 0 ? d.history.get() : d.comparison.get();
      if (!run || run->size() <= begin) continue;
      const int xc = run->columnIndex(b.xColumn), yc = run->columnIndex(b.yColumns[j]);
      if (xc < 0 || yc < 0) continue;
      PlotCurve curve;
      curve.run = r;
      curve.name =
          d.comparison ? QString::fromStdString(labels[static_cast<size_t>(r)]) : QString();
      curve.x = run->column(xc).data() + begin;
      curve.y = run->column(yc).data() + begin;
      curve.count = std::min(sample + 1, run->size()) - begin;
      curve.increasingX = !b.path;
      pane.curves.push_back(curve);
    }
    panes.push_back(std::move(pane));
  }
  return panes;
}

void AnimationExporter::paintPlots(size_t sample) {
  Impl& d = *impl_;
  QPainter painter(&d.canvas);
  painter.fillRect(d.plotArea, d.plotStyle.background);
  for (size_t i = 0; i < d.plots.size(); ++i) {
    const Impl::PlotBlock& b = d.plots[i];
    paintPlot(painter, b.rect, plotPanes(i, sample), b.x, b.xLabel, d.plotStyle);
  }
}

std::vector<ExportPlot> AnimationExporter::plotsAt(int i) {
  history();
  prepareView();
  Impl& d = *impl_;
  if (i < 0 || i >= d.frames) throw nh::InputError("frame " + std::to_string(i) + " out of range");
  std::vector<ExportPlot> out;
  for (size_t j = 0; j < d.plots.size(); ++j) {
    const Impl::PlotBlock& b = d.plots[j];
    out.push_back({b.rect, b.path, b.x, b.xLabel, plotPanes(j, d.sampleOfFrame(i)), b.equalFrame});
  }
  return out;
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
