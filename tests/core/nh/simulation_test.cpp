// Simulation: conservation laws, convergence order of the steppers, drift control,
// sampling, parameter edits, blow-up reporting.
#include <QtTest>
#include <boost/numeric/odeint.hpp>
#include <string>

#include "core/model/catalogue.h"
#include "core/nh/errors.h"
#include "core/nh/scenario.h"

using namespace nh;
namespace odeint = boost::numeric::odeint;

namespace {

IntegratorOptions tight(Integrator method = Integrator::Rk78) {
  IntegratorOptions o;
  o.method = method;
  o.rtol = 1e-13;
  o.atol = 1e-15;
  return o;
}

// Error at time T of a fixed-step odeint stepper on the central-force equations.
template <class Stepper>
double fixedStepError(const char* system, double h, double T,
                      const std::vector<double>& reference) {
  EquationsOfMotion eq(findSystem(system), DynamicsKind::Nonholonomic);
  EquationsWorkspace ws;
  std::vector<double> x = initialState(eq, 0, {});
  Stepper stepper;
  auto rhs = [&](const std::vector<double>& s, std::vector<double>& d, double t) {
    d.resize(s.size());
    eq.rhs(ws, t, s.data(), d.data());
  };
  const int steps = static_cast<int>(std::lround(T / h));
  double t = 0;
  for (int i = 0; i < steps; ++i, t += h) stepper.do_step(rhs, x, t, h);
  double err = 0;
  for (size_t i = 0; i < x.size(); ++i) err = std::max(err, std::abs(x[i] - reference[i]));
  return err;
}

}  // namespace

class SimulationTest : public QObject {
  Q_OBJECT
 private slots:
  // Free rigid body: energy and |I ω| conserved to 1e-9 relative over 1000 time units.
  void rigidBodyConservesEnergyAndAngularMomentum() {
    const auto system = findSystem("rigid_body");
    Simulation sim(system, DynamicsKind::Nonholonomic, Formulation::Multipliers, tight());
    sim.setParameters({1.0, 2.0, 3.5});
    const auto x0 = initialState(sim.equations(), 0, {{"w1", 0.3}, {"w2", 1.1}, {"w3", -0.4}});
    sim.setState(0, x0);
    auto momentum = [](const double* x) {
      return Eigen::Vector3d(1.0 * x[4], 2.0 * x[5], 3.5 * x[6]).norm();
    };
    const double e0 = sim.equations().energy(sim.workspace(), 0, x0.data()),
                 l0 = momentum(x0.data());
    // The momentum in the space frame is constant as a vector: R(q) I ω.
    auto spaceMomentum = [](const double* x) {
      return Eigen::Quaterniond(x[0], x[1], x[2], x[3]) *
             Eigen::Vector3d(1.0 * x[4], 2.0 * x[5], 3.5 * x[6]);
    };
    const Eigen::Vector3d L0 = spaceMomentum(x0.data());
    double worstE = 0, worstL = 0, worstVec = 0;
    sim.advance(1000, 1.0, [&](double t, const double* x) {
      worstE = std::max(worstE, std::abs(sim.equations().energy(sim.workspace(), t, x) - e0) / e0);
      worstL = std::max(worstL, std::abs(momentum(x) - l0) / l0);
      worstVec = std::max(worstVec, (spaceMomentum(x) - L0).norm() / l0);
    });
    qInfo("relative drift over 1000 time units: energy %.2e, |L| %.2e, L (space) %.2e", worstE,
          worstL, worstVec);
    QVERIFY(worstE < 1e-9);
    QVERIFY(worstL < 1e-9);
    QVERIFY(worstVec < 1e-7);  // the attitude is reconstructed consistently
  }

  // Central force: w2 = r² θ̇ (twice the areal velocity) and the energy are conserved.
  void centralForceConservesArealVelocity() {
    const auto system = findSystem("central_force");
    Simulation sim(system, DynamicsKind::Nonholonomic, Formulation::Multipliers, tight());
    const auto x0 = initialState(sim.equations(), 0, {{"w1", 0.2}, {"w2", 0.9}});
    sim.setState(0, x0);
    const double e0 = sim.equations().energy(sim.workspace(), 0, x0.data());
    double worstW = 0, worstE = 0, prevTheta = x0[1], prevT = 0, worstAreal = 0;
    sim.advance(1000, 0.01, [&](double t, const double* x) {
      worstW = std::max(worstW, std::abs(x[3] - 0.9) / 0.9);
      worstE = std::max(
          worstE, std::abs(sim.equations().energy(sim.workspace(), t, x) - e0) / std::abs(e0));
      if (t > 0 && t < 20) {  // r² θ̇ from the trajectory itself (central differences are O(dt²))
        const double thetaDot = (x[1] - prevTheta) / (t - prevT);
        worstAreal = std::max(worstAreal, std::abs(x[0] * x[0] * thetaDot - 0.9));
      }
      prevTheta = x[1];
      prevT = t;
    });
    qInfo("relative drift over 1000 time units: w2 %.2e, energy %.2e", worstW, worstE);
    QVERIFY(worstW < 1e-9);
    QVERIFY(worstE < 1e-9);
    QVERIFY(worstAreal < 0.05);  // first-order difference quotient over dt = 0.01
  }

  // Measured convergence order of each stepper used at a fixed step matches its nominal
  // order (odeint's own tests do the same): rk4 → 4, dopri5 → 5, rk78 → 8.
  void convergenceOrders() {
    const double T = 4;
    auto referenceOf = [&](const char* system) {
      Simulation ref(findSystem(system), DynamicsKind::Nonholonomic, Formulation::Multipliers,
                     tight());
      ref.setOptions([] {
        auto o = tight();
        o.projection = false;
        return o;
      }());
      ref.setState(0, initialState(ref.equations(), 0, {}));
      ref.advance(T, T, {});
      return ref.state();
    };
    // The rigid body (smooth, well-scaled) for all three steppers.
    const char* system = "rigid_body";
    const auto rigidReference = referenceOf(system);
    auto order = [&](auto stepperTag, double h) {
      using Stepper = decltype(stepperTag);
      const double e1 = fixedStepError<Stepper>(system, h, T, rigidReference);
      const double e2 = fixedStepError<Stepper>(system, h / 2, T, rigidReference);
      qInfo("  h = %g: error %.3e, h/2: error %.3e", h, e1, e2);
      return std::log2(e1 / e2);
    };
    const double p4 = order(odeint::runge_kutta4<std::vector<double>>(), 0.1);
    const double p5 = order(odeint::runge_kutta_dopri5<std::vector<double>>(), 0.2);
    const double p8 = order(odeint::runge_kutta_fehlberg78<std::vector<double>>(), 0.4);
    qInfo("measured orders: rk4 %.2f, dopri5 %.2f, rk78 %.2f", p4, p5, p8);
    QVERIFY(std::abs(p4 - 4) < 0.3);
    QVERIFY(std::abs(p5 - 5) < 0.3);
    QVERIFY(std::abs(p8 - 8) < 0.5);

    // The same through Simulation's own fixed-step path (rk4 with --step), on a system
    // with structure functions that depend on q.
    const auto reference = referenceOf("central_force");
    auto simError = [&](double h) {
      IntegratorOptions o;
      o.method = Integrator::Rk4;
      o.step = h;
      o.projection = false;
      Simulation s(findSystem("central_force"), DynamicsKind::Nonholonomic,
                   Formulation::Multipliers, o);
      s.setState(0, initialState(s.equations(), 0, {}));
      s.advance(T, 0.5, {});
      double err = 0;
      for (size_t i = 0; i < reference.size(); ++i)
        err = std::max(err, std::abs(s.state()[i] - reference[i]));
      return err;
    };
    const double pSim = std::log2(simError(0.05) / simError(0.025));
    QVERIFY2(std::abs(pSim - 4) < 0.3, qPrintable(QString::number(pSim)));
  }

  // The dense steppers through Simulation (restarts after projection, reconstruction of the
  // attitude and the rejections it hands back) agree with a tight dop853 run of the free rigid
  // body over 20 time units, within 1e3 × their rtol (20 time units of error growth).
  // Left out, as measured here: arkode78 with reconstruction (3.7e-6 at rtol 1e-9: its
  // order-4 dense output feeds the reconstruction).
  void denseSteppersAgreeThroughSimulation() {
    struct Case {
      Integrator method;
      double rtol;
      bool reconstruction, projection;
    };
    auto run = [](const Case& c) {
      IntegratorOptions o;
      o.method = c.method;
      o.rtol = c.rtol;
      o.atol = 1e-2 * c.rtol;
      o.reconstruction = c.reconstruction;
      o.projection = c.projection;
      Simulation sim(findSystem("rigid_body"), DynamicsKind::Nonholonomic, Formulation::Multipliers,
                     o);
      sim.setParameters({1.0, 2.0, 3.5});
      sim.setState(0, initialState(sim.equations(), 0, {{"w1", 0.3}, {"w2", 1.1}, {"w3", -0.4}}));
      sim.advance(20, 0.5, {});
      return std::pair{sim.state(), sim.stepsTaken()};
    };
    const auto reference = run({Integrator::Dop853, 1e-13, false, true}).first;
    for (const Case& c :
         {Case{Integrator::Dopri5, 1e-9, true, true}, Case{Integrator::Dop853, 1e-9, true, true},
          Case{Integrator::Fehlberg78Arkode, 1e-9, false, true},
          Case{Integrator::BdfCvode, 1e-7, true, true},
          Case{Integrator::BdfCvode, 1e-7, false, true},
          Case{Integrator::BdfCvode, 1e-7, true, false},
          Case{Integrator::BdfCvode, 1e-7, false, false}}) {
      const auto [x, steps] = run(c);
      double err = 0;
      for (size_t i = 0; i < x.size(); ++i) err = std::max(err, std::abs(x[i] - reference[i]));
      qInfo(
          "%-8s rtol %.0e, reconstruction %d, projection %d: %ld steps, max |x − reference| "
          "%.2e",
          toString(c.method).c_str(), c.rtol, c.reconstruction, c.projection, steps, err);
      QVERIFY2(err < 1e3 * c.rtol, toString(c.method).c_str());
    }
  }

  // Drift control does not cost BDF steps: CVODE projects inside its steps and keeps its
  // history, so with projection (the default) it takes at most 15 % more steps than without
  // on every catalogue system over 10 s from the default start (0–9 % measured). A
  // projection that restarted it after its steps (back to order 1, first step tiny) took
  // 10³–10⁶ times more, growing like 1/rtol. Both SUNDIALS integrators stay within 4.5× the
  // steps of dopri5 at the same tolerance integrating the same state (arkode78's dense output
  // cannot carry reconstructed coordinates, so it steps the whole state, as dopri5 with
  // --no-reconstruction does): arkode78 takes 0.04–0.9×, BDF 0.3–3× on fifteen systems and
  // 3.0–4.5× on five smooth, slow motions, the same without projection (its start at order 1
  // and BDF5's error constant at rtol 1e-10).
  void sundialsStepCountsFollowDopri5() {
    struct Count {
      long steps;
      bool reconstructed;
    };
    auto count = [](const std::shared_ptr<const SystemModel>& system, Integrator method,
                    bool reconstruction, bool projection = true) {
      IntegratorOptions o;
      o.method = method;
      o.reconstruction = reconstruction;
      o.projection = projection;
      Simulation sim(system, DynamicsKind::Nonholonomic, Formulation::Multipliers, o);
      sim.setState(0, initialState(sim.equations(), 0, {}));
      sim.advance(10, 0.05, {});
      return Count{sim.stepsTaken(), sim.reconstructs()};
    };
    QStringList over;
    for (const auto& system : catalogue()) {
      if (system->info().isControlModel()) continue;
      const std::string name = system->name();
      for (Integrator method : {Integrator::BdfCvode, Integrator::Fehlberg78Arkode}) {
        const Count taken = count(system, method, true);
        const long dopri5 = count(system, Integrator::Dopri5, taken.reconstructed).steps;
        const double ratio = double(taken.steps) / double(dopri5);
        qInfo("%-26s %-8s %6ld  dopri5 %6ld  (%.2f×)", name.c_str(), toString(method).c_str(),
              taken.steps, dopri5, ratio);
        if (ratio > 4.5)
          over << QString::fromStdString(name + " " + toString(method)) +
                      QString(": %1 steps against dopri5's %2").arg(taken.steps).arg(dopri5);
        if (method != Integrator::BdfCvode) continue;
        const long unprojected = count(system, method, true, false).steps;
        if (double(taken.steps) > 1.15 * double(unprojected) + 2)
          over << QString::fromStdString(name) +
                      QString(": bdf took %1 steps with projection, %2 without")
                          .arg(taken.steps)
                          .arg(unprojected);
      }
    }
    QVERIFY2(over.isEmpty(), qPrintable(over.join("; ")));
  }

  // Drift control is on by default and switchable: at loose tolerance the residual grows
  // without it and stays at round-off with it.
  void projectionIsSwitchable() {
    auto worstResidual = [](bool projection) {
      IntegratorOptions o;
      o.rtol = 1e-5;
      o.atol = 1e-7;
      o.projection = projection;
      Simulation sim(findSystem("nh_particle"), DynamicsKind::Nonholonomic,
                     Formulation::Multipliers, o);
      sim.setState(0, initialState(sim.equations(), 0, {}));
      double worst = 0;
      sim.advance(200, 1, [&](double t, const double* x) {
        worst = std::max(worst, sim.equations().residual(t, x));
      });
      return worst;
    };
    const double on = worstResidual(true), off = worstResidual(false);
    qInfo("max |Φ| with projection %.2e, without %.2e", on, off);
    QVERIFY(on < 1e-12);
    QVERIFY(off > 1e-9);
  }

  void samplesLandOnTheOutputGrid() {
    for (Integrator method :
         {Integrator::Dopri5, Integrator::Dop853, Integrator::Rk78, Integrator::Rk4,
          Integrator::Fehlberg78Arkode, Integrator::BdfCvode}) {
      IntegratorOptions o;
      o.method = method;
      o.step = 0.003;
      Simulation sim(findSystem("rolling_disk"), DynamicsKind::Nonholonomic,
                     Formulation::Multipliers, o);
      sim.setState(0, initialState(sim.equations(), 0, {}));
      std::vector<double> times;
      sim.advance(2.0, 0.1, [&](double t, const double*) { times.push_back(t); });
      QCOMPARE(times.size(), size_t(21));
      for (size_t i = 0; i < times.size(); ++i) QVERIFY(std::abs(times[i] - 0.1 * i) < 1e-12);
      QVERIFY(std::abs(sim.time() - 2.0) < 1e-12);
      // Continue in a second call: the grid goes on without repeating t = 2.
      sim.advance(2.5, 0.1, [&](double t, const double*) { times.push_back(t); });
      QCOMPARE(times.size(), size_t(26));
      QVERIFY(std::abs(times.back() - 2.5) < 1e-12);
    }
  }

  // A parameter edited mid-run takes effect from the current state on.
  void parameterChangeTakesEffectFromCurrentState() {
    const auto system = findSystem("ball_on_turntable");
    Simulation sim(system, DynamicsKind::Nonholonomic);
    const auto params = resolveParameters(*system, {});
    sim.setParameters(params);
    sim.setState(0, initialState(sim.equations(), 0, {}));
    sim.advance(3, 0.1, {});
    const auto mid = sim.state();
    auto doubled = params;
    doubled[system->parameterIndex("Omega0")] = 2.0;
    sim.setParameters(doubled);
    sim.advance(3.5, 0.1, {});
    // Compare with a fresh run from the mid state with Ω = 2.
    Simulation fresh(system, DynamicsKind::Nonholonomic);
    fresh.setParameters(doubled);
    fresh.setState(3, mid);
    fresh.advance(3.5, 0.1, {});
    // Same motion up to the integrator tolerance (the two steppers restart with different steps).
    for (size_t i = 0; i < mid.size(); ++i)
      QVERIFY2(
          std::abs(sim.state()[i] - fresh.state()[i]) < 1e-8,
          qPrintable(QString("%1: %2 vs %3").arg(i).arg(sim.state()[i]).arg(fresh.state()[i])));
    // …and visibly different from going on with Ω = 1.
    Simulation unchanged(system, DynamicsKind::Nonholonomic);
    unchanged.setParameters(params);
    unchanged.setState(3, mid);
    unchanged.advance(3.5, 0.1, {});
    QVERIFY(std::abs(unchanged.state()[0] - sim.state()[0]) +
                std::abs(unchanged.state()[1] - sim.state()[1]) >
            1e-3);
  }

  // A radial plunge into an attracting centre (r → 0) blows up at the collision; the
  // mass matrix diag(m, m/r²) is badly scaled there but regular, and is not reported as such.
  void collisionIsReportedAsBlowUp() {
    Simulation sim(findSystem("central_force"), DynamicsKind::Nonholonomic);
    sim.setState(0, initialState(sim.equations(), 0, {{"w2", 0.0}}));
    int rows = 0;
    try {
      sim.advance(10, 0.01, [&](double, const double*) { ++rows; });
      QFAIL("expected IntegrationError");
    } catch (const IntegrationError& e) {
      qInfo("%s", e.what());
      // Free fall from r = 1 to 0 under k/r² takes π/(2√2) ≈ 1.1107.
      QVERIFY(std::abs(e.time() - M_PI / (2 * std::sqrt(2.0))) < 0.01);
      QVERIFY(rows > 100);
    }
  }

  // A repulsive cubic force r̈ = r³ escapes to infinity in finite time: the integration
  // error names the time of the blow-up.
  void blowUpIsReportedWithTime() {
    Simulation sim(findSystem("central_force"), DynamicsKind::Nonholonomic);
    sim.setParameters({1.0, -1.0, 3.0});
    sim.setState(0, initialState(sim.equations(), 0, {{"w1", 1.0}, {"w2", 0.0}}));
    // ṙ² = ½(1 + r⁴) from r = 1: t* = √2 ∫₁^∞ dr/√(1 + r⁴) ≈ 1.311.
    double tLast = 0;
    try {
      sim.advance(10, 0.01, [&](double t, const double*) { tLast = t; });
      QFAIL("expected IntegrationError");
    } catch (const IntegrationError& e) {
      qInfo("%s", e.what());
      QVERIFY(QString(e.what()).contains("blew up at t = "));
      QVERIFY2(std::abs(e.time() - 1.3110) < 0.01, qPrintable(QString::number(e.time())));
      QVERIFY(tLast > 1.2);
    }
  }
};

QTEST_APPLESS_MAIN(SimulationTest)
#include "simulation_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
