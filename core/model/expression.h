// Expressions of model files (docs/model-format.md): parsed with Boost.Spirit X3 into a
// postfix program of model_data.h's nodes, and evaluated over any scalar of the engine
// (double, the jets, the recording scalar Sym).
#pragma once

#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "core/model/model_data.h"

namespace nh::model {

// A problem at a place in an expression's text (offset in characters from its start).
class ExpressionError : public std::runtime_error {
 public:
  ExpressionError(int offset, const std::string& message)
      : std::runtime_error(message), offset_(offset) {}
  int offset() const { return offset_; }

 private:
  int offset_;
};

// Resolves a name to a slot index, or returns -1 when the name is unknown. `known` lists
// the names allowed at that place, for the message.
struct NameResolver {
  std::function<int(const std::string&)> slotOf;
  std::function<std::string()> known;
};

// How deeply an expression may nest: parentheses, function calls, unary signs and the
// operands of ^ each open a level. Deeper expressions are refused at the place where they
// pass the limit (the parser and every later pass — taping, GiNaC, printing — recurse by
// nesting level, so a bound here keeps them all within the stack).
inline constexpr int kMaxExpressionNesting = 100;

// Parses `text`; throws ExpressionError for a syntax error, an unknown name or function, a
// function called with the wrong number of arguments, a number out of the range of a double
// or an expression nested deeper than kMaxExpressionNesting.
Expression parseExpression(const std::string& text, const NameResolver& names);

// How deeply `e` nests as a tree once sums and products are flattened, as GiNaC holds it
// (a + b + c is one level above its terms, however many). `slotDepth(slot)` is the depth of
// what a slot stands for (a definition written out; 1 for a plain value).
int treeDepth(const Expression& e, const std::function<int(int)>& slotDepth);

// The slots an expression reads (sorted, unique).
std::vector<int> slotsUsed(const Expression& e);

// How many of the first definitions an expression needs: one past the highest it reads
// (0: none).
int definitionsRead(const SlotLayout& layout, const Expression& e);

// The functions the format allows, and their argument counts.
const std::vector<std::pair<std::string, int>>& allowedFunctions();

// ---- Evaluation -------------------------------------------------------------------------

namespace detail {
template <class S>
S asin(const S& x) {
  if constexpr (std::is_same_v<S, double>) {
    return std::asin(x);
  } else {
    using std::atan2, std::sqrt;
    return atan2(x, sqrt(1.0 - x * x));
  }
}
template <class S>
S acos(const S& x) {
  if constexpr (std::is_same_v<S, double>) {
    return std::acos(x);
  } else {
    using std::atan2, std::sqrt;
    return atan2(sqrt(1.0 - x * x), x);
  }
}
template <class S>
S sinh(const S& x) {
  if constexpr (std::is_same_v<S, double>) {
    return std::sinh(x);
  } else {
    using std::exp;
    return 0.5 * (exp(x) - exp(-x));
  }
}
template <class S>
S cosh(const S& x) {
  if constexpr (std::is_same_v<S, double>) {
    return std::cosh(x);
  } else {
    using std::exp;
    return 0.5 * (exp(x) + exp(-x));
  }
}
template <class S>
S tanh(const S& x) {
  if constexpr (std::is_same_v<S, double>) {
    return std::tanh(x);
  } else {
    using std::exp;
    return 1.0 - 2.0 / (exp(2.0 * x) + 1.0);
  }
}
template <class S>
S power(const S& x, const S& e, const Node& exponentNode) {
  using std::exp, std::log, std::pow, std::sqrt;
  if (exponentNode.op == Op::Number) {
    const double c = exponentNode.value;
    if (c == 1) return x;
    if (c == 2) return x * x;
    if (c == -1) return 1.0 / x;
    if (c == 0.5) return sqrt(x);
    return pow(x, c);
  }
  if constexpr (std::is_same_v<S, double>) return std::pow(x, e);
  return exp(e * log(x));
}
}  // namespace detail

// Evaluates `e` reading slots from `env`; `values` is scratch of at least e.nodes.size().
template <class S>
S evaluate(const Expression& e, const S* env, S* values) {
  using std::sin, std::cos, std::tan, std::atan, std::atan2, std::exp, std::log, std::sqrt,
      std::abs;
  const std::vector<Node>& nodes = e.nodes;
  for (size_t i = 0; i < nodes.size(); ++i) {
    const Node& n = nodes[i];
    S& r = values[i];
    switch (n.op) {
      case Op::Number:
        r = S(n.value);
        break;
      case Op::Slot:
        r = env[n.slot];
        break;
      case Op::Neg:
        r = -values[n.a];
        break;
      case Op::Add:
        r = values[n.a] + values[n.b];
        break;
      case Op::Sub:
        r = values[n.a] - values[n.b];
        break;
      case Op::Mul:
        r = values[n.a] * values[n.b];
        break;
      case Op::Div:
        r = values[n.a] / values[n.b];
        break;
      case Op::Pow:
        r = detail::power(values[n.a], values[n.b], nodes[n.b]);
        break;
      case Op::Sin:
        r = sin(values[n.a]);
        break;
      case Op::Cos:
        r = cos(values[n.a]);
        break;
      case Op::Tan:
        r = tan(values[n.a]);
        break;
      case Op::Asin:
        r = detail::asin(values[n.a]);
        break;
      case Op::Acos:
        r = detail::acos(values[n.a]);
        break;
      case Op::Atan:
        r = atan(values[n.a]);
        break;
      case Op::Atan2:
        r = atan2(values[n.a], values[n.b]);
        break;
      case Op::Sinh:
        r = detail::sinh(values[n.a]);
        break;
      case Op::Cosh:
        r = detail::cosh(values[n.a]);
        break;
      case Op::Tanh:
        r = detail::tanh(values[n.a]);
        break;
      case Op::Exp:
        r = exp(values[n.a]);
        break;
      case Op::Log:
        r = log(values[n.a]);
        break;
      case Op::Sqrt:
        r = sqrt(values[n.a]);
        break;
      case Op::Abs:
        r = abs(values[n.a]);
        break;
    }
  }
  return values[nodes.size() - 1];
}

}  // namespace nh::model
// SPDX-License-Identifier: GPL-3.0-or-later
