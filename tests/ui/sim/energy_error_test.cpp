// The derived column energy_error (ui/sim/run_history.h): (E − E₀)/|E₀| with E₀ the energy of
// the first sample recorded with the parameters in force, restarting at a parameter edit;
// E − E₀ where E₀ = 0. Kept through truncation and dropping the oldest samples.
#include <QtTest>
#include <cmath>

#include "core/model/catalogue.h"
#include "core/nh/scenario.h"
#include "core/nh/simulation.h"
#include "ui/sim/run_history.h"

using nhui::RunHistory;

namespace {

// Records of the system's default run (t in [0, tEnd], every dt).
std::vector<double> recordRun(const std::shared_ptr<const nh::SystemModel>& system,
                              const nhui::RecordLayout& layout, double tEnd, double dt,
                              const std::vector<double>& parameters) {
  nh::Simulation sim(system, nh::DynamicsKind::Nonholonomic);
  sim.setParameters(parameters);
  sim.setState(0, nh::initialState(sim.equations(), 0, {}));
  nh::Observables obs;
  std::vector<double> row, records;
  nh::SceneFrame scene;
  sim.advance(tEnd, dt, [&](double t, const double* x) {
    const size_t at = records.size();
    records.resize(at + layout.stride());
    nhui::fillRecord(sim.equations(), sim.workspace(), layout, t, x, obs, row, scene,
                     records.data() + at);
  });
  return records;
}

}  // namespace

class EnergyErrorTest : public QObject {
  Q_OBJECT

 private slots:
  void relativeToTheFirstSampleOfEachSegment() {
    const auto system = nh::findSystem("ball_on_turntable");
    nh::Simulation probe(system, nh::DynamicsKind::Nonholonomic);
    const nhui::RecordLayout layout = nhui::makeRecordLayout(probe.equations());
    RunHistory h(system, nh::DynamicsKind::Nonholonomic, layout);
    const int e = h.columnIndex("energy"), err = h.columnIndex("energy_error");
    QVERIFY2(err >= 0, "no energy_error column");
    QVERIFY(e >= 0);

    std::vector<double> p = system->defaultParameters();
    h.setParametersFrom(0, p);
    const std::vector<double> first = recordRun(system, layout, 1.0, 0.1, p);
    const size_t n = first.size() / layout.stride();
    h.append(first.data(), n);
    const double e0 = h.column(e)[0];
    QVERIFY(e0 != 0);
    QCOMPARE(h.column(err)[0], 0.0);
    for (size_t k = 0; k < n; ++k) QCOMPARE(h.column(err)[k], (h.column(e)[k] - e0) / std::abs(e0));

    // An edit: records from sample n on use other parameters and another E₀.
    p[system->parameterIndex("Omega0")] = 2.5;
    h.setParametersFrom(n, p);
    const std::vector<double> second = recordRun(system, layout, 0.5, 0.1, p);
    const size_t m = second.size() / layout.stride();
    h.append(second.data(), m);
    const double e1 = h.column(e)[n];
    QVERIFY(std::abs(e1 - e0) > 1e-6);  // Ω enters the energy of the table-frame start
    QCOMPARE(h.column(err)[n], 0.0);
    QCOMPARE(h.column(err)[n + m - 1], (h.column(e)[n + m - 1] - e1) / std::abs(e1));

    // The oldest samples dropped: the values recorded stay, new ones use the same E₀.
    h.dropFront(n + 1);
    h.append(second.data() + (m - 1) * layout.stride(), 1);
    QCOMPARE(h.column(err).back(), (h.column(e).back() - e1) / std::abs(e1));

    // Truncated to nothing: E₀ is taken again from the next sample.
    h.truncate(0);
    h.append(second.data() + 2 * layout.stride(), 1);
    QCOMPARE(h.column(err).back(), 0.0);
  }

  // A system whose starting energy is 0: the error is E − E₀ (no division by 0).
  void absoluteWhereTheStartingEnergyIsZero() {
    const auto system = nh::findSystem("ball_on_turntable");
    nh::Simulation probe(system, nh::DynamicsKind::Nonholonomic);
    const nhui::RecordLayout layout = nhui::makeRecordLayout(probe.equations());
    RunHistory h(system, nh::DynamicsKind::Nonholonomic, layout);
    std::vector<double> records(3 * layout.stride(), 0.0);
    const int e = h.columnIndex("energy");
    records[0 * layout.stride() + e] = 0;
    records[1 * layout.stride() + e] = 1e-9;
    records[2 * layout.stride() + e] = -2e-9;
    h.append(records.data(), 3);
    const int err = h.columnIndex("energy_error");
    QCOMPARE(h.column(err)[1], 1e-9);
    QCOMPARE(h.column(err)[2], -2e-9);
    QVERIFY(std::isfinite(h.column(err)[2]));
  }
};

QTEST_GUILESS_MAIN(EnergyErrorTest)
#include "energy_error_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
