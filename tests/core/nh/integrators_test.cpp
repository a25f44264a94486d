// The table of integrators (core/nh/integrators.h): every row's name round-trips and is listed
// once, in the order "allowed: …" shows; each row's flags are what its stepper does (a fixed
// step, dense output, reconstruction, drift control inside the steps); what a row refuses is
// the reason Scenario, the run's start and the stepper give; and a stepper bound to the
// equations it steps follows new equations (setParameters) as a fresh simulation does.
#include "core/nh/integrators.h"

#include <QtTest>
#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "core/model/catalogue.h"
#include "core/nh/errors.h"
#include "core/nh/messages.h"
#include "core/nh/scenario.h"
#include "core/nh/simulation.h"
#include "core/nh/steppers.h"

using namespace nh;

namespace {

// The message `run` throws as InputError, "" when it does not throw.
template <class Run>
std::string refusal(Run run) {
  try {
    run();
  } catch (const InputError& e) {
    return e.what();
  }
  return {};
}

// The nonholonomic equations of `system` in the multipliers formulation.
std::shared_ptr<const EquationsOfMotion> equationsOf(const std::string& system) {
  return std::make_shared<const EquationsOfMotion>(findSystem(system), DynamicsKind::Nonholonomic,
                                                   Formulation::Multipliers);
}

}  // namespace

class IntegratorsTest : public QObject {
  Q_OBJECT

 private slots:
  // Names and values once each, a description each, and the names in table order as the
  // parser lists them.
  void rowsAreListedOnce() {
    std::set<std::string> names;
    std::set<int> values;
    for (const IntegratorRow& row : kIntegrators) {
      QVERIFY2(names.insert(row.name).second, row.name);
      QVERIFY2(values.insert(static_cast<int>(row.value)).second, row.name);
      QVERIFY2(std::string(row.description).size() > 10, row.name);
      QVERIFY2(row.make != nullptr, row.name);
    }
    QCOMPARE(joined(choiceNames(kIntegrators)),
             std::string("dopri5, dop853, rk78, rk4, arkode78, bdf, nh-rattle, discrete-gradient"));
    QCOMPARE(refusal([] { parseIntegrator("leapfrog"); }),
             "unknown integrator 'leapfrog' (allowed: " + joined(choiceNames(kIntegrators)) + ")");
    QVERIFY(IntegratorOptions{}.method == kIntegrators.front().value);
  }

  // toString gives the row's name, parseIntegrator its value, integratorRow the row itself.
  void namesRoundTrip() {
    for (const IntegratorRow& row : kIntegrators) {
      QCOMPARE(toString(row.value), std::string(row.name));
      QVERIFY(parseIntegrator(row.name) == row.value);
      QCOMPARE(&integratorRow(row.value), &row);
      QCOMPARE(isFixedStep(row.value), row.fixedStep);
    }
    QVERIFY(integratorNames(&IntegratorRow::fixedStep) ==
            (std::vector<std::string>{"rk4", "nh-rattle", "discrete-gradient"}));
  }

  // Each row's flags are what the stepper it makes does: five steps from the sleigh's start
  // with the options' step as first trial step; a fixed step takes exactly that step each
  // time, an adaptive one changes it.
  void flagsMatchTheSteppers() {
    const auto equations = equationsOf("chaplygin_sleigh");
    EquationsWorkspace workspace(*equations);
    const StepperRhs f = [&](double t, const double* x, double* dx) {
      equations->rhs(workspace, t, x, dx);
    };
    const std::vector<double> x0 = initialState(*equations, 0, {});
    for (const IntegratorRow& row : kIntegrators) {
      IntegratorOptions options;
      options.method = row.value;
      options.step = 1e-3;
      options.rtol = 1e-6;
      options.atol = 1e-9;
      const auto stepper = row.make(*equations, options);
      QVERIFY2(stepper->hasDenseOutput() == row.denseOutput, row.name);
      QVERIFY2(stepper->denseOutputCarriesReconstruction() == row.reconstructs, row.name);
      const bool takesProjection =
          stepper->setProjection([&](double t, double* x) { equations->project(workspace, t, x); });
      QVERIFY2(takesProjection == row.projectsInside, row.name);
      stepper->setStopTime(std::numeric_limits<double>::infinity());
      stepper->initialize(x0.data(), static_cast<int>(x0.size()), 0, options.step);
      bool everyStepIsTheStep = true;
      for (int i = 0; i < 5; ++i) {
        const auto [t0, t1] = stepper->doStep(f);
        everyStepIsTheStep = everyStepIsTheStep && std::abs((t1 - t0) - options.step) < 1e-15 &&
                             stepper->currentTimeStep() == options.step;
      }
      QVERIFY2(everyStepIsTheStep == row.fixedStep, row.name);
    }
  }

  // The rows that step the whole state refuse vakonomic dynamics and the hamiltonian
  // formulation with their own name; Scenario::validate says the row's reason; the others
  // accept every dynamics and formulation.
  void refusalsAreTheRows() {
    const std::pair<DynamicsKind, Formulation> cases[] = {
        {DynamicsKind::Vakonomic, Formulation::Multipliers},
        {DynamicsKind::Nonholonomic, Formulation::Hamiltonian}};
    for (const IntegratorRow& row : kIntegrators) {
      for (const auto& [dynamics, formulation] : cases) {
        const std::string reason = integratorFit(row.value, {dynamics, formulation}).refusal;
        QVERIFY2(reason.empty() != row.wholeState, row.name);
        if (reason.empty()) continue;
        QVERIFY2(reason.rfind(std::string(row.name) + " ", 0) == 0, reason.c_str());
        QCOMPARE(reason, wholeStateRefusal(row.name, {dynamics, formulation}));
        Scenario scenario;
        scenario.system = "chaplygin_sleigh";
        scenario.dynamics = dynamics;
        scenario.formulation = formulation;
        scenario.integrator.method = row.value;
        scenario.integrator.step = 1e-3;
        QCOMPARE(refusal([&] { scenario.validate(); }), reason);
      }
      QVERIFY(integratorFit(row.value, {}).refusal.empty());
    }
  }

  // What a row refuses on a system is what the run meets: the stepper's initialize throws the
  // row's reason (discrete-gradient on the spherical pendulum, which has a holonomic
  // constraint); and what it conserves is named (the sleigh's energy).
  void systemRefusalsAreTheRows() {
    const auto pendulum = equationsOf("spherical_pendulum");
    const std::vector<double> x0 = initialState(*pendulum, 0, {});
    for (const IntegratorRow& row : kIntegrators) {
      const IntegratorFit fit = integratorFit(
          row.value, {pendulum->dynamics(), pendulum->formulation(), pendulum.get(), x0.data(), 0});
      IntegratorOptions options;
      options.method = row.value;
      options.step = 1e-3;
      Simulation sim(pendulum, options);
      sim.setState(0, x0);
      QCOMPARE(refusal([&] { sim.advance(0.01, 0.01, {}); }), fit.refusal);
      QVERIFY2(fit.refusal.empty() == (row.value != Integrator::DiscreteGradient), row.name);
    }
    const auto sleigh = equationsOf("chaplygin_sleigh");
    const std::vector<double> s0 = initialState(*sleigh, 0, {});
    for (const IntegratorRow& row : kIntegrators) {
      const IntegratorFit fit = integratorFit(
          row.value, {sleigh->dynamics(), sleigh->formulation(), sleigh.get(), s0.data(), 0});
      QVERIFY2(fit.refusal.empty(), fit.refusal.c_str());
      QCOMPARE(fit.conserved.empty(), !row.conservesEnergy);
      if (row.conservesEnergy) QVERIFY2(fit.summary.rfind(row.name, 0) == 0, fit.summary.c_str());
    }
  }

  // A stepper is bound to the simulation's equations: after new parameter values (all 1.5
  // times theirs, which changes the motion at the first digits) it steps the new equations, as
  // a simulation made with them from the same state does (to the tolerance of the adaptive
  // ones, whose trial step differs).
  void steppersFollowNewEquations() {
    for (const IntegratorRow& row : kIntegrators) {
      IntegratorOptions options;
      options.method = row.value;
      options.step = 1e-2;
      Simulation sim(equationsOf("chaplygin_sleigh"), options);
      sim.setState(0, initialState(sim.equations(), 0, {}));
      sim.advance(0.5, 0.5, {});
      std::vector<double> values = sim.equations().parameters();
      for (double& v : values) v *= 1.5;
      sim.setParameters(values);
      Simulation fresh(
          std::make_shared<const EquationsOfMotion>(sim.equations().withParameters(values)),
          options);
      fresh.setState(0.5, sim.state());
      sim.advance(1, 0.5, {});
      fresh.advance(1, 0.5, {});
      double difference = 0;
      for (std::size_t i = 0; i < sim.state().size(); ++i)
        difference = std::max(difference, std::abs(sim.state()[i] - fresh.state()[i]));
      QVERIFY2(difference < (row.fixedStep ? 1e-12 : 1e-7),
               qPrintable(QString("%1: %2").arg(row.name).arg(difference)));
    }
  }
};

QTEST_GUILESS_MAIN(IntegratorsTest)
#include "integrators_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
