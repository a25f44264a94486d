// nh-rattle (core/nh/rattle.cpp) through Simulation: its global error falls like h² against
// DOP853 at 1e-13, N steps forward and N back with reversed velocities end at the start,
// the constraints (velocity, holonomic, quaternion norm) hold to round-off after every step
// without drift control, the energy error does not grow over 10⁵ steps (sleigh, sphere,
// pendulum, Suslov, ball on the table, rattleback), and what it cannot step is refused in
// one line.
#include <QtTest>
#include <cmath>
#include <string>
#include <vector>

#include "core/model/catalogue.h"
#include "core/nh/errors.h"
#include "core/nh/scenario.h"
#include "core/nh/simulation.h"
#include "tests/support/fixed_step_properties.h"

using namespace nh;
using nh::test::quaternionResidual;

namespace {

IntegratorOptions rattleOptions(double step, bool projection = true) {
  IntegratorOptions options;
  options.method = Integrator::NhRattle;
  options.step = step;
  options.projection = projection;
  return options;
}

}  // namespace

class RattleTest : public QObject {
  Q_OBJECT
 private slots:
  // Global error at t = 2 with steps h, h/2, h/4 against DOP853 at 1e-13: ratios near 4.
  void secondOrder_data() {
    QTest::addColumn<QString>("system");
    QTest::newRow("sleigh") << "chaplygin_sleigh";
    QTest::newRow("ball on the turntable") << "ball_on_turntable";
  }
  void secondOrder() {
    QFETCH(QString, system);
    const auto errors = test::globalErrors(system.toStdString(), Integrator::NhRattle, 2, 0.02);
    for (int i = 0; i < 2; ++i) {
      const double ratio = errors[i] / errors[i + 1];
      QVERIFY2(ratio > 3.6 && ratio < 4.4,
               qPrintable(QString("errors %1 %2 %3").arg(errors[0]).arg(errors[1]).arg(errors[2])));
    }
  }

  // N steps forward, velocities reversed, N steps back, velocities reversed: the start again.
  void timeSymmetric_data() {
    QTest::addColumn<QString>("system");
    QTest::addColumn<double>("step");
    QTest::newRow("sleigh") << "chaplygin_sleigh" << 0.05;
    QTest::newRow("suslov") << "suslov" << 0.05;
    QTest::newRow("chaplygin sphere (quaternion)") << "chaplygin_sphere" << 0.05;
    QTest::newRow("spherical pendulum (holonomic)") << "spherical_pendulum" << 0.05;
    QTest::newRow("rattleback (fast rocking: a shorter step)") << "rattleback" << 0.005;
  }
  void timeSymmetric() {
    QFETCH(QString, system);
    QFETCH(double, step);
    const test::ReturnTrip trip =
        test::returnTrip(system.toStdString(), Integrator::NhRattle, step);
    QVERIFY(trip.distance > 1e-2);  // it went somewhere
    QVERIFY2(trip.error < 1e-10, qPrintable(QString("back at the start to %1").arg(trip.error)));
  }

  // Without drift control the constraints hold to round-off after every step: velocity
  // constraints (affine and time-dependent on the turntable), holonomic, quaternion norms.
  void constraintsHeldEveryStep_data() {
    QTest::addColumn<QString>("system");
    QTest::newRow("sleigh") << "chaplygin_sleigh";
    QTest::newRow("ball on the turntable") << "ball_on_turntable";
    QTest::newRow("chaplygin sphere (quaternion)") << "chaplygin_sphere";
    QTest::newRow("rattleback") << "rattleback";
    QTest::newRow("spherical pendulum (holonomic)") << "spherical_pendulum";
    QTest::newRow("graded-index ray (general algebroid)") << "graded_index_ray";
  }
  void constraintsHeldEveryStep() {
    QFETCH(QString, system);
    const double h = 0.01;
    Simulation sim(findSystem(system.toStdString()), DynamicsKind::Nonholonomic,
                   Formulation::Multipliers, rattleOptions(h, false));
    sim.setState(0, initialState(sim.equations(), 0, {}));
    double worst = 0;
    int steps = 0;
    sim.advance(10, h, [&](double t, const double* x) {
      worst =
          std::max({worst, sim.equations().residual(t, x), quaternionResidual(sim.equations(), x)});
      ++steps;
    });
    QCOMPARE(steps, 1001);  // the start and every step's end
    QVERIFY2(worst <= 1e-12, qPrintable(QString("residual %1").arg(worst)));
  }

  // 10⁵ steps: the largest energy error in the last tenth is within 1.5× the largest in the
  // first tenth (no secular drift). The sleigh settles into a straight line, so an
  // integrator that damps is caught on the oscillating systems (Chaplygin's ball and McLachlan
  // & Perlmutter's oscillator, whose energy a damping method drains within the run). Suslov's
  // problem and the ball on the table keep their energy to rounding (a quadratic energy the
  // midpoint rule conserves): errors below 1e-13 |E0| have nothing to drift, and their random walk
  // passes. Under the sanitizers the runs are ten times shorter.
  void noEnergyDrift_data() {
    QTest::addColumn<QString>("system");
    QTest::addColumn<double>("step");
    QTest::newRow("sleigh") << "chaplygin_sleigh" << 0.01;
    QTest::newRow("chaplygin sphere (quaternion)") << "chaplygin_sphere" << 0.01;
    QTest::newRow("spherical pendulum (holonomic)") << "spherical_pendulum" << 0.01;
    QTest::newRow("suslov") << "suslov" << 0.01;
    QTest::newRow("ball on the table") << "ball_on_table" << 0.01;
    QTest::newRow("rattleback (fast rocking: a shorter step)") << "rattleback" << 0.002;
    QTest::newRow("McLachlan & Perlmutter's oscillator") << "nonholonomic_oscillator" << 0.01;
  }
  void noEnergyDrift() {
    QFETCH(QString, system);
    QFETCH(double, step);
    const long steps = test::longRunSteps(100'000);
    Simulation sim(findSystem(system.toStdString()), DynamicsKind::Nonholonomic,
                   Formulation::Multipliers, rattleOptions(step));
    sim.setState(0, initialState(sim.equations(), 0, {}));
    const double e0 = sim.equations().energy(sim.workspace(), 0, sim.state().data());
    std::vector<double> error;
    error.reserve(steps);
    sim.advance(step * steps, step, [&](double t, const double* x) {
      error.push_back(std::abs(sim.equations().energy(sim.workspace(), t, x) - e0));
    });
    QCOMPARE(static_cast<long>(error.size()), steps + 1);  // the start and every step's end
    const auto tenth = error.size() / 10;
    const double first = *std::max_element(error.begin(), error.begin() + tenth);
    const double last = *std::max_element(error.end() - tenth, error.end());
    const bool rounding = last <= 1e-13 * std::abs(e0);
    QVERIFY2((first > 0 && last <= 1.5 * first) || rounding,
             qPrintable(QString("first tenth %1, last tenth %2").arg(first).arg(last)));
  }

  // What nh-rattle cannot step is refused in one line, and a step too large for Newton's
  // method stops the run with the reason.
  void refusals() {
    const auto sleigh = findSystem("chaplygin_sleigh");
    Simulation vakonomic(sleigh, DynamicsKind::Vakonomic, Formulation::Multipliers,
                         rattleOptions(0.01));
    vakonomic.setState(0, initialState(vakonomic.equations(), 0, {}));
    try {
      vakonomic.advance(1, 1, {});
      QFAIL("vakonomic dynamics accepted");
    } catch (const InputError& e) {
      QVERIFY(std::string(e.what()).find("nonholonomic dynamics only") != std::string::npos);
      QVERIFY(std::string(e.what()).find('\n') == std::string::npos);
    }
    Simulation hamiltonian(sleigh, DynamicsKind::Nonholonomic, Formulation::Hamiltonian,
                           rattleOptions(0.01));
    hamiltonian.setState(0, initialState(hamiltonian.equations(), 0, {}));
    QVERIFY_THROWS_EXCEPTION(InputError, hamiltonian.advance(1, 1, {}));
    Simulation huge(findSystem("rattleback"), DynamicsKind::Nonholonomic, Formulation::Multipliers,
                    rattleOptions(50));
    huge.setState(0, initialState(huge.equations(), 0, {}));
    try {
      huge.advance(500, 50, {});
      QFAIL("a step of 50 s on the rattleback converged");
    } catch (const IntegrationError& e) {
      QVERIFY2(std::string(e.what()).find("did not converge") != std::string::npos, e.what());
    }
  }
};

QTEST_APPLESS_MAIN(RattleTest)
#include "rattle_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
