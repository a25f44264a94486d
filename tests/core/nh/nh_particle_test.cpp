// Seed 003 Ex. 7.1 (ż = y ẋ): multipliers, Gibbs–Appell, and nonholonomic vs vakonomic.
#include <QtTest>
#include <random>

#include "core/model/catalogue.h"
#include "core/nh/scenario.h"
#include "tests/core/test_support.h"

using namespace nh;

namespace {

// A unit-mass particle with the integrable constraint ż = 2x ẋ (z − x² = const): a
// holonomic constraint written at velocity level, for which vakonomic and nonholonomic
// motions coincide (theory §3).
struct ParabolaParticle {
  static SystemInfo info() {
    SystemInfo s;
    s.name = "parabola_particle";
    s.coordinates = {"x", "y", "z"};
    s.velocities = {"vx", "vy", "vz"};
    s.stateOrder = {"x", "y", "z", "vx", "vy", "vz"};
    s.independentVelocities = {"vx", "vy"};
    s.defaultCoordinates = {0.3, 0, 0.09};
    s.defaultVelocities = {1, 0.5, 0};
    s.constraintCount = 1;
    s.parameters = {{"g", "m/s²", "gravity", 1.0}};
    return s;
  }
  template <class S>
  static void anchor(const double*, const S*, S* rho) {
    for (int i = 0; i < 3; ++i) rho[i + 3 * i] = S(1.0);
  }
  template <class S>
  static S lagrangian(const double* p, const S&, const S* q, const S* y) {
    return 0.5 * (y[0] * y[0] + y[1] * y[1] + y[2] * y[2]) - p[0] * q[2];
  }
  template <class S>
  static void constraints(const double*, const S&, const S* q, const S* y, S* phi) {
    phi[0] = y[2] - 2.0 * q[0] * y[0];
  }
};

// The same motion with the constraint given as holonomic g(q) = z − x² − c.
struct ParabolaParticleHolonomic : ParabolaParticle {
  static SystemInfo info() {
    SystemInfo s = ParabolaParticle::info();
    s.name = "parabola_particle_holonomic";
    s.constraintCount = 0;
    s.holonomicCount = 1;
    return s;
  }
  template <class S>
  static void holonomic(const double*, const S&, const S* q, S* g) {
    g[0] = q[2] - q[0] * q[0];
  }
};

std::vector<std::vector<double>> trajectory(Simulation& sim, double tEnd) {
  std::vector<std::vector<double>> rows;
  sim.advance(tEnd, 0.05, [&](double, const double* x) { rows.emplace_back(x, x + 6); });
  return rows;
}

}  // namespace

class NhParticleTest : public QObject {
  Q_OBJECT
 private slots:
  // A start that breaks vz = y·vx is completed with one note naming every velocity changed,
  // the ones not given too: vz = 5 given at y = 0.5 moves vx from 1 to 10 (least change with
  // vz kept). A consistent start gets no note.
  void completedStartVelocitiesAreNamed() {
    const EquationsOfMotion eq(findSystem("nh_particle"), DynamicsKind::Nonholonomic);
    std::vector<std::string> notes;
    const std::vector<double> x = initialState(eq, 0, {{"vz", 5}}, &notes);
    QCOMPARE(x[3], 10.0);
    QCOMPARE(x[5], 5.0);
    QCOMPARE(notes.size(), std::size_t(1));
    QVERIFY2(notes[0].find("vx 1 → 10") != std::string::npos, notes[0].c_str());
    QVERIFY2(notes[0].find("vz") == std::string::npos, notes[0].c_str());  // kept as given
    notes.clear();
    initialState(eq, 0, {}, &notes);
    QVERIFY(notes.empty());
  }

  // Seed 003 Ex. 7.1: λ = w¹ w² / (1 + y²) (unit mass), here with mass m: m ẋ ẏ / (1 + y²).
  void multiplierMatchesClosedForm() {
    const auto system = findSystem("nh_particle");
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> u(-2, 2);
    for (int trial = 0; trial < 300; ++trial) {
      const double m = trial % 2 ? 1.0 : 0.5 + std::abs(u(rng));
      for (Formulation f : {Formulation::Multipliers, Formulation::GibbsAppell}) {
        EquationsOfMotion eq(system, DynamicsKind::Nonholonomic, f, {m});
        EquationsWorkspace ws;
        const auto x = initialState(
            eq, 0, {{"x", u(rng)}, {"y", u(rng)}, {"z", u(rng)}, {"vx", u(rng)}, {"vy", u(rng)}});
        Observables o;
        eq.observe(ws, 0, x.data(), o);
        const double expected = m * x[3] * x[4] / (1 + x[1] * x[1]);
        QVERIFY2(test::relativeDifference(o.lambda[0], expected, 1e-300) < 1e-12,
                 qPrintable(QString("%1 vs %2").arg(o.lambda[0]).arg(expected)));
        // m ẍ = −y λ, m ÿ = 0, m z̈ = λ.
        QVERIFY(test::relativeDifference(m * o.ydot[0], -x[1] * expected) < 1e-12);
        QVERIFY(std::abs(o.ydot[1]) < 1e-14);
        QVERIFY(test::relativeDifference(m * o.ydot[2], expected) < 1e-12);
      }
    }
  }

  // Vakonomic equations for L̃ = ½|v|² + μ(ż − y ẋ):
  //   d/dt(ẋ − μ y) = 0,   ÿ = −μ ẋ,   d/dt(ż + μ) = 0,   with ż = y ẋ.
  void vakonomicEquationsMatchHandDerivation() {
    const auto system = findSystem("nh_particle");
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> u(-1.5, 1.5);
    for (Formulation f : {Formulation::Multipliers, Formulation::GibbsAppell}) {
      EquationsOfMotion eq(system, DynamicsKind::Vakonomic, f);
      EquationsWorkspace ws;
      for (int trial = 0; trial < 200; ++trial) {
        auto x =
            initialState(eq, 0, {{"y", u(rng)}, {"vx", u(rng)}, {"vy", u(rng)}, {"mu", u(rng)}});
        std::vector<double> dx(x.size());
        eq.rhs(ws, 0, x.data(), dx.data());
        const double y = x[1], vx = x[3], vy = x[4], mu = x[6];
        const double ax = dx[3], ay = dx[4], az = dx[5], dmu = dx[6];
        QVERIFY(std::abs(ax - dmu * y - mu * vy) < 1e-12);
        QVERIFY(std::abs(ay + mu * vx) < 1e-12);
        QVERIFY(std::abs(az + dmu) < 1e-12);
        QVERIFY(std::abs(az - (vy * vx + y * ax)) < 1e-12);
      }
    }
  }

  void vakonomicAndNonholonomicMotionsDiffer() {
    const auto system = findSystem("nh_particle");
    Simulation nhSim(system, DynamicsKind::Nonholonomic);
    Simulation vkSim(system, DynamicsKind::Vakonomic);
    const auto x0 = initialState(nhSim.equations(), 0, {});
    auto v0 = x0;
    v0.push_back(0.0);  // μ(0) = 0: same initial state and the same initial acceleration
    nhSim.setState(0, x0);
    vkSim.setState(0, v0);
    const auto a = trajectory(nhSim, 5), b = trajectory(vkSim, 5);
    QCOMPARE(a.size(), b.size());
    double diff = 0;
    for (size_t i = 0; i < a.size(); ++i)
      for (int j = 0; j < 3; ++j) diff = std::max(diff, std::abs(a[i][j] - b[i][j]));
    qInfo("largest position difference over 5 s: %.3g", diff);
    QVERIFY(diff > 0.05);
    QVERIFY(std::abs(a[1][0] - b[1][0]) < 1e-3);  // they start together
  }

  void vakonomicAndNonholonomicCoincideForHolonomicConstraint() {
    const auto system = makeSystem<ParabolaParticle>();
    const auto holonomic = makeSystem<ParabolaParticleHolonomic>();
    Simulation nhSim(system, DynamicsKind::Nonholonomic);
    Simulation vkSim(system, DynamicsKind::Vakonomic);
    Simulation hoSim(holonomic, DynamicsKind::Nonholonomic);
    const auto x0 = initialState(nhSim.equations(), 0, {});
    auto v0 = x0;
    v0.push_back(0.7);  // any μ(0): L + μ ġ differs from L by a total derivative
    nhSim.setState(0, x0);
    vkSim.setState(0, v0);
    hoSim.setState(0, x0);
    const auto a = trajectory(nhSim, 5), b = trajectory(vkSim, 5), c = trajectory(hoSim, 5);
    double diffVk = 0, diffHo = 0, worstG = 0;
    for (size_t i = 0; i < a.size(); ++i) {
      for (int j = 0; j < 6; ++j) {
        diffVk = std::max(diffVk, std::abs(a[i][j] - b[i][j]));
        diffHo = std::max(diffHo, std::abs(a[i][j] - c[i][j]));
      }
      worstG = std::max(worstG, std::abs(c[i][2] - c[i][0] * c[i][0]));
    }
    qInfo("vakonomic vs nonholonomic: %.3g; holonomic g vs velocity form: %.3g; |g| ≤ %.3g", diffVk,
          diffHo, worstG);
    QVERIFY(diffVk < 1e-7);
    QVERIFY(diffHo < 1e-7);
    QVERIFY(worstG < 1e-10);
  }
};

QTEST_APPLESS_MAIN(NhParticleTest)
#include "nh_particle_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
