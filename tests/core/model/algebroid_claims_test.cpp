// Two claims of seed 000 that the engine's equations must honour, checked on model files:
// - Theorem 5: vakonomic dynamics depends only on L restricted to the constraint S. The
//   particle with ż = y ẋ (nh_particle) and the same L plus ½ c Φ² (equal on S) move alike
//   from the same state and multiplier; with L + κ Φ they move alike once μ(0) is shifted by
//   −κ (the engine's vakonomic Lagrangian L + μ Φ is then the same). Nonholonomic dynamics does
//   depend on L off S: L + κ Φ adds the gyroscopic force κ (ẏ, −ẋ, 0) of the 1-form κ(dz − y dx),
//   and the nonholonomic motions part.
// - (5.11) with constraints on an algebroid that is not skew: graded_index_ray's bracket with
//   the constraint vy = k vx. By hand from (5.11), F_x = −a vx² − 2b vx vy + a vy²,
//   F_y = b vx² − 2a vx vy − b vy², and ẏ = F + Aᵀλ, A = (−k, 1), A ẏ = 0 give
//   v̇x = (F_x + k F_y)/(1 + k²) = −(a + b k) vx², so vx(t) = vx0/(1 + (a + b k) vx0 t),
//   x(t) = x0 + ln(1 + (a + b k) vx0 t)/(a + b k), y − y0 = k (x − x0), and λ = (a k − b) vx².
#include <QtTest>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/nh/scenario.h"
#include "model_test_support.h"

using namespace nh;
using namespace nh::test;

namespace {

// The state after `seconds` from the defaults with `initial` (names of q, y and μ).
std::vector<double> after(const std::shared_ptr<const SystemModel>& system, DynamicsKind kind,
                          const std::map<std::string, double>& initial, double seconds) {
  Simulation sim(system, kind, Formulation::Multipliers, tight());
  sim.setState(0, initialState(sim.equations(), 0, initial));
  sim.advance(seconds, seconds, [](double, const double*) {});
  return sim.state();
}

double largestDifference(const std::vector<double>& a, const std::vector<double>& b, int count) {
  double d = 0;
  for (int i = 0; i < count; ++i) d = std::max(d, std::abs(a[i] - b[i]));
  return d;
}

const std::string kLagrangian = "lagrangian: 0.5*m*(vx*vx + vy*vy + vz*vz)";

}  // namespace

class AlgebroidClaimsTest : public QObject {
  Q_OBJECT

 private slots:
  void vakonomicMotionSeesOnlyTheConstrainedLagrangian() {
    const auto plain = bundled("nh_particle");
    const auto squared =
        edited("nh_particle", {{kLagrangian, kLagrangian + " + 0.35*(vz - y*vx)^2"}});
    const auto linear = edited("nh_particle", {{kLagrangian, kLagrangian + " + 0.7*(vz - y*vx)"}});
    const std::map<std::string, double> start = {
        {"x", 0.1}, {"y", 0.4}, {"vx", 0.8}, {"vy", -0.3}, {"mu", 0.25}};
    std::map<std::string, double> shifted = start;
    shifted["mu"] = 0.25 - 0.7;
    const int qy = plain->n() + plain->m();  // q and y; μ differs by the shift
    const auto reference = after(plain, DynamicsKind::Vakonomic, start, 4.0);
    const double dSquared =
        largestDifference(after(squared, DynamicsKind::Vakonomic, start, 4.0), reference, qy);
    const double dLinear =
        largestDifference(after(linear, DynamicsKind::Vakonomic, shifted, 4.0), reference, qy);
    qInfo("vakonomic, L + ½cΦ²: %.2g; L + κΦ with μ − κ: %.2g", dSquared, dLinear);
    QVERIFY(dSquared < 1e-9);
    QVERIFY(dLinear < 1e-9);
    // Unshifted, the multiplier enters: the motions part.
    QVERIFY(largestDifference(after(linear, DynamicsKind::Vakonomic, start, 4.0), reference, qy) >
            1e-3);
    // Nonholonomic: L + κΦ moves otherwise.
    std::map<std::string, double> state = start;
    state.erase("mu");
    const int q = plain->n() + plain->m();
    const double dNonholonomic =
        largestDifference(after(linear, DynamicsKind::Nonholonomic, state, 4.0),
                          after(plain, DynamicsKind::Nonholonomic, state, 4.0), q);
    qInfo("nonholonomic, L + κΦ: %.2g", dNonholonomic);
    QVERIFY(dNonholonomic > 1e-2);
  }

  void constrainedRayOnANonSkewAlgebroid() {
    const auto ray = edited("graded_index_ray",
                            {{"lagrangian: 0.5*(vx*vx + vy*vy)",
                              "lagrangian: 0.5*(vx*vx + vy*vy)\nconstraints:\n  - vy - 0.6*vx"},
                             {"independent: [vx, vy]", "independent: [vx]"}});
    const double a = 0.5, b = 0.2, k = 0.6, vx0 = -0.5, growth = a + b * k;  // λ ≠ 0
    Simulation sim(ray, DynamicsKind::Nonholonomic, Formulation::Multipliers, tight());
    sim.setParameters(resolveParameters(*ray, {{"a", a}, {"b", b}}));
    sim.setState(0, initialState(sim.equations(), 0, {{"x", 0.2}, {"y", 0.1}, {"vx", vx0}}));
    int checked = 0;
    sim.advance(1.5, 0.5, [&](double t, const double* x) {
      const double vx = vx0 / (1 + growth * vx0 * t);
      const double px = 0.2 + std::log(1 + growth * vx0 * t) / growth;
      QVERIFY(std::abs(x[indexOf(*ray, "vx")] - vx) < 1e-9);
      QVERIFY(std::abs(x[indexOf(*ray, "vy")] - k * vx) < 1e-9);
      QVERIFY(std::abs(x[indexOf(*ray, "x")] - px) < 1e-9);
      QVERIFY(std::abs(x[indexOf(*ray, "y")] - (0.1 + k * (px - 0.2))) < 1e-9);
      Observables o;
      sim.equations().observe(sim.workspace(), t, x, o);
      QVERIFY2(std::abs(o.lambda[0] - (a * k - b) * vx * vx) < 1e-9,
               qPrintable(QString::number(o.lambda[0])));
      ++checked;
    });
    QVERIFY2(checked >= 3, qPrintable(QString::number(checked)));
  }
};

QTEST_GUILESS_MAIN(AlgebroidClaimsTest)
#include "algebroid_claims_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
