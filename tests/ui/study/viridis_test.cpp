// The Study panel's colour map: viridis(u) takes matplotlib's endpoints (#440154 at 0,
// #fde725 at 1) and its middle (#21918c), interpolates between its table's entries close to
// matplotlib's own in-between entries, clamps u outside [0, 1] and NaN, and grows lighter from
// 0 to 1 (what makes it readable in grey).
#include "ui/study/viridis.h"

#include <QTest>
#include <cmath>
#include <limits>

using nhui::viridis;

namespace {

// Relative luminance (Rec. 709 weights) of a colour.
double luminance(const QColor& c) {
  return 0.2126 * c.redF() + 0.7152 * c.greenF() + 0.0722 * c.blueF();
}

// The largest difference of one channel, in units of 1/255.
int channelDistance(const QColor& a, const QColor& b) {
  return std::max({std::abs(a.red() - b.red()), std::abs(a.green() - b.green()),
                   std::abs(a.blue() - b.blue())});
}

}  // namespace

class ViridisTest : public QObject {
  Q_OBJECT
 private slots:
  // matplotlib's viridis.colors[0], [255] and viridis(0.5), as hex colours.
  void endpointsAndMiddleAreMatplotlibs() {
    QCOMPARE(viridis(0).name(), QString("#440154"));
    QCOMPARE(viridis(1).name(), QString("#fde725"));
    QVERIFY2(channelDistance(viridis(0.5), QColor("#21918c")) <= 1,
             qPrintable(viridis(0.5).name()));
  }

  // Entry 8 of matplotlib's 256 (0.277018, 0.050344, 0.375715) lies between the table's
  // entries 0 and 16: the linear interpolation is within 1/255 of it in every channel.
  void betweenEntriesItFollowsTheFullTable() {
    const QColor mid = viridis(8.0 / 255);
    const QColor reference = QColor::fromRgbF(0.277018f, 0.050344f, 0.375715f);
    QVERIFY2(channelDistance(mid, reference) <= 1, qPrintable(mid.name()));
  }

  void outsideTheRangeItIsClamped() {
    QCOMPARE(viridis(-3), viridis(0));
    QCOMPARE(viridis(7), viridis(1));
    QCOMPARE(viridis(std::numeric_limits<double>::infinity()), viridis(1));
    QCOMPARE(viridis(-std::numeric_limits<double>::infinity()), viridis(0));
    QCOMPARE(viridis(std::numeric_limits<double>::quiet_NaN()), viridis(0));
  }

  void itGrowsLighterAlongTheMap() {
    double previous = -1;
    for (int i = 0; i <= 100; ++i) {
      const double l = luminance(viridis(i / 100.0));
      QVERIFY2(l > previous, qPrintable(QString("not lighter at u = %1").arg(i / 100.0)));
      previous = l;
    }
  }
};

QTEST_APPLESS_MAIN(ViridisTest)
#include "viridis_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
