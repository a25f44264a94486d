// The model-file twins of the C++ systems (resources/systems/<name>.yaml) describe the same
// systems: the same description, the same equations (trajectories, energy and multipliers
// to round-off, both formulations, nonholonomic and vakonomic) and the same scene.
//
// Tolerances: the two systems evaluate the same formulas in another order (the twin through
// the model file's expression programs), so they differ by round-off, ~1e-16 relative, in
// every evaluation; the adaptive stepper then takes the same steps to ~1e-16 too. Over
// three seconds of these (non-chaotic; the rigid body's intermediate axis grows
// perturbations by e^(1.15 t)) runs, that stays far below 1e-12 on states of size ~10. (In
// fact the recorded tapes mostly coincide and the runs agree exactly; the central force's
// pow differs, by 4e-14 at most.)
//
// Not compared, because a model file cannot say it: the central force at n = −1 (the C++
// switches to k log r; the twin divides by n + 1).

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <map>
#include <random>

#include "core/model/catalogue.h"
#include "core/model/model_data.h"
#include "core/model/model_file.h"
#include "core/nh/scenario.h"
#include "core/nh/simulation.h"
#include "reference_systems.h"
#include "tests/core/test_support.h"

using namespace nh;

namespace {

constexpr double kStateTolerance = 1e-12;       // trajectories (absolute)
constexpr double kObservableTolerance = 1e-10;  // energy and multipliers (absolute)
constexpr double kSceneTolerance = 1e-12;       // positions, vectors, sizes (absolute)
constexpr double kTime = 3.0;                   // seconds of each compared run

const char* const kTwinNames[] = {"ball_on_turntable", "ball_on_table", "nh_particle",
                                  "central_force",     "rigid_body",    "rolling_disk",
                                  "chaplygin_sleigh"};
// C++ systems with no model file at all (their kinematics are too long to state as formulas):
// the app says so instead of offering "duplicate and edit".
const char* const kCppOnlyNames[] = {"whipple_bicycle"};

// Parameter values other than the defaults, inside every bound, that switch on what the
// defaults leave at zero (the tilt, a varying Ω, another force law).
std::map<std::string, double> probeParameters(const std::string& name) {
  if (name == "ball_on_turntable")
    return {{"r", 0.15},        {"tilt", 0.3},       {"Omega_rate", 0.2},
            {"Omega_amp", 0.5}, {"Omega_freq", 1.7}, {"inertia_ratio", 2.0 / 3}};
  if (name == "ball_on_table") return {{"tilt", -0.25}, {"m", 1.5}, {"g", 9.0}};
  if (name == "nh_particle") return {{"m", 2.0}};
  if (name == "central_force") return {{"k", 1.5}, {"n", -1.5}, {"m", 0.8}};
  if (name == "rigid_body") return {{"I1", 1.0}, {"I2", 2.5}, {"I3", 3.2}};
  if (name == "rolling_disk") return {{"m", 2.0}, {"r", 0.25}};
  if (name == "chaplygin_sleigh") return {{"a", -0.3}, {"I", 0.1}, {"m", 1.2}};
  return {};
}

// Parameter sets for the scenes: the probe values, and where a twin writes a case
// distinction of the C++ as a formula, values on its other side: Ω without oscillation
// (Omega_freq = 0, where the C++ skips (1 − cos f t)/f), a box side clamped at sqrt(1e-6)
// (I1 + I2 < I3), the sleigh's drawn length at its minimum 0.4 (|a| < 0.16).
std::vector<std::map<std::string, double>> sceneParameters(const std::string& name) {
  std::vector<std::map<std::string, double>> sets = {probeParameters(name)};
  if (name == "ball_on_turntable")
    sets.push_back({{"Omega_freq", 0}, {"Omega_amp", 0.5}, {"table_angle0", 0.7}});
  if (name == "rigid_body") sets.push_back({{"I1", 1}, {"I2", 1}, {"I3", 3}});
  if (name == "chaplygin_sleigh") sets.push_back({{"a", 0.1}});
  if (name == "rolling_disk") sets.push_back({{"r", 0.5}});  // extent max(2, 6 r) = 3
  return sets;
}

// The C++ definition: a reference kept in the tests (the model file is the programs' only
// definition), or a system still written in C++ in core/systems/.
std::shared_ptr<const SystemModel> cppSystem(const std::string& name) {
  for (const auto& reference : referenceSystems())
    if (reference->name() == name) return reference;
  for (const CatalogueEntry& entry : catalogueEntries())
    if (entry.origin == SystemOrigin::BuiltIn && entry.system->name() == name) return entry.system;
  return nullptr;
}

const std::string* bundledText(const std::string& fileName) {
  for (const auto& [file, text] : bundledModelFiles())
    if (file == fileName) return &text;
  return nullptr;
}

// Loaded once per suite (the loader derives with GiNaC, which takes a moment).
std::shared_ptr<const SystemModel> twinSystem(const std::string& name) {
  static std::map<std::string, std::shared_ptr<const SystemModel>> loaded;
  if (auto it = loaded.find(name); it != loaded.end()) return it->second;
  const std::string* text = bundledText(name + ".yaml");
  if (!text) return nullptr;
  return loaded[name] = model::loadModelText(*text, name + ".yaml");
}

// The file's text without one top-level key (its line and the indented lines under it).
std::string withoutKey(const std::string& text, const std::string& key) {
  std::string out;
  bool skipping = false;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size() - 1;
    const std::string line = text.substr(start, end - start + 1);
    const bool topLevel = !line.empty() && line[0] != ' ' && line[0] != '#' && line[0] != '\n';
    if (topLevel) skipping = line.rfind(key + ":", 0) == 0;
    if (!skipping) out += line;
    start = end + 1;
  }
  return out;
}

double maxDifference(const double* a, const double* b, int n) {
  double worst = 0;
  for (int i = 0; i < n; ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
  return worst;
}

QString describe(const std::string& system, const std::string& what, double value) {
  return QString("%1: %2 differs by %3")
      .arg(QString::fromStdString(system), QString::fromStdString(what))
      .arg(value, 0, 'g', 3);
}

void compareParameters(const ParameterInfo& a, const ParameterInfo& b) {
  QCOMPARE(b.name, a.name);
  QCOMPARE(b.unit, a.unit);
  QCOMPARE(b.description, a.description);
  QCOMPARE(b.defaultValue, a.defaultValue);
  QCOMPARE(b.min, a.min);
  QCOMPARE(b.max, a.max);
  QCOMPARE(b.minExclusive, a.minExclusive);
  QCOMPARE(b.maxExclusive, a.maxExclusive);
}

void compareScenes(const std::string& system, const SceneFrame& a, const SceneFrame& b) {
  const QByteArray name = QByteArray::fromStdString(system);
  QVERIFY2(a.bodies.size() == b.bodies.size(), name);
  for (std::size_t i = 0; i < a.bodies.size(); ++i) {
    const SceneBody &x = a.bodies[i], &y = b.bodies[i];
    QCOMPARE(y.name, x.name);
    QVERIFY2(x.kind == y.kind, qPrintable(QString::fromStdString(system + ": " + x.name)));
    const double dp = (x.position - y.position).cwiseAbs().maxCoeff();
    QVERIFY2(dp < kSceneTolerance, qPrintable(describe(system, x.name + " position", dp)));
    const double ds = (x.size - y.size).cwiseAbs().maxCoeff();
    QVERIFY2(ds < kSceneTolerance, qPrintable(describe(system, x.name + " size", ds)));
    // Equal up to sign: q and −q are one rotation.
    const double dq = 1 - std::abs(x.orientation.normalized().dot(y.orientation.normalized()));
    QVERIFY2(dq < kSceneTolerance, qPrintable(describe(system, x.name + " orientation", dq)));
    QVERIFY2((x.colour - y.colour).cwiseAbs().maxCoeff() < 1e-15, name);
  }
  QVERIFY2(a.arrows.size() == b.arrows.size(), name);
  for (std::size_t i = 0; i < a.arrows.size(); ++i) {
    const SceneArrow &x = a.arrows[i], &y = b.arrows[i];
    QCOMPARE(y.name, x.name);
    QVERIFY2(x.kind == y.kind, qPrintable(QString::fromStdString(system + ": " + x.name)));
    const double d = std::max((x.origin - y.origin).cwiseAbs().maxCoeff(),
                              (x.vector - y.vector).cwiseAbs().maxCoeff());
    QVERIFY2(d < kSceneTolerance, qPrintable(describe(system, x.name, d)));
  }
  QVERIFY2(a.points.size() == b.points.size(), name);
  for (std::size_t i = 0; i < a.points.size(); ++i) {
    const ScenePoint &x = a.points[i], &y = b.points[i];
    QCOMPARE(y.name, x.name);
    QCOMPARE(y.inMovingFrame, x.inMovingFrame);
    const double d = (x.position - y.position).cwiseAbs().maxCoeff();
    QVERIFY2(d < kSceneTolerance, qPrintable(describe(system, x.name, d)));
  }
  const double dm = 1 - std::abs(a.movingFrame.normalized().dot(b.movingFrame.normalized()));
  QVERIFY2(dm < kSceneTolerance, qPrintable(describe(system, "moving frame", dm)));
  QCOMPARE(b.extent, a.extent);
}

// Both systems run from the same start; states, energy and multipliers compared at every
// output time, and the scenes drawn from the C++ run's states.
void compareRuns(const std::string& name, const std::shared_ptr<const SystemModel>& cpp,
                 const std::shared_ptr<const SystemModel>& twin, DynamicsKind kind,
                 Formulation formulation, const std::map<std::string, double>& parameters) {
  const std::vector<double> p = resolveParameters(*cpp, parameters);
  QCOMPARE(resolveParameters(*twin, parameters), p);
  EquationsOfMotion cppEquations(cpp, kind, formulation, p);
  EquationsOfMotion twinEquations(twin, kind, formulation, p);
  QVERIFY(cppEquations.isTaped());
  const std::vector<double> x0 = initialState(cppEquations, 0, {});
  const std::vector<double> y0 = initialState(twinEquations, 0, {});
  QCOMPARE(y0.size(), x0.size());
  const int size = static_cast<int>(x0.size());
  QVERIFY2(maxDifference(x0.data(), y0.data(), size) < 1e-14, name.c_str());

  Simulation a(std::make_shared<EquationsOfMotion>(cppEquations));
  Simulation b(std::make_shared<EquationsOfMotion>(twinEquations));
  a.setState(0, x0);
  b.setState(0, y0);
  std::vector<std::vector<double>> statesA, statesB;
  std::vector<double> times;
  a.advance(kTime, 0.1, [&](double t, const double* x) {
    statesA.emplace_back(x, x + size);
    times.push_back(t);
  });
  b.advance(kTime, 0.1, [&](double, const double* x) { statesB.emplace_back(x, x + size); });
  QCOMPARE(statesB.size(), statesA.size());
  QCOMPARE(statesA.size(), std::size_t(31));

  EquationsWorkspace wa(cppEquations), wb(twinEquations);
  Observables oa, ob;
  double worstState = 0, worstEnergy = 0, worstLambda = 0;
  for (std::size_t i = 0; i < statesA.size(); ++i) {
    worstState = std::max(worstState, maxDifference(statesA[i].data(), statesB[i].data(), size));
    cppEquations.observe(wa, times[i], statesA[i].data(), oa);
    twinEquations.observe(wb, times[i], statesB[i].data(), ob);
    worstEnergy = std::max(worstEnergy, std::abs(oa.energy - ob.energy));
    QCOMPARE(ob.lambda.size(), oa.lambda.size());
    worstLambda = std::max(
        worstLambda, maxDifference(oa.lambda.data(), ob.lambda.data(), int(oa.lambda.size())));
    // The scene from one and the same state (the C++ run's) and multipliers.
    const double* q = statesA[i].data();
    const double* y = q + cpp->n();
    SceneFrame sa, sb;
    cpp->scene(p.data(), times[i], q, y, oa.lambda.data(), sa);
    twin->scene(p.data(), times[i], q, y, oa.lambda.data(), sb);
    compareScenes(name, sa, sb);
    if (QTest::currentTestFailed()) return;
  }
  QVERIFY2(worstState < kStateTolerance, qPrintable(describe(name, "state", worstState)));
  QVERIFY2(worstEnergy < kObservableTolerance, qPrintable(describe(name, "energy", worstEnergy)));
  QVERIFY2(worstLambda < kObservableTolerance, qPrintable(describe(name, "lambda", worstLambda)));
}

}  // namespace

class TwinsTest : public QObject {
  Q_OBJECT
 private slots:
  // The programs define each reference system by its model file alone, and every system
  // still in C++ has a twin for "duplicate and edit".
  void everyCppSystemHasABundledTwin() {
    for (const auto& reference : referenceSystems()) {
      const auto listed = findSystem(reference->name());
      QVERIFY2(nh::model::asFormula(*listed), "the catalogue should define it by its model file");
      QCOMPARE(catalogueEntry(*listed).origin, SystemOrigin::BuiltInModel);
      QVERIFY(bundledText(reference->name() + ".yaml"));
    }
    int cppSystems = static_cast<int>(referenceSystems().size());
    for (const CatalogueEntry& entry : catalogueEntries()) {
      if (entry.origin != SystemOrigin::BuiltIn) continue;
      const std::string file = entry.system->name() + ".yaml";
      if (std::find(std::begin(kCppOnlyNames), std::end(kCppOnlyNames), entry.system->name()) !=
          std::end(kCppOnlyNames)) {
        QVERIFY2(!bundledText(file) && entry.modelText.empty(),
                 qPrintable(QString::fromStdString(file)));
        continue;
      }
      ++cppSystems;
      const std::string* text = bundledText(file);
      QVERIFY2(text, qPrintable(QString::fromStdString(file)));
      QCOMPARE(entry.modelText, *text);
      QVERIFY(std::find(std::begin(kTwinNames), std::end(kTwinNames), entry.system->name()) !=
              std::end(kTwinNames));
    }
    QCOMPARE(cppSystems, int(std::size(kTwinNames)));
  }

  void infoAgrees_data() { twinNames(); }
  void infoAgrees() {
    QFETCH(QString, system);
    const auto cpp = cppSystem(system.toStdString());
    const auto twin = twinSystem(system.toStdString());
    QVERIFY(cpp && twin);
    QVERIFY(model::asFormula(*twin) && !model::asFormula(*cpp));
    const SystemInfo &a = cpp->info(), &b = twin->info();
    QCOMPARE(b.name, a.name);
    QCOMPARE(b.title, a.title);
    QCOMPARE(b.description, a.description);
    QCOMPARE(b.source, a.source);
    QCOMPARE(b.initialization, a.initialization);
    QCOMPARE(b.parameters.size(), a.parameters.size());
    for (std::size_t i = 0; i < a.parameters.size(); ++i) {
      compareParameters(a.parameters[i], b.parameters[i]);
      if (QTest::currentTestFailed()) return;
    }
    QCOMPARE(b.continuousPhases.size(), a.continuousPhases.size());
    for (std::size_t i = 0; i < a.continuousPhases.size(); ++i) {
      QCOMPARE(b.continuousPhases[i].parameter, a.continuousPhases[i].parameter);
      QCOMPARE(b.continuousPhases[i].quantity, a.continuousPhases[i].quantity);
    }
    QCOMPARE(b.coordinates, a.coordinates);
    QCOMPARE(b.velocities, a.velocities);
    QCOMPARE(b.stateOrder, a.stateOrder);
    QCOMPARE(b.independentVelocities, a.independentVelocities);
    QCOMPARE(b.defaultCoordinates, a.defaultCoordinates);
    QCOMPARE(b.defaultVelocities, a.defaultVelocities);
    QCOMPARE(b.quaternions.size(), a.quaternions.size());
    for (std::size_t i = 0; i < a.quaternions.size(); ++i)
      QCOMPARE(b.quaternions[i].first, a.quaternions[i].first);
    QCOMPARE(b.stateLimits.size(), a.stateLimits.size());
    for (std::size_t i = 0; i < a.stateLimits.size(); ++i) {
      const ParameterInfo &x = a.stateLimits[i], &y = b.stateLimits[i];
      QCOMPARE(y.name, x.name);
      QCOMPARE(y.min, x.min);
      QCOMPARE(y.max, x.max);
      QCOMPARE(y.minExclusive, x.minExclusive);
      QCOMPARE(y.maxExclusive, x.maxExclusive);
    }
    QCOMPARE(b.constraintCount, a.constraintCount);
    QCOMPARE(b.holonomicCount, a.holonomicCount);
    QCOMPARE(twin->hasForce(), cpp->hasForce());
    if (cpp->hasStructure()) {
      QVERIFY(twin->hasStructure());
      QCOMPARE(b.constantStructure, a.constantStructure);
    }
    // Editing: dragging, following, the moving frame.
    QCOMPARE(b.editing.followBody, a.editing.followBody);
    // "Moving frame" means it turns: not for ball_on_table's constant tilt.
    QCOMPARE(b.editing.movingFrame, a.editing.movingFrame);
    QCOMPARE(b.editing.drag.has_value(), a.editing.drag.has_value());
    if (a.editing.drag) {
      const DragHandle &x = *a.editing.drag, &y = *b.editing.drag;
      QCOMPARE(y.body, x.body);
      QCOMPARE(y.x, x.x);
      QCOMPARE(y.y, x.y);
      QCOMPARE(y.arrow, x.arrow);
      QCOMPARE(y.vx, x.vx);
      QCOMPARE(y.vy, x.vy);
      QCOMPARE(y.velocityInBodyAxes, x.velocityInBodyAxes);
    }
  }

  // The anchor and the structure functions at random configurations (quaternions not unit:
  // the formulas must agree off the sphere too), the latter also when the twin's
  // `structure` is removed and derived from the anchor instead: the file's signs and the
  // engine's convention [e_a, e_b] = C^c_ab e_c agree.
  void anchorAndStructureAgree_data() { twinNames(); }
  void anchorAndStructureAgree() {
    QFETCH(QString, system);
    const std::string name = system.toStdString();
    const auto cpp = cppSystem(name);
    const auto twin = twinSystem(name);
    QVERIFY(cpp && twin);
    const std::string* text = bundledText(name + ".yaml");
    const auto derived = model::loadModelText(withoutKey(*text, "structure"), name + ".yaml");
    QVERIFY(!model::asFormula(*derived)->data().structureGiven);
    QCOMPARE(model::asFormula(*twin)->data().structureGiven, cpp->hasStructure());
    const int n = cpp->n(), m = cpp->m();
    const std::vector<double> p = cpp->defaultParameters();
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(0.2, 1.5);
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<double> q(n);
      for (double& v : q) v = u(rng) * (trial % 2 ? 1 : -1);
      std::vector<double> rhoA(n * m), rhoB(n * m, 7.0);
      cpp->anchor(p.data(), q.data(), rhoA.data());
      twin->anchor(p.data(), q.data(), rhoB.data());
      QVERIFY2(maxDifference(rhoA.data(), rhoB.data(), n * m) < 1e-15, name.c_str());
      std::vector<double> cA(m * m * m), cB(m * m * m, 7.0), cD(m * m * m, 7.0);
      cpp->structure(p.data(), q.data(), cA.data());
      twin->structure(p.data(), q.data(), cB.data());
      derived->structure(p.data(), q.data(), cD.data());
      QVERIFY2(maxDifference(cA.data(), cB.data(), m * m * m) < 1e-15, name.c_str());
      QVERIFY2(maxDifference(cA.data(), cD.data(), m * m * m) < 1e-12, name.c_str());
    }
  }

  // The default scenario, nonholonomic and (where there are constraints) vakonomic, in
  // both formulations; then once more with other parameter values.
  void runsAgree_data() {
    QTest::addColumn<QString>("system");
    QTest::addColumn<int>("dynamics");
    QTest::addColumn<int>("formulation");
    QTest::addColumn<bool>("probe");
    for (const char* name : kTwinNames) {
      const auto cpp = cppSystem(name);
      for (DynamicsKind kind : {DynamicsKind::Nonholonomic, DynamicsKind::Vakonomic}) {
        if (kind == DynamicsKind::Vakonomic && (!cpp || cpp->k() == 0)) continue;
        for (Formulation f : {Formulation::Multipliers, Formulation::GibbsAppell})
          for (bool probe : {false, true})
            QTest::addRow("%s %s %s%s", name, toString(kind).c_str(), toString(f).c_str(),
                          probe ? " probe" : "")
                << QString(name) << int(kind) << int(f) << probe;
      }
    }
  }
  void runsAgree() {
    QFETCH(QString, system);
    QFETCH(int, dynamics);
    QFETCH(int, formulation);
    QFETCH(bool, probe);
    const std::string name = system.toStdString();
    const auto cpp = cppSystem(name);
    const auto twin = twinSystem(name);
    QVERIFY(cpp && twin);
    compareRuns(name, cpp, twin, DynamicsKind(dynamics), Formulation(formulation),
                probe ? probeParameters(name) : std::map<std::string, double>{});
  }

  // Scenes at random states (away from the defaults' zeros), at other parameter values.
  void scenesAgreeAtRandomStates_data() { twinNames(); }
  void scenesAgreeAtRandomStates() {
    QFETCH(QString, system);
    const std::string name = system.toStdString();
    const auto cpp = cppSystem(name);
    const auto twin = twinSystem(name);
    QVERIFY(cpp && twin);
    for (const auto& parameters : sceneParameters(name)) {
      const std::vector<double> p = resolveParameters(*cpp, parameters);
      EquationsOfMotion eq(cpp, DynamicsKind::Nonholonomic, Formulation::Multipliers, p);
      std::mt19937 rng(3);
      std::uniform_real_distribution<double> u(-2, 2);
      for (int trial = 0; trial < 20; ++trial) {
        const double t = 0.5 * trial;
        const std::vector<double> x = test::randomState(eq, rng, t);
        std::vector<double> lambda(cpp->constraintsTotal());
        for (double& l : lambda) l = u(rng);
        SceneFrame sa, sb;
        cpp->scene(p.data(), t, x.data(), x.data() + cpp->n(), lambda.data(), sa);
        twin->scene(p.data(), t, x.data(), x.data() + cpp->n(), lambda.data(), sb);
        compareScenes(name, sa, sb);
        if (QTest::currentTestFailed()) return;
        // What a parameter keeps continuous through edits (the table's angle).
        for (int i = 0; i < static_cast<int>(p.size()); ++i) {
          const double a = cpp->continuousValue(i, p.data(), t, x.data(), x.data() + cpp->n());
          const double b = twin->continuousValue(i, p.data(), t, x.data(), x.data() + cpp->n());
          QCOMPARE(std::isnan(b), std::isnan(a));
          if (!std::isnan(a)) QVERIFY(std::abs(a - b) <= 1e-12 * (1 + std::abs(a)));
        }
      }
    }
  }

 private:
  static void twinNames() {
    QTest::addColumn<QString>("system");
    for (const char* name : kTwinNames) QTest::newRow(name) << QString(name);
  }
};

QTEST_APPLESS_MAIN(TwinsTest)
#include "twins_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
