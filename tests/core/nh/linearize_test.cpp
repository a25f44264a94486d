// Linearisation on the constraint manifold (core/nh/linearize.h): the exact Jacobian
// against finite differences of the engine's right-hand side (a different code path: the
// compiled equations and their linear solve), the cyclic declarations of every catalogue
// system, the reduced eigenvalues against closed forms, and relative equilibria of bodies
// whose equations read their attitude (linearised in a chart of the rotation group) against
// independent linearisations.
#include "core/nh/linearize.h"

#include <QtTest>
#include <cmath>
#include <complex>
#include <random>

#include "core/model/catalogue.h"
#include "core/model/model_file.h"
#include "core/nh/scenario.h"
#include "core/nh/state_derivatives.h"
#include "tests/core/test_support.h"

using namespace nh;

namespace {

std::vector<double> startOf(const EquationsOfMotion& eq,
                            const std::map<std::string, double>& init) {
  return initialState(eq, 0.0, init);
}

// Central differences of rhs with respect to x_j, step relative to the size of x_j.
Eigen::MatrixXd finiteDifferenceJacobian(const EquationsOfMotion& eq, double t,
                                         const std::vector<double>& x) {
  const int n = eq.system().n() + eq.system().m();
  EquationsWorkspace ws(eq);
  Eigen::MatrixXd J(n, n);
  std::vector<double> xp = x, xm = x, fp(n), fm(n);
  for (int j = 0; j < n; ++j) {
    const double h = 1e-6 * std::max(1.0, std::abs(x[j]));
    xp = x;
    xm = x;
    xp[j] += h;
    xm[j] -= h;
    eq.rhs(ws, t, xp.data(), fp.data());
    eq.rhs(ws, t, xm.data(), fm.data());
    for (int i = 0; i < n; ++i) J(i, j) = (fp[i] - fm[i]) / (2 * h);
  }
  return J;
}

// Systems whose equations read a quaternion are refused; their cyclic check is vacuous.
Linearization linearizeOrSkip(const EquationsOfMotion& eq, double t, const std::vector<double>& x) {
  try {
    return linearize(eq, t, x);
  } catch (const InputError& e) {
    if (std::string(e.what()).find("quaternion") == std::string::npos) throw;
    return {};
  }
}

Linearization linearizeAt(const std::string& system, const std::map<std::string, double>& set,
                          const std::map<std::string, double>& init) {
  const auto sys = findSystem(system);
  const EquationsOfMotion eq(sys, DynamicsKind::Nonholonomic, Formulation::Multipliers,
                             resolveParameters(*sys, set));
  return linearize(eq, 0.0, startOf(eq, init));
}

}  // namespace

class LinearizeTest : public QObject {
  Q_OBJECT

 private slots:
  // For every catalogue system, at random consistent states: the taped Jacobian agrees with
  // finite differences of rhs (relative 1e-6: the differences' own error is ~1e-8), and
  // the declared cyclic coordinates are not read by the reduced equations.
  void jacobianMatchesFiniteDifferencesAndCyclicColumnsVanish() {
    std::mt19937 rng(7);
    for (const auto& entry : catalogueEntries()) {
      const auto& sys = entry.system;
      if (sys->info().isControlModel()) continue;  // no equations of motion to linearise
      const EquationsOfMotion eq(sys, DynamicsKind::Nonholonomic);
      for (int trial = 0; trial < 3; ++trial) {
        const std::vector<double> x = test::randomState(eq, rng, 0.3);
        const Eigen::MatrixXd J = stateJacobian(eq, 0.3, x.data());
        const Eigen::MatrixXd Jfd = finiteDifferenceJacobian(eq, 0.3, x);
        const double scale = std::max(1.0, J.cwiseAbs().maxCoeff());
        const double err = (J - Jfd).cwiseAbs().maxCoeff();
        if (!(err < 1e-6 * scale))
          QFAIL(qPrintable(QString("%1: |J − J_fd| = %2 (scale %3)")
                               .arg(QString::fromStdString(sys->name()))
                               .arg(err)
                               .arg(scale)));
        // Moving a declared cyclic coordinate along the constraint manifold (the dependent
        // coordinates and velocities following) moves none of the kept rows.
        const Linearization lin = linearizeOrSkip(eq, 0.3, x);
        if (!(lin.cyclicCoupling < 1e-12))
          QFAIL(qPrintable(QString("%1: a declared cyclic coordinate moves the equations (%2)")
                               .arg(QString::fromStdString(sys->name()))
                               .arg(lin.cyclicCoupling)));
      }
    }
  }

  // The Chaplygin sleigh, v̇ = a ω², ω̇ = −m a v ω/(I + m a²): straight motion (ω = 0) at speed
  // v0 has eigenvalues 0 and −m a v0/(I + m a²) (stable forwards, unstable backwards).
  void sleighStraightMotion() {
    const double m = 1.0, I = 0.05, a = 0.2;
    for (const double v0 : {0.7, -0.7}) {
      const Linearization lin = linearizeAt("chaplygin_sleigh", {}, {{"v", v0}, {"omega", 0.0}});
      QCOMPARE(lin.variables, (std::vector<std::string>{"v", "omega"}));
      QVERIFY(lin.equilibrium);
      QCOMPARE(static_cast<int>(lin.eigenvalues.size()), 2);
      const double expected = -m * a * v0 / (I + m * a * a);
      const double lo = std::min(expected, 0.0), hi = std::max(expected, 0.0);
      QVERIFY(std::abs(lin.eigenvalues[0].real() - lo) < 1e-12);
      QVERIFY(std::abs(lin.eigenvalues[1].real() - hi) < 1e-12);
      QVERIFY(std::abs(lin.eigenvalues[0].imag()) + std::abs(lin.eigenvalues[1].imag()) < 1e-12);
    }
    // Turning (ω ≠ 0) is not an equilibrium: flagged.
    QVERIFY(!linearizeAt("chaplygin_sleigh", {}, {{"v", 0.3}, {"omega", 3.0}}).equilibrium);
  }

  // Euler's equations about a principal axis: rotation at rate w about axis 1 or 3 is
  // stable (λ = ±i w √((I_j − I_k)(I_j − I_l)/(I_k I_l)), plus 0), about axis 2 unstable
  // (real λ). The attitude is cyclic: variables w1 w2 w3.
  void rigidBodyPrincipalAxes() {
    const double I1 = 1, I2 = 2, I3 = 3, w = 1.5;
    const Linearization about2 =
        linearizeAt("rigid_body", {}, {{"w1", 0.0}, {"w2", w}, {"w3", 0.0}});
    QCOMPARE(about2.variables, (std::vector<std::string>{"w1", "w2", "w3"}));
    const double unstable = w * std::sqrt((I2 - I1) * (I3 - I2) / (I1 * I3));
    QVERIFY(std::abs(about2.eigenvalues[0].real() + unstable) < 1e-12);
    QVERIFY(std::abs(about2.eigenvalues[2].real() - unstable) < 1e-12);
    const Linearization about1 =
        linearizeAt("rigid_body", {}, {{"w1", w}, {"w2", 0.0}, {"w3", 0.0}});
    const double stable = w * std::sqrt((I2 - I1) * (I3 - I1) / (I2 * I3));
    for (const auto& e : about1.eigenvalues) {
      QVERIFY(std::abs(e.real()) < 1e-12);
      QVERIFY(std::abs(std::abs(e.imag()) - stable) < 1e-12 || std::abs(e.imag()) < 1e-12);
    }
  }

  // A holonomic constraint: the spherical pendulum at rest at the bottom oscillates at
  // √(g/l) in both horizontal directions; z is fixed by the constraint (chosen by pivoting).
  void sphericalPendulumAtTheBottom() {
    const double g = 9.81, l = 1.0;
    const Linearization lin = linearizeAt(
        "spherical_pendulum", {}, {{"x", 0.0}, {"y", 0.0}, {"z", -l}, {"vx", 0.0}, {"vy", 0.0}});
    QCOMPARE(lin.variables, (std::vector<std::string>{"x", "y", "vx", "vy"}));
    QVERIFY(lin.equilibrium);
    for (const auto& e : lin.eigenvalues) {
      QVERIFY(std::abs(e.real()) < 1e-12);
      QVERIFY(std::abs(std::abs(e.imag()) - std::sqrt(g / l)) < 1e-12);
    }
  }

  // Euler's disk upright (sympy's rolling disc): with u2 = spin_rate = s the linearised lean
  // dynamics is q̇2 = u1, u̇1 = (6 s u3)/5 + 4 g q2/(5 r), u̇3 = −2 s u1, so the eigenvalues are
  // 0 (spin_rate), 0 and ±√(4g/(5r) − 12 s²/5): all zero at s² = g/(3r) (sympy's test), a
  // purely imaginary pair (upright stable) above.
  void rollingDiskUpright() {
    const double g = 9.81, r = 0.1, critical = std::sqrt(g / (3 * r));
    const std::map<std::string, double> upright = {
        {"lean", 0.0}, {"yaw_rate", 0.0}, {"lean_rate", 0.0}, {"vx", critical * r}};
    auto at = [&](double s) {
      std::map<std::string, double> init = upright;
      init["spin_rate"] = s;
      init["vx"] = r * s;
      return linearizeAt("rolling_disk_3d", {}, init);
    };
    const Linearization crit = at(critical);
    QCOMPARE(crit.variables,
             (std::vector<std::string>{"lean", "yaw_rate", "lean_rate", "spin_rate"}));
    QVERIFY(crit.equilibrium);
    for (const auto& e : crit.eigenvalues) QVERIFY(std::abs(e) < 1e-6);  // a triple zero
    for (const double s : {2 * critical, 30.0}) {
      const Linearization lin = at(s);
      const double w = std::sqrt(12 * s * s / 5 - 4 * g / (5 * r));
      int zeros = 0, pair = 0;
      for (const auto& e : lin.eigenvalues) {
        QVERIFY(std::abs(e.real()) < 1e-10);
        if (std::abs(e.imag()) < 1e-10) ++zeros;
        if (std::abs(std::abs(e.imag()) - w) < 1e-10 * w) ++pair;
      }
      QCOMPARE(zeros, 2);
      QCOMPARE(pair, 2);
    }
    // Slower than critical: a real positive eigenvalue (it falls).
    const Linearization slow = at(0.5 * critical);
    QVERIFY(slow.eigenvalues.back().real() > 1);
  }

  // Suslov's problem: the steady rotations b·ω = 0 (b = (I13, I23)) are equilibria of
  // (w1, w2); along the energy ellipse θ̇ = k cos(θ − θ₀), so the eigenvalues there are 0
  // (along the line of steady rotations) and ∓k, k = |z| |J^-½ b| / √det J, |z|² = ωᵀJω:
  // one end attracts, the other repels.
  void suslovSteadyRotations() {
    const double I11 = 2, I22 = 3, I12 = 0, I13 = 0.5, I23 = 0.3;
    const Eigen::Matrix2d Jm{{I11, I12}, {I12, I22}};
    const Eigen::Vector2d b(I13, I23);
    const Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> es(Jm);
    const Eigen::Matrix2d Jinvhalf = es.operatorInverseSqrt();
    std::vector<double> rates;
    for (const double sign : {1.0, -1.0}) {
      const Eigen::Vector2d w = sign * Eigen::Vector2d(-I23, I13);  // b·w = 0
      const Linearization lin = linearizeAt("suslov", {}, {{"w1", w[0]}, {"w2", w[1]}});
      QCOMPARE(lin.variables, (std::vector<std::string>{"w1", "w2"}));
      QVERIFY(lin.equilibrium);
      const double k =
          std::sqrt(w.dot(Jm * w)) * (Jinvhalf * b).norm() / std::sqrt(Jm.determinant());
      QCOMPARE(static_cast<int>(lin.eigenvalues.size()), 2);
      const auto& e0 = lin.eigenvalues[0];
      const auto& e1 = lin.eigenvalues[1];
      QVERIFY(std::abs(e0.imag()) + std::abs(e1.imag()) < 1e-12);
      const double zero = std::abs(e0.real()) < std::abs(e1.real()) ? e0.real() : e1.real();
      const double rate = std::abs(e0.real()) < std::abs(e1.real()) ? e1.real() : e0.real();
      QVERIFY(std::abs(zero) < 1e-12);
      QVERIFY2(std::abs(std::abs(rate) - k) < 1e-12,
               qPrintable(QString("%1 vs %2").arg(rate).arg(k)));
      rates.push_back(rate);
    }
    QVERIFY(rates[0] * rates[1] < 0);  // one end attracting, the other repelling
  }

  // The rattleback spinning steadily about the vertical (a relative equilibrium: the heading
  // turns at w3, the rest is fixed), linearised in the attitude chart with the heading
  // dropped: its eigenvalues agree to 1e-8 with an independent linearisation, the
  // Newton–Euler equations on (γ1, γ2, ω) by Richardson-extrapolated central differences
  // (rattleback_linear_reference.py, h_γ = 2e-5; its two steps agree to 2e-10, the engine to
  // 2e-11 measured). The two senses of spin are not alike: one sense grows about ten times
  // faster than the other (Walker 1896, Bondi 1986, Garcia & Hubbard 1988).
  void rattlebackSteadySpinAgainstNewtonEuler() {
    using C = std::complex<double>;
    // Per spin w3 > 0: {re, im} of the pair with the larger real part, then of the other pair
    // (the eigenvalues at −w3 are their negatives, the system being reversible), and 0.
    const std::map<double, std::pair<C, C>> reference = {
        {2.0,
         {{0.85147457308936714, 107.56031707715555}, {-0.084206127249496276, 33.879213369036066}}},
        {5.0,
         {{2.1206923978919576, 109.39232283791918}, {-0.2025212832922616, 34.143691665867486}}},
        {10.0,
         {{4.1931099545370536, 115.68990721798401}, {-0.35676772533770285, 35.094748387047893}}},
    };
    for (const auto& [spin, pairs] : reference) {
      double largest[2] = {0, 0};
      for (const double sense : {1.0, -1.0}) {
        const Linearization lin =
            linearizeAt("rattleback", {},
                        {{"qw", 1.0}, {"qx", 0.0}, {"w1", 0.0}, {"w2", 0.0}, {"w3", sense * spin}});
        QCOMPARE(lin.variables, (std::vector<std::string>{"xi1", "xi2", "w1", "w2", "w3"}));
        QVERIFY(lin.equilibrium);
        std::vector<C> expected = {C(0, 0)};
        for (const C& e : {pairs.first, pairs.second}) {
          expected.push_back(sense * e);
          expected.push_back(sense * std::conj(e));
        }
        for (const C& e : expected) {
          double nearest = 1e300;
          for (const C& got : lin.eigenvalues) nearest = std::min(nearest, std::abs(got - e));
          QVERIFY2(nearest < 1e-8, qPrintable(QString("w3 = %1: %2 %3i off by %4")
                                                  .arg(sense * spin)
                                                  .arg(e.real())
                                                  .arg(e.imag())
                                                  .arg(nearest)));
        }
        largest[sense > 0 ? 0 : 1] = lin.eigenvalues.back().real();
      }
      // Both senses have a growing mode; spun w3 > 0 (delta < 0) it grows ten times faster.
      QVERIFY(largest[1] > 0);
      QVERIFY2(largest[0] > 8 * largest[1],
               qPrintable(QString("%1 vs %2").arg(largest[0]).arg(largest[1])));
    }
  }

  // Chaplygin's ball spinning at w about a vertical principal axis k (chaplygin_sphere_
  // linear_reference.py): λ = 0, ±i w (the tilt turning with the spin) and
  // λ² = −w² (I_k − I_i)(I_k − I_j)/((I_i + m r²)(I_j + m r²)): stable about the axes of the
  // largest and smallest moments, a real pair about the middle one.
  void chaplyginSphereSpinAboutEachPrincipalAxis() {
    const double I[3] = {0.003, 0.004, 0.005}, D = 1.0 * 0.1 * 0.1, w = 4, h = std::sqrt(0.5);
    // Body axis k vertical: the attitude turning it onto the space z axis; ω = w e_k.
    const std::map<std::string, double> attitudes[3] = {
        {{"qw", h}, {"qx", 0.0}, {"qy", h}, {"qz", 0.0}},
        {{"qw", h}, {"qx", h}, {"qy", 0.0}, {"qz", 0.0}},
        {{"qw", 1.0}, {"qx", 0.0}, {"qy", 0.0}, {"qz", 0.0}}};
    const std::vector<std::string> names[3] = {{"xi2", "xi3", "w1", "w2", "w3"},
                                               {"xi1", "xi3", "w1", "w2", "w3"},
                                               {"xi1", "xi2", "w1", "w2", "w3"}};
    for (int k = 0; k < 3; ++k) {
      const int i = (k + 1) % 3, j = (k + 2) % 3;
      std::map<std::string, double> init = attitudes[k];
      for (int a = 0; a < 3; ++a)
        init[std::string("w").append(std::to_string(a + 1))] = a == k ? w : 0.0;
      const Linearization lin = linearizeAt("chaplygin_sphere", {}, init);
      QCOMPARE(lin.variables, names[k]);
      QVERIFY(lin.equilibrium);
      const double square = -w * w * (I[k] - I[i]) * (I[k] - I[j]) / ((I[i] + D) * (I[j] + D));
      const std::complex<double> root = std::sqrt(std::complex<double>(square, 0));
      const std::vector<std::complex<double>> expected = {0.0, {0, w}, {0, -w}, root, -root};
      for (const auto& e : expected) {
        double nearest = 1e300;
        for (const auto& got : lin.eigenvalues) nearest = std::min(nearest, std::abs(got - e));
        QVERIFY2(nearest < 1e-12,
                 qPrintable(QString("axis %1: off by %2").arg(k + 1).arg(nearest)));
      }
      const bool middle = k == 1;
      QCOMPARE(lin.eigenvalues.back().real() > 1e-6, middle);
    }
    // At rest the chart keeps the tilt (the probe state spins): the same variables.
    const Linearization rest =
        linearizeAt("chaplygin_sphere", {}, {{"w1", 0.0}, {"w2", 0.0}, {"w3", 0.0}});
    QCOMPARE(rest.variables, (std::vector<std::string>{"xi1", "xi2", "w1", "w2", "w3"}));
  }

  // An attitude the equations do not read at all, left undeclared, is found on the Jacobian
  // and dropped whole: the same reduction as declaring it cyclic.
  void undeclaredFreeAttitudeIsDropped() {
    std::string text;
    for (const auto& [file, content] : bundledModelFiles())
      if (file == "rigid_body.yaml") text = content;
    QVERIFY(!text.empty());
    const size_t at = text.find("cyclic:");
    QVERIFY(at != std::string::npos);
    const size_t lineEnd = text.find('\n', at);
    std::string undeclared = text, partly = text;
    undeclared.erase(at, lineEnd - at);
    partly.replace(at, lineEnd - at, "cyclic: [qw, qx]");
    const std::map<std::string, double> init = {{"w1", 0.3}, {"w2", 1.5}, {"w3", 0.2}};
    const auto declared = findSystem("rigid_body");
    const EquationsOfMotion eqDeclared(declared, DynamicsKind::Nonholonomic);
    const Linearization expected = linearize(eqDeclared, 0.0, startOf(eqDeclared, init));
    const auto sys = model::loadModelText(undeclared, "rigid_body.yaml");
    const EquationsOfMotion eq(sys, DynamicsKind::Nonholonomic);
    const Linearization lin = linearize(eq, 0.0, startOf(eq, init));
    QCOMPARE(lin.variables, (std::vector<std::string>{"w1", "w2", "w3"}));
    QCOMPARE(lin.eigenvalues.size(), expected.eigenvalues.size());
    for (size_t i = 0; i < lin.eigenvalues.size(); ++i)
      QVERIFY(std::abs(lin.eigenvalues[i] - expected.eigenvalues[i]) < 1e-12);
    // Some of a quaternion's components declared cyclic but not all: refused, saying why.
    const auto partial = model::loadModelText(partly, "rigid_body.yaml");
    const EquationsOfMotion eqPartial(partial, DynamicsKind::Nonholonomic);
    try {
      linearize(eqPartial, 0.0, startOf(eqPartial, init));
      QFAIL("linearize accepted a partly cyclic quaternion");
    } catch (const InputError& e) {
      QVERIFY(std::string(e.what()).find("quaternion") != std::string::npos);
    }
  }
};

QTEST_APPLESS_MAIN(LinearizeTest)
#include "linearize_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
