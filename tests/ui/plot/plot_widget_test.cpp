// Plot painting: the min/max decimation keeps every extreme of a 10⁵-point time series, a
// phase portrait lands where its points are, bounds ignore non-finite values, and the
// widget's cached image, fed new points frame by frame, shows exactly what a plot drawn in
// one go shows.
#include "ui/plot/plot_widget.h"

#include <QPainter>
#include <QtTest>
#include <cmath>

#include "plot_images.h"

using nhtest::hasColourNear;

class PlotWidgetTest : public QObject {
  Q_OBJECT

 private slots:
  void boundsSkipNonFinite() {
    std::vector<double> x = {0, 1, 2, 3}, y = {1, NAN, -2, INFINITY};
    nhui::PlotCurve c;
    c.x = x.data();
    c.y = y.data();
    c.count = 4;
    c.increasingX = true;
    nhui::PlotRange rx, ry;
    QVERIFY(nhui::curveBounds({c}, rx, ry));
    QCOMPARE(rx.lo, 0.0);
    QCOMPARE(rx.hi, 3.0);
    QCOMPARE(ry.lo, -2.0);
    QCOMPARE(ry.hi, 1.0);
  }

  void decimationKeepsASingleSampleSpike() {
    const size_t n = 100000;
    std::vector<double> t(n), y(n);
    for (size_t i = 0; i < n; ++i) {
      t[i] = i * 0.01;
      y[i] = 0.1 * std::sin(t[i]);
    }
    y[61234] = 1.0;  // one sample out of 10⁵: a naive stride would miss it
    nhui::PlotPane pane;
    const nhui::PlotCurve c = nhtest::curveOf(t, y, QColor(255, 0, 255), true);
    pane.curves.push_back(c);
    pane.y = {-0.2, 1.1};
    QImage image(800, 400, QImage::Format_RGB32);
    QPainter painter(&image);
    nhui::PlotStyle style;
    nhui::paintPlot(painter, image.rect(), {pane}, {0, t.back()}, "t", style);
    painter.end();
    // Find the plot frame's vertical extent from the drawn curve: the spike reaches y = 1,
    // i.e. near the top of the frame, in the column of t = 612.34.
    bool found = false;
    for (int x = 0; x < image.width() && !found; ++x)
      found = hasColourNear(image, c.colour, QRect(x, 0, 1, 60));
    QVERIFY2(found, "the spike is missing from the top of the plot");
  }

  void widgetRendersPhasePortrait() {
    const size_t n = 100000;
    std::vector<double> x(n), y(n);
    for (size_t i = 0; i < n; ++i) {
      x[i] = std::cos(i * 1e-3);
      y[i] = std::sin(i * 1e-3);
    }
    nhui::PlotWidget widget;
    widget.setEqualAspect(true);
    nhui::PlotPane pane;
    const nhui::PlotCurve c = nhtest::curveOf(x, y, QColor(0, 255, 0), false);
    pane.curves.push_back(c);
    widget.setPanes({pane});
    QElapsedTimer timer;
    timer.start();
    const QImage image = widget.render(QSize(600, 600));
    qInfo("phase portrait, 1e5 points, 600x600: %lld ms", timer.elapsed());
    QVERIFY(widget.xRange().lo < -1 && widget.xRange().hi > 1);
    // The circle's centre stays empty; its rim is drawn.
    const QPoint centre(image.width() / 2 + 30, image.height() / 2);
    QVERIFY(!hasColourNear(image, c.colour, QRect(centre.x() - 10, centre.y() - 10, 20, 20)));
    int drawn = 0;
    for (int yy = 0; yy < image.height(); ++yy)
      for (int xx = 0; xx < image.width(); ++xx)
        if (image.pixelColor(xx, yy).green() > 200 && image.pixelColor(xx, yy).red() < 60) ++drawn;
    QVERIFY2(drawn > 500, qPrintable(QString("%1 curve pixels").arg(drawn)));
  }

  // Appending points draws only them onto the cached image, yet the widget shows what
  // paintPlot() (export) draws from scratch, pixel for pixel; a range change redraws in full.
  // (Two curves here do not cross: where they do, a piece of the first curve drawn later lies
  // on top of the second, while drawn in one go it lies beneath; such pixels differ.)
  void cachedImageEqualsFullRedraw_data() {
    QTest::addColumn<bool>("phase");
    QTest::addColumn<int>("curves");
    QTest::newRow("time series") << false << 1;
    QTest::newRow("phase portrait") << true << 1;
    QTest::newRow("time series, 2 curves") << false << 2;
    QTest::newRow("phase portrait, 2 curves") << true << 2;
  }

  void cachedImageEqualsFullRedraw() {
    QFETCH(bool, phase);
    QFETCH(int, curves);
    const size_t n = 20000;
    std::vector<double> t(n), a(n), b(n), c(n), d(n);
    for (size_t i = 0; i < n; ++i) {
      t[i] = 0.01 * i;
      a[i] = std::cos(0.01 * i) + 0.05 * std::sin(1.7 * i);
      b[i] = std::sin(0.013 * i);
      c[i] = 3 + 0.5 * std::sin(0.021 * i);
      d[i] = 3 + b[i];
    }
    a[5000] = NAN;  // a gap: the polyline restarts after it
    nhui::PlotWidget widget;
    widget.resize(640, 400);
    widget.setEqualAspect(phase);
    size_t count = 15000;
    auto panes = [&] {
      nhui::PlotPane pane;
      pane.yLabel = "p";
      nhui::PlotCurve first, second;
      first.colour = QColor(86, 180, 255);
      second.colour = QColor(255, 150, 40);
      first.name = "first";
      second.name = "second";
      first.x = phase ? a.data() : t.data();
      first.y = phase ? b.data() : a.data();
      second.x = phase ? c.data() : t.data();
      second.y = phase ? b.data() : d.data();
      first.count = second.count = count;
      first.increasingX = second.increasingX = !phase;
      first.dataKey = 1;
      second.dataKey = 2;
      pane.curves = {first, second};
      pane.curves.resize(curves);
      nhui::PlotPane other = pane;
      other.yLabel = "q";
      other.curves[0].y = b.data();
      return phase ? std::vector<nhui::PlotPane>{pane} : std::vector<nhui::PlotPane>{pane, other};
    };
    auto fromScratch = [&] {
      QImage image(widget.size(), QImage::Format_RGB32);
      QPainter painter(&image);
      painter.setFont(widget.font());
      nhui::paintPlot(painter, image.rect(), widget.panes(), widget.xRange(), "t",
                      widget.plotStyle());
      return image;
    };
    widget.setXLabel("t");
    widget.setPanes(panes());
    (void)widget.grab();
    const long redraws = widget.fullRedraws();
    QCOMPARE(redraws, 1L);
    // Real-time playback adds a couple of samples per frame; the ranges hold (headroom).
    for (int frame = 0; frame < 60; ++frame) {
      count += 2 + frame % 5;
      widget.setPanes(panes());
      (void)widget.grab();
    }
    QCOMPARE(widget.fullRedraws(), redraws);
    QImage shown = widget.grab().toImage().convertToFormat(QImage::Format_RGB32);
    const QImage expected = fromScratch();
    int differing = 0;
    for (int y = 0; y < shown.height(); ++y)
      for (int x = 0; x < shown.width(); ++x)
        differing += shown.pixel(x, y) != expected.pixel(x, y);
    QVERIFY2(differing == 0,
             qPrintable(QString("%1 pixels differ from a full redraw").arg(differing)));

    // A new extreme: the y range grows, and the image is drawn afresh.
    (phase ? b : a)[count] = 10;
    ++count;
    widget.setPanes(panes());
    shown = widget.grab().toImage().convertToFormat(QImage::Format_RGB32);
    QCOMPARE(widget.fullRedraws(), redraws + 1);
    QVERIFY2(shown == fromScratch(), "plot after a range change differs from a full redraw");

    // History scrubbed back: fewer points than drawn, so drawn afresh too.
    count -= 200;
    widget.setPanes(panes());
    shown = widget.grab().toImage().convertToFormat(QImage::Format_RGB32);
    QVERIFY(widget.fullRedraws() > redraws + 1);
    QVERIFY2(shown == fromScratch(), "plot after scrubbing back differs from a full redraw");
  }

  // A time series whose displayed sample lies before its last (history scrubbed back) is
  // drawn whole with a dashed time cursor across the pane at that sample's time; at the last
  // sample there is no cursor.
  void timeCursorMarksTheDisplayedMoment() {
    const size_t n = 1001;
    std::vector<double> t(n), y(n, 0.0);
    for (size_t i = 0; i < n; ++i) t[i] = i * 0.01;
    nhui::PlotStyle style;
    style.text = QColor(255, 0, 255);
    auto draw = [&](size_t current) {
      nhui::PlotPane pane;
      nhui::PlotCurve c = nhtest::curveOf(t, y, QColor(0, 200, 0), true);
      c.current = current;
      pane.curves.push_back(c);
      pane.y = {-1, 1};
      QImage image(800, 400, QImage::Format_RGB32);
      QPainter painter(&image);
      nhui::paintPlot(painter, image.rect(), {pane}, {0, 10}, "t", style);
      return image;
    };
    // Columns where the text colour covers more than half the image's height: the cursor.
    auto cursorColumns = [&](const QImage& image) {
      std::vector<int> out;
      for (int x = 0; x < image.width(); ++x) {
        int hits = 0;
        for (int yy = 0; yy < image.height(); ++yy)
          hits += nhtest::colourNear(image.pixelColor(x, yy), style.text, 30) ? 1 : 0;
        if (hits > image.height() / 4) out.push_back(x);
      }
      return out;
    };
    QVERIFY(cursorColumns(draw(n - 1)).empty());
    QVERIFY(cursorColumns(draw(SIZE_MAX)).empty());
    const std::vector<int> at3 = cursorColumns(draw(300)), at7 = cursorColumns(draw(700));
    QCOMPARE(at3.size(), size_t(1));
    QCOMPARE(at7.size(), size_t(1));
    // t = 3 and t = 7 on an axis from 0 to 10: 0.4 of the frame's width apart.
    QVERIFY2(at7[0] - at3[0] > 0.35 * 800 && at7[0] - at3[0] < 0.41 * 800,
             qPrintable(QString("%1 %2").arg(at3[0]).arg(at7[0])));
    // The whole curve is drawn, right of the cursor too.
    const QImage scrubbed = draw(300);
    QVERIFY(nhtest::hasColourNear(scrubbed, QColor(0, 200, 0), QRect(at7[0] + 20, 0, 40, 400)));
  }
};

QTEST_MAIN(PlotWidgetTest)
#include "plot_widget_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
