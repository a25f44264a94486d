// nhsim run and sweep on runs that cannot be trusted: non-finite values stop the run or are
// refused at the start (naming the column and the value beyond double precision), loose
// tolerances and rk4 steps beyond dt-out are refused (options and scenario files alike),
// the energy drift of a conservative system is reported once, long names are cut in
// messages, the same failure has the same name in run and sweep, linearize --sweep prints
// each warning once, and info leaves out the sections a model file does not have.
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include "nhsim_process.h"
#include "particle_model.h"

namespace {

using Result = nh::test::ProcessResult;

Result nhsim(const QStringList& args) { return nh::test::runNhsim(args); }

// A particle in a plane held to vy = 0, with extra Lagrangian terms `extra`.
QByteArray slider(const QByteArray& name, const QByteArray& extra) {
  return "format: nonholonomic-lab-system\nversion: 1\nname: " + name +
         "\nparameters:\n  - {name: m, default: 1.0, min: 0, min_exclusive: true}\n"
         "coordinates: [x, y]\nvelocities: [vx, vy]\nlagrangian: 0.5*m*(vx*vx + vy*vy)" +
         extra + "\nconstraints:\n  - vy\ninitial: {x: 0, y: 0, vx: 1, vy: 0}\nindependent: [vx]\n";
}

}  // namespace

class RunChecksCliTest : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;

  QString path(const QString& name) const { return dir_.filePath(name); }
  void writeFile(const QString& name, const QByteArray& text) {
    QFile f(path(name));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
  }
  // Exit `code`, one line on stderr "nhsim: error: …" containing every fragment; returns it.
  QString expectError(const QStringList& args, int code, const QStringList& fragments) {
    const Result r = nhsim(args);
    const QString context = args.join(' ').left(200) + " → exit " + QString::number(r.code) +
                            ", stderr: " + r.err.left(600);
    if (r.code != code) QTest::qFail(qPrintable(context), __FILE__, __LINE__);
    if (!r.err.startsWith("nhsim: error: ") || r.err.count('\n') != 1)
      QTest::qFail(qPrintable("not one error line: " + context), __FILE__, __LINE__);
    for (const QString& fragment : fragments)
      if (!r.err.contains(fragment))
        QTest::qFail(qPrintable("no '" + fragment + "' in " + context), __FILE__, __LINE__);
    return r.err;
  }

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  // Values that overflow at t = 0 (an energy of inf or NaN) are bad input: exit 2, no file,
  // the column and the culprit named.
  void nonFiniteStartIsRefused_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QStringList>("fragments");
    QTest::newRow("vx=1e200") << QStringList{"nh_particle", "--init", "vx=1e200"}
                              << QStringList{"energy = ", "vx = 1e+200"};
    QTest::newRow("m=1.7e308") << QStringList{"nh_particle", "--set", "m=1.7e308"}
                               << QStringList{"energy = inf", "m = 1.7e+308"};
    QTest::newRow("m=1e-310 (inverse overflows)") << QStringList{"nh_particle", "--set", "m=1e-310"}
                                                  << QStringList{"beyond double precision", "m = "};
    QTest::newRow("r=1e-160 (inertia underflows)")
        << QStringList{"ball_on_table", "--set", "r=1e-160"} << QStringList{"r = 1e-160"};
  }
  void nonFiniteStartIsRefused() {
    QFETCH(QStringList, args);
    QFETCH(QStringList, fragments);
    const QString out = path("start.csv");
    QFile::remove(out);
    const QString err =
        expectError(QStringList{"run"} + args + QStringList{"--out", out}, 2, fragments);
    QVERIFY2(!err.contains("condition number 1)"), qPrintable(err));
    QVERIFY(!QFileInfo::exists(out));
  }

  void nanFromAFormulaIsRefused() {
    writeFile("nanl.yaml", slider("nanl", " + log(-1)*0"));
    expectError({"run", path("nanl.yaml"), "--out", path("nan.csv")}, 2,
                {"the start of 'nanl' is not finite: energy = "});
    QVERIFY(!QFileInfo::exists(path("nan.csv")));
  }

  // Past the start: exit 3 naming the variable, the rows before kept; a mass of 1e-308 that
  // ends in a step-size underflow names the mass.
  void nonFiniteLaterStopsTheRun() {
    writeFile("sqrtl.yaml", slider("sqrtl", " + 1e-300*sqrt(1 - x)"));
    const QString err =
        expectError({"run", path("sqrtl.yaml"), "--t-end", "2", "--out", path("later.csv")}, 3,
                    {"blew up at t = ", "x "});
    QVERIFY2(!err.contains("nan,") && !err.contains("-nan"), qPrintable(err));
    QFile f(path("later.csv"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray rows = f.readAll();
    QVERIFY(rows.count('\n') > 2);
    QVERIFY2(!rows.contains("nan"), rows.right(200).constData());
    expectError({"run", "nh_particle", "--set", "m=1e-308", "--out", path("tiny.csv")}, 3,
                {"blew up", "m = 1e-308"});
  }

  // In a sweep such a run is a blow-up, never "ok"; the bicycle falling over is a singular
  // point as in run.
  void sweepStatusesNameTheFailure() {
    const Result r = nhsim({"sweep", "nh_particle", "--vary", "vx=1:1e200:2", "--measure",
                            "final(x)", "--t-end", "1", "--quiet"});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("\n1,") && r.out.contains(",ok\n"), qPrintable(r.out));
    QVERIFY2(r.out.contains("\n1e+200,nan,blow-up at t=0\n"), qPrintable(r.out));
    const Result bike = nhsim({"sweep", "whipple_bicycle", "--init", "lean_rate=0.5", "--vary",
                               "v=2:2:1", "--measure", "final(v)", "--t-end", "5", "--quiet"});
    QCOMPARE(bike.code, 0);
    QVERIFY2(bike.out.contains(",singular point at t=1.98"), qPrintable(bike.out));
    const Result run = nhsim({"run", "whipple_bicycle", "--init", "v=2", "--init", "lean_rate=0.5",
                              "--t-end", "5", "--out", path("bike.csv")});
    QCOMPARE(run.code, 3);
    QVERIFY2(run.err.contains("reached a singular point at t = 1.98"), qPrintable(run.err));
  }

  // Tolerances that let the error reach the solution's size, and an rk4 step cut to dt-out,
  // are refused with the reason, from the options and from a scenario file.
  void meaninglessTolerancesAndStepsAreRefused_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("rtol 1") << QStringList{"--rtol", "1", "--atol", "1"}
                            << "rtol 1 allows errors of 10 %";
    QTest::newRow("rtol 0.1") << QStringList{"--rtol", "0.1"} << "give less than 0.1";
    QTest::newRow("rtol 10") << QStringList{"--rtol", "10"} << "rtol 10 allows";
    QTest::newRow("atol 1e10") << QStringList{"--atol", "1e10"} << "give less than 1";
    QTest::newRow("rk4 step 100") << QStringList{"--integrator", "rk4", "--step", "100"}
                                  << "rk4 step 100 is larger than dt-out 0.01";
  }
  void meaninglessTolerancesAndStepsAreRefused() {
    QFETCH(QStringList, args);
    QFETCH(QString, fragment);
    expectError(QStringList{"run", "central_force", "--out", path("tol.csv")} + args, 2,
                {fragment});
    QVERIFY(!QFileInfo::exists(path("tol.csv")));
    const Result r = nhsim(QStringList{"sweep", "central_force", "--vary", "k=1:2:2", "--measure",
                                       "final(r)", "--out", path("tol.csv")} +
                           args);
    QCOMPARE(r.code, 2);
    QVERIFY(!QFileInfo::exists(path("tol.csv")));
  }
  void scenarioFilesAreCheckedTheSameWay() {
    writeFile("loose.json",
              "{\"format\": \"nonholonomic-lab-scenario\", \"version\": 2, \"system\": "
              "\"central_force\", \"integrator\": {\"rtol\": 1, \"atol\": 1}}");
    expectError({"run", path("loose.json")}, 2, {"loose.json", "rtol 1 allows errors"});
    writeFile("step.json",
              "{\"format\": \"nonholonomic-lab-scenario\", \"version\": 2, \"system\": "
              "\"central_force\", \"integrator\": {\"method\": \"rk4\", \"step\": 100}}");
    expectError({"run", path("step.json")}, 2, {"step.json", "larger than dt-out"});
  }

  // The Kepler orbit conserves energy: at loose tolerances it drifts and says so once; at the
  // defaults it does not; a driven turntable changes energy by physics and is not warned of.
  void energyDriftIsWarnedOnce() {
    const Result loose = nhsim({"run", "central_force", "--rtol", "0.05", "--atol", "0.01",
                                "--t-end", "20", "--out", path("drift.csv"), "--quiet"});
    QCOMPARE(loose.code, 0);
    QVERIFY2(loose.err.startsWith("nhsim: warning: energy changed by ") &&
                 loose.err.contains("tighten the tolerance") && loose.err.count('\n') == 1,
             qPrintable(loose.err));
    const Result tight =
        nhsim({"run", "central_force", "--t-end", "20", "--out", path("drift.csv"), "--quiet"});
    QCOMPARE(tight.code, 0);
    QCOMPARE(tight.err, QString());
    const Result driven = nhsim({"run", "ball_on_turntable", "--set", "Omega_amp=0.5", "--t-end",
                                 "10", "--out", path("drift.csv"), "--quiet"});
    QCOMPARE(driven.code, 0);
    QCOMPARE(driven.err, QString());
  }

  // A sweep says it once for all its runs.
  void sweepEnergyDriftIsWarnedOnce() {
    const QStringList sweep{"sweep",    "central_force", "--vary", "k=1:2:6", "--measure",
                            "final(r)", "--t-end",       "20",     "--quiet"};
    const Result loose = nhsim(sweep + QStringList{"--rtol", "0.05", "--atol", "0.01"});
    QCOMPARE(loose.code, 0);
    QVERIFY2(loose.err.startsWith("nhsim: warning: ") &&
                 loose.err.contains(" of 6 runs changed their energy by more than 1 %") &&
                 loose.err.count('\n') == 1,
             qPrintable(loose.err));
    const Result tight = nhsim(sweep);
    QCOMPARE(tight.code, 0);
    QCOMPARE(tight.err, QString());
  }

  // A vakonomic particle held to the cone vz² = vx² + vy² under gravity reaches the apex,
  // where the constraint's gradient vanishes: it stalls there while μ and λ grow to 1e8 and
  // more. The rows are right (the constraint holds), so the run ends normally with one
  // warning naming the multipliers; the particle without the cone gets none.
  void constraintLosingRankIsWarnedOf() {
    writeFile("cone.yaml", QByteArray::fromStdString(nh::test::kConeModel));
    const Result r = nhsim({"run", path("cone.yaml"), "--dynamics", "vakonomic", "--t-end", "3",
                            "--out", path("cone.csv"), "--quiet"});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.err.startsWith("nhsim: warning: the multipliers grew to |lambda| = ") &&
                 r.err.contains("from t = 0.2") && r.err.contains("lose rank") &&
                 r.err.count('\n') == 1,
             qPrintable(r.err));
    const Result plain = nhsim({"run", "nh_particle", "--dynamics", "vakonomic", "--init", "mu=0.3",
                                "--t-end", "10", "--out", path("cone.csv"), "--quiet"});
    QCOMPARE(plain.code, 0);
    QCOMPARE(plain.err, QString());
  }

  // A 5,000-character system name is cut in every message (here the start's, which the
  // command itself writes; the core's messages cut it too).
  void longNamesAreCut() {
    writeFile("long.yaml", slider(QByteArray(5000, 'n'), " + log(-1)*0"));
    const QString err = expectError({"run", path("long.yaml"), "--out", path("long.csv")}, 2,
                                    {"is not finite: energy = ", "nnn…'"});
    QVERIFY2(err.size() < 400, qPrintable(QString::number(err.size())));
    writeFile("long2.yaml", slider(QByteArray(5000, 'n'), ""));
    const QString singular =
        expectError({"run", path("long2.yaml"), "--set", "m=1e-310", "--out", path("long.csv")}, 2,
                    {"beyond double precision"});
    QVERIFY2(singular.size() < 400, qPrintable(QString::number(singular.size())));
  }

  // An output that cannot be created is bad input in run as in sweep.
  void unwritableOutIsExitTwoEverywhere() {
    const Result run = nhsim({"run", "nh_particle", "--t-end", "0.1", "--out", "/proc/x.csv"});
    QCOMPARE(run.code, 2);
    const Result sweep = nhsim({"sweep", "nh_particle", "--vary", "m=1:2:2", "--measure",
                                "final(x)", "--t-end", "0.1", "--out", "/proc/x.csv"});
    QCOMPARE(sweep.code, 2);
  }

  void linearizeSweepWarnsOnce() {
    const Result r = nhsim({"linearize", "nh_particle", "--sweep", "m=1:2:2000"});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY2(r.err.contains("not an equilibrium") &&
                 r.err.contains("(and at 1999 more points of the sweep)"),
             qPrintable(r.err.left(400)));
  }

  void infoLeavesOutEmptySections() {
    writeFile("bare.yaml", slider("bare", ""));
    const Result r = nhsim({"info", path("bare.yaml")});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.startsWith("bare\n\n"), qPrintable(r.out));
    QVERIFY2(!r.out.contains("Source:") && !r.out.contains("\n\n\n"), qPrintable(r.out));
    const Result full = nhsim({"info", "nh_particle"});
    QVERIFY(full.out.contains("Source: ") && full.out.contains("nh_particle — Particle"));
  }
};

QTEST_GUILESS_MAIN(RunChecksCliTest)
#include "run_checks_cli_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
