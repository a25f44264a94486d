// The blocks of the constraints' algebroid and its verdict (constrainedAlgebroidEquations,
// constrained_algebroid.h). Vector fields and combinations of sections print as expressions
// in symbols standing for ∂/∂q^i, e_α and X_a.
#include <mutex>

#include "core/model/constrained_algebroid.h"
#include "core/model/symbolic_model.h"
#include "core/model/typesetter.h"

namespace nh::model {

namespace {

using GiNaC::ex;
using GiNaC::symbol;
using namespace typeset;

// The plain and LaTeX names of e_α, X_a and ∂/∂q^i.
struct Basis {
  std::vector<std::string> plain, tex;
};

struct Names {
  Basis e, X, d;
};

Names namesOf(const ConstrainedAlgebroid& g, const SymbolicEquations& s) {
  Names out;
  for (size_t al = 0; al < s.y.size(); ++al) {
    out.e.plain.push_back("e_" + s.velocityNames[al]);
    out.e.tex.push_back("e_{" + texName(s.y[al]) + "}");
  }
  for (int v : g.independent) {
    out.X.plain.push_back("X_" + s.velocityNames[v]);
    out.X.tex.push_back("X_{" + texName(s.y[v]) + "}");
  }
  for (const symbol& q : s.q) {
    out.d.plain.push_back("∂/∂" + q.get_name());
    out.d.tex.push_back("\\partial_{" + texName(q) + "}");
  }
  return out;
}

// "name = Σ c_i basis_i" (0 when every c_i is).
void line(BlockBuilder& b, const Printer& pr, const std::string& plain, const std::string& tex,
          const std::vector<ex>& coefficients, const Basis& basis) {
  auto [p, l] = combinationText(pr, coefficients, basis.plain, basis.tex);
  b.plain.push_back(plain + " = " + (p.empty() ? "0" : p));
  b.latex.push_back(tex + " = " + (l.empty() ? "0" : l));
}

std::string plainName(const Names& names, int a) { return a < 0 ? "e0" : names.X.plain[a]; }
std::string texOf(const Names& names, int a) { return a < 0 ? "e_{0}" : names.X.tex[a]; }

// "[X_a, X_b]" (or "[e0, X_b]") in plain text or LaTeX, built by appending (a literal plus a
// temporary trips GCC 12's -Wrestrict).
std::string bracketName(const Names& names, const ConstrainedBracket& k, bool tex) {
  std::string out = "[";
  out.append(tex ? texOf(names, k.a) : plainName(names, k.a));
  out.append(", ");
  out.append(tex ? texOf(names, k.b) : plainName(names, k.b));
  out.append("]");
  return out;
}

EquationBlock basisBlock(const ConstrainedAlgebroid& g, const Names& names, const Printer& pr) {
  BlockBuilder b{"Constraint distribution D = ker A: basis X_a, and y = y0 + X v", {}, {}};
  for (size_t a = 0; a < g.X.size(); ++a)
    line(b, pr, names.X.plain[a], names.X.tex[a], g.X[a], names.e);
  if (g.affine) line(b, pr, "y0", "y_{0}", g.particular, names.e);
  if (g.affine || g.timeDependent) {
    Basis withTime = names.e;
    withTime.plain.insert(withTime.plain.begin(), "∂/∂t");
    withTime.tex.insert(withTime.tex.begin(), "\\partial_{t}");
    std::vector<ex> coefficients{1};
    coefficients.insert(coefficients.end(), g.particular.begin(), g.particular.end());
    line(b, pr, "e0", "e_{0}", coefficients, withTime);
  }
  return b.done();
}

EquationBlock anchorBlock(const ConstrainedAlgebroid& g, const Names& names, const Printer& pr) {
  BlockBuilder b{"Anchor of D: ρ_D(X_a) = ρ X_a", {}, {}};
  for (size_t a = 0; a < g.X.size(); ++a)
    line(b, pr, "ρ(" + names.X.plain[a] + ")", "\\rho(" + names.X.tex[a] + ")", g.anchor[a],
         names.d);
  return b.done();
}

EquationBlock projectedBlock(const ConstrainedAlgebroid& g, const Names& names, const Printer& pr) {
  BlockBuilder b{
      "Projected bracket [X_a, X_b]_D = C^c_ab X_c (M-orthogonal projection onto D)", {}, {}};
  for (const ConstrainedBracket& k : g.brackets) {
    if (k.a < 0 || k.projected.empty()) continue;
    line(b, pr, bracketName(names, k, false) + "_D", bracketName(names, k, true) + "_{D}",
         k.projected, names.X);
  }
  if (g.X.size() == 1) {
    b.plain.push_back("D has one direction X_a: its bracket [X_a, X_a] is 0 (skew)");
    b.latex.push_back("\\mbox{D has one direction: } [X_a, X_a] = 0");
  } else if (g.X.empty()) {
    b.plain.push_back("D = 0: the constraints leave no velocity free");
    b.latex.push_back("D = 0");
  }
  return b.done();
}

// The brackets that leave D, each with A of it.
EquationBlock leavingBlock(const ConstrainedAlgebroid& g, const Names& names, const Printer& pr) {
  BlockBuilder b{"Brackets that leave D (A [·,·] ≠ 0)", {}, {}};
  for (const ConstrainedBracket& k : g.brackets) {
    if (k.inD) continue;
    const std::string plain = bracketName(names, k, false);
    const std::string tex = bracketName(names, k, true);
    line(b, pr, plain, tex, k.value, names.e);
    for (size_t r = 0; r < k.outside.size(); ++r) {
      if (k.outside[r].is_zero()) continue;
      std::string name = "A";
      name.append(subscript(static_cast<int>(r + 1))).append(" ").append(plain);
      std::string texRow = "A_{";
      texRow.append(std::to_string(r + 1)).append("} ").append(tex);
      b.plain.push_back(name + " = " + pr.plain(k.outside[r]));
      b.latex.push_back(texRow + " = " + pr.latex(k.outside[r]));
    }
  }
  return b.done();
}

}  // namespace

std::vector<EquationBlock> constrainedAlgebroidBlocks(const ConstrainedAlgebroid& g,
                                                      bool withBasis) {
  std::lock_guard lock(ginacMutex());
  const SymbolicEquations& s = g.lagrangian;
  const Printer pr(s);
  const Names names = namesOf(g, s);
  std::vector<EquationBlock> out;
  if (withBasis) out.push_back(basisBlock(g, names, pr));
  out.push_back(anchorBlock(g, names, pr));
  out.push_back(projectedBlock(g, names, pr));
  if (!g.holonomic) out.push_back(leavingBlock(g, names, pr));
  out.push_back({"The constraints' algebroid: verdict (seed 000, Theorem 7)", g.verdict,
                 g.holonomic ? "\\mbox{holonomic}" : "\\mbox{nonholonomic: a bracket leaves } D"});
  return out;
}

DerivedEquations constrainedAlgebroidEquations(const SystemModel& system,
                                               const std::vector<double>& parameters) {
  std::lock_guard lock(ginacMutex());
  const ConstrainedAlgebroid g = deriveConstrainedAlgebroid(system, parameters);
  DerivedEquations out;
  if (!g.formed) {
    out.summary = "not formed: " + g.notFormedBecause;
    return out;
  }
  out.summary = g.verdict;
  out.blocks = constrainedAlgebroidBlocks(g, true);
  return out;
}

}  // namespace nh::model
// SPDX-License-Identifier: GPL-3.0-or-later
