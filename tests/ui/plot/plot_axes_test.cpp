// What the plot widget draws on its axes: a conserved quantity with round-off draws as a flat
// line (no magnified 1e-12 waves), a small pane has at least two ticks, the compare legend
// appears once however many panes there are, and the colours follow the palette (light and
// dark themes).
#include <QPainter>
#include <QtTest>
#include <cmath>

#include "plot_images.h"
#include "ui/plot/plot_widget.h"

using nhtest::rowGroups;
using nhtest::rowsWith;

class PlotAxesTest : public QObject {
  Q_OBJECT

 private slots:
  // A conserved energy: 4.0008 with round-off of 1e-12. Autoscaled, it used to fill the pane
  // with waves; it must draw as a flat line (a few pixel rows).
  void conservedQuantityDrawsFlat() {
    const size_t n = 4000;
    std::vector<double> t(n), e(n);
    for (size_t i = 0; i < n; ++i) {
      t[i] = 0.01 * i;
      e[i] = 4.0008 + 1e-12 * std::sin(0.37 * i) + 5e-13 * std::cos(1.3 * i);
    }
    nhui::PlotWidget widget;
    nhui::PlotPane pane;
    pane.yLabel = "energy";
    const nhui::PlotCurve c = nhtest::curveOf(t, e, QColor(255, 0, 255), true);
    pane.curves.push_back(c);
    widget.setPanes({pane});
    const QImage image = widget.render(QSize(600, 300));
    const std::vector<int> rows = rowsWith(image, c.colour);
    QVERIFY(!rows.empty());
    QVERIFY2(
        rows.back() - rows.front() <= 8,
        qPrintable(QString("the constant spans rows %1 to %2").arg(rows.front()).arg(rows.back())));
    // The y range is at least the minimum span around the value, and still holds the data.
    const nhui::PlotRange y = widget.panes().front().y;
    QVERIFY(y.lo < 4.0008 - 1e-12 && y.hi > 4.0008 + 1e-12);
    QVERIFY2(y.hi - y.lo >= 4e-9, qPrintable(QString("span %1").arg(y.hi - y.lo)));
  }

  // A residual of 1e-12 around 0 keeps its scale: it fills a good part of the pane.
  void residualKeepsItsScale() {
    const size_t n = 1000;
    std::vector<double> t(n), r(n);
    for (size_t i = 0; i < n; ++i) {
      t[i] = 0.01 * i;
      r[i] = 1e-12 * (1 + std::sin(0.05 * i));
    }
    nhui::PlotWidget widget;
    nhui::PlotPane pane;
    const nhui::PlotCurve c = nhtest::curveOf(t, r, QColor(255, 0, 255), true);
    pane.curves.push_back(c);
    widget.setPanes({pane});
    const std::vector<int> rows = rowsWith(widget.render(QSize(600, 300)), c.colour);
    QVERIFY(!rows.empty());
    QVERIFY2(rows.back() - rows.front() > 150,
             qPrintable(QString("the residual spans %1 rows").arg(rows.back() - rows.front())));
  }

  // A pane about 60 px high showed a single grid line; it needs at least two.
  void smallPaneHasTwoTicks() {
    nhui::PlotStyle style;
    style.grid = QColor(0, 255, 0);
    nhui::PlotPane pane;
    pane.yLabel = "q";
    pane.y = {0.12, 0.27};
    QImage image(400, 90, QImage::Format_RGB32);
    {
      QPainter painter(&image);
      nhui::paintPlot(painter, image.rect(), {pane}, {0, 10}, "t", style);
    }
    // Horizontal grid lines: rows that are grid-coloured over most of the width.
    int lines = 0;
    for (int y = 0; y < image.height(); ++y) {
      int count = 0;
      for (int x = 0; x < image.width(); ++x) count += image.pixelColor(x, y) == style.grid;
      lines += count > image.width() / 2;
    }
    QVERIFY2(lines >= 2, qPrintable(QString("%1 horizontal grid lines").arg(lines)));
  }

  // Three stacked panes comparing two runs: the legend is drawn once, not over every pane.
  void compareLegendOnce() {
    std::vector<double> t = {0, 1}, y = {0, 1};
    std::vector<nhui::PlotPane> panes;
    for (const char* label : {"a", "b", "c"}) {
      nhui::PlotPane pane;
      pane.yLabel = label;
      pane.y = {0, 1};
      for (int run = 0; run < 2; ++run) {
        nhui::PlotCurve c;
        c.name = run == 0 ? "nonholonomic" : "vakonomic";
        c.colour = run == 0 ? QColor(255, 0, 255) : QColor(0, 255, 255);
        c.x = t.data();
        c.y = y.data();
        c.count = 0;  // no data: only the legend shows the colour
        c.increasingX = true;
        pane.curves.push_back(c);
      }
      panes.push_back(pane);
    }
    QImage image(600, 600, QImage::Format_RGB32);
    {
      QPainter painter(&image);
      nhui::paintPlot(painter, image.rect(), panes, {0, 1}, "t", nhui::PlotStyle::dark());
    }
    const std::vector<int> rows = rowsWith(image, QColor(255, 0, 255));
    QVERIFY(!rows.empty());
    QCOMPARE(rowGroups(rows, 20), 1);
    // Above the data of the top pane: in the first rows of the image.
    QVERIFY2(rows.back() < 30, qPrintable(QString("legend down to row %1").arg(rows.back())));
  }

  // The widget's colours come from its palette: light and dark themes.
  void coloursFollowThePalette() {
    nhui::PlotWidget widget;
    QPalette light;
    light.setColor(QPalette::Base, Qt::white);
    light.setColor(QPalette::Text, Qt::black);
    widget.setPalette(light);
    QCOMPARE(widget.plotStyle().background, QColor(Qt::white));
    QVERIFY(!widget.plotStyle().isDark());
    QImage image = widget.render(QSize(300, 200));
    QCOMPARE(image.pixelColor(2, 2), QColor(Qt::white));

    QPalette dark;
    dark.setColor(QPalette::Base, QColor(20, 20, 24));
    dark.setColor(QPalette::Text, QColor(230, 230, 230));
    widget.setPalette(dark);
    QVERIFY(widget.plotStyle().isDark());
    image = widget.render(QSize(300, 200));
    QCOMPARE(image.pixelColor(2, 2), QColor(20, 20, 24));

    // Sizes set by the app (presentation) survive a palette change.
    nhui::PlotStyle big;
    big.fontScale = 1.5;
    widget.setStyle(big);
    widget.setPalette(light);
    QCOMPARE(widget.plotStyle().fontScale, 1.5);
    QCOMPARE(widget.plotStyle().background, QColor(Qt::white));
    // Run colours differ between themes (light blue does not read on white).
    QVERIFY(nhui::PlotStyle::light().runColours[0] != nhui::PlotStyle::dark().runColours[0]);
  }
};

QTEST_MAIN(PlotAxesTest)
#include "plot_axes_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
