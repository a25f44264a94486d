// A curve as the plots draw it, built point by point: time series reduced to min/max per pixel
// column, parametric curves without the points that fall on their predecessor's pixel, cut
// into short polyline pieces. Pieces that no later point can change are drawn as they
// complete (into a plot's cached image); the rest, the tail, is drawn on top each frame. Fed
// all points at once, it draws exactly what a plot drawn in one go shows.
#pragma once

#include <QPointF>
#include <QVector>
#include <QtGlobal>
#include <climits>
#include <cstddef>
#include <vector>

class QPainter;

namespace nhui {

struct PlotCurve;
struct PlotRange;

// Data → device coordinates of one pane's frame.
struct PlotMapping {
  double left = 0, bottom = 0;  // frame's left and bottom edge
  double x0 = 0, y0 = 0;        // data values at those edges
  double sx = 1, sy = 1;        // pixels per data unit
  double px(double v) const { return left + (v - x0) * sx; }
  double py(double v) const { return bottom - (v - y0) * sy; }
};

class CurveTrace {
 public:
  // Forgets everything drawn: the next advance() reads from point `first`.
  void restart(size_t first);
  // Index of the next point advance() reads.
  size_t next() const { return next_; }
  // Reads points [next(), end) of c (end ≥ next()) and draws, with the painter's current pen,
  // every piece that later points cannot change.
  void advance(QPainter& painter, const PlotCurve& c, const PlotMapping& m, size_t end);
  // Draws the unsettled rest: the open piece, the open pixel column of a time series, or a
  // parametric curve's last point when it shares its predecessor's pixel.
  void drawTail(QPainter& painter) const;

 private:
  void add(QPainter& painter, QPointF p);
  void endPiece(QPainter& painter);
  void appendColumn(QVector<QPointF>& out, const PlotMapping& m) const;

  size_t next_ = 0;
  QVector<QPointF> piece_;  // settled points not drawn yet (fewer than a full piece)
  QVector<QPointF> tail_;   // piece_ plus the unsettled points, as of the last advance()
  // Time series: the open pixel column (x in device pixels, y values in data units).
  long column_ = LONG_MIN;
  double columnX_ = 0, first_ = 0, last_ = 0, lo_ = 0, hi_ = 0;
  // Parametric: pixel of the last kept point.
  int lastX_ = INT_MIN, lastY_ = INT_MIN;
};

// Data bounds of a curve's first n points, maintained as points are appended: min/max per
// block of points, so a bound of any prefix reads at most n/kBlock blocks and one partial
// block instead of every point. Valid while the points already read do not change.
class CurveBounds {
 public:
  // Bounds of points [0, c.count) like curveBounds() (x from the ends for increasing x);
  // ranges are widened, never narrowed, by what the curve holds. False when it holds nothing
  // finite.
  bool extend(const PlotCurve& c, double& x0, double& x1, double& y0, double& y1);
  void clear() { blocks_.clear(); }

 private:
  static constexpr size_t kBlock = 1024;
  struct Box {
    double x0, x1, y0, y1;
  };
  static Box scan(const PlotCurve& c, size_t begin, size_t end);
  std::vector<Box> blocks_;
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
