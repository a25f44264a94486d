// Taped automatic differentiation: the system's functions are run once on a recording
// scalar (Sym), which builds an expression graph with constant folding and hash-consing;
// derivatives are taken on that graph (forward, by the chain rule per node) and the
// expressions the equations of motion need are compiled into a flat register program.
//
// This is the fast path of the engine (CasADi-style): parameters are baked in as
// constants, so whatever does not move folds away (for the ball, M and A are constant and
// their factorisations are computed once). Parameters may instead be recorded as inputs
// (Tape::parameter): what depends on them and constants alone is then computed once per
// parameter set (SymProgram::withParameters), not at every run of a program. The jets of autodiff.h
// remain the reference path and the fallback for functions the tape cannot record (value-dependent
// branches).
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace nh {

// Thrown while recording when a function branches on a value (comparison, abs of an
// expression of unknown sign...): the caller falls back to the jet engine.
class TapeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class SymOp : std::uint8_t {
  Const,
  Var,
  Add,
  Sub,
  Mul,
  Div,
  Neg,
  Sin,
  Cos,
  Tan,
  Exp,
  Log,
  Sqrt,
  Pow,
  Atan,
  Atan2,
  MulAdd,
  MulSub,
  SubMul,  // fused forms, only in compiled programs: a·b + e, a·b − e, e − a·b
  Param    // a parameter: a value fixed during a run but not folded (SymProgram::withParameters)
};

struct SymNode {
  SymOp op;
  int a = -1, b = -1;  // operands (node ids)
  double c = 0;        // constant value, exponent of Pow, or variable index
};

class Tape;

// A recorded scalar: an index into the current thread's tape.
struct Sym {
  int id = -1;
  Sym() = default;
  Sym(double value);  // NOLINT: constants convert implicitly, as doubles do
  explicit Sym(int nodeId, bool) : id(nodeId) {}
};

class Tape {
 public:
  Tape();
  ~Tape();
  Tape(const Tape&) = delete;
  Tape& operator=(const Tape&) = delete;

  static Tape& current();  // the tape being recorded on this thread (throws if none)

  Sym variable(int index);
  Sym constant(double value);
  Sym node(SymOp op, int a, int b = -1, double c = 0);  // folds and hash-conses

  // Parameter `index` of the recording, now `value`: constant during a run like a constant,
  // but not folded into the programs, which take its value per parameter set
  // (SymProgram::withParameters). What depends on parameters and constants alone is computed
  // once per parameter set, not per run of a program.
  Sym parameter(int index, double value);
  int parameterCount() const { return static_cast<int>(parameterValues_.size()); }
  double parameterValue(int index) const { return parameterValues_[index]; }
  // The system's parameters recorded as parameters of the tape (indices into the system's
  // parameter list, tape parameter i for system parameter i); the others are constants.
  // systemParameter(i, value) is what a system's function records for parameter i.
  void bindSystemParameters(const std::vector<int>& indices);
  // The system's parameters `indices` recorded as the variables firstVariable, firstVariable
  // + 1, … instead (so that derivatives with respect to them can be taken: the sensitivities
  // to parameters, core/nh/jacobi_fields.h).
  void bindSystemParametersToVariables(const std::vector<int>& indices, int firstVariable);
  Sym systemParameter(int index, double value);
  // Whether a system's function asked for bound parameter `index` through systemParameter
  // (a system whose functions take the parameters as doubles never does: they stay folded).
  bool recordedSystemParameter(int index) const {
    return index < static_cast<int>(boundSystemParameters_.size()) &&
           boundSystemParameters_[index] == 2;
  }

  const SymNode& at(int id) const { return nodes_[id]; }
  bool isConstant(int id) const { return nodes_[id].op == SymOp::Const; }
  // Whether the node's value depends on a variable (not on constants and parameters alone).
  bool dependsOnVariables(int id) const { return variable_[id] != 0; }
  double constantValue(int id) const { return nodes_[id].c; }
  int size() const { return static_cast<int>(nodes_.size()); }

  // ∂(node)/∂(variable var), memoised per variable.
  Sym derivative(Sym f, int var);

 private:
  struct Key {
    SymOp op;
    int a, b;
    double c;
    bool operator==(const Key& o) const { return op == o.op && a == o.a && b == o.b && c == o.c; }
  };
  struct KeyHash {
    size_t operator()(const Key& k) const;
  };
  std::vector<SymNode> nodes_;
  std::vector<char> variable_;  // per node: dependsOnVariables
  std::vector<double> parameterValues_;
  std::vector<char> boundSystemParameters_;  // 1 bound, 2 bound and recorded
  std::vector<int> parameterVariables_;      // per system parameter: its variable, or −1
  std::unordered_map<Key, int, KeyHash> index_;
  std::unordered_map<long long, int> derivatives_;  // (node, var) → node
  Tape* previous_;
};

Sym operator+(const Sym& a, const Sym& b);
Sym operator-(const Sym& a, const Sym& b);
Sym operator*(const Sym& a, const Sym& b);
Sym operator/(const Sym& a, const Sym& b);
Sym operator-(const Sym& a);
inline Sym operator+(const Sym& a, double b) { return a + Sym(b); }
inline Sym operator+(double a, const Sym& b) { return Sym(a) + b; }
inline Sym operator-(const Sym& a, double b) { return a - Sym(b); }
inline Sym operator-(double a, const Sym& b) { return Sym(a) - b; }
inline Sym operator*(const Sym& a, double b) { return a * Sym(b); }
inline Sym operator*(double a, const Sym& b) { return Sym(a) * b; }
inline Sym operator/(const Sym& a, double b) { return a / Sym(b); }
inline Sym operator/(double a, const Sym& b) { return Sym(a) / b; }
inline Sym& operator+=(Sym& a, const Sym& b) { return a = a + b; }
inline Sym& operator-=(Sym& a, const Sym& b) { return a = a - b; }
inline Sym& operator*=(Sym& a, const Sym& b) { return a = a * b; }
inline Sym& operator/=(Sym& a, const Sym& b) { return a = a / b; }
Sym sin(const Sym& x);
Sym cos(const Sym& x);
Sym tan(const Sym& x);
Sym exp(const Sym& x);
Sym log(const Sym& x);
Sym sqrt(const Sym& x);
Sym pow(const Sym& x, double p);
Sym atan(const Sym& x);
Sym atan2(const Sym& y, const Sym& x);
Sym abs(const Sym& x);  // constants only; otherwise TapeError
// A system's parameter `index` with value `value` as the tape being recorded on this thread
// takes it: a tape parameter if bound (Tape::bindSystemParameters), else a constant.
Sym tapeParameter(int index, double value);
// Branching on a recorded value is not representable on the tape.
bool operator<(const Sym& a, const Sym& b);
bool operator>(const Sym& a, const Sym& b);
bool operator<=(const Sym& a, const Sym& b);
bool operator>=(const Sym& a, const Sym& b);

// Native code for the tape's programs (symbolic_native.cpp, x86-64 through asmjit): on
// unless the environment sets NH_JIT=0 or setNativeCodeEnabled(false) was called; the switch
// applies to programs compiled afterwards. Thread-safe.
bool nativeCodeEnabled();
void setNativeCodeEnabled(bool enabled);
// Whether this build can compile native code at all (x86-64 with asmjit).
bool nativeCodeAvailable();

// A straight-line program evaluating chosen outputs of a tape from its variables.
// Immutable once compiled, so one program may run on many threads at once: each caller
// owns its registers (registerCount() doubles, first filled with initialRegisters(), which
// holds the folded constants) and passes them to every call. Copies are cheap: they share
// the native code, which is freed with the last copy.
class SymProgram {
 public:
  // Native: compiled to machine code when nativeCodeEnabled() and possible (else the
  // interpreter runs); Interpreted: for programs run once, where compiling costs more.
  enum class Execution { Native, Interpreted };

  // Compiles the expressions `outputs` of `tape` over variables 0..variableCount-1
  // (variableCount ≥ 1).
  SymProgram(const Tape& tape, int variableCount, const std::vector<Sym>& outputs,
             Execution execution = Execution::Native);
  SymProgram() = default;

  int registerCount() const { return static_cast<int>(initialRegisters_.size()); }
  // Constants in their registers, zeros elsewhere: the registers' contents before a first run.
  const std::vector<double>& initialRegisters() const { return initialRegisters_; }
  std::vector<double> makeRegisters() const { return initialRegisters_; }

  // Evaluates with the variables' values into `registers` (initialised as above). Only the
  // outputs' registers are guaranteed to be written: native code keeps intermediate values
  // in machine registers.
  void run(double* registers, const double* variables) const {
    if (native_)
      native_->entry(registers, variables[0], variables + 1);
    else
      interpretFrom(registers, variables[0], variables + 1);
  }
  // The same with variable 0 = `first` and variables 1..variableCount-1 = rest[0..] (the
  // engine's t and state): native code reads `rest` in place, without a copy.
  void run(double* registers, double first, const double* rest) const {
    if (native_)
      native_->entry(registers, first, rest);
    else
      interpretFrom(registers, first, rest);
  }
  // With the variables already in registers 0..variableCount-1 (callers may write them in
  // place).
  void runLoaded(double* registers) const {
    if (native_)
      native_->entry(registers, registers[0], registers + 1);
    else
      interpret(registers);
  }
  // Always the interpreter (the reference native code is tested against); writes every
  // register.
  void interpret(double* registers) const;
  bool isNative() const { return native_ != nullptr; }
  // A copy running on the interpreter, or compiled anew to native code (if possible).
  SymProgram withExecution(Execution execution) const;
  // A copy for other values of the tape's parameters (Tape::parameter): values[i] for
  // parameter i, `count` of them (those the program does not read are ignored). Computes what
  // depends on parameters alone into the initial registers; shares the code.
  SymProgram withParameters(const double* values, int count) const;
  // Whether the program reads a parameter of the tape.
  bool readsParameters() const { return !parameterRegister_.empty(); }
  // Whether both are the same compiled code (copies, or withParameters of one another).
  bool sharesCodeWith(const SymProgram& other) const { return codeStore_ == other.codeStore_; }

  double output(const double* registers, int i) const { return registers[outputRegister_[i]]; }
  // Whether the output does not depend on the variables (constants and parameters alone).
  bool outputIsConstant(int i) const { return outputConstant_[i]; }
  // The value of an output whose value does not depend on the variables.
  double constantOutput(int i) const { return initialRegisters_[outputRegister_[i]]; }
  int outputCount() const { return static_cast<int>(outputRegister_.size()); }
  int variableCount() const { return variableCount_; }
  int instructionCount() const { return static_cast<int>(code().size()); }
  std::string listing() const;  // one instruction a line, for inspection

 private:
  struct Instruction {
    SymOp op;
    int dst, a, b, e;
    double c;
  };
  using NativeEntry = void (*)(double* registers, double first, const double* rest);
  // The machine code, released (symbolic_native.cpp) with the last copy of the program.
  struct NativeCode {
    NativeEntry entry = nullptr;
    NativeCode() = default;
    NativeCode(const NativeCode&) = delete;
    NativeCode& operator=(const NativeCode&) = delete;
    ~NativeCode();
  };
  void interpretFrom(double* registers, double first, const double* rest) const;
  // interpret() as a switch over the opcodes, for compilers without labels as values.
  void interpretBySwitch(double* registers) const;
  // symbolic_native.cpp: sets native_, or leaves it empty on failure.
  void compileNative();
  class NativeCompiler;  // symbolic_native.cpp: the translation of one program

  // The instructions of one run; those that depend on parameters and constants alone
  // (`prelude_`), run once per parameter set into the initial registers. Shared by copies.
  std::shared_ptr<const std::vector<Instruction>> codeStore_;
  std::shared_ptr<const std::vector<Instruction>> prelude_;
  const std::vector<Instruction>& code() const;
  std::vector<std::pair<int, int>> parameterRegister_;  // (parameter index, register)
  int variableCount_ = 0;
  std::vector<int> outputRegister_;
  std::vector<bool> outputConstant_;
  std::vector<double> initialRegisters_;
  std::shared_ptr<const NativeCode> native_;  // null: the interpreter runs
};

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
