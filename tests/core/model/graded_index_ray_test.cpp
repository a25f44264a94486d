// The bundled general algebroid graded_index_ray (resources/systems/graded_index_ray.yaml): a
// bracket that is not skew, read from `skew: false` entries, moves the engine as the
// Euler–Lagrange equations (5.11) say with the index order as written; energy is not
// conserved when c^l_ij y^i y^j ≠ 0 and is when the bracket is skew.
#include <QtTest>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/model/catalogue.h"
#include "core/model/model_data.h"
#include "core/model/model_file.h"
#include "core/nh/scenario.h"
#include "core/nh/simulation.h"
#include "tests/core/model/model_test_support.h"

using namespace nh;
using nh::test::bundled;
using nh::test::indexOf;
using nh::test::tight;

namespace {

struct Recorded {
  std::vector<double> times;
  std::vector<std::vector<double>> states;
  std::vector<double> energies;
};

Recorded runFor(const std::shared_ptr<const SystemModel>& system, double tEnd, double dtOut,
                Formulation formulation) {
  Simulation sim(system, DynamicsKind::Nonholonomic, formulation, tight());
  sim.setState(0, initialState(sim.equations(), 0, {}));
  Recorded r;
  sim.advance(tEnd, dtOut, [&](double t, const double* x) {
    r.times.push_back(t);
    r.states.emplace_back(x, x + sim.equations().stateSize());
    Observables o;
    sim.equations().observe(sim.workspace(), t, x, o);
    r.energies.push_back(o.energy);
  });
  return r;
}

// The state at output time t (the run's outputs are every dtOut).
const std::vector<double>& at(const Recorded& r, double t) {
  for (size_t i = 0; i < r.times.size(); ++i)
    if (std::abs(r.times[i] - t) < 1e-9) return r.states[i];
  throw std::logic_error("no output at that time");
}

// The model's text with its structure replaced by `structure` (a list in YAML).
std::string withStructure(const std::string& structure) {
  std::string text;
  for (const auto& [file, content] : bundledModelFiles())
    if (file == "graded_index_ray.yaml") text = content;
  const size_t from = text.find("structure:\n");
  const size_t to = text.find("\nlagrangian:");
  return text.substr(0, from) + "structure:\n" + structure + text.substr(to);
}

}  // namespace

class GradedIndexRayTest : public QObject {
  Q_OBJECT

 private slots:
  // The four `skew: false` entries give C^c_ab in the order written, nothing implied:
  // C[γ + m(α + mβ)] = C^γ_αβ with a = 0.5, b = 0.
  void structureIsReadAsWritten() {
    const auto system = bundled("graded_index_ray");
    QVERIFY(system);
    const std::vector<double> p = system->defaultParameters();
    const double q[2] = {0.3, -0.2};
    double C[8];
    system->structure(p.data(), q, C);
    auto c = [&](int g, int a, int b) { return C[g + 2 * (a + 2 * b)]; };
    const int x = 0, y = 1;
    QCOMPARE(c(x, x, x), -0.5);  // [e_x, e_x] = −a e_x − b e_y
    QCOMPARE(c(y, x, x), 0.0);
    QCOMPARE(c(x, y, y), -0.5);  // [e_y, e_y] = −a e_x − b e_y
    QCOMPARE(c(x, x, y), 0.0);   // [e_x, e_y] = b e_x − a e_y
    QCOMPARE(c(y, x, y), -0.5);
    QCOMPARE(c(x, y, x), 0.0);  // [e_y, e_x] = −b e_x + a e_y
    QCOMPARE(c(y, y, x), 0.5);
  }

  // Against graded_index_ray_reference.py: (5.11) derived by hand with sympy from L, ρ and
  // c (and, independently, the geodesic equations of the optical metric e^{2a x}(dx² + dy²)),
  // integrated with scipy's DOP853 at rtol = atol = 1e-13, from (x, y, vx, vy) =
  // (0, 0, −0.5, 1) with a = 0.5, b = 0. (Closed form at t = 4: x = ln 4, y = π.)
  void motionFollowsTheReference() {
    const auto system = bundled("graded_index_ray");
    const std::vector<std::pair<double, std::vector<double>>> reference = {
        {1.0, {-0.20763936477825298, 1.1760052070951574, 0.15384615384617525, 1.2307692307692371}},
        {2.0, {0.22314355131419289, 2.2142974355881222, 0.59999999999996945, 0.80000000000004379}},
        {4.0, {1.3862943611198901, 3.1415926535897984, 0.50000000000000078, 0.24999999999999914}},
    };
    const std::vector<std::string> names = {"x", "y", "vx", "vy"};
    for (Formulation f : {Formulation::Multipliers, Formulation::GibbsAppell}) {
      const Recorded r = runFor(system, 4.0, 0.5, f);
      for (const auto& [t, values] : reference)
        for (size_t j = 0; j < names.size(); ++j) {
          const double d = std::abs(at(r, t)[indexOf(*system, names[j])] - values[j]);
          QVERIFY2(d < 1e-9, qPrintable(QString("%1 at t = %2 off by %3")
                                            .arg(QString::fromStdString(names[j]))
                                            .arg(t)
                                            .arg(d)));
        }
    }
  }

  // c^l_ij y^i y^j = −(a vx + b vy) y^l ≠ 0: the energy ½|v|² changes (0.625 at the start,
  // 10/13 at t = 1 in the reference) while the optical invariant e^{2(a x + b y)}|v|² stays.
  void energyIsNotConservedButTheOpticalInvariantIs() {
    const auto system = bundled("graded_index_ray");
    const Recorded r = runFor(system, 4.0, 0.25, Formulation::Multipliers);
    QVERIFY(std::abs(r.energies.front() - 0.625) < 1e-14);
    QVERIFY(std::abs(r.energies[4] - 0.76923076923078026) < 1e-9);  // t = 1
    const int x = indexOf(*system, "x"), vx = indexOf(*system, "vx"), vy = indexOf(*system, "vy");
    for (const std::vector<double>& s : r.states) {
      const double invariant = std::exp(2 * 0.5 * s[x]) * (s[vx] * s[vx] + s[vy] * s[vy]);
      QVERIFY2(std::abs(invariant - 1.25) < 1e-9, qPrintable(QString::number(invariant, 'g', 17)));
    }
  }

  // The skew part alone ([e_x, e_y] = b e_x − a e_y, a skew entry): c^l_ij y^i y^j = 0 and the
  // energy is conserved, while the ray still turns. The identity anchor does not map this
  // bracket to [∂_x, ∂_y] = 0: the file says `structure_checked: false`, and carries a warning.
  void theSkewPartAloneConservesEnergy() {
    const auto system =
        model::loadModelText(withStructure("  - {bracket: [vx, vy], equals: {vx: b, vy: -a}}\n") +
                                 "structure_checked: false\n",
                             "skew.yaml");
    QCOMPARE(system->data().loadWarnings.size(), size_t(1));
    const Recorded r = runFor(system, 4.0, 0.25, Formulation::Multipliers);
    for (double e : r.energies) QVERIFY(std::abs(e - 0.625) < 1e-10);
    const int vx = indexOf(*system, "vx");
    QVERIFY(std::abs(r.states.back()[vx] - r.states.front()[vx]) > 0.1);
  }
};

QTEST_GUILESS_MAIN(GradedIndexRayTest)
#include "graded_index_ray_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
