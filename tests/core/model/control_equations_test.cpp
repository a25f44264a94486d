// Pontryagin's equations of control models (core/model/control_equations.*) against the
// hand-derived ones, compared as GiNaC expressions (their difference brought to normal form is
// 0): Brockett's integrator, and the rigid body on SO(3) with inertia, whose costate equation is
// ξ̇ = ξ × ω with ω_i = ξ_i / I_i (Euler's equations). Also where u(q, ξ) has no closed form,
// and the typeset blocks.
#include "core/model/control_equations.h"

#include <ginac/ginac.h>

#include <QtTest>

#include "control_models.h"
#include "core/model/derived_equations.h"
#include "core/model/model_file.h"

namespace {

using GiNaC::ex;
using nh::model::ControlEquations;

// The symbol named `name` among `symbols`.
GiNaC::symbol named(const std::vector<GiNaC::symbol>& symbols, const std::string& name) {
  for (const GiNaC::symbol& s : symbols)
    if (s.get_name() == name) return s;
  throw std::logic_error("no symbol " + name);
}

bool same(const ex& a, const ex& b) { return GiNaC::normal(a - b).is_zero(); }

#define COMPARE_EX(actual, expected)                                 \
  do {                                                               \
    std::ostringstream text;                                         \
    text << GiNaC::dflt << (actual) << "  expected  " << (expected); \
    QVERIFY2(same(actual, expected), text.str().c_str());            \
  } while (false)

// A control model with the section and cost given, on the plane.
std::string planar(const std::string& section, const std::string& cost) {
  return "format: nonholonomic-lab-system\nversion: 1\nname: planar\ncoordinates: [x, y]\n"
         "velocities: [vx, vy]\ncontrols: [u1, u2]\ncontrol_section: " +
         section + "\ncost: " + cost + "\n";
}

}  // namespace

class ControlEquationsTest : public QObject {
  Q_OBJECT

 private slots:
  // u1 = ξ_vx − y ξ_vz, u2 = ξ_vy + x ξ_vz; ξ̇_vx = −ξ_vz u2, ξ̇_vy = ξ_vz u1, ξ̇_vz = 0.
  void brockett() {
    const auto system = nh::model::loadModelText(nh::test::kBrockettModel, "brockett.yaml");
    const ControlEquations e = nh::model::deriveControlSymbolic(*system);
    const auto& q = e.geometry.q;
    const ex x = named(q, "x"), y = named(q, "y");
    const ex u1 = named(e.u, "u1"), u2 = named(e.u, "u2");
    const ex xi1 = named(e.xi, "ξ_vx"), xi2 = named(e.xi, "ξ_vy"), xi3 = named(e.xi, "ξ_vz");
    COMPARE_EX(e.hamiltonian,
               xi1 * u1 + xi2 * u2 + xi3 * (x * u2 - y * u1) - (u1 * u1 + u2 * u2) / 2);
    QCOMPARE(e.qdot.size(), size_t(3));
    COMPARE_EX(e.qdot[0], u1);
    COMPARE_EX(e.qdot[1], u2);
    COMPARE_EX(e.qdot[2], x * u2 - y * u1);
    QCOMPARE(e.xidot.size(), size_t(3));
    COMPARE_EX(e.xidot[0], -xi3 * u2);
    COMPARE_EX(e.xidot[1], xi3 * u1);
    COMPARE_EX(e.xidot[2], 0);
    QCOMPARE(e.stationarity.size(), size_t(2));
    COMPARE_EX(e.stationarity[0], u1 - xi1 + y * xi3);
    COMPARE_EX(e.stationarity[1], u2 - xi2 - x * xi3);
    QVERIFY2(e.solved, e.notSolvedBecause.c_str());
    COMPARE_EX(e.control[0], xi1 - y * xi3);
    COMPARE_EX(e.control[1], xi2 + x * xi3);
    COMPARE_EX(e.xidotOf[0], -xi3 * (xi2 + x * xi3));
    COMPARE_EX(e.xidotOf[1], xi3 * (xi1 - y * xi3));
    COMPARE_EX(e.qdotOf[2], x * (xi2 + x * xi3) - y * (xi1 - y * xi3));
  }

  // ξ̇ = ξ × ω and u_i = ξ_i / I_i: with them, Euler's equations in ξ = I ω.
  void rigidBodyOnSO3() {
    const auto system =
        nh::model::loadModelText(nh::test::kRigidBodyControlModel, "rigid_body_control.yaml");
    const ControlEquations e = nh::model::deriveControlSymbolic(*system);
    const auto& P = e.geometry.parameters;
    const ex I[3] = {named(P, "I1"), named(P, "I2"), named(P, "I3")};
    const ex u[3] = {named(e.u, "u1"), named(e.u, "u2"), named(e.u, "u3")};
    const ex xi[3] = {named(e.xi, "ξ_w1"), named(e.xi, "ξ_w2"), named(e.xi, "ξ_w3")};
    QCOMPARE(e.xidot.size(), size_t(3));
    QVERIFY2(e.solved, e.notSolvedBecause.c_str());
    for (int i = 0; i < 3; ++i) {
      const int j = (i + 1) % 3, k = (i + 2) % 3;
      COMPARE_EX(e.xidot[i], xi[j] * u[k] - xi[k] * u[j]);  // (ξ × ω)_i
      COMPARE_EX(e.stationarity[i], I[i] * u[i] - xi[i]);
      COMPARE_EX(e.control[i], xi[i] / I[i]);
      COMPARE_EX(e.xidotOf[i], xi[j] * xi[k] * (1 / I[k] - 1 / I[j]));
    }
    // q̇ = ρ u: the quaternion's rate, qw' = −(qx u1 + qy u2 + qz u3)/2.
    const auto& q = e.geometry.q;
    COMPARE_EX(e.qdot[0],
               -(named(q, "qx") * u[0] + named(q, "qy") * u[1] + named(q, "qz") * u[2]) / 2);
  }

  // (5.8) not linear in u, or linear with a singular coefficient matrix: no closed form, and
  // the typeset equations say why.
  void controlsWithoutClosedForm() {
    const auto quartic =
        nh::model::loadModelText(planar("{vx: u1, vy: u2}", "0.25*(u1^4 + u2^4)"), "planar.yaml");
    const ControlEquations e = nh::model::deriveControlSymbolic(*quartic);
    QVERIFY(!e.solved);
    QVERIFY2(e.notSolvedBecause.find("not linear in u") != std::string::npos,
             e.notSolvedBecause.c_str());
    const auto singular = nh::model::loadModelText(
        planar("{vx: u1 + u2, vy: x*(u1 + u2)}", "0.5*(u1 + u2)^2"), "planar.yaml");
    const ControlEquations s = nh::model::deriveControlSymbolic(*singular);
    QVERIFY(!s.solved);
    QVERIFY2(s.notSolvedBecause.find("singular") != std::string::npos, s.notSolvedBecause.c_str());
    const nh::model::DerivedEquations typeset = nh::model::deriveEquations(*singular);
    bool noted = false;
    for (const std::string& note : typeset.notes)
      noted |= note.find("singular") != std::string::npos;
    QVERIFY(noted);
  }

  // The typeset equations: the Hamiltonian, (5.6)–(5.8) and u(q, ξ), in plain text and
  // LaTeX, instead of the Lagrangian machinery.
  void typeset() {
    const auto system = nh::model::loadModelText(nh::test::kBrockettModel, "brockett.yaml");
    const nh::model::DerivedEquations d = nh::model::deriveEquations(*system);
    QVERIFY(d.optimalControl);
    const std::string plain = nh::model::toPlainText(d);
    const std::string latex = nh::model::toLatex(d);
    for (const char* line :
         {"H = ", "x\u0307 = u1", "z\u0307 = -y*u1 + x*u2", "ξ\u0307_vx = -ξ_vz*u2",
          "ξ\u0307_vy = ξ_vz*u1", "ξ\u0307_vz = 0", "u1 = ξ_vx - y*ξ_vz", "u2 = ξ_vy + x*ξ_vz"})
      QVERIFY2(plain.find(line) != std::string::npos, (std::string(line) + "\n" + plain).c_str());
    QVERIFY2(plain.find("Mass matrix") == std::string::npos, plain.c_str());
    QVERIFY2(plain.find("L = 0\n") == std::string::npos, plain.c_str());
    QVERIFY2(latex.find("\\dot{\\xi}_{\\mathrm{vx}} = ") != std::string::npos, latex.c_str());
    QVERIFY2(latex.find("u_{1} = \\xi_{\\mathrm{vx}}") != std::string::npos, latex.c_str());
  }
};

QTEST_GUILESS_MAIN(ControlEquationsTest)
#include "control_equations_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
