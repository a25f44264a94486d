// The one run loop (core/nh/scenario_run.h) and the comparison set-up (core/nh/comparison.h):
// a sample every dt-out and one at an off-grid t-end, each row checked finite and tallied,
// the caller's stop check after every sample, the "partial" line naming what stopped a run,
// and a comparison run that is the other dynamics, the ghost's value or the other integrator
// from the same start. The app's worker and nhsim start their runs through the two
// constructors; both must give the same motion.
#include "core/nh/scenario_run.h"

#include <QtTest>
#include <cmath>

#include "core/model/catalogue.h"
#include "core/model/model_file.h"
#include "core/nh/errors.h"

using namespace nh;

namespace {

// A particle sliding along x at unit speed with an output that stops being finite where x
// passes 1 (its motion stays finite): the row check ends the run there.
std::shared_ptr<const SystemModel> sliderWithRoot() {
  return model::loadModelText(
      "format: nonholonomic-lab-system\nversion: 1\nname: sqrt_slider\nparameters:\n"
      "  - {name: m, default: 1.0, min: 0, min_exclusive: true}\ncoordinates: [x, y]\n"
      "velocities: [vx, vy]\nlagrangian: 0.5*m*(vx*vx + vy*vy)\n"
      "outputs: {root: sqrt(1 - x)}\nconstraints:\n  - vy\ninitial: {x: 0, y: 0, vx: 1, vy: "
      "0}\nindependent: [vx]\n",
      "sqrt_slider.yaml");
}

Scenario particle(double tEnd, double dtOut) {
  Scenario s;
  s.system = "nh_particle";
  s.tEnd = tEnd;
  s.dtOut = dtOut;
  return s;
}

struct Stop {
  double t;
};

}  // namespace

class ScenarioRunTest : public QObject {
  Q_OBJECT
 private slots:
  // A row at t = 0, every dt-out, and one at an off-grid t-end only when asked for.
  void samplesOnTheGridAndAtTheEnd() {
    for (const bool lastAtEnd : {false, true}) {
      const Scenario s = particle(0.105, 0.01);
      ScenarioRun run(findSystem(s.system), s);
      std::vector<double> times;
      run.advance(
          s.tEnd, s.dtOut, [&](const ScenarioRun::Sample& sample) { times.push_back(sample.t); },
          lastAtEnd);
      QCOMPARE(times.size(), lastAtEnd ? 12u : 11u);
      QCOMPARE(times.front(), 0.0);
      QCOMPARE(times[10], 0.1);
      if (lastAtEnd) QCOMPARE(times.back(), 0.105);
      QCOMPARE(run.tally().rows, static_cast<long>(times.size()));
    }
  }

  // The row handed out is the row of the columns, its energy the tally's; the particle
  // conserves energy, so no warning.
  void rowsAreTallied() {
    const Scenario s = particle(2, 0.01);
    ScenarioRun run(findSystem(s.system), s);
    std::vector<double> energies;
    const auto energy =
        std::find(run.columns().begin(), run.columns().end(), "energy") - run.columns().begin();
    run.advance(s.tEnd, s.dtOut, [&](const ScenarioRun::Sample& sample) {
      QCOMPARE(sample.row.size(), run.columns().size());
      QCOMPARE(sample.row[0], sample.t);
      energies.push_back(sample.row[static_cast<size_t>(energy)]);
    });
    QCOMPARE(run.tally().e0, energies.front());
    QCOMPARE(run.tally().e1, energies.back());
    QVERIFY(std::abs(run.tally().e1 - run.tally().e0) < 1e-9 * std::abs(run.tally().e0));
    QVERIFY(run.tally().maxResidual < 1e-9);
    QVERIFY(run.tally().warnings().empty());
    QCOMPARE(run.tally().last.size(), run.columns().size());
  }

  // The stop check runs after every sample: thrown after the third, exactly three samples
  // were delivered and tallied, and the exception reaches the caller.
  void stopCheckEndsTheRunAfterASample() {
    const Scenario s = particle(1, 0.01);
    ScenarioRun run(findSystem(s.system), s);
    long delivered = 0;
    run.setStopCheck([&](double t) {
      if (delivered == 3) throw Stop{t};
    });
    try {
      run.advance(s.tEnd, s.dtOut, [&](const ScenarioRun::Sample&) { ++delivered; });
      QFAIL("the stop check did not stop the run");
    } catch (const Stop& stop) {
      QCOMPARE(stop.t, 0.02);
    }
    QCOMPARE(delivered, 3L);
    QCOMPARE(run.tally().rows, 3L);
  }

  // A row that stops being finite ends the run as a blow-up naming the column; the samples
  // before it were delivered, all finite, and the partial line says where it stopped.
  void nonFiniteRowStopsTheRun() {
    RunSetup setup;
    setup.system = sliderWithRoot();
    setup.parameters = setup.system->defaultParameters();
    setup.x0 = {0, 0, 1, 0};
    ScenarioRun run(setup, 0.0);
    long delivered = 0;
    try {
      run.advance(3, 0.01, [&](const ScenarioRun::Sample& sample) {
        for (const double v : sample.row) QVERIFY(std::isfinite(v));
        ++delivered;
      });
      QFAIL("a non-finite row passed");
    } catch (const IntegrationError& e) {
      QVERIFY2(QString(e.what()).contains("blew up at t = 1.01: root = "), e.what());
      QCOMPARE(e.time(), 1.01);
      QCOMPARE(partialLine(e, delivered), "partial: stopped at t = " + formatValue(e.time()) +
                                              ", " + std::to_string(delivered) +
                                              " rows (the integration failed)");
    }
    QCOMPARE(delivered, 101L);
  }

  void partialLinesSayWhy() {
    QCOMPARE(partialLine(SingularSystemError("singular", 2.5, 1e20), 7),
             std::string("partial: stopped at t = 2.5, 7 rows (not regular or a singular point)"));
    QCOMPARE(partialLine(Error("disk full"), 7), std::string("partial: stopped after 7 rows"));
    QCOMPARE(interruptedLine(1.25, 2, 126),
             std::string("partial: interrupted at t = 1.25 by signal 2, 126 rows"));
  }

  // nhsim starts from the scenario, the app's worker from a set-up of the same start: one
  // motion.
  void bothStartsGiveOneMotion() {
    Scenario s;
    s.system = "ball_on_turntable";
    s.tEnd = 3;
    s.dtOut = 0.5;
    const auto system = findSystem(s.system);
    ScenarioRun fromScenario(system, s);
    RunSetup setup{system,
                   s.dynamics,
                   s.formulation,
                   s.integrator,
                   fromScenario.parameters(),
                   fromScenario.start().x0};
    ScenarioRun fromSetup(setup, 0.0);
    std::vector<std::vector<double>> a, b;
    fromScenario.advance(s.tEnd, s.dtOut,
                         [&](const ScenarioRun::Sample& x) { a.push_back(x.row); });
    fromSetup.advance(s.tEnd, s.dtOut, [&](const ScenarioRun::Sample& x) { b.push_back(x.row); });
    QCOMPARE(a.size(), b.size());
    for (size_t k = 0; k < a.size(); ++k)
      for (size_t c = 0; c < a[k].size(); ++c)
        QVERIFY2(std::abs(a[k][c] - b[k][c]) <= 1e-12 * (1 + std::abs(a[k][c])),
                 qPrintable(QString("row %1 column %2: %3 vs %4")
                                .arg(k)
                                .arg(c)
                                .arg(a[k][c], 0, 'g', 17)
                                .arg(b[k][c], 0, 'g', 17)));
  }

  // The comparison set-ups: the other dynamics with its multipliers starting at 0, the
  // ghost's value in place of the parameter's, the other integrator and its step.
  void comparisonSetUps() {
    const auto system = findSystem("nh_particle");
    RunSetup primary;
    primary.system = system;
    primary.parameters = system->defaultParameters();
    primary.options.method = Integrator::Dopri5;
    primary.formulation = Formulation::Hamiltonian;

    const RunSetup vakonomic =
        comparisonSetup(primary, {CompareMode::Vakonomic, "", 0, Integrator::NhRattle, 0.01});
    QVERIFY(vakonomic.dynamics == DynamicsKind::Vakonomic);
    QVERIFY(vakonomic.formulation ==
            formulationFor(DynamicsKind::Vakonomic, Formulation::Hamiltonian));
    QVERIFY(comparisonDynamics(DynamicsKind::Vakonomic, CompareMode::Vakonomic) ==
            DynamicsKind::Nonholonomic);

    const int m = system->parameterIndex("m");
    QVERIFY(m >= 0);
    const RunSetup ghost =
        comparisonSetup(primary, {CompareMode::Ghost, "m", 3.5, Integrator::NhRattle, 0.01});
    QCOMPARE(ghost.parameters[static_cast<size_t>(m)], 3.5);
    QVERIFY(ghost.dynamics == primary.dynamics);
    QVERIFY_THROWS_EXCEPTION(InputError, comparisonSetup(primary, {CompareMode::Ghost, "bogus", 1,
                                                                   Integrator::NhRattle, 0.01}));
    QVERIFY_THROWS_EXCEPTION(InputError, comparisonSetup(primary, {CompareMode::Ghost, "m", -1,
                                                                   Integrator::NhRattle, 0.01}));

    const RunSetup other =
        comparisonSetup(primary, {CompareMode::Integrator, "", 0, Integrator::Rk4, 0.002});
    QVERIFY(other.options.method == Integrator::Rk4);
    QCOMPARE(other.options.step, 0.002);
    QCOMPARE(other.parameters, primary.parameters);
  }

  // The vakonomic comparison of the particle starts where the primary does, with μ = 0: its
  // state is the primary's padded with zeros.
  void vakonomicComparisonStartsWithZeroMultipliers() {
    const Scenario s = particle(1, 0.1);
    const auto system = findSystem(s.system);
    ScenarioRun primary(system, s);
    RunSetup setup{system,       s.dynamics,           s.formulation,
                   s.integrator, primary.parameters(), primary.start().x0};
    ScenarioRun vakonomic(
        comparisonSetup(setup, {CompareMode::Vakonomic, "", 0, Integrator::NhRattle, 0.01}), 0.0);
    const std::vector<double>& x = vakonomic.simulation().state();
    QVERIFY(x.size() > primary.start().x0.size());
    for (size_t i = 0; i < primary.start().x0.size(); ++i)
      QVERIFY(std::abs(x[i] - primary.start().x0[i]) < 1e-12);
    for (size_t i = primary.start().x0.size(); i < x.size(); ++i) QCOMPARE(x[i], 0.0);
  }
};

QTEST_GUILESS_MAIN(ScenarioRunTest)
#include "scenario_run_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
