#include "nh/symbolic.h"

#include <cmath>
#include <functional>

namespace nh {

namespace {
thread_local Tape* currentTape = nullptr;

bool commutative(SymOp op) { return op == SymOp::Add || op == SymOp::Mul; }

double apply(SymOp op, double a, double b, double c) {
  switch (op) {
    case SymOp::Add: return a + b;
    case SymOp::Sub: return a - b;
    case SymOp::Mul: return a * b;
    case SymOp::Div: return a / b;
    case SymOp::Neg: return -a;
    case SymOp::Sin: return std::sin(a);
    case SymOp::Cos: return std::cos(a);
    case SymOp::Tan: return std::tan(a);
    case SymOp::Exp: return std::exp(a);
    case SymOp::Log: return std::log(a);
    case SymOp::Sqrt: return std::sqrt(a);
    case SymOp::Pow: return std::pow(a, c);
    case SymOp::Atan: return std::atan(a);
    case SymOp::Atan2: return std::atan2(a, b);
    default: return 0;
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

Sym Tape::node(SymOp op, int a, int b, double c) {
  if (op != SymOp::Const && op != SymOp::Var) {
    const bool ca = a >= 0 && isConstant(a), cb = b < 0 || isConstant(b);
    if (ca && cb) return constant(apply(op, constantValue(a), b >= 0 ? constantValue(b) : 0, c));
    auto is = [&](int id, double v) { return id >= 0 && isConstant(id) && constantValue(id) == v; };
    switch (op) {
      case SymOp::Add:
        if (is(a, 0)) return Sym(b, true);
        if (is(b, 0)) return Sym(a, true);
        break;
      case SymOp::Sub:
        if (is(b, 0)) return Sym(a, true);
        if (a == b) return constant(0);
        if (is(a, 0)) return node(SymOp::Neg, b);
        break;
      case SymOp::Mul:
        if (is(a, 0) || is(b, 0)) return constant(0);
        if (is(a, 1)) return Sym(b, true);
        if (is(b, 1)) return Sym(a, true);
        if (is(a, -1)) return node(SymOp::Neg, b);
        if (is(b, -1)) return node(SymOp::Neg, a);
        break;
      case SymOp::Div:
        if (is(a, 0)) return constant(0);
        if (is(b, 1)) return Sym(a, true);
        break;
      case SymOp::Neg:
        if (nodes_[a].op == SymOp::Neg) return Sym(nodes_[a].a, true);
        break;
      case SymOp::Pow:
        if (c == 0) return constant(1);
        if (c == 1) return Sym(a, true);
        break;
      default: break;
    }
    if (commutative(op) && a > b) std::swap(a, b);
  }
  const Key key{op, a, b, c};
  if (const auto it = index_.find(key); it != index_.end()) return Sym(it->second, true);
  nodes_.push_back({op, a, b, c});
  const int id = static_cast<int>(nodes_.size()) - 1;
  index_.emplace(key, id);
  return Sym(id, true);
}

Sym Tape::derivative(Sym f, int var) {
  const long long key = (static_cast<long long>(f.id) << 20) | var;
  if (const auto it = derivatives_.find(key); it != derivatives_.end()) return Sym(it->second, true);
  const SymNode n = nodes_[f.id];
  const Sym a(n.a, true), b(n.b, true);
  auto d = [&](const Sym& x) { return derivative(x, var); };
  Sym r;
  switch (n.op) {
    case SymOp::Const: r = constant(0); break;
    case SymOp::Var: r = constant(static_cast<int>(n.c) == var ? 1 : 0); break;
    case SymOp::Add: r = d(a) + d(b); break;
    case SymOp::Sub: r = d(a) - d(b); break;
    case SymOp::Mul: r = d(a) * b + a * d(b); break;
    case SymOp::Div: r = (d(a) - f * d(b)) / b; break;  // f = a/b
    case SymOp::Neg: r = -d(a); break;
    case SymOp::Sin: r = cos(a) * d(a); break;
    case SymOp::Cos: r = -(sin(a) * d(a)); break;
    case SymOp::Tan: r = (1.0 + f * f) * d(a); break;
    case SymOp::Exp: r = f * d(a); break;
    case SymOp::Log: r = d(a) / a; break;
    case SymOp::Sqrt: r = d(a) / (2.0 * f); break;
    case SymOp::Pow: r = n.c * pow(a, n.c - 1) * d(a); break;
    case SymOp::Atan: r = d(a) / (1.0 + a * a); break;
    case SymOp::Atan2: r = (b * d(a) - a * d(b)) / (a * a + b * b); break;  // atan2(y = a, x = b)
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
  if (t.isConstant(a.id) && t.isConstant(b.id)) return t.constantValue(a.id) < t.constantValue(b.id);
  branching();
}
bool operator>(const Sym& a, const Sym& b) { return b < a; }
bool operator<=(const Sym& a, const Sym& b) { return !(b < a); }
bool operator>=(const Sym& a, const Sym& b) { return !(a < b); }

SymProgram::SymProgram(const Tape& tape, int variableCount, const std::vector<Sym>& outputs) {
  // Node ids are already in topological order (operands are created first).
  std::vector<char> needed(tape.size(), 0);
  for (const Sym& s : outputs) needed[s.id] = 1;
  for (int id = tape.size() - 1; id >= 0; --id) {
    if (!needed[id]) continue;
    const SymNode& n = tape.at(id);
    if (n.a >= 0) needed[n.a] = 1;
    if (n.b >= 0) needed[n.b] = 1;
  }
  std::vector<int> reg(tape.size(), -1);
  variableRegister_.assign(variableCount, -1);
  std::vector<double> initial;
  for (int id = 0; id < tape.size(); ++id) {
    if (!needed[id]) continue;
    const SymNode& n = tape.at(id);
    reg[id] = static_cast<int>(initial.size());
    initial.push_back(n.op == SymOp::Const ? n.c : 0.0);
    if (n.op == SymOp::Var) {
      variableRegister_.at(static_cast<int>(n.c)) = reg[id];
    } else if (n.op != SymOp::Const) {
      code_.push_back({n.op, reg[id], reg[n.a], n.b >= 0 ? reg[n.b] : -1, n.c});
    }
  }
  registers_ = initial;
  for (const Sym& s : outputs) {
    outputRegister_.push_back(reg[s.id]);
    outputConstant_.push_back(tape.isConstant(s.id));
  }
}

void SymProgram::run(const double* variables) const {
  double* r = registers_.data();
  for (size_t v = 0; v < variableRegister_.size(); ++v)
    if (variableRegister_[v] >= 0) r[variableRegister_[v]] = variables[v];
  for (const Instruction& in : code_) {
    const double a = r[in.a];
    double out;
    switch (in.op) {
      case SymOp::Add: out = a + r[in.b]; break;
      case SymOp::Sub: out = a - r[in.b]; break;
      case SymOp::Mul: out = a * r[in.b]; break;
      case SymOp::Div: out = a / r[in.b]; break;
      case SymOp::Neg: out = -a; break;
      case SymOp::Sin: out = std::sin(a); break;
      case SymOp::Cos: out = std::cos(a); break;
      case SymOp::Tan: out = std::tan(a); break;
      case SymOp::Exp: out = std::exp(a); break;
      case SymOp::Log: out = std::log(a); break;
      case SymOp::Sqrt: out = std::sqrt(a); break;
      case SymOp::Pow: out = in.c == 2 ? a * a : std::pow(a, in.c); break;
      case SymOp::Atan: out = std::atan(a); break;
      case SymOp::Atan2: out = std::atan2(a, r[in.b]); break;
      default: out = 0; break;
    }
    r[in.dst] = out;
  }
}

}  // namespace nh
