// The checks on a run's samples (core/nh/run_checks.h): a non-finite entry of an output row
// named, the parameter or initial value beyond double precision named, the energy drift of a
// conservative system reported while a system that exchanges energy is left alone, and a
// reference frame that leaves the constraints along a run (frame_residual.h, the loader's
// test) stopping a discrete-gradient run there with the rows before kept.
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

// A particle held to vy = x vx + 1 whose reference frame `frame` is given for vy. With
// Γ_vy = 1 + 10 (y − 0.5 + |y − 0.5|)³ the frame is right for y ≤ 0.5 only: GiNaC cannot
// decide |·| and the loader's sample points stay below y = 0.05, so it loads; the particle
// rises through y = 0.5 at about t = 0.45.
std::shared_ptr<const model::FormulaSystem> frameModel(const std::string& frame) {
  return model::loadModelText(
      "format: nonholonomic-lab-system\nversion: 1\nname: frame_near_start\n"
      "coordinates: [x, y]\nvelocities: [vx, vy]\n"
      "lagrangian: 0.5*(vx^2 + vy^2) - 0.5*x^2\n"
      "constraints:\n  - vy - x*vx - 1\n"
      "reference_frame: {vy: \"" +
          frame +
          "\"}\n"
          "initial: {x: 0.1, vx: 1}\nindependent: [vx]\n",
      "frame_near_start.yaml");
}
const char* const kFrameNearStart = "1 + 10*(y - 0.5 + abs(y - 0.5))^3";

// The samples of a run of `system` with `method` to t = 2 (step 1e-3, a row every 0.01 s).
struct FrameRun {
  std::vector<std::pair<double, double>> rows;  // (t, y)
  std::string error;                            // "" when it ran through
  double errorTime = -1;
};
FrameRun runFrameModel(const std::shared_ptr<const model::FormulaSystem>& system,
                       Integrator method) {
  IntegratorOptions o;
  o.method = method;
  o.step = 1e-3;
  Simulation sim(system, DynamicsKind::Nonholonomic, Formulation::Multipliers, o);
  sim.setState(0, initialState(sim.equations(), 0, {}));
  FrameRun run;
  try {
    sim.advance(2, 0.01, [&](double t, const double* x) { run.rows.emplace_back(t, x[1]); });
  } catch (const IntegrationError& e) {
    run.error = e.what();
    run.errorTime = e.time();
  }
  return run;
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

  // At a state the frame is checked as the loader checks it at its sample points: where Γ
  // satisfies the constraints nothing is said; where it does not, the time, the frame and the
  // constraint are named.
  void aReferenceFrameIsCheckedAtAState() {
    const auto system = frameModel(kFrameNearStart);
    const EquationsOfMotion equations(system, DynamicsKind::Nonholonomic);
    std::vector<double> x{0.1, 0.3, 1.0, 1.1};  // (x, y, vx, vy), y below 0.5
    checkReferenceFrame(equations, 0.2, x.data());
    x[1] = 1.0;  // Γ_vy = 1 + 10·1³ = 11 there: Φ(t, q, Γ) = 10
    try {
      checkReferenceFrame(equations, 0.75, x.data());
      QFAIL("a frame off the constraints passed");
    } catch (const IntegrationError& e) {
      QCOMPARE(e.time(), 0.75);
      QCOMPARE(std::string(e.what()),
               std::string("the reference_frame of 'frame_near_start' no longer satisfies the "
                           "constraints at t = 0.75: Φ(t, q, Γ) = 10 in constraints[1] (Γ must be "
                           "a velocity the constraints allow at every t and q, not only near the "
                           "initial state: the motion stepped relative to it is another one from "
                           "here)"));
    }
    // Without a reference frame (affine constraints, none declared) there is nothing to check.
    const auto none = model::loadModelText(
        "format: nonholonomic-lab-system\nversion: 1\nname: no_frame\n"
        "coordinates: [x, y]\nvelocities: [vx, vy]\nlagrangian: 0.5*(vx^2 + vy^2)\n"
        "constraints:\n  - vy - x*vx - 1\ninitial: {vx: 1}\nindependent: [vx]\n",
        "no_frame.yaml");
    QVERIFY(!none->hasReferenceFrame());
    checkReferenceFrame(EquationsOfMotion(none, DynamicsKind::Nonholonomic), 0.75, x.data());
  }

  // discrete-gradient steps the motion relative to the frame: past y = 0.5 it would compute
  // another motion with no word said. The run stops at the first sample there, naming t and
  // the frame, with the rows before it delivered; a frame right everywhere runs through, and
  // so does an integrator that does not step relative to it.
  void aWrongReferenceFrameStopsADiscreteGradientRun() {
    const FrameRun wrong = runFrameModel(frameModel(kFrameNearStart), Integrator::DiscreteGradient);
    QVERIFY2(wrong.error.find("the reference_frame of 'frame_near_start' no longer satisfies "
                              "the constraints at t = ") == 0,
             wrong.error.c_str());
    QVERIFY2(wrong.error.find("in constraints[1]") != std::string::npos, wrong.error.c_str());
    QVERIFY2(wrong.errorTime > 0.3 && wrong.errorTime < 0.8,
             qPrintable(QString::number(wrong.errorTime)));
    QVERIFY(wrong.rows.size() > 30);
    QCOMPARE(wrong.rows.front().first, 0.0);
    QVERIFY(std::abs(wrong.rows.back().first + 0.01 - wrong.errorTime) < 1e-9);
    for (const auto& [t, y] : wrong.rows) QVERIFY2(y < 0.51, qPrintable(QString::number(t)));

    const FrameRun right = runFrameModel(frameModel("1"), Integrator::DiscreteGradient);
    QVERIFY2(right.error.empty(), right.error.c_str());
    QCOMPARE(right.rows.back().first, 2.0);
    QVERIFY(right.rows.back().second > 1.5);  // well past y = 0.5

    const FrameRun multipliers = runFrameModel(frameModel(kFrameNearStart), Integrator::Dop853);
    QVERIFY2(multipliers.error.empty(), multipliers.error.c_str());
    QCOMPARE(multipliers.rows.back().first, 2.0);
  }
};

QTEST_GUILESS_MAIN(RunChecksTest)
#include "run_checks_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
