// Native code for the tape (core/nh/symbolic_native.cpp) against the interpreter, its
// reference: every operation, every program of every catalogue system (C++ and bundled
// model files, both dynamics), the equations built on them, copies shared across threads,
// and the switch. Agreement is bit for bit: the native code performs the same IEEE
// operations in the same order and calls the same libm functions (sincos for a sin and cos
// of one argument, which glibc computes with their code), so any difference is a defect.
// The one exception is NaN, where only "is NaN" is compared: a NaN's payload and sign carry
// no meaning.
#include <QtTest>
#include <cstring>
#include <random>
#include <thread>

#include "core/model/catalogue.h"
#include "core/nh/dynamics.h"
#include "core/nh/scenario.h"
#include "core/nh/symbolic.h"
#include "tests/support/catalogue_systems.h"

using namespace nh;

namespace {

bool sameBits(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0 || (std::isnan(a) && std::isnan(b));
}

// Runs `program` natively, through each entry point, and on the interpreter for the
// variables `vars`; returns the first output that differs (-1 when all agree).
int firstDifference(const SymProgram& program, const std::vector<double>& vars) {
  const SymProgram reference = program.withExecution(SymProgram::Execution::Interpreted);
  std::vector<double> interpreted = program.makeRegisters();
  std::copy(vars.begin(), vars.end(), interpreted.begin());
  reference.interpret(interpreted.data());
  std::vector<double> array = program.makeRegisters(), split = program.makeRegisters(),
                      loaded = program.makeRegisters();
  program.run(array.data(), vars.data());
  program.run(split.data(), vars[0], vars.data() + 1);
  std::copy(vars.begin(), vars.end(), loaded.begin());
  program.runLoaded(loaded.data());
  for (int i = 0; i < program.outputCount(); ++i) {
    const double expected = reference.output(interpreted.data(), i);
    for (const std::vector<double>* native : {&array, &split, &loaded})
      if (!sameBits(program.output(native->data(), i), expected)) return i;
  }
  return -1;
}

// Every SymOp, fused forms included, over three variables (x, y, z in [-1, 1]).
std::vector<Sym> everyOperation(Tape& tape) {
  const Sym x = tape.variable(0), y = tape.variable(1), z = tape.variable(2);
  const Sym sx = sin(x), cy = cos(y);
  return {
      x + y,
      x - y,
      sx * cy,
      x / (2.5 + y),
      -sx,  // Neg of a sine survives canonicalisation
      tan(0.7 * z),
      exp(y),
      log(2.0 + z),
      sqrt(1.5 + x),
      pow(1.5 + x, 2.5),
      pow(sx, 2.0),  // the square
      atan(y),
      atan2(y, x),
      sx * cy + z,                          // MulAdd
      (x - y) * (y + z) - sx,               // MulSub
      z - exp(x) * cy,                      // SubMul
      (x + z) * (y + z) + tan(x) * exp(z),  // both products fused: Mul, then MulAdd
      (x + 1.0) * (y + 2.0) - cy * sx,      // both fused: Mul, then MulSub
  };
}

}  // namespace

class SymbolicNativeTest : public QObject {
  Q_OBJECT
 private slots:
  void init() {
    if (!nativeCodeAvailable()) QSKIP("this build has no native code (not x86-64 with asmjit)");
    setNativeCodeEnabled(true);
  }

  // A hand-built tape using every operation: compiled natively, and equal bit for bit.
  void everyOperationAgrees() {
    Tape tape;
    const std::vector<Sym> outputs = everyOperation(tape);
    const SymProgram program(tape, 3, outputs);
    QVERIFY(program.isNative());
    const std::string listing = program.listing();
    for (const char* name :
         {" add ", " sub ", " mul ", " div ", " neg ", " sin ", " cos ", " tan ", " exp ", " log ",
          " sqrt ", " pow ", " atan ", " atan2 ", " muladd ", " mulsub ", " submul "})
      QVERIFY2(listing.find(name) != std::string::npos, name);  // the tape has every op
    std::mt19937 rng(10);
    std::uniform_real_distribution<double> u(-1, 1);
    for (int trial = 0; trial < 200; ++trial) {
      const std::vector<double> vars = {u(rng), u(rng), u(rng)};
      const int differs = firstDifference(program, vars);
      QVERIFY2(differs < 0, qPrintable(QString("output %1 at trial %2").arg(differs).arg(trial)));
    }
    // Out of the functions' domains (log and sqrt of negatives, pow of a negative base):
    // NaN on both sides.
    QCOMPARE(firstDifference(program, {-3.0, -3.0, -3.0}), -1);
  }

  // More values alive at once than there are xmm registers (16), across calls: the
  // allocator writes values to their slots and reads them back.
  void registerPressure() {
    Tape tape;
    const Sym x = tape.variable(0), y = tape.variable(1);
    std::vector<Sym> live;
    for (int k = 1; k <= 40; ++k) live.push_back(x * (0.1 * k) + y * y * k);
    const Sym s = sin(x * y);  // a call while all 40 are alive
    std::vector<Sym> outputs = {s};
    for (int k = 0; k < 40; ++k) outputs.push_back(live[k] * live[39 - k] - s * live[k]);
    outputs.push_back(x);  // an output that is a variable
    const SymProgram program(tape, 2, outputs);
    QVERIFY(program.isNative());
    std::mt19937 rng(30);
    std::uniform_real_distribution<double> u(-1, 1);
    for (int trial = 0; trial < 50; ++trial)
      QCOMPARE(firstDifference(program, {u(rng), u(rng)}), -1);
  }

  // Every program of every catalogue system, at random states near the defaults.
  void cataloguePrograms_data() {
    QTest::addColumn<QString>("name");
    for (const auto& system : test::systemsWithDynamics())
      QTest::newRow(system->name().c_str()) << QString::fromStdString(system->name());
  }
  void cataloguePrograms() {
    QFETCH(QString, name);
    const auto system = findSystem(name.toStdString());
    std::mt19937 rng(20);
    std::uniform_real_distribution<double> u(-1, 1);
    int programsChecked = 0;
    for (DynamicsKind kind : {DynamicsKind::Nonholonomic, DynamicsKind::Vakonomic}) {
      const EquationsOfMotion eq(system, kind);
      const std::vector<double> x0 = initialState(eq, 0, {});
      for (const SymProgram* program : eq.compiledPrograms()) {
        QVERIFY(program->isNative());
        QCOMPARE(program->variableCount(), 1 + eq.stateSize());  // t, then the state
        for (int trial = 0; trial < 40; ++trial) {
          std::vector<double> vars = {u(rng)};
          for (double xi : x0) vars.push_back(xi + 0.3 * u(rng));
          const int differs = firstDifference(*program, vars);
          QVERIFY2(differs < 0, qPrintable(QString("%1 output %2 trial %3")
                                               .arg(program->instructionCount())
                                               .arg(differs)
                                               .arg(trial)));
        }
        ++programsChecked;
      }
    }
    if (programsChecked == 0) QSKIP("not taped (evaluated with jets)");
  }

  // What callers see: rhs and observe of equations compiled natively and of equations
  // compiled with native code switched off.
  void equationsAgreeWithInterpretedOnes() {
    for (const auto& system : test::systemsWithDynamics()) {
      setNativeCodeEnabled(false);
      const EquationsOfMotion interpreted(system, DynamicsKind::Nonholonomic);
      setNativeCodeEnabled(true);
      const EquationsOfMotion native(system, DynamicsKind::Nonholonomic);
      for (const SymProgram* p : interpreted.compiledPrograms()) QVERIFY(!p->isNative());
      for (const SymProgram* p : native.compiledPrograms()) QVERIFY(p->isNative());
      EquationsWorkspace wsInterpreted(interpreted), wsNative(native);
      const std::vector<double> x0 = initialState(native, 0, {});
      std::vector<double> dxInterpreted(x0.size()), dxNative(x0.size());
      interpreted.rhs(wsInterpreted, 0.4, x0.data(), dxInterpreted.data());
      native.rhs(wsNative, 0.4, x0.data(), dxNative.data());
      for (size_t i = 0; i < x0.size(); ++i)
        QVERIFY2(sameBits(dxInterpreted[i], dxNative[i]), system->name().c_str());
      Observables oInterpreted, oNative;
      interpreted.observe(wsInterpreted, 0.4, x0.data(), oInterpreted);
      native.observe(wsNative, 0.4, x0.data(), oNative);
      QVERIFY2(sameBits(oInterpreted.energy, oNative.energy), system->name().c_str());
      for (Eigen::Index i = 0; i < oNative.lambda.size(); ++i)
        QVERIFY2(sameBits(oInterpreted.lambda[i], oNative.lambda[i]), system->name().c_str());
    }
  }

  // A copy keeps the code alive after the original is gone, and runs on two threads at
  // once, each with its own registers (AddressSanitizer and ThreadSanitizer builds watch).
  void copiesShareTheCodeAcrossThreads() {
    SymProgram copy;
    std::vector<double> expected;
    {
      Tape tape;
      const SymProgram original(tape, 3, everyOperation(tape));
      QVERIFY(original.isNative());
      copy = original;
      std::vector<double> r = original.makeRegisters();
      const double vars[3] = {0.3, -0.2, 0.6};
      original.withExecution(SymProgram::Execution::Interpreted).run(r.data(), vars);
      for (int i = 0; i < original.outputCount(); ++i)
        expected.push_back(original.output(r.data(), i));
    }
    QVERIFY(copy.isNative());
    std::atomic<int> mismatches{0};
    auto work = [&] {
      std::vector<double> r = copy.makeRegisters();
      const double vars[3] = {0.3, -0.2, 0.6};
      for (int k = 0; k < 20000; ++k) {
        copy.run(r.data(), vars);
        for (int i = 0; i < copy.outputCount(); ++i)
          if (!sameBits(copy.output(r.data(), i), expected[i])) ++mismatches;
      }
    };
    std::thread a(work), b(work);
    a.join();
    b.join();
    QCOMPARE(mismatches.load(), 0);
  }

  // The switch: programs compiled while it is off run on the interpreter; withExecution
  // converts either way.
  void switchTurnsNativeCodeOff() {
    Tape tape;
    const Sym x = tape.variable(0);
    setNativeCodeEnabled(false);
    QVERIFY(!nativeCodeEnabled());
    const SymProgram off(tape, 1, {sin(x) * x + 1.0});
    QVERIFY(!off.isNative());
    QVERIFY(off.withExecution(SymProgram::Execution::Native).isNative());
    setNativeCodeEnabled(true);
    const SymProgram on(tape, 1, {sin(x) * x + 1.0});
    QVERIFY(on.isNative());
    QVERIFY(!on.withExecution(SymProgram::Execution::Interpreted).isNative());
    QVERIFY(!SymProgram(tape, 1, {x * x}, SymProgram::Execution::Interpreted).isNative());
  }
};

QTEST_APPLESS_MAIN(SymbolicNativeTest)
#include "symbolic_native_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
