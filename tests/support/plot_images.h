// Plots drawn into images: a curve over sample arrays, and reading the image back (colours
// near one another, where a colour is).
#pragma once

#include <QColor>
#include <QImage>
#include <QRect>
#include <algorithm>
#include <cstdlib>
#include <vector>

#include "ui/plot/plot_widget.h"

namespace nhtest {

// A curve through (x[i], y[i]) in `colour`; the arrays must outlive it (it points into them).
inline nhui::PlotCurve curveOf(const std::vector<double>& x, const std::vector<double>& y,
                               QColor colour, bool increasingX) {
  nhui::PlotCurve c;
  c.colour = colour;
  c.x = x.data();
  c.y = y.data();
  c.count = std::min(x.size(), y.size());
  c.increasingX = increasingX;
  return c;
}

// The sum of the channel differences of a and b is below `tolerance`.
inline bool colourNear(QColor a, QColor b, int tolerance) {
  return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) +
             std::abs(a.blue() - b.blue()) <
         tolerance;
}

// A pixel of `area` (clipped to the image) has a colour near `colour`.
inline bool hasColourNear(const QImage& image, QColor colour, const QRect& area,
                          int tolerance = 40) {
  for (int y = std::max(0, area.top()); y <= std::min(image.height() - 1, area.bottom()); ++y)
    for (int x = std::max(0, area.left()); x <= std::min(image.width() - 1, area.right()); ++x)
      if (colourNear(image.pixelColor(x, y), colour, tolerance)) return true;
  return false;
}

// Rows of the image holding a pixel of this colour.
inline std::vector<int> rowsWith(const QImage& image, QColor colour, int tolerance = 30) {
  std::vector<int> rows;
  for (int y = 0; y < image.height(); ++y)
    if (hasColourNear(image, colour, QRect(0, y, image.width(), 1), tolerance)) rows.push_back(y);
  return rows;
}

// Groups of rows further apart than `gap`.
inline int rowGroups(const std::vector<int>& rows, int gap) {
  int n = 0;
  for (size_t i = 0; i < rows.size(); ++i)
    if (i == 0 || rows[i] - rows[i - 1] > gap) ++n;
  return n;
}

}  // namespace nhtest
// SPDX-License-Identifier: GPL-3.0-or-later
