// Model-file expressions (expression.h): the Boost.Spirit X3 grammar, the table of functions
// a file may call (kFunctions), names resolved after the parse so that an unknown one is
// reported at its place, and what an expression reads (slots, definitions, depth).
#include "core/model/expression.h"

#include <algorithm>
#include <boost/spirit/home/x3.hpp>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string_view>

#include "core/nh/messages.h"

namespace nh::model {
namespace {

namespace x3 = boost::spirit::x3;
using Iterator = std::string::const_iterator;

// What the grammar's actions build: nodes in postfix order; names and calls still as text,
// resolved after the parse (so that an unknown name is reported at its place).
struct RawNode {
  Op op = Op::Number;
  int a = -1, b = -1;
  double value = 0;
  std::string name;       // a name (op Slot) or a function (op Abs, standing for "call")
  std::vector<int> args;  // a call's arguments
  int offset = 0;
};

struct Builder {
  Iterator begin;
  std::vector<RawNode> nodes;
  int depth = 0;  // nesting levels open (nested[...] below)
  int push(RawNode n) {
    nodes.push_back(std::move(n));
    return static_cast<int>(nodes.size()) - 1;
  }
};
struct builder_tag;

template <class Context>
Builder& builder(const Context& ctx) {
  return x3::get<builder_tag>(ctx).get();
}
// Where a matched range starts (x3::raw gives the range after skipping spaces).
template <class Context, class Range>
int offsetOf(const Context& ctx, const Range& range) {
  return static_cast<int>(range.begin() - builder(ctx).begin);
}

// A nesting level: refuses, at the place where it starts, a level past kMaxExpressionNesting
// (the grammar recurses once per level, and so do the later passes over the expression).
struct NestedTooDeep {
  Iterator where;
};
template <class Subject>
struct NestedDirective : x3::unary_parser<Subject, NestedDirective<Subject>> {
  using base_type = x3::unary_parser<Subject, NestedDirective<Subject>>;
  static bool const is_pass_through_unary = true;
  constexpr NestedDirective(const Subject& inner) : base_type(inner) {}
  template <class It, class Context, class RContext, class Attribute>
  bool parse(It& first, const It& last, const Context& context, RContext& rcontext,
             Attribute& attribute) const {
    Builder& b = builder(context);
    if (b.depth >= kMaxExpressionNesting) throw NestedTooDeep{first};
    ++b.depth;
    const bool ok = this->subject.parse(first, last, context, rcontext, attribute);
    --b.depth;
    return ok;
  }
};
struct NestedGen {
  template <class Subject>
  constexpr NestedDirective<typename x3::extension::as_parser<Subject>::value_type> operator[](
      const Subject& subject) const {
    return {x3::as_parser(subject)};
  }
};
constexpr NestedGen nested{};

// Numbers: digits with an optional fraction and exponent; no sign (unary minus is an
// operator), no "inf" or "nan" (those would be names). Matched as text and converted by
// strtod, so that a number out of range is reported as such.
const auto number = x3::lexeme[(+x3::digit >> -('.' >> *x3::digit) | '.' >> +x3::digit) >>
                               -(x3::char_("eE") >> -x3::char_("+-") >> +x3::digit)];

const auto identifier = x3::rule<class identifier_, boost::iterator_range<Iterator>>{"a name"} =
    x3::raw[x3::lexeme[(x3::alpha | x3::char_('_')) >> *(x3::alnum | x3::char_('_'))]];
const auto numeral = x3::rule<class numeral_, boost::iterator_range<Iterator>>{"a number"} =
    x3::raw[number];

const auto setValue = [](auto& ctx) { x3::_val(ctx) = x3::_attr(ctx); };
auto binary(Op op) {
  return [op](auto& ctx) {
    RawNode n;
    n.op = op;
    n.a = x3::_val(ctx);
    n.b = x3::_attr(ctx);
    n.offset = builder(ctx).nodes[n.a].offset;
    x3::_val(ctx) = builder(ctx).push(std::move(n));
  };
}
const auto negate = [](auto& ctx) {
  RawNode n;
  n.op = Op::Neg;
  n.a = x3::_attr(ctx);
  n.offset = builder(ctx).nodes[n.a].offset;
  x3::_val(ctx) = builder(ctx).push(std::move(n));
};
const auto makeNumber = [](auto& ctx) {
  RawNode n;
  n.op = Op::Number;
  const auto& range = x3::_attr(ctx);
  const std::string text(range.begin(), range.end());
  n.value = std::strtod(text.c_str(), nullptr);
  n.offset = offsetOf(ctx, range);
  if (!std::isfinite(n.value))
    throw ExpressionError(n.offset,
                          "number out of range: " + echoInput(text) + " (at most about 1.8e308)");
  x3::_val(ctx) = builder(ctx).push(std::move(n));
};
const auto makeName = [](auto& ctx) {
  RawNode n;
  n.op = Op::Slot;
  const auto& range = x3::_attr(ctx);
  n.name.assign(range.begin(), range.end());
  n.offset = offsetOf(ctx, range);
  x3::_val(ctx) = builder(ctx).push(std::move(n));
};
const auto makeCall = [](auto& ctx) {
  RawNode n;
  n.op = Op::Abs;  // "a call", resolved later
  const auto& range = boost::fusion::at_c<0>(x3::_attr(ctx));
  n.name.assign(range.begin(), range.end());
  n.args = boost::fusion::at_c<1>(x3::_attr(ctx));
  n.offset = offsetOf(ctx, range);
  x3::_val(ctx) = builder(ctx).push(std::move(n));
};

x3::rule<class expression_, int> const expression = "an expression";
x3::rule<class term_, int> const term = "an operand";
x3::rule<class unary_, int> const unary = "an operand";
x3::rule<class power_, int> const power = "an operand";
x3::rule<class primary_, int> const primary = "a number, a name or '('";
x3::rule<class call_, int> const call = "a function call";

const auto expression_def = term[setValue] >>
                            *(('+' > term)[binary(Op::Add)] | ('-' > term)[binary(Op::Sub)]);
const auto term_def = unary[setValue] >>
                      *(('*' > unary)[binary(Op::Mul)] | ('/' > unary)[binary(Op::Div)]);
// -x^2 = −(x²); ^ is right-associative: its right operand is again a unary expression.
const auto unary_def = nested[('-' > unary)[negate] | ('+' > unary)[setValue] | power[setValue]];
const auto power_def = primary[setValue] >> -(('^' > unary)[binary(Op::Pow)]);
const auto call_def = (identifier >> '(' > (expression % ',') > ')')[makeCall];
const auto primary_def = numeral[makeNumber] | call[setValue] | identifier[makeName] |
                         ('(' > expression > ')')[setValue];

BOOST_SPIRIT_DEFINE(expression, term, unary, power, call, primary)

struct FunctionInfo {
  std::string_view name;
  Op op;
  int arity;
};
constexpr FunctionInfo kFunctions[] = {
    {"sin", Op::Sin, 1},   {"cos", Op::Cos, 1},   {"tan", Op::Tan, 1},     {"asin", Op::Asin, 1},
    {"acos", Op::Acos, 1}, {"atan", Op::Atan, 1}, {"atan2", Op::Atan2, 2}, {"sinh", Op::Sinh, 1},
    {"cosh", Op::Cosh, 1}, {"tanh", Op::Tanh, 1}, {"exp", Op::Exp, 1},     {"log", Op::Log, 1},
    {"sqrt", Op::Sqrt, 1}, {"abs", Op::Abs, 1},
};

std::string functionList() {
  std::string s;
  for (const auto& f : kFunctions) s += (s.empty() ? "" : " ") + std::string(f.name);
  return s;
}

// The character at `it` (all the bytes of a UTF-8 character), control characters escaped.
std::string describe(Iterator it, Iterator end) {
  if (it == end) return "the end of the expression";
  Iterator next = it + 1;
  if (static_cast<unsigned char>(*it) >= 0xC0)
    while (next != end && next - it < 4 && (static_cast<unsigned char>(*next) & 0xC0) == 0x80)
      ++next;
  return "'" + escapeControl(std::string(it, next)) + "'";
}

// The function a call names, checked against its argument count.
const FunctionInfo& calledFunction(const RawNode& r) {
  const FunctionInfo* f = nullptr;
  for (const auto& g : kFunctions)
    if (g.name == r.name) f = &g;
  if (!f)
    throw ExpressionError(
        r.offset, "unknown function '" + echoInput(r.name) + "' (allowed: " + functionList() + ")");
  if (static_cast<int>(r.args.size()) != f->arity)
    throw ExpressionError(r.offset, r.name + " takes " + std::to_string(f->arity) +
                                        (f->arity == 1 ? " argument" : " arguments") + ", not " +
                                        std::to_string(r.args.size()));
  return *f;
}

// A name as a slot (or pi as a number).
Node resolvedName(const RawNode& r, const NameResolver& names) {
  Node n;
  n.offset = r.offset;
  if (r.name == "pi") {
    n.op = Op::Number;
    n.value = M_PI;
    return n;
  }
  n.op = Op::Slot;
  try {
    n.slot = names.slotOf(r.name);
  } catch (const ExpressionError& e) {  // a name not allowed here: place it
    throw ExpressionError(e.offset() < 0 ? r.offset : e.offset(), e.what());
  }
  if (n.slot < 0) {
    for (const auto& f : kFunctions)
      if (f.name == r.name)
        throw ExpressionError(r.offset, "'" + r.name + "' is a function: write " + r.name + "(…)");
    throw ExpressionError(
        r.offset, "unknown name '" + echoInput(r.name) + "' (known: " + names.known() + ")");
  }
  return n;
}

// Orders the raw nodes so that each operand comes before its use and resolves names: a
// depth-first walk with its own stack (a sum of many terms is a long chain of nodes).
Expression resolve(const std::vector<RawNode>& raw, int root, const NameResolver& names) {
  Expression out;
  out.nodes.reserve(raw.size());
  std::vector<int> emitted(raw.size(), -1);
  struct Visit {
    int raw;
    bool expanded;
  };
  std::vector<Visit> stack{{root, false}};
  while (!stack.empty()) {
    const Visit visit = stack.back();
    const RawNode& r = raw[visit.raw];
    const bool isCall = r.op == Op::Abs;
    if (isCall && !visit.expanded) calledFunction(r);  // checked before its arguments
    const int a = isCall ? r.args[0] : r.a;
    const int b = isCall ? (r.args.size() == 2 ? r.args[1] : -1) : r.b;
    if (!visit.expanded && a >= 0) {
      stack.back().expanded = true;
      if (b >= 0) stack.push_back({b, false});
      stack.push_back({a, false});
      continue;
    }
    stack.pop_back();
    Node n;
    if (r.op == Op::Number) {
      n.op = Op::Number;
      n.value = r.value;
      n.offset = r.offset;
    } else if (r.op == Op::Slot) {
      n = resolvedName(r, names);
    } else {
      n.op = isCall ? calledFunction(r).op : r.op;
      n.offset = r.offset;
      n.a = emitted[a];
      if (b >= 0) n.b = emitted[b];
    }
    out.nodes.push_back(n);
    emitted[visit.raw] = static_cast<int>(out.nodes.size()) - 1;
  }
  return out;
}

}  // namespace

const std::vector<std::pair<std::string, int>>& allowedFunctions() {
  static const std::vector<std::pair<std::string, int>> list = [] {
    std::vector<std::pair<std::string, int>> l;
    for (const auto& f : kFunctions) l.emplace_back(std::string(f.name), f.arity);
    return l;
  }();
  return list;
}

Expression parseExpression(const std::string& text, const NameResolver& names) {
  // The grammar's character classes take ASCII only (Boost.Spirit's standard encoding
  // asserts on other bytes): a letter outside ASCII is refused at its place.
  for (auto at = text.begin(); at != text.end(); ++at)
    if (static_cast<unsigned char>(*at) >= 0x80)
      throw ExpressionError(static_cast<int>(at - text.begin()),
                            "unexpected " + describe(at, text.end()) +
                                " (allowed: numbers, names, + - * / ^, parentheses and functions)");
  Builder b{text.begin(), {}};
  Iterator it = text.begin();
  const Iterator end = text.end();
  int root = -1;
  bool ok = false;
  try {
    ok = x3::phrase_parse(it, end, x3::with<builder_tag>(std::ref(b))[expression], x3::space, root);
  } catch (const NestedTooDeep& e) {
    Iterator at = e.where;
    while (at != end && std::isspace(static_cast<unsigned char>(*at))) ++at;
    throw ExpressionError(static_cast<int>(at - text.begin()),
                          "expression nested deeper than " + std::to_string(kMaxExpressionNesting) +
                              " levels (parentheses, function calls, signs and powers)");
  } catch (const x3::expectation_failure<Iterator>& e) {
    Iterator at = e.where();
    while (at != end && std::isspace(static_cast<unsigned char>(*at))) ++at;
    // x**2: a power written as in Python or Fortran.
    const bool doubleStar = at != end && *at == '*' && at != text.begin() && *(at - 1) == '*';
    throw ExpressionError(static_cast<int>(at - text.begin()),
                          "expected " + e.which() + ", found " + describe(at, end) +
                              (doubleStar ? " (powers are written ^: x^2, not x**2)" : ""));
  }
  if (!ok) {
    while (it != end && std::isspace(static_cast<unsigned char>(*it))) ++it;
    throw ExpressionError(static_cast<int>(it - text.begin()),
                          it == end
                              ? std::string("empty expression")
                              : "expected a number, a name or '(', found " + describe(it, end));
  }
  if (it != end)
    throw ExpressionError(static_cast<int>(it - text.begin()),
                          "unexpected " + describe(it, end) +
                              " (allowed: numbers, names, + - * / ^, "
                              "parentheses and functions)");
  Expression out = resolve(b.nodes, root, names);
  out.text = text;
  return out;
}

int treeDepth(const Expression& e, const std::function<int(int)>& slotDepth) {
  const auto family = [](Op op) {
    return op == Op::Add || op == Op::Sub ? 1 : op == Op::Mul || op == Op::Div ? 2 : 0;
  };
  std::vector<int> depth(e.nodes.size(), 1);
  for (size_t i = 0; i < e.nodes.size(); ++i) {
    const Node& n = e.nodes[i];
    if (n.op == Op::Slot) {
      depth[i] = slotDepth(n.slot);
      continue;
    }
    int d = 1;
    if (n.a >= 0) {
      // The left operand of a chain of the same operation is flattened into it.
      const bool sameChain = family(n.op) != 0 && family(e.nodes[n.a].op) == family(n.op);
      d = std::max(d, depth[n.a] + (sameChain ? 0 : 1));
    }
    if (n.b >= 0) d = std::max(d, depth[n.b] + 1);
    depth[i] = d;
  }
  return depth.empty() ? 0 : depth.back();
}

std::vector<int> slotsUsed(const Expression& e) {
  std::vector<int> s;
  for (const Node& n : e.nodes)
    if (n.op == Op::Slot) s.push_back(n.slot);
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

int definitionsRead(const SlotLayout& layout, const Expression& e) {
  int count = 0;
  for (const Node& n : e.nodes)
    if (n.op == Op::Slot && n.slot >= layout.definition(0) && n.slot < layout.multiplier(0))
      count = std::max(count, n.slot - layout.definition(0) + 1);
  return count;
}

}  // namespace nh::model
// SPDX-License-Identifier: GPL-3.0-or-later
