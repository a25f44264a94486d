// Properties of runs: the output grid (row count, times t0 + i·h, every t ≤ T) for many
// (T, h, t0) and every integrator; invariance under a rescaling of all masses and inertias;
// save → reload → run gives bit-identical rows; both formulations agree on results and on
// regularity.
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/io/scenario_file.h"
#include "core/model/catalogue.h"
#include "core/nh/errors.h"
#include "core/nh/scenario.h"

using namespace nh;

namespace {

// Every integrator, as the table of their names lists them.
std::vector<Integrator> allIntegrators() {
  std::vector<Integrator> methods;
  for (const auto& choice : kIntegrators) methods.push_back(choice.value);
  return methods;
}

// The rows of a run as nhsim writes them: the samples of advance(), plus the final state
// when T is off the grid.
std::vector<std::vector<double>> runRows(const Scenario& s) {
  s.validate();
  const auto system = findSystem(s.system);
  Simulation sim(system, s.dynamics, s.formulation, s.integrator);
  const std::vector<double> params = resolveParameters(*system, s.parameters);
  sim.setParameters(params);
  sim.setState(0, initialState(sim.equations(), 0, s.initial));
  std::vector<std::vector<double>> rows;
  auto onSample = [&](double t, const double* x) {
    std::vector<double> row{t};
    row.insert(row.end(), x, x + sim.equations().stateSize());
    rows.push_back(row);
  };
  if (!sim.advance(s.tEnd, s.dtOut, onSample)) onSample(sim.time(), sim.state().data());
  return rows;
}

}  // namespace

class SamplingPropertyTest : public QObject {
  Q_OBJECT
 private slots:
  // For each integrator and (t0, T, h): the grid rows are at exactly t0 + i·h for i = 0 … N
  // with N the largest i where that is ≤ T (within one of ⌊(T − t0)/h⌋), then the final
  // state at T when T is off the grid; advance() says which; the state ends at T.
  void gridForManySpans() {
    struct Span {
      double t0, T, h;
      double step;  // rk4's step
    };
    const Span spans[] = {
        {0, 1, 0.1, 1e-3},       {0, 0.3, 0.1, 1e-3},     {0, 0.7, 0.1, 1e-3},
        {0, 1e-14, 1e-17, 1e-3}, {0, 2.05, 0.5, 1e-2},    {1.25, 2.5, 0.05, 1e-3},
        {0, 5000, 3.7, 0.2},     {100, 100.3, 0.1, 1e-3}, {0, 0.25, 1.0, 1e-3},
    };
    for (const Integrator method : allIntegrators()) {
      for (const Span& span : spans) {
        IntegratorOptions o;
        o.method = method;
        o.rtol = 1e-8;
        o.atol = 1e-10;
        o.step = span.step;
        Simulation sim(findSystem("rigid_body"), DynamicsKind::Nonholonomic,
                       Formulation::Multipliers, o);
        sim.setState(span.t0, initialState(sim.equations(), span.t0, {}));
        long expectedLast = static_cast<long>(std::floor((span.T - span.t0) / span.h));
        while (span.t0 + static_cast<double>(expectedLast + 1) * span.h <= span.T) ++expectedLast;
        while (span.t0 + static_cast<double>(expectedLast) * span.h > span.T) --expectedLast;
        std::vector<double> times;
        // Far more rows than the grid has: the run does not end (fails instead of hanging).
        const std::size_t limit = static_cast<std::size_t>(expectedLast) + 10;
        const bool deliveredEnd = sim.advance(span.T, span.h, [&](double t, const double*) {
          times.push_back(t);
          if (times.size() > limit) throw std::runtime_error("more rows than the grid has");
        });
        const QString where = QStringLiteral("%1: t0 = %2, T = %3, h = %4")
                                  .arg(QString::fromStdString(toString(method)))
                                  .arg(span.t0)
                                  .arg(span.T)
                                  .arg(span.h);
        QVERIFY2(std::abs(expectedLast - std::floor((span.T - span.t0) / span.h)) <= 1,
                 qPrintable(where));
        QCOMPARE(static_cast<long>(times.size()), expectedLast + 1);
        for (std::size_t i = 0; i < times.size(); ++i) {
          QVERIFY2(times[i] == span.t0 + static_cast<double>(i) * span.h, qPrintable(where));
          QVERIFY2(times[i] <= span.T, qPrintable(where));
        }
        QCOMPARE(deliveredEnd, times.back() == span.T);
        QCOMPARE(sim.time(), span.T);
      }
    }
  }

  // The grid does not depend on how the span is cut into advance() calls (the app advances
  // by frames): the same times as one call.
  void gridIndependentOfChunks() {
    for (const Integrator method : allIntegrators()) {
      IntegratorOptions o;
      o.method = method;
      o.rtol = 1e-8;
      o.atol = 1e-10;
      std::vector<double> whole, chunked;
      for (int chunks : {1, 7}) {
        Simulation sim(findSystem("rigid_body"), DynamicsKind::Nonholonomic,
                       Formulation::Multipliers, o);
        sim.setState(0, initialState(sim.equations(), 0, {}));
        std::vector<double>& times = chunks == 1 ? whole : chunked;
        for (int c = 1; c <= chunks; ++c)
          sim.advance(3.0 * c / chunks, 0.1, [&](double t, const double*) { times.push_back(t); });
      }
      QCOMPARE(chunked, whole);
      QCOMPARE(whole.size(), std::size_t(31));  // 30·0.1 = 3.0000000000000004 > 3: i ≤ 29
    }
  }

  // The samples themselves, bit for bit, do not depend on how a run is cut into advance()
  // calls ending at sample times, as nhlab's worker cuts it (every 5 samples): a step that
  // passes a call's end is gone on with, not restarted, so the app's record and `nhsim run`
  // of the same scenario are one motion. Every integrator but arkode78, a system with drift
  // control and a
  // reconstructed position (the ball on the turntable), one without (the particle) and a
  // hamiltonian run.
  void samplesIndependentOfCalls() {
    struct Case {
      const char* system;
      Formulation formulation;
    };
    for (const Case c : {Case{"ball_on_turntable", Formulation::Multipliers},
                         Case{"nh_particle", Formulation::Multipliers},
                         Case{"chaplygin_sleigh", Formulation::Hamiltonian}}) {
      for (const Integrator method : allIntegrators()) {
        IntegratorOptions o;
        o.method = method;
        o.step = 1e-3;
        std::vector<double> whole, cut;
        // arkode78's dense output is of lower order than its steps: its first trial step after a
        // restart ends at the call's end (Simulation), so its samples depend on the calls.
        if (method == Integrator::Fehlberg78Arkode) continue;
        if (c.formulation == Formulation::Hamiltonian &&
            (method == Integrator::NhRattle || method == Integrator::DiscreteGradient))
          continue;  // they step (q, y), not (q, p)
        for (const bool pieces : {false, true}) {
          Simulation sim(findSystem(c.system), DynamicsKind::Nonholonomic, c.formulation, o);
          sim.setState(0, initialState(sim.equations(), 0, {}));
          std::vector<double>& out = pieces ? cut : whole;
          auto keep = [&](double t, const double* x) {
            out.push_back(t);
            out.insert(out.end(), x, x + sim.equations().stateSize());
          };
          const double dt = 0.01;
          if (!pieces) sim.advance(2.0, dt, keep);
          for (int k = 1; pieces && k <= 40; ++k) sim.advance(k * 5 * dt, dt, keep);
        }
        QVERIFY2(whole.size() == cut.size() && !whole.empty() &&
                     std::memcmp(whole.data(), cut.data(), whole.size() * sizeof(double)) == 0,
                 (std::string(c.system) + " with " + toString(method)).c_str());
      }
    }
  }

  // Too fine a grid for the span: refused up front with the allowed range, for the scenario
  // and for advance() alike.
  void unrepresentableGridRefused() {
    Scenario s;
    s.system = "rigid_body";
    s.tEnd = 1;
    s.dtOut = 1e-17;
    try {
      s.validate();
      QFAIL("dt-out 1e-17 at t-end 1 accepted");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("give at least"), e.what());
    }
    s.dtOut = 1e-9;  // 10^9 rows
    QVERIFY_THROWS_EXCEPTION(InputError, s.validate());
    Simulation sim(findSystem("rigid_body"), DynamicsKind::Nonholonomic);
    sim.setState(1e6, initialState(sim.equations(), 1e6, {}));
    QVERIFY_THROWS_EXCEPTION(InputError, sim.advance(1e6 + 1, 1e-12, {}));
  }

  // Scaling every mass and inertia of the ball by the same factor (m, with I = ratio·m r²)
  // leaves the motion unchanged and multiplies λ and the energy by it: also at 1e-300 and
  // 1e300 kg.
  void invariantUnderMassScaling() {
    auto run = [](double m) {
      Scenario s;
      s.system = "ball_on_turntable";
      s.parameters = {{"m", m}, {"Omega0", 2.0}, {"tilt", 0.2}};
      s.tEnd = 3;
      s.dtOut = 0.25;
      return runRows(s);
    };
    const auto reference = run(1.0);
    for (double m : {1024.0, 1e-300, 1e300}) {
      const auto rows = run(m);
      QCOMPARE(rows.size(), reference.size());
      for (std::size_t r = 0; r < rows.size(); ++r)
        for (std::size_t c = 0; c < rows[r].size(); ++c)
          QVERIFY2(std::abs(rows[r][c] - reference[r][c]) <=
                       1e-9 * std::max(1.0, std::abs(reference[r][c])),
                   qPrintable(QStringLiteral("m = %1, row %2, column %3: %4 vs %5")
                                  .arg(m)
                                  .arg(r)
                                  .arg(c)
                                  .arg(rows[r][c], 0, 'g', 17)
                                  .arg(reference[r][c], 0, 'g', 17)));
    }
    // The multipliers scale with the mass.
    const auto system = findSystem("ball_on_turntable");
    auto lambda = [&](double m) {
      const EquationsOfMotion eq =
          EquationsOfMotion(system, DynamicsKind::Nonholonomic)
              .withParameters(resolveParameters(*system, {{"m", m}, {"Omega0", 2.0}}));
      EquationsWorkspace ws(eq);
      const auto x = initialState(eq, 0, {});
      Observables obs;
      eq.observe(ws, 0, x.data(), obs);
      return obs.lambda;
    };
    const auto l1 = lambda(1), l2 = lambda(1e300);
    for (int c = 0; c < l1.size(); ++c)
      QVERIFY(std::abs(l2[c] / 1e300 - l1[c]) <= 1e-12 * std::max(1.0, std::abs(l1[c])));
  }

  // A scenario written and read back runs to the same rows as the run it was saved from, bit
  // for bit — also when that run started from an attitude quaternion that was not of unit
  // length (normalised once when saved; normalising the saved one again must not move a bit).
  void saveReloadRunIsIdentical() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    for (const char* name : {"ball_on_turntable", "nh_particle", "rigid_body"}) {
      Scenario s;
      s.system = name;
      s.tEnd = 2.3;
      s.dtOut = 0.1;
      s.integrator.rtol = 1e-9;
      s.integrator.method = Integrator::Dop853;
      if (std::string(name) == "nh_particle") s.dynamics = DynamicsKind::Vakonomic;
      if (std::string(name) == "rigid_body")
        s.initial = {{"qw", 0.9}, {"qx", 0.3}, {"qy", 0.2}, {"qz", 0.1}};  // |q| = 0.975
      const auto system = findSystem(name);
      const auto params = resolveParameters(*system, s.parameters);
      EquationsOfMotion eq(system, s.dynamics);
      const Scenario resolved =
          resolvedScenario(s, params, initialState(eq.withParameters(params), 0, s.initial));
      const std::string path = dir.filePath(QString(name) + ".json").toStdString();
      writeScenarioFile(resolved, path);
      const Scenario back = readScenarioFile(path);
      const auto a = runRows(s), b = runRows(back);
      QCOMPARE(a.size(), b.size());
      for (std::size_t r = 0; r < a.size(); ++r)
        QVERIFY2(std::memcmp(a[r].data(), b[r].data(), a[r].size() * sizeof(double)) == 0, name);
    }
  }

  // Multipliers and Gibbs–Appell: the same motion on a regular case; the same verdict on a
  // ball with a tiny moment of inertia (regular: both run, and agree) and on one without
  // (inertia_ratio = 0: both refuse).
  void formulationsAgree() {
    for (double ratio : {0.4, 1e-15}) {
      std::vector<std::vector<double>> rows[2];
      for (int f = 0; f < 2; ++f) {
        Scenario s;
        s.system = "ball_on_turntable";
        s.parameters = {{"inertia_ratio", ratio}, {"Omega0", 1.5}, {"tilt", 0.1}};
        s.formulation = f == 0 ? Formulation::Multipliers : Formulation::GibbsAppell;
        s.tEnd = 2;
        s.dtOut = 0.5;
        rows[f] = runRows(s);
      }
      QCOMPARE(rows[0].size(), rows[1].size());
      for (std::size_t r = 0; r < rows[0].size(); ++r)
        for (std::size_t c = 0; c < rows[0][r].size(); ++c)
          QVERIFY2(
              std::abs(rows[0][r][c] - rows[1][r][c]) <=
                  1e-7 * std::max(1.0, std::abs(rows[0][r][c])),
              qPrintable(
                  QStringLiteral("inertia_ratio %1, row %2, column %3").arg(ratio).arg(r).arg(c)));
    }
    // No rotational inertia at all: both refuse.
    for (const Formulation f : {Formulation::Multipliers, Formulation::GibbsAppell}) {
      Scenario s;
      s.system = "ball_on_turntable";
      s.parameters = {{"inertia_ratio", 0.0}};
      s.formulation = f;
      s.tEnd = 1;
      QVERIFY_THROWS_EXCEPTION(Error, runRows(s));
    }
  }
};

QTEST_APPLESS_MAIN(SamplingPropertyTest)
#include "sampling_property_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
