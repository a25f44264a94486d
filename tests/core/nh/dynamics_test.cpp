// EquationsOfMotion: independent formulations agree; closed forms of catalogue systems;
// regularity check; holonomic constraints.
#include <QtTest>
#include <random>
#include <thread>

#include "core/model/catalogue.h"
#include "core/nh/errors.h"
#include "core/nh/rotation.h"
#include "core/nh/scenario.h"
#include "tests/core/test_support.h"
#include "tests/support/catalogue_systems.h"

using namespace nh;

namespace {

// A unit-mass particle in the plane; the systems below add their constraints.
struct PlanarParticle {
  static SystemInfo info(const char* name, int constraints, double x0, double vy0) {
    SystemInfo s;
    s.name = name;
    s.coordinates = {"x", "y"};
    s.velocities = {"vx", "vy"};
    s.stateOrder = {"x", "y", "vx", "vy"};
    s.defaultCoordinates = {x0, 0};
    s.defaultVelocities = {0, vy0};
    s.constraintCount = constraints;
    return s;
  }
  template <class S>
  static void anchor(const double*, const S*, S* rho) {
    rho[0] = S(1.0);
    rho[3] = S(1.0);
  }
  template <class S>
  static S lagrangian(const double*, const S&, const S*, const S* y) {
    return 0.5 * (y[0] * y[0] + y[1] * y[1]);
  }
};

// Two copies of the same constraint: A M⁻¹ Aᵀ is singular.
struct DuplicateConstraint : PlanarParticle {
  static SystemInfo info() { return PlanarParticle::info("duplicate_constraint", 2, 0, 0); }
  template <class S>
  static void constraints(const double*, const S&, const S*, const S* y, S* phi) {
    phi[0] = y[0] - y[1];
    phi[1] = 2.0 * (y[0] - y[1]);
  }
};

// Constant mass matrix and the constraint x·vx = 0, whose row A = (x, 0) vanishes at x = 0:
// regular everywhere else (the taped closed-form solve must hand that state to the general
// path, which reports it).
struct VanishingConstraint : PlanarParticle {
  static SystemInfo info() { return PlanarParticle::info("vanishing_constraint", 1, 1, 1); }
  template <class S>
  static void constraints(const double*, const S&, const S* q, const S* y, S* phi) {
    phi[0] = q[0] * y[0];
  }
};

}  // namespace

namespace {
// Equal element by element, NaN equal to NaN (a random start that diverges gives NaN on every
// thread alike).
bool identical(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])))) return false;
  return true;
}
}  // namespace

class DynamicsTest : public QObject {
  Q_OBJECT
 private slots:
  // Theory §2: multipliers (KKT) and Gibbs–Appell (null space of A) must agree to 1e-10
  // relative at random states of every catalogue system, for both kinds of dynamics.
  // Without constraints (central_force, rigid_body) the two still take different paths:
  // multipliers solve M ẏ = F with SmallLU, Gibbs–Appell with N = 1 assembles Nᵀ M N and
  // Nᵀ (F − M ẏ_p) and solves with Eigen's LU; their closed forms are tested below as well.
  void formulationsAgreeOnEveryCatalogueSystem() {
    std::mt19937 rng(2026);
    for (const auto& system : test::systemsWithDynamics()) {
      for (DynamicsKind kind : {DynamicsKind::Nonholonomic, DynamicsKind::Vakonomic}) {
        EquationsOfMotion mult(system, kind, Formulation::Multipliers);
        EquationsOfMotion gibbs(system, kind, Formulation::GibbsAppell);
        EquationsWorkspace ws;
        double worst = 0;
        for (int trial = 0; trial < 100; ++trial) {
          const double t = std::uniform_real_distribution<double>(0, 10)(rng);
          const auto x = test::randomState(mult, rng, t);
          Observables a, b;
          mult.observe(ws, t, x.data(), a);
          gibbs.observe(ws, t, x.data(), b);
          const double scale = std::max(1.0, a.ydot.cwiseAbs().maxCoeff());
          worst = std::max(worst, (a.ydot - b.ydot).cwiseAbs().maxCoeff() / scale);
          if (a.lambda.size())
            worst = std::max(worst, (a.lambda - b.lambda).cwiseAbs().maxCoeff() /
                                        std::max(1.0, a.lambda.cwiseAbs().maxCoeff()));
        }
        qInfo("%-18s %-13s max relative difference %.2e", system->name().c_str(),
              toString(kind).c_str(), worst);
        QVERIFY2(worst < 1e-10, qPrintable(QString::fromStdString(system->name())));
      }
    }
  }

  // The compiled tape and the jets are two independent evaluations of every derivative:
  // they must agree at random states of every catalogue system, for both dynamics.
  void tapedAndJetBackendsAgree() {
    std::mt19937 rng(77);
    for (const auto& system : test::systemsWithDynamics()) {
      for (DynamicsKind kind : {DynamicsKind::Nonholonomic, DynamicsKind::Vakonomic}) {
        // Non-default parameters, so that time-dependent terms do not fold away.
        auto params = system->defaultParameters();
        for (size_t i = 0; i < params.size(); ++i) {
          const auto& info = system->info().parameters[i];
          const double candidate = params[i] * 1.1 + 0.05;
          if (info.allows(candidate)) params[i] = candidate;
        }
        EquationsOfMotion taped(system, kind, Formulation::Multipliers, params);
        EquationsOfMotion jets(system, kind, Formulation::Multipliers, params, Backend::Jets);
        EquationsWorkspace ws;
        // What is in use, not what was asked for: a fallback would compare jets with jets.
        QVERIFY2(taped.isTaped(), system->name().c_str());
        QVERIFY(!jets.isTaped());
        double worst = 0;
        for (int trial = 0; trial < 50; ++trial) {
          const double t = std::uniform_real_distribution<double>(0, 10)(rng);
          const auto x = test::randomState(taped, rng, t);
          std::vector<double> a(x.size()), b(x.size());
          taped.rhs(ws, t, x.data(), a.data());
          jets.rhs(ws, t, x.data(), b.data());
          for (size_t i = 0; i < x.size(); ++i)
            worst = std::max(worst, test::relativeDifference(a[i], b[i]));
          QVERIFY(std::abs(taped.energy(ws, t, x.data()) - jets.energy(ws, t, x.data())) < 1e-12);
        }
        QVERIFY2(worst < 1e-12, qPrintable(QString("%1 %2: %3")
                                               .arg(QString::fromStdString(system->name()))
                                               .arg(QString::fromStdString(toString(kind)))
                                               .arg(worst)));
      }
    }
  }

  // Model vs data: one compiled set of equations shared by two threads, each with its own
  // workspace and state, gives each thread bit for bit what a single thread computes
  // (rhs, observe, project, and a whole Simulation on the shared equations).
  void sharedEquationsOnTwoThreadsGiveSingleThreadedResults() {
    std::mt19937 rng(11);
    for (const auto& system : test::systemsWithDynamics()) {
      for (DynamicsKind kind : {DynamicsKind::Nonholonomic, DynamicsKind::Vakonomic}) {
        const auto eq = std::make_shared<const EquationsOfMotion>(system, kind);
        const std::vector<double> start[2] = {test::randomState(*eq, rng, 0.3),
                                              test::randomState(*eq, rng, 0.3)};
        struct Result {
          std::vector<double>
              values;  // rhs, energy and projected state of every round, then the run
        };
        auto work = [&](const std::vector<double>& x0, Result& out) {
          EquationsWorkspace ws;
          std::vector<double> x = x0, dx(x.size());
          Observables obs;
          // A random start may reach a state where the equations are not defined (a disk
          // lying flat): the same on every thread, recorded by the round it happened in.
          int round = 0;
          try {
            for (; round < 200; ++round) {
              const double t = 0.3 + 1e-3 * round;
              eq->rhs(ws, t, x.data(), dx.data());
              eq->observe(ws, t, x.data(), obs);
              for (size_t i = 0; i < x.size(); ++i) x[i] += 1e-3 * dx[i];
              eq->project(ws, t, x.data());
              out.values.insert(out.values.end(), dx.begin(), dx.end());
              out.values.push_back(obs.energy);
              out.values.insert(out.values.end(), x.begin(), x.end());
            }
          } catch (const SingularSystemError&) {
            out.values.push_back(round);
            return;
          }
          Simulation sim(eq);
          sim.setState(0, x0);
          try {
            sim.advance(1.0, 0.25, [&](double, const double* s) {
              out.values.insert(out.values.end(), s, s + x.size());
            });
          } catch (const SingularSystemError&) {
            // A random start may run into a singular point (the bicycle falls over): the
            // same on every thread, at the same time.
            out.values.push_back(sim.time());
          }
        };
        Result single[2], threaded[2];
        work(start[0], single[0]);
        work(start[1], single[1]);
        std::thread a(work, std::cref(start[0]), std::ref(threaded[0]));
        std::thread b(work, std::cref(start[1]), std::ref(threaded[1]));
        a.join();
        b.join();
        for (int i = 0; i < 2; ++i)
          QVERIFY2(identical(threaded[i].values, single[i].values),
                   qPrintable(QString("%1 %2, thread %3")
                                  .arg(QString::fromStdString(system->name()),
                                       QString::fromStdString(toString(kind)))
                                  .arg(i)));
        QVERIFY(single[0].values != single[1].values);  // different states, different results
      }
    }
  }

  // Euler–Poincaré on so(3) (theory §2 sign check): I ω̇ = (I ω) × ω.
  void rigidBodyGivesEulerEquations() {
    const auto system = findSystem("rigid_body");
    EquationsOfMotion eq(system, DynamicsKind::Nonholonomic);
    EquationsWorkspace ws;
    std::mt19937 rng(1);
    std::uniform_real_distribution<double> u(0.5, 3);
    for (int trial = 0; trial < 100; ++trial) {
      const Eigen::Vector3d I(u(rng), u(rng), u(rng));
      eq = eq.withParameters({I.x(), I.y(), I.z()});
      const auto x = test::randomState(eq, rng, 0);
      std::vector<double> dx(x.size());
      eq.rhs(ws, 0, x.data(), dx.data());
      const Eigen::Vector3d w(x[4], x[5], x[6]);
      const Eigen::Vector3d expected = I.cwiseProduct(w).cross(w).cwiseQuotient(I);
      for (int i = 0; i < 3; ++i) QVERIFY(std::abs(dx[4 + i] - expected[i]) < 1e-12);
      // q̇ = ½ q ⊗ (0, ω)
      const Eigen::Quaterniond q(x[0], x[1], x[2], x[3]);
      const Eigen::Quaterniond qdot = q * Eigen::Quaterniond(0, w.x(), w.y(), w.z());
      QVERIFY(std::abs(dx[0] - 0.5 * qdot.w()) < 1e-14);
      QVERIFY(std::abs(dx[1] - 0.5 * qdot.x()) < 1e-14);
    }
  }

  // Chaplygin sleigh: v̇ = a ω², ω̇ = −m a v ω / (I + m a²), and λ is the sideways force.
  void chaplyginSleighClosedForm() {
    const auto system = findSystem("chaplygin_sleigh");
    std::mt19937 rng(4);
    std::uniform_real_distribution<double> u(-1, 1);
    for (Formulation f : {Formulation::Multipliers, Formulation::GibbsAppell}) {
      EquationsOfMotion eq(system, DynamicsKind::Nonholonomic, f);
      EquationsWorkspace ws;
      for (int trial = 0; trial < 100; ++trial) {
        const double m = 1 + 0.5 * u(rng), I = 0.1 + 0.05 * u(rng), a = 0.3 * u(rng);
        eq = eq.withParameters({m, I, a});
        const auto x = test::randomState(eq, rng, 0);
        std::vector<double> dx(x.size());
        eq.rhs(ws, 0, x.data(), dx.data());
        const double v = x[3], w = x[5];
        QVERIFY(std::abs(dx[3] - a * w * w) < 1e-12);
        QVERIFY(std::abs(dx[5] + m * a * v * w / (I + m * a * a)) < 1e-12);
        QVERIFY(std::abs(dx[4]) < 1e-12);  // u stays 0
        QVERIFY(std::abs(dx[0] - v * std::cos(x[2])) < 1e-14);
      }
    }
  }

  // Central force in quasi-velocities (seed 003 Ex. 5.1): m ẇ1 = m w2²/r³ − k rⁿ, ẇ2 = 0.
  void centralForceClosedForm() {
    const auto system = findSystem("central_force");
    EquationsOfMotion eq(system, DynamicsKind::Nonholonomic);
    EquationsWorkspace ws;
    std::mt19937 rng(8);
    std::uniform_real_distribution<double> u(-1, 1);
    for (int trial = 0; trial < 100; ++trial) {
      const double m = 1 + 0.5 * u(rng), k = 2 * u(rng), n = 2 * u(rng);
      eq = eq.withParameters({m, k, n});
      const auto x = test::randomState(eq, rng, 0);
      std::vector<double> dx(x.size());
      eq.rhs(ws, 0, x.data(), dx.data());
      const double r = x[0], w1 = x[2], w2 = x[3];
      QVERIFY(std::abs(dx[2] - (w2 * w2 / (r * r * r) - k * std::pow(r, n) / m)) < 1e-12);
      QVERIFY(std::abs(dx[3]) < 1e-12);
      QVERIFY(std::abs(dx[1] - w2 / (r * r)) < 1e-14);
      QVERIFY(std::abs(dx[0] - w1) < 1e-15);
    }
  }

  // E_L = p·y − L: for a natural Lagrangian T − V this is T + V.
  void energyIsKineticPlusPotential() {
    const auto system = findSystem("ball_on_turntable");
    EquationsOfMotion eq(system, DynamicsKind::Nonholonomic, Formulation::Multipliers,
                         resolveParameters(*system, {{"tilt", 0.3}}));
    EquationsWorkspace ws;
    std::mt19937 rng(9);
    const auto x = test::randomState(eq, rng, 0);
    const double m = 1, r = 0.1, I = 0.4 * m * r * r;
    const double T = 0.5 * m * (x[6] * x[6] + x[7] * x[7]) +
                     0.5 * I * (x[8] * x[8] + x[9] * x[9] + x[10] * x[10]);
    const double V = m * 9.81 * std::sin(0.3) * x[0];
    QVERIFY(std::abs(eq.energy(ws, 0, x.data()) - (T + V)) < 1e-14);
  }

  void singularConstraintsAreReported() {
    EquationsOfMotion eq(makeSystem<DuplicateConstraint>(), DynamicsKind::Nonholonomic);
    EquationsWorkspace ws;
    std::vector<double> x(4, 0.0), dx(4);
    for (Formulation f : {Formulation::Multipliers, Formulation::GibbsAppell}) {
      eq = eq.withFormulation(f);
      try {
        eq.rhs(ws, 1.25, x.data(), dx.data());
        QFAIL("expected SingularSystemError");
      } catch (const SingularSystemError& e) {
        const QString msg = e.what();
        QVERIFY2(msg.contains("duplicate_constraint") && msg.contains("t = 1.25") &&
                     msg.contains("condition number"),
                 qPrintable(msg));
        QVERIFY(e.conditionNumber() > 1e12);
      }
    }
  }

  void stateDependentSingularityIsReported() {
    EquationsOfMotion eq(makeSystem<VanishingConstraint>(), DynamicsKind::Nonholonomic);
    EquationsWorkspace ws;
    QVERIFY(eq.isTaped());
    std::vector<double> x = {1.0, 0.0, 0.0, 1.0}, dx(4);
    eq.rhs(ws, 0, x.data(), dx.data());  // regular at x = 1: vx stays 0, vy free
    QCOMPARE(dx[2], 0.0);
    x[0] = 0.0;
    QVERIFY_THROWS_EXCEPTION(SingularSystemError, eq.rhs(ws, 0.5, x.data(), dx.data()));
  }

  // Holonomic constraint imposed at acceleration level (ġ through ρ) plus drift control.
  void sphericalPendulumKeepsLengthAndEnergy() {
    Simulation sim(makeSystem<nh::test::SphericalPendulum>(), DynamicsKind::Nonholonomic);
    const auto x0 = initialState(sim.equations(), 0, {});
    QVERIFY(std::abs(x0[3] * x0[0] + x0[4] * x0[1] + x0[5] * x0[2]) < 1e-14);  // ġ = 0
    sim.setState(0, x0);
    const double e0 = sim.equations().energy(sim.workspace(), 0, x0.data());
    double worstG = 0, worstE = 0, worstPhi = 0;
    sim.advance(50, 0.1, [&](double t, const double* x) {
      worstG = std::max(worstG, std::abs(x[0] * x[0] + x[1] * x[1] + x[2] * x[2] - 1));
      worstE = std::max(worstE, std::abs(sim.equations().energy(sim.workspace(), t, x) - e0));
      worstPhi = std::max(worstPhi, sim.equations().residual(t, x));
    });
    qInfo("|g| ≤ %.2e, |ΔE| ≤ %.2e, residual ≤ %.2e", worstG, worstE, worstPhi);
    QVERIFY(worstG < 1e-12);
    QVERIFY(worstPhi < 1e-10);
    QVERIFY(worstE < 1e-8);
    // The rod tension: λ ∂ġ/∂y = 2λ x must point inward and balance gravity + centripetal.
    Observables o;
    sim.equations().observe(sim.workspace(), sim.time(), sim.state().data(), o);
    QCOMPARE(o.g.size(), 1);
    QCOMPARE(o.lambda.size(), 1);
    QVERIFY(o.lambda[0] < 0);
  }
};

QTEST_APPLESS_MAIN(DynamicsTest)
#include "dynamics_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
