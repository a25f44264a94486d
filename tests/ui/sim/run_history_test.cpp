// The recorded history of a run: records from a real simulation land in the right columns,
// lookups by time, truncation and resumption, the parameters in force at each sample, the
// front dropped beyond the cap, and the scene read back at a time.
#include "ui/sim/run_history.h"

#include <QtTest>
#include <cmath>

#include "core/model/catalogue.h"
#include "core/nh/simulation.h"
#include "tests/support/catalogue_systems.h"

using nhui::RecordLayout;
using nhui::RunHistory;

namespace {

// Records of `system` from its default state, sampled every dt up to tEnd, as the worker
// makes them (fillRecord).
struct Recording {
  std::shared_ptr<const nh::SystemModel> system;
  RecordLayout layout;
  std::vector<double> records;
  std::vector<std::vector<double>> states;
  size_t count() const { return states.size(); }
};

Recording record(const std::string& name, double tEnd, double dt) {
  Recording r;
  r.system = nh::findSystem(name);
  nh::Simulation sim(r.system, nh::DynamicsKind::Nonholonomic);
  r.layout = nhui::makeRecordLayout(sim.equations());
  sim.setState(0, nh::initialState(sim.equations(), 0, {}));
  nh::Observables obs;
  std::vector<double> row;
  nh::SceneFrame scene;
  sim.advance(tEnd, dt, [&](double t, const double* x) {
    const size_t at = r.records.size();
    r.records.resize(at + r.layout.stride());
    nhui::fillRecord(sim.equations(), sim.workspace(), r.layout, t, x, obs, row, scene,
                     r.records.data() + at);
    r.states.emplace_back(x, x + sim.equations().stateSize());
  });
  return r;
}

}  // namespace

class RunHistoryTest : public QObject {
  Q_OBJECT

 private slots:
  // For every catalogue system, state(k) gives back the state the simulation produced at
  // sample k, and the named columns hold the matching entries.
  void recordsRoundTripForEverySystem() {
    for (const auto& system : nh::test::systemsWithDynamics()) {
      const Recording r = record(system->name(), 0.2, 0.05);
      RunHistory h(r.system, nh::DynamicsKind::Nonholonomic, r.layout);
      QVERIFY(h.empty());
      h.append(r.records.data(), r.count());
      QCOMPARE(h.size(), r.count());
      QCOMPARE(h.size(), size_t(5));  // t = 0, 0.05, …, 0.2
      for (size_t k = 0; k < h.size(); ++k) {
        QCOMPARE(h.state(k), r.states[k]);
        QCOMPARE(h.time(k), 0.05 * static_cast<double>(k));
      }
      const nh::StateLayout& state = r.layout.state;
      for (size_t i = 0; i < state.names.size(); ++i) {
        const int c = h.columnIndex(state.names[i]);
        QVERIFY2(c >= 0, state.names[i].c_str());
        QCOMPARE(h.column(c)[3], r.states[3][state.index[i]]);
      }
      QCOMPARE(h.columnIndex("no such column"), -1);
      // Default states are consistent: the recorded largest residual says so.
      QVERIFY(h.column(r.layout.residualColumn)[0] < 1e-12);
    }
  }

  void lookupsByTime() {
    const Recording r = record("ball_on_turntable", 1.0, 0.1);
    RunHistory h(r.system, nh::DynamicsKind::Nonholonomic, r.layout);
    h.append(r.records.data(), r.count());
    QCOMPARE(h.firstTime(), 0.0);
    QCOMPARE(h.lastTime(), 1.0);
    QCOMPARE(h.indexAtOrBefore(0.35), size_t(3));
    QCOMPARE(h.indexAtOrAfter(0.35), size_t(4));
    QCOMPARE(h.indexAtOrBefore(h.time(4)), size_t(4));  // exact hits are their own sample
    QCOMPARE(h.indexAtOrAfter(h.time(4)), size_t(4));
    QCOMPARE(h.indexAtOrBefore(-1.0), size_t(0));
    QCOMPARE(h.indexAtOrBefore(5.0), size_t(10));
    QCOMPARE(h.indexAtOrAfter(5.0), h.size());
  }

  // Truncating at k keeps [0, k) and a resumption appends after it; a parameter change
  // recorded after k is forgotten with the samples it applied to.
  void truncateAndResume() {
    const Recording r = record("nh_particle", 1.0, 0.1);
    const int stride = r.layout.stride();
    RunHistory h(r.system, nh::DynamicsKind::Nonholonomic, r.layout);
    const std::vector<double> p0 = r.system->defaultParameters();
    std::vector<double> p1 = p0;
    p1[0] += 1;
    h.setParametersFrom(0, p0);
    h.append(r.records.data(), 8);
    h.setParametersFrom(6, p1);
    QCOMPARE(h.parametersAt(7), p1);
    h.truncate(5);
    QCOMPARE(h.size(), size_t(5));
    QCOMPARE(h.lastTime(), 0.4);
    QCOMPARE(h.parametersAt(4), p0);
    h.append(r.records.data() + 5 * stride, r.count() - 5);
    QCOMPARE(h.size(), r.count());
    QCOMPARE(h.parametersAt(10), p0);  // the change at 6 went with the truncated samples
    for (size_t k = 0; k < h.size(); ++k) QCOMPARE(h.state(k), r.states[k]);
    h.clear();
    QVERIFY(h.empty());
  }

  void parametersAtTime() {
    const Recording r = record("ball_on_turntable", 1.0, 0.1);
    RunHistory h(r.system, nh::DynamicsKind::Nonholonomic, r.layout);
    h.append(r.records.data(), r.count());
    const int omega = r.system->parameterIndex("Omega0");
    std::vector<double> p = r.system->defaultParameters();
    h.setParametersFrom(0, p);
    p[omega] = 2;
    h.setParametersFrom(4, p);
    p[omega] = 3;
    h.setParametersFrom(7, p);
    const double expected[] = {1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3};
    for (size_t k = 0; k < h.size(); ++k) QCOMPARE(h.parametersAt(k)[omega], expected[k]);
    // A new change at or before a later one replaces it (an edit after scrubbing back).
    p[omega] = 5;
    h.setParametersFrom(5, p);
    QCOMPARE(h.parametersAt(6)[omega], 5.0);
    QCOMPARE(h.parametersAt(10)[omega], 5.0);
    QCOMPARE(h.parametersAt(4)[omega], 2.0);
    // Dropping the front keeps the parameters of every kept sample.
    h.dropFront(6);
    QCOMPARE(h.size(), size_t(5));
    QCOMPARE(h.firstTime(), 0.6);
    for (size_t k = 0; k < h.size(); ++k) QCOMPARE(h.parametersAt(k)[omega], 5.0);
  }

  // The scene at a recorded time is the system's scene of that sample; halfway between two
  // samples the ball's centre lies halfway (linear interpolation, display only).
  void sceneAtTime() {
    const Recording r = record("ball_on_turntable", 1.0, 0.1);
    RunHistory h(r.system, nh::DynamicsKind::Nonholonomic, r.layout);
    h.append(r.records.data(), r.count());
    h.setParametersFrom(0, r.system->defaultParameters());
    auto ballAt = [&](double t) {
      nh::SceneFrame f;
      h.sceneAt(t, f);
      for (const auto& b : f.bodies)
        if (b.name == r.system->info().editing.followBody) return b.position;
      return Eigen::Vector3d(Eigen::Vector3d::Constant(std::nan("")));
    };
    const double radius = r.system->defaultParameters()[r.system->parameterIndex("r")];
    const Eigen::Vector3d at3 = ballAt(h.time(3)), at4 = ballAt(h.time(4));
    // The state's x, y are the centre's ground-plane position on the level table.
    QCOMPARE(at3, Eigen::Vector3d(r.states[3][0], r.states[3][1], radius));
    const Eigen::Vector3d mid = ballAt(0.5 * (h.time(3) + h.time(4)));
    QVERIFY((mid - 0.5 * (at3 + at4)).norm() < 1e-12);
  }
};

QTEST_GUILESS_MAIN(RunHistoryTest)
#include "run_history_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
