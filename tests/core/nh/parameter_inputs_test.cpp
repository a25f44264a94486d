// Parameters as inputs of the tape (EquationsOfMotion::withFreeParameters, core/nh/
// tape_builder.cpp, SymProgram::withParameters): equations whose free parameters were given
// other values compute what equations taped with those values folded in compute, for every
// catalogue system and each of its parameters; they share the compiled code (no new tape);
// values that change which folded coefficients vanish still give the right equations; and a
// simulation whose parameters change this way, or that is handed such equations between runs,
// follows the same motion as a fresh one.
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <random>

#include "core/model/catalogue.h"
#include "core/model/model_file.h"
#include "core/nh/errors.h"
#include "core/nh/reconstruction.h"
#include "core/nh/simulation.h"
#include "core/nh/symbolic.h"
#include "tests/core/test_support.h"
#include "tests/support/catalogue_systems.h"

using namespace nh;

namespace {

// Another allowed value of parameter j near its default (a tenth more, or 0.1 from 0), or the
// defaults again when no such value is allowed.
std::vector<double> moved(const SystemModel& sys, int j, double factor = 1.1) {
  std::vector<double> values = sys.defaultParameters();
  const ParameterInfo& info = sys.info().parameters[j];
  const double v = values[j];
  for (const double candidate : {v == 0 ? 0.1 : v * factor, v == 0 ? -0.1 : v / factor}) {
    values[j] = candidate;
    if (info.allows(candidate) && sys.checkParameters(values.data()).empty()) return values;
  }
  values[j] = v;
  return values;
}

// The largest difference of the right-hand sides and energies at a few random states,
// relative to their size.
double difference(const EquationsOfMotion& a, const EquationsOfMotion& b, unsigned seed) {
  std::mt19937 rng(seed);
  EquationsWorkspace wa(a), wb(b);
  std::vector<double> fa(a.stateSize()), fb(b.stateSize());
  double worst = 0;
  for (int trial = 0; trial < 3; ++trial) {
    const std::vector<double> x = test::randomState(b, rng, 0.3 * trial);
    const double t = 0.3 * trial;
    a.rhs(wa, t, x.data(), fa.data());
    b.rhs(wb, t, x.data(), fb.data());
    for (size_t i = 0; i < fa.size(); ++i)
      worst = std::max(worst, std::abs(fa[i] - fb[i]) / (1 + std::abs(fb[i])));
    const double ea = a.energy(wa, t, x.data()), eb = b.energy(wb, t, x.data());
    worst = std::max(worst, std::abs(ea - eb) / (1 + std::abs(eb)));
  }
  return worst;
}

bool sameCode(const EquationsOfMotion& a, const EquationsOfMotion& b) {
  const auto pa = a.compiledPrograms(), pb = b.compiledPrograms();
  if (pa.size() != pb.size() || pa.empty()) return false;
  for (size_t i = 0; i < pa.size(); ++i)
    if (!pa[i]->sharesCodeWith(*pb[i])) return false;
  return true;
}

}  // namespace

class ParameterInputsTest : public QObject {
  Q_OBJECT
 private slots:
  // Each parameter of each system, made free and moved, against equations taped with the
  // moved value folded in: equal to rounding, and no new tape.
  void eachFreeParameterGivesTheFoldedEquations() {
    int checked = 0, sharing = 0;
    for (const auto& system : test::systemsWithDynamics()) {
      const SystemModel& sys = *system;
      const EquationsOfMotion base(system, DynamicsKind::Nonholonomic);
      if (!base.isTaped()) continue;
      for (int j = 0; j < static_cast<int>(sys.info().parameters.size()); ++j) {
        const std::vector<double> values = moved(sys, j);
        if (values == sys.defaultParameters()) continue;
        const EquationsOfMotion free = base.withFreeParameters({j});
        const EquationsOfMotion edited = free.withParameters(values);
        const EquationsOfMotion folded(system, DynamicsKind::Nonholonomic, Formulation::Multipliers,
                                       values);
        const double d = difference(edited, folded, 7u + j);
        if (!(d < 1e-11))
          QFAIL(qPrintable(
              QString::fromStdString(sys.name() + ", parameter " + sys.info().parameters[j].name) +
              QString(": differs by %1").arg(d)));
        // A system whose functions read the parameters as numbers (central_force) has none
        // free; the others share the free equations' code.
        QVERIFY2(edited.freeParameters() == free.freeParameters(), sys.name().c_str());
        QVERIFY2(free.freeParameters().empty() || free.freeParameters() == std::vector<int>{j},
                 sys.name().c_str());
        QVERIFY2(sameCode(edited, free) || free.freeParameters().empty(), sys.name().c_str());
        if (!free.freeParameters().empty()) ++sharing;
        ++checked;
      }
    }
    QVERIFY(checked > 50);
    QVERIFY(sharing > 50);
  }

  // All parameters of the bicycle and of the ball on the turntable free and moved at once, under
  // both dynamics (vakonomic multipliers are tape variables too) and both formulations.
  void allParametersFreeAtOnce() {
    for (const char* name : {"whipple_bicycle", "ball_on_turntable", "chaplygin_sleigh"}) {
      const auto system = findSystem(name);
      const int np = static_cast<int>(system->info().parameters.size());
      std::vector<int> all(np);
      for (int j = 0; j < np; ++j) all[j] = j;
      std::vector<double> values = system->defaultParameters();
      for (int j = 0; j < np; ++j) values[j] = moved(*system, j, 1.05)[j];
      QVERIFY(system->checkParameters(values.data()).empty());
      for (const DynamicsKind dynamics : {DynamicsKind::Nonholonomic, DynamicsKind::Vakonomic}) {
        for (const Formulation formulation : {Formulation::Multipliers, Formulation::GibbsAppell}) {
          const EquationsOfMotion free =
              EquationsOfMotion(system, dynamics, formulation).withFreeParameters(all);
          QVERIFY(free.freeParameters() == all);
          const EquationsOfMotion edited = free.withParameters(values);
          QVERIFY2(sameCode(edited, free), name);
          const EquationsOfMotion folded(system, dynamics, formulation, values);
          const double d = difference(edited, folded, 3);
          QVERIFY2(d < 1e-11, qPrintable(QString("%1: %2").arg(name).arg(d)));
        }
      }
    }
  }

  // A parameter taped at 0 drops the terms it multiplies from the folded coefficients; given a
  // nonzero value later (and the other way round), the equations are still right.
  void valuesThatChangeWhichCoefficientsVanish() {
    int checked = 0;
    for (const auto& system : test::systemsWithDynamics()) {
      const SystemModel& sys = *system;
      for (int j = 0; j < static_cast<int>(sys.info().parameters.size()); ++j) {
        std::vector<double> zero = sys.defaultParameters(), nonzero = zero;
        zero[j] = 0;
        if (nonzero[j] == 0) nonzero[j] = 0.3;
        const ParameterInfo& info = sys.info().parameters[j];
        if (!info.allows(0) || !info.allows(nonzero[j]) ||
            !sys.checkParameters(zero.data()).empty())
          continue;
        const EquationsOfMotion atZero =
            EquationsOfMotion(system, DynamicsKind::Nonholonomic, Formulation::Multipliers, zero)
                .withFreeParameters({j});
        if (!atZero.isTaped()) continue;
        const EquationsOfMotion folded(system, DynamicsKind::Nonholonomic, Formulation::Multipliers,
                                       nonzero);
        const EquationsOfMotion foldedZero(system, DynamicsKind::Nonholonomic,
                                           Formulation::Multipliers, zero);
        try {
          difference(foldedZero, foldedZero, 13);
        } catch (const SingularSystemError&) {
          continue;  // 0 is in the range but the equations are singular there (a mass)
        }
        QVERIFY2(difference(atZero.withParameters(nonzero), folded, 11) < 1e-11,
                 sys.name().c_str());
        const EquationsOfMotion back = folded.withFreeParameters({j}).withParameters(zero);
        QVERIFY2(difference(back, foldedZero, 13) < 1e-11, sys.name().c_str());
        ++checked;
      }
    }
    QVERIFY(checked > 5);
  }

  // A run whose parameter is changed through free parameters follows the motion of a run
  // started with that value.
  void simulationWithAnEditedParameterFollowsAFreshOne() {
    const auto system = findSystem("ball_on_turntable");
    const int j = system->parameterIndex("Omega0");
    QVERIFY(j >= 0);
    std::vector<double> values = system->defaultParameters();
    values[j] *= 1.5;
    auto edited = std::make_shared<const EquationsOfMotion>(
        EquationsOfMotion(system, DynamicsKind::Nonholonomic)
            .withFreeParameters({j})
            .withParameters(values));
    auto fresh = std::make_shared<const EquationsOfMotion>(system, DynamicsKind::Nonholonomic,
                                                           Formulation::Multipliers, values);
    Simulation a(edited), b(fresh);
    a.setState(0, initialState(*edited, 0, {}));
    b.setState(0, initialState(*fresh, 0, {}));
    a.advance(5.0, 0.5, [](double, const double*) {});
    b.advance(5.0, 0.5, [](double, const double*) {});
    for (int i = 0; i < edited->stateSize(); ++i)
      QVERIFY(std::abs(a.state()[i] - b.state()[i]) < 1e-9 * (1 + std::abs(b.state()[i])));
  }

  // One simulation given equations of other parameter values between runs, as a sweep's
  // worker is (Simulation::setEquations; the reconstruction's buffers are kept), follows a
  // fresh simulation of those values: for each system and parameter whose reconstruction of the
  // coordinates reads that parameter, so that stale values there would show.
  void reusedSimulationFollowsAFreshOneThroughItsReconstruction() {
    int checked = 0;
    // The catalogue's reconstructions read no parameter (their coordinates' rates are the
    // velocities'); here the counter x advances at k·v, so its reconstruction reads k.
    std::vector<std::shared_ptr<const SystemModel>> systems = test::systemsWithDynamics();
    systems.push_back(model::loadModelText(R"(format: nonholonomic-lab-system
version: 1
name: geared_pendulum
title: Geared pendulum
description: A pendulum whose angle drives a counter x through a gear of ratio k.
parameters:
  - {name: k, default: 2.0, description: gear ratio, min: -10, max: 10}
coordinates: [x, theta]
velocities: [v, w]
anchor: {x: k*v, theta: w}
lagrangian: 0.5*v*v + 0.5*w*w + cos(theta)
constraints: [v - w]
initial: {x: 0, theta: 0.5, v: 0.3, w: 0.3}
independent: [w]
cyclic: [x]
)",
                                           "geared_pendulum.yaml"));
    for (const auto& system : systems) {
      const SystemModel& sys = *system;
      const EquationsOfMotion base(system, DynamicsKind::Nonholonomic);
      const ReconstructionPlan* plan = base.reconstructionPlan();
      if (!plan || !plan->available) continue;
      for (int j = 0; j < static_cast<int>(sys.info().parameters.size()); ++j) {
        const std::vector<double> values = moved(sys, j, 1.5);
        if (values == sys.defaultParameters()) continue;
        auto free = std::make_shared<const EquationsOfMotion>(base.withFreeParameters({j}));
        const ReconstructionPlan* freePlan = free->reconstructionPlan();
        if (!freePlan || !freePlan->program.readsParameters()) continue;
        auto edited = std::make_shared<const EquationsOfMotion>(free->withParameters(values));
        auto fresh = std::make_shared<const EquationsOfMotion>(system, DynamicsKind::Nonholonomic,
                                                               Formulation::Multipliers, values);
        Simulation reused(free), b(fresh);
        reused.setState(0, initialState(*free, 0, {}));
        reused.advance(1.0, 0.5, [](double, const double*) {});
        reused.setEquations(edited);
        reused.setState(0, initialState(*edited, 0, {}));
        b.setState(0, initialState(*fresh, 0, {}));
        reused.advance(2.0, 0.5, [](double, const double*) {});
        b.advance(2.0, 0.5, [](double, const double*) {});
        for (int i = 0; i < edited->stateSize(); ++i)
          QVERIFY2(std::abs(reused.state()[i] - b.state()[i]) < 1e-9 * (1 + std::abs(b.state()[i])),
                   qPrintable(QString::fromStdString(sys.name() + ", parameter " +
                                                     sys.info().parameters[j].name) +
                              QString(", entry %1: %2 against %3")
                                  .arg(i)
                                  .arg(reused.state()[i], 0, 'g', 17)
                                  .arg(b.state()[i], 0, 'g', 17)));
        ++checked;
      }
    }
    QVERIFY2(checked >= 1, qPrintable(QString::number(checked)));
  }

  // Out-of-range indices are refused with the count of parameters.
  void badIndexIsRefused() {
    const EquationsOfMotion eq(findSystem("ball_on_turntable"), DynamicsKind::Nonholonomic);
    QVERIFY_THROWS_EXCEPTION(InputError, eq.withFreeParameters({99}));
  }
};

QTEST_APPLESS_MAIN(ParameterInputsTest)
#include "parameter_inputs_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
