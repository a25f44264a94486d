// Native code for the tape's programs: a SymProgram compiled at run time to x86-64 machine
// code with asmjit's x86::Compiler, whose register allocator keeps the intermediate values
// in xmm registers (the interpreter loads and stores every one). asmjit rather than
// libgccjit or LLVM ORC for its compile latency: parameters are constants of the tape, so
// every parameter edit compiles anew (README, Benchmarks: "Native code").
//
// The code computes exactly what SymProgram::interpret computes: the same IEEE operations
// on the same operands in the same order — a·b ± e as a rounded product and a rounded sum,
// as the interpreter does (built without FMA contraction) — and the same libm functions,
// called through their addresses, for sin, cos, tan, exp, log, pow, atan and atan2.
// tests/core/symbolic_native_test.cpp compares the two bit for bit.
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>

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
}  // namespace

struct SymProgram::NativeCode {
  void (*entry)(double*) = nullptr;
  NativeCode() = default;
  NativeCode(const NativeCode&) = delete;
  NativeCode& operator=(const NativeCode&) = delete;
  ~NativeCode() {
    if (!entry) return;
    SharedRuntime& shared = sharedRuntime();
    const std::lock_guard<std::mutex> lock(shared.mutex);
    shared.runtime.release(entry);
  }
};

void SymProgram::compileNative() {
  using namespace asmjit;
  SharedRuntime& shared = sharedRuntime();
  CodeHolder holder;
  FailureFlag failure;
  holder.init(shared.runtime.environment());
  holder.setErrorHandler(&failure);
  x86::Compiler cc(&holder);
  FuncNode* const function = cc.addFunc(FuncSignatureT<void, double*>(CallConvId::kHost));
  const x86::Gp base = cc.newIntPtr("registers");
  function->setArg(0, base);

  // Registers an instruction writes live in virtual xmm registers; the others (variables,
  // constants) are read from memory where they are used.
  const int count = registerCount();
  std::vector<x86::Xmm> value(count);
  std::vector<char> computed(count, 0), isOutput(count, 0);
  for (const Instruction& in : code_) computed[in.dst] = 1;
  for (int r : outputRegister_) isOutput[r] = 1;
  auto memory = [&](int r) { return x86::qword_ptr(base, r * static_cast<int>(sizeof(double))); };
  auto source = [&](int r) -> Operand {
    return computed[r] ? Operand(value[r]) : Operand(memory(r));
  };
  auto copyOf = [&](int r) {  // a fresh register holding r's value, to be overwritten
    const x86::Xmm x = cc.newXmmSd();
    if (computed[r])
      cc.movapd(x, value[r]);
    else
      cc.movsd(x, memory(r));
    return x;
  };
  auto inRegister = [&](int r) {  // r's value in some register, not to be overwritten
    if (computed[r]) return value[r];
    const x86::Xmm x = cc.newXmmSd();
    cc.movsd(x, memory(r));
    return x;
  };
  auto binary = [&](InstId id, int a, int b) {
    const x86::Xmm d = copyOf(a);
    cc.emit(id, d, source(b));
    return d;
  };
  auto call = [&](const void* f, x86::Xmm x, const x86::Xmm* y) {
    const x86::Xmm result = cc.newXmmSd();
    InvokeNode* node = nullptr;
    if (y)
      cc.invoke(&node, imm(f), FuncSignatureT<double, double, double>(CallConvId::kHost));
    else
      cc.invoke(&node, imm(f), FuncSignatureT<double, double>(CallConvId::kHost));
    if (!node) return result;  // the failure flag is set
    node->setArg(0, x);
    if (y) node->setArg(1, *y);
    node->setRet(0, result);
    return result;
  };
  auto unaryCall = [&](Unary f, int a) {
    return call(reinterpret_cast<const void*>(f), inRegister(a), nullptr);
  };

  for (const Instruction& in : code_) {
    x86::Xmm d;
    switch (in.op) {
      case SymOp::Add:
        d = binary(x86::Inst::kIdAddsd, in.a, in.b);
        break;
      case SymOp::Sub:
        d = binary(x86::Inst::kIdSubsd, in.a, in.b);
        break;
      case SymOp::Mul:
        d = binary(x86::Inst::kIdMulsd, in.a, in.b);
        break;
      case SymOp::Div:
        d = binary(x86::Inst::kIdDivsd, in.a, in.b);
        break;
      case SymOp::Neg: {  // flips the sign bit, as -x does
        d = copyOf(in.a);
        const x86::Gp bits = cc.newUInt64();
        const x86::Xmm sign = cc.newXmmSd();
        cc.mov(bits, 0x8000000000000000ull);
        cc.movq(sign, bits);
        cc.xorpd(d, sign);
        break;
      }
      case SymOp::Sqrt:  // correctly rounded, as std::sqrt (sqrtsd when inlined by g++)
        d = copyOf(in.a);
        cc.sqrtsd(d, d);
        break;
      case SymOp::Sin:
        d = unaryCall(kSin, in.a);
        break;
      case SymOp::Cos:
        d = unaryCall(kCos, in.a);
        break;
      case SymOp::Tan:
        d = unaryCall(kTan, in.a);
        break;
      case SymOp::Exp:
        d = unaryCall(kExp, in.a);
        break;
      case SymOp::Log:
        d = unaryCall(kLog, in.a);
        break;
      case SymOp::Atan:
        d = unaryCall(kAtan, in.a);
        break;
      case SymOp::Pow:
        if (in.c == 2) {  // the interpreter's square
          d = copyOf(in.a);
          cc.mulsd(d, d);
        } else {
          const x86::Xmm exponent = cc.newXmmSd();
          cc.movsd(exponent, cc.newDoubleConst(ConstPoolScope::kLocal, in.c));
          d = call(reinterpret_cast<const void*>(kPow), inRegister(in.a), &exponent);
        }
        break;
      case SymOp::Atan2: {
        const x86::Xmm y = inRegister(in.a), x = inRegister(in.b);
        d = call(reinterpret_cast<const void*>(kAtan2), y, &x);
        break;
      }
      case SymOp::MulAdd:  // a·b + e
        d = binary(x86::Inst::kIdMulsd, in.a, in.b);
        cc.emit(x86::Inst::kIdAddsd, d, source(in.e));
        break;
      case SymOp::MulSub:  // a·b − e
        d = binary(x86::Inst::kIdMulsd, in.a, in.b);
        cc.emit(x86::Inst::kIdSubsd, d, source(in.e));
        break;
      case SymOp::SubMul: {  // e − a·b
        const x86::Xmm product = binary(x86::Inst::kIdMulsd, in.a, in.b);
        d = copyOf(in.e);
        cc.subsd(d, product);
        break;
      }
      default:  // Const and Var are never instructions
        return;
    }
    value[in.dst] = d;
    if (isOutput[in.dst]) cc.movsd(memory(in.dst), d);
  }
  cc.ret();
  cc.endFunc();
  if (cc.finalize() != kErrorOk || failure.failed) return;

  auto native = std::make_shared<NativeCode>();
  {
    const std::lock_guard<std::mutex> lock(shared.mutex);
    if (shared.runtime.add(&native->entry, &holder) != kErrorOk) {
      native->entry = nullptr;
      return;
    }
  }
  nativeEntry_ = native->entry;
  native_ = std::move(native);
}

#else  // no native code in this build: programs run on the interpreter

struct SymProgram::NativeCode {};
void SymProgram::compileNative() {}

#endif

}  // namespace nh
