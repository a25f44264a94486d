// Every catalogue system is well described, starts consistent, draws a scene and runs;
// closed-form behaviour of the rolling disk.
#include "core/model/catalogue.h"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <random>
#include <set>

#include "core/nh/errors.h"
#include "core/nh/scenario.h"
#include "tests/support/catalogue_systems.h"

using namespace nh;

class CatalogueTest : public QObject {
  Q_OBJECT
 private slots:
  // The listing nhsim list prints, read from the bundled files' name and title lines without
  // loading them, is the catalogue's own: the same systems, origins and titles in its order.
  void listingIsTheCatalogueWithoutLoading() {
    const std::vector<CatalogueLine> lines = catalogueListing();
    const std::vector<CatalogueEntry> entries = catalogueEntries();
    QCOMPARE(lines.size(), entries.size());
    for (size_t i = 0; i < lines.size(); ++i) {
      QCOMPARE(lines[i].name, entries[i].system->name());
      QVERIFY(lines[i].origin == entries[i].origin);
      QCOMPARE(lines[i].title, entries[i].system->info().title);
    }
  }

  void descriptionsAreComplete() {
    QVERIFY(!catalogue().empty());
    std::set<std::string> systemNames;
    for (const auto& system : catalogue()) {
      const SystemInfo& s = system->info();
      const QString name = QString::fromStdString(s.name);
      QVERIFY2(systemNames.insert(s.name).second, qPrintable(name));  // names are unique ...
      QCOMPARE(findSystem(s.name), system);                           // ... and found by name
      std::set<std::string> parameterNames;
      for (const auto& p : s.parameters)
        QVERIFY2(parameterNames.insert(p.name).second, qPrintable(name));
      QVERIFY2(!s.title.empty() && !s.description.empty() && !s.source.empty() &&
                   !s.equations.empty() && !s.initialization.empty(),
               qPrintable(name));
      QCOMPARE(s.defaultCoordinates.size(), s.coordinates.size());
      QCOMPARE(s.defaultVelocities.size(), s.velocities.size());
      std::multiset<std::string> all(s.coordinates.begin(), s.coordinates.end());
      all.insert(s.velocities.begin(), s.velocities.end());
      QVERIFY2(std::multiset<std::string>(s.stateOrder.begin(), s.stateOrder.end()) == all,
               qPrintable(name));
      for (const auto& p : s.parameters)
        QVERIFY2(p.allows(p.defaultValue) && !p.unit.empty() + !p.description.empty() >= 1,
                 qPrintable(name));
    }
  }

  void defaultsAreConsistentDrawAndRun() {
    for (const auto& system : test::systemsWithDynamics()) {
      for (DynamicsKind kind : {DynamicsKind::Nonholonomic, DynamicsKind::Vakonomic}) {
        Simulation sim(system, kind);
        const auto x0 = initialState(sim.equations(), 0, {});
        QVERIFY(sim.equations().residual(0, x0.data()) < 1e-12);
        sim.setState(0, x0);
        int samples = 0;
        sim.advance(1.0, 0.1, [&](double, const double*) { ++samples; });
        QCOMPARE(samples, 11);
        Observables o;
        sim.equations().observe(sim.workspace(), sim.time(), sim.state().data(), o);
        SceneFrame frame;
        system->scene(sim.equations().parameters().data(), sim.time(), sim.state().data(),
                      sim.state().data() + system->n(), o.lambda.data(), frame);
        QVERIFY(!frame.bodies.empty());
        QVERIFY(!frame.points.empty());
        QVERIFY(frame.extent > 0);
      }
    }
  }

  // The scene-editing description (read by the GUI instead of system names) names bodies,
  // arrows and state variables that exist, and says "moving frame" exactly when the scene's
  // moving frame turns.
  void sceneEditingNamesWhatExists() {
    for (const auto& system : test::systemsWithDynamics()) {
      const SystemInfo& s = system->info();
      const QString name = QString::fromStdString(s.name);
      Simulation sim(system, DynamicsKind::Nonholonomic);
      const auto x0 = initialState(sim.equations(), 0, {});
      Observables o;
      EquationsWorkspace ws(sim.equations());
      sim.equations().observe(ws, 0, x0.data(), o);
      const double* p = sim.equations().parameters().data();
      SceneFrame start, later;
      system->scene(p, 0, x0.data(), x0.data() + system->n(), o.lambda.data(), start);
      system->scene(p, 1, x0.data(), x0.data() + system->n(), o.lambda.data(), later);
      auto hasBody = [&](const std::string& b) {
        return std::any_of(start.bodies.begin(), start.bodies.end(),
                           [&](const SceneBody& body) { return body.name == b; });
      };
      auto isState = [&](const std::string& v) {
        return std::find(s.stateOrder.begin(), s.stateOrder.end(), v) != s.stateOrder.end();
      };
      const SceneEditing& e = s.editing;
      QVERIFY2(e.followBody.empty() || hasBody(e.followBody), qPrintable(name));
      if (e.drag) {
        QVERIFY2(hasBody(e.drag->body), qPrintable(name));
        QVERIFY2(isState(e.drag->x) && isState(e.drag->y), qPrintable(name));
        if (!e.drag->arrow.empty()) {
          QVERIFY2(std::any_of(start.arrows.begin(), start.arrows.end(),
                               [&](const SceneArrow& a) {
                                 return a.name == e.drag->arrow && a.kind == ArrowKind::Velocity;
                               }),
                   qPrintable(name));
          QVERIFY2(!e.drag->vx.empty() || !e.drag->vy.empty(), qPrintable(name));
        }
        for (const std::string& v : {e.drag->vx, e.drag->vy})
          QVERIFY2(v.empty() || isState(v), qPrintable(name));
      }
      const bool turns = start.movingFrame.angularDistance(later.movingFrame) > 1e-6;
      QVERIFY2(turns == e.movingFrame, qPrintable(name));
    }
  }

  // The bundled control models (resources/systems) are in the catalogue with controls and no
  // constraints, and their scenes draw finite bodies and trails at random states: coordinates
  // near the start (unit quaternions), any velocities (along a plan, those the controls give).
  void controlModelsDescribeThemselvesAndDraw() {
    std::set<std::string> names;
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (const auto& system : test::controlModels()) {
      const SystemInfo& s = system->info();
      const QString name = QString::fromStdString(s.name);
      names.insert(s.name);
      QVERIFY2(!s.controls.empty() && s.constraintCount + s.holonomicCount == 0, qPrintable(name));
      const std::vector<double> p = system->defaultParameters();
      for (int trial = 0; trial < 4; ++trial) {
        std::vector<double> x(system->n() + system->m());
        for (int i = 0; i < system->n(); ++i)
          x[i] = s.defaultCoordinates[i] + (trial == 0 ? 0.0 : 0.5 * u(rng));
        for (const auto& slot : s.quaternions) {
          double norm = 0;
          for (int k = 0; k < 4; ++k) norm += x[slot.first + k] * x[slot.first + k];
          for (int k = 0; k < 4; ++k) x[slot.first + k] /= std::sqrt(norm);
        }
        for (int a = 0; a < system->m(); ++a) x[system->n() + a] = u(rng);
        SceneFrame frame;
        system->scene(p.data(), 0.5, x.data(), x.data() + system->n(), nullptr, frame);
        QVERIFY2(!frame.bodies.empty() && !frame.points.empty() && frame.extent > 0,
                 qPrintable(name));
        for (const SceneBody& b : frame.bodies)
          QVERIFY2(b.position.allFinite() && b.size.allFinite(),
                   qPrintable(name + ": " + QString::fromStdString(b.name)));
        for (const SceneArrow& a : frame.arrows)
          QVERIFY2(a.vector.allFinite(), qPrintable(name + ": " + QString::fromStdString(a.name)));
        const std::string& follow = s.editing.followBody;
        QVERIFY2(
            follow.empty() || std::any_of(frame.bodies.begin(), frame.bodies.end(),
                                          [&](const SceneBody& b) { return b.name == follow; }),
            qPrintable(name));
      }
    }
    const std::set<std::string> bundled{"brockett_integrator", "double_integrator", "plate_ball",
                                        "rigid_body_control", "unicycle"};
    QVERIFY(names == bundled);
  }

  void unknownNamesAndBadValuesAreRejected() {
    QVERIFY_THROWS_EXCEPTION(InputError, findSystem("teapot"));
    const auto system = findSystem("ball_on_turntable");
    try {
      resolveParameters(*system, {{"r", -1}});
      QFAIL("expected InputError");
    } catch (const InputError& e) {
      QCOMPARE(QString(e.what()), QString("parameter 'r' must be in (0, inf), got -1"));
    }
    QVERIFY_THROWS_EXCEPTION(InputError, resolveParameters(*system, {{"mass", 1}}));
    EquationsOfMotion eq(system, DynamicsKind::Nonholonomic);
    QVERIFY_THROWS_EXCEPTION(InputError, initialState(eq, 0, {{"speed", 1}}));
    QVERIFY_THROWS_EXCEPTION(InputError,
                             initialState(eq, 0, {{"qw", 0}, {"qx", 0}, {"qy", 0}, {"qz", 0}}));
  }

  // Initial velocities that violate the constraints are completed, keeping what was given.
  void initialVelocitiesAreCompleted() {
    const auto system = findSystem("ball_on_turntable");
    EquationsOfMotion eq(system, DynamicsKind::Nonholonomic);
    std::vector<std::string> notes;
    const auto x = initialState(eq, 0, {{"x", 0.5}, {"vx", 0.1}, {"vy", 0.2}}, &notes);
    QVERIFY(notes.empty());
    QVERIFY(std::abs(x[6] - 0.1) < 1e-15 && std::abs(x[7] - 0.2) < 1e-15);
    QVERIFY(std::abs(x[9] - 0.1 / 0.1) < 1e-12);          // ωy = (vx + Ω y)/r
    QVERIFY(std::abs(x[8] - (0.5 - 0.2) / 0.1) < 1e-12);  // ωx = (Ω x − vy)/r
    // Giving ωx too: vy is what changes now.
    const auto x2 = initialState(eq, 0, {{"x", 0.5}, {"vx", 0.1}, {"wx", 1.0}}, &notes);
    QVERIFY(std::abs(x2[8] - 1.0) < 1e-15);
    QVERIFY(std::abs(x2[7] - (0.5 - 0.1)) < 1e-12);
    QVERIFY(eq.residual(0, x2.data()) < 1e-14);
    // Contradicting everything: projected, with a note.
    notes.clear();
    const auto x3 = initialState(eq, 0, {{"vx", 1}, {"vy", 1}, {"wx", 1}, {"wy", 1}}, &notes);
    QVERIFY(eq.residual(0, x3.data()) < 1e-12);
    QVERIFY(!notes.empty());
  }

  // A vertical disk rolls on a circle of radius r·wtheta/wphi at constant rates.
  void rollingDiskRunsOnACircle() {
    const auto system = findSystem("rolling_disk");
    Simulation sim(system, DynamicsKind::Nonholonomic);
    const double r = 0.3, wphi = 0.7, wtheta = 2.5;
    const auto x0 = initialState(sim.equations(), 0, {{"wphi", wphi}, {"wtheta", wtheta}});
    sim.setState(0, x0);
    const double R = r * wtheta / wphi;
    // Centre of the circle: heading 0 at the origin, turning left → centre (0, R).
    double worst = 0;
    sim.advance(20, 0.1, [&](double, const double* x) {
      worst = std::max(worst, std::abs(std::hypot(x[0], x[1] - R) - R));
      worst = std::max(worst, std::abs(x[6] - wphi) + std::abs(x[7] - wtheta));
    });
    QVERIFY2(worst < 1e-9, qPrintable(QString::number(worst)));
  }
};

QTEST_APPLESS_MAIN(CatalogueTest)
#include "catalogue_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
