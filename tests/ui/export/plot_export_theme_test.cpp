// The plot export (PNG and SVG) follows the plot's theme: a light plot exports light, a dark
// one dark (the SVG export was dark only).
#include <QFile>
#include <QImage>
#include <QPalette>
#include <QTemporaryDir>
#include <QtTest>

#include "ui/export/stills.h"

class PlotExportThemeTest : public QObject {
  Q_OBJECT

 private slots:
  void exportFollowsTheme_data() {
    QTest::addColumn<bool>("dark");
    QTest::newRow("light") << false;
    QTest::newRow("dark") << true;
  }

  void exportFollowsTheme() {
    QFETCH(bool, dark);
    const QColor base = dark ? QColor(18, 18, 22) : QColor(255, 255, 255);
    const QColor text = dark ? QColor(235, 235, 235) : QColor(0, 0, 0);
    std::vector<double> t = {0, 1, 2, 3}, y = {1, 2, 1.5, 3};
    nhui::PlotWidget widget;
    QPalette palette;
    palette.setColor(QPalette::Base, base);
    palette.setColor(QPalette::Text, text);
    widget.setPalette(palette);
    nhui::PlotPane pane;
    pane.yLabel = "energy [J]";
    nhui::PlotCurve c;
    c.run = 0;
    c.x = t.data();
    c.y = y.data();
    c.count = t.size();
    c.increasingX = true;
    pane.curves.push_back(c);
    widget.setPanes({pane});
    (void)widget.render(QSize(400, 300));  // autoscale

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const nhui::PlotSnapshot snapshot = nhui::plotSnapshot(widget, "t [s]");
    nhui::savePlotImage(dir.filePath("p.png"), snapshot, QSize(400, 300));
    const QImage png(dir.filePath("p.png"));
    QCOMPARE(png.pixelColor(1, 1), base);

    nhui::savePlotImage(dir.filePath("p.svg"), snapshot, QSize(400, 300));
    QFile svg(dir.filePath("p.svg"));
    QVERIFY(svg.open(QIODevice::ReadOnly));
    const QString xml = QString::fromUtf8(svg.readAll());
    // The background fill and the label colour of the theme are in the SVG.
    QVERIFY2(xml.contains(QString("fill=\"%1\"").arg(base.name())), qPrintable(base.name()));
    QVERIFY2(xml.contains(QString("fill=\"%1\"").arg(text.name())), qPrintable(text.name()));
    // The curve is in the theme's colour for the primary run.
    const QColor curve =
        dark ? nhui::PlotStyle::dark().runColours[0] : nhui::PlotStyle::light().runColours[0];
    QVERIFY2(xml.contains(QString("stroke=\"%1\"").arg(curve.name())), qPrintable(curve.name()));
  }
};

QTEST_MAIN(PlotExportThemeTest)
#include "plot_export_theme_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
