// discrete-gradient (core/nh/discrete_gradient.cpp) through Simulation: on every bundled
// system it accepts, the constraints hold to round-off and the conserved quantity (the energy,
// or energy_frame for the turntable's affine constraints) changes by round-off only; the
// refused ones are refused in one line with their reason. Its global error falls like h²
// against DOP853 at 1e-13; N steps forward and N back with reversed velocities end at the
// start; over 10⁵ steps the conserved quantity stays within 1e-12 of its start; quaternion norms
// are held.
#include "core/nh/discrete_gradient.h"

#include <QtTest>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/model/catalogue.h"
#include "core/model/model_file.h"
#include "core/nh/errors.h"
#include "core/nh/frame_energy.h"
#include "core/nh/scenario.h"
#include "core/nh/simulation.h"
#include "tests/support/fixed_step_properties.h"
#include "tests/support/veselova_model.h"

using namespace nh;
using nh::test::quaternionResidual;

namespace {

IntegratorOptions dgOptions(double step, bool projection = false) {
  IntegratorOptions options;
  options.method = Integrator::DiscreteGradient;
  options.step = step;
  options.projection = projection;
  return options;
}

// The step each accepted system is stepped with (the rattleback rocks fast: ω ≈ 90 rad/s).
double stepFor(const std::string& system) { return system == "rattleback" ? 0.0025 : 0.01; }

// The quantity the method conserves at (t, x): energy_frame where it keeps that, else E.
double conserved(Simulation& sim, bool frame, double t, const double* x) {
  if (!frame) return sim.equations().energy(sim.workspace(), t, x);
  Observables observed;
  sim.equations().observe(sim.workspace(), t, x, observed);
  return frameEnergy(sim.equations(), t, x, observed);
}

struct RunMeasure {
  double residual = 0;  // largest constraint or quaternion residual at a step's end
  double drift = 0;     // largest |𝓔 − 𝓔0| / |𝓔0|
  long samples = 0;
};

// `steps` steps of `system` from its default start without drift control, measured after
// every step.
RunMeasure measureRun(const std::shared_ptr<const SystemModel>& system, long steps, double h) {
  Simulation sim(system, DynamicsKind::Nonholonomic, Formulation::Multipliers, dgOptions(h));
  sim.setState(0, initialState(sim.equations(), 0, {}));
  const bool frame = discreteGradientFit(sim.equations(), sim.state().data()).frameEnergy;
  const double e0 = conserved(sim, frame, 0, sim.state().data());
  RunMeasure out;
  sim.advance(h * static_cast<double>(steps), h, [&](double t, const double* x) {
    out.residual = std::max(
        {out.residual, sim.equations().residual(t, x), quaternionResidual(sim.equations(), x)});
    out.drift = std::max(out.drift, std::abs(conserved(sim, frame, t, x) - e0) / std::abs(e0));
    ++out.samples;
  });
  return out;
}
RunMeasure measureRun(const std::string& system, long steps, double h) {
  return measureRun(findSystem(system), steps, h);
}

// Veselova's system, as a user typed it in (tests/support/veselova_model.h: a rigid body about
// a fixed point whose angular velocity stays orthogonal to the vertical, ⟨ω, γ⟩ = 0). Its one
// constraint can be solved for w3 only where γ₃ ≠ 0, for w1 only where γ₁ ≠ 0: from its start
// γ₃ crosses 0 at t ≈ 0.68 and γ₁ at t ≈ 0.4, where a split of the velocities kept too long
// made Newton's method fail at every step size. `independent` is the declared choice.
std::string veselova(const std::string& independent) {
  const std::string& text = nh::test::kVeselovaModel;
  const std::string declared = "[w1, w2]\n";
  const size_t at = text.find("independent: " + declared) + 13;
  std::string out = text.substr(0, at);  // appended in steps (GCC 12's -Wrestrict)
  out += independent;
  out += "\n";
  out += text.substr(at + declared.size());
  return out;
}

// What the method refuses among the bundled systems, by a word of the reason.
const std::map<std::string, std::string> kRefused = {
    {"appell_hamel", "nonlinear"},
    {"constant_speed_particle", "nonlinear"},
    {"ball_on_conveyor", "depend on time explicitly"},
    {"graded_index_ray", "skew bracket"},
    {"spherical_pendulum", "not holonomic ones"},
    {"whipple_bicycle", "not holonomic ones"},
};
const std::set<std::string> kAccepted = {
    "ball_on_table",    "ball_on_turntable",
    "central_force",    "chaplygin_sleigh",
    "chaplygin_sphere", "knife_edge_on_incline",
    "nh_particle",      "nonholonomic_oscillator",
    "rattleback",       "rigid_body",
    "rolling_disk",     "rolling_disk_3d",
    "sliding_ball",     "suslov",
    "suslov_oblique",
};

}  // namespace

class DiscreteGradientTest : public QObject {
  Q_OBJECT
 private slots:
  // Every bundled system (control models aside) is either accepted, and then 200 steps hold
  // the constraints and the conserved quantity to round-off, or refused in one line with its
  // reason.
  void everyBundledSystem() {
    std::set<std::string> accepted;
    for (const auto& system : catalogue()) {
      if (system->info().isControlModel()) continue;
      const std::string name = system->name();
      const EquationsOfMotion equations(system, DynamicsKind::Nonholonomic);
      const std::vector<double> x0 = initialState(equations, 0, {});
      const DiscreteGradientFit fit = discreteGradientFit(equations, x0.data());
      if (!fit.refusal.empty()) {
        QVERIFY2(kRefused.count(name),
                 qPrintable(QString::fromStdString(name + ": " + fit.refusal)));
        QVERIFY2(fit.refusal.find(kRefused.at(name)) != std::string::npos, fit.refusal.c_str());
        QVERIFY(fit.refusal.find('\n') == std::string::npos);
        QVERIFY(fit.refusal.find("choose") != std::string::npos);
        continue;
      }
      accepted.insert(name);
      QCOMPARE(fit.frameEnergy, name == "ball_on_turntable");
      const RunMeasure run = measureRun(name, 200, stepFor(name));
      QCOMPARE(run.samples, 201L);
      QVERIFY2(run.residual <= 1e-12, qPrintable(QString::fromStdString(name) +
                                                 QString(" residual %1").arg(run.residual)));
      QVERIFY2(run.drift <= 1e-13,
               qPrintable(QString::fromStdString(name) + QString(" drift %1").arg(run.drift)));
    }
    QCOMPARE(accepted, kAccepted);
  }

  // Global error at t = 2 with steps h, h/2, h/4 against DOP853 at 1e-13: ratios near 4.
  void secondOrder_data() {
    QTest::addColumn<QString>("system");
    QTest::newRow("sleigh") << "chaplygin_sleigh";
    QTest::newRow("chaplygin sphere (quaternion)") << "chaplygin_sphere";
    QTest::newRow("ball on the turntable (affine)") << "ball_on_turntable";
  }
  void secondOrder() {
    QFETCH(QString, system);
    const auto errors =
        test::globalErrors(system.toStdString(), Integrator::DiscreteGradient, 2, 0.02);
    for (int i = 0; i < 2; ++i) {
      const double ratio = errors[i] / errors[i + 1];
      QVERIFY2(ratio > 3.6 && ratio < 4.4,
               qPrintable(QString("errors %1 %2 %3").arg(errors[0]).arg(errors[1]).arg(errors[2])));
    }
  }

  // N steps forward, velocities reversed, N steps back, velocities reversed: the start again.
  void timeSymmetric_data() {
    QTest::addColumn<QString>("system");
    QTest::newRow("sleigh") << "chaplygin_sleigh";
    QTest::newRow("suslov") << "suslov";
    QTest::newRow("chaplygin sphere (quaternion)") << "chaplygin_sphere";
    QTest::newRow("rattleback") << "rattleback";
  }
  void timeSymmetric() {
    QFETCH(QString, system);
    const double step = system == "rattleback" ? 0.0025 : 0.05;
    const test::ReturnTrip trip =
        test::returnTrip(system.toStdString(), Integrator::DiscreteGradient, step);
    QVERIFY(trip.distance > 1e-2);  // it went somewhere
    QVERIFY2(trip.error < 1e-10, qPrintable(QString("back at the start to %1").arg(trip.error)));
  }

  // 10⁵ steps without drift control (10⁴ under the sanitizers): |𝓔 − 𝓔0| / |𝓔0| ≤ 1e-12
  // after every step, the constraints and quaternion norms at round-off.
  void conservedOverLongRuns_data() {
    QTest::addColumn<QString>("system");
    QTest::newRow("sleigh") << "chaplygin_sleigh";
    QTest::newRow("suslov") << "suslov";
    QTest::newRow("chaplygin sphere (quaternion)") << "chaplygin_sphere";
    QTest::newRow("ball on the turntable (energy_frame)") << "ball_on_turntable";
  }
  void conservedOverLongRuns() {
    QFETCH(QString, system);
    const long steps = test::longRunSteps(100'000);
    const RunMeasure run = measureRun(system.toStdString(), steps, 0.01);
    QCOMPARE(run.samples, steps + 1);
    QVERIFY2(run.drift <= 1e-12, qPrintable(QString("relative change %1").arg(run.drift)));
    QVERIFY2(run.residual <= 1e-12, qPrintable(QString("residual %1").arg(run.residual)));
  }

  // Over 100 s (10 s under the sanitizers) across the states where a declared split of the
  // velocities degenerates (the Veselova system with either split, γ₃ or γ₁ crossing 0) and through
  // the rattleback's fast rocking, at every step size the method is used with: the energy within
  // 1e-12, the constraints and the quaternion's norm at round-off. The split is chosen anew at each
  // step from the best-conditioned columns of the constraints, with hysteresis.
  void degenerateSplitsAreCrossed_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<double>("step");
    for (double h : {0.02, 0.01, 0.005}) {
      QTest::addRow("veselova w1 w2 h=%g", h) << "[w1, w2]" << h;
      QTest::addRow("veselova w2 w3 h=%g", h) << "[w2, w3]" << h;
    }
    for (double h : {0.01, 0.005}) QTest::addRow("rattleback h=%g", h) << "" << h;
  }
  void degenerateSplitsAreCrossed() {
    QFETCH(QString, model);
    QFETCH(double, step);
    const auto system = model.isEmpty()
                            ? findSystem("rattleback")
                            : model::loadModelText(veselova(model.toStdString()), "veselova.yaml");
    const long steps = test::longRunSteps(std::lround(100 / step));
    const RunMeasure run = measureRun(system, steps, step);
    QCOMPARE(run.samples, steps + 1);
    QVERIFY2(run.drift <= 1e-12, qPrintable(QString("relative change %1").arg(run.drift)));
    QVERIFY2(run.residual <= 1e-12, qPrintable(QString("residual %1").arg(run.residual)));
  }

  // What the method cannot step is refused in one line (vakonomic, hamiltonian, a tilted
  // turntable whose energy_frame is not conserved, a driven one), and a step too large for
  // Newton's method stops the run with the reason.
  void refusals() {
    const auto sleigh = findSystem("chaplygin_sleigh");
    Simulation vakonomic(sleigh, DynamicsKind::Vakonomic, Formulation::Multipliers,
                         dgOptions(0.01));
    vakonomic.setState(0, initialState(vakonomic.equations(), 0, {}));
    try {
      vakonomic.advance(1, 1, {});
      QFAIL("vakonomic dynamics accepted");
    } catch (const InputError& e) {
      QVERIFY(std::string(e.what()).find("nonholonomic dynamics only") != std::string::npos);
    }
    Simulation hamiltonian(sleigh, DynamicsKind::Nonholonomic, Formulation::Hamiltonian,
                           dgOptions(0.01));
    hamiltonian.setState(0, initialState(hamiltonian.equations(), 0, {}));
    QVERIFY_THROWS_EXCEPTION(InputError, hamiltonian.advance(1, 1, {}));
    const auto table = findSystem("ball_on_turntable");
    auto refusalWith = [&](const char* parameter, double value) {
      std::vector<double> p = table->defaultParameters();
      p[table->parameterIndex(parameter)] = value;
      const EquationsOfMotion equations(table, DynamicsKind::Nonholonomic, Formulation::Multipliers,
                                        p);
      const std::vector<double> x0 = initialState(equations, 0, {});
      return discreteGradientFit(equations, x0.data()).refusal;
    };
    QVERIFY(refusalWith("tilt", 0.3).find("do not keep it") != std::string::npos);
    QVERIFY(refusalWith("Omega_rate", 0.3).find("depend on time") != std::string::npos);
    Simulation huge(findSystem("rattleback"), DynamicsKind::Nonholonomic, Formulation::Multipliers,
                    dgOptions(50));
    huge.setState(0, initialState(huge.equations(), 0, {}));
    try {
      huge.advance(500, 50, {});
      QFAIL("a step of 50 s on the rattleback converged");
    } catch (const IntegrationError& e) {
      QVERIFY2(std::string(e.what()).find("did not converge") != std::string::npos, e.what());
    }
  }

  // What nhsim info prints.
  void summaries() {
    QCOMPARE(discreteGradientSummary({}), std::string("discrete-gradient: conserves the energy"));
    QCOMPARE(discreteGradientSummary({"", true}),
             std::string("discrete-gradient: conserves the energy in the constraints' reference "
                         "frame (energy_frame)"));
    QCOMPARE(discreteGradientSummary({"discrete-gradient needs x: choose nh-rattle"}),
             std::string("discrete-gradient: not applicable: needs x: choose nh-rattle"));
  }
};

QTEST_APPLESS_MAIN(DiscreteGradientTest)
#include "discrete_gradient_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
