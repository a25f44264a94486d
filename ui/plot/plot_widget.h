// Plots painted with QPainter: stacked panes sharing one x axis, each with curves read
// straight from history columns. Time series (x increasing) are reduced to min/max per pixel
// column; parametric curves (phase portraits) drop points that fall on the same pixel as
// their predecessor (ui/plot/curve_trace.h). paintPlot() draws on any QPainter (QImage,
// QSvgGenerator: export); PlotWidget keeps the grid and the settled curves in a cached image
// and, while ranges and size hold, only draws the points appended since the last frame.
#pragma once

#include <QByteArray>
#include <QColor>
#include <QImage>
#include <QPalette>
#include <QString>
#include <QWidget>
#include <cstdint>
#include <vector>

#include "ui/plot/curve_trace.h"
#include "ui/sim/run_style.h"

class QPainter;

namespace nhui {

struct PlotCurve {
  QString name;
  QColor colour;  // used when run < 0
  // The run the curve belongs to (0 primary, 1 comparison): drawn in the style's colour for
  // it, so that curves follow the theme. -1: drawn in `colour`.
  int run = -1;
  const double* x = nullptr;
  const double* y = nullptr;
  size_t count = 0;
  // The displayed sample, marked on the curve (the last one when beyond count). Before the
  // last sample of a time series (history scrubbed back), a time cursor marks its moment
  // across the pane while the whole recorded curve stays drawn.
  size_t current = SIZE_MAX;
  bool increasingX = false;  // time series: min/max decimation per pixel column
  Qt::PenStyle style = Qt::SolidLine;
  // Names the series for PlotWidget's cache: while it stays the same and non-zero, points
  // already given are unchanged (only new ones are appended). 0: drawn afresh every frame.
  quint64 dataKey = 0;
};

struct PlotRange {
  double lo = 0, hi = 1;
  bool valid() const { return hi > lo; }
};

struct PlotPane {
  QString yLabel;
  std::vector<PlotCurve> curves;
  PlotRange y;
};

// The plots' colours and sizes, for a dark or a light theme: the one place the widget, the
// PNG/SVG export and the animation export take them from.
inline QColor runColourOf(Rgb8 c) { return QColor(c.r, c.g, c.b); }

struct PlotStyle {
  QColor background{24, 27, 34};
  QColor frame{90, 98, 112};
  QColor grid{52, 58, 70};
  QColor text{210, 216, 226};
  // The runs' colours on this theme (ui/sim/run_style.h, the one table of them).
  QColor runColours[2] = {runColourOf(kRunStyles[0].onDark), runColourOf(kRunStyles[1].onDark)};
  double lineWidth = 1.6;
  double fontScale = 1.0;

  static PlotStyle dark() { return PlotStyle{}; }
  static PlotStyle light();
  // The palette's Base behind the plot and its Text for labels, grid and frame mixed from
  // the two, run colours for a light or a dark background; sizes from `sizes`.
  static PlotStyle fromPalette(const QPalette& palette, const PlotStyle& sizes);
  static PlotStyle fromPalette(const QPalette& palette);
  bool isDark() const { return background.lightnessF() < 0.5; }
  QColor colourOf(const PlotCurve& c) const {
    return c.run == 0 || c.run == 1 ? runColours[c.run] : c.colour;
  }
};

// Data bounds of the curves' points (x and y), ignoring non-finite values.
bool curveBounds(const std::vector<PlotCurve>& curves, PlotRange& x, PlotRange& y);

// Paints one pane (frame, grid, ticks, curves, legend, current-point markers and the time
// cursor) into rect.
void paintPane(QPainter& painter, const QRectF& rect, const PlotPane& pane, const PlotRange& x,
               const QString& xLabel, const PlotStyle& style, bool showXTicks);

// Paints stacked panes sharing the x range into rect.
void paintPlot(QPainter& painter, const QRectF& rect, const std::vector<PlotPane>& panes,
               const PlotRange& x, const QString& xLabel, const PlotStyle& style);

// The frame (the data area inside the title, legend and tick labels) that paintPlot() gives a
// single pane in rect: what a plot of equal x and y scales is fitted to.
QRectF plotFrame(const QFont& base, const QRectF& rect, const PlotPane& pane, const PlotRange& x,
                 const PlotStyle& style);

class PlotWidget : public QWidget {
  Q_OBJECT

 public:
  explicit PlotWidget(QWidget* parent = nullptr);

  // Curves hold pointers into histories: call again whenever those may have moved.
  void setPanes(std::vector<PlotPane> panes);
  void setXLabel(const QString& label) { xLabel_ = label; }
  const QString& xLabel() const { return xLabel_; }
  // Sizes and colours; while followPalette() the colours are taken from the widget's palette
  // (PlotStyle::fromPalette) whenever it changes, so the plots follow the app's theme.
  void setStyle(const PlotStyle& style);
  const PlotStyle& plotStyle() const { return style_; }
  void setFollowPalette(bool on);
  bool followPalette() const { return followPalette_; }
  // Equal x and y scales (phase portraits of positions).
  void setEqualAspect(bool equal) { equalAspect_ = equal; }

  void setAutoscale(bool on);
  bool autoscale() const { return autoscale_; }
  const PlotRange& xRange() const { return x_; }
  const std::vector<PlotPane>& panes() const { return panes_; }

  // Renders the current plot into an image of this size (export, tests, benchmark).
  QImage render(const QSize& size);
  // Times the cached image was drawn from scratch (tests, benchmark).
  long fullRedraws() const { return fullRedraws_; }

 signals:
  void autoscaleChanged(bool on);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void changeEvent(QEvent* event) override;

 private:
  void updateAutoscale(const QRectF& rect);
  int paneAt(double y) const;
  QRectF paneRect(int i, const QRectF& rect) const;
  QByteArray layerSignature(const QSize& pixels, qreal dpr) const;
  void updateLayer();

  std::vector<PlotPane> panes_;
  PlotRange x_;
  QString xLabel_;
  PlotStyle style_;
  bool followPalette_ = true;
  bool autoscale_ = true;
  bool equalAspect_ = false;
  QPointF lastMouse_;
  int dragPane_ = -1;
  QRectF aspectRect_;  // frame the equal-aspect ranges were fitted to
  // Ranges fitted to data by autoscale (and only grown with headroom since).
  std::vector<bool> yFitted_;
  bool xFitted_ = false;

  // Per pane and curve: running data bounds (autoscale) and the drawn trace.
  std::vector<std::vector<CurveBounds>> bounds_;
  std::vector<std::vector<quint64>> boundsKeys_;
  // Background, grid, ticks and the settled curve pieces; what it was drawn for.
  QImage layer_;
  QByteArray layerSignature_;
  std::vector<std::vector<CurveTrace>> traces_;
  long fullRedraws_ = 0;
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
