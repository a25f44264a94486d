// Numerics that end and say why: unstable vakonomic motions stop
// early with the growth rate, limits agree with the step budget, tolerances below machine
// precision are refused as input, extreme but valid parameters run or stop with one line.
// Every case is bounded by steps, not by wall-clock time.
#include <QtTest>
#include <cmath>

#include "core/model/catalogue.h"
#include "core/nh/errors.h"
#include "core/nh/scenario.h"

using namespace nh;

namespace {

struct Outcome {
  bool ok = true;
  std::string message;
  long steps = 0;
  long rows = 0;
  double tEnd = 0;  // the last sample's time
};

// A run as nhsim does it (validate, parameters, initial state, advance).
Outcome runScenario(const Scenario& s) {
  Outcome out;
  const auto system = findSystem(s.system);
  s.validate();
  Simulation sim(system, s.dynamics, s.formulation, s.integrator);
  sim.setParameters(resolveParameters(*system, s.parameters));
  sim.setState(0, initialState(sim.equations(), 0, s.initial));
  try {
    sim.advance(s.tEnd, s.dtOut, [&](double t, const double*) {
      ++out.rows;
      out.tEnd = t;
    });
  } catch (const Error& e) {
    out.ok = false;
    out.message = e.what();
  }
  out.steps = sim.stepsTaken();
  return out;
}

Scenario vakonomicBall() {
  Scenario s;
  s.system = "ball_on_turntable";
  s.dynamics = DynamicsKind::Vakonomic;
  return s;
}

}  // namespace

class NumericsRobustnessTest : public QObject {
  Q_OBJECT
 private slots:
  // The default vakonomic ball cannot reach t = 60 (its multipliers grow like
  // e^{t/τ} with τ ≈ 1.1 s, the steps per second do not fall). It stops as soon as the step
  // budget is seen not to reach t-end, naming τ, before the budget is spent.
  void unstableVakonomicBallStopsEarlyWithGrowthRate() {
    Scenario s = vakonomicBall();
    s.tEnd = 60;
    s.dtOut = 0.5;
    s.integrator.maxSteps = 3'000'000;  // (the default budget ends it the same way, later)
    const Outcome o = runScenario(s);
    qInfo("%ld steps, stopped at t = %g: %s", o.steps, o.tEnd, o.message.c_str());
    QVERIFY(!o.ok);
    QVERIFY2(QString::fromStdString(o.message).contains("grow like e^{t/τ} with τ = "),
             o.message.c_str());
    QVERIFY2(QString::fromStdString(o.message).contains("unstable"), o.message.c_str());
    QVERIFY2(o.steps < 3'000'000, qPrintable(QString::number(o.steps)));
  }

  // A fast table in vakonomic mode ends within a bounded number of steps with a
  // message saying what to change.
  void fastVakonomicTableEndsBounded() {
    Scenario s = vakonomicBall();
    s.parameters = {{"Omega0", 100.0}};
    s.tEnd = 5;
    s.dtOut = 0.01;
    const Outcome o = runScenario(s);
    qInfo("%ld steps, stopped at t = %g: %s", o.steps, o.tEnd, o.message.c_str());
    QVERIFY(!o.ok);
    QVERIFY2(QString::fromStdString(o.message).contains("shorten t-end"), o.message.c_str());
    QVERIFY2(o.steps < 2'000'000, qPrintable(QString::number(o.steps)));
  }

  // A stable vakonomic run is not stopped by the growth watch: the particle's μ is constant.
  void stableVakonomicRunsThrough() {
    Scenario s;
    s.system = "nh_particle";
    s.dynamics = DynamicsKind::Vakonomic;
    s.tEnd = 20;
    const Outcome o = runScenario(s);
    QVERIFY2(o.ok, o.message.c_str());
    QCOMPARE(o.tEnd, 20.0);
  }

  // A tiny moment of inertia is regular (both formulations run; Gibbs–Appell
  // refused it); none at all is not (both refuse).
  void formulationsAgreeOnRegularity() {
    for (const Formulation f : {Formulation::Multipliers, Formulation::GibbsAppell}) {
      Scenario s;
      s.parameters = {{"inertia_ratio", 1e-15}};
      s.formulation = f;
      s.tEnd = 1;
      const Outcome tiny = runScenario(s);
      QVERIFY2(tiny.ok, tiny.message.c_str());
      s.parameters = {{"inertia_ratio", 0.0}};
      bool refused = false;
      try {
        refused = !runScenario(s).ok;
      } catch (const Error&) {
        refused = true;
      }
      QVERIFY(refused);
    }
  }

  // The rk4 pre-check and the step budget agree: a run that needs more steps is
  // refused before any work, naming --max-steps; a raised budget lets it through.
  void rk4StepBudgetRefusedUpFront() {
    Scenario s;
    s.system = "rigid_body";
    s.integrator.method = Integrator::Rk4;
    s.tEnd = 1e5;
    s.dtOut = 1;
    try {
      s.validate();
      QFAIL("rk4 with 10^8 steps accepted under a budget of 2·10^7");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("--max-steps"), e.what());
    }
    s.integrator.maxSteps = 200'000'000;
    s.validate();
    // And the budget is what the run obeys: a small one stops with the same option named.
    s.tEnd = 1000;
    s.integrator.maxSteps = 100;
    s.integrator.method = Integrator::Dopri5;
    s.integrator.rtol = 1e-12;
    const Outcome o = runScenario(s);
    QVERIFY(!o.ok);
    QVERIFY2(QString::fromStdString(o.message).contains("--max-steps"), o.message.c_str());
  }

  // Tolerances that mean nothing are bad input, not a blow-up.
  void meaninglessTolerancesRefused() {
    IntegratorOptions o;
    o.atol = 1e-300;
    QVERIFY_THROWS_EXCEPTION(InputError, o.validate());
    o.atol = 1e-12;
    o.rtol = 1e-17;
    try {
      o.validate();
      QFAIL("rtol 1e-17 accepted");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("machine precision"), e.what());
    }
    o.rtol = 1e-14;
    o.validate();
  }

  // No hidden state limit: huge masses give huge multipliers, which are finite.
  void hugeMassVakonomicRuns() {
    for (const DynamicsKind d : {DynamicsKind::Nonholonomic, DynamicsKind::Vakonomic}) {
      Scenario s;
      s.system = "nh_particle";
      s.dynamics = d;
      s.parameters = {{"m", 1e300}};
      s.initial = {{"mu", 1e299}};
      if (d == DynamicsKind::Nonholonomic) s.initial.clear();
      s.tEnd = 2;
      const Outcome o = runScenario(s);
      QVERIFY2(o.ok, o.message.c_str());
    }
    Scenario s;
    s.system = "nh_particle";
    s.parameters = {{"m", 1e-300}};
    QVERIFY2(runScenario(s).ok, runScenario(s).message.c_str());
  }

  // A coordinate at the edge of the doubles runs as long as it stays finite, and an
  // overflow names the entry (not the velocities).
  void hugeCoordinateRunsOrBlamesIt() {
    Scenario s;
    s.system = "nh_particle";
    s.initial = {{"x", 1e308}};
    s.tEnd = 1;
    const Outcome o = runScenario(s);
    QVERIFY2(o.ok, o.message.c_str());
    s.initial = {{"x", 1.7976931348623157e308}, {"vx", 1e300}};
    const Outcome over = runScenario(s);
    QVERIFY(!over.ok);
    QVERIFY2(QString::fromStdString(over.message).contains("x is no longer finite"),
             over.message.c_str());
  }

  // A long run at a coarse grid works (t-end 1e5 at dt-out 1, adaptive).
  void longSpanCoarseGrid() {
    Scenario s;
    s.system = "nh_particle";
    s.tEnd = 1e5;
    s.dtOut = 1;
    const Outcome o = runScenario(s);
    QVERIFY2(o.ok, o.message.c_str());
    QCOMPARE(o.rows, 100001L);
    QCOMPARE(o.tEnd, 1e5);
  }

  // --t-end 1e-14 --dt-out 1e-17: 1001 rows, all at or before t-end, for rk4.
  void tinySpanFineGrid() {
    Scenario s;
    s.system = "rigid_body";
    s.integrator.method = Integrator::Rk4;
    s.tEnd = 1e-14;
    s.dtOut = 1e-17;
    const auto system = findSystem(s.system);
    s.validate();
    Simulation sim(system, s.dynamics, s.formulation, s.integrator);
    sim.setState(0, initialState(sim.equations(), 0, {}));
    long rows = 0;
    bool late = false;
    sim.advance(s.tEnd, s.dtOut, [&](double t, const double*) {
      late = late || t > s.tEnd;
      if (++rows > 2000) throw std::runtime_error("the run does not end");
    });
    QCOMPARE(rows, 1001L);
    QVERIFY(!late);
  }
};

QTEST_APPLESS_MAIN(NumericsRobustnessTest)
#include "numerics_robustness_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
