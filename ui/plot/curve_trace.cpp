// CurveTrace and CurveBounds (curve_trace.h): a curve's points reduced and cut into polyline
// pieces drawn as they complete, the tail drawn each frame, and a curve's bounds kept up to
// date as points are appended.
#include "ui/plot/curve_trace.h"

#include <QPainter>
#include <algorithm>
#include <cmath>

#include "ui/plot/plot_widget.h"

namespace nhui {

namespace {

// Segments per drawn polyline. Short pieces: one long wide polyline becomes one huge
// self-intersecting polygon for the rasteriser, which is what makes naive plotting slow.
constexpr int kPiece = 128;

// A polyline as separate segments: with a flat-capped pen Qt's raster engine rasterises each
// segment directly (QRasterizer::rasterizeLine) instead of building the outline with QStroker,
// whose joins (atan2, line intersections) took most of a phase portrait's full redraw in perf.
// Measured on bench_gui's full redraws: CPU per frame 40 → 23 ms (phase portrait, 1 curve),
// 15 → 9 ms (time series, 3 curves); the frames differ from drawPolyline's by PSNR 50 dB
// (phase portrait) and 34-37 dB (time series: antialiased edges where segments meet).
void strokePolyline(QPainter& painter, const QPointF* pts, int n) {
  QLineF segments[kPiece];
  for (int i = 0; i + 1 < n; ++i) segments[i] = QLineF(pts[i], pts[i + 1]);
  painter.drawLines(segments, n - 1);
}

// Draws pts as pieces of kPiece segments sharing their end points.
void drawPieces(QPainter& painter, const QVector<QPointF>& pts) {
  const int n = static_cast<int>(pts.size());
  for (int start = 0; start + 1 < n; start += kPiece)
    strokePolyline(painter, pts.constData() + start, std::min(kPiece + 1, n - start));
}

}  // namespace

void CurveTrace::restart(size_t first) {
  next_ = first;
  piece_.clear();
  tail_.clear();
  column_ = LONG_MIN;
  lastX_ = lastY_ = INT_MIN;
}

void CurveTrace::add(QPainter& painter, QPointF p) {
  piece_.append(p);
  if (piece_.size() == kPiece + 1) {
    strokePolyline(painter, piece_.constData(), static_cast<int>(piece_.size()));
    piece_.remove(0, kPiece);  // the next piece starts where this one ends
  }
}

void CurveTrace::endPiece(QPainter& painter) {
  if (piece_.size() >= 2)
    strokePolyline(painter, piece_.constData(), static_cast<int>(piece_.size()));
  piece_.clear();
}

void CurveTrace::appendColumn(QVector<QPointF>& out, const PlotMapping& m) const {
  if (column_ == LONG_MIN) return;
  // Entry, the extreme reached first, the other extreme, exit.
  out.append(QPointF(columnX_, m.py(first_)));
  if (hi_ != lo_) {
    out.append(QPointF(columnX_, m.py(lo_ == first_ ? hi_ : lo_)));
    out.append(QPointF(columnX_, m.py(lo_ == first_ ? lo_ : hi_)));
  }
  out.append(QPointF(columnX_, m.py(last_)));
}

void CurveTrace::advance(QPainter& painter, const PlotCurve& c, const PlotMapping& m, size_t end) {
  if (c.increasingX) {
    QVector<QPointF> column;
    for (size_t i = next_; i < end; ++i) {
      const double yv = c.y[i];
      if (!std::isfinite(yv)) {
        column.clear();
        appendColumn(column, m);
        for (const QPointF& p : column) add(painter, p);
        column_ = LONG_MIN;
        endPiece(painter);
        continue;
      }
      const double xp = m.px(c.x[i]);
      const long col = static_cast<long>(std::floor(xp));
      if (col != column_) {
        column.clear();
        appendColumn(column, m);
        for (const QPointF& p : column) add(painter, p);
        column_ = col;
        columnX_ = xp;
        first_ = last_ = lo_ = hi_ = yv;
      } else {
        last_ = yv;
        lo_ = std::min(lo_, yv);
        hi_ = std::max(hi_, yv);
      }
    }
    next_ = std::max(next_, end);
    tail_ = piece_;
    appendColumn(tail_, m);
    return;
  }
  // Parametric: a point on its predecessor's pixel is skipped, unless it is the last one.
  bool lastSkipped = false;
  QPointF skipped;
  for (size_t i = next_; i < end; ++i) {
    const double xv = c.x[i], yv = c.y[i];
    if (!std::isfinite(xv) || !std::isfinite(yv)) {
      endPiece(painter);
      lastX_ = lastY_ = INT_MIN;
      lastSkipped = false;
      continue;
    }
    const double fx = std::clamp(m.px(xv), -1e6, 1e6), fy = std::clamp(m.py(yv), -1e6, 1e6);
    const int ix = static_cast<int>(std::lround(fx)), iy = static_cast<int>(std::lround(fy));
    if (ix == lastX_ && iy == lastY_) {
      lastSkipped = true;
      skipped = QPointF(fx, fy);
      continue;
    }
    lastSkipped = false;
    lastX_ = ix;
    lastY_ = iy;
    add(painter, QPointF(fx, fy));
  }
  // A point skipped before this call was followed by others (nothing new: tail_ holds it).
  if (end == next_) return;
  next_ = end;
  tail_ = piece_;
  if (lastSkipped) tail_.append(skipped);
}

void CurveTrace::drawTail(QPainter& painter) const { drawPieces(painter, tail_); }

CurveBounds::Box CurveBounds::scan(const PlotCurve& c, size_t begin, size_t end) {
  Box b{INFINITY, -INFINITY, INFINITY, -INFINITY};
  for (size_t i = begin; i < end; ++i) {
    const double yv = c.y[i];
    if (std::isfinite(yv)) {
      b.y0 = std::min(b.y0, yv);
      b.y1 = std::max(b.y1, yv);
    }
    if (!c.increasingX) {
      const double xv = c.x[i];
      if (std::isfinite(xv)) {
        b.x0 = std::min(b.x0, xv);
        b.x1 = std::max(b.x1, xv);
      }
    }
  }
  return b;
}

bool CurveBounds::extend(const PlotCurve& c, double& x0, double& x1, double& y0, double& y1) {
  if (c.count == 0) return false;
  const size_t full = c.count / kBlock;
  while (blocks_.size() < full)
    blocks_.push_back(scan(c, blocks_.size() * kBlock, (blocks_.size() + 1) * kBlock));
  Box b = scan(c, full * kBlock, c.count);
  for (size_t k = 0; k < full; ++k) {
    b.x0 = std::min(b.x0, blocks_[k].x0);
    b.x1 = std::max(b.x1, blocks_[k].x1);
    b.y0 = std::min(b.y0, blocks_[k].y0);
    b.y1 = std::max(b.y1, blocks_[k].y1);
  }
  if (c.increasingX) {
    b.x0 = c.x[0];
    b.x1 = c.x[c.count - 1];
  }
  x0 = std::min(x0, b.x0);
  x1 = std::max(x1, b.x1);
  y0 = std::min(y0, b.y0);
  y1 = std::max(y1, b.y1);
  return b.x1 >= b.x0 || b.y1 >= b.y0;
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
