// Parameter studies (core/study): grid order and values, seeded samples, measures against
// closed forms (the vertical rolling disk: φ = wphi·t, vx = r·wtheta·cos φ), failing runs as
// status rows, bad input, and the same rows in the same order for 1, 2 and 3 workers.
#include "core/study/sweep.h"

#include <QtTest>
#include <atomic>
#include <cmath>
#include <numbers>

#include "core/nh/errors.h"
#include "core/study/study_runner.h"

using namespace nh;
using namespace nh::study;

namespace {

StudySpec diskSpec() {
  StudySpec spec;
  spec.base.system = "rolling_disk";
  spec.base.tEnd = 4;
  spec.base.dtOut = 0.01;
  spec.grid = {parseGridAxis("wphi=0.5:1:2")};
  return spec;
}

// Every row's text, in the order the runner hands them out.
std::vector<std::string> rowsOf(const Study& study, int jobs) {
  std::vector<std::string> rows;
  long expected = 0;
  runStudy(study, 0, study.runCount(), jobs, [&](const RunResult& r) {
    if (r.index != expected++) throw std::logic_error("rows out of order");
    rows.push_back(study.rowText(r));
  });
  return rows;
}

RunResult runOne(const Study& study, long i) {
  StudyWorker worker(study);
  RunResult result;
  study.run(i, worker, result);
  return result;
}

}  // namespace

class SweepTest : public QObject {
  Q_OBJECT

 private slots:
  void gridOrderAndValues() {
    StudySpec spec = diskSpec();
    spec.grid = {parseGridAxis("m=1:2:2"), parseGridAxis("wtheta=0:1:3")};
    const Study study(spec);
    QCOMPARE(study.runCount(), 6L);
    QCOMPARE(study.columns(), (std::vector<std::string>{"m", "wtheta", "status"}));
    // The first axis varies slowest; the ends are exact.
    const double expected[6][2] = {{1, 0}, {1, 0.5}, {1, 1}, {2, 0}, {2, 0.5}, {2, 1}};
    for (long i = 0; i < 6; ++i) {
      double v[2];
      study.variedValues(i, v);
      QCOMPARE(v[0], expected[i][0]);
      QCOMPARE(v[1], expected[i][1]);
    }
    // N = 1: the one value FROM.
    spec.grid = {parseGridAxis("m=3:3:1")};
    double one = 0;
    Study(spec).variedValues(0, &one);
    QCOMPARE(one, 3.0);
    // The values reach the runs: the disk's energy ¼ m r² wtheta² + ⅛ m r² wphi² (+ ½ m v²,
    // v = r wtheta) with r = 0.3, wphi = 0.5 at run 5 (m = 2, wtheta = 1).
    spec = diskSpec();
    spec.grid = {parseGridAxis("m=1:2:2"), parseGridAxis("wtheta=0:1:3")};
    spec.measures = {"E=initial(energy)"};
    const RunResult r = runOne(Study(spec), 5);
    const double r2 = 0.09;
    QCOMPARE(r.status, std::string("ok"));
    QVERIFY(std::abs(r.measures[0] - (0.25 * 2 * r2 + 0.125 * 2 * r2 * 0.25 + 0.5 * 2 * r2)) <
            1e-12);
  }

  void sampleIsSeededPerRun() {
    StudySpec spec = diskSpec();
    spec.grid.clear();
    spec.sample = {parseSampleAxis("m=uniform:1:3"), parseSampleAxis("wphi=normal:0.5:0.1")};
    spec.count = 20000;
    spec.seed = 7;
    const Study a(spec);
    // Run i's values do not depend on which runs were drawn before, or by whom.
    double first[2], again[2];
    a.variedValues(12345, first);
    for (long i = 0; i < 100; ++i) {
      double scratch[2];
      a.variedValues(i, scratch);
    }
    a.variedValues(12345, again);
    QCOMPARE(first[0], again[0]);
    QCOMPARE(first[1], again[1]);
    // Another seed, other values.
    spec.seed = 8;
    double other[2];
    Study(spec).variedValues(12345, other);
    QVERIFY(other[0] != first[0] && other[1] != first[1]);
    // The laws: uniform in [1, 3) with mean 2 and variance 1/3; normal with mean 0.5 and
    // σ 0.1. 20000 draws: 5 standard errors (mean of U: 0.0041; of N: 0.0007; of the
    // sample σ of N: 0.0005) leave a correct generator a chance below 1e-6 of failing.
    double sum[2] = {0, 0}, sq[2] = {0, 0};
    for (long i = 0; i < spec.count; ++i) {
      double v[2];
      a.variedValues(i, v);
      QVERIFY(v[0] >= 1 && v[0] < 3);
      for (int k = 0; k < 2; ++k) {
        sum[k] += v[k];
        sq[k] += v[k] * v[k];
      }
    }
    const double n = static_cast<double>(spec.count);
    QVERIFY(std::abs(sum[0] / n - 2) < 5 * 0.0041);
    QVERIFY(std::abs(sq[0] / n - 4 - 1.0 / 3) < 5 * 0.016);  // σ(U²) ≈ 2.3
    QVERIFY(std::abs(sum[1] / n - 0.5) < 5 * 0.0007);
    QVERIFY(std::abs(std::sqrt(sq[1] / n - std::pow(sum[1] / n, 2)) - 0.1) < 5 * 0.0005);
  }

  void measuresAgainstClosedForms() {
    // The rolling disk: φ = wphi·t, vx = r·wtheta·cos(wphi·t) (r = 0.3, wtheta = 2).
    StudySpec spec = diskSpec();
    spec.measures = {"t_end=final(t)",
                     "mean_wtheta=mean(wtheta)",
                     "const=mean(2) + initial(1)",
                     "turn=first_crossing(vx)",
                     "never=first_crossing(wtheta)",
                     "mean_vx=mean(vx)",
                     "drift=max(energy) - min(energy)",
                     "phi_end=final(phi)",
                     "range=max(x) - min(x)"};
    const Study study(spec);
    for (long i = 0; i < study.runCount(); ++i) {
      const RunResult r = runOne(study, i);
      const double wphi = r.varied[0];
      QCOMPARE(r.status, std::string("ok"));
      QCOMPARE(r.measures[0], 4.0);  // final(t) = t_end
      // wtheta is constant up to the integrator's error (rtol 1e-10: 1e-11 seen); a constant
      // expression's time average is itself, to the round-off of the trapezoid sums.
      QVERIFY(std::abs(r.measures[1] - 2.0) < 1e-9);
      QVERIFY(std::abs(r.measures[2] - 3.0) < 1e-12);
      // vx = 0.6 cos(wphi t) first changes sign at π/(2 wphi) (π and π/2 here). The chord
      // between samples 0.01 apart misses the zero of cos by O(h³) there (cos'' = 0).
      QVERIFY2(std::abs(r.measures[3] - std::numbers::pi / (2 * wphi)) < 1e-6,
               qPrintable(QString::number(r.measures[3], 'g', 17)));
      QVERIFY(std::isnan(r.measures[4]));
      // Time average of 0.6 cos(wphi t) over [0, 4]: 0.6 sin(4 wphi)/(4 wphi). Trapezoids of
      // 0.01: relative error h² wphi²/12 < 1e-5.
      const double meanVx = 0.6 * std::sin(4 * wphi) / (4 * wphi);
      QVERIFY2(std::abs(r.measures[5] - meanVx) < 1e-5,
               qPrintable(QString::number(r.measures[5], 'g', 17)));
      // A conservative system: the energy changes only by the integrator's error.
      QVERIFY(r.measures[6] >= 0 && r.measures[6] < 1e-9);
      QVERIFY(std::abs(r.measures[7] - 4 * wphi) < 1e-8);
      // x = (0.6/wphi) sin(wphi t): for wphi = 1, t ≤ 4 passes the maximum at π/2 and
      // reaches sin 4 < 0: max − min = (0.6)(1 − sin 4) within the sampling (samples 0.01
      // apart miss a maximum by at most 0.6·(0.005)²/2).
      if (wphi == 1.0) QVERIFY(std::abs(r.measures[8] - 0.6 * (1 - std::sin(4.0))) < 1e-5);
    }
  }

  void failingRunsAreRows() {
    // inertia_ratio = 0 makes the ball non-regular: the first run fails, the others do not,
    // and the study goes on.
    StudySpec spec;
    spec.base.system = "ball_on_turntable";
    spec.base.tEnd = 0.5;
    spec.grid = {parseGridAxis("inertia_ratio=0:0.4:3")};
    spec.measures = {"final(x)"};
    const Study study(spec);
    std::vector<RunResult> rows;
    QCOMPARE(runStudy(study, 0, 3, 2, [&](const RunResult& r) { rows.push_back(r); }), 3L);
    QCOMPARE(rows.size(), size_t(3));
    QVERIFY2(rows[0].status.rfind("non-regular at t=", 0) == 0, rows[0].status.c_str());
    QVERIFY(std::isnan(rows[0].measures[0]));
    QCOMPARE(rows[1].status, std::string("ok"));
    QCOMPARE(rows[2].status, std::string("ok"));
    QVERIFY(std::isfinite(rows[2].measures[0]));
    // A step budget too small: "failed at t=…: …", one CSV field.
    spec.base.integrator.maxSteps = 3;
    const Study starved(spec);
    const RunResult r = runOne(starved, 2);
    QVERIFY2(r.status.rfind("failed at t=", 0) == 0, r.status.c_str());
    QVERIFY(r.status.find('\n') == std::string::npos);
    const std::string row = starved.rowText(r);
    QVERIFY2(row.find(",nan,") != std::string::npos, row.c_str());
  }

  void sameRowsForAnyNumberOfWorkers() {
    // Parameters vary (each worker tapes its own equations) and an initial value too; runs
    // differ in cost. The rows must be the same bytes in the same order.
    StudySpec spec;
    spec.base.system = "ball_on_turntable";
    spec.base.tEnd = 1;
    spec.base.dtOut = 0.05;
    spec.sample = {parseSampleAxis("Omega0=uniform:0.5:3"), parseSampleAxis("vx=normal:0:0.2")};
    spec.count = 40;
    spec.seed = 3;
    spec.measures = {"xmax=max(x)", "first_crossing(y - 0.01)", "mean(energy)"};
    const Study study(spec);
    const std::vector<std::string> one = rowsOf(study, 1);
    QCOMPARE(one.size(), size_t(40));
    QCOMPARE(rowsOf(study, 2), one);
    QCOMPARE(rowsOf(study, 3), one);
    // Independent of the runner: each run computed alone by a fresh worker.
    for (long i : {0L, 17L, 39L}) QCOMPARE(study.rowText(runOne(study, i)), one[size_t(i)]);
  }

  void cancelKeepsAPrefix() {
    StudySpec spec = diskSpec();
    spec.grid = {parseGridAxis("wphi=0.5:1:30")};
    const Study study(spec);
    std::atomic<bool> cancel{false};
    long expected = 0;
    const long written = runStudy(
        study, 0, study.runCount(), 2,
        [&](const RunResult& r) {
          QCOMPARE(r.index, expected);
          ++expected;
          if (expected == 5) cancel = true;
        },
        &cancel);
    QVERIFY(written >= 5 && written < 30);
    QCOMPARE(written, expected);
  }

  void badInput_data() {
    QTest::addColumn<QString>("what");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("unknown name") << "vary:nope=0:1:2"
                                  << "unknown name 'nope'";
    QTest::newRow("reversed") << "vary:m=2:1:3"
                              << "reversed";
    QTest::newRow("empty range") << "vary:m=1:1:3"
                                 << "empty";
    QTest::newRow("N < 1") << "vary:m=1:2:0"
                           << "N must be a whole number >= 1";
    QTest::newRow("N not whole") << "vary:m=1:2:2.5"
                                 << "N must be a whole number";
    QTest::newRow("not a number") << "vary:m=a:2:2"
                                  << "not a finite number";
    QTest::newRow("outside the range") << "vary:m=-1:2:2"
                                       << "'m'";
    QTest::newRow("twice") << "twice"
                           << "varied twice";
    QTest::newRow("both") << "both"
                          << "not both";
    QTest::newRow("too many") << "many"
                              << "--force";
    QTest::newRow("sample law") << "sample:m=gauss:0:1"
                                << "uniform:LO:HI";
    QTest::newRow("sample sigma") << "sample:m=normal:1:0"
                                  << "SIGMA must be > 0";
    QTest::newRow("unknown column") << "measure:max(lambda_9)"
                                    << "unknown name 'lambda_9'";
    QTest::newRow("column outside") << "measure:x + final(x)"
                                    << "read through a summary";
    QTest::newRow("nested") << "measure:max(final(x))"
                            << "a summary inside a summary";
    QTest::newRow("unclosed") << "measure:max(x"
                              << "is not closed";
    QTest::newRow("syntax") << "measure:final(x) +"
                            << "at character";
    QTest::newRow("unknown function") << "measure:final(foo(x))"
                                      << "unknown function 'foo'";
    QTest::newRow("bad name") << "measure:1a=final(x)"
                              << "the name before '='";
    QTest::newRow("same name") << "measure2:final(x)"
                               << "a second measure named";
  }
  void badInput() {
    QFETCH(QString, what);
    QFETCH(QString, fragment);
    const std::string text = what.section(':', 1).toStdString();
    QString message;
    try {
      StudySpec spec = diskSpec();
      if (what.startsWith("vary:")) spec.grid = {parseGridAxis(text)};
      if (what.startsWith("sample:")) spec.sample = {parseSampleAxis(text)};
      if (what.startsWith("sample:")) spec.grid.clear();
      if (what == "twice") spec.grid.push_back(parseGridAxis("wphi=0:1:2"));
      if (what == "both") spec.sample = {parseSampleAxis("m=uniform:1:2")};
      if (what == "many")
        spec.grid = {parseGridAxis("m=1:2:10000"), parseGridAxis("r=0.1:1:10000")};
      if (what.startsWith("measure:")) spec.measures = {text};
      if (what.startsWith("measure2:")) spec.measures = {text, text};
      Study study(spec);
      QFAIL("no error");
    } catch (const InputError& e) {
      message = QString::fromStdString(e.what());
    }
    QVERIFY2(message.contains(fragment), qPrintable(message));
    QVERIFY(!message.contains('\n'));
    // --force lifts the bound on the number of runs only.
    if (what == "many") {
      StudySpec spec = diskSpec();
      spec.grid = {parseGridAxis("m=1:2:10000"), parseGridAxis("r=0.1:1:10000")};
      spec.force = true;
      QCOMPARE(Study(spec).runCount(), 100'000'000L);
    }
  }
  void measureErrorsNameTheirPlace() {
    StudySpec spec = diskSpec();
    spec.measures = {"a=final(x) + max(nope)"};
    try {
      Study study(spec);
      QFAIL("no error");
    } catch (const InputError& e) {
      // 'nope' starts at character 18 of the definition.
      QVERIFY2(std::string(e.what()).find("at character 18") != std::string::npos, e.what());
    }
    spec.measures = {"final(x) + y"};
    try {
      Study study(spec);
      QFAIL("no error");
    } catch (const InputError& e) {
      QVERIFY2(std::string(e.what()).find("'y'") != std::string::npos &&
                   std::string(e.what()).find("at character 12") != std::string::npos,
               e.what());
    }
    // 20,000 levels inside a summary or around it: refused where the 101st level starts,
    // in a message that echoes only the definition's start.
    const std::string deepInside =
        "final(" + std::string(20000, '(') + "x" + std::string(20000, ')') + ")";
    const std::string deepAround = std::string(20000, '-') + "final(x)";
    for (const auto& [measure, at] : {std::pair<std::string, int>{deepInside, 107},
                                      std::pair<std::string, int>{deepAround, 101}}) {
      spec.measures = {measure};
      try {
        Study study(spec);
        QFAIL("no error");
      } catch (const InputError& e) {
        const std::string what = e.what();
        QVERIFY2(what.find("expression nested deeper than 100 levels") != std::string::npos &&
                     what.find("at character " + std::to_string(at)) != std::string::npos &&
                     what.size() < 300,
                 e.what());
      }
    }
  }

  void headerAndRows() {
    StudySpec spec = diskSpec();
    spec.measures = {"turn=first_crossing(vx)", "atan2(final(y), final(x))"};
    const Study study(spec);
    const std::string header = study.headerText("nhsim sweep rolling_disk --vary wphi=0.5:1:2");
    QVERIFY2(header.rfind("# nhsim sweep rolling_disk --vary wphi=0.5:1:2\n", 0) == 0,
             header.c_str());
    QVERIFY(header.find("# vary: wphi=0.5:1:2 (initial value)\n") != std::string::npos);
    QVERIFY(header.find("# measure: turn = first_crossing(vx)\n") != std::string::npos);
    // A column named by an expression with a comma is quoted.
    QVERIFY2(header.find("\nwphi,turn,\"atan2(final(y), final(x))\",status\n") != std::string::npos,
             header.c_str());
    QCOMPARE(Study::partialText(3, 10), std::string("# partial: 3 of 10 runs (interrupted)\n"));
  }

  // A fixed-step integrator's step is part of what the runs were computed with: the header
  // names it (an adaptive one's trial step is not).
  void headerNamesTheFixedStep() {
    StudySpec spec = diskSpec();
    spec.base.integrator.method = Integrator::Rk4;
    spec.base.integrator.step = 0.005;
    const std::string fixed = Study(spec).headerText("nhsim sweep rolling_disk");
    QVERIFY2(fixed.find("rk4, rtol 1e-10, atol 1e-12, step 0.005), t = 0") != std::string::npos,
             fixed.c_str());
    spec.base.integrator.method = Integrator::Dopri5;
    const std::string adaptive = Study(spec).headerText("nhsim sweep rolling_disk");
    QVERIFY2(adaptive.find("step") == std::string::npos, adaptive.c_str());
  }
};

QTEST_APPLESS_MAIN(SweepTest)
#include "sweep_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
