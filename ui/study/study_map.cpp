// StudyMap and StudyGrid (study_map.h): the grid's cells and their edges, and the painting of
// the heat map or line plot, axes, colour bar, hatched failed cells and the outlined selection.
#include "ui/study/study_map.h"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <algorithm>
#include <cmath>
#include <limits>

#include "ui/plot/plot_ticks.h"
#include "ui/study/viridis.h"

namespace nhui {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool isFailed(const QString& status, double value) {
  return !status.isEmpty() && (status != "ok" || !std::isfinite(value));
}

// Cell boundaries in data units: half way between neighbouring values, and half a spacing
// beyond the first and the last (±0.5 around a single value).
std::vector<double> edgesOf(const std::vector<double>& v) {
  std::vector<double> e(v.size() + 1);
  if (v.size() == 1) {
    const double half = v[0] == 0 ? 0.5 : 0.05 * std::abs(v[0]);
    return {v[0] - half, v[0] + half};
  }
  for (size_t i = 1; i < v.size(); ++i) e[i] = 0.5 * (v[i - 1] + v[i]);
  e.front() = v.front() - (e[1] - v.front());
  e.back() = v.back() + (v.back() - e[v.size() - 1]);
  return e;
}

QString number(double v) { return QString::number(v, 'g', 6); }

// The plot area and the data ranges of one painting of a grid into a rectangle.
struct MapFrame {
  QRectF plot, colourBar;
  double xlo = 0, xhi = 1, ylo = 0, yhi = 1, vlo = 0, vhi = 1;
  std::vector<double> xEdges, yEdges;
  bool valid = false;
  double px(double x) const { return plot.left() + (x - xlo) / (xhi - xlo) * plot.width(); }
  double py(double y) const { return plot.bottom() - (y - ylo) / (yhi - ylo) * plot.height(); }
};

MapFrame frameOf(const StudyGrid& grid, const QRectF& rect) {
  MapFrame f;
  // A heat map's colour bar, its tick labels and its title (the measure) at the right.
  const double right = grid.twoDimensional() ? 134 : 20;
  f.plot =
      QRectF(rect.left() + 78, rect.top() + 34, rect.width() - 78 - right, rect.height() - 34 - 56);
  if (grid.xs.empty() || f.plot.width() < 20 || f.plot.height() < 20) return f;
  f.valid = true;
  double vlo = std::numeric_limits<double>::infinity(), vhi = -vlo;
  for (const double v : grid.values)
    if (std::isfinite(v)) vlo = std::min(vlo, v), vhi = std::max(vhi, v);
  if (!(vlo <= vhi)) vlo = 0, vhi = 1;
  widenToMinimumSpan(vlo, vhi);
  if (grid.twoDimensional()) {
    f.xEdges = edgesOf(grid.xs);
    f.yEdges = edgesOf(grid.ys);
    f.xlo = f.xEdges.front(), f.xhi = f.xEdges.back();
    f.ylo = f.yEdges.front(), f.yhi = f.yEdges.back();
    f.vlo = vlo, f.vhi = vhi;
    f.colourBar = QRectF(f.plot.right() + 18, f.plot.top(), 16, f.plot.height());
  } else {
    f.xEdges = edgesOf(grid.xs);
    f.xlo = grid.xs.front(), f.xhi = grid.xs.back();
    if (!(f.xlo < f.xhi)) f.xlo = f.xEdges.front(), f.xhi = f.xEdges.back();
    const double xPad = 0.02 * (f.xhi - f.xlo);  // the end markers inside the frame
    f.xlo -= xPad, f.xhi += xPad;
    const double pad = 0.05 * (vhi - vlo);
    f.ylo = vlo - pad, f.yhi = vhi + pad;
  }
  return f;
}

// Where a cell's value is drawn: the cell's centre on a heat map, the curve's point (or the
// plot's middle height for a cell without a value) on a line plot.
QPointF cellCentreIn(const StudyGrid& grid, const MapFrame& f, int cell) {
  const int ix = cell / grid.ny(), iy = cell % grid.ny();
  const double x = f.px(grid.xs[static_cast<size_t>(ix)]);
  if (grid.twoDimensional()) return {x, f.py(grid.ys[static_cast<size_t>(iy)])};
  const double v = grid.values[static_cast<size_t>(cell)];
  return {x, std::isfinite(v) ? f.py(v) : f.plot.center().y()};
}

// Colours of the frame, the grid lines and the runs without a value.
const QColor kAxisColour(40, 40, 40), kGridColour(225, 225, 225), kFailColour(150, 150, 150);

QBrush failHatch() { return QBrush(kFailColour, Qt::BDiagPattern); }

// The heat map's cells: viridis by value, hatched grey where a run gave no value.
void paintCells(QPainter& p, const StudyGrid& grid, const MapFrame& f) {
  const QBrush hatch = failHatch();
  p.setRenderHint(QPainter::Antialiasing, false);
  for (int ix = 0; ix < grid.nx(); ++ix)
    for (int iy = 0; iy < grid.ny(); ++iy) {
      const size_t c = static_cast<size_t>(ix * grid.ny() + iy);
      const QRectF cell(QPointF(f.px(f.xEdges[ix]), f.py(f.yEdges[iy + 1])),
                        QPointF(f.px(f.xEdges[ix + 1]), f.py(f.yEdges[iy])));
      const double v = grid.values[c];
      if (isFailed(grid.statuses[c], v)) {
        p.fillRect(cell, QColor(232, 232, 232));
        p.fillRect(cell, hatch);
      } else if (std::isfinite(v)) {
        // Slightly larger than the cell: no hairline seams between neighbours.
        p.fillRect(cell.adjusted(-0.5, -0.5, 0.5, 0.5), viridis((v - f.vlo) / (f.vhi - f.vlo)));
      }
    }
  p.setRenderHint(QPainter::Antialiasing, true);
}

// The line plot's horizontal grid lines and, where the range crosses it, the zero line.
void paintValueGrid(QPainter& p, const MapFrame& f) {
  p.setPen(QPen(kGridColour, 1));
  for (const double y : axisTicks(f.ylo, f.yhi, maxTicksForLength(f.plot.height(), 50)).values)
    p.drawLine(QPointF(f.plot.left(), f.py(y)), QPointF(f.plot.right(), f.py(y)));
  if (f.ylo < 0 && f.yhi > 0) {  // the zero line: where a stability measure changes sign
    p.setPen(QPen(QColor(120, 120, 120), 1, Qt::DashLine));
    p.drawLine(QPointF(f.plot.left(), f.py(0)), QPointF(f.plot.right(), f.py(0)));
  }
}

// The line plot: the measure over the varied value, broken where a run gave no number, with
// a marker per run (up to 60 runs) and a grey hatched band, crossed at the bottom, per failed run.
void paintCurve(QPainter& p, const StudyGrid& grid, const MapFrame& f) {
  paintValueGrid(p, f);
  const QColor curve = viridis(0.25);
  QPainterPath path;
  bool open = false;
  for (int i = 0; i < grid.nx(); ++i) {
    const double v = grid.values[static_cast<size_t>(i)];
    if (!std::isfinite(v)) {
      open = false;
      continue;
    }
    const QPointF at(f.px(grid.xs[static_cast<size_t>(i)]), f.py(v));
    open ? path.lineTo(at) : path.moveTo(at);
    open = true;
  }
  p.setPen(QPen(curve, 2));
  p.drawPath(path);
  const QBrush hatch = failHatch();
  const bool markers = grid.nx() <= 60;
  for (int i = 0; i < grid.nx(); ++i) {
    const double v = grid.values[static_cast<size_t>(i)];
    const double x = f.px(grid.xs[static_cast<size_t>(i)]);
    if (isFailed(grid.statuses[static_cast<size_t>(i)], v)) {
      const double x0 = f.px(f.xEdges[i]), x1 = f.px(f.xEdges[i + 1]);
      p.fillRect(QRectF(QPointF(x0, f.plot.top()), QPointF(x1, f.plot.bottom())), hatch);
      p.setPen(QPen(kFailColour.darker(140), 2));
      const double y = f.plot.bottom() - 8;
      p.drawLine(QPointF(x - 4, y - 4), QPointF(x + 4, y + 4));
      p.drawLine(QPointF(x - 4, y + 4), QPointF(x + 4, y - 4));
    } else if (markers && std::isfinite(v)) {
      p.setPen(Qt::NoPen);
      p.setBrush(curve);
      p.drawEllipse(QPointF(x, f.py(v)), 2.5, 2.5);
    }
  }
}

// The clicked cell: outlined in white and black, which shows on every viridis colour; on a
// line plot a square around its point on a dashed vertical line.
void paintSelection(QPainter& p, const StudyGrid& grid, const MapFrame& f, int selected) {
  const int ix = selected / grid.ny(), iy = selected % grid.ny();
  QRectF mark;
  if (grid.twoDimensional()) {
    mark = QRectF(QPointF(f.px(f.xEdges[ix]), f.py(f.yEdges[iy + 1])),
                  QPointF(f.px(f.xEdges[ix + 1]), f.py(f.yEdges[iy])));
  } else {
    const QPointF at = cellCentreIn(grid, f, selected);
    mark = QRectF(at - QPointF(6, 6), QSizeF(12, 12));
    p.setPen(QPen(QColor(40, 40, 40), 1, Qt::DashLine));
    p.drawLine(QPointF(at.x(), f.plot.top()), QPointF(at.x(), f.plot.bottom()));
  }
  // Inside the cell, so that the frame's clip does not halve it at the edges.
  if (grid.twoDimensional()) mark.adjust(2.5, 2.5, -2.5, -2.5);
  p.setBrush(Qt::NoBrush);
  p.setPen(QPen(Qt::white, 5));
  p.drawRect(mark);
  p.setPen(QPen(Qt::black, 2.5));
  p.drawRect(mark);
}

// The frame, the x axis's ticks and title below it, the y axis's at its left (read upwards).
void paintAxes(QPainter& p, const StudyGrid& grid, const MapFrame& f, const QRectF& rect) {
  p.setPen(QPen(kAxisColour, 1));
  p.setBrush(Qt::NoBrush);
  p.drawRect(f.plot);
  const AxisTicks xt = axisTicks(f.xlo, f.xhi, maxTicksForLength(f.plot.width(), 80));
  for (size_t i = 0; i < xt.values.size(); ++i) {
    const double x = f.px(xt.values[i]);
    p.drawLine(QPointF(x, f.plot.bottom()), QPointF(x, f.plot.bottom() + 5));
    p.drawText(QRectF(x - 40, f.plot.bottom() + 6, 80, 16), Qt::AlignHCenter, xt.labels[i]);
  }
  QString xTitle = grid.xLabel.isEmpty() ? grid.xName : grid.xLabel;
  if (!xt.corner.isEmpty()) xTitle += "   (" + xt.corner + ")";
  p.drawText(QRectF(f.plot.left(), f.plot.bottom() + 26, f.plot.width(), 18), Qt::AlignHCenter,
             xTitle);
  const AxisTicks yt = axisTicks(f.ylo, f.yhi, maxTicksForLength(f.plot.height(), 50));
  for (size_t i = 0; i < yt.values.size(); ++i) {
    const double y = f.py(yt.values[i]);
    p.drawLine(QPointF(f.plot.left() - 5, y), QPointF(f.plot.left(), y));
    p.drawText(QRectF(f.plot.left() - 70, y - 8, 62, 16), Qt::AlignRight | Qt::AlignVCenter,
               yt.labels[i]);
  }
  QString yTitle =
      grid.twoDimensional() ? (grid.yLabel.isEmpty() ? grid.yName : grid.yLabel) : grid.valueName;
  if (!yt.corner.isEmpty()) yTitle += "   (" + yt.corner + ")";
  p.save();
  p.translate(rect.left() + 14, f.plot.center().y());
  p.rotate(-90);
  p.drawText(QRectF(-f.plot.height() / 2, -9, f.plot.height(), 18), Qt::AlignHCenter, yTitle);
  p.restore();
}

// The heat map's colour bar: viridis from the lowest value up, its ticks, its title (the
// measure, read upwards) and, when runs failed, the key to the hatching below it.
void paintColourBar(QPainter& p, const StudyGrid& grid, const MapFrame& f,
                    const QFontMetricsF& metrics) {
  const QRectF& bar = f.colourBar;
  p.setRenderHint(QPainter::Antialiasing, false);
  const int slices = std::max(2, static_cast<int>(bar.height()));
  for (int s = 0; s < slices; ++s) {
    const double u0 = static_cast<double>(s) / slices, u1 = static_cast<double>(s + 1) / slices;
    p.fillRect(QRectF(QPointF(bar.left(), bar.bottom() - u1 * bar.height()),
                      QPointF(bar.right(), bar.bottom() - u0 * bar.height() + 0.5)),
               viridis(0.5 * (u0 + u1)));
  }
  p.setRenderHint(QPainter::Antialiasing, true);
  p.setPen(QPen(kAxisColour, 1));
  p.drawRect(bar);
  const AxisTicks vt = axisTicks(f.vlo, f.vhi, maxTicksForLength(bar.height(), 40));
  for (size_t i = 0; i < vt.values.size(); ++i) {
    const double y = bar.bottom() - (vt.values[i] - f.vlo) / (f.vhi - f.vlo) * bar.height();
    p.drawLine(QPointF(bar.right(), y), QPointF(bar.right() + 4, y));
    p.drawText(QRectF(bar.right() + 6, y - 8, 60, 16), Qt::AlignLeft | Qt::AlignVCenter,
               vt.labels[i]);
  }
  if (!vt.corner.isEmpty())
    p.drawText(QRectF(bar.left() - 10, bar.top() - 18, 90, 16), Qt::AlignLeft, vt.corner);
  p.save();
  p.translate(bar.right() + 78, bar.center().y());
  p.rotate(-90);
  p.drawText(QRectF(-bar.height() / 2, -9, bar.height(), 18), Qt::AlignHCenter,
             metrics.elidedText(grid.valueName, Qt::ElideRight, bar.height()));
  p.restore();
  if (grid.failed() > 0) {
    const QRectF key(bar.left(), bar.bottom() + 14, 16, 12);
    p.fillRect(key, QColor(232, 232, 232));
    p.fillRect(key, failHatch());
    p.drawRect(key);
    p.drawText(QRectF(key.right() + 4, key.top() - 2, 70, 16), Qt::AlignLeft,
               StudyMap::tr("no value"));
  }
}

}  // namespace

void StudyGrid::clearCells() {
  values.assign(static_cast<size_t>(cellCount()), kNaN);
  statuses.assign(static_cast<size_t>(cellCount()), QString());
}

int StudyGrid::done() const {
  return static_cast<int>(std::count_if(statuses.begin(), statuses.end(),
                                        [](const QString& s) { return !s.isEmpty(); }));
}

int StudyGrid::failed() const {
  int n = 0;
  for (size_t i = 0; i < statuses.size(); ++i) n += isFailed(statuses[i], values[i]) ? 1 : 0;
  return n;
}

StudyMap::StudyMap(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setAttribute(Qt::WA_OpaquePaintEvent);
}

void StudyMap::setGrid(const StudyGrid& grid) {
  grid_ = grid;
  selected_ = -1;
  if (static_cast<int>(grid_.values.size()) != grid_.cellCount()) grid_.clearCells();
  update();
}

void StudyMap::render(QPainter& p, const QRectF& rect) const {
  p.save();
  p.setRenderHint(QPainter::Antialiasing, true);
  p.fillRect(rect, Qt::white);
  QFont font = p.font();
  font.setPointSizeF(9);
  p.setFont(font);
  const QFontMetricsF metrics(font);
  const MapFrame f = frameOf(grid_, rect);
  if (!f.valid) {
    p.setPen(QColor(90, 90, 90));
    p.drawText(rect, Qt::AlignCenter | Qt::TextWordWrap,
               tr("Choose what to vary and a measure, then Run; or open a CSV written by "
                  "nhsim sweep or nhsim linearize --sweep."));
    p.restore();
    return;
  }
  // Title: the measure.
  QFont titleFont = font;
  titleFont.setBold(true);
  p.setFont(titleFont);
  p.setPen(kAxisColour);
  p.drawText(QRectF(rect.left(), rect.top() + 6, rect.width(), 22), Qt::AlignHCenter,
             grid_.valueName);
  p.setFont(font);

  // Cells or the curve, and the clicked cell, clipped to the plot.
  p.save();
  p.setClipRect(f.plot);
  if (grid_.twoDimensional())
    paintCells(p, grid_, f);
  else
    paintCurve(p, grid_, f);
  if (selected_ >= 0 && selected_ < grid_.cellCount()) paintSelection(p, grid_, f, selected_);
  p.restore();

  paintAxes(p, grid_, f, rect);
  if (grid_.twoDimensional()) paintColourBar(p, grid_, f, metrics);
  p.restore();
}

int StudyMap::cellAt(const QPointF& point, const QRectF& rect) const {
  const MapFrame f = frameOf(grid_, rect);
  if (!f.valid || !f.plot.contains(point)) return -1;
  auto find = [](const std::vector<double>& edges, double v) {
    const auto it = std::upper_bound(edges.begin(), edges.end(), v);
    const long k = static_cast<long>(it - edges.begin()) - 1;
    return k < 0 || k >= static_cast<long>(edges.size()) - 1 ? -1 : static_cast<int>(k);
  };
  const double x = f.xlo + (point.x() - f.plot.left()) / f.plot.width() * (f.xhi - f.xlo);
  const int ix = find(f.xEdges, x);
  if (ix < 0) return -1;
  if (!grid_.twoDimensional()) return ix;
  const double y = f.ylo + (f.plot.bottom() - point.y()) / f.plot.height() * (f.yhi - f.ylo);
  const int iy = find(f.yEdges, y);
  return iy < 0 ? -1 : ix * grid_.ny() + iy;
}

QPointF StudyMap::cellCentre(int cell, const QRectF& rect) const {
  const MapFrame f = frameOf(grid_, rect);
  if (!f.valid || cell < 0 || cell >= grid_.cellCount()) return {};
  return cellCentreIn(grid_, f, cell);
}

QString StudyMap::describe(int cell) const {
  if (cell < 0 || cell >= grid_.cellCount()) return {};
  const int ix = cell / grid_.ny(), iy = cell % grid_.ny();
  QString text = grid_.xName + " = " + number(grid_.xs[static_cast<size_t>(ix)]);
  if (grid_.twoDimensional())
    text += ", " + grid_.yName + " = " + number(grid_.ys[static_cast<size_t>(iy)]);
  const QString& status = grid_.statuses[static_cast<size_t>(cell)];
  if (status.isEmpty()) return text + "\n" + tr("not run yet");
  text += "\n" + grid_.valueName + " = " + number(grid_.values[static_cast<size_t>(cell)]);
  if (status != "ok") text += "\n" + status;
  return text;
}

void StudyMap::paintEvent(QPaintEvent*) {
  QPainter p(this);
  render(p, QRectF(rect()));
}

void StudyMap::mouseMoveEvent(QMouseEvent* event) {
  const int cell = cellAt(event->position());
  if (cell < 0)
    QToolTip::hideText();
  else
    QToolTip::showText(event->globalPosition().toPoint(), describe(cell), this);
}

void StudyMap::mouseReleaseEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return;
  const int cell = cellAt(event->position());
  if (cell >= 0 && !grid_.statuses[static_cast<size_t>(cell)].isEmpty()) {
    setSelectedCell(cell);
    emit cellClicked(cell);
  }
}

void StudyMap::setSelectedCell(int cell) {
  selected_ = cell >= 0 && cell < grid_.cellCount() ? cell : -1;
  update();
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
