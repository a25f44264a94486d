// Native code for the tape's programs: a SymProgram translated at run time to x86-64
// machine code (System V ABI, scalar SSE2) with asmjit's Assembler. A program is straight-
// line code in single-assignment form, so one forward pass allocates the 16 xmm registers
// (Belady's rule: when none is free, the value read furthest ahead goes to its home, its
// slot of the caller's register array); intermediate values stay in xmm registers where
// the interpreter loads and stores every one. The pass is linear in the program's length;
// asmjit's x86::Compiler, tried first, took 35 ms for the bicycle's 3,657 instructions.
// asmjit rather than libgccjit or LLVM ORC for compile latency: parameters are constants of
// the tape, so every parameter edit compiles anew (README, Benchmarks: "Native code").
//
// The code computes exactly what SymProgram::interpret computes: the same IEEE operations
// on the same operands in the same order — a·b ± e as a rounded product and a rounded sum,
// as the interpreter does (built without FMA contraction) — and the same libm functions,
// called through their addresses. sin(x) and cos(x) of the same x become one sincos call,
// as g++ does for the hand-written right-hand side: glibc computes sincos with the code of
// sin and cos (sysdeps/ieee754/dbl-64/s_sincos.c), and 2·10⁷ random arguments gave equal
// bits. tests/core/symbolic_native_test.cpp compares native code and interpreter bit for bit.
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
}  // namespace

SymProgram::NativeCode::~NativeCode() {
  if (!entry) return;
  SharedRuntime& shared = sharedRuntime();
  const std::lock_guard<std::mutex> lock(shared.mutex);
  shared.runtime.release(entry);
}

void SymProgram::compileNative() {
  using namespace asmjit;
  const int count = registerCount(), length = instructionCount();
  if (variableCount_ < 1) return;  // the entry point stores variable 0
  // Where each register is read, in instruction order.
  auto forOperands = [](const Instruction& in, auto&& f) {
    f(in.a);
    if (in.b >= 0) f(in.b);
    if (in.e >= 0) f(in.e);
  };
  std::vector<int> useStart(count + 1, 0);
  for (const Instruction& in : code_) forOperands(in, [&](int r) { ++useStart[r + 1]; });
  for (int r = 0; r < count; ++r) useStart[r + 1] += useStart[r];
  std::vector<int> usePosition(useStart[count]), useCursor(useStart.begin(), useStart.end() - 1);
  for (int i = 0; i < length; ++i)
    forOperands(code_[i], [&](int r) { usePosition[useCursor[r]++] = i; });
  std::copy(useStart.begin(), useStart.end() - 1, useCursor.begin());
  auto nextUse = [&](int r, int i) {  // the first read of r after instruction i; i never decreases
    int& cursor = useCursor[r];
    while (cursor < useStart[r + 1] && usePosition[cursor] <= i) ++cursor;
    return cursor < useStart[r + 1] ? usePosition[cursor] : kNoUse;
  };
  std::vector<char> isOutput(count, 0);
  for (int r : outputRegister_) isOutput[r] = 1;

  // sin and cos of one argument: the partner instruction of each (one sincos call).
  std::vector<int> partner(length, -1);
#if defined(__GLIBC__)
  {
    std::unordered_map<int, int> sinOf;
    for (int i = 0; i < length; ++i)
      if (code_[i].op == SymOp::Sin) sinOf.emplace(code_[i].a, i);
    for (int i = 0; i < length; ++i) {
      if (code_[i].op != SymOp::Cos) continue;
      const auto it = sinOf.find(code_[i].a);
      if (it == sinOf.end() || partner[it->second] >= 0) continue;
      partner[it->second] = i;
      partner[i] = it->second;
    }
  }
#endif

  SharedRuntime& shared = sharedRuntime();
  CodeHolder holder;
  FailureFlag failure;
  holder.init(shared.runtime.environment());
  holder.setErrorHandler(&failure);
  x86::Assembler as(&holder);
  // Arguments (registers, first, rest) in rdi, xmm0, rsi; the pointers move to callee-saved
  // registers, so they survive calls.
  const x86::Gp base = x86::rbx, rest = x86::r12;
  const Label signMask = as.newLabel();
  bool usesSignMask = false;

  // Allocation state: the xmm register holding each program register's value (-1: none),
  // whether its home slot holds the value, and the value in each xmm register.
  std::vector<signed char> where(count, -1);
  std::vector<char> inMemory(count, 1);  // variables and constants start there
  int value[kXmmCount];
  std::fill(value, value + kXmmCount, -1);
  // Variables 1.. are read where the caller keeps them (`rest`), the others in the array.
  auto home = [&](int r) {
    constexpr int kSize = static_cast<int>(sizeof(double));
    return r >= 1 && r < variableCount_ ? x86::qword_ptr(rest, (r - 1) * kSize)
                                        : x86::qword_ptr(base, r * kSize);
  };
  auto xmm = [](int x) { return x86::xmm(static_cast<uint32_t>(x)); };
  auto operand = [&](int r) -> Operand {
    return where[r] >= 0 ? Operand(xmm(where[r])) : Operand(home(r));
  };
  auto pins = [&](std::initializer_list<int> registers) {
    unsigned mask = 0;
    for (int r : registers)
      if (r >= 0 && where[r] >= 0) mask |= 1u << where[r];
    return mask;
  };
  auto store = [&](int x) {
    const int r = value[x];
    if (r >= 0 && !inMemory[r]) {
      as.movsd(home(r), xmm(x));
      inMemory[r] = 1;
    }
  };
  auto release = [&](int x) {
    if (value[x] >= 0) where[value[x]] = -1;
    value[x] = -1;
  };
  // An xmm register outside `pinned` for a new value: a free one, else the one whose value
  // is read furthest ahead, written home first.
  auto take = [&](unsigned pinned, int i) {
    int best = -1, bestUse = -1;
    for (int x = 0; x < kXmmCount; ++x) {
      if (pinned >> x & 1) continue;
      if (value[x] < 0) return x;
      const int use = nextUse(value[x], i);
      if (use > bestUse) {
        best = x;
        bestUse = use;
      }
    }
    store(best);
    release(best);
    return best;
  };
  // An xmm register holding a's value that instruction i may overwrite: a's own when i
  // reads a for the last time (and a is not `readLater`, an operand read after the write),
  // otherwise a copy.
  auto overwritable = [&](int a, int i, unsigned pinned, int readLater) {
    if (where[a] >= 0 && a != readLater && nextUse(a, i) == kNoUse) {
      const int x = where[a];
      release(x);
      return x;
    }
    const int x = take(pinned, i);
    if (where[a] >= 0)
      as.movapd(xmm(x), xmm(where[a]));
    else
      as.movsd(xmm(x), home(a));
    return x;
  };
  auto define = [&](int r, int x) {
    value[x] = r;
    where[r] = static_cast<signed char>(x);
    inMemory[r] = 0;
    if (isOutput[r]) store(x);  // callers read outputs from their slots
  };
  // Before a call, which may change every xmm register: all values go home.
  auto spillAll = [&] {
    for (int x = 0; x < kXmmCount; ++x) {
      store(x);
      release(x);
    }
  };
  auto call = [&](const void* function) {
    as.mov(x86::rax, imm(function));
    as.call(x86::rax);
  };
  auto callUnary = [&](Unary function, const Instruction& in) {
    spillAll();
    as.movsd(x86::xmm0, home(in.a));
    call(reinterpret_cast<const void*>(function));
    define(in.dst, 0);
  };
  auto arithmetic = [&](InstId id, const Instruction& in, int i) {
    const Operand b = operand(in.b);
    const int d = overwritable(in.a, i, pins({in.a, in.b}), -1);
    as.emit(id, xmm(d), b);
    define(in.dst, d);
  };

  as.push(base);
  as.push(rest);
  as.sub(x86::rsp, 8);  // the stack 16-byte aligned at calls
  as.mov(base, x86::rdi);
  as.mov(rest, x86::rsi);
  as.movsd(home(0), x86::xmm0);
  for (int r : outputRegister_)  // outputs that are variables: callers read them in the array
    if (r >= 1 && r < variableCount_) {
      as.movsd(x86::xmm0, home(r));
      as.movsd(x86::qword_ptr(base, r * static_cast<int>(sizeof(double))), x86::xmm0);
    }
  for (int i = 0; i < length; ++i) {
    const Instruction& in = code_[i];
    switch (in.op) {
      case SymOp::Add:
        arithmetic(x86::Inst::kIdAddsd, in, i);
        break;
      case SymOp::Sub:
        arithmetic(x86::Inst::kIdSubsd, in, i);
        break;
      case SymOp::Mul:
        arithmetic(x86::Inst::kIdMulsd, in, i);
        break;
      case SymOp::Div:
        arithmetic(x86::Inst::kIdDivsd, in, i);
        break;
      case SymOp::Neg: {  // flips the sign bit, as -x does
        const int d = overwritable(in.a, i, pins({in.a}), -1);
        as.xorpd(xmm(d), x86::ptr(signMask));
        usesSignMask = true;
        define(in.dst, d);
        break;
      }
      case SymOp::Sqrt: {  // correctly rounded, as std::sqrt (sqrtsd when inlined by g++)
        const int d = overwritable(in.a, i, pins({in.a}), -1);
        as.sqrtsd(xmm(d), xmm(d));
        define(in.dst, d);
        break;
      }
      case SymOp::Sin:
      case SymOp::Cos:
        if (partner[i] >= 0) {
          if (partner[i] < i) break;  // computed with its partner
          const Instruction& other = code_[partner[i]];
          const int sinDst = in.op == SymOp::Sin ? in.dst : other.dst;
          const int cosDst = in.op == SymOp::Sin ? other.dst : in.dst;
          spillAll();
          as.movsd(x86::xmm0, home(in.a));
          as.lea(x86::rdi, home(sinDst));
          as.lea(x86::rsi, home(cosDst));
          call(reinterpret_cast<const void*>(kSinCos));
          break;  // both results in their slots (inMemory holds)
        }
        callUnary(in.op == SymOp::Sin ? kSin : kCos, in);
        break;
      case SymOp::Tan:
        callUnary(kTan, in);
        break;
      case SymOp::Exp:
        callUnary(kExp, in);
        break;
      case SymOp::Log:
        callUnary(kLog, in);
        break;
      case SymOp::Atan:
        callUnary(kAtan, in);
        break;
      case SymOp::Pow:
        if (in.c == 2) {  // the interpreter's square
          const int d = overwritable(in.a, i, pins({in.a}), -1);
          as.mulsd(xmm(d), xmm(d));
          define(in.dst, d);
        } else {
          spillAll();
          as.movsd(x86::xmm0, home(in.a));
          std::uint64_t bits;
          std::memcpy(&bits, &in.c, sizeof bits);
          as.mov(x86::rax, bits);
          as.movq(x86::xmm1, x86::rax);
          call(reinterpret_cast<const void*>(kPow));
          define(in.dst, 0);
        }
        break;
      case SymOp::Atan2:
        spillAll();
        as.movsd(x86::xmm0, home(in.a));
        as.movsd(x86::xmm1, home(in.b));
        call(reinterpret_cast<const void*>(kAtan2));
        define(in.dst, 0);
        break;
      case SymOp::MulAdd:    // a·b + e
      case SymOp::MulSub: {  // a·b − e
        const Operand b = operand(in.b), e = operand(in.e);
        const int d = overwritable(in.a, i, pins({in.a, in.b, in.e}), in.e);
        as.emit(x86::Inst::kIdMulsd, xmm(d), b);
        as.emit(in.op == SymOp::MulAdd ? x86::Inst::kIdAddsd : x86::Inst::kIdSubsd, xmm(d), e);
        define(in.dst, d);
        break;
      }
      case SymOp::SubMul: {  // e − a·b
        const unsigned pinned = pins({in.a, in.b, in.e});
        const Operand b = operand(in.b);
        const int product = overwritable(in.a, i, pinned, in.e);
        as.emit(x86::Inst::kIdMulsd, xmm(product), b);
        const int d = overwritable(in.e, i, pinned | 1u << product, -1);
        as.subsd(xmm(d), xmm(product));
        define(in.dst, d);
        break;
      }
      default:  // Const and Var are never instructions
        return;
    }
    // Registers of values read for the last time are free again.
    for (int r : {in.a, in.b, in.e, in.dst})
      if (r >= 0 && where[r] >= 0 && nextUse(r, i) == kNoUse) release(where[r]);
  }
  as.add(x86::rsp, 8);
  as.pop(rest);
  as.pop(base);
  as.ret();
  if (usesSignMask) {
    as.align(AlignMode::kData, 16);
    as.bind(signMask);
    as.embedUInt64(0x8000000000000000ull);
    as.embedUInt64(0);
  }
  if (failure.failed) return;

  auto native = std::make_shared<NativeCode>();
  {
    const std::lock_guard<std::mutex> lock(shared.mutex);
    if (shared.runtime.add(&native->entry, &holder) != kErrorOk) {
      native->entry = nullptr;
      return;
    }
  }
  native_ = std::move(native);
}

#else  // no native code in this build: programs run on the interpreter

SymProgram::NativeCode::~NativeCode() = default;
void SymProgram::compileNative() {}

#endif

}  // namespace nh
