// The dual side (theory §8): Hamilton's equations in (q, p) with the constraint force, stepped
// by Simulation, against the Lagrangian side's multipliers formulation; the Legendre map and
// its inverse; what the formulation refuses.
#include <QtTest>
#include <cmath>

#include "core/nh/errors.h"
#include "core/nh/scenario.h"
#include "core/nh/simulation.h"
#include "tests/support/catalogue_systems.h"

using namespace nh;

namespace {

// A relativistic particle (c = 1, unit rest mass) in a harmonic well, with the nonholonomic
// constraint ż = y ẋ: L = −√(1 − |v|²) − ½ k |q|² is not quadratic in the velocities, so the
// Legendre map p = v/√(1 − |v|²) is inverted by Newton's method.
struct RelativisticParticle {
  static SystemInfo info() {
    SystemInfo s;
    s.name = "relativistic_particle";
    s.coordinates = {"x", "y", "z"};
    s.velocities = {"vx", "vy", "vz"};
    s.stateOrder = {"x", "y", "z", "vx", "vy", "vz"};
    s.defaultCoordinates = {0.3, -0.2, 0.1};
    s.defaultVelocities = {0.4, 0.3, -0.08};
    s.independentVelocities = {"vx", "vy"};
    s.constraintCount = 1;
    return s;
  }
  template <class S>
  static void anchor(const double*, const S*, S* rho) {
    rho[0] = S(1.0);
    rho[4] = S(1.0);
    rho[8] = S(1.0);
  }
  template <class S>
  static S lagrangian(const double*, const S&, const S* q, const S* y) {
    const S v2 = y[0] * y[0] + y[1] * y[1] + y[2] * y[2];
    return -sqrt(1.0 - v2) - 0.5 * 2.0 * (q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
  }
  template <class S>
  static void constraints(const double*, const S&, const S* q, const S* y, S* phi) {
    phi[0] = y[2] - q[1] * y[0];
  }
};

// L = ½ x² vx² + ½ vy²: the Legendre map is singular where x = 0.
struct DegenerateAtOrigin {
  static SystemInfo info() {
    SystemInfo s;
    s.name = "degenerate_at_origin";
    s.coordinates = {"x", "y"};
    s.velocities = {"vx", "vy"};
    s.stateOrder = {"x", "y", "vx", "vy"};
    s.defaultCoordinates = {0, 0};
    s.defaultVelocities = {0, 1};
    return s;
  }
  template <class S>
  static void anchor(const double*, const S*, S* rho) {
    rho[0] = S(1.0);
    rho[3] = S(1.0);
  }
  template <class S>
  static S lagrangian(const double*, const S&, const S* q, const S* y) {
    return 0.5 * q[0] * q[0] * y[0] * y[0] + 0.5 * y[1] * y[1];
  }
};

// DOP853 at rtol 1e-13, every coordinate stepped (the hamiltonian formulation does not
// reconstruct, so neither does the run it is compared with). The absolute tolerance lies below
// the scale of every momentum: the rattleback's are of order 1e-4 (its moments of inertia), and
// the error control of the (q, p) run sees them, not the velocities.
IntegratorOptions tight() {
  IntegratorOptions o;
  o.method = Integrator::Dop853;
  o.rtol = 1e-13;
  o.atol = 1e-16;
  o.reconstruction = false;
  return o;
}

// The state after `tEnd` from the system's default start, with the formulation and backend.
std::vector<double> runTo(const std::shared_ptr<const SystemModel>& system, Formulation f,
                          Backend backend, double tEnd) {
  auto eq = std::make_shared<const EquationsOfMotion>(system, DynamicsKind::Nonholonomic, f,
                                                      std::vector<double>{}, backend);
  Simulation sim(eq, tight());
  sim.setState(0, initialState(*eq, 0, {}));
  sim.advance(tEnd, tEnd, {});
  return sim.state();
}

double relativeGap(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    worst = std::max(worst, std::abs(a[i] - b[i]) / std::max(1.0, std::abs(a[i])));
  return worst;
}

}  // namespace

class HamiltonianTest : public QObject {
  Q_OBJECT
 private slots:
  // The third formulation integrates other variables, (q, p), with the Poisson form of ṗ:
  // its motion must be the multipliers' to 1e-10 on every system with dynamics (the C++
  // systems and the bundled models: constraints linear, affine, time-dependent, holonomic,
  // structure functions, forces), in both backends.
  void agreesWithMultipliersOnEverySystem() {
    for (const auto& system : test::systemsWithDynamics()) {
      for (Backend backend : {Backend::Taped, Backend::Jets}) {
        const double tEnd = 1;
        const auto lagrangian = runTo(system, Formulation::Multipliers, backend, tEnd);
        const auto hamiltonian = runTo(system, Formulation::Hamiltonian, backend, tEnd);
        const double gap = relativeGap(lagrangian, hamiltonian);
        qInfo("%-24s %-5s max relative difference %.2e", system->name().c_str(),
              backend == Backend::Taped ? "taped" : "jets", gap);
        QVERIFY2(gap < 1e-10, system->name().c_str());
      }
    }
  }

  // Newton's method inverts a Legendre map that is not affine (p = v/√(1 − |v|²)), and the
  // motion is again the multipliers'.
  void invertsALegendreMapThatIsNotLinear() {
    auto system = std::make_shared<const DefinedSystem<RelativisticParticle>>();
    for (Backend backend : {Backend::Taped, Backend::Jets}) {
      EquationsOfMotion eq(system, DynamicsKind::Nonholonomic, Formulation::Hamiltonian, {},
                           backend);
      EquationsWorkspace ws;
      const std::vector<double> x = initialState(eq, 0, {});
      std::vector<double> z(x.size()), back(x.size(), 0.0);
      eq.toMomenta(ws, 0, x.data(), z.data());
      const double v2 = x[3] * x[3] + x[4] * x[4] + x[5] * x[5];
      for (int a = 0; a < 3; ++a)
        QCOMPARE_LE(std::abs(z[3 + a] - x[3 + a] / std::sqrt(1 - v2)), 1e-15);
      eq.fromMomenta(ws, 0, z.data(), back.data());  // from the guess y = 0
      QCOMPARE_LE(relativeGap(x, back), 1e-15);
      const double gap = relativeGap(runTo(system, Formulation::Multipliers, backend, 3),
                                     runTo(system, Formulation::Hamiltonian, backend, 3));
      qInfo("relativistic particle: max relative difference %.2e", gap);
      QVERIFY(gap < 1e-10);
    }
  }

  // The run's columns keep every column of the other formulations and add the momenta, which
  // are ∂L/∂y of the recorded velocities.
  void reportsTheMomenta() {
    auto system = std::make_shared<const DefinedSystem<RelativisticParticle>>();
    EquationsOfMotion eq(system, DynamicsKind::Nonholonomic, Formulation::Hamiltonian);
    EquationsOfMotion lag(system, DynamicsKind::Nonholonomic, Formulation::Multipliers);
    const auto cols = outputColumns(eq);
    auto base = outputColumns(lag);
    base.insert(base.end(), {"p_vx", "p_vy", "p_vz"});
    QCOMPARE(cols, base);
    EquationsWorkspace ws;
    Observables obs;
    std::vector<double> row;
    const auto x = initialState(eq, 0, {});
    outputRow(eq, ws, stateLayout(*system, DynamicsKind::Nonholonomic), 0, x.data(), obs, row);
    const double gamma = 1 / std::sqrt(1 - (x[3] * x[3] + x[4] * x[4] + x[5] * x[5]));
    QCOMPARE(row.size(), cols.size());
    for (int a = 0; a < 3; ++a)
      QCOMPARE_LE(std::abs(row[row.size() - 3 + a] - gamma * x[3 + a]), 1e-15);
  }

  // A singular Legendre map stops the run with one line naming the time and the state (rk4,
  // whose steps pass the equations' errors on as they are).
  void refusesASingularLegendreMap() {
    auto system = std::make_shared<const DefinedSystem<DegenerateAtOrigin>>();
    auto eq = std::make_shared<const EquationsOfMotion>(system, DynamicsKind::Nonholonomic,
                                                        Formulation::Hamiltonian);
    IntegratorOptions rk4;
    rk4.method = Integrator::Rk4;
    Simulation sim(eq, rk4);
    sim.setState(0.25, {0, 0, 0, 1});
    try {
      sim.advance(1, 0.1, {});
      QFAIL("a singular Legendre map was stepped");
    } catch (const SingularSystemError& e) {
      const std::string message = e.what();
      qInfo("%s", e.what());
      QVERIFY(message.find("Legendre map") != std::string::npos);
      QVERIFY(message.find("t = 0.25") != std::string::npos);
      QVERIFY(message.find("x = 0, y = 0, p_vx = 0, p_vy = 1") != std::string::npos);
      QVERIFY(message.find('\n') == std::string::npos);
    }
  }

  // Vakonomic motions carry μ in their state: the formulation refuses them, saying why.
  void refusesVakonomicDynamics() {
    auto system = std::make_shared<const DefinedSystem<RelativisticParticle>>();
    try {
      EquationsOfMotion eq(system, DynamicsKind::Vakonomic, Formulation::Hamiltonian);
      QFAIL("vakonomic dynamics accepted");
    } catch (const InputError& e) {
      QVERIFY(std::string(e.what()).find("nonholonomic dynamics only") != std::string::npos);
    }
    EquationsOfMotion vak(system, DynamicsKind::Vakonomic, Formulation::Multipliers);
    QVERIFY_THROWS_EXCEPTION(InputError, vak.withFormulation(Formulation::Hamiltonian));
  }
};

QTEST_GUILESS_MAIN(HamiltonianTest)
#include "hamiltonian_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
