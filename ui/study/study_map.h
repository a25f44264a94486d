// The view of a parameter study: one varied quantity as a line plot of the measure, two as a
// heat map (viridis, with a colour bar titled by the measure). The clicked cell is outlined.
// Cells fill in as runs finish; runs that failed or
// gave no number are hatched grey and say their status on hover. Drawn with QPainter, so the
// same code paints the widget, a PNG and an SVG.
#pragma once

#include <QString>
#include <QWidget>
#include <vector>

class QPainter;

namespace nhui {

// The data behind the view. Cell (ix, iy) is entry ix·ny + iy (ny = max(1, ys.size())): the
// order of `nhsim sweep`'s rows for a grid, whose first axis varies slowest.
struct StudyGrid {
  QString xName, yName;           // column names; yName empty for one varied quantity
  QString xLabel, yLabel;         // axis titles (name and unit)
  QString valueName;              // the measure
  std::vector<double> xs, ys;     // axis values, ascending; ys empty for one varied quantity
  std::vector<double> values;     // per cell; NaN: no number (not run yet, failed, or NaN)
  std::vector<QString> statuses;  // per cell; empty: not run yet
  int nx() const { return static_cast<int>(xs.size()); }
  int ny() const { return ys.empty() ? 1 : static_cast<int>(ys.size()); }
  bool twoDimensional() const { return !ys.empty(); }
  int cellCount() const { return nx() * ny(); }
  // Resizes values (NaN) and statuses (empty) to cellCount().
  void clearCells();
  int done() const;    // cells with a status
  int failed() const;  // cells with a status other than "ok", or "ok" with a NaN value
};

class StudyMap : public QWidget {
  Q_OBJECT

 public:
  explicit StudyMap(QWidget* parent = nullptr);

  void setGrid(const StudyGrid& grid);
  StudyGrid& grid() { return grid_; }
  const StudyGrid& grid() const { return grid_; }
  // After cells of grid() changed: repaints.
  void cellsChanged() { update(); }

  // Paints the view into `rect` (the widget, a PNG or an SVG page).
  void render(QPainter& painter, const QRectF& rect) const;
  // The cell under a point of a view painted into `rect` (-1: none), its centre.
  int cellAt(const QPointF& point, const QRectF& rect) const;
  QPointF cellCentre(int cell, const QRectF& rect) const;
  int cellAt(const QPointF& point) const { return cellAt(point, QRectF(rect())); }
  QPointF cellCentre(int cell) const { return cellCentre(cell, QRectF(rect())); }
  // The cell last clicked (opened in the main view), outlined on the map; -1: none. A new
  // grid clears it.
  int selectedCell() const { return selected_; }
  void setSelectedCell(int cell);
  // What hovering the cell shows: its axis values, the measure and the status.
  QString describe(int cell) const;

  QSize sizeHint() const override { return {480, 360}; }
  QSize minimumSizeHint() const override { return {240, 140}; }

 signals:
  void cellClicked(int cell);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;

 private:
  StudyGrid grid_;
  int selected_ = -1;
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
