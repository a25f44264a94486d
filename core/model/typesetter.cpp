// Typesetting of derived expressions (typesetter.h): the printer of GiNaC expressions, plain
// and LaTeX, and the pieces equation blocks are made of.
#include "core/model/typesetter.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <limits>
#include <sstream>
#include <utility>

#include "core/model/symbolic_model.h"

namespace nh::model::typeset {

using GiNaC::ex;
using GiNaC::ex_to;
using GiNaC::numeric;

bool tooLarge(const ex& e) { return expressionSize(e, kShowLimit) > kShowLimit; }

Printer::Printer(const SymbolicEquations& s, const std::vector<GiNaC::symbol>& controls,
                 const std::vector<GiNaC::symbol>& costates) {
  const int m = static_cast<int>(s.y.size()), n = static_cast<int>(s.q.size());
  const int P = static_cast<int>(s.parameters.size());
  const int c = static_cast<int>(controls.size()), x = static_cast<int>(costates.size());
  const int first = c + x;  // terms ranked before the velocities'
  for (int j = 0; j < c; ++j) {
    termRank_[controls[j]] = j;
    factorRank_[controls[j]] = P + 1 + n + m + x + j;
  }
  for (int j = 0; j < x; ++j) {
    termRank_[costates[j]] = c + j;
    factorRank_[costates[j]] = P + 1 + n + m + j;
  }
  for (int a = 0; a < m; ++a) {
    termRank_[s.y[a]] = first + a;
    factorRank_[s.y[a]] = P + 1 + n + a;
  }
  for (int i = 0; i < n; ++i) {
    termRank_[s.q[i]] = first + m + i;
    factorRank_[s.q[i]] = P + 1 + i;
  }
  termRank_[s.t] = first + m + n;
  factorRank_[s.t] = P;
  for (int j = 0; j < P; ++j) {
    termRank_[s.parameters[j]] = first + m + n + 1 + j;
    factorRank_[s.parameters[j]] = j;
  }
}

std::string Printer::plain(const ex& e) const { return tooLarge(e) ? kTooLarge : print(e, false); }
std::string Printer::latex(const ex& e) const {
  return tooLarge(e) ? kTooLargeLatex : print(e, true);
}

// Ranks of the symbols in e, sorted, ending in a sentinel (so that terms without symbols
// come last, a number after all).
std::vector<int> Printer::termKey(const ex& e) const {
  std::vector<int> key;
  collect(e, key);
  std::sort(key.begin(), key.end());
  key.push_back(std::numeric_limits<int>::max());
  if (GiNaC::is_a<numeric>(e)) key.push_back(std::numeric_limits<int>::max());  // last
  return key;
}
void Printer::collect(const ex& e, std::vector<int>& key) const {
  if (GiNaC::is_a<GiNaC::symbol>(e)) {
    const auto it = termRank_.find(e);
    key.push_back(it == termRank_.end() ? 1 << 20 : it->second);
    return;
  }
  if (GiNaC::is_a<GiNaC::power>(e) && GiNaC::is_a<numeric>(e.op(1)) &&
      ex_to<numeric>(e.op(1)).is_pos_integer()) {
    // x^3 ranks as x*x*x (a few repeats are enough to order the terms).
    const numeric k = ex_to<numeric>(e.op(1));
    const int repeats = k > 16 ? 16 : k.to_int();
    for (int i = 0; i < repeats; ++i) collect(e.op(0), key);
    return;
  }
  // Inside a function a symbol ranks after every plain one: 5*t + 3*sin(t).
  const bool inFunction = GiNaC::is_a<GiNaC::function>(e);
  for (size_t i = 0; i < e.nops(); ++i) {
    std::vector<int> inner;
    collect(e.op(i), inner);
    for (int rank : inner) key.push_back(inFunction ? rank + (1 << 10) : rank);
  }
}
int Printer::factorKey(const ex& f) const {
  const ex base = GiNaC::is_a<GiNaC::power>(f) ? f.op(0) : f;
  if (GiNaC::is_a<GiNaC::symbol>(base)) {
    const auto it = factorRank_.find(base);
    return it == factorRank_.end() ? 1 << 20 : it->second;
  }
  return 1 << 21;  // functions and sums last
}

std::string Printer::text(const numeric& x) {
  std::ostringstream out;
  out << GiNaC::dflt << ex(x);
  return out.str();
}
std::string Printer::number(const numeric& x, bool tex) {
  if (x.is_integer()) return text(x);
  if (x.is_rational()) {
    const std::string p = text(x.numer()), q = text(x.denom());
    if (!tex) return p + "/" + q;
    return x.is_negative() ? "-\\frac{" + text(-x.numer()) + "}{" + q + "}"
                           : "\\frac{" + p + "}{" + q + "}";
  }
  char text[40];
  std::snprintf(text, sizeof text, "%.10g", x.to_double());
  std::string out = text;
  if (const auto e = out.find('e'); tex && e != std::string::npos)
    out = out.substr(0, e) + " \\cdot 10^{" + std::to_string(std::stoi(out.substr(e + 1))) + "}";
  return out;
}

// 0: sum (needs parentheses inside products and powers), 1: product or negative number,
// 2: power, 3: atom.
int Printer::precedence(const ex& e) {
  if (GiNaC::is_a<GiNaC::add>(e)) return 0;
  if (GiNaC::is_a<GiNaC::mul>(e)) return 1;
  if (GiNaC::is_a<numeric>(e))
    return ex_to<numeric>(e).is_negative() || !ex_to<numeric>(e).is_integer() ? 1 : 3;
  if (GiNaC::is_a<GiNaC::power>(e)) return 2;
  return 3;
}
std::string Printer::parenthesised(const ex& e, int below, bool tex) const {
  const std::string inner = print(e, tex);
  if (precedence(e) >= below) return inner;
  return tex ? "\\left(" + inner + "\\right)" : "(" + inner + ")";
}

std::string Printer::print(const ex& e, bool tex) const {
  if (GiNaC::is_a<numeric>(e)) return number(ex_to<numeric>(e), tex);
  if (GiNaC::is_a<GiNaC::symbol>(e)) {
    const auto& s = ex_to<GiNaC::symbol>(e);
    return tex ? s.get_TeX_name() : s.get_name();
  }
  if (GiNaC::is_a<GiNaC::constant>(e)) return e.is_equal(GiNaC::Pi) ? (tex ? "\\pi" : "pi") : "?";
  if (GiNaC::is_a<GiNaC::add>(e)) return sum(e, tex);
  if (GiNaC::is_a<GiNaC::mul>(e) || GiNaC::is_a<GiNaC::power>(e)) return product(e, tex);
  if (GiNaC::is_a<GiNaC::function>(e)) return function(e, tex);
  std::ostringstream out;  // nothing else occurs in derived equations; GiNaC's own form
  if (tex)
    out << GiNaC::latex << e;
  else
    out << GiNaC::dflt << e;
  return out.str();
}

// The numeric factor of a term (1 for a term without one).
numeric Printer::coefficientOf(const ex& term) {
  if (GiNaC::is_a<numeric>(term)) return ex_to<numeric>(term);
  numeric c = 1;
  if (GiNaC::is_a<GiNaC::mul>(term))
    for (size_t i = 0; i < term.nops(); ++i)
      if (GiNaC::is_a<numeric>(term.op(i))) c *= ex_to<numeric>(term.op(i));
  return c;
}
// A sum whose terms all carry the same number up to sign, other than ±1, as that number
// times a sum: 1/35*(vy*(…) + y*(…)) rather than 1/35*vy*(…) + 1/35*y*(…).
bool Printer::commonCoefficient(const ex& e, numeric& common) {
  if (!GiNaC::is_a<GiNaC::add>(e)) return false;
  bool allNegative = true;
  for (size_t i = 0; i < e.nops(); ++i) {
    const numeric c = coefficientOf(e.op(i));
    if (!c.is_rational() || (i > 0 && !GiNaC::abs(c).is_equal(GiNaC::abs(common)))) return false;
    common = c;
    allNegative &= c.is_negative();
  }
  common = allNegative ? -GiNaC::abs(common) : GiNaC::abs(common);
  return !GiNaC::abs(common).is_equal(1);
}

std::vector<ex> Printer::sortedTerms(const ex& e) const {
  std::vector<std::pair<std::vector<int>, ex>> terms;
  for (size_t i = 0; i < e.nops(); ++i) terms.emplace_back(termKey(e.op(i)), e.op(i));
  std::stable_sort(terms.begin(), terms.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first : a.second.compare(b.second) < 0;
  });
  std::vector<ex> out;
  for (const auto& term : terms) out.push_back(term.second);
  return out;
}
bool Printer::mostlyNegative(const ex& f) const {
  if (!GiNaC::is_a<GiNaC::add>(f)) return false;
  const std::vector<ex> terms = sortedTerms(f);
  int negatives = 0;
  for (const ex& t : terms) negatives += coefficientOf(t).is_negative();
  const int n = static_cast<int>(terms.size());
  return 2 * negatives > n || (2 * negatives == n && coefficientOf(terms[0]).is_negative());
}

std::string Printer::sum(const ex& e, bool tex) const {
  if (numeric common; commonCoefficient(e, common)) {
    ex rest = 0;
    for (size_t i = 0; i < e.nops(); ++i) rest += e.op(i) / common;
    const std::string inner = sum(rest, tex);
    const std::string c = number(common, tex);
    return tex ? c + " \\left(" + inner + "\\right)" : c + "*(" + inner + ")";
  }
  std::string out;
  for (const ex& term : sortedTerms(e)) {
    std::string t = print(term, tex);
    if (out.empty())
      out = t;
    else if (t.rfind('-', 0) == 0)
      out += " - " + t.substr(1);
    else
      out += " + " + t;
  }
  return out;
}

std::string Printer::product(const ex& e, bool tex) const {
  numeric coefficient = 1;
  std::vector<ex> up, down;  // factors of the numerator and of the denominator
  const auto factor = [&](const ex& f) {
    if (GiNaC::is_a<numeric>(f)) {
      coefficient *= ex_to<numeric>(f);
    } else if (GiNaC::is_a<GiNaC::power>(f) && GiNaC::is_a<numeric>(f.op(1)) &&
               ex_to<numeric>(f.op(1)).is_negative()) {
      down.push_back(GiNaC::pow(f.op(0), -f.op(1)));
    } else {
      up.push_back(f);
    }
  };
  if (GiNaC::is_a<GiNaC::mul>(e)) {
    for (size_t i = 0; i < e.nops(); ++i) factor(e.op(i));
  } else {
    factor(e);
  }
  const auto byKey = [&](const ex& a, const ex& b) {
    const int ka = factorKey(a), kb = factorKey(b);
    return ka != kb ? ka < kb : a.compare(b) < 0;
  };
  std::stable_sort(up.begin(), up.end(), byKey);
  std::stable_sort(down.begin(), down.end(), byKey);
  bool negative = coefficient.is_negative();
  if (negative) coefficient = -coefficient;
  // A sum factor is negated (the sign moving out) when most of its terms are negative, or
  // half and the first: −(r − w²)/r³ as (w² − r)/r³, vy*(−3 sin t − 5) as −vy*(3 sin t + 5).
  for (std::vector<ex>* factors : {&up, &down})
    for (ex& f : *factors)
      if (mostlyNegative(f)) f = -f, negative = !negative;
  const numeric p = coefficient.is_rational() ? coefficient.numer() : coefficient;
  const numeric q = coefficient.is_rational() ? coefficient.denom() : numeric(1);
  // Sums among the factors are parenthesised when anything stands beside them.
  const auto join = [&](const std::vector<ex>& factors, const numeric& c, bool wrapSums) {
    std::string out;
    if (!c.is_equal(1) || factors.empty()) out = number(c, tex);
    for (const ex& f : factors) {
      // A thin space between factors in LaTeX, so that \mathrm{qx} \mathrm{wx} does not read
      // as one name.
      if (!out.empty()) out += tex ? " \\, " : "*";
      out += power(f, tex, wrapSums || factors.size() > 1 || !c.is_equal(1));
    }
    return out;
  };
  const std::string sign = negative ? "-" : "";
  if (down.empty() && q.is_equal(1)) return sign + join(up, p, negative);
  if (tex) return sign + "\\frac{" + join(up, p, false) + "}{" + join(down, q, false) + "}";
  // Plain: "2*vy/(7*(y^2 + 1))"; a rational coefficient alone stays in front: "1/2*m*v^2".
  if (down.empty()) return sign + number(coefficient, false) + "*" + join(up, 1, true);
  const std::string denominator = join(down, q, false);
  const bool single = down.size() == 1 && q.is_equal(1) && precedence(down[0]) >= 2;
  return sign + join(up, p, true) + "/" + (single ? denominator : "(" + denominator + ")");
}

// A factor: a power (x^2, x^(1/3), sqrt(x)) or any other expression, parenthesised as a
// factor among others.
std::string Printer::power(const ex& f, bool tex, bool amongOthers) const {
  if (!GiNaC::is_a<GiNaC::power>(f)) return parenthesised(f, amongOthers ? 1 : 0, tex);
  const ex base = f.op(0), exponent = f.op(1);
  if (exponent.is_equal(GiNaC::numeric(1, 2)))
    return tex ? "\\sqrt{" + print(base, tex) + "}" : "sqrt(" + print(base, tex) + ")";
  std::string b = parenthesised(base, 3, tex);
  if (tex) {
    if (b.find('^') != std::string::npos) b = "{" + b + "}";
    return b + "^{" + print(exponent, tex) + "}";
  }
  return b + "^" + parenthesised(exponent, 3, tex);
}

std::string Printer::function(const ex& e, bool tex) const {
  const std::string name = ex_to<GiNaC::function>(e).get_name();
  std::string arguments;
  for (size_t i = 0; i < e.nops(); ++i) arguments += (i ? ", " : "") + print(e.op(i), tex);
  if (!tex) return name + "(" + arguments + ")";
  if (name == "abs") return "|" + arguments + "|";  // plain bars: in every renderer
  static const std::map<std::string, std::string> names = {
      {"sin", "\\sin"},     {"cos", "\\cos"},     {"tan", "\\tan"},   {"asin", "\\arcsin"},
      {"acos", "\\arccos"}, {"atan", "\\arctan"}, {"sinh", "\\sinh"}, {"cosh", "\\cosh"},
      {"tanh", "\\tanh"},   {"exp", "\\exp"},     {"log", "\\log"},   {"atan2", "\\mbox{atan2}"}};
  const auto it = names.find(name);
  const std::string op = it != names.end() ? it->second : "\\mbox{" + name + "}";
  const bool simple = e.nops() == 1 && precedence(e.op(0)) == 3;
  return op + (simple ? "(" + arguments + ")" : "\\left(" + arguments + "\\right)");
}

std::string texName(const GiNaC::symbol& s) { return s.get_TeX_name(); }

// Characters a terminal shows (UTF-8 lead bytes, without combining marks U+0300–U+036F).
int displayWidth(const std::string& text) {
  int width = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c & 0xC0) == 0x80) continue;
    if (c == 0xCC ||
        (c == 0xCD && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) < 0xB0))
      continue;  // U+0300–U+036F
    ++width;
  }
  return width;
}

std::string padded(const std::string& text, int width) {
  return text + std::string(std::max(0, width - displayWidth(text)), ' ');
}

namespace {
std::string digits(int number, const char* const glyphs[10]) {
  std::string out;
  for (const char c : std::to_string(number)) out += glyphs[c - '0'];
  return out;
}
}  // namespace

std::string superscript(int number) {
  static const char* const glyphs[10] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  return digits(number, glyphs);
}
std::string subscript(int number) {
  static const char* const glyphs[10] = {"₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉"};
  return digits(number, glyphs);
}

// The time derivative of a named quantity in plain text, by one rule: a dot over a name that
// is one letter with at most a subscript after it — digits, an axis x, y or z, or `_…` (ẋ,
// v̇x, ẇ1, ω̇_z) — and a prime after any other name, a word (yaw', theta', omega'). A dot
// over a word's first letter read as that letter's rate ("ẏaw").
std::string dotPlain(const std::string& name) {
  if (name.empty() || !std::isalpha(static_cast<unsigned char>(name[0]))) return name + "'";
  const std::string rest = name.substr(1);
  const bool digits = std::all_of(
      rest.begin(), rest.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  const bool subscript =
      digits || rest[0] == '_' || (rest.size() == 1 && (rest == "x" || rest == "y" || rest == "z"));
  if (subscript) return name.substr(0, 1) + "\u0307" + rest;
  return name + "'";
}

// \dot{v}_{x} rather than \dot{v_{x}}, so that the dot sits on the letter.
std::string dotLatex(const std::string& tex) {
  const auto underscore = tex.find('_');
  if (underscore != std::string::npos && underscore > 0 && tex.find('{') > underscore)
    return "\\dot{" + tex.substr(0, underscore) + "}" + tex.substr(underscore);
  return "\\dot{" + tex + "}";
}

// A matrix as aligned rows between ⎛⎜⎝ ⎞⎟⎠, or, when wider than a terminal, as the list of
// its nonzero entries named by `rowNames` and `columnNames`.
std::vector<std::string> plainMatrix(const Printer& pr, const std::string& name,
                                     const GiNaC::matrix& A, int rows, int columns,
                                     const std::vector<std::string>& rowNames,
                                     const std::vector<std::string>& columnNames) {
  std::vector<std::vector<std::string>> cell(rows, std::vector<std::string>(columns));
  std::vector<int> width(columns, 0);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < columns; ++j) {
      cell[i][j] = pr.plain(A(i, j));
      width[j] = std::max(width[j], displayWidth(cell[i][j]));
    }
  int total = displayWidth(name) + 5;
  for (int w : width) total += w + 2;
  std::vector<std::string> lines;
  if (total > kPlainMatrixWidth) {
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < columns; ++j)
        if (!A(i, j).is_zero())
          lines.push_back(name + "[" + rowNames[i] + ", " + columnNames[j] + "] = " + cell[i][j]);
    lines.push_back("(other entries of " + name + " are 0)");
    return lines;
  }
  const std::string indent(displayWidth(name) + 3, ' ');
  for (int i = 0; i < rows; ++i) {
    const char* open = rows == 1 ? "(" : i == 0 ? "⎛" : i == rows - 1 ? "⎝" : "⎜";
    const char* close = rows == 1 ? ")" : i == 0 ? "⎞" : i == rows - 1 ? "⎠" : "⎟";
    std::string line = (i == 0 ? name + " = " : indent) + open;
    for (int j = 0; j < columns; ++j) line += (j ? "  " : "") + padded(cell[i][j], width[j]);
    lines.push_back(line + close);
  }
  return lines;
}

std::string latexMatrix(const Printer& pr, const GiNaC::matrix& A, int rows, int columns) {
  std::string out = "\\begin{pmatrix}";
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < columns; ++j) out += (j ? " & " : "") + pr.latex(A(i, j));
    if (i + 1 < rows) out += " \\\\ ";
  }
  return out + "\\end{pmatrix}";
}

std::string joinLines(const std::vector<std::string>& lines) {
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) out += (i ? "\n" : "") + lines[i];
  return out;
}

std::vector<std::string> names(const std::vector<GiNaC::symbol>& symbols) {
  std::vector<std::string> out;
  for (const auto& s : symbols) out.push_back(s.get_name());
  return out;
}

// A term of a sum added to `to` (" - x" for a term that starts with a minus sign).
void appendTerm(std::string& to, const std::string& term) {
  if (to.empty())
    to = term;
  else if (term[0] == '-')
    to += " - " + term.substr(1);
  else
    to += " + " + term;
}

std::pair<std::string, std::string> combinationText(const Printer& pr,
                                                    const std::vector<ex>& coefficients,
                                                    const std::vector<std::string>& plainNames,
                                                    const std::vector<std::string>& texNames) {
  std::string plainSum, latexSum;
  for (size_t c = 0; c < coefficients.size(); ++c) {
    const ex& value = coefficients[c];
    if (value.is_zero()) continue;
    const std::string p = pr.plain(value), l = pr.latex(value);
    const bool one = (value - 1).is_zero(), minusOne = (value + 1).is_zero();
    const bool isSum = GiNaC::is_a<GiNaC::add>(value);
    std::string pt = one ? "" : minusOne ? "-" : isSum ? "(" + p + ")*" : p + "*";
    std::string lt = one ? "" : minusOne ? "-" : isSum ? "\\left(" + l + "\\right) " : l + " ";
    pt += plainNames[c];
    lt += texNames[c];
    appendTerm(plainSum, pt);
    appendTerm(latexSum, lt);
  }
  return {plainSum, latexSum};
}

}  // namespace nh::model::typeset
// SPDX-License-Identifier: GPL-3.0-or-later
