// SampleGrid (ui/export/sample_grid.h): the export's samples of a run that takes longer fixed
// steps. Records of a run at its own steps come out on the finer grid k·h, each the linear
// interpolation of its two neighbours (exact for a linear motion), a grid time on a record the
// record itself (the later of two at one time: the state after a timed edit), and a start off
// the grid restarting it there.
#include "ui/export/sample_grid.h"

#include <QtTest>
#include <cmath>
#include <vector>

using nhui::SampleGrid;

namespace {

struct Emitted {
  std::vector<double> times, values;
};

// A run of steps H from 0 to tEnd recording (t, 2t + 1, t²) into a grid of step h restarted at
// `restartAt`: the times and the values 2t + 1 that come out.
Emitted sampled(double H, double tEnd, double h, double restartAt) {
  Emitted out;
  SampleGrid grid(3, h, restartAt, [&](const double* r) {
    out.times.push_back(r[0]);
    out.values.push_back(r[1]);
  });
  for (int k = 0; k * H <= tEnd + 1e-12; ++k) {
    const double t = k * H;
    const double record[3] = {t, 2 * t + 1, t * t};
    grid.add(record);
  }
  grid.finish();
  return out;
}

}  // namespace

class SampleGridTest : public QObject {
  Q_OBJECT

 private slots:
  void linearMotionComesOutExactOnTheFinerGrid() {
    const Emitted e = sampled(0.3, 3.0, 0.1, 0);
    QCOMPARE(static_cast<int>(e.times.size()), 31);  // 0, 0.1, …, 3.0
    for (size_t i = 0; i < e.times.size(); ++i) {
      QVERIFY(std::abs(e.times[i] - 0.1 * static_cast<double>(i)) < 1e-15);
      QVERIFY(std::abs(e.values[i] - (2 * e.times[i] + 1)) < 1e-14);
    }
  }

  // Interpolated, not the neighbour: t² at 0.1 between 0 and 0.09 is the chord's 0.03.
  void betweenStepsTheChord() {
    std::vector<double> squares;
    SampleGrid grid(3, 0.1, [&](const double* r) { squares.push_back(r[2]); });
    for (const double t : {0.0, 0.3}) {
      const double record[3] = {t, 0, t * t};
      grid.add(record);
    }
    QCOMPARE(static_cast<int>(squares.size()), 3);  // 0.3 waits: a second record may come
    grid.finish();
    QCOMPARE(static_cast<int>(squares.size()), 4);
    QVERIFY(std::abs(squares[1] - 0.03) < 1e-15);
    QCOMPARE(squares[3], 0.09);  // on the record: the record
  }

  // A start at 0.25, off the grid of 0.1: 0, 0.1, 0.2, then 0.25, 0.35, …
  void aStartOffTheGridRestartsIt() {
    const Emitted e = sampled(0.3, 0.9, 0.1, 0.25);
    const std::vector<double> expected = {0, 0.1, 0.2, 0.25, 0.35, 0.45, 0.55, 0.65, 0.75, 0.85};
    QCOMPARE(e.times.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
      QVERIFY2(std::abs(e.times[i] - expected[i]) < 1e-14, qPrintable(QString::number(e.times[i])));
      QVERIFY(std::abs(e.values[i] - (2 * e.times[i] + 1)) < 1e-14);
    }
    // A start on the grid is no restart.
    QCOMPARE(sampled(0.3, 0.9, 0.1, 0.3).times.size(), size_t(10));
  }

  // A run gives the sample at a timed edit's moment twice, before and after the edit: a grid
  // time there is the record after it, as the app's view shows at that time; the times between
  // are interpolated from it.
  void aSecondRecordAtOneTimeIsTheOneTaken() {
    Emitted e;
    SampleGrid grid(3, 0.1, [&](const double* r) {
      e.times.push_back(r[0]);
      e.values.push_back(r[1]);
    });
    const double records[4][3] = {{0, 0, 0}, {0.2, 2, 0}, {0.2, 5, 0}, {0.4, 7, 0}};
    for (const auto& r : records) grid.add(r);
    grid.finish();
    const std::vector<double> expected = {0, 1, 5, 6, 7};
    QCOMPARE(e.values.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
      QVERIFY(std::abs(e.times[i] - 0.1 * static_cast<double>(i)) < 1e-15);
      QVERIFY2(std::abs(e.values[i] - expected[i]) < 1e-14,
               qPrintable(QString::number(e.values[i])));
    }
  }
};

QTEST_APPLESS_MAIN(SampleGridTest)
#include "sample_grid_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
