// The tape and its programs (symbolic.h): the recording scalar Sym and its operations,
// derivatives taken on the graph, and SymProgram, the flat register program with its
// interpreter and listing (the native code is symbolic_native.cpp's).
#include "core/nh/symbolic.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <sstream>
#include <unordered_set>
#include <vector>

namespace nh {

namespace {
thread_local Tape* currentTape = nullptr;

double apply(SymOp op, double a, double b, double c) {
  switch (op) {
    case SymOp::Add:
      return a + b;
    case SymOp::Sub:
      return a - b;
    case SymOp::Mul:
      return a * b;
    case SymOp::Div:
      return a / b;
    case SymOp::Neg:
      return -a;
    case SymOp::Sin:
      return std::sin(a);
    case SymOp::Cos:
      return std::cos(a);
    case SymOp::Tan:
      return std::tan(a);
    case SymOp::Exp:
      return std::exp(a);
    case SymOp::Log:
      return std::log(a);
    case SymOp::Sqrt:
      return std::sqrt(a);
    case SymOp::Pow:
      return std::pow(a, c);
    case SymOp::Atan:
      return std::atan(a);
    case SymOp::Atan2:
      return std::atan2(a, b);
    default:
      return 0;
  }
}
}  // namespace

size_t Tape::KeyHash::operator()(const Key& k) const {
  size_t h = std::hash<int>()(static_cast<int>(k.op));
  h = h * 1000003u ^ std::hash<int>()(k.a);
  h = h * 1000003u ^ std::hash<int>()(k.b);
  h = h * 1000003u ^ std::hash<double>()(k.c);
  return h;
}

Tape::Tape() : previous_(currentTape) { currentTape = this; }
Tape::~Tape() { currentTape = previous_; }

Tape& Tape::current() {
  if (!currentTape) throw TapeError("no tape is being recorded on this thread");
  return *currentTape;
}

Sym::Sym(double value) : id(Tape::current().constant(value).id) {}

Sym Tape::variable(int index) { return node(SymOp::Var, -1, -1, index); }
Sym Tape::constant(double value) { return node(SymOp::Const, -1, -1, value); }

Sym Tape::parameter(int index, double value) {
  if (index >= parameterCount())
    parameterValues_.resize(index + 1, std::numeric_limits<double>::quiet_NaN());
  parameterValues_[index] = value;
  return node(SymOp::Param, -1, -1, index);
}

void Tape::bindSystemParameters(const std::vector<int>& indices) {
  boundSystemParameters_.clear();
  parameterVariables_.clear();
  for (const int i : indices) {
    if (i >= static_cast<int>(boundSystemParameters_.size()))
      boundSystemParameters_.resize(i + 1, 0);
    boundSystemParameters_[i] = 1;
  }
}

void Tape::bindSystemParametersToVariables(const std::vector<int>& indices, int firstVariable) {
  bindSystemParameters(indices);
  parameterVariables_.clear();
  for (std::size_t k = 0; k < indices.size(); ++k) {
    if (indices[k] >= static_cast<int>(parameterVariables_.size()))
      parameterVariables_.resize(indices[k] + 1, -1);
    parameterVariables_[indices[k]] = firstVariable + static_cast<int>(k);
  }
}

Sym Tape::systemParameter(int index, double value) {
  if (index >= 0 && index < static_cast<int>(boundSystemParameters_.size()) &&
      boundSystemParameters_[index]) {
    boundSystemParameters_[index] = 2;
    if (index < static_cast<int>(parameterVariables_.size()) && parameterVariables_[index] >= 0)
      return variable(parameterVariables_[index]);
    return parameter(index, value);
  }
  return constant(value);
}

Sym tapeParameter(int index, double value) { return Tape::current().systemParameter(index, value); }

// Folds constants and brings expressions into a canonical form (constants first in
// products, negations outermost, like terms collected), so that hash-consing finds equal
// subexpressions and terms that cancel symbolically (x·(I y) − y·(I x)) disappear.
Sym Tape::node(SymOp op, int a, int b, double c) {
  if (op != SymOp::Const && op != SymOp::Var && op != SymOp::Param) {
    const bool ca = a >= 0 && isConstant(a), cb = b < 0 || isConstant(b);
    if (ca && cb) return constant(apply(op, constantValue(a), b >= 0 ? constantValue(b) : 0, c));
    auto is = [&](int id, double v) { return id >= 0 && isConstant(id) && constantValue(id) == v; };
    auto opOf = [&](int id) { return nodes_[id].op; };
    // id = c·x with a constant c: returns true and sets (k, x).
    auto scaled = [&](int id, double& k, int& x) {
      const SymNode& nd = nodes_[id];
      if (nd.op != SymOp::Mul || !isConstant(nd.a)) return false;
      k = constantValue(nd.a);
      x = nd.b;
      return true;
    };
    double k1 = 0, k2 = 0;
    int x1 = -1, x2 = -1;
    switch (op) {
      case SymOp::Neg:
        if (opOf(a) == SymOp::Neg) return Sym(nodes_[a].a, true);
        if (scaled(a, k1, x1)) return node(SymOp::Mul, constant(-k1).id, x1);
        if (opOf(a) == SymOp::Sub) return node(SymOp::Sub, nodes_[a].b, nodes_[a].a);
        break;
      case SymOp::Add:
        if (is(a, 0)) return Sym(b, true);
        if (is(b, 0)) return Sym(a, true);
        if (a == b) return node(SymOp::Mul, constant(2).id, a);
        if (opOf(b) == SymOp::Neg) return node(SymOp::Sub, a, nodes_[b].a);
        if (opOf(a) == SymOp::Neg) return node(SymOp::Sub, b, nodes_[a].a);
        if (scaled(a, k1, x1) && scaled(b, k2, x2)) {
          if (x1 == x2) return node(SymOp::Mul, constant(k1 + k2).id, x1);
          if (k1 == k2) return node(SymOp::Mul, constant(k1).id, node(SymOp::Add, x1, x2).id);
          if (k1 == -k2) return node(SymOp::Mul, constant(k2).id, node(SymOp::Sub, x2, x1).id);
        }
        if (scaled(a, k1, x1) && x1 == b) return node(SymOp::Mul, constant(k1 + 1).id, b);
        if (scaled(b, k2, x2) && x2 == a) return node(SymOp::Mul, constant(k2 + 1).id, a);
        break;
      case SymOp::Sub:
        if (is(b, 0)) return Sym(a, true);
        if (a == b) return constant(0);
        if (is(a, 0)) return node(SymOp::Neg, b);
        if (opOf(b) == SymOp::Neg) return node(SymOp::Add, a, nodes_[b].a);
        if (opOf(a) == SymOp::Neg) return node(SymOp::Neg, node(SymOp::Add, nodes_[a].a, b).id);
        if (scaled(a, k1, x1) && scaled(b, k2, x2)) {
          if (x1 == x2) return node(SymOp::Mul, constant(k1 - k2).id, x1);
          if (k1 == k2) return node(SymOp::Mul, constant(k1).id, node(SymOp::Sub, x1, x2).id);
          if (k1 == -k2) return node(SymOp::Mul, constant(k1).id, node(SymOp::Add, x1, x2).id);
        }
        break;
      case SymOp::Mul:
        if (is(a, 0) || is(b, 0)) return constant(0);
        if (is(a, 1)) return Sym(b, true);
        if (is(b, 1)) return Sym(a, true);
        if (isConstant(b)) std::swap(a, b);  // constant first
        if (isConstant(a)) {
          const double k = constantValue(a);
          if (k == -1) return node(SymOp::Neg, b);
          if (scaled(b, k2, x2)) return node(SymOp::Mul, constant(k * k2).id, x2);
          if (opOf(b) == SymOp::Neg) return node(SymOp::Mul, constant(-k).id, nodes_[b].a);
          break;
        }
        if (opOf(a) == SymOp::Neg) return node(SymOp::Neg, node(SymOp::Mul, nodes_[a].a, b).id);
        if (opOf(b) == SymOp::Neg) return node(SymOp::Neg, node(SymOp::Mul, a, nodes_[b].a).id);
        if (scaled(a, k1, x1)) return node(SymOp::Mul, constant(k1).id, node(SymOp::Mul, x1, b).id);
        if (scaled(b, k2, x2)) return node(SymOp::Mul, constant(k2).id, node(SymOp::Mul, a, x2).id);
        if (a > b) std::swap(a, b);
        break;
      case SymOp::Div:
        if (is(a, 0)) return constant(0);
        if (is(b, 1)) return Sym(a, true);
        break;
      case SymOp::Pow:
        if (c == 0) return constant(1);
        if (c == 1) return Sym(a, true);
        break;
      default:
        break;
    }
    if (op == SymOp::Add && a > b) std::swap(a, b);
  }
  const Key key{op, a, b, c};
  if (const auto it = index_.find(key); it != index_.end()) return Sym(it->second, true);
  nodes_.push_back({op, a, b, c});
  variable_.push_back(op == SymOp::Var || (a >= 0 && variable_[a]) || (b >= 0 && variable_[b]));
  const int id = static_cast<int>(nodes_.size()) - 1;
  index_.emplace(key, id);
  return Sym(id, true);
}

Sym Tape::derivative(Sym f, int var) {
  const long long key = (static_cast<long long>(f.id) << 20) | var;
  if (const auto it = derivatives_.find(key); it != derivatives_.end())
    return Sym(it->second, true);
  // The operands' derivatives first, in id order (operands precede their node), found with
  // a stack of our own: each is then computed from cached ones, so that a long chain of
  // nodes (a sum of 100,000 terms) does not nest this call 100,000 deep.
  const auto cached = [&](int id) {
    return derivatives_.count((static_cast<long long>(id) << 20) | var) != 0;
  };
  std::vector<int> pending, stack{f.id};
  std::unordered_set<int> seen;
  while (!stack.empty()) {
    const SymNode top = nodes_[stack.back()];
    stack.pop_back();
    if (top.op == SymOp::Const || top.op == SymOp::Var || top.op == SymOp::Param) continue;
    for (const int operand : {top.a, top.b})
      if (operand >= 0 && !cached(operand) && seen.insert(operand).second) {
        pending.push_back(operand);
        stack.push_back(operand);
      }
  }
  std::sort(pending.begin(), pending.end());
  for (const int id : pending) derivative(Sym(id, true), var);
  const SymNode n = nodes_[f.id];
  const Sym a(n.a, true), b(n.b, true);
  auto d = [&](const Sym& x) { return derivative(x, var); };
  Sym r;
  switch (n.op) {
    case SymOp::Const:
    case SymOp::Param:
      r = constant(0);
      break;
    case SymOp::Var:
      r = constant(static_cast<int>(n.c) == var ? 1 : 0);
      break;
    case SymOp::Add:
      r = d(a) + d(b);
      break;
    case SymOp::Sub:
      r = d(a) - d(b);
      break;
    case SymOp::Mul:
      r = d(a) * b + a * d(b);
      break;
    case SymOp::Div:
      r = (d(a) - f * d(b)) / b;
      break;  // f = a/b
    case SymOp::Neg:
      r = -d(a);
      break;
    case SymOp::Sin:
      r = cos(a) * d(a);
      break;
    case SymOp::Cos:
      r = -(sin(a) * d(a));
      break;
    case SymOp::Tan:
      r = (1.0 + f * f) * d(a);
      break;
    case SymOp::Exp:
      r = f * d(a);
      break;
    case SymOp::Log:
      r = d(a) / a;
      break;
    case SymOp::Sqrt:
      r = d(a) / (2.0 * f);
      break;
    case SymOp::Pow:
      r = n.c * pow(a, n.c - 1) * d(a);
      break;
    case SymOp::Atan:
      r = d(a) / (1.0 + a * a);
      break;
    case SymOp::Atan2:
      r = (b * d(a) - a * d(b)) / (a * a + b * b);
      break;  // atan2(y = a, x = b)
    default:
      throw std::logic_error("fused operations exist only in compiled programs");
  }
  derivatives_.emplace(key, r.id);
  return r;
}

namespace {
Sym binary(SymOp op, const Sym& a, const Sym& b) { return Tape::current().node(op, a.id, b.id); }
Sym unary(SymOp op, const Sym& a, double c = 0) { return Tape::current().node(op, a.id, -1, c); }
[[noreturn]] void branching() {
  throw TapeError("the function compares recorded values; it cannot be taped");
}
}  // namespace

Sym operator+(const Sym& a, const Sym& b) { return binary(SymOp::Add, a, b); }
Sym operator-(const Sym& a, const Sym& b) { return binary(SymOp::Sub, a, b); }
Sym operator*(const Sym& a, const Sym& b) { return binary(SymOp::Mul, a, b); }
Sym operator/(const Sym& a, const Sym& b) { return binary(SymOp::Div, a, b); }
Sym operator-(const Sym& a) { return unary(SymOp::Neg, a); }
Sym sin(const Sym& x) { return unary(SymOp::Sin, x); }
Sym cos(const Sym& x) { return unary(SymOp::Cos, x); }
Sym tan(const Sym& x) { return unary(SymOp::Tan, x); }
Sym exp(const Sym& x) { return unary(SymOp::Exp, x); }
Sym log(const Sym& x) { return unary(SymOp::Log, x); }
Sym sqrt(const Sym& x) { return unary(SymOp::Sqrt, x); }
Sym pow(const Sym& x, double p) { return unary(SymOp::Pow, x, p); }
Sym atan(const Sym& x) { return unary(SymOp::Atan, x); }
Sym atan2(const Sym& y, const Sym& x) { return binary(SymOp::Atan2, y, x); }
Sym abs(const Sym& x) {
  Tape& tape = Tape::current();
  if (tape.isConstant(x.id)) return tape.constant(std::abs(tape.constantValue(x.id)));
  branching();
}
bool operator<(const Sym& a, const Sym& b) {
  Tape& t = Tape::current();
  if (t.isConstant(a.id) && t.isConstant(b.id))
    return t.constantValue(a.id) < t.constantValue(b.id);
  branching();
}
bool operator>(const Sym& a, const Sym& b) { return b < a; }
bool operator<=(const Sym& a, const Sym& b) { return !(b < a); }
bool operator>=(const Sym& a, const Sym& b) { return !(a < b); }

namespace {
// The registers' updates of `code` in order: the interpreter as a switch, one case per opcode.
template <class Instruction>
void execute(const Instruction* in, const Instruction* const end, double* r) {
  for (; in != end; ++in) {
    const double a = r[in->a];
    double out = 0;
    switch (in->op) {
      case SymOp::Add:
        out = a + r[in->b];
        break;
      case SymOp::Sub:
        out = a - r[in->b];
        break;
      case SymOp::Mul:
        out = a * r[in->b];
        break;
      case SymOp::Div:
        out = a / r[in->b];
        break;
      case SymOp::Neg:
        out = -a;
        break;
      case SymOp::Sin:
        out = std::sin(a);
        break;
      case SymOp::Cos:
        out = std::cos(a);
        break;
      case SymOp::Tan:
        out = std::tan(a);
        break;
      case SymOp::Exp:
        out = std::exp(a);
        break;
      case SymOp::Log:
        out = std::log(a);
        break;
      case SymOp::Sqrt:
        out = std::sqrt(a);
        break;
      case SymOp::Pow:
        out = in->c == 2 ? a * a : std::pow(a, in->c);
        break;
      case SymOp::Atan:
        out = std::atan(a);
        break;
      case SymOp::Atan2:
        out = std::atan2(a, r[in->b]);
        break;
      case SymOp::MulAdd:
        out = a * r[in->b] + r[in->e];
        break;
      case SymOp::MulSub:
        out = a * r[in->b] - r[in->e];
        break;
      case SymOp::SubMul:
        out = r[in->e] - a * r[in->b];
        break;
      default:
        break;
    }
    r[in->dst] = out;
  }
}
}  // namespace

const std::vector<SymProgram::Instruction>& SymProgram::code() const {
  static const std::vector<Instruction> none;
  return codeStore_ ? *codeStore_ : none;
}

SymProgram::SymProgram(const Tape& tape, int variableCount, const std::vector<Sym>& outputs,
                       Execution execution) {
  // Node ids are already in topological order (operands are created first).
  std::vector<char> needed(tape.size(), 0);
  std::vector<int> uses(tape.size(), 0), consumer(tape.size(), -1);
  for (const Sym& s : outputs) {
    needed[s.id] = 1;
    uses[s.id] += 2;  // outputs are never fused away
  }
  auto isLeaf = [&](SymOp op) {
    return op == SymOp::Const || op == SymOp::Var || op == SymOp::Param;
  };
  for (int id = tape.size() - 1; id >= 0; --id) {
    if (!needed[id]) continue;
    const SymNode& n = tape.at(id);
    if (isLeaf(n.op)) continue;
    for (int operand : {n.a, n.b}) {
      if (operand < 0) continue;
      needed[operand] = 1;
      ++uses[operand];
      consumer[operand] = id;
    }
  }
  // A product used once, by a sum or difference, is fused into it (not in the prelude).
  auto fusable = [&](int id) {
    return id >= 0 && tape.at(id).op == SymOp::Mul && uses[id] == 1 && tape.dependsOnVariables(id);
  };
  std::vector<char> fused(tape.size(), 0);
  std::vector<int> reg(tape.size(), -1);
  std::vector<Instruction> code, prelude;
  variableCount_ = variableCount;
  std::vector<double> initial(variableCount, 0.0);  // registers 0..variableCount-1: variables
  for (int id = 0; id < tape.size(); ++id) {
    if (!needed[id]) continue;
    const SymNode& n = tape.at(id);
    if (n.op == SymOp::Var) {
      reg[id] = static_cast<int>(n.c);
      continue;
    }
    if (n.op == SymOp::Mul && fusable(id)) {
      const SymOp user = tape.at(consumer[id]).op;
      if ((user == SymOp::Add || user == SymOp::Sub) &&
          tape.at(consumer[id]).a != tape.at(consumer[id]).b) {
        fused[id] = 1;
        continue;
      }
    }
    reg[id] = static_cast<int>(initial.size());
    initial.push_back(n.op == SymOp::Const ? n.c : 0.0);
    if (n.op == SymOp::Const) continue;
    if (n.op == SymOp::Param) {
      const int index = static_cast<int>(n.c);
      initial.back() = tape.parameterValue(index);
      parameterRegister_.emplace_back(index, reg[id]);
      continue;
    }
    if (!tape.dependsOnVariables(id)) {
      prelude.push_back({n.op, reg[id], reg[n.a], n.b >= 0 ? reg[n.b] : -1, -1, n.c});
      continue;
    }
    if ((n.op == SymOp::Add || n.op == SymOp::Sub) && (fused[n.a] || fused[n.b])) {
      const bool left = fused[n.a];
      const SymNode& product = tape.at(left ? n.a : n.b);
      const int other = reg[left ? n.b : n.a];
      const SymOp op = n.op == SymOp::Add ? SymOp::MulAdd : (left ? SymOp::MulSub : SymOp::SubMul);
      if (fused[n.a] && fused[n.b]) {  // both products fused: materialise the right one
        const SymNode& right = tape.at(n.b);
        const int tmp = static_cast<int>(initial.size());
        initial.push_back(0.0);
        code.push_back({SymOp::Mul, tmp, reg[right.a], reg[right.b], -1, 0});
        const SymNode& lp = tape.at(n.a);
        code.push_back({n.op == SymOp::Add ? SymOp::MulAdd : SymOp::MulSub, reg[id], reg[lp.a],
                        reg[lp.b], tmp, 0});
      } else {
        code.push_back({op, reg[id], reg[product.a], reg[product.b], other, 0});
      }
      continue;
    }
    code.push_back({n.op, reg[id], reg[n.a], n.b >= 0 ? reg[n.b] : -1, -1, n.c});
  }
  execute(prelude.data(), prelude.data() + prelude.size(), initial.data());
  initialRegisters_ = std::move(initial);
  codeStore_ = std::make_shared<const std::vector<Instruction>>(std::move(code));
  if (!prelude.empty())
    prelude_ = std::make_shared<const std::vector<Instruction>>(std::move(prelude));
  for (const Sym& s : outputs) {
    outputRegister_.push_back(reg[s.id]);
    outputConstant_.push_back(!tape.dependsOnVariables(s.id));
  }
  if (execution == Execution::Native && nativeCodeEnabled()) compileNative();
}

SymProgram SymProgram::withParameters(const double* values, int count) const {
  SymProgram copy = *this;
  for (const auto& [index, r] : parameterRegister_)
    if (index < count) copy.initialRegisters_[r] = values[index];
  if (prelude_)
    execute(prelude_->data(), prelude_->data() + prelude_->size(), copy.initialRegisters_.data());
  return copy;
}

SymProgram SymProgram::withExecution(Execution execution) const {
  SymProgram copy = *this;
  copy.native_.reset();
  if (execution == Execution::Native) copy.compileNative();
  return copy;
}

void SymProgram::interpretFrom(double* registers, double first, const double* rest) const {
  if (variableCount_ > 0) {
    registers[0] = first;
    if (registers + 1 != rest) std::copy(rest, rest + variableCount_ - 1, registers + 1);
  }
  interpret(registers);
}

void SymProgram::interpret(double* registers) const {
#if defined(__GNUC__)
  double* const r = registers;
  const std::vector<Instruction>& code = this->code();
  const Instruction* in = code.data();
  const Instruction* const end = in + code.size();
  // Direct threading (GNU labels as values): one indirect jump per instruction instead of
  // a bounds-checked switch; the interpreter loop is the whole cost of a taped RHS.
  static const void* const labels[] = {&&done, &&done,  &&add,    &&sub,    &&mul,   &&div,  &&neg,
                                       &&sin,  &&cos,   &&tan,    &&exp,    &&log,   &&sqrt, &&pow,
                                       &&atan, &&atan2, &&muladd, &&mulsub, &&submul};
#define NH_NEXT                             \
  do {                                      \
    if (++in == end) return;                \
    goto* labels[static_cast<int>(in->op)]; \
  } while (0)
  if (in == end) return;
  goto* labels[static_cast<int>(in->op)];
add:
  r[in->dst] = r[in->a] + r[in->b];
  NH_NEXT;
sub:
  r[in->dst] = r[in->a] - r[in->b];
  NH_NEXT;
mul:
  r[in->dst] = r[in->a] * r[in->b];
  NH_NEXT;
div:
  r[in->dst] = r[in->a] / r[in->b];
  NH_NEXT;
neg:
  r[in->dst] = -r[in->a];
  NH_NEXT;
sin:
  r[in->dst] = std::sin(r[in->a]);
  NH_NEXT;
cos:
  r[in->dst] = std::cos(r[in->a]);
  NH_NEXT;
tan:
  r[in->dst] = std::tan(r[in->a]);
  NH_NEXT;
exp:
  r[in->dst] = std::exp(r[in->a]);
  NH_NEXT;
log:
  r[in->dst] = std::log(r[in->a]);
  NH_NEXT;
sqrt:
  r[in->dst] = std::sqrt(r[in->a]);
  NH_NEXT;
pow:
  r[in->dst] = in->c == 2 ? r[in->a] * r[in->a] : std::pow(r[in->a], in->c);
  NH_NEXT;
atan:
  r[in->dst] = std::atan(r[in->a]);
  NH_NEXT;
atan2:
  r[in->dst] = std::atan2(r[in->a], r[in->b]);
  NH_NEXT;
muladd:
  r[in->dst] = r[in->a] * r[in->b] + r[in->e];
  NH_NEXT;
mulsub:
  r[in->dst] = r[in->a] * r[in->b] - r[in->e];
  NH_NEXT;
submul:
  r[in->dst] = r[in->e] - r[in->a] * r[in->b];
  NH_NEXT;
done:
  return;
#undef NH_NEXT
#else
  interpretBySwitch(registers);
#endif
}

// The interpreter where labels as values are not available: a switch, one case per opcode.
void SymProgram::interpretBySwitch(double* registers) const {
  const std::vector<Instruction>& code = this->code();
  execute(code.data(), code.data() + code.size(), registers);
}

}  // namespace nh

namespace nh {
std::string SymProgram::listing() const {
  static const char* names[] = {"const", "var",   "add",    "sub",    "mul",   "div",  "neg",
                                "sin",   "cos",   "tan",    "exp",    "log",   "sqrt", "pow",
                                "atan",  "atan2", "muladd", "mulsub", "submul"};
  std::ostringstream out;
  if (prelude_)
    for (const Instruction& in : *prelude_)
      out << 'r' << in.dst << " = " << names[static_cast<int>(in.op)] << " r" << in.a
          << (in.b >= 0 ? " r" + std::to_string(in.b) : std::string()) << "  (per parameter set)\n";
  for (const Instruction& in : code()) {
    out << 'r' << in.dst << " = " << names[static_cast<int>(in.op)] << " r" << in.a;
    if (in.b >= 0) out << " r" << in.b;
    if (in.e >= 0) out << " r" << in.e;
    out << '\n';
  }
  for (size_t i = 0; i < outputRegister_.size(); ++i)
    out << "out" << i << " = r" << outputRegister_[i] << '\n';
  return out.str();
}
}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
