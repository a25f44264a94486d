// Native code for the tape's programs: a SymProgram translated at run time to x86-64
// machine code (System V ABI, scalar SSE2) with asmjit's Assembler. A program is straight-
// line code in single-assignment form, so one forward pass allocates the 16 xmm registers
// (Belady's rule: when none is free, the value read furthest ahead goes to its home, its
// slot of the caller's register array); intermediate values stay in xmm registers where
// the interpreter loads and stores every one. The pass is linear in the program's length;
// asmjit's x86::Compiler, tried first, took 35 ms for the bicycle's 3,657 instructions.
// asmjit rather than libgccjit or LLVM ORC for compile latency: parameters are constants of
// the tape unless made inputs of it, so a parameter edit may compile anew (docs/benchmarks.md,
// "Native code"). The code reads constants and per-parameter-set values from the register
// array, so programs for other parameter values share it (SymProgram::withParameters).
//
// The code computes exactly what SymProgram::interpret computes: the same IEEE operations
// on the same operands in the same order — a·b ± e as a rounded product and a rounded sum,
// as the interpreter does (built without FMA contraction) — and the same libm functions,
// called through their addresses. sin(x) and cos(x) of the same x become one sincos call,
// as g++ does for the hand-written right-hand side: glibc computes sincos with the code of
// sin and cos (sysdeps/ieee754/dbl-64/s_sincos.c), and 2·10⁷ random arguments gave equal
// bits. tests/core/nh/symbolic_native_test.cpp compares native code and interpreter bit for bit.
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "core/nh/symbolic.h"

#if defined(NH_HAVE_ASMJIT) && defined(__x86_64__)
#define NH_NATIVE_CODE 1
#include <asmjit/x86.h>
#else
#define NH_NATIVE_CODE 0
#endif

namespace nh {

namespace {
std::atomic<bool>& enabledFlag() {
  static std::atomic<bool> flag{[] {
    const char* value = std::getenv("NH_JIT");
    return !(value && std::strcmp(value, "0") == 0);
  }()};
  return flag;
}
}  // namespace

bool nativeCodeAvailable() { return NH_NATIVE_CODE; }
bool nativeCodeEnabled() { return NH_NATIVE_CODE && enabledFlag().load(std::memory_order_relaxed); }
void setNativeCodeEnabled(bool enabled) { enabledFlag().store(enabled); }

#if NH_NATIVE_CODE

namespace {
// One runtime (executable memory) for all programs, never destroyed: programs held by
// static objects may be released after any other owner is gone. Adding and releasing
// code take our own lock, so nothing relies on asmjit's internal locking.
struct SharedRuntime {
  asmjit::JitRuntime runtime;
  std::mutex mutex;
};
SharedRuntime& sharedRuntime() {
  static SharedRuntime* const shared = new SharedRuntime;
  return *shared;
}

// Records that some emit failed (asmjit reports errors here when a handler is set); the
// program then stays on the interpreter.
class FailureFlag : public asmjit::ErrorHandler {
 public:
  bool failed = false;
  void handleError(asmjit::Error, const char*, asmjit::BaseEmitter*) override { failed = true; }
};

using Unary = double (*)(double);
using Binary = double (*)(double, double);
// The libm functions the interpreter calls (std::sin(double) is ::sin).
const Unary kSin = ::sin, kCos = ::cos, kTan = ::tan, kExp = ::exp, kLog = ::log, kAtan = ::atan;
const Binary kPow = ::pow, kAtan2 = ::atan2;
#if defined(__GLIBC__)
void (*const kSinCos)(double, double*, double*) = ::sincos;
#else
void (*const kSinCos)(double, double*, double*) = nullptr;  // never called: no pairs formed
#endif

constexpr int kNoUse = std::numeric_limits<int>::max();
constexpr int kXmmCount = 16;

asmjit::x86::Xmm xmm(int x) { return asmjit::x86::xmm(static_cast<uint32_t>(x)); }
}  // namespace

SymProgram::NativeCode::~NativeCode() {
  if (!entry) return;
  SharedRuntime& shared = sharedRuntime();
  const std::lock_guard<std::mutex> lock(shared.mutex);
  shared.runtime.release(entry);
}

// One program's translation: the reads of every register (for Belady's rule), the sin/cos
// pairs, and the allocation state of the xmm registers during the single forward pass.
class SymProgram::NativeCompiler {
 public:
  explicit NativeCompiler(const SymProgram& program);
  // The machine code, or null when asmjit failed (the program then stays on the interpreter).
  std::shared_ptr<const NativeCode> compile();

 private:
  void planUses();
  void pairSinCos();
  int nextUse(int r, int i);
  asmjit::x86::Mem home(int r) const;
  asmjit::Operand operand(int r) const;
  unsigned pins(std::initializer_list<int> registers) const;
  void store(int x);
  void release(int x);
  int take(unsigned pinned, int i);
  int overwritable(int a, int i, unsigned pinned, int readLater);
  void define(int r, int x);
  void spillAll();
  void call(const void* function);
  void prologue();
  bool emit(int i);
  void epilogue();
  void arithmetic(asmjit::InstId id, const Instruction& in, int i);
  void negate(const Instruction& in, int i);
  void squareRoot(const Instruction& in, int i);
  void sineOrCosine(const Instruction& in, int i);
  void callUnary(Unary function, const Instruction& in);
  void power(const Instruction& in, int i);
  void callBinary(Binary function, const Instruction& in);
  void multiplyAdd(const Instruction& in, int i);
  void subtractProduct(const Instruction& in, int i);
  void freeDeadRegisters(const Instruction& in, int i);

  const SymProgram& program_;
  const std::vector<Instruction>& code_;
  const int count_, length_;
  // Where each register is read, in instruction order: usePosition_[useStart_[r] ..
  // useStart_[r + 1]), and the first read not yet passed.
  std::vector<int> useStart_, usePosition_, useCursor_;
  std::vector<char> isOutput_;
  std::vector<int> partner_;  // sin and cos of one argument: each one's partner instruction

  asmjit::CodeHolder holder_;
  FailureFlag failure_;
  asmjit::x86::Assembler as_;
  // Arguments (registers, first, rest) in rdi, xmm0, rsi; the pointers move to callee-saved
  // registers, so they survive calls.
  const asmjit::x86::Gp base_ = asmjit::x86::rbx, rest_ = asmjit::x86::r12;
  asmjit::Label signMask_;
  bool usesSignMask_ = false;
  // Allocation state: the xmm register holding each program register's value (-1: none),
  // whether its home slot holds the value, and the value in each xmm register.
  std::vector<signed char> where_;
  std::vector<char> inMemory_;  // variables and constants start there
  int value_[kXmmCount];
};

SymProgram::NativeCompiler::NativeCompiler(const SymProgram& program)
    : program_(program),
      code_(program.code()),
      count_(program.registerCount()),
      length_(program.instructionCount()),
      isOutput_(count_, 0),
      partner_(length_, -1),
      where_(count_, -1),
      inMemory_(count_, 1) {
  planUses();
  for (int r : program_.outputRegister_) isOutput_[r] = 1;
  pairSinCos();
  holder_.init(sharedRuntime().runtime.environment());
  holder_.setErrorHandler(&failure_);
  holder_.attach(&as_);
  signMask_ = as_.newLabel();
  std::fill(value_, value_ + kXmmCount, -1);
}

std::shared_ptr<const SymProgram::NativeCode> SymProgram::NativeCompiler::compile() {
  prologue();
  for (int i = 0; i < length_; ++i) {
    if (!emit(i)) return nullptr;
    freeDeadRegisters(code_[i], i);
  }
  epilogue();
  if (failure_.failed) return nullptr;
  auto native = std::make_shared<NativeCode>();
  SharedRuntime& shared = sharedRuntime();
  {
    const std::lock_guard<std::mutex> lock(shared.mutex);
    if (shared.runtime.add(&native->entry, &holder_) != asmjit::kErrorOk) native->entry = nullptr;
  }
  return native->entry ? native : nullptr;
}

// The reads of every register in instruction order, counted, then listed.
void SymProgram::NativeCompiler::planUses() {
  auto forOperands = [](const Instruction& in, auto&& f) {
    f(in.a);
    if (in.b >= 0) f(in.b);
    if (in.e >= 0) f(in.e);
  };
  useStart_.assign(count_ + 1, 0);
  for (const Instruction& in : code_) forOperands(in, [&](int r) { ++useStart_[r + 1]; });
  for (int r = 0; r < count_; ++r) useStart_[r + 1] += useStart_[r];
  usePosition_.assign(useStart_[count_], 0);
  useCursor_.assign(useStart_.begin(), useStart_.end() - 1);
  for (int i = 0; i < length_; ++i)
    forOperands(code_[i], [&](int r) { usePosition_[useCursor_[r]++] = i; });
  std::copy(useStart_.begin(), useStart_.end() - 1, useCursor_.begin());
}

// The first read of r after instruction i; i never decreases.
int SymProgram::NativeCompiler::nextUse(int r, int i) {
  int& cursor = useCursor_[r];
  while (cursor < useStart_[r + 1] && usePosition_[cursor] <= i) ++cursor;
  return cursor < useStart_[r + 1] ? usePosition_[cursor] : kNoUse;
}

void SymProgram::NativeCompiler::pairSinCos() {
#if defined(__GLIBC__)
  std::unordered_map<int, int> sinOf;
  for (int i = 0; i < length_; ++i)
    if (code_[i].op == SymOp::Sin) sinOf.emplace(code_[i].a, i);
  for (int i = 0; i < length_; ++i) {
    if (code_[i].op != SymOp::Cos) continue;
    const auto it = sinOf.find(code_[i].a);
    if (it == sinOf.end() || partner_[it->second] >= 0) continue;
    partner_[it->second] = i;
    partner_[i] = it->second;
  }
#endif
}

// Variables 1.. are read where the caller keeps them (`rest`), the others in the array.
asmjit::x86::Mem SymProgram::NativeCompiler::home(int r) const {
  constexpr int kSize = static_cast<int>(sizeof(double));
  return r >= 1 && r < program_.variableCount_ ? asmjit::x86::qword_ptr(rest_, (r - 1) * kSize)
                                               : asmjit::x86::qword_ptr(base_, r * kSize);
}

asmjit::Operand SymProgram::NativeCompiler::operand(int r) const {
  return where_[r] >= 0 ? asmjit::Operand(xmm(where_[r])) : asmjit::Operand(home(r));
}

unsigned SymProgram::NativeCompiler::pins(std::initializer_list<int> registers) const {
  unsigned mask = 0;
  for (int r : registers)
    if (r >= 0 && where_[r] >= 0) mask |= 1u << where_[r];
  return mask;
}

void SymProgram::NativeCompiler::store(int x) {
  const int r = value_[x];
  if (r >= 0 && !inMemory_[r]) {
    as_.movsd(home(r), xmm(x));
    inMemory_[r] = 1;
  }
}

void SymProgram::NativeCompiler::release(int x) {
  if (value_[x] >= 0) where_[value_[x]] = -1;
  value_[x] = -1;
}

// An xmm register outside `pinned` for a new value: a free one, else the one whose value is
// read furthest ahead, written home first.
int SymProgram::NativeCompiler::take(unsigned pinned, int i) {
  int best = -1, bestUse = -1;
  for (int x = 0; x < kXmmCount; ++x) {
    if (pinned >> x & 1) continue;
    if (value_[x] < 0) return x;
    const int use = nextUse(value_[x], i);
    if (use > bestUse) {
      best = x;
      bestUse = use;
    }
  }
  store(best);
  release(best);
  return best;
}

// An xmm register holding a's value that instruction i may overwrite: a's own when i reads a
// for the last time (and a is not `readLater`, an operand read after the write), otherwise a
// copy.
int SymProgram::NativeCompiler::overwritable(int a, int i, unsigned pinned, int readLater) {
  if (where_[a] >= 0 && a != readLater && nextUse(a, i) == kNoUse) {
    const int x = where_[a];
    release(x);
    return x;
  }
  const int x = take(pinned, i);
  if (where_[a] >= 0)
    as_.movapd(xmm(x), xmm(where_[a]));
  else
    as_.movsd(xmm(x), home(a));
  return x;
}

void SymProgram::NativeCompiler::define(int r, int x) {
  value_[x] = r;
  where_[r] = static_cast<signed char>(x);
  inMemory_[r] = 0;
  if (isOutput_[r]) store(x);  // callers read outputs from their slots
}

// Before a call, which may change every xmm register: all values go home.
void SymProgram::NativeCompiler::spillAll() {
  for (int x = 0; x < kXmmCount; ++x) {
    store(x);
    release(x);
  }
}

void SymProgram::NativeCompiler::call(const void* function) {
  as_.mov(asmjit::x86::rax, asmjit::imm(function));
  as_.call(asmjit::x86::rax);
}

void SymProgram::NativeCompiler::prologue() {
  using namespace asmjit;
  as_.push(base_);
  as_.push(rest_);
  as_.sub(x86::rsp, 8);  // the stack 16-byte aligned at calls
  as_.mov(base_, x86::rdi);
  as_.mov(rest_, x86::rsi);
  as_.movsd(home(0), x86::xmm0);
  for (int r :
       program_.outputRegister_)  // outputs that are variables: callers read them in the array
    if (r >= 1 && r < program_.variableCount_) {
      as_.movsd(x86::xmm0, home(r));
      as_.movsd(x86::qword_ptr(base_, r * static_cast<int>(sizeof(double))), x86::xmm0);
    }
}

// Instruction i, one case per opcode; false for an opcode that is never an instruction.
bool SymProgram::NativeCompiler::emit(int i) {
  namespace Inst = asmjit::x86::Inst;
  const Instruction& in = code_[i];
  switch (in.op) {
    case SymOp::Add:
      arithmetic(Inst::kIdAddsd, in, i);
      return true;
    case SymOp::Sub:
      arithmetic(Inst::kIdSubsd, in, i);
      return true;
    case SymOp::Mul:
      arithmetic(Inst::kIdMulsd, in, i);
      return true;
    case SymOp::Div:
      arithmetic(Inst::kIdDivsd, in, i);
      return true;
    case SymOp::Neg:
      negate(in, i);
      return true;
    case SymOp::Sqrt:
      squareRoot(in, i);
      return true;
    case SymOp::Sin:
    case SymOp::Cos:
      sineOrCosine(in, i);
      return true;
    case SymOp::Tan:
      callUnary(kTan, in);
      return true;
    case SymOp::Exp:
      callUnary(kExp, in);
      return true;
    case SymOp::Log:
      callUnary(kLog, in);
      return true;
    case SymOp::Atan:
      callUnary(kAtan, in);
      return true;
    case SymOp::Pow:
      power(in, i);
      return true;
    case SymOp::Atan2:
      callBinary(kAtan2, in);
      return true;
    case SymOp::MulAdd:  // a·b + e
    case SymOp::MulSub:  // a·b − e
      multiplyAdd(in, i);
      return true;
    case SymOp::SubMul:  // e − a·b
      subtractProduct(in, i);
      return true;
    default:  // Const and Var are never instructions
      return false;
  }
}

void SymProgram::NativeCompiler::epilogue() {
  using namespace asmjit;
  as_.add(x86::rsp, 8);
  as_.pop(rest_);
  as_.pop(base_);
  as_.ret();
  if (usesSignMask_) {
    as_.align(AlignMode::kData, 16);
    as_.bind(signMask_);
    as_.embedUInt64(0x8000000000000000ull);
    as_.embedUInt64(0);
  }
}

void SymProgram::NativeCompiler::arithmetic(asmjit::InstId id, const Instruction& in, int i) {
  const asmjit::Operand b = operand(in.b);
  const int d = overwritable(in.a, i, pins({in.a, in.b}), -1);
  as_.emit(id, xmm(d), b);
  define(in.dst, d);
}

void SymProgram::NativeCompiler::negate(const Instruction& in,
                                        int i) {  // flips the sign bit, as -x does
  const int d = overwritable(in.a, i, pins({in.a}), -1);
  as_.xorpd(xmm(d), asmjit::x86::ptr(signMask_));
  usesSignMask_ = true;
  define(in.dst, d);
}

// Correctly rounded, as std::sqrt (sqrtsd when inlined by g++).
void SymProgram::NativeCompiler::squareRoot(const Instruction& in, int i) {
  const int d = overwritable(in.a, i, pins({in.a}), -1);
  as_.sqrtsd(xmm(d), xmm(d));
  define(in.dst, d);
}

// sin or cos: one sincos call for a pair of one argument (at the first of the two), else a
// call of sin or cos.
void SymProgram::NativeCompiler::sineOrCosine(const Instruction& in, int i) {
  if (partner_[i] < 0) return callUnary(in.op == SymOp::Sin ? kSin : kCos, in);
  if (partner_[i] < i) return;  // computed with its partner
  const Instruction& other = code_[partner_[i]];
  const int sinDst = in.op == SymOp::Sin ? in.dst : other.dst;
  const int cosDst = in.op == SymOp::Sin ? other.dst : in.dst;
  spillAll();
  as_.movsd(asmjit::x86::xmm0, home(in.a));
  as_.lea(asmjit::x86::rdi, home(sinDst));
  as_.lea(asmjit::x86::rsi, home(cosDst));
  call(reinterpret_cast<const void*>(kSinCos));  // both results in their slots (inMemory holds)
}

void SymProgram::NativeCompiler::callUnary(Unary function, const Instruction& in) {
  spillAll();
  as_.movsd(asmjit::x86::xmm0, home(in.a));
  call(reinterpret_cast<const void*>(function));
  define(in.dst, 0);
}

void SymProgram::NativeCompiler::power(const Instruction& in, int i) {
  using namespace asmjit;
  if (in.c == 2) {  // the interpreter's square
    const int d = overwritable(in.a, i, pins({in.a}), -1);
    as_.mulsd(xmm(d), xmm(d));
    define(in.dst, d);
    return;
  }
  spillAll();
  as_.movsd(x86::xmm0, home(in.a));
  std::uint64_t bits;
  std::memcpy(&bits, &in.c, sizeof bits);
  as_.mov(x86::rax, bits);
  as_.movq(x86::xmm1, x86::rax);
  call(reinterpret_cast<const void*>(kPow));
  define(in.dst, 0);
}

void SymProgram::NativeCompiler::callBinary(Binary function, const Instruction& in) {
  spillAll();
  as_.movsd(asmjit::x86::xmm0, home(in.a));
  as_.movsd(asmjit::x86::xmm1, home(in.b));
  call(reinterpret_cast<const void*>(function));
  define(in.dst, 0);
}

// a·b ± e: a rounded product, then a rounded sum, as the interpreter computes it.
void SymProgram::NativeCompiler::multiplyAdd(const Instruction& in, int i) {
  namespace Inst = asmjit::x86::Inst;
  const asmjit::Operand b = operand(in.b), e = operand(in.e);
  const int d = overwritable(in.a, i, pins({in.a, in.b, in.e}), in.e);
  as_.emit(Inst::kIdMulsd, xmm(d), b);
  as_.emit(in.op == SymOp::MulAdd ? Inst::kIdAddsd : Inst::kIdSubsd, xmm(d), e);
  define(in.dst, d);
}

void SymProgram::NativeCompiler::subtractProduct(const Instruction& in, int i) {
  const unsigned pinned = pins({in.a, in.b, in.e});
  const asmjit::Operand b = operand(in.b);
  const int product = overwritable(in.a, i, pinned, in.e);
  as_.emit(asmjit::x86::Inst::kIdMulsd, xmm(product), b);
  const int d = overwritable(in.e, i, pinned | 1u << product, -1);
  as_.subsd(xmm(d), xmm(product));
  define(in.dst, d);
}

// Registers of values read for the last time are free again.
void SymProgram::NativeCompiler::freeDeadRegisters(const Instruction& in, int i) {
  for (int r : {in.a, in.b, in.e, in.dst})
    if (r >= 0 && where_[r] >= 0 && nextUse(r, i) == kNoUse) release(where_[r]);
}

void SymProgram::compileNative() {
  if (variableCount_ < 1) return;  // the entry point stores variable 0
  NativeCompiler compiler(*this);
  native_ = compiler.compile();
}

#else  // no native code in this build: programs run on the interpreter

SymProgram::NativeCode::~NativeCode() = default;
void SymProgram::compileNative() {}

#endif

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
