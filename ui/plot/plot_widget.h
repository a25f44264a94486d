// Plots painted with QPainter: stacked panes sharing one x axis, each with curves read
// straight from history columns. Time series (x increasing) are reduced to min/max per pixel
// column; parametric curves (phase portraits) drop points that fall on the same pixel as
// their predecessor. So 10⁵ points per curve draw in a few milliseconds, and paintPlot()
// draws on any QPainter (widget, QImage, QSvgGenerator).
#pragma once

#include <QColor>
#include <QString>
#include <QWidget>
#include <vector>

class QPainter;

namespace nhui {

struct PlotCurve {
  QString name;
  QColor colour;
  const double* x = nullptr;
  const double* y = nullptr;
  size_t count = 0;
  bool increasingX = false;  // time series: min/max decimation per pixel column
  Qt::PenStyle style = Qt::SolidLine;
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

struct PlotStyle {
  QColor background{24, 27, 34};
  QColor frame{90, 98, 112};
  QColor grid{52, 58, 70};
  QColor text{210, 216, 226};
  double lineWidth = 1.6;
  double fontScale = 1.0;
};

// Data bounds of the curves' points (x and y), ignoring non-finite values.
bool curveBounds(const std::vector<PlotCurve>& curves, PlotRange& x, PlotRange& y);

// Paints one pane (frame, grid, ticks, curves, legend, current-point markers) into rect.
void paintPane(QPainter& painter, const QRectF& rect, const PlotPane& pane, const PlotRange& x,
               const QString& xLabel, const PlotStyle& style, bool showXTicks);

// Paints stacked panes sharing the x range into rect.
void paintPlot(QPainter& painter, const QRectF& rect, const std::vector<PlotPane>& panes,
               const PlotRange& x, const QString& xLabel, const PlotStyle& style);

class PlotWidget : public QWidget {
  Q_OBJECT

 public:
  explicit PlotWidget(QWidget* parent = nullptr);

  // Curves hold pointers into histories: call again whenever those may have moved.
  void setPanes(std::vector<PlotPane> panes);
  void setXLabel(const QString& label) { xLabel_ = label; }
  void setStyle(const PlotStyle& style);
  const PlotStyle& plotStyle() const { return style_; }
  // Equal x and y scales (phase portraits of positions).
  void setEqualAspect(bool equal) { equalAspect_ = equal; }

  void setAutoscale(bool on);
  bool autoscale() const { return autoscale_; }
  const PlotRange& xRange() const { return x_; }
  const std::vector<PlotPane>& panes() const { return panes_; }

  // Renders the current plot into an image of this size (export, tests, benchmark).
  QImage render(const QSize& size);

 signals:
  void autoscaleChanged(bool on);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;

 private:
  void updateAutoscale(const QRectF& rect);
  int paneAt(double y) const;
  QRectF paneRect(int i, const QRectF& rect) const;

  std::vector<PlotPane> panes_;
  PlotRange x_;
  QString xLabel_;
  PlotStyle style_;
  bool autoscale_ = true;
  bool equalAspect_ = false;
  QPointF lastMouse_;
  int dragPane_ = -1;
};

}  // namespace nhui
