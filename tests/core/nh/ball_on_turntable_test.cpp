// Ball on a rotating table: closed forms of theory §5 (seed 002 §VI.3, seed 000 Ex. 4).
#include <QtTest>
#include <complex>
#include <random>

#include "core/model/catalogue.h"
#include "core/nh/errors.h"
#include "core/nh/scenario.h"
#include "tests/core/test_support.h"

using namespace nh;
using cd = std::complex<double>;

class BallOnTurntableTest : public QObject {
  Q_OBJECT

  struct Params {
    double m, r, ratio, Omega0, rate, amp, freq, tilt, g;
  };
  static std::map<std::string, double> asMap(const Params& p) {
    return {{"m", p.m},
            {"r", p.r},
            {"inertia_ratio", p.ratio},
            {"Omega0", p.Omega0},
            {"Omega_rate", p.rate},
            {"Omega_amp", p.amp},
            {"Omega_freq", p.freq},
            {"tilt", p.tilt},
            {"g", p.g}};
  }

  // For constant Ω the centre obeys z̈ = iκΩ ż (z = x + iy): a circle travelled at κΩ with
  // centre z₀ − ż₀/(iκΩ) and radius |ż₀|/(κΩ).
  void checkCircle(double ratio, double Omega, double revolutions, Integrator method) {
    const auto system = findSystem("ball_on_turntable");
    IntegratorOptions opt;
    opt.method = method;
    opt.rtol = 1e-13;
    opt.atol = 1e-15;
    Simulation sim(system, DynamicsKind::Nonholonomic, Formulation::Multipliers, opt);
    sim.setParameters(resolveParameters(
        *system, {{"inertia_ratio", ratio}, {"Omega0", Omega}, {"r", 0.1}, {"m", 2.0}}));
    const auto x0 = initialState(sim.equations(), 0,
                                 {{"x", 0.3}, {"y", -0.2}, {"vx", 0.15}, {"vy", 0.1}, {"wz", 3}});
    sim.setState(0, x0);
    const double kappa = ratio / (ratio + 1.0);  // I/(I + m r²) with I = ratio·m r²
    const double w = kappa * Omega;
    const cd z0(x0[0], x0[1]), v0(x0[6], x0[7]);
    const cd centre = z0 - v0 / (cd(0, 1) * w);
    const double radius = std::abs(v0) / std::abs(w);
    const double tEnd = revolutions * 2 * M_PI / std::abs(w);
    double worst = 0;
    sim.advance(tEnd, tEnd / 200, [&](double t, const double* x) {
      const cd predicted = centre + v0 / (cd(0, 1) * w) * std::exp(cd(0, w * t));
      worst = std::max(worst, std::abs(cd(x[0], x[1]) - predicted) / radius);
    });
    qInfo(
        "inertia_ratio %.3g, Omega %.3g, %g revolutions with %s: max deviation %.3g of the radius",
        ratio, Omega, revolutions, toString(method).c_str(), worst);
    // 1e-8 relative after 100 revolutions: the integrator tolerance is 1e-13 per step.
    QVERIFY2(worst < 1e-8, qPrintable(QString("deviation %1").arg(worst)));
  }

 private slots:
  void solidBallCircleFrequencyIsTwoSeventhsOmega() {
    checkCircle(0.4, 1.0, 100, Integrator::Dopri5);
  }
  void shellBallCircle() { checkCircle(2.0 / 3.0, -2.5, 100, Integrator::Rk78); }

  // Seed 002 §VI.3 reduced equations with time-dependent Ω(t), and with a tilt:
  // v̇x = −(1−κ) g sin(tilt) − κ(Ω' y + Ω vy), v̇y = κ(Ω' x + Ω vx), ω̇z = 0.
  void genericEngineReproducesReducedEquations() {
    const auto system = findSystem("ball_on_turntable");
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-1, 1);
    for (int trial = 0; trial < 200; ++trial) {
      Params p{1 + 0.5 * u(rng), 0.1 + 0.05 * u(rng), 0.4 + 0.2 * u(rng), u(rng), u(rng),
               u(rng),           1 + 0.5 * u(rng),    0.3 * u(rng),       9.81};
      for (Formulation f : {Formulation::Multipliers, Formulation::GibbsAppell}) {
        EquationsOfMotion eq(system, DynamicsKind::Nonholonomic, f,
                             resolveParameters(*system, asMap(p)));
        EquationsWorkspace ws;
        const double t = 5 * (1 + u(rng));
        const auto x = test::randomState(eq, rng, t);
        std::vector<double> dx(x.size());
        eq.rhs(ws, t, x.data(), dx.data());
        const double W = p.Omega0 + p.rate * t + p.amp * std::sin(p.freq * t);
        const double Wdot = p.rate + p.amp * p.freq * std::cos(p.freq * t);
        const double kappa = p.ratio / (p.ratio + 1);
        const double X = x[0], Y = x[1], vx = x[6], vy = x[7];
        const double ax = -(1 - kappa) * p.g * std::sin(p.tilt) - kappa * (Wdot * Y + W * vy);
        const double ay = kappa * (Wdot * X + W * vx);
        QVERIFY(test::relativeDifference(dx[6], ax) < 1e-12);
        QVERIFY(test::relativeDifference(dx[7], ay) < 1e-12);
        QVERIFY(std::abs(dx[10]) < 1e-12);  // ω̇z = 0
        QVERIFY(test::relativeDifference(dx[0], vx) < 1e-14);
        // Rolling: ω̇ follows from differentiating the constraints.
        QVERIFY(test::relativeDifference(dx[9], (dx[6] + Wdot * Y + W * vy) / p.r) < 1e-10);
        QVERIFY(test::relativeDifference(dx[8], (Wdot * X + W * vx - dx[7]) / p.r) < 1e-10);
      }
    }
  }

  // The friction force (λ) is what the ball's centre feels beyond gravity: m a = F_g + λ.
  void multipliersAreTheFrictionForce() {
    const auto system = findSystem("ball_on_turntable");
    const double tilt = 0.2, m = 1.7, g = 9.81;
    EquationsOfMotion eq(
        system, DynamicsKind::Nonholonomic, Formulation::Multipliers,
        resolveParameters(*system, {{"tilt", tilt}, {"m", m}, {"Omega_rate", 0.3}}));
    EquationsWorkspace ws;
    std::mt19937 rng(3);
    const auto x = test::randomState(eq, rng, 1.0);
    Observables o;
    eq.observe(ws, 1.0, x.data(), o);
    QVERIFY(test::relativeDifference(m * o.ydot[0], -m * g * std::sin(tilt) + o.lambda[0]) < 1e-12);
    QVERIFY(test::relativeDifference(m * o.ydot[1], o.lambda[1]) < 1e-12);
    SceneFrame frame;
    system->scene(eq.parameters().data(), 1.0, x.data(), x.data() + system->n(), o.lambda.data(),
                  frame);
    const auto friction =
        std::find_if(frame.arrows.begin(), frame.arrows.end(),
                     [](const SceneArrow& a) { return a.kind == ArrowKind::Reaction; });
    QVERIFY(friction != frame.arrows.end());
    QVERIFY(std::abs(friction->vector.norm() - std::hypot(o.lambda[0], o.lambda[1])) < 1e-12);
    QVERIFY(std::abs(friction->origin.norm() - std::hypot(x[0], x[1])) <
            1e-12);  // at the contact point
  }

  // Drift control keeps |Φ| ≤ 1e-10 over 1000 table revolutions at default settings.
  void residualsStaySmallOverThousandRevolutions() {
    const auto system = findSystem("ball_on_turntable");
    Simulation sim(system, DynamicsKind::Nonholonomic);
    sim.setParameters(resolveParameters(*system, {{"Omega_amp", 0.3}, {"Omega_freq", 0.5}}));
    sim.setState(0, initialState(sim.equations(), 0, {}));
    double worst = 0, worstNorm = 0;
    sim.advance(1000 * 2 * M_PI, 1.0, [&](double t, const double* x) {
      worst = std::max(worst, sim.equations().residual(t, x));
      worstNorm = std::max(
          worstNorm, std::abs(std::hypot(std::hypot(x[2], x[3]), std::hypot(x[4], x[5])) - 1));
    });
    qInfo("max |Φ| over 1000 revolutions: %.3g; max | |q| − 1 |: %.3g", worst, worstNorm);
    QVERIFY(worst <= 1e-10);
    QVERIFY(worstNorm <= 1e-12);
  }

  // Attitude reconstruction: on a level fixed table ω is constant, so the attitude is
  // q(t) = exp(½ ω t) ⊗ q(0) (space-frame ω) — the ball visibly rolls and spins.
  void attitudeFollowsAngularVelocity() {
    const auto system = findSystem("ball_on_table");
    Simulation sim(system, DynamicsKind::Nonholonomic);
    const auto x0 = initialState(sim.equations(), 0, {{"vx", 0.3}, {"vy", -0.1}, {"wz", 1.5}});
    sim.setState(0, x0);
    const Eigen::Vector3d w(x0[8], x0[9], x0[10]);
    QVERIFY(std::abs(w.x() - 0.1 / 0.1) < 1e-12);  // ωx = −vy/r
    QVERIFY(std::abs(w.y() - 0.3 / 0.1) < 1e-12);  // ωy = vx/r
    const double tEnd = 7.3;
    sim.advance(tEnd, 0.1, {});
    const auto& x = sim.state();
    const Eigen::Quaterniond expected =
        Eigen::Quaterniond(Eigen::AngleAxisd(w.norm() * tEnd, w.normalized()));
    const Eigen::Quaterniond got(x[2], x[3], x[4], x[5]);
    QVERIFY2(got.angularDistance(expected) < 1e-8,
             qPrintable(QString::number(got.angularDistance(expected))));
    QVERIFY(std::abs(x[0] - (0.6 + 0.3 * tEnd)) < 1e-9);
  }

  // Regularity: a ball without rotational inertia has a singular mass matrix.
  void nonRegularSystemIsReported() {
    const auto system = findSystem("ball_on_turntable");
    EquationsOfMotion eq(system, DynamicsKind::Nonholonomic, Formulation::Multipliers,
                         resolveParameters(*system, {{"inertia_ratio", 0.0}}));
    EquationsWorkspace ws;
    std::vector<double> x(eq.stateSize(), 0.0), dx(eq.stateSize());
    x[2] = 1;
    try {
      eq.rhs(ws, 2.5, x.data(), dx.data());
      QFAIL("expected SingularSystemError");
    } catch (const SingularSystemError& e) {
      const QString msg = e.what();
      QVERIFY2(msg.contains("ball_on_turntable") && msg.contains("t = 2.5") &&
                   msg.contains("condition number"),
               qPrintable(msg));
      QCOMPARE(e.time(), 2.5);
    }
  }
};

QTEST_APPLESS_MAIN(BallOnTurntableTest)
#include "ball_on_turntable_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
