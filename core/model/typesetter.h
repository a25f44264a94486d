// Typesetting of derived expressions: a printer of GiNaC expressions in a fixed, readable
// order, as plain Unicode text (the model files' expression syntax) and as LaTeX, and the
// pieces equation blocks are made of (matrices, dotted names, indices, aligned columns).
// Used by derived_equations.cpp, which lays out the blocks.
#pragma once

#include <ginac/ginac.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/model/derived_equations.h"
#include "core/model/symbolic_equations.h"

namespace nh::model::typeset {

// Entries larger than this (expression nodes) are not shown.
constexpr int kShowLimit = 600;
// A plain-text matrix wider than this is listed entry by entry.
constexpr int kPlainMatrixWidth = 100;
inline constexpr const char* kTooLarge = "(too large to show)";
inline constexpr const char* kTooLargeLatex = "\\mbox{(too large to show)}";

// Whether `e` has more than kShowLimit nodes (then it is not shown).
bool tooLarge(const GiNaC::ex& e);

// Prints expressions in a fixed, readable order, which GiNaC's own printers (ordered by hash)
// do not give: in a sum, terms by the velocities, then coordinates, then time they contain
// ("vx - r*wy + Omega*y"); in a product, numbers, parameters, coordinates, velocities, then
// functions ("m*r*wy*cos(phi)"); negative powers as denominators. Plain text is the model
// files' expression syntax; LaTeX uses the symbols' LaTeX names. A control model's controls
// and costates come first in a sum (u, then ξ) and last in a product (ξ, then u).
class Printer {
 public:
  explicit Printer(const SymbolicEquations& s, const std::vector<GiNaC::symbol>& controls = {},
                   const std::vector<GiNaC::symbol>& costates = {});

  std::string plain(const GiNaC::ex& e) const;
  std::string latex(const GiNaC::ex& e) const;

 private:
  using Ranks = std::map<GiNaC::ex, int, GiNaC::ex_is_less>;
  Ranks termRank_, factorRank_;

  std::vector<int> termKey(const GiNaC::ex& e) const;
  void collect(const GiNaC::ex& e, std::vector<int>& key) const;
  int factorKey(const GiNaC::ex& f) const;
  static std::string text(const GiNaC::numeric& x);
  static std::string number(const GiNaC::numeric& x, bool tex);
  static int precedence(const GiNaC::ex& e);
  std::string parenthesised(const GiNaC::ex& e, int below, bool tex) const;
  std::string print(const GiNaC::ex& e, bool tex) const;
  static GiNaC::numeric coefficientOf(const GiNaC::ex& term);
  static bool commonCoefficient(const GiNaC::ex& e, GiNaC::numeric& common);
  std::vector<GiNaC::ex> sortedTerms(const GiNaC::ex& e) const;
  bool mostlyNegative(const GiNaC::ex& f) const;
  std::string sum(const GiNaC::ex& e, bool tex) const;
  std::string product(const GiNaC::ex& e, bool tex) const;
  std::string power(const GiNaC::ex& f, bool tex, bool amongOthers) const;
  std::string function(const GiNaC::ex& e, bool tex) const;
};

// A symbol's LaTeX name.
std::string texName(const GiNaC::symbol& s);
// Characters a terminal shows (UTF-8 lead bytes, without combining marks U+0300–U+036F).
int displayWidth(const std::string& text);
// `text` with spaces after it up to `width` shown characters.
std::string padded(const std::string& text, int width);
// A number in superscript and in subscript digits (¹², ₁₂).
std::string superscript(int number);
std::string subscript(int number);
// The time derivative of a named quantity in plain text (ẋ, v̇x, yaw') and in LaTeX
// (\dot{v}_{x}).
std::string dotPlain(const std::string& name);
std::string dotLatex(const std::string& tex);
// A matrix as aligned rows between ⎛⎜⎝ ⎞⎟⎠, or, when wider than a terminal, as the list of
// its nonzero entries named by `rowNames` and `columnNames`.
std::vector<std::string> plainMatrix(const Printer& pr, const std::string& name,
                                     const GiNaC::matrix& A, int rows, int columns,
                                     const std::vector<std::string>& rowNames,
                                     const std::vector<std::string>& columnNames);
// A matrix as a LaTeX pmatrix.
std::string latexMatrix(const Printer& pr, const GiNaC::matrix& A, int rows, int columns);
// Lines joined by newlines.
std::string joinLines(const std::vector<std::string>& lines);
// The names of `symbols`.
std::vector<std::string> names(const std::vector<GiNaC::symbol>& symbols);
// A term of a sum added to `to` (" - x" for a term that starts with a minus sign).
void appendTerm(std::string& to, const std::string& term);
// Σ coefficients[i]·basis[i] in plain text ("(1 + x)*e_u - e_v") and LaTeX, the basis named by
// `plainNames` and `texNames`; each "" when every coefficient is 0.
std::pair<std::string, std::string> combinationText(const Printer& pr,
                                                    const std::vector<GiNaC::ex>& coefficients,
                                                    const std::vector<std::string>& plainNames,
                                                    const std::vector<std::string>& texNames);

// One block under construction: its title and its lines, plain and LaTeX.
struct BlockBuilder {
  std::string title;
  std::vector<std::string> plain, latex;
  EquationBlock done() const { return {title, joinLines(plain), joinLines(latex)}; }
};

}  // namespace nh::model::typeset
// SPDX-License-Identifier: GPL-3.0-or-later
