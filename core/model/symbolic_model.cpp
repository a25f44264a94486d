// Model expressions to GiNaC and back (symbolic_model.h): the symbols of a model's names (with
// LaTeX names, Greek letters spelled out), the one lock GiNaC is used under, and the
// conversion each way with the file's positions kept for messages.
#include "core/model/symbolic_model.h"

#include <cmath>
#include <stdexcept>
#include <string_view>

#include "core/model/model_file.h"

namespace nh::model {
namespace {

constexpr std::string_view kGreek[] = {
    "alpha", "beta",     "gamma", "delta", "epsilon", "varepsilon", "zeta",   "eta",
    "theta", "vartheta", "iota",  "kappa", "lambda",  "mu",         "nu",     "xi",
    "pi",    "rho",      "sigma", "tau",   "upsilon", "phi",        "varphi", "chi",
    "psi",   "omega",    "Gamma", "Delta", "Theta",   "Lambda",     "Xi",     "Pi",
    "Sigma", "Upsilon",  "Phi",   "Psi",   "Omega"};

bool isGreek(std::string_view s) {
  for (auto g : kGreek)
    if (g == s) return true;
  return false;
}

// A double as an exact GiNaC number: a decimal with few digits becomes that rational
// (0.4 → 2/5), anything else the double's exact binary value.
GiNaC::ex exactNumber(double v) {
  if (std::isfinite(v)) {
    double scale = 1;
    for (int k = 0; k <= 9; ++k, scale *= 10) {
      const double n = std::round(v * scale);
      if (std::abs(n) < 9.0e15 && n / scale == v)
        return GiNaC::numeric(static_cast<long>(n)) / GiNaC::numeric(static_cast<long>(scale));
    }
  }
  return GiNaC::numeric(v);
}

}  // namespace

std::recursive_mutex& ginacMutex() {
  static std::recursive_mutex mutex;
  return mutex;
}

std::string latexName(const std::string& name) {
  // Split "base_sub" or "baseDIGITS".
  std::string base = name, sub;
  if (const auto u = name.find('_'); u != std::string::npos && u > 0) {
    base = name.substr(0, u);
    sub = name.substr(u + 1);
  } else {
    size_t d = name.size();
    while (d > 1 && std::isdigit(static_cast<unsigned char>(name[d - 1]))) --d;
    if (d < name.size()) {
      base = name.substr(0, d);
      sub = name.substr(d);
    }
  }
  std::string out;
  if (isGreek(base))
    out = "\\" + base;
  else if (base.size() > 1)
    out = "\\mathrm{" + base + "}";
  else
    out = base;
  if (!sub.empty()) {
    const bool greekSub = isGreek(sub);
    out += "_{" + (greekSub ? "\\" + sub : (sub.size() > 1 ? "\\mathrm{" + sub + "}" : sub)) + "}";
  }
  return out;
}

SymbolTable makeSymbols(const ModelData& data) {
  SymbolTable table;
  table.bySlot.reserve(data.layout.size());
  table.firstDefinition = data.layout.definition(0);
  table.fileName = data.fileName;
  for (int s = 0; s < data.layout.size(); ++s) {
    const std::string& name = data.slotNames[s];
    table.bySlot.emplace_back(name, latexName(name));
  }
  for (const Expression& d : data.definitions) table.definitions.push_back(toGinac(d, table));
  return table;
}

namespace {

// Where character `offset` of an expression's text sits in its file (the column is exact on
// the expression's first line).
SourcePosition placeIn(const Expression& e, int offset) {
  SourcePosition p = e.where;
  if (p.line <= 0) return p;
  for (int i = 0; i < offset && i < static_cast<int>(e.text.size()); ++i) {
    if (e.text[i] == '\n') {
      ++p.line;
      p.column = 1;
    } else if ((static_cast<unsigned char>(e.text[i]) & 0xC0) != 0x80) {
      ++p.column;
    }
  }
  return p;
}

// GiNaC's message without the function that threw it: "log_eval(): log(0)" → "log(0)".
std::string withoutThrower(const std::string& what) {
  const auto at = what.find("(): ");
  return at == std::string::npos ? what : what.substr(at + 4);
}

// A model function of one argument applied in GiNaC.
GiNaC::ex applyFunction(Op op, const GiNaC::ex& x) {
  switch (op) {
    case Op::Sin:
      return GiNaC::sin(x);
    case Op::Cos:
      return GiNaC::cos(x);
    case Op::Tan:
      return GiNaC::tan(x);
    case Op::Asin:
      return GiNaC::asin(x);
    case Op::Acos:
      return GiNaC::acos(x);
    case Op::Atan:
      return GiNaC::atan(x);
    case Op::Sinh:
      return GiNaC::sinh(x);
    case Op::Cosh:
      return GiNaC::cosh(x);
    case Op::Tanh:
      return GiNaC::tanh(x);
    case Op::Exp:
      return GiNaC::exp(x);
    case Op::Log:
      return GiNaC::log(x);
    case Op::Sqrt:
      return GiNaC::sqrt(x);
    case Op::Abs:
      return GiNaC::abs(x);
    default:
      throw std::logic_error("toGinac: not a function of one argument");
  }
}

// Converts a parsed expression node by node. A node's value may be a sum or product still
// being collected: each node of a parsed expression is read once, so a chain a + b + c + …
// grows one vector in place.
class GinacBuilder {
 public:
  GinacBuilder(const Expression& expression, const SymbolTable& symbols)
      : expression_(expression),
        symbols_(symbols),
        nodes_(expression.nodes),
        uses_(nodes_.size(), 0),
        values_(nodes_.size()) {
    for (const Node& n : nodes_) {
      if (n.a >= 0) ++uses_[n.a];
      if (n.b >= 0) ++uses_[n.b];
    }
  }

  GiNaC::ex build() {
    for (size_t i = 0; i < nodes_.size(); ++i) {
      const Node& n = nodes_[i];
      try {
        convert(n, values_[i]);
        if (i + 1 == nodes_.size()) value(static_cast<int>(i));
      } catch (const ModelError&) {
        throw;
      } catch (const std::exception& e) {  // GiNaC: a pole or a division by zero
        // A quotient is placed at its divisor, anything else where it starts.
        const SourcePosition p =
            placeIn(expression_, n.op == Op::Div ? nodes_[n.b].offset : n.offset);
        throw ModelError(symbols_.fileName, expression_.key, p.line, p.column,
                         "undefined: " + withoutThrower(e.what()) +
                             " (every part of an expression must be finite for the symbolic "
                             "derivations)");
      }
    }
    return values_.empty() ? GiNaC::ex(0) : values_.back().e;
  }

 private:
  struct Value {
    GiNaC::ex e;
    GiNaC::exvector terms;    // a pending sum (when non-empty)
    GiNaC::exvector factors;  // a pending product (when non-empty)
  };

  const Expression& expression_;
  const SymbolTable& symbols_;
  const std::vector<Node>& nodes_;
  std::vector<int> uses_;  // how many nodes read each node
  std::vector<Value> values_;

  // Node i's value, a pending sum or product built first.
  const GiNaC::ex& value(int i) {
    Value& x = values_[i];
    if (!x.terms.empty()) {
      x.e = GiNaC::add(std::move(x.terms));
      x.terms.clear();
    } else if (!x.factors.empty()) {
      x.e = GiNaC::mul(std::move(x.factors));
      x.factors.clear();
    }
    return x.e;
  }

  // The pending sum (product) of operand i, taken over when i is read only here.
  GiNaC::exvector pending(int i, bool sum) {
    GiNaC::exvector out;
    Value& x = values_[i];
    GiNaC::exvector& list = sum ? x.terms : x.factors;
    if (uses_[i] == 1 && !list.empty()) {
      out = std::move(list);
      list.clear();
    } else {
      out.push_back(value(i));
    }
    return out;
  }

  void convert(const Node& n, Value& r) {
    switch (n.op) {
      case Op::Number:
        r.e = exactNumber(n.value);
        break;
      case Op::Slot: {
        // Definitions are inlined (the table holds the ones converted so far).
        const int d = n.slot - symbols_.firstDefinition;
        if (d >= 0 && d < static_cast<int>(symbols_.definitions.size()))
          r.e = symbols_.definitions[d];
        else
          r.e = symbols_.bySlot.at(n.slot);
        break;
      }
      case Op::Neg:
        r.e = -value(n.a);
        break;
      case Op::Add:
      case Op::Sub: {
        GiNaC::exvector terms = pending(n.a, true);
        terms.push_back(n.op == Op::Add ? value(n.b) : -value(n.b));
        r.terms = std::move(terms);
        break;
      }
      case Op::Mul:
      case Op::Div: {
        GiNaC::exvector factors = pending(n.a, false);
        factors.push_back(n.op == Op::Mul ? value(n.b) : GiNaC::pow(value(n.b), -1));
        r.factors = std::move(factors);
        break;
      }
      case Op::Pow: {
        const GiNaC::ex& base = value(n.a);
        const GiNaC::ex& exponent = value(n.b);
        r.e = power(base, exponent);
        break;
      }
      case Op::Atan2:
        r.e = GiNaC::atan2(value(n.a), value(n.b));
        break;
      default:
        r.e = applyFunction(n.op, value(n.a));
        break;
    }
  }

  // A number to a large power in double precision, as the file's evaluation computes it:
  // 9^9^9 exactly would take hundreds of megabytes, and 9^9^9^10 even in CLN's floating
  // point more than any machine has. A value beyond the doubles is undefined (thrown).
  static GiNaC::ex power(const GiNaC::ex& base, const GiNaC::ex& exponent) {
    const bool huge = GiNaC::is_a<GiNaC::numeric>(base) && GiNaC::is_a<GiNaC::numeric>(exponent) &&
                      GiNaC::abs(GiNaC::ex_to<GiNaC::numeric>(exponent)) > 1024;
    if (!huge) return GiNaC::pow(base, exponent);
    const GiNaC::numeric& b = GiNaC::ex_to<GiNaC::numeric>(base);
    const GiNaC::numeric& x = GiNaC::ex_to<GiNaC::numeric>(exponent);
    const double v = b.is_real() && x.is_real() ? std::pow(b.to_double(), x.to_double()) : NAN;
    if (!std::isfinite(v)) throw std::overflow_error("a power beyond the range of numbers");
    return GiNaC::numeric(v);
  }
};

}  // namespace

GiNaC::ex toGinac(const Expression& expression, const SymbolTable& symbols) {
  return GinacBuilder(expression, symbols).build();
}

namespace {

struct FromGinac {
  const SymbolTable& symbols;
  const SlotLayout& layout;
  Expression out;

  int push(Node n) {
    out.nodes.push_back(n);
    return static_cast<int>(out.nodes.size()) - 1;
  }
  int number(double v) {
    Node n;
    n.op = Op::Number;
    n.value = v;
    return push(n);
  }
  int unary(Op op, int a) {
    Node n;
    n.op = op;
    n.a = a;
    return push(n);
  }
  int binary(Op op, int a, int b) {
    Node n;
    n.op = op;
    n.a = a;
    n.b = b;
    return push(n);
  }
  int numeric(const GiNaC::numeric& x) {
    if (!x.is_real()) throw std::invalid_argument("a complex number");
    if (x.is_rational() && !x.is_integer()) {
      // p/q evaluated in double: the correctly rounded value, as the file's decimal was.
      const int p = number(x.numer().to_double());
      const int q = number(x.denom().to_double());
      return binary(Op::Div, p, q);
    }
    return number(x.to_double());
  }
  int convert(const GiNaC::ex& e) {
    using namespace GiNaC;
    if (is_a<GiNaC::numeric>(e)) return numeric(ex_to<GiNaC::numeric>(e));
    if (is_a<symbol>(e)) {
      for (int s = 0; s < static_cast<int>(symbols.bySlot.size()); ++s)
        if (e.is_equal(symbols.bySlot[s])) {
          Node n;
          n.op = Op::Slot;
          n.slot = s;
          return push(n);
        }
      throw std::invalid_argument("an unknown symbol " + ex_to<symbol>(e).get_name());
    }
    if (is_a<constant>(e)) {
      if (e.is_equal(Pi)) return number(M_PI);
      return number(ex_to<GiNaC::numeric>(e.evalf()).to_double());
    }
    if (is_a<add>(e)) {
      int r = convert(e.op(0));
      for (size_t i = 1; i < e.nops(); ++i) r = binary(Op::Add, r, convert(e.op(i)));
      return r;
    }
    if (is_a<mul>(e)) {
      // Factors with negative integer exponents go to a denominator.
      int num = -1, den = -1;
      for (size_t i = 0; i < e.nops(); ++i) {
        const ex f = e.op(i);
        if (is_a<GiNaC::power>(f) && is_a<GiNaC::numeric>(f.op(1)) &&
            ex_to<GiNaC::numeric>(f.op(1)).is_negative() &&
            ex_to<GiNaC::numeric>(f.op(1)).is_integer()) {
          const int d = convert(GiNaC::pow(f.op(0), -f.op(1)));
          den = den < 0 ? d : binary(Op::Mul, den, d);
        } else {
          const int c = convert(f);
          num = num < 0 ? c : binary(Op::Mul, num, c);
        }
      }
      if (num < 0) num = number(1);
      return den < 0 ? num : binary(Op::Div, num, den);
    }
    if (is_a<GiNaC::power>(e)) {
      const ex b = e.op(0), x = e.op(1);
      if (x.is_equal(GiNaC::numeric(1, 2))) return unary(Op::Sqrt, convert(b));
      if (x.is_equal(GiNaC::numeric(-1, 2)))
        return binary(Op::Div, number(1), unary(Op::Sqrt, convert(b)));
      if (is_a<GiNaC::numeric>(x) && ex_to<GiNaC::numeric>(x).is_integer() &&
          ex_to<GiNaC::numeric>(x).is_negative())
        return binary(Op::Div, number(1), convert(GiNaC::pow(b, -x)));
      const int base = convert(b);
      int exponent;
      if (is_a<GiNaC::numeric>(x))
        exponent = number(ex_to<GiNaC::numeric>(x).to_double());  // a Number node: pow(x, c)
      else
        exponent = convert(x);
      return binary(Op::Pow, base, exponent);
    }
    if (is_a<function>(e)) {
      const std::string name = ex_to<function>(e).get_name();
      static const std::pair<const char*, Op> kUnary[] = {
          {"sin", Op::Sin},   {"cos", Op::Cos},   {"tan", Op::Tan},   {"asin", Op::Asin},
          {"acos", Op::Acos}, {"atan", Op::Atan}, {"sinh", Op::Sinh}, {"cosh", Op::Cosh},
          {"tanh", Op::Tanh}, {"exp", Op::Exp},   {"log", Op::Log},   {"abs", Op::Abs}};
      for (const auto& [fname, op] : kUnary)
        if (name == fname) return unary(op, convert(e.op(0)));
      if (name == "atan2") return binary(Op::Atan2, convert(e.op(0)), convert(e.op(1)));
      throw std::invalid_argument("the function " + name);
    }
    throw std::invalid_argument("an expression of an unsupported kind");
  }
};

}  // namespace

Expression fromGinac(const GiNaC::ex& e, const SymbolTable& symbols, const SlotLayout& layout) {
  FromGinac f{symbols, layout, {}};
  f.convert(e);
  return std::move(f.out);
}

}  // namespace nh::model
// SPDX-License-Identifier: GPL-3.0-or-later
