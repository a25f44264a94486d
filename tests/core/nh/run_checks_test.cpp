// The checks on a run's samples (core/nh/run_checks.h): a non-finite entry of an output row
// named, the parameter or initial value beyond double precision named, and the energy drift
// of a conservative system reported while a system that exchanges energy is left alone.
#include "core/nh/run_checks.h"

#include <QRegularExpression>
#include <QtTest>
#include <cmath>
#include <limits>

#include "core/model/catalogue.h"
#include "core/model/model_file.h"
#include "core/nh/errors.h"
#include "core/nh/scenario.h"

using namespace nh;

namespace {

// Runs `system` to tEnd with the given tolerances, feeding every sample to a watch.
EnergyDriftWatch watchRun(const char* system, double rtol, double atol, double tEnd,
                          const std::map<std::string, double>& parameters = {}) {
  IntegratorOptions o;
  o.rtol = rtol;
  o.atol = atol;
  const auto model = findSystem(system);
  Simulation sim(model, DynamicsKind::Nonholonomic, Formulation::Multipliers, o);
  sim.setParameters(resolveParameters(*model, parameters));
  sim.setState(0, initialState(sim.equations(), 0, {}));
  EnergyDriftWatch watch;
  sim.advance(tEnd, 0.01, [&](double t, const double* x) {
    watch.add(sim.equations(), sim.workspace(), t, x,
              sim.equations().energy(sim.workspace(), t, x));
  });
  return watch;
}

}  // namespace

class RunChecksTest : public QObject {
  Q_OBJECT
 private slots:
  void nonFiniteEntryNamesTheColumn() {
    const std::vector<std::string> columns{"t", "x", "energy", "lambda_1"};
    QCOMPARE(nonFiniteEntry(columns, {0, 1, 2, 3}), std::string());
    QCOMPARE(nonFiniteEntry(columns, {0, 1, std::numeric_limits<double>::infinity(), NAN}),
             std::string("energy = inf"));
    QCOMPARE(nonFiniteEntry(columns, {0, 1, 2, -NAN}).rfind("lambda_1 = ", 0), 0u);
    try {
      checkFiniteRow("nh_particle", columns, {0.5, 1, NAN, 0}, 0.5);
      QFAIL("a row with a NaN energy passed");
    } catch (const IntegrationError& e) {
      QCOMPARE(e.time(), 0.5);
      QVERIFY2(QString(e.what()).contains("blew up at t = 0.5: energy = "), e.what());
    }
    // A long system name is echoed cut.
    try {
      checkFiniteRow(std::string(5000, 'n'), columns, {0, NAN, 0, 0}, 0);
      QFAIL("a row with a NaN state passed");
    } catch (const IntegrationError& e) {
      QVERIFY2(std::string(e.what()).size() < 400, e.what());
    }
  }

  // The core's messages echo a system's name cut to 60 characters (a model may be named by a
  // 5,000-character string): the parameter and initial-state errors, the start's.
  void messagesCutLongSystemNames() {
    const std::string name(5000, 'n');
    const auto model = model::loadModelText(
        "format: nonholonomic-lab-system\nversion: 1\nname: " + name +
            "\nparameters:\n  - {name: m, default: 1.0, min: 0, min_exclusive: true}\n"
            "coordinates: [x, y]\nvelocities: [vx, vy]\nlagrangian: 0.5*m*(vx*vx + vy*vy)\n"
            "constraints:\n  - vy\ninitial: {x: 0, y: 0, vx: 1, vy: 0}\nindependent: [vx]\n",
        "long.yaml");
    auto messageOf = [](auto&& call) -> std::string {
      try {
        call();
      } catch (const Error& e) {
        return e.what();
      }
      return "accepted";
    };
    const std::string unknown = messageOf([&] { resolveParameters(*model, {{"k", 1.0}}); });
    QVERIFY2(unknown.find("unknown parameter 'k'") == 0 && unknown.size() < 300, unknown.c_str());
    const EquationsOfMotion eq(model, DynamicsKind::Nonholonomic);
    const std::string state = messageOf([&] { initialState(eq, 0, {{"w", 1.0}}); });
    QVERIFY2(state.find("unknown state variable 'w'") == 0 && state.size() < 300, state.c_str());
    const EquationsOfMotion tiny(model, DynamicsKind::Nonholonomic, Formulation::Multipliers,
                                 {1e-310});
    EquationsWorkspace ws;
    std::vector<double> x{0, 0, 1, 0}, dx(4);
    const std::string singular = messageOf([&] { tiny.rhs(ws, 0, x.data(), dx.data()); });
    QVERIFY2(singular.find("beyond double precision") != std::string::npos && singular.size() < 300,
             singular.c_str());
  }

  void extremeValueHintNamesTheWorstValue() {
    QCOMPARE(extremeValueHint({{"m", 1.0}, {"r", 1e-90}, {"v", 0.0}}), std::string());
    const std::string hint = extremeValueHint({{"m", 1e-310}, {"r", 1e-160}, {"x", 1e120}});
    QVERIFY2(hint.rfind("m = ", 0) == 0 && hint.find("other units") != std::string::npos,
             hint.c_str());
    QVERIFY(extremeValueHint({{"vx", 1e200}}).rfind("vx = 1e+200", 0) == 0);
  }

  // A Kepler orbit conserves energy: loose tolerances that change it by tens of percent are
  // reported, the default tolerances are not.
  void driftOfAConservativeSystemIsReported() {
    const EnergyDriftWatch loose = watchRun("central_force", 0.05, 0.01, 20);
    QVERIFY(loose.conservative());
    QVERIFY2(loose.relativeChange() > 0.1, qPrintable(QString::number(loose.relativeChange())));
    const QString warning = QString::fromStdString(loose.warning());
    QVERIFY2(warning.startsWith("energy changed by ") && warning.contains("tighten the tolerance"),
             qPrintable(warning));
    // Signed, and the energies with four digits, not seventeen.
    QVERIFY2(QRegularExpression("^energy changed by [+−][0-9.]+ % \\(from -?[0-9.e+-]+ to "
                                "-?[0-9.e+-]+\\) ")
                 .match(warning)
                 .hasMatch(),
             qPrintable(warning));
    QVERIFY2(!QRegularExpression("[0-9]{6}").match(warning).hasMatch(), qPrintable(warning));
    const EnergyDriftWatch tight = watchRun("central_force", 1e-10, 1e-12, 20);
    QVERIFY(tight.conservative());
    QVERIFY(tight.relativeChange() < 1e-6);
    QCOMPARE(tight.warning(), std::string());
  }

  // A turntable whose rate oscillates feeds energy in and out: its energy changes by far
  // more than 1 %, and that is physics, not drift.
  void aSystemThatExchangesEnergyIsNotReported() {
    const EnergyDriftWatch driven =
        watchRun("ball_on_turntable", 1e-10, 1e-12, 10, {{"Omega_amp", 0.5}});
    QVERIFY(!driven.conservative());
    QCOMPARE(driven.warning(), std::string());
    const EnergyDriftWatch governor = watchRun("constant_speed_particle", 1e-10, 1e-12, 3);
    QVERIFY(!governor.conservative());
    QCOMPARE(governor.warning(), std::string());
  }
};

QTEST_GUILESS_MAIN(RunChecksTest)
#include "run_checks_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
