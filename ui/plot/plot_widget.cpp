#include "ui/plot/plot_widget.h"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QWheelEvent>
#include <algorithm>
#include <climits>
#include <cmath>

namespace nhui {

namespace {

double niceStep(double span, int targetTicks) {
  const double raw = span / std::max(1, targetTicks);
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p >= raw) return m * p;
  return 10 * p;
}

QString tickLabel(double v, double step) {
  if (std::abs(v) < 1e-12 * step) v = 0;
  const double a = std::abs(v);
  if (a == 0) return QStringLiteral("0");
  // Enough significant digits to tell neighbouring ticks apart (nearly constant data).
  const int digits = std::clamp(static_cast<int>(std::ceil(std::log10(a / step))) + 1, 1, 7);
  if (a >= 1e5 || a < 1e-3) return QString::number(v, 'e', std::max(1, digits - 1));
  return QString::number(v, 'g', std::max(digits, 1));
}

// Widens a degenerate range so that it can be drawn.
PlotRange padded(PlotRange r, double fraction) {
  if (!std::isfinite(r.lo) || !std::isfinite(r.hi)) return {0, 1};
  double span = r.hi - r.lo;
  if (!(span > 1e-300 * std::max(1.0, std::abs(r.hi)))) {
    const double m = std::max(std::abs(r.lo), 1e-12);
    return {r.lo - 0.5 * m, r.hi + 0.5 * m};
  }
  return {r.lo - fraction * span, r.hi + fraction * span};
}

}  // namespace

bool curveBounds(const std::vector<PlotCurve>& curves, PlotRange& x, PlotRange& y) {
  double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
  for (const PlotCurve& c : curves) {
    if (c.increasingX && c.count > 0) {
      x0 = std::min(x0, c.x[0]);
      x1 = std::max(x1, c.x[c.count - 1]);
    }
    for (size_t i = 0; i < c.count; ++i) {
      const double yv = c.y[i];
      if (std::isfinite(yv)) {
        y0 = std::min(y0, yv);
        y1 = std::max(y1, yv);
      }
      if (!c.increasingX) {
        const double xv = c.x[i];
        if (std::isfinite(xv)) {
          x0 = std::min(x0, xv);
          x1 = std::max(x1, xv);
        }
      }
    }
  }
  if (!(x1 >= x0) || !(y1 >= y0)) return false;
  x = {x0, x1};
  y = {y0, y1};
  return true;
}

void paintPane(QPainter& painter, const QRectF& outer, const PlotPane& pane, const PlotRange& xr,
               const QString& xLabel, const PlotStyle& style, bool showXTicks) {
  painter.save();
  QFont font = painter.font();
  font.setPointSizeF(8.5 * style.fontScale);
  painter.setFont(font);
  const QFontMetricsF fm(font);
  const double left = fm.horizontalAdvance("-0.000e+00") + 8;
  const double bottom = showXTicks ? 2.3 * fm.height() : 4;
  const QRectF r(outer.left() + left, outer.top() + 4, outer.width() - left - 8,
                 outer.height() - bottom - 4);
  if (r.width() < 10 || r.height() < 10) {
    painter.restore();
    return;
  }
  const PlotRange x = xr.valid() ? xr : PlotRange{0, 1};
  const PlotRange y = pane.y.valid() ? pane.y : PlotRange{0, 1};
  const double sx = r.width() / (x.hi - x.lo), sy = r.height() / (y.hi - y.lo);
  auto px = [&](double v) { return r.left() + (v - x.lo) * sx; };
  auto py = [&](double v) { return r.bottom() - (v - y.lo) * sy; };

  // Grid and ticks.
  painter.setRenderHint(QPainter::Antialiasing, false);
  painter.setPen(QPen(style.grid, 1));
  const double xs = niceStep(x.hi - x.lo, std::max(2, static_cast<int>(r.width() / 90)));
  const double ys = niceStep(y.hi - y.lo, std::max(2, static_cast<int>(r.height() / 45)));
  for (double v = std::ceil(x.lo / xs) * xs; v <= x.hi; v += xs)
    painter.drawLine(QPointF(px(v), r.top()), QPointF(px(v), r.bottom()));
  for (double v = std::ceil(y.lo / ys) * ys; v <= y.hi; v += ys)
    painter.drawLine(QPointF(r.left(), py(v)), QPointF(r.right(), py(v)));
  painter.setPen(style.text);
  for (double v = std::ceil(y.lo / ys) * ys; v <= y.hi; v += ys)
    painter.drawText(QRectF(outer.left(), py(v) - fm.height() / 2, left - 6, fm.height()),
                     Qt::AlignRight | Qt::AlignVCenter, tickLabel(v, ys));
  if (showXTicks) {
    for (double v = std::ceil(x.lo / xs) * xs; v <= x.hi; v += xs)
      painter.drawText(QRectF(px(v) - 40, r.bottom() + 2, 80, fm.height()),
                       Qt::AlignHCenter | Qt::AlignTop, tickLabel(v, xs));
    painter.drawText(QRectF(r.left(), r.bottom() + fm.height() + 2, r.width(), fm.height()),
                     Qt::AlignHCenter | Qt::AlignTop, xLabel);
  }

  // Curves, clipped to the frame.
  painter.save();
  painter.setClipRect(r.adjusted(-1, -1, 1, 1));
  QVector<QPointF> poly;
  for (const PlotCurve& c : pane.curves) {
    if (c.count == 0) continue;
    poly.clear();
    // Short pieces: one long wide polyline becomes one huge self-intersecting polygon for
    // the rasteriser, which is what makes naive plotting slow.
    auto flush = [&] {
      constexpr int kPiece = 128;
      const int n = static_cast<int>(poly.size());
      for (int start = 0; start + 1 < n; start += kPiece)
        painter.drawPolyline(poly.constData() + start, std::min(kPiece + 1, n - start));
      poly.clear();
    };
    QPen pen(c.colour, style.lineWidth * style.fontScale, c.style, Qt::FlatCap, Qt::BevelJoin);
    pen.setCosmetic(true);
    painter.setPen(pen);
    if (c.increasingX) {
      // Min/max per pixel column over the visible span.
      size_t i0 = static_cast<size_t>(std::lower_bound(c.x, c.x + c.count, x.lo) - c.x);
      size_t i1 = static_cast<size_t>(std::upper_bound(c.x, c.x + c.count, x.hi) - c.x);
      i0 = i0 > 0 ? i0 - 1 : 0;
      i1 = std::min(c.count, i1 + 1);
      painter.setRenderHint(QPainter::Antialiasing, true);
      long column = LONG_MIN;
      double first = 0, last = 0, lo = 0, hi = 0, colX = 0;
      auto emitColumn = [&] {
        if (column == LONG_MIN) return;
        poly.append(QPointF(colX, py(first)));
        if (hi != lo) {
          poly.append(QPointF(colX, py(lo == first ? hi : lo)));
          poly.append(QPointF(colX, py(lo == first ? lo : hi)));
        }
        poly.append(QPointF(colX, py(last)));
      };
      for (size_t i = i0; i < i1; ++i) {
        const double yv = c.y[i];
        if (!std::isfinite(yv)) {
          emitColumn();
          column = LONG_MIN;
          flush();
          continue;
        }
        const double xp = px(c.x[i]);
        const long col = static_cast<long>(std::floor(xp));
        if (col != column) {
          emitColumn();
          column = col;
          colX = xp;
          first = last = lo = hi = yv;
        } else {
          last = yv;
          lo = std::min(lo, yv);
          hi = std::max(hi, yv);
        }
      }
      emitColumn();
      flush();
    } else {
      // Parametric: skip points on the pixel of their predecessor.
      painter.setRenderHint(QPainter::Antialiasing, c.count < 30000);
      int lastX = INT_MIN, lastY = INT_MIN;
      for (size_t i = 0; i < c.count; ++i) {
        const double xv = c.x[i], yv = c.y[i];
        if (!std::isfinite(xv) || !std::isfinite(yv)) {
          flush();
          lastX = lastY = INT_MIN;
          continue;
        }
        const double fx = std::clamp(px(xv), -1e6, 1e6), fy = std::clamp(py(yv), -1e6, 1e6);
        const int ix = static_cast<int>(std::lround(fx)), iy = static_cast<int>(std::lround(fy));
        if (ix == lastX && iy == lastY && i + 1 != c.count) continue;
        lastX = ix;
        lastY = iy;
        poly.append(QPointF(fx, fy));
      }
      flush();
    }
    // The current point: where the display is.
    const double lx = c.x[c.count - 1], ly = c.y[c.count - 1];
    if (std::isfinite(lx) && std::isfinite(ly)) {
      painter.setRenderHint(QPainter::Antialiasing, true);
      painter.setPen(QPen(Qt::white, 1.2));
      painter.setBrush(c.colour);
      painter.drawEllipse(QPointF(px(lx), py(ly)), 3.8 * style.fontScale, 3.8 * style.fontScale);
      painter.setBrush(Qt::NoBrush);
    }
  }
  painter.restore();

  // Frame, title and legend.
  painter.setRenderHint(QPainter::Antialiasing, false);
  painter.setPen(QPen(style.frame, 1));
  painter.drawRect(r);
  QFont bold = font;
  bold.setBold(true);
  painter.setFont(bold);
  painter.setPen(style.text);
  painter.drawText(r.adjusted(6, 3, -6, -3), Qt::AlignLeft | Qt::AlignTop, pane.yLabel);
  painter.setFont(font);
  double ly = r.top() + 4;
  painter.setRenderHint(QPainter::Antialiasing, true);
  for (const PlotCurve& c : pane.curves) {
    if (c.name.isEmpty()) continue;
    const double w = fm.horizontalAdvance(c.name);
    const QRectF textRect(r.right() - w - 8, ly, w, fm.height());
    painter.setPen(QPen(c.colour, 2.5, c.style));
    painter.drawLine(QPointF(textRect.left() - 22, textRect.center().y()),
                     QPointF(textRect.left() - 5, textRect.center().y()));
    painter.setPen(style.text);
    painter.drawText(textRect, Qt::AlignRight | Qt::AlignVCenter, c.name);
    ly += fm.height() + 1;
  }
  painter.restore();
}

void paintPlot(QPainter& painter, const QRectF& rect, const std::vector<PlotPane>& panes,
               const PlotRange& x, const QString& xLabel, const PlotStyle& style) {
  painter.fillRect(rect, style.background);
  if (panes.empty()) return;
  const double h = rect.height() / static_cast<double>(panes.size());
  for (size_t i = 0; i < panes.size(); ++i) {
    const bool lastPane = i + 1 == panes.size();
    // The last pane also carries the x ticks: give it that much more height.
    const double extra = panes.size() > 1 ? 14 * style.fontScale : 0;
    const double top = rect.top() + i * (h - extra / panes.size());
    const double height = h - extra / panes.size() + (lastPane ? extra : 0);
    paintPane(painter, QRectF(rect.left(), top, rect.width(), height), panes[i], x, xLabel, style,
              lastPane);
  }
}

PlotWidget::PlotWidget(QWidget* parent) : QWidget(parent) {
  setMinimumSize(220, 140);
  setAttribute(Qt::WA_OpaquePaintEvent);
  setToolTip(tr("Wheel: zoom · drag: pan · double-click: autoscale"));
}

void PlotWidget::setPanes(std::vector<PlotPane> panes) {
  // Keep each pane's manual y range when its label is unchanged.
  for (size_t i = 0; i < panes.size() && i < panes_.size(); ++i)
    if (panes[i].yLabel == panes_[i].yLabel) panes[i].y = panes_[i].y;
  panes_ = std::move(panes);
  update();
}

void PlotWidget::setStyle(const PlotStyle& style) {
  style_ = style;
  update();
}

void PlotWidget::setAutoscale(bool on) {
  if (autoscale_ == on) return;
  autoscale_ = on;
  emit autoscaleChanged(on);
  update();
}

void PlotWidget::updateAutoscale(const QRectF& rect) {
  if (!autoscale_) return;
  PlotRange xAll{INFINITY, -INFINITY};
  for (PlotPane& pane : panes_) {
    PlotRange x, y;
    if (!curveBounds(pane.curves, x, y)) continue;
    xAll.lo = std::min(xAll.lo, x.lo);
    xAll.hi = std::max(xAll.hi, x.hi);
    // Grow at once, shrink only when the data uses less than half the range (no breathing).
    const PlotRange want = padded(y, 0.06);
    const double span = pane.y.hi - pane.y.lo;
    if (!pane.y.valid() || want.lo < pane.y.lo || want.hi > pane.y.hi ||
        (want.hi - want.lo) < 0.5 * span)
      pane.y = want;
  }
  if (!(xAll.hi >= xAll.lo)) return;
  const bool increasing =
      !panes_.empty() && !panes_[0].curves.empty() && panes_[0].curves[0].increasingX;
  if (increasing) {
    x_ = padded(xAll, 0.0);
  } else {
    const PlotRange want = padded(xAll, 0.06);
    const double span = x_.hi - x_.lo;
    if (!x_.valid() || want.lo < x_.lo || want.hi > x_.hi || (want.hi - want.lo) < 0.5 * span)
      x_ = want;
  }
  if (equalAspect_ && panes_.size() == 1 && rect.width() > 0 && rect.height() > 0) {
    // Same scale on both axes: widen the narrower one about its centre.
    PlotPane& pane = panes_[0];
    const double sx = (x_.hi - x_.lo) / rect.width(), sy = (pane.y.hi - pane.y.lo) / rect.height();
    if (sx > sy) {
      const double c = 0.5 * (pane.y.lo + pane.y.hi), h = 0.5 * sx * rect.height();
      pane.y = {c - h, c + h};
    } else {
      const double c = 0.5 * (x_.lo + x_.hi), h = 0.5 * sy * rect.width();
      x_ = {c - h, c + h};
    }
  }
}

QRectF PlotWidget::paneRect(int i, const QRectF& rect) const {
  const double h = rect.height() / std::max<size_t>(1, panes_.size());
  return QRectF(rect.left(), rect.top() + i * h, rect.width(), h);
}

int PlotWidget::paneAt(double y) const {
  if (panes_.empty()) return -1;
  const double h = height() / static_cast<double>(panes_.size());
  return std::clamp(static_cast<int>(y / h), 0, static_cast<int>(panes_.size()) - 1);
}

void PlotWidget::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  const QRectF rect = this->rect();
  updateAutoscale(rect.adjusted(80, 10, -10, -30));
  paintPlot(painter, rect, panes_, x_, xLabel_, style_);
}

QImage PlotWidget::render(const QSize& size) {
  QImage image(size, QImage::Format_RGB32);
  QPainter painter(&image);
  const QRectF rect(QPointF(0, 0), QSizeF(size));
  updateAutoscale(rect.adjusted(80, 10, -10, -30));
  paintPlot(painter, rect, panes_, x_, xLabel_, style_);
  return image;
}

void PlotWidget::wheelEvent(QWheelEvent* event) {
  const int p = paneAt(event->position().y());
  if (p < 0) return;
  setAutoscale(false);
  const double f = std::pow(0.9985, event->angleDelta().y());
  const double fx = std::clamp(event->position().x() / std::max(1, width()), 0.0, 1.0);
  const QRectF pr = paneRect(p, rect());
  const double fy = std::clamp(1 - (event->position().y() - pr.top()) / pr.height(), 0.0, 1.0);
  const double cx = x_.lo + fx * (x_.hi - x_.lo);
  x_ = {cx - (cx - x_.lo) * f, cx + (x_.hi - cx) * f};
  PlotRange& y = panes_[p].y;
  const double cy = y.lo + fy * (y.hi - y.lo);
  y = {cy - (cy - y.lo) * f, cy + (y.hi - cy) * f};
  update();
}

void PlotWidget::mousePressEvent(QMouseEvent* event) {
  lastMouse_ = event->position();
  dragPane_ = paneAt(event->position().y());
}

void PlotWidget::mouseMoveEvent(QMouseEvent* event) {
  if (dragPane_ < 0 || !(event->buttons() & Qt::LeftButton)) return;
  setAutoscale(false);
  const QPointF d = event->position() - lastMouse_;
  lastMouse_ = event->position();
  const QRectF pr = paneRect(dragPane_, rect());
  const double dx = d.x() / std::max(1, width()) * (x_.hi - x_.lo);
  x_ = {x_.lo - dx, x_.hi - dx};
  PlotRange& y = panes_[dragPane_].y;
  const double dy = d.y() / std::max(1.0, pr.height()) * (y.hi - y.lo);
  y = {y.lo + dy, y.hi + dy};
  update();
}

void PlotWidget::mouseDoubleClickEvent(QMouseEvent*) {
  for (auto& pane : panes_) pane.y = {};
  x_ = {};
  setAutoscale(true);
}

}  // namespace nhui
