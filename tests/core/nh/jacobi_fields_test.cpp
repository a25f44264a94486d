// Jacobi fields along a motion (core/nh/jacobi_fields.h): the sensitivities a run carries
// against central finite differences of whole runs from moved starts (made consistent by the
// engine's own nonlinear completion, a different code path from the linear algebra of the
// seeds), on every catalogue system with dynamics and under each integrator with a variational
// form, and to every parameter of the model systems; the Lyapunov exponents of an unstable steady
// motion against its linearisation, a free rigid body's largest exponent going to 0; and the
// refusals.
#include "core/nh/jacobi_fields.h"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <functional>

#include "core/model/catalogue.h"
#include "core/nh/errors.h"
#include "core/nh/linearize.h"
#include "core/nh/scenario_run.h"

using namespace nh;

namespace {

using Rows = std::vector<std::vector<double>>;

Scenario scenarioOf(const std::string& system, Integrator method = Integrator::Dop853) {
  Scenario s;
  s.system = system;
  s.tEnd = 1;
  s.dtOut = 0.25;
  s.integrator.method = method;
  s.integrator.rtol = 1e-12;
  s.integrator.atol = 1e-14;
  s.integrator.step = 1e-3;
  return s;
}

// The state columns of every sample of the run of `s` (the run's layout order), and with
// `names` the sensitivity columns after them into *fields.
Rows stateRows(const Scenario& s, const std::vector<std::string>& names = {},
               Rows* fields = nullptr) {
  ScenarioRun run(findSystem(s.system), s);
  std::unique_ptr<RunSensitivities> sensitivities;
  if (!names.empty()) sensitivities = std::make_unique<RunSensitivities>(run, s, names);
  Rows rows;
  run.advance(
      s.tEnd, s.dtOut,
      [&](const ScenarioRun::Sample& sample) {
        std::vector<double> state;
        for (int index : run.layout().index) state.push_back(sample.x[index]);
        rows.push_back(state);
        if (!sensitivities) return;
        fields->emplace_back();
        sensitivities->sample(run, sample.t, sample.x, fields->back());
      },
      true);
  return rows;
}

// The completed start x0 with `name` moved by h, made consistent the way a run's start is:
// the coordinates by the engine's projection (its velocities left aside), then the velocities
// completed with the given ones, `name` and the independent ones held, freeing more when
// they cannot meet the constraints.
std::vector<double> movedStart(const EquationsOfMotion& eq, const std::vector<double>& x0,
                               const std::map<std::string, double>& given, const std::string& name,
                               double h) {
  const SystemModel& sys = eq.system();
  const int n = sys.n(), m = sys.m();
  const StateLayout layout = stateLayout(sys, DynamicsKind::Nonholonomic);
  const int index = layout.index[layout.find(name)];
  EquationsWorkspace ws(eq);
  std::vector<double> x = x0;
  x[index] += h;
  if (index < n) {
    std::vector<double> projected = x;
    eq.project(ws, 0.0, projected.data());
    std::copy(projected.begin(), projected.begin() + n, x.begin());
  }
  std::vector<bool> held(m, false), keep(m, false);
  for (int a = 0; a < m; ++a) {
    held[a] = given.count(sys.info().velocities[a]) > 0 || a == index - n;
    keep[a] =
        held[a] || std::count(sys.info().independentVelocities.begin(),
                              sys.info().independentVelocities.end(), sys.info().velocities[a]) > 0;
  }
  if (!eq.completeVelocities(ws, 0.0, x.data(), keep) &&
      !eq.completeVelocities(ws, 0.0, x.data(), held))
    eq.completeVelocities(ws, 0.0, x.data(), std::vector<bool>(m, false));
  return x;
}

// `s` starting at x, every state value given.
Scenario startingAt(Scenario s, const SystemModel& sys, const std::vector<double>& x) {
  const StateLayout layout = stateLayout(sys, DynamicsKind::Nonholonomic);
  for (std::size_t k = 0; k < layout.names.size(); ++k)
    s.initial[layout.names[k]] = x[layout.index[k]];
  return s;
}

// The state columns of runs of the scenarios `moved(h)` and `moved(−h)`, differenced.
using Moved = std::function<Scenario(double h)>;
Rows centralDifferences(const Moved& moved, double h) {
  const Rows plus = stateRows(moved(h)), minus = stateRows(moved(-h));
  Rows out = plus;
  for (std::size_t r = 0; r < out.size(); ++r)
    for (std::size_t k = 0; k < out[r].size(); ++k)
      out[r][k] = (plus[r][k] - minus[r][k]) / (2 * h);
  return out;
}

// The largest gap between the c-th sensitivity columns of a run and the derivative from
// central differences of the runs `moved` at h and h/2 (Richardson: (4 D(h/2) − D(h)) / 3,
// whose error is O(h⁴), so that the stiffest motions, the rattleback's, are measured to
// 1e-8), relative to the largest of them and at least 1 (a unit change).
double extrapolatedGap(const Rows& fields, int c, const Moved& moved, double h) {
  const Rows coarse = centralDifferences(moved, h), fine = centralDifferences(moved, h / 2);
  const std::size_t K = coarse[0].size();
  double gap = 0, scale = 1;
  for (std::size_t r = 0; r < fields.size(); ++r)
    for (std::size_t k = 0; k < K; ++k) {
      const double difference = (4 * fine[r][k] - coarse[r][k]) / 3;
      const double field = fields[r][c * K + k];
      gap = std::max(gap, std::abs(field - difference));
      scale = std::max({scale, std::abs(field), std::abs(difference)});
    }
  return gap / scale;
}

// The gap of the sensitivity columns of the initial value `name` (the c-th of the run): the
// runs start at the start moved as movedStart moves it.
double relativeGap(const Scenario& s, const Rows& fields, int c, const std::string& name) {
  const auto system = findSystem(s.system);
  const ScenarioRun run(system, s);
  const EquationsOfMotion& eq = run.simulation().equations();
  const std::vector<double>& x0 = run.start().x0;
  const double x = x0[run.layout().index[run.layout().find(name)]];
  // The rattleback's motion bends so sharply with its start (its sensitivities reach 10³ in a
  // second; a difference over 10⁻³ is off by a factor 13) that it is differenced over 10⁻⁶,
  // its runs at tolerances of 10⁻¹⁴.
  const double h = (s.system == "rattleback" ? 1e-6 : 1e-4) * std::max(1.0, std::abs(x));
  return extrapolatedGap(
      fields, c,
      [&](double step) {
        return startingAt(s, *system, movedStart(eq, x0, s.initial, name, step));
      },
      h);
}

// The start x0 of `s` for parameter `index` moved by h: the velocities completed through the
// constraints as they read with the new value (the engine's nonlinear completion, the given
// and the independent velocities held, freeing more when they cannot meet the constraints),
// as a scenario starting there with that value.
Scenario withParameterMoved(const Scenario& s, int index, double h) {
  const auto system = findSystem(s.system);
  ScenarioRun run(system, s);
  const EquationsOfMotion& base = run.simulation().equations();
  std::vector<double> values = base.parameters();
  values[index] += h;
  const EquationsOfMotion eq = base.withParameters(values);
  std::vector<double> x = run.start().x0;
  const int m = system->m();
  std::vector<bool> held(m, false), keep(m, false);
  const SystemInfo& info = system->info();
  for (int a = 0; a < m; ++a) {
    held[a] = s.initial.count(info.velocities[a]) > 0;
    keep[a] = held[a] || std::count(info.independentVelocities.begin(),
                                    info.independentVelocities.end(), info.velocities[a]) > 0;
  }
  EquationsWorkspace ws(eq);
  if (!eq.completeVelocities(ws, 0.0, x.data(), keep) &&
      !eq.completeVelocities(ws, 0.0, x.data(), held))
    eq.completeVelocities(ws, 0.0, x.data(), std::vector<bool>(m, false));
  Scenario moved = startingAt(s, *system, x);
  moved.parameters[info.parameters[index].name] = values[index];
  return moved;
}

// The gap of the sensitivity columns of parameter `index` (the c-th of the run): the runs
// have the parameter moved and their starts completed again (withParameterMoved).
double parameterGap(const Scenario& s, const Rows& fields, int c, int index) {
  const double p = ScenarioRun(findSystem(s.system), s).parameters()[index];
  // The rattleback's motion bends sharply with its parameters too: differenced over 10⁻⁶.
  const double h = (s.system == "rattleback" ? 1e-6 : 1e-4) * std::max(1.0, std::abs(p));
  return extrapolatedGap(
      fields, c, [&](double step) { return withParameterMoved(s, index, step); }, h);
}

// Every parameter of `s`'s system whose range holds its value ± 10⁻⁴: its sensitivities
// against finite differences. Returns how many were checked.
int checkEveryParameter(const Scenario& s) {
  const auto system = findSystem(s.system);
  const std::vector<double> values = ScenarioRun(system, s).parameters();
  std::vector<std::string> names;
  std::vector<int> indices;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const ParameterInfo& p = system->info().parameters[i];
    const double h = 1e-4 * std::max(1.0, std::abs(values[i]));
    if (!p.allows(values[i] - h) || !p.allows(values[i] + h)) continue;
    names.push_back(p.name);
    indices.push_back(static_cast<int>(i));
  }
  Rows fields;
  stateRows(s, names, &fields);
  for (std::size_t c = 0; c < names.size(); ++c) {
    const double gap = parameterGap(s, fields, static_cast<int>(c), indices[c]);
    if (!(gap < 1e-6)) qWarning("%s: d/d%s off by %g", s.system.c_str(), names[c].c_str(), gap);
    if (!(gap < 1e-6)) return -1;
  }
  return static_cast<int>(names.size());
}

// Every initial value of `s`'s system: its sensitivities against finite differences.
void checkEveryInitialValue(const Scenario& s) {
  const auto system = findSystem(s.system);
  const std::vector<std::string> names = stateLayout(*system, DynamicsKind::Nonholonomic).names;
  Rows fields;
  stateRows(s, names, &fields);
  for (std::size_t c = 0; c < names.size(); ++c) {
    const double gap = relativeGap(s, fields, static_cast<int>(c), names[c]);
    QVERIFY2(gap < 1e-6, qPrintable(QString("%1 (%2): d/d%3 off by %4")
                                        .arg(QString::fromStdString(s.system))
                                        .arg(QString::fromStdString(toString(s.integrator.method)))
                                        .arg(QString::fromStdString(names[c]))
                                        .arg(gap)));
  }
}

}  // namespace

class JacobiFieldsTest : public QObject {
  Q_OBJECT

 private slots:
  // The sensitivities to every initial value of every catalogue system with dynamics agree
  // with central differences of whole runs to 1e-6 relative (the differences' own error is
  // ~1e-8 at h = 1e-4, extrapolated, and tolerances of 1e-12).
  void sensitivitiesMatchFiniteDifferencesOnEverySystem() {
    int checked = 0;
    for (const auto& entry : catalogueEntries()) {
      if (entry.system->info().isControlModel()) continue;  // no dynamics of its own
      Scenario s = scenarioOf(entry.system->name());
      if (s.system == "rattleback") s.integrator.rtol = 1e-14, s.integrator.atol = 1e-16;
      checkEveryInitialValue(s);
      ++checked;
    }
    QVERIFY(checked >= 20);  // the 20 of the catalogue when written, and any added since
  }

  // The sensitivities to every parameter of every model system with dynamics and without
  // holonomic constraints (whose start would move with its parameters) agree with central
  // differences of whole runs with the parameter moved (their starts completed again) to
  // 1e-6 relative; a parameter at the end of its range (a tilt of 0 in [0, …]) is left out.
  void parameterSensitivitiesMatchFiniteDifferences() {
    int systems = 0, parameters = 0;
    for (const auto& entry : catalogueEntries()) {
      const SystemModel& sys = *entry.system;
      if (sys.info().isControlModel() || sys.h() > 0) continue;
      if (entry.origin == SystemOrigin::BuiltIn) continue;  // reads its parameters as numbers
      Scenario s = scenarioOf(sys.name());
      if (s.system == "rattleback") s.integrator.rtol = 1e-14, s.integrator.atol = 1e-16;
      const int checked = checkEveryParameter(s);
      QVERIFY2(checked >= 0, sys.name().c_str());
      parameters += checked;
      ++systems;
    }
    qInfo("%d parameters of %d systems", parameters, systems);
    QVERIFY(systems >= 17 && parameters >= 76);  // when written: 76 of 17, and any added since
  }

  // The other integrators with a variational form give them too: the fixed-step rk4 (its
  // fields are the derivative of its own steps), dopri5 and rk78, on a system with a
  // holonomic constraint and one with a quaternion.
  void everyVariationalIntegratorMatchesFiniteDifferences() {
    for (Integrator method : {Integrator::Rk4, Integrator::Dopri5, Integrator::Rk78})
      for (const char* system : {"spherical_pendulum", "rigid_body", "chaplygin_sleigh"})
        checkEveryInitialValue(scenarioOf(system, method));
  }

  // At the sleigh's straight motion backwards (ω = 0, v = −1: unstable) the motion stays
  // steady, the Jacobian is constant along it, and the largest exponent tends to the largest
  // real part of linearize's eigenvalues, m a |v| / (I + m a²) = 20/9: closer at T than at
  // T/2, within 1 % at T = 40 (the finite-time error goes as 1/T).
  void largestExponentIsTheLinearisationsAtASteadyMotion() {
    Scenario s = scenarioOf("chaplygin_sleigh");
    s.initial = {{"omega", 0.0}, {"v", -1.0}};
    s.tEnd = 40;
    s.dtOut = 0.05;
    ScenarioRun start(findSystem(s.system), s);
    const Linearization lin = linearize(start.simulation().equations(), 0.0, start.start().x0);
    double top = -INFINITY;
    for (const auto& e : lin.eigenvalues) top = std::max(top, e.real());
    QVERIFY(std::abs(top - 20.0 / 9) < 1e-12);
    const LyapunovEstimate e = lyapunovExponents(findSystem(s.system), s, 1);
    QCOMPARE(e.dimension, 5);
    QVERIFY2(std::abs(e.end[0] - top) < std::abs(e.half[0] - top),
             qPrintable(QString("%1 at T/2, %2 at T").arg(e.half[0]).arg(e.end[0])));
    QVERIFY2(std::abs(e.end[0] - top) < 0.01 * top, qPrintable(QString::number(e.end[0])));
    // Moving forwards (v = +1) the mode decays: the smallest of all five exponents tends to
    // −20/9 and the others to 0 (the cyclic x, y, θ and the steady v).
    s.initial["v"] = 1.0;
    const LyapunovEstimate all = lyapunovExponents(findSystem(s.system), s, 5);
    QVERIFY2(std::abs(all.end[4] + 20.0 / 9) < 0.01 * 20 / 9,
             qPrintable(QString::number(all.end[4])));
    for (int i = 0; i < 4; ++i) QVERIFY(std::abs(all.end[i]) < 0.15);
  }

  // A free rigid body is integrable: nearby motions part linearly in time, and its largest
  // exponent goes to 0 like log(T)/T: below 0.03 at T = 200 and falling.
  void freeRigidBodyLargestExponentTendsToZero() {
    Scenario s = scenarioOf("rigid_body");
    s.tEnd = 200;
    s.dtOut = 0.1;
    s.integrator.rtol = 1e-10;
    s.integrator.atol = 1e-12;
    const LyapunovEstimate e = lyapunovExponents(findSystem(s.system), s, 1);
    QVERIFY2(e.end[0] < e.half[0] && std::abs(e.end[0]) < 0.03,
             qPrintable(QString("%1 at T/2, %2 at T").arg(e.half[0]).arg(e.end[0])));
  }

  // What has no variational form here is refused in one line naming what has: an implicit
  // integrator, vakonomic dynamics, a count above the manifold's dimension, a name that is
  // neither an initial value nor a parameter, a parameter of a system with holonomic
  // constraints, a parameter a C++ system reads as a number.
  void refusals() {
    const auto sleigh = findSystem("chaplygin_sleigh");
    Scenario s = scenarioOf("chaplygin_sleigh", Integrator::BdfCvode);
    QVERIFY_THROWS_EXCEPTION(InputError, RunSensitivities::check(*sleigh, s, {"v"}));
    try {
      RunSensitivities::check(*sleigh, s, {"v"});
    } catch (const InputError& e) {
      QVERIFY(std::string(e.what()).find("dopri5, dop853, rk78, rk4") != std::string::npos);
    }
    s = scenarioOf("chaplygin_sleigh");
    s.dynamics = DynamicsKind::Vakonomic;
    QVERIFY_THROWS_EXCEPTION(InputError, RunSensitivities::check(*sleigh, s, {"v"}));
    s = scenarioOf("chaplygin_sleigh");
    QVERIFY_THROWS_EXCEPTION(InputError, RunSensitivities::check(*sleigh, s, {"speed"}));
    const auto pendulum = findSystem("spherical_pendulum");
    QVERIFY_THROWS_EXCEPTION(
        InputError, RunSensitivities::check(*pendulum, scenarioOf("spherical_pendulum"), {"l"}));
    const Scenario bicycle = scenarioOf("whipple_bicycle");
    const ScenarioRun run(findSystem(bicycle.system), bicycle);
    QVERIFY_THROWS_EXCEPTION(InputError, RunSensitivities(run, bicycle, {"mR"}));
    QVERIFY_THROWS_EXCEPTION(InputError, RunSensitivities(ScenarioRun(findSystem("central_force"),
                                                                      scenarioOf("central_force")),
                                                          scenarioOf("central_force"), {"k"}));
    QVERIFY_THROWS_EXCEPTION(InputError, lyapunovExponents(sleigh, s, 6));
    s.tEnd = 0;
    QVERIFY_THROWS_EXCEPTION(InputError, lyapunovExponents(sleigh, s, 1));
  }
};

QTEST_GUILESS_MAIN(JacobiFieldsTest)
#include "jacobi_fields_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
