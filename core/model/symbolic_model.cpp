#include "core/model/symbolic_model.h"

#include <cmath>
#include <stdexcept>
#include <string_view>

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
  for (int s = 0; s < data.layout.size(); ++s) {
    const std::string& name = data.slotNames[s];
    table.bySlot.emplace_back(name, latexName(name));
  }
  for (const Expression& d : data.definitions) table.definitions.push_back(toGinac(d, table));
  return table;
}

GiNaC::ex toGinac(const Expression& expression, const SymbolTable& symbols) {
  std::vector<GiNaC::ex> v;
  v.reserve(expression.nodes.size());
  for (const Node& n : expression.nodes) {
    switch (n.op) {
      case Op::Number:
        v.push_back(exactNumber(n.value));
        break;
      case Op::Slot: {
        // Definitions are inlined (the table holds the ones converted so far).
        const int d = n.slot - symbols.firstDefinition;
        if (d >= 0 && d < static_cast<int>(symbols.definitions.size()))
          v.push_back(symbols.definitions[d]);
        else
          v.push_back(symbols.bySlot.at(n.slot));
        break;
      }
      case Op::Neg:
        v.push_back(-v[n.a]);
        break;
      case Op::Add:
        v.push_back(v[n.a] + v[n.b]);
        break;
      case Op::Sub:
        v.push_back(v[n.a] - v[n.b]);
        break;
      case Op::Mul:
        v.push_back(v[n.a] * v[n.b]);
        break;
      case Op::Div:
        v.push_back(v[n.a] / v[n.b]);
        break;
      case Op::Pow:
        v.push_back(GiNaC::pow(v[n.a], v[n.b]));
        break;
      case Op::Sin:
        v.push_back(GiNaC::sin(v[n.a]));
        break;
      case Op::Cos:
        v.push_back(GiNaC::cos(v[n.a]));
        break;
      case Op::Tan:
        v.push_back(GiNaC::tan(v[n.a]));
        break;
      case Op::Asin:
        v.push_back(GiNaC::asin(v[n.a]));
        break;
      case Op::Acos:
        v.push_back(GiNaC::acos(v[n.a]));
        break;
      case Op::Atan:
        v.push_back(GiNaC::atan(v[n.a]));
        break;
      case Op::Atan2:
        v.push_back(GiNaC::atan2(v[n.a], v[n.b]));
        break;
      case Op::Sinh:
        v.push_back(GiNaC::sinh(v[n.a]));
        break;
      case Op::Cosh:
        v.push_back(GiNaC::cosh(v[n.a]));
        break;
      case Op::Tanh:
        v.push_back(GiNaC::tanh(v[n.a]));
        break;
      case Op::Exp:
        v.push_back(GiNaC::exp(v[n.a]));
        break;
      case Op::Log:
        v.push_back(GiNaC::log(v[n.a]));
        break;
      case Op::Sqrt:
        v.push_back(GiNaC::sqrt(v[n.a]));
        break;
      case Op::Abs:
        v.push_back(GiNaC::abs(v[n.a]));
        break;
    }
  }
  return v.empty() ? GiNaC::ex(0) : v.back();
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
