// Axis ticks (ui/plot/plot_ticks.h): 1-2-5 steps, at least two ticks, labels alike on one axis
// (same decimals, never a mix of "2e+01" and "40"), distinct labels for a range that is tiny
// beside its value (offset "+4.0008" at the corner), the scale of a range around 0 kept
// (residuals), and the minimum span that makes a constant draw flat.
#include "ui/plot/plot_ticks.h"

#include <QtTest>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <thread>

namespace {

int decimalsOf(const QString& label) {
  const int dot = label.indexOf('.');
  return dot < 0 ? 0 : static_cast<int>(label.size()) - dot - 1;
}

// What a label says the tick is: label × 10^exponent + offset.
double labelValue(const nhui::AxisTicks& t, size_t i) {
  return t.labels[i].toDouble() * std::pow(10.0, t.exponent) + t.offset;
}

// The checks every axis must pass, with a message naming the range.
void checkAxis(double lo, double hi, int maxTicks) {
  const nhui::AxisTicks t = nhui::axisTicks(lo, hi, maxTicks);
  const QString where =
      QString("[%1, %2], at most %3 ticks: ").arg(lo, 0, 'g', 17).arg(hi, 0, 'g', 17).arg(maxTicks);
  QVERIFY2(t.values.size() >= 2, qPrintable(where + QString("%1 ticks").arg(t.values.size())));
  QCOMPARE(t.labels.size(), t.values.size());
  const double mantissa = t.step / std::pow(10.0, std::floor(std::log10(t.step) + 1e-12));
  QVERIFY2(std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 ||
               std::abs(mantissa - 5) < 1e-9,
           qPrintable(where + QString("step %1 is not 1, 2 or 5 × 10^e").arg(t.step)));
  std::set<QString> distinct(t.labels.begin(), t.labels.end());
  QVERIFY2(distinct.size() == t.labels.size(),
           qPrintable(where + "repeated labels: " +
                      QStringList(t.labels.begin(), t.labels.end()).join(" / ")));
  for (size_t i = 0; i < t.values.size(); ++i) {
    QVERIFY2(t.values[i] >= lo - 1e-9 * t.step && t.values[i] <= hi + 1e-9 * t.step,
             qPrintable(where + QString("tick %1 outside").arg(t.values[i])));
    QVERIFY2(!t.labels[i].contains('e'), qPrintable(where + "label " + t.labels[i]));
    QCOMPARE(decimalsOf(t.labels[i]), decimalsOf(t.labels[0]));
    // The label reads back as the tick (to a hundredth of a step: labels are exact).
    QVERIFY2(std::abs(labelValue(t, i) - t.values[i]) < 0.01 * t.step,
             qPrintable(where + QString("label %1 (%2) for tick %3")
                                    .arg(t.labels[i], t.corner)
                                    .arg(t.values[i], 0, 'g', 17)));
  }
}

}  // namespace

class PlotTicksTest : public QObject {
  Q_OBJECT

 private slots:
  // A conserved energy: 4.0008 with round-off in the 12th digit. Before, every
  // label read "4.0008".
  void roundOffAroundAValueGetsDistinctLabelsAndAnOffset() {
    checkAxis(4.0008 - 2e-12, 4.0008 + 3e-12, 5);
    const nhui::AxisTicks t = nhui::axisTicks(4.0008 - 2e-12, 4.0008 + 3e-12, 5);
    QVERIFY2(t.corner.contains("+4.0008"), qPrintable(t.corner));
    checkAxis(0.45 - 1e-13, 0.45 + 1e-13, 4);
    QVERIFY(nhui::axisTicks(0.45 - 1e-13, 0.45 + 1e-13, 4).corner.contains("+0.45"));
    checkAxis(-12.5 - 1e-6, -12.5 + 1e-6, 6);
    QVERIFY(nhui::axisTicks(-12.5 - 1e-6, -12.5 + 1e-6, 6).corner.contains("offset −12.5"));
  }

  // A power of ten and a negative offset together: "×10⁻¹¹ -0.068" read as a subtraction;
  // the offset is named and takes a true minus (checkAxis reads every label back as
  // label × 10^exponent + offset).
  void offsetBesideAPowerOfTenReadsUnambiguously() {
    const double v = -0.068, h = 3e-11;
    checkAxis(v - h, v + h, 5);
    const nhui::AxisTicks t = nhui::axisTicks(v - h, v + h, 5);
    QVERIFY2(t.exponent != 0 && t.offset != 0, qPrintable(t.corner));
    QVERIFY2(t.corner.startsWith(QStringLiteral("×10")) &&
                 t.corner.contains(QStringLiteral(", offset −0.068")),
             qPrintable(t.corner));
    QVERIFY2(!t.corner.contains('-'), qPrintable(t.corner));  // no hyphen for a minus
  }

  // A residual is legitimately tiny around 0: its scale is shown (×10⁻¹²), no offset.
  void residualAroundZeroShowsItsScale() {
    checkAxis(0, 3.2e-12, 5);
    const nhui::AxisTicks t = nhui::axisTicks(0, 3.2e-12, 5);
    QCOMPARE(t.offset, 0.0);
    QCOMPARE(t.exponent, -12);
    QCOMPARE(t.corner, QString("×10⁻¹²"));
    QCOMPARE(t.labels.front(), QString("0"));
  }

  // A residual constant to rounding, around 2.8e-17: the offset is written in powers of ten
  // (the ball on the fixed table's plot read "+0.0000000000000000280000", cut off by the pane).
  void tinyOffsetInPowersOfTen() {
    const double v = 2.8e-17, h = 3e-26;
    checkAxis(v - h, v + h, 4);
    const nhui::AxisTicks t = nhui::axisTicks(v - h, v + h, 4);
    QVERIFY2(t.corner.contains("+2.8×10⁻¹⁷"), qPrintable(t.corner));
    // "×10⁻²⁶, offset +2.8×10⁻¹⁷": short enough for the corner row of a narrow pane.
    QVERIFY2(t.corner.size() < 32, qPrintable(t.corner));
  }

  // Before, a time axis to 40 s read "2e+01" next to "40".
  void plainRangesReadPlainly() {
    const nhui::AxisTicks t = nhui::axisTicks(0, 40, 5);
    QCOMPARE(QStringList(t.labels.begin(), t.labels.end()).join(" "), QString("0 10 20 30 40"));
    QVERIFY(t.corner.isEmpty());
    const nhui::AxisTicks d = nhui::axisTicks(-0.3, 0.35, 8);
    QCOMPARE(QStringList(d.labels.begin(), d.labels.end()).join(" "),
             QString("-0.3 -0.2 -0.1 0.0 0.1 0.2 0.3"));
    const nhui::AxisTicks big = nhui::axisTicks(0, 3.5e6, 4);
    QCOMPARE(big.corner, QString("×10⁶"));
  }

  void manyRangesPassTheChecks_data() {
    QTest::addColumn<double>("lo");
    QTest::addColumn<double>("hi");
    QTest::addColumn<int>("maxTicks");
    const double los[] = {0, -1, 0.13, -7.3e-5, 1234.5, 9.81, -2e7, 1e-300};
    const double spans[] = {1, 0.15, 3.7e-3, 2e-9, 40, 1e6, 7.7e-14};
    for (double lo : los)
      for (double span : spans)
        for (int maxTicks : {2, 3, 5, 9})
          if (std::abs(lo) * 1e-14 < span)  // representable ticks
            QTest::addRow("%g+%g/%d", lo, span, maxTicks) << lo << lo + span << maxTicks;
  }
  void manyRangesPassTheChecks() {
    QFETCH(double, lo);
    QFETCH(double, hi);
    QFETCH(int, maxTicks);
    checkAxis(lo, hi, maxTicks);
    // No more ticks than asked for, unless that left fewer than two.
    const nhui::AxisTicks t = nhui::axisTicks(lo, hi, maxTicks);
    if (static_cast<int>(t.values.size()) > maxTicks) {
      const double p = std::pow(10.0, std::floor(std::log10(t.step) + 1e-12));
      const double m = std::round(t.step / p), next = (m == 1 ? 2 : m == 2 ? 5 : 10) * p;
      QVERIFY(std::floor(hi / next + 1e-9) - std::ceil(lo / next - 1e-9) + 1 < 2);
    }
  }

  // The tick count follows the axis length, never fewer than three asked for.
  void tickCountFollowsLength() {
    QCOMPARE(nhui::maxTicksForLength(40, 30), 3);
    QCOMPARE(nhui::maxTicksForLength(300, 30), 10);
    QVERIFY(nhui::axisTicks(0.12, 0.27, nhui::maxTicksForLength(50, 30)).values.size() >= 2);
  }

  // Ranges and offsets from 1e-300 to 1e300, with every tick budget a pane may ask for:
  // the number of ticks stays bounded (before, when no 1-2-5 step fitted, the finest one was
  // taken and the tick loop ran without end far from 0, freezing the window and eating
  // memory), and where doubles resolve the ticks, they pass every check. A watchdog turns a
  // loop without end into a failure instead of a hang.
  void ticksAreBoundedForAnyRangeAndOffset() {
    struct Watchdog {
      std::atomic<bool> done{false};
      std::thread thread{[this] {
        for (int i = 0; i < 600 && !done; ++i)
          std::this_thread::sleep_for(std::chrono::milliseconds(100));
        if (!done) {
          std::fprintf(stderr, "FAIL: axisTicks did not return within 60 s\n");
          std::_Exit(1);
        }
      }};
      ~Watchdog() {
        done = true;
        thread.join();
      }
    } watchdog;
    int checked = 0;
    for (int offsetPower = -300; offsetPower <= 300 && !QTest::currentTestFailed();
         offsetPower += 20)
      for (int spanPower = -300; spanPower <= 300 && !QTest::currentTestFailed(); spanPower += 15)
        for (double sign : {1.0, -1.0, 0.0})
          for (int maxTicks : {0, 2, 3, 7, 40}) {
            const double offset = sign * std::pow(10.0, offsetPower);
            const double span = 3.7 * std::pow(10.0, spanPower);
            const double lo = offset - 0.3 * span, hi = offset + 0.7 * span;
            if (!(hi > lo) || !std::isfinite(hi - lo)) continue;
            const nhui::AxisTicks t = nhui::axisTicks(lo, hi, maxTicks);
            const size_t allowed = static_cast<size_t>(2.5 * std::max(maxTicks, 2) + 2);
            QVERIFY2(t.values.size() <= allowed,
                     qPrintable(QString("[%1, %2]: %3 ticks, at most %4 asked for")
                                    .arg(lo, 0, 'g', 17)
                                    .arg(hi, 0, 'g', 17)
                                    .arg(t.values.size())
                                    .arg(maxTicks)));
            QVERIFY(t.corner.size() < 40);
            for (const QString& label : t.labels) QVERIFY(label.size() < 40);
            if (std::abs(lo) * 1e-13 < hi - lo) {
              checkAxis(lo, hi, std::max(2, maxTicks));
              ++checked;
            }
          }
    QVERIFY(checked > 1000);
  }

  // An offset is written with the digits the ticks share, never a binary round-off's 17
  // digits ("+5.0000000000000001e+29").
  void offsetsPrintTheirSignificantDigits() {
    const nhui::AxisTicks big = nhui::axisTicks(5e29 - 1e20, 5e29 + 1e20, 5);
    QVERIFY2(big.corner.endsWith("+5×10²⁹"), qPrintable(big.corner));
    const nhui::AxisTicks digits = nhui::axisTicks(1.2345e20 - 4e4, 1.2345e20 + 4e4, 5);
    QVERIFY2(digits.corner.endsWith("+1.2345×10²⁰"), qPrintable(digits.corner));
    const nhui::AxisTicks time = nhui::axisTicks(3800.1, 3800.4, 5);
    QVERIFY2(time.corner.endsWith("+3800"), qPrintable(time.corner));
    for (const nhui::AxisTicks& t : {big, digits, time})
      QVERIFY2(
          !t.corner.contains("0000000") && !t.corner.contains("e+") && !t.corner.contains("e-"),
          qPrintable(t.corner));
  }

  void minimumSpan() {
    double lo = 4.0008 - 1e-12, hi = 4.0008 + 1e-12;
    nhui::widenToMinimumSpan(lo, hi);
    QVERIFY(hi - lo >= nhui::kMinimumRelativeSpan * 4.0008 * (1 - 1e-6));
    QVERIFY(std::abs(0.5 * (lo + hi) - 4.0008) < 1e-15);
    // Around 0 a small range keeps its scale; exactly 0 gets a unit range.
    lo = 0;
    hi = 3e-15;
    nhui::widenToMinimumSpan(lo, hi);
    QCOMPARE(lo, 0.0);
    QCOMPARE(hi, 3e-15);
    lo = hi = 0;
    nhui::widenToMinimumSpan(lo, hi);
    QCOMPARE(lo, -1.0);
    QCOMPARE(hi, 1.0);
    // Numbers near the smallest doubles (a force decaying to 0): widened to a span that
    // ticks resolve, about the values.
    lo = 1e-310;
    hi = 3e-310;
    nhui::widenToMinimumSpan(lo, hi);
    QVERIFY(hi - lo >= nhui::kMinimumAbsoluteSpan);
    QVERIFY(lo < 1e-310 && hi > 3e-310);
    QVERIFY(nhui::axisTicks(lo, hi, 5).values.size() >= 2);
    // A range wider than the minimum is left alone.
    lo = 3.9;
    hi = 4.1;
    nhui::widenToMinimumSpan(lo, hi);
    QCOMPARE(lo, 3.9);
    QCOMPARE(hi, 4.1);
  }
};

QTEST_APPLESS_MAIN(PlotTicksTest)
#include "plot_ticks_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
