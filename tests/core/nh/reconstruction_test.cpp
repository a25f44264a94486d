// Reduction and reconstruction (core/nh/reconstruction.h): which coordinates the
// tape finds unread, that the reconstructed runs agree with tight full integrations, that
// Magnus keeps the attitude unit without projection, and that a ball spinning at 10⁴ rad/s
// on a tilted turntable is followed in a few hundred steps with the drift of the closed form.
#include "core/nh/reconstruction.h"

#include <QtTest>
#include <cmath>
#include <map>
#include <numbers>

#include "core/model/catalogue.h"
#include "core/nh/scenario.h"
#include "core/nh/simulation.h"
#include "tests/support/catalogue_systems.h"

using namespace nh;

namespace {

std::vector<std::string> reconstructedNames(const SystemModel& system) {
  const EquationsOfMotion eq(findSystem(system.name()), DynamicsKind::Nonholonomic);
  const ReconstructionPlan* plan = eq.reconstructionPlan();
  std::vector<std::string> names;
  if (!plan || !plan->available) return names;
  std::vector<int> indices = plan->entries;
  std::sort(indices.begin(), indices.end());
  for (int i : indices) names.push_back(system.info().coordinates[i]);
  return names;
}

struct Run {
  std::vector<std::vector<double>> samples;
  long steps = 0;
  bool reduced = false;
};

Run simulate(const std::string& name, const std::map<std::string, double>& params,
             Integrator method, double tol, bool reconstruct, double tEnd, double dtOut,
             bool projection = true) {
  const auto system = findSystem(name);
  IntegratorOptions options;
  options.method = method;
  options.rtol = options.atol = tol;
  options.reconstruction = reconstruct;
  options.projection = projection;
  Simulation sim(std::make_shared<const EquationsOfMotion>(system, DynamicsKind::Nonholonomic,
                                                           Formulation::Multipliers,
                                                           resolveParameters(*system, params)),
                 options);
  sim.setState(0, initialState(sim.equations(), 0, {}));
  Run run;
  sim.advance(tEnd, dtOut, [&](double, const double* x) {
    run.samples.emplace_back(x, x + sim.equations().stateSize());
  });
  run.steps = sim.stepsTaken();
  run.reduced = sim.reconstructs();
  return run;
}

}  // namespace

class ReconstructionTest : public QObject {
  Q_OBJECT
 private slots:
  // What the tape finds: a coordinate is reconstructed when no term of the equations reads
  // it, and its rate reads no other reconstructed coordinate (a quaternion's own, linearly).
  void plansFoundOnTheTape() {
    using Names = std::vector<std::string>;
    const std::map<std::string, Names> expected = {
        // Ω × r reads the position: only the attitude is free.
        {"ball_on_turntable", {"qw", "qx", "qy", "qz"}},
        {"ball_on_table", {"x", "y", "qw", "qx", "qy", "qz"}},
        {"rigid_body", {"qw", "qx", "qy", "qz"}},
        {"nh_particle", {"x", "z"}},
        {"rolling_disk", {"x", "y", "theta"}},
        // x and y move with the heading θ, which nothing else reads either: a chain that
        // would need a Lie-group method on SE(2). The whole state is stepped.
        {"chaplygin_sleigh", {}},
        // The attitude enters the rolling constraint of an ellipsoid or an offset centre.
        {"rattleback", {"x", "y"}},
        {"chaplygin_sphere", {"x", "y"}},
        // Holonomic constraints and singular points: the whole state is stepped.
        {"whipple_bicycle", {}},
    };
    for (const auto& [name, names] : expected) {
      const auto got = reconstructedNames(*findSystem(name));
      QString text;
      for (const auto& s : got) text += QString::fromStdString(s) + " ";
      QVERIFY2(got == names, qPrintable(QString::fromStdString(name) + ": " + text));
    }
  }

  // Every catalogue system with something to reconstruct: DOP853 at 1e-12 with
  // reconstruction against DOP853 at 1e-14 stepping the whole state, all entries of every
  // sample over 10 s within 1e-10 (relative above 1); measured 5e-14 to 3e-11.
  void reconstructedAgreesWithFullIntegration() {
    int checked = 0;
    for (const auto& system : test::systemsWithDynamics()) {
      if (reconstructedNames(*system).empty()) continue;
      const Run reduced = simulate(system->name(), {}, Integrator::Dop853, 1e-12, true, 10, 0.5);
      const Run full = simulate(system->name(), {}, Integrator::Dop853, 1e-14, false, 10, 0.5);
      QVERIFY(reduced.reduced && !full.reduced);
      QCOMPARE(reduced.samples.size(), full.samples.size());
      double worst = 0;
      for (std::size_t k = 0; k < full.samples.size(); ++k)
        for (std::size_t i = 0; i < full.samples[k].size(); ++i)
          worst = std::max(worst, std::abs(reduced.samples[k][i] - full.samples[k][i]) /
                                      std::max(1.0, std::abs(full.samples[k][i])));
      const Run same = simulate(system->name(), {}, Integrator::Dop853, 1e-12, false, 10, 0.5);
      double worstFull = 0;
      for (std::size_t k = 0; k < full.samples.size(); ++k)
        for (std::size_t i = 0; i < full.samples[k].size(); ++i)
          worstFull = std::max(worstFull, std::abs(same.samples[k][i] - full.samples[k][i]) /
                                              std::max(1.0, std::abs(full.samples[k][i])));
      // The rattleback's motion amplifies any difference (a full run at 1e-12 is 6e-9 off
      // the tight one after 10 s): there the reduced run may be as far off as that, ×2.
      QVERIFY2(worst <= std::max(1e-10, 2 * worstFull),
               qPrintable(QString::fromStdString(system->name()) +
                          QString(": largest difference %1 (full run at 1e-12: %2)")
                              .arg(worst)
                              .arg(worstFull)));
      ++checked;
    }
    QVERIFY(checked >= 5);
  }

  // The same with dopri5, whose dense output is of order 4: 1e-12 against the tight run.
  void dopri5ReconstructsToo() {
    const Run reduced =
        simulate("ball_on_turntable", {{"Omega_amp", 0.2}}, Integrator::Dopri5, 1e-12, true, 20, 1);
    const Run full = simulate("ball_on_turntable", {{"Omega_amp", 0.2}}, Integrator::Dop853, 1e-14,
                              false, 20, 1);
    double worst = 0;
    for (std::size_t k = 0; k < full.samples.size(); ++k)
      for (std::size_t i = 0; i < full.samples[k].size(); ++i)
        worst = std::max(worst, std::abs(reduced.samples[k][i] - full.samples[k][i]));
    QVERIFY2(worst <= 1e-10, qPrintable(QString("largest difference %1").arg(worst)));
  }

  // Reconstruction takes the attitude out of the error control: far fewer steps.
  void fewerStepsWhenReduced() {
    const std::map<std::string, double> wobble = {{"Omega_amp", 0.2}};
    const Run reduced =
        simulate("ball_on_turntable", wobble, Integrator::Dop853, 1e-10, true, 200, 10);
    const Run full =
        simulate("ball_on_turntable", wobble, Integrator::Dop853, 1e-10, false, 200, 10);
    // scipy's DOP853 on the reduced state (no attitude) takes 456 steps here
    // (scripts/bench-reduced-scipy.py); the goal is within 1.5× of that.
    QVERIFY2(reduced.steps <= 684, qPrintable(QString::number(reduced.steps)));
    QVERIFY2(full.steps > 2 * reduced.steps, qPrintable(QString::number(full.steps)));
  }

  // exp(Ω) is a rotation: without any projection the attitude stays unit to round-off.
  void magnusKeepsTheQuaternionUnit() {
    const Run run = simulate("rigid_body", {}, Integrator::Dop853, 1e-8, true, 200, 1,
                             /*projection=*/false);
    const int first = findSystem("rigid_body")->coordinateIndex("qw");
    double worst = 0;
    for (const auto& x : run.samples) {
      const double norm = std::sqrt(x[first] * x[first] + x[first + 1] * x[first + 1] +
                                    x[first + 2] * x[first + 2] + x[first + 3] * x[first + 3]);
      worst = std::max(worst, std::abs(norm - 1));
    }
    QVERIFY2(worst <= 1e-13, qPrintable(QString::number(worst)));
  }

  // A table tilted by β at constant Ω: the ball drifts sideways at 5 g sin β /(2Ω) while
  // circling at 2Ω/7; after 4 revolutions it is 170 m out, the table moves at 170 m/s under
  // it and it spins at 1.7·10³ rad/s. Stepping the attitude needs millions of steps at
  // 1e-12; reconstruction a few hundred, and the drift matches the closed form.
  void spinningBallOnATiltedTable() {
    const double beta = 0.1, omega = 1, g = 9.81;
    const double tEnd = 4 * 7 * std::numbers::pi / omega;  // 4 periods of 2π/(2Ω/7)
    const Run run = simulate("ball_on_turntable", {{"tilt", beta}}, Integrator::Dop853, 1e-12, true,
                             tEnd, tEnd / 4);
    const double drift = 5 * g * std::sin(beta) / (2 * omega) * tEnd;
    const int y = findSystem("ball_on_turntable")->coordinateIndex("y");
    const double got = std::abs(run.samples.back()[y]);
    QVERIFY2(std::abs(got - drift) <= 1e-10 * drift,
             qPrintable(
                 QString("drift %1, closed form %2").arg(got, 0, 'g', 17).arg(drift, 0, 'g', 17)));
    QVERIFY2(run.steps < 2000, qPrintable(QString::number(run.steps)));
  }
};

QTEST_APPLESS_MAIN(ReconstructionTest)
#include "reconstruction_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
