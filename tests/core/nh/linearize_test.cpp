// Linearisation on the constraint manifold (core/nh/linearize.h): the exact Jacobian
// against finite differences of the engine's right-hand side (a different code path: the
// compiled equations and their linear solve), the cyclic declarations of every catalogue
// system, and the reduced eigenvalues against closed forms.
#include "core/nh/linearize.h"

#include <QtTest>
#include <cmath>
#include <complex>
#include <random>

#include "core/model/catalogue.h"
#include "core/model/model_file.h"
#include "core/nh/scenario.h"
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

  // An attitude quaternion the equations read cannot be reduced: refused, saying why.
  void quaternionAttitudeNotCyclicIsRefused() {
    std::string text;
    for (const auto& [file, content] : bundledModelFiles())
      if (file == "rigid_body.yaml") text = content;
    QVERIFY(!text.empty());
    const size_t at = text.find("cyclic:");
    QVERIFY(at != std::string::npos);
    text.erase(at, text.find('\n', at) - at);
    const auto sys = model::loadModelText(text, "rigid_body.yaml");
    const EquationsOfMotion eq(sys, DynamicsKind::Nonholonomic);
    try {
      linearize(eq, 0.0, startOf(eq, {}));
      QFAIL("linearize accepted a non-cyclic quaternion");
    } catch (const InputError& e) {
      QVERIFY(std::string(e.what()).find("quaternion") != std::string::npos);
    }
  }
};

QTEST_APPLESS_MAIN(LinearizeTest)
#include "linearize_test.moc"
