// The bundled test problems from the literature on integrators for long runs:
// nonholonomic_oscillator (McLachlan & Perlmutter) keeps its two invariants H and H_y, recorded
// as its outputs, holds ẋ + y ż = 0, and its y is a harmonic oscillator in closed form;
// suslov_oblique (I = diag(1, 10, 100), an oblique constraint axis) keeps its energy and
// a·ω = 0 and follows Euler's equations with the multiplier solved by hand.
#include <Eigen/Dense>
#include <QtTest>
#include <cmath>

#include "core/nh/scenario.h"
#include "model_test_support.h"

using namespace nh;
using namespace nh::test;

namespace {

// DOP853 at rtol 1e-12, atol 1e-14.
IntegratorOptions dop853() {
  IntegratorOptions o = tight();
  o.method = Integrator::Dop853;
  return o;
}

// The output rows (outputColumns) of a run from the defaults, every dtOut up to tEnd.
struct Table {
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;
  int column(const std::string& name) const {
    for (size_t c = 0; c < columns.size(); ++c)
      if (columns[c] == name) return static_cast<int>(c);
    return -1;
  }
};

Table record(const std::shared_ptr<const SystemModel>& system, double tEnd, double dtOut) {
  Simulation sim(system, DynamicsKind::Nonholonomic, Formulation::Multipliers, dop853());
  sim.setParameters(system->defaultParameters());
  sim.setState(0, initialState(sim.equations(), 0, {}));
  const StateLayout layout = stateLayout(*system, DynamicsKind::Nonholonomic);
  Table table;
  table.columns = outputColumns(sim.equations());
  Observables obs;
  std::vector<double> row;
  sim.advance(tEnd, dtOut, [&](double t, const double* x) {
    outputRow(sim.equations(), sim.workspace(), layout, t, x, obs, row);
    table.rows.push_back(row);
  });
  return table;
}

// Euler's equations of the Suslov problem with I = diag(I) and a·ω = 0, the multiplier
// eliminated: I ω̇ = (I ω) × ω + λ a with λ = −a·I⁻¹((I ω) × ω) / (a·I⁻¹ a).
Eigen::Vector3d suslovRate(const Eigen::Vector3d& I, const Eigen::Vector3d& a,
                           const Eigen::Vector3d& w) {
  const Eigen::Vector3d torque = I.cwiseProduct(w).cross(w);
  const Eigen::Vector3d invI = I.cwiseInverse();
  const double lambda = -a.dot(invI.cwiseProduct(torque)) / a.dot(invI.cwiseProduct(a));
  return invI.cwiseProduct(torque + lambda * a);
}

// Classical RK4 at step h from ω0 to time T (h divides T).
Eigen::Vector3d suslovReference(const Eigen::Vector3d& I, const Eigen::Vector3d& a,
                                Eigen::Vector3d w, double T, double h) {
  const long steps = std::lround(T / h);
  for (long i = 0; i < steps; ++i) {
    const Eigen::Vector3d k1 = suslovRate(I, a, w);
    const Eigen::Vector3d k2 = suslovRate(I, a, w + 0.5 * h * k1);
    const Eigen::Vector3d k3 = suslovRate(I, a, w + 0.5 * h * k2);
    const Eigen::Vector3d k4 = suslovRate(I, a, w + h * k3);
    w += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
  }
  return w;
}

}  // namespace

class LiteratureModelsTest : public QObject {
  Q_OBJECT
 private slots:
  // H and H_y are output columns; over 200 s both stay at their start to 1e-9 (relative),
  // H equals the energy column, the constraint holds to 1e-10, and y(t) = y0 cos t + ẏ0 sin t
  // (the constraint force (1, 0, y) λ has no y component) to 1e-8.
  void oscillatorKeepsHAndHy() {
    const auto system = bundled("nonholonomic_oscillator");
    QVERIFY(system);
    const Table table = record(system, 200.0, 0.5);
    const int H = table.column("H"), Hy = table.column("H_y"), energy = table.column("energy");
    const int phi = table.column("phi_1"), y = table.column("y"), vy = table.column("vy");
    QVERIFY(H > 0 && Hy > 0 && energy > 0 && phi > 0 && y > 0 && vy > 0);
    QCOMPARE(table.rows.size(), std::size_t(401));
    const std::vector<double>& first = table.rows.front();
    QVERIFY(first[H] > 0.5 && first[Hy] > 0.1);  // not a trivial motion
    for (const std::vector<double>& r : table.rows) {
      const double t = r[0];
      QVERIFY2(std::abs(r[H] - first[H]) < 1e-9 * first[H], qPrintable(QString::number(t)));
      QVERIFY2(std::abs(r[Hy] - first[Hy]) < 1e-9 * first[Hy], qPrintable(QString::number(t)));
      QVERIFY(std::abs(r[H] - r[energy]) < 1e-12 * first[H]);
      QVERIFY(std::abs(r[phi]) < 1e-10);
      const double yExact = first[y] * std::cos(t) + first[vy] * std::sin(t);
      QVERIFY2(std::abs(r[y] - yExact) < 1e-8, qPrintable(QString::number(t)));
    }
  }

  // ω at t = 10 against Euler's equations with the multiplier solved by hand (RK4 at 1e-4);
  // over 100 s the energy ½ ωᵀ I ω stays to 1e-10 and a·ω to 1e-12, the attitude a unit
  // quaternion; the motion is not a steady rotation (ω moves by more than 0.1).
  void suslovObliqueFollowsEulersEquations() {
    const auto system = bundled("suslov_oblique");
    QVERIFY(system);
    const std::vector<double> p = system->defaultParameters();
    const Eigen::Vector3d I(p[0], p[1], p[2]), a(p[3], p[4], p[5]);
    QCOMPARE(I, Eigen::Vector3d(1, 10, 100));
    const Table table = record(system, 100.0, 10.0);
    const int w1 = table.column("w1"), qw = table.column("qw"), energy = table.column("energy");
    QVERIFY(w1 > 0 && qw > 0 && energy > 0);
    auto omega = [&](const std::vector<double>& r) {
      return Eigen::Vector3d(r[w1], r[w1 + 1], r[w1 + 2]);
    };
    const Eigen::Vector3d w0 = omega(table.rows.front());
    QVERIFY(std::abs(a.dot(w0)) < 1e-14);
    const Eigen::Vector3d expected = suslovReference(I, a, w0, 10.0, 1e-4);
    const double d = (omega(table.rows[1]) - expected).norm();
    QVERIFY2(d < 1e-9, qPrintable(QString("ω off by %1 at t = 10").arg(d)));
    QVERIFY((omega(table.rows[1]) - w0).norm() > 0.1);
    const double e0 = 0.5 * w0.dot(I.cwiseProduct(w0));
    for (const std::vector<double>& r : table.rows) {
      const Eigen::Vector3d w = omega(r);
      QVERIFY(std::abs(0.5 * w.dot(I.cwiseProduct(w)) - e0) < 1e-10 * e0);
      QVERIFY(std::abs(r[energy] - e0) < 1e-10 * e0);
      QVERIFY(std::abs(a.dot(w)) < 1e-12);
      const Eigen::Vector4d q(r[qw], r[qw + 1], r[qw + 2], r[qw + 3]);
      QVERIFY(std::abs(q.norm() - 1) < 1e-12);
    }
  }
};

QTEST_APPLESS_MAIN(LiteratureModelsTest)
#include "literature_models_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
