// Taped AD (core/nh/symbolic.*): derivatives against finite differences and jets,
// canonical forms, and the fallback to jets for functions that branch on values.
#include "core/nh/symbolic.h"

#include <QtTest>
#include <random>

#include "core/nh/autodiff.h"
#include "core/nh/dynamics.h"
#include "core/nh/scenario.h"

using namespace nh;

namespace {

// A smooth test function using every operation the tape records.
template <class S>
S f(const S& x, const S& y) {
  using std::atan, std::atan2, std::cos, std::exp, std::log, std::pow, std::sin, std::sqrt,
      std::tan;
  return sin(x) * cos(y) + exp(0.3 * x) / (2.0 + y * y) + log(1.5 + x * x) - sqrt(3.0 + y) +
         pow(1.2 + x * y * 0.1, 2.5) + atan(x - y) + atan2(y, 2.0 + x) + tan(0.2 * x) -
         (x - y) * 4.0;
}

// A particle whose potential uses |x|: value-dependent, so it cannot be taped.
struct KinkedParticle {
  static SystemInfo info() {
    SystemInfo s;
    s.name = "kinked_particle";
    s.coordinates = {"x"};
    s.velocities = {"vx"};
    s.stateOrder = {"x", "vx"};
    s.defaultCoordinates = {1};
    s.defaultVelocities = {0};
    return s;
  }
  template <class S>
  static void anchor(const double*, const S*, S* rho) {
    rho[0] = S(1.0);
  }
  template <class S>
  static S lagrangian(const double*, const S&, const S* q, const S* y) {
    using std::abs;
    return 0.5 * y[0] * y[0] - abs(q[0]);
  }
};

// The same particle in a smooth potential, which the tape can record.
struct SmoothParticle : KinkedParticle {
  template <class S>
  static S lagrangian(const double*, const S&, const S* q, const S* y) {
    return 0.5 * y[0] * y[0] - 0.5 * q[0] * q[0];
  }
};

}  // namespace

class SymbolicTest : public QObject {
  Q_OBJECT
 private slots:
  void derivativesMatchJetsAndFiniteDifferences() {
    Tape tape;
    const Sym x = tape.variable(0), y = tape.variable(1);
    const Sym value = f(x, y);
    const Sym dx = tape.derivative(value, 0), dy = tape.derivative(value, 1);
    const Sym dxy = tape.derivative(dx, 1), dxx = tape.derivative(dx, 0);
    SymProgram program(tape, 2, {value, dx, dy, dxy, dxx});
    std::vector<double> registers = program.makeRegisters();
    std::mt19937 rng(1);
    std::uniform_real_distribution<double> u(-1, 1);
    for (int trial = 0; trial < 50; ++trial) {
      const double vars[2] = {u(rng), u(rng)};
      program.run(registers.data(), vars);
      // Jets: second order in both variables.
      Jet2 jx(vars[0]), jy(vars[1]);
      for (Jet2* j : {&jx, &jy}) {
        j->n = 2;
        j->n2 = 2;
        std::fill(j->g, j->g + 2, 0.0);
        std::fill(j->h, j->h + 3, 0.0);
      }
      jx.g[0] = 1;
      jy.g[1] = 1;
      const Jet2 r = f(jx, jy);
      QVERIFY(std::abs(program.output(registers.data(), 0) - f(vars[0], vars[1])) < 1e-14);
      QVERIFY(std::abs(program.output(registers.data(), 1) - r.g[0]) < 1e-12);
      QVERIFY(std::abs(program.output(registers.data(), 2) - r.g[1]) < 1e-12);
      QVERIFY(std::abs(program.output(registers.data(), 3) - r.hess(0, 1)) < 1e-11);
      QVERIFY(std::abs(program.output(registers.data(), 4) - r.hess(0, 0)) < 1e-11);
      // Central differences, O(h²) ≈ 1e-10 with h = 1e-5 and round-off ≈ 1e-11.
      const double h = 1e-5;
      const double fd = (f(vars[0] + h, vars[1]) - f(vars[0] - h, vars[1])) / (2 * h);
      QVERIFY(std::abs(program.output(registers.data(), 1) - fd) < 1e-8);
    }
  }

  // Canonical forms make symbolically equal expressions one node, so they cancel.
  void canonicalFormsCancel() {
    Tape tape;
    const Sym a = tape.variable(0), b = tape.variable(1);
    const Sym I(0.4);
    const Sym cross = a * (I * b) - b * (I * a);
    QVERIFY(tape.isConstant(cross.id) && tape.constantValue(cross.id) == 0);
    const Sym twice = (a + a) - 2.0 * a;
    QVERIFY(tape.isConstant(twice.id) && tape.constantValue(twice.id) == 0);
    const Sym negated = -(-(a * b)) - b * a;
    QVERIFY(tape.isConstant(negated.id) && tape.constantValue(negated.id) == 0);
    const Sym folded = sin(Sym(0.0)) * a + 3.0 * 2.0;
    QVERIFY(tape.isConstant(folded.id) && tape.constantValue(folded.id) == 6.0);
  }

  // Fused instructions give the same numbers as the plain ones.
  void fusedProgramsEvaluateCorrectly() {
    Tape tape;
    const Sym a = tape.variable(0), b = tape.variable(1), c = tape.variable(2);
    const Sym e1 = a * b + c, e2 = a * b - c * a, e3 = c - a * (b + 1.0),
              e4 = a * b * c - (a + c) * b;
    SymProgram program(tape, 3, {e1, e2, e3, e4});
    std::vector<double> registers = program.makeRegisters();
    const double v[3] = {1.5, -2.0, 0.25};
    program.run(registers.data(), v);
    QCOMPARE(program.output(registers.data(), 0), 1.5 * -2.0 + 0.25);
    QCOMPARE(program.output(registers.data(), 1), 1.5 * -2.0 - 0.25 * 1.5);
    QCOMPARE(program.output(registers.data(), 2), 0.25 - 1.5 * (-2.0 + 1.0));
    QVERIFY(std::abs(program.output(registers.data(), 3) -
                     (1.5 * -2.0 * 0.25 - (1.5 + 0.25) * -2.0)) < 1e-15);
  }

  // Branching on a recorded value cannot be taped: the engine falls back to jets.
  void valueDependentSystemFallsBackToJets() {
    EquationsOfMotion eq(makeSystem<KinkedParticle>(), DynamicsKind::Nonholonomic);
    EquationsWorkspace ws;
    QCOMPARE(eq.backend(), Backend::Taped);  // asked for the tape ...
    QVERIFY(!eq.isTaped());                  // ... and fell back to jets
    const double x[2] = {-0.5, 0.0};
    double dx[2];
    eq.rhs(ws, 0, x, dx);
    QCOMPARE(dx[1], 1.0);  // ẍ = −sign(x)
    // The same particle without the kink is taped: isTaped() reports what is in use.
    QVERIFY(EquationsOfMotion(makeSystem<SmoothParticle>(), DynamicsKind::Nonholonomic).isTaped());
  }
};

QTEST_APPLESS_MAIN(SymbolicTest)
#include "symbolic_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
