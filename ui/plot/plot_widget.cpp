// The plots (plot_widget.h): panes laid out and their grids, ticks and legends painted, curves
// clipped and drawn with paintPlot(), and PlotWidget's cached image with only the new points
// drawn while ranges and size hold.
#include "ui/plot/plot_widget.h"

#include <QDataStream>
#include <QEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>
#include <algorithm>
#include <climits>
#include <cmath>

#include "ui/plot/plot_ticks.h"

namespace nhui {

namespace {

// Widens a degenerate range so that it can be drawn, and one narrower than the minimum span
// about its value (plot_ticks.h: round-off on a constant draws flat).
PlotRange padded(PlotRange r, double fraction) {
  if (!std::isfinite(r.lo) || !std::isfinite(r.hi)) return {0, 1};
  widenToMinimumSpan(r.lo, r.hi);
  const double span = r.hi - r.lo;
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

namespace {

// Where a pane's parts go: its frame r inside outer, the tick margins, the data mapping.
struct PaneLayout {
  QFont font;
  double left = 0;
  QRectF outer, r;
  PlotRange x, y;
  PlotMapping map;
  AxisTicks xTicks, yTicks;
  int titleRows = 1;  // the title's, and below it the y scale's if they do not fit side by side
};

QFont plotFont(const QFont& base, const PlotStyle& style) {
  QFont font = base;
  font.setPointSizeF(8.5 * style.fontScale);
  return font;
}

// left: the margin for the y tick labels; below 0, as wide as this pane's labels need (panes
// stacked on one x axis share the widest, see layoutPanes).
bool layoutPane(const QFont& base, const QRectF& outer, const PlotPane& pane, const PlotRange& xr,
                const PlotStyle& style, bool showXTicks, PaneLayout& out, double left = -1) {
  out.font = plotFont(base, style);
  const QFontMetricsF fm(out.font);
  const double bottom = showXTicks ? 2.3 * fm.height() : 4;
  // The title (and the y scale's power of ten and offset) sits in its own row above the
  // frame, so that no curve ever runs under it; where the two do not fit side by side, the
  // scale gets a second row (a title cut to nothing, or a cut number, would mislead).
  QFont bold = out.font;
  bold.setBold(true);
  const QFontMetricsF boldMetrics(bold);
  out.outer = outer;
  out.x = xr.valid() ? xr : PlotRange{0, 1};
  out.y = pane.y.valid() ? pane.y : PlotRange{0, 1};
  for (int rows = 1; rows <= 2; ++rows) {
    out.titleRows = rows;
    const double top = rows * boldMetrics.height() + 4;
    const double height = outer.height() - bottom - top;
    if (height < 10) return false;
    // Ticks as many as fit: a label line and more between rows, a wide label between columns.
    out.yTicks = axisTicks(out.y.lo, out.y.hi, maxTicksForLength(height, 2.6 * fm.height()));
    out.left = left;
    if (out.left < 0) {
      out.left = fm.horizontalAdvance("-0.0");
      for (const QString& label : out.yTicks.labels)
        out.left = std::max(out.left, fm.horizontalAdvance(label));
      out.left += 10;
    }
    out.r =
        QRectF(outer.left() + out.left, outer.top() + top, outer.width() - out.left - 8, height);
    if (out.r.width() < 10) return false;
    out.map = {out.r.left(),
               out.r.bottom(),
               out.x.lo,
               out.y.lo,
               out.r.width() / (out.x.hi - out.x.lo),
               out.r.height() / (out.y.hi - out.y.lo)};
    out.xTicks = axisTicks(out.x.lo, out.x.hi,
                           maxTicksForLength(out.r.width(), fm.horizontalAdvance("-0.0000") + 40));
    const double needed =
        boldMetrics.horizontalAdvance(pane.yLabel) +
        (out.yTicks.corner.isEmpty() ? 0 : fm.height() + fm.horizontalAdvance(out.yTicks.corner));
    if (needed <= out.r.width() || out.yTicks.corner.isEmpty()) break;
  }
  return true;
}

// Panes stacked on one x axis: each laid out, then all again with the widest tick-label
// margin, so that their frames line up.
void layoutPanes(const QFont& base, const std::vector<QRectF>& rects,
                 const std::vector<PlotPane>& panes, const PlotRange& xr, const PlotStyle& style,
                 std::vector<PaneLayout>& layouts, std::vector<bool>& shown) {
  layouts.assign(panes.size(), PaneLayout{});
  shown.assign(panes.size(), false);
  double left = -1;
  for (size_t i = 0; i < panes.size(); ++i) {
    shown[i] = layoutPane(base, rects[i], panes[i], xr, style, i + 1 == panes.size(), layouts[i]);
    if (shown[i]) left = std::max(left, layouts[i].left);
  }
  // Only the panes with narrower labels are laid out again (ticks are formatted every frame).
  for (size_t i = 0; i < panes.size(); ++i)
    if (shown[i] && layouts[i].left != left)
      shown[i] =
          layoutPane(base, rects[i], panes[i], xr, style, i + 1 == panes.size(), layouts[i], left);
}

// Grid, tick labels and the x label: what lies under the curves.
void paintPaneGrid(QPainter& painter, const PaneLayout& L, const QString& xLabel,
                   const PlotStyle& style, bool showXTicks) {
  painter.save();
  painter.setFont(L.font);
  const QFontMetricsF fm(L.font);
  const QRectF& r = L.r;
  auto px = [&](double v) { return L.map.px(v); };
  auto py = [&](double v) { return L.map.py(v); };
  painter.setRenderHint(QPainter::Antialiasing, false);
  painter.setPen(QPen(style.grid, 1));
  for (double v : L.xTicks.values)
    painter.drawLine(QPointF(px(v), r.top()), QPointF(px(v), r.bottom()));
  for (double v : L.yTicks.values)
    painter.drawLine(QPointF(r.left(), py(v)), QPointF(r.right(), py(v)));
  painter.setPen(style.text);
  for (size_t i = 0; i < L.yTicks.values.size(); ++i)
    painter.drawText(
        QRectF(L.outer.left(), py(L.yTicks.values[i]) - fm.height() / 2, L.left - 6, fm.height()),
        Qt::AlignRight | Qt::AlignVCenter, L.yTicks.labels[i]);
  if (showXTicks) {
    for (size_t i = 0; i < L.xTicks.values.size(); ++i)
      painter.drawText(QRectF(px(L.xTicks.values[i]) - 40, r.bottom() + 2, 80, fm.height()),
                       Qt::AlignHCenter | Qt::AlignTop, L.xTicks.labels[i]);
    const QRectF labelRow(r.left(), r.bottom() + fm.height() + 2, r.width(), fm.height());
    painter.drawText(labelRow, Qt::AlignHCenter | Qt::AlignTop, xLabel);
    // What the x labels leave out (power of ten, offset), once at the axis end.
    painter.drawText(labelRow, Qt::AlignRight | Qt::AlignTop, L.xTicks.corner);
  }
  painter.restore();
}

// Points of a curve that are drawn: a time series from one point before the visible x span
// to one after it, a parametric curve all of them.
void visibleSpan(const PlotCurve& c, const PlotRange& x, size_t& begin, size_t& end) {
  if (!c.increasingX) {
    begin = 0;
    end = c.count;
    return;
  }
  begin = static_cast<size_t>(std::lower_bound(c.x, c.x + c.count, x.lo) - c.x);
  end = static_cast<size_t>(std::upper_bound(c.x, c.x + c.count, x.hi) - c.x);
  begin = begin > 0 ? begin - 1 : 0;
  end = std::min(c.count, end + 1);
}

bool curveAntialiased(const PlotCurve& c) { return c.increasingX || c.count < 30000; }

void setCurvePen(QPainter& painter, const PlotCurve& c, const PlotStyle& style) {
  QPen pen(style.colourOf(c), style.lineWidth * style.fontScale, c.style, Qt::FlatCap,
           Qt::BevelJoin);
  pen.setCosmetic(true);
  painter.setPen(pen);
  painter.setRenderHint(QPainter::Antialiasing, curveAntialiased(c));
}

void clipToFrame(QPainter& painter, const PaneLayout& L) {
  painter.setClipRect(L.r.adjusted(-1, -1, 1, 1));
}

// Reads the curves' points up to their ends, drawing every settled piece.
void advanceCurves(QPainter& painter, const PaneLayout& L, const PlotPane& pane,
                   const PlotStyle& style, std::vector<CurveTrace>& traces) {
  painter.save();
  clipToFrame(painter, L);
  for (size_t k = 0; k < pane.curves.size(); ++k) {
    const PlotCurve& c = pane.curves[k];
    size_t begin, end;
    visibleSpan(c, L.x, begin, end);
    if (end <= traces[k].next()) continue;
    setCurvePen(painter, c, style);
    traces[k].advance(painter, c, L.map, end);
  }
  painter.restore();
}

// What lies over the settled curves: their tails, the current points, frame and title (with
// what the y labels leave out: power of ten, offset).
void paintPaneTop(QPainter& painter, const PaneLayout& L, const PlotPane& pane,
                  const PlotStyle& style, const std::vector<CurveTrace>& traces) {
  painter.save();
  painter.setFont(L.font);
  const QFontMetricsF fm(L.font);
  const QRectF& r = L.r;
  painter.save();
  clipToFrame(painter, L);
  for (size_t k = 0; k < pane.curves.size(); ++k) {
    if (pane.curves[k].count == 0) continue;
    setCurvePen(painter, pane.curves[k], style);
    traces[k].drawTail(painter);
  }
  // The time cursor: the displayed moment, when it lies before the end of the record.
  for (const PlotCurve& c : pane.curves) {
    if (!c.increasingX || c.count == 0 || c.current + 1 >= c.count) continue;
    const double cx = L.map.px(c.x[c.current]);
    if (!std::isfinite(cx)) continue;
    painter.setRenderHint(QPainter::Antialiasing, false);
    QPen cursor(style.text, 1, Qt::DashLine);
    cursor.setCosmetic(true);
    painter.setPen(cursor);
    painter.drawLine(QPointF(cx, r.top()), QPointF(cx, r.bottom()));
    break;
  }
  // The current point: where the display is.
  for (const PlotCurve& c : pane.curves) {
    if (c.count == 0) continue;
    const size_t i = std::min(c.current, c.count - 1);
    const double lx = c.x[i], ly = c.y[i];
    if (std::isfinite(lx) && std::isfinite(ly)) {
      painter.setRenderHint(QPainter::Antialiasing, true);
      painter.setPen(QPen(style.background, 1.2));
      painter.setBrush(style.colourOf(c));
      painter.drawEllipse(QPointF(L.map.px(lx), L.map.py(ly)), 3.8 * style.fontScale,
                          3.8 * style.fontScale);
      painter.setBrush(Qt::NoBrush);
    }
  }
  painter.restore();

  painter.setRenderHint(QPainter::Antialiasing, false);
  painter.setPen(QPen(style.frame, 1));
  painter.drawRect(r);
  QFont bold = L.font;
  bold.setBold(true);
  painter.setFont(bold);
  painter.setPen(style.text);
  const QRectF titleRow(r.left(), L.outer.top() + 1, r.width(),
                        (r.top() - L.outer.top() - 1) / L.titleRows);
  const QString title =
      QFontMetricsF(bold).elidedText(pane.yLabel, Qt::ElideRight, titleRow.width());
  painter.drawText(titleRow, Qt::AlignLeft | Qt::AlignVCenter, title);
  if (!L.yTicks.corner.isEmpty()) {
    // Beside the title, or in the row below it when they did not fit side by side.
    painter.setFont(L.font);
    // A row of its own reaches over the tick labels' margin: a number must not be cut.
    const QRectF cornerRow =
        L.titleRows > 1 ? QRectF(L.outer.left() + 2, titleRow.top() + titleRow.height(),
                                 r.right() - L.outer.left() - 2, titleRow.height())
                        : titleRow.adjusted(
                              QFontMetricsF(bold).horizontalAdvance(title) + fm.height(), 0, 0, 0);
    painter.drawText(cornerRow, Qt::AlignLeft | Qt::AlignVCenter, L.yTicks.corner);
  }
  painter.restore();
}

struct LegendEntry {
  QString name;
  QColor colour;
  Qt::PenStyle style;
};

// The named curves of all panes, each name once: drawn in one row above the panes instead of
// over the data of each pane.
std::vector<LegendEntry> legendEntries(const std::vector<PlotPane>& panes, const PlotStyle& style) {
  std::vector<LegendEntry> out;
  for (const PlotPane& pane : panes)
    for (const PlotCurve& c : pane.curves) {
      if (c.name.isEmpty()) continue;
      const QColor colour = style.colourOf(c);
      const bool seen = std::any_of(out.begin(), out.end(), [&](const LegendEntry& e) {
        return e.name == c.name && e.colour == colour && e.style == c.style;
      });
      if (!seen) out.push_back({c.name, colour, c.style});
    }
  return out;
}

double legendHeight(const QFont& base, const std::vector<LegendEntry>& entries,
                    const PlotStyle& style) {
  return entries.empty() ? 0 : QFontMetricsF(plotFont(base, style)).height() + 6;
}

void paintLegend(QPainter& painter, const QRectF& strip, const std::vector<LegendEntry>& entries,
                 const PlotStyle& style) {
  if (entries.empty()) return;
  painter.save();
  const QFont font = plotFont(painter.font(), style);
  painter.setFont(font);
  const QFontMetricsF fm(font);
  painter.setRenderHint(QPainter::Antialiasing, true);
  // Right-aligned, last entry at the right edge.
  double right = strip.right() - 8;
  for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
    const double w = fm.horizontalAdvance(it->name);
    const QRectF textRect(right - w, strip.top() + 3, w, fm.height());
    painter.setPen(QPen(it->colour, 2.5 * style.fontScale, it->style));
    painter.drawLine(QPointF(textRect.left() - 22, textRect.center().y()),
                     QPointF(textRect.left() - 5, textRect.center().y()));
    painter.setPen(style.text);
    painter.drawText(textRect, Qt::AlignRight | Qt::AlignVCenter, it->name);
    right = textRect.left() - 22 - fm.height();
  }
  painter.restore();
}

// Outer rectangles of stacked panes; the last one also carries the x ticks.
std::vector<QRectF> paneRects(const QRectF& rect, size_t count, const PlotStyle& style) {
  std::vector<QRectF> out;
  const double h = rect.height() / static_cast<double>(count);
  for (size_t i = 0; i < count; ++i) {
    const bool lastPane = i + 1 == count;
    const double extra = count > 1 ? 14 * style.fontScale : 0;
    const double top = rect.top() + i * (h - extra / count);
    const double height = h - extra / count + (lastPane ? extra : 0);
    out.emplace_back(rect.left(), top, rect.width(), height);
  }
  return out;
}

}  // namespace

void paintPane(QPainter& painter, const QRectF& outer, const PlotPane& pane, const PlotRange& xr,
               const QString& xLabel, const PlotStyle& style, bool showXTicks) {
  const std::vector<LegendEntry> legend = legendEntries({pane}, style);
  const double legendH = legendHeight(painter.font(), legend, style);
  PaneLayout L;
  if (!layoutPane(painter.font(), outer.adjusted(0, legendH, 0, 0), pane, xr, style, showXTicks, L))
    return;
  paintLegend(painter, QRectF(outer.left(), outer.top(), outer.width(), legendH), legend, style);
  paintPaneGrid(painter, L, xLabel, style, showXTicks);
  std::vector<CurveTrace> traces(pane.curves.size());
  for (size_t k = 0; k < traces.size(); ++k) {
    size_t begin, end;
    visibleSpan(pane.curves[k], L.x, begin, end);
    traces[k].restart(begin);
  }
  advanceCurves(painter, L, pane, style, traces);
  paintPaneTop(painter, L, pane, style, traces);
}

// Two passes, as PlotWidget draws from its cached image: every pane's grid and settled curves,
// then every pane's tails, markers, frame and legend.
void paintPlot(QPainter& painter, const QRectF& rect, const std::vector<PlotPane>& panes,
               const PlotRange& x, const QString& xLabel, const PlotStyle& style) {
  painter.fillRect(rect, style.background);
  if (panes.empty()) return;
  const std::vector<LegendEntry> legend = legendEntries(panes, style);
  const double legendH = legendHeight(painter.font(), legend, style);
  const std::vector<QRectF> rects = paneRects(rect.adjusted(0, legendH, 0, 0), panes.size(), style);
  std::vector<PaneLayout> layouts;
  std::vector<std::vector<CurveTrace>> traces(panes.size());
  std::vector<bool> shown;
  layoutPanes(painter.font(), rects, panes, x, style, layouts, shown);
  for (size_t i = 0; i < panes.size(); ++i) {
    const bool lastPane = i + 1 == panes.size();
    if (!shown[i]) continue;
    paintPaneGrid(painter, layouts[i], xLabel, style, lastPane);
    traces[i].resize(panes[i].curves.size());
    for (size_t k = 0; k < traces[i].size(); ++k) {
      size_t begin, end;
      visibleSpan(panes[i].curves[k], layouts[i].x, begin, end);
      traces[i][k].restart(begin);
    }
    advanceCurves(painter, layouts[i], panes[i], style, traces[i]);
  }
  for (size_t i = 0; i < panes.size(); ++i)
    if (shown[i]) paintPaneTop(painter, layouts[i], panes[i], style, traces[i]);
  paintLegend(painter, QRectF(rect.left(), rect.top(), rect.width(), legendH), legend, style);
}

QRectF plotFrame(const QFont& base, const QRectF& rect, const PlotPane& pane, const PlotRange& x,
                 const PlotStyle& style) {
  const double legendH = legendHeight(base, legendEntries({pane}, style), style);
  PaneLayout L;
  const QRectF outer = paneRects(rect.adjusted(0, legendH, 0, 0), 1, style)[0];
  return layoutPane(base, outer, pane, x, style, true, L) ? L.r : QRectF();
}

PlotStyle PlotStyle::light() {
  PlotStyle s;
  s.background = QColor(255, 255, 255);
  s.frame = QColor(120, 124, 132);
  s.grid = QColor(222, 225, 230);
  s.text = QColor(30, 32, 38);
  s.runColours[0] = runColourOf(kRunStyles[0].onLight);
  s.runColours[1] = runColourOf(kRunStyles[1].onLight);
  return s;
}

PlotStyle PlotStyle::fromPalette(const QPalette& palette, const PlotStyle& sizes) {
  const QColor base = palette.color(QPalette::Base), text = palette.color(QPalette::Text);
  auto mix = [&](double f) {
    return QColor::fromRgbF(base.redF() + f * (text.redF() - base.redF()),
                            base.greenF() + f * (text.greenF() - base.greenF()),
                            base.blueF() + f * (text.blueF() - base.blueF()));
  };
  PlotStyle s = base.lightnessF() < 0.5 ? dark() : light();
  s.background = base;
  s.text = text;
  s.grid = mix(s.isDark() ? 0.16 : 0.13);
  s.frame = mix(0.5);
  s.lineWidth = sizes.lineWidth;
  s.fontScale = sizes.fontScale;
  return s;
}

PlotStyle PlotStyle::fromPalette(const QPalette& palette) {
  return fromPalette(palette, PlotStyle{});
}

PlotWidget::PlotWidget(QWidget* parent) : QWidget(parent) {
  style_ = PlotStyle::fromPalette(palette());
  setMinimumSize(220, 140);
  setAttribute(Qt::WA_OpaquePaintEvent);
  setToolTip(tr("Wheel: zoom · drag: pan · double-click: autoscale"));
}

void PlotWidget::setPanes(std::vector<PlotPane> panes) {
  // Keep each pane's manual y range when its label is unchanged.
  std::vector<bool> fitted(panes.size(), false);
  for (size_t i = 0; i < panes.size() && i < panes_.size(); ++i)
    if (panes[i].yLabel == panes_[i].yLabel) {
      panes[i].y = panes_[i].y;
      fitted[i] = i < yFitted_.size() && yFitted_[i];
    }
  yFitted_ = std::move(fitted);
  if (panes.empty()) xFitted_ = false;
  panes_ = std::move(panes);
  update();
}

void PlotWidget::setStyle(const PlotStyle& style) {
  style_ = followPalette_ ? PlotStyle::fromPalette(palette(), style) : style;
  update();
}

void PlotWidget::setFollowPalette(bool on) {
  followPalette_ = on;
  if (on) setStyle(style_);
}

void PlotWidget::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::PaletteChange && followPalette_) setStyle(style_);
}

void PlotWidget::setAutoscale(bool on) {
  if (autoscale_ == on) return;
  autoscale_ = on;
  emit autoscaleChanged(on);
  update();
}

void PlotWidget::updateAutoscale(const QRectF& rect) {
  if (!autoscale_) return;
  // Growing ranges get this fraction of the data span as room, so that a range which grows
  // with the data (time, a drift) is refitted, and the cached image redrawn, only now and then.
  constexpr double kHeadroom = 0.05;
  auto grown = [](PlotRange want, const PlotRange& now, double room) {
    if (want.lo < now.lo) want.lo -= room;
    if (want.hi > now.hi) want.hi += room;
    return want;
  };
  bool changed = false;
  yFitted_.resize(panes_.size(), false);
  bounds_.resize(panes_.size());
  boundsKeys_.resize(panes_.size());
  PlotRange xAll{INFINITY, -INFINITY};
  for (size_t p = 0; p < panes_.size(); ++p) {
    PlotPane& pane = panes_[p];
    std::vector<CurveBounds>& bounds = bounds_[p];
    std::vector<quint64>& keys = boundsKeys_[p];
    bounds.resize(pane.curves.size());
    keys.resize(pane.curves.size());
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (size_t k = 0; k < pane.curves.size(); ++k) {
      const PlotCurve& c = pane.curves[k];
      if (c.dataKey == 0 || c.dataKey != keys[k]) bounds[k].clear();
      keys[k] = c.dataKey;
      bounds[k].extend(c, x0, x1, y0, y1);
      if (c.dataKey == 0) bounds[k].clear();
    }
    if (!(x1 >= x0) || !(y1 >= y0)) continue;
    xAll.lo = std::min(xAll.lo, x0);
    xAll.hi = std::max(xAll.hi, x1);
    // Grow at once, shrink only when the data uses less than half the range (no breathing).
    const PlotRange want = padded({y0, y1}, 0.06);
    const double span = pane.y.hi - pane.y.lo;
    if (!pane.y.valid() || want.lo < pane.y.lo || want.hi > pane.y.hi ||
        (want.hi - want.lo) < 0.5 * span) {
      pane.y = yFitted_[p] && (want.hi - want.lo) >= 0.5 * span
                   ? grown(want, pane.y, kHeadroom * (want.hi - want.lo))
                   : want;
      yFitted_[p] = true;
      changed = true;
    }
  }
  if (!(xAll.hi >= xAll.lo)) return;
  const bool increasing =
      !panes_.empty() && !panes_[0].curves.empty() && panes_[0].curves[0].increasingX;
  if (increasing) {
    // From the first sample to the last plus room for the samples to come; refitted when the
    // data passes the end or falls back (history scrubbing) by more than twice the room.
    const PlotRange have = padded(xAll, 0.0);
    if (!x_.valid() || x_.lo != have.lo || have.hi > x_.hi ||
        x_.hi - have.hi > 2 * kHeadroom * (x_.hi - x_.lo)) {
      x_ = {have.lo, have.hi + kHeadroom * (have.hi - have.lo)};
      changed = true;
    }
  } else {
    const PlotRange want = padded(xAll, 0.06);
    const double span = x_.hi - x_.lo;
    if (!x_.valid() || want.lo < x_.lo || want.hi > x_.hi || (want.hi - want.lo) < 0.5 * span) {
      x_ = xFitted_ && (want.hi - want.lo) >= 0.5 * span
               ? grown(want, x_, kHeadroom * (want.hi - want.lo))
               : want;
      xFitted_ = true;
      changed = true;
    }
  }
  // Refitted only when a range or the frame changed: refitting equal ranges again would move
  // them by rounding, and the cached image would be redrawn every frame.
  if (equalAspect_ && panes_.size() == 1 && rect.width() > 0 && rect.height() > 0 &&
      (changed || rect != aspectRect_)) {
    aspectRect_ = rect;
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

QByteArray PlotWidget::layerSignature(const QSize& pixels, qreal dpr) const {
  QByteArray out;
  QDataStream d(&out, QIODevice::WriteOnly);
  d << pixels << dpr << font().toString() << x_.lo << x_.hi << xLabel_ << style_.background
    << style_.grid << style_.text << style_.frame << style_.runColours[0] << style_.runColours[1]
    << style_.lineWidth << style_.fontScale << static_cast<quint64>(panes_.size());
  for (const PlotPane& pane : panes_) {
    d << pane.y.lo << pane.y.hi << static_cast<quint64>(pane.curves.size());
    for (const PlotCurve& c : pane.curves)
      d << c.dataKey << c.colour << c.run << c.name << static_cast<int>(c.style) << c.increasingX
        << curveAntialiased(c);
  }
  return out;
}

void PlotWidget::paintEvent(QPaintEvent*) {
  const QRectF rect = this->rect();
  const std::vector<LegendEntry> legend = legendEntries(panes_, style_);
  const double legendH = legendHeight(font(), legend, style_);
  updateAutoscale(rect.adjusted(80, 10 + legendH, -10, -30));

  const std::vector<QRectF> rects =
      paneRects(rect.adjusted(0, legendH, 0, 0), std::max<size_t>(1, panes_.size()), style_);
  std::vector<PaneLayout> layouts;
  std::vector<bool> shown;
  layoutPanes(font(), rects, panes_, x_, style_, layouts, shown);

  // The cached layer: drawn afresh when what it shows changed, else only the new points.
  const qreal dpr = devicePixelRatioF();
  const QSize pixels = (QSizeF(size()) * dpr).toSize();
  const QByteArray signature = layerSignature(pixels, dpr);
  bool full = signature != layerSignature_ || layer_.size() != pixels;
  for (size_t i = 0; i < panes_.size() && !full; ++i)
    for (size_t k = 0; k < panes_[i].curves.size() && !full; ++k) {
      const PlotCurve& c = panes_[i].curves[k];
      size_t begin, end;
      visibleSpan(c, layouts[i].x, begin, end);
      full = c.dataKey == 0 || end < traces_[i][k].next();
    }
  {
    QPainter painter;
    if (full) {
      ++fullRedraws_;
      layerSignature_ = signature;
      if (layer_.size() != pixels) {
        layer_ = QImage(pixels, QImage::Format_RGB32);
        layer_.setDevicePixelRatio(dpr);
      }
      // Same resolution as the widget, so that fonts resolve to the same pixel sizes.
      layer_.setDotsPerMeterX(qRound(logicalDpiX() / 0.0254));
      layer_.setDotsPerMeterY(qRound(logicalDpiY() / 0.0254));
      painter.begin(&layer_);
      painter.setFont(font());
      painter.fillRect(rect, style_.background);
      traces_.assign(panes_.size(), {});
      for (size_t i = 0; i < panes_.size(); ++i) {
        traces_[i].resize(panes_[i].curves.size());
        for (size_t k = 0; k < traces_[i].size(); ++k) {
          size_t begin, end;
          visibleSpan(panes_[i].curves[k], layouts[i].x, begin, end);
          traces_[i][k].restart(begin);
        }
        if (shown[i]) paintPaneGrid(painter, layouts[i], xLabel_, style_, i + 1 == panes_.size());
      }
    } else {
      painter.begin(&layer_);
      painter.setFont(font());
    }
    for (size_t i = 0; i < panes_.size(); ++i)
      if (shown[i]) advanceCurves(painter, layouts[i], panes_[i], style_, traces_[i]);
  }

  QPainter painter(this);
  painter.drawImage(QPointF(0, 0), layer_);
  for (size_t i = 0; i < panes_.size(); ++i)
    if (shown[i]) paintPaneTop(painter, layouts[i], panes_[i], style_, traces_[i]);
  painter.setFont(font());
  paintLegend(painter, QRectF(0, 0, width(), legendH), legend, style_);
}

QImage PlotWidget::render(const QSize& size) {
  QImage image(size, QImage::Format_RGB32);
  QPainter painter(&image);
  const QRectF rect(QPointF(0, 0), QSizeF(size));
  const double legendH = legendHeight(font(), legendEntries(panes_, style_), style_);
  updateAutoscale(rect.adjusted(80, 10 + legendH, -10, -30));
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
  yFitted_.assign(panes_.size(), false);
  xFitted_ = false;
  setAutoscale(true);
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
