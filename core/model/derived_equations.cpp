// The derived equations (theory §2) laid out: the blocks of the Lagrangian equations, of a
// control model's Pontryagin equations and of the Hamiltonian side, each in plain Unicode text
// for terminals and LaTeX for the equations panel and documents, and the documents made of
// them. The mathematics is in symbolic_equations.cpp (control_equations.cpp,
// hamiltonian_equations.cpp), the printing of expressions in typesetter.cpp.
#include "core/model/derived_equations.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <sstream>
#include <utility>

#include "core/model/affine_bracket_text.h"
#include "core/model/constrained_algebroid.h"
#include "core/model/control_equations.h"
#include "core/model/hamiltonian_equations.h"
#include "core/model/symbolic_equations.h"
#include "core/model/symbolic_model.h"
#include "core/model/typesetter.h"

namespace nh::model {

namespace {

using GiNaC::ex;
using GiNaC::ex_to;
using GiNaC::numeric;

using namespace typeset;

const char* const kLagrangianSummary = "the equations M ẏ − Aᵀλ = F, A ẏ = b (theory §2)";
const char* const kControlSummary =
    "Pontryagin's equations (5.6)–(5.8) of the optimal control (theory §8): H = ξ·f − L, "
    "q̇ = ρ f, ξ̇ = C f ξ + ρᵀ(∂L/∂q − ξ ∂f/∂q), 0 = ∂L/∂u − ξ ∂f/∂u";

const char* const kHamiltonianSummary =
    "the Hamiltonian side (theory §9): H = p·y − L and the nonholonomic bracket of (q, π) on "
    "the constraint, with its Jacobiator; for affine or time-dependent constraints also the "
    "bracket of sections on (q, p) with its ψ and time terms (seed 002, Theorem V.8); with "
    "constraints, the algebroid of D and whether they are holonomic (seed 000, Theorem 7)";

// The context every block is typeset from.
struct Typesetting {
  const SymbolicEquations& s;
  const Printer& pr;
  std::vector<std::string> velocityNames;
  int n, m, kt;  // coordinates, velocities, constraints (Φ and ġ)
};

EquationBlock lagrangianBlock(const Typesetting& ts) {
  BlockBuilder b{"Lagrangian", {}, {}};
  b.plain.push_back("L = " + ts.pr.plain(ts.s.lagrangian));
  b.latex.push_back("L = " + ts.pr.latex(ts.s.lagrangian));
  return b.done();
}

EquationBlock anchorBlock(const Typesetting& ts) {
  const SymbolicEquations& s = ts.s;
  BlockBuilder b{"Anchor ρ: q̇ = ρ y", {}, {}};
  for (int i = 0; i < ts.n; ++i) {
    ex v = 0;
    for (int a = 0; a < ts.m; ++a) v += s.rho(i, a) * s.y[a];
    b.plain.push_back(dotPlain(s.q[i].get_name()) + " = " + ts.pr.plain(v));
    b.latex.push_back(dotLatex(texName(s.q[i])) + " = " + ts.pr.latex(v));
  }
  return b.done();
}

// C^c e_c summed over c, for the pair (a, b): plain text and LaTeX, each "" when all are 0.
std::pair<std::string, std::string> bracketSum(const Typesetting& ts,
                                               const std::vector<ex>& coefficients) {
  std::vector<std::string> plainNames, texNames;
  for (int c = 0; c < ts.m; ++c) {
    plainNames.push_back("e_" + ts.velocityNames[c]);
    texNames.push_back("e_{" + texName(ts.s.y[c]) + "}");
  }
  return combinationText(ts.pr, coefficients, plainNames, texNames);
}

EquationBlock structureBlock(const Typesetting& ts) {
  const SymbolicEquations& s = ts.s;
  const int m = ts.m;
  BlockBuilder b{"Structure functions: [e_a, e_b] = C^c_ab e_c", {}, {}};
  // C^c_ab by (a, b); a pair a ≥ b is shown only where C is not skew there.
  std::vector<std::vector<std::vector<ex>>> C(
      m, std::vector<std::vector<ex>>(m, std::vector<ex>(m, 0)));
  for (const auto& c : s.structure) C[c.a][c.b][c.c] += c.value;
  for (int a = 0; a < m; ++a)
    for (int bb = 0; bb < m; ++bb) {
      bool shown = a < bb;
      for (int c = 0; c < m && !shown; ++c) shown = !(C[a][bb][c] + C[bb][a][c]).is_zero();
      const auto [plainSum, latexSum] = bracketSum(ts, C[a][bb]);
      if (!shown || plainSum.empty()) continue;
      b.plain.push_back("[e_" + ts.velocityNames[a] + ", e_" + ts.velocityNames[bb] +
                        "] = " + plainSum);
      b.latex.push_back("[e_{" + texName(s.y[a]) + "}, e_{" + texName(s.y[bb]) +
                        "}] = " + latexSum);
    }
  return b.done();
}

EquationBlock constraintsBlock(const Typesetting& ts) {
  const SymbolicEquations& s = ts.s;
  BlockBuilder b{"Constraints Φ = 0", {}, {}};
  for (int c = 0; c < s.k; ++c) {
    b.plain.push_back("Φ" + superscript(c + 1) + " = " + ts.pr.plain(s.constraints[c]) + " = 0");
    b.latex.push_back("\\Phi^{" + std::to_string(c + 1) + "} = " + ts.pr.latex(s.constraints[c]) +
                      " = 0");
  }
  return b.done();
}

EquationBlock holonomicBlock(const Typesetting& ts) {
  const SymbolicEquations& s = ts.s;
  BlockBuilder b{"Holonomic g = 0, imposed as ġ = ∂g/∂t + ∂g/∂q ρ y = 0", {}, {}};
  for (int c = 0; c < static_cast<int>(s.holonomic.size()); ++c) {
    b.plain.push_back("g" + superscript(c + 1) + " = " + ts.pr.plain(s.holonomic[c]) + " = 0");
    b.latex.push_back("g^{" + std::to_string(c + 1) + "} = " + ts.pr.latex(s.holonomic[c]) +
                      " = 0");
  }
  for (int c = 0; c < s.h; ++c) {
    const ex& rate = s.constraints[s.k + c];
    b.plain.push_back("ġ" + superscript(c + 1) + " = " + ts.pr.plain(rate) + " = 0");
    b.latex.push_back("\\dot{g}^{" + std::to_string(c + 1) + "} = " + ts.pr.latex(rate) + " = 0");
  }
  return b.done();
}

EquationBlock massMatrixBlock(const Typesetting& ts) {
  BlockBuilder b{"Mass matrix M = ∂²L/∂y∂y", {}, {}};
  b.plain = plainMatrix(ts.pr, "M", ts.s.M, ts.m, ts.m, ts.velocityNames, ts.velocityNames);
  b.latex.push_back("M = " + latexMatrix(ts.pr, ts.s.M, ts.m, ts.m));
  return b.done();
}

EquationBlock rightHandSideBlock(const Typesetting& ts) {
  const SymbolicEquations& s = ts.s;
  BlockBuilder b{"Right-hand side F (M ẏ − Aᵀλ = F)", {}, {}};
  for (int a = 0; a < ts.m; ++a) {
    b.plain.push_back("F_" + ts.velocityNames[a] + " = " + ts.pr.plain(s.F(a, 0)));
    b.latex.push_back("F_{" + texName(s.y[a]) + "} = " + ts.pr.latex(s.F(a, 0)));
  }
  return b.done();
}

EquationBlock constraintMatrixBlock(const Typesetting& ts) {
  const SymbolicEquations& s = ts.s;
  std::vector<std::string> rowNames;
  for (int c = 0; c < ts.kt; ++c)
    rowNames.push_back(c < s.k ? "Φ" + superscript(c + 1) : "ġ" + superscript(c - s.k + 1));
  BlockBuilder a{"Constraint matrix A = ∂Φ/∂y (A ẏ = b)", {}, {}};
  a.plain = plainMatrix(ts.pr, "A", s.A, ts.kt, ts.m, rowNames, ts.velocityNames);
  a.latex.push_back("A = " + latexMatrix(ts.pr, s.A, ts.kt, ts.m));
  return a.done();
}

EquationBlock constraintRightHandSideBlock(const Typesetting& ts) {
  const SymbolicEquations& s = ts.s;
  BlockBuilder b{"b = −(∂Φ/∂t + ∂Φ/∂q ρ y)", {}, {}};
  for (int c = 0; c < ts.kt; ++c) {
    b.plain.push_back("b" + subscript(c + 1) + " = " + ts.pr.plain(s.b(c, 0)));
    b.latex.push_back("b_{" + std::to_string(c + 1) + "} = " + ts.pr.latex(s.b(c, 0)));
  }
  return b.done();
}

EquationBlock explicitBlock(const Typesetting& ts) {
  const SymbolicEquations& s = ts.s;
  BlockBuilder b{
      ts.kt > 0 ? "Explicit equations (constraints eliminated)" : "Explicit equations", {}, {}};
  for (int a = 0; a < ts.m; ++a) {
    b.plain.push_back(dotPlain(ts.velocityNames[a]) + " = " + ts.pr.plain(s.ydot(a, 0)));
    b.latex.push_back(dotLatex(texName(s.y[a])) + " = " + ts.pr.latex(s.ydot(a, 0)));
  }
  for (int c = 0; c < ts.kt; ++c) {
    b.plain.push_back("λ" + subscript(c + 1) + " = " + ts.pr.plain(s.lambda(c, 0)));
    b.latex.push_back("\\lambda_{" + std::to_string(c + 1) + "} = " + ts.pr.latex(s.lambda(c, 0)));
  }
  return b.done();
}

// ---- Control models: Pontryagin's equations (control_equations.h) ----

// The context of a control model's blocks: the geometry's (for its structure block) and the
// control model's own.
struct ControlTypesetting {
  const ControlEquations& e;
  const Printer& pr;
  Typesetting geometry;
};

// ξ̇_vx, \dot{\xi}_{\mathrm{vx}}: the rate of the costate of velocity a.
std::string costateRatePlain(const ControlTypesetting& ts, int a) {
  return "ξ\u0307_" + ts.geometry.velocityNames[a];
}
std::string costateRateLatex(const ControlTypesetting& ts, int a) {
  return "\\dot{\\xi}_{" + texName(ts.e.geometry.y[a]) + "}";
}

EquationBlock controlSectionBlock(const ControlTypesetting& ts) {
  const ControlEquations& e = ts.e;
  BlockBuilder b{"Control section y = f(t, q, u) and cost L(t, q, u)", {}, {}};
  for (int a = 0; a < ts.geometry.m; ++a) {
    b.plain.push_back(ts.geometry.velocityNames[a] + " = " + ts.pr.plain(e.f[a]));
    b.latex.push_back(texName(e.geometry.y[a]) + " = " + ts.pr.latex(e.f[a]));
  }
  b.plain.push_back("L = " + ts.pr.plain(e.cost));
  b.latex.push_back("L = " + ts.pr.latex(e.cost));
  return b.done();
}

EquationBlock hamiltonianBlock(const ControlTypesetting& ts) {
  BlockBuilder b{"Hamiltonian H = ξ_i f^i − L", {}, {}};
  b.plain.push_back("H = " + ts.pr.plain(ts.e.hamiltonian));
  b.latex.push_back("H = " + ts.pr.latex(ts.e.hamiltonian));
  return b.done();
}

// q̇ = … for every coordinate, from `rates` (n).
void coordinateRates(const ControlTypesetting& ts, const std::vector<ex>& rates, BlockBuilder& b) {
  const SymbolicEquations& s = ts.e.geometry;
  for (int i = 0; i < ts.geometry.n; ++i) {
    b.plain.push_back(dotPlain(s.q[i].get_name()) + " = " + ts.pr.plain(rates[i]));
    b.latex.push_back(dotLatex(texName(s.q[i])) + " = " + ts.pr.latex(rates[i]));
  }
}

// ξ̇ = … for every costate, from `rates` (m).
void costateRates(const ControlTypesetting& ts, const std::vector<ex>& rates, BlockBuilder& b) {
  for (int a = 0; a < ts.geometry.m; ++a) {
    b.plain.push_back(costateRatePlain(ts, a) + " = " + ts.pr.plain(rates[a]));
    b.latex.push_back(costateRateLatex(ts, a) + " = " + ts.pr.latex(rates[a]));
  }
}

EquationBlock coordinateRateBlock(const ControlTypesetting& ts) {
  BlockBuilder b{"(5.6) q̇^a = ρ^a_i f^i", {}, {}};
  coordinateRates(ts, ts.e.qdot, b);
  return b.done();
}

EquationBlock costateBlock(const ControlTypesetting& ts) {
  BlockBuilder b{"(5.7) ξ̇_j = C^k_ij f^i ξ_k + ρ^a_j (∂L/∂q^a − ξ_i ∂f^i/∂q^a)", {}, {}};
  costateRates(ts, ts.e.xidot, b);
  return b.done();
}

EquationBlock stationarityBlock(const ControlTypesetting& ts) {
  BlockBuilder b{"(5.8) 0 = ∂L/∂u − ξ_i ∂f^i/∂u", {}, {}};
  for (const ex& condition : ts.e.stationarity) {
    b.plain.push_back("0 = " + ts.pr.plain(condition));
    b.latex.push_back("0 = " + ts.pr.latex(condition));
  }
  return b.done();
}

EquationBlock controlsBlock(const ControlTypesetting& ts) {
  const ControlEquations& e = ts.e;
  BlockBuilder b{"Controls u = u(t, q, ξ), solved from (5.8)", {}, {}};
  for (size_t j = 0; j < e.u.size(); ++j) {
    b.plain.push_back(e.u[j].get_name() + " = " + ts.pr.plain(e.control[j]));
    b.latex.push_back(texName(e.u[j]) + " = " + ts.pr.latex(e.control[j]));
  }
  return b.done();
}

EquationBlock extremalBlock(const ControlTypesetting& ts) {
  BlockBuilder b{"Extremal equations, with u = u(t, q, ξ)", {}, {}};
  coordinateRates(ts, ts.e.qdotOf, b);
  costateRates(ts, ts.e.xidotOf, b);
  return b.done();
}

DerivedEquations typesetControl(const ControlEquations& e) {
  DerivedEquations out;
  out.optimalControl = true;
  out.summary = kControlSummary;
  out.notes = e.notes;
  if (!e.derived) return out;
  const SymbolicEquations& s = e.geometry;
  const Printer pr(s, e.u, e.xi);
  const ControlTypesetting ts{
      e, pr, {s, pr, names(s.y), static_cast<int>(s.q.size()), static_cast<int>(s.y.size()), 0}};
  out.blocks.push_back(controlSectionBlock(ts));
  out.blocks.push_back(hamiltonianBlock(ts));
  if (!s.structure.empty()) out.blocks.push_back(structureBlock(ts.geometry));
  out.blocks.push_back(coordinateRateBlock(ts));
  out.blocks.push_back(costateBlock(ts));
  out.blocks.push_back(stationarityBlock(ts));
  if (e.solved) {
    out.blocks.push_back(controlsBlock(ts));
    out.blocks.push_back(extremalBlock(ts));
  } else {
    out.notes.push_back("u = u(t, q, ξ) not shown: " + e.notSolvedBecause);
  }
  return out;
}

// ---- The Hamiltonian side: H and the nonholonomic bracket (hamiltonian_equations.h) ----

// The context of the Hamiltonian blocks: the system's geometry's and the transform's own.
struct HamiltonianTypesetting {
  const HamiltonianEquations& e;
  const Printer& pr;
  Typesetting geometry;
};

// The plain and LaTeX names of the coordinate z^I of M* (q, then π).
std::string coordinatePlain(const HamiltonianEquations& e, int I) { return e.z[I].get_name(); }
std::string coordinateLatex(const HamiltonianEquations& e, int I) { return texName(e.z[I]); }

EquationBlock legendreBlock(const HamiltonianTypesetting& ts) {
  const HamiltonianEquations& e = ts.e;
  BlockBuilder b{"Legendre transform p = ∂L/∂y", {}, {}};
  for (int a = 0; a < ts.geometry.m; ++a) {
    b.plain.push_back(e.p[a].get_name() + " = " + ts.pr.plain(e.momentum[a]));
    b.latex.push_back(texName(e.p[a]) + " = " + ts.pr.latex(e.momentum[a]));
  }
  return b.done();
}

EquationBlock hamiltonianFunctionBlock(const HamiltonianTypesetting& ts) {
  BlockBuilder b{"Hamiltonian H = p·y − L, y = M⁻¹(p − p0)", {}, {}};
  b.plain.push_back("H = " + ts.pr.plain(ts.e.hamiltonian));
  b.latex.push_back("H = " + ts.pr.latex(ts.e.hamiltonian));
  return b.done();
}

// X_a = Σ X_a^α e_α for every independent velocity, and y0 where it is not 0.
EquationBlock distributionBlock(const HamiltonianTypesetting& ts) {
  const HamiltonianEquations& e = ts.e;
  BlockBuilder b{"Constraint distribution D = ker A: basis X_a, and y = X v + y0", {}, {}};
  for (size_t a = 0; a < e.independent.size(); ++a) {
    const int v = e.independent[a];
    const auto [plainSum, latexSum] = bracketSum(ts.geometry, e.X[a]);
    b.plain.push_back("X_" + ts.geometry.velocityNames[v] + " = " + plainSum);
    b.latex.push_back("X_{" + texName(e.lagrangian.y[v]) + "} = " + latexSum);
  }
  const auto [plainSum, latexSum] = bracketSum(ts.geometry, e.particular);
  if (!plainSum.empty()) {
    b.plain.push_back("y0 = " + plainSum);
    b.latex.push_back("y_{0} = " + latexSum);
  }
  return b.done();
}

// π_a = ⟨p, X_a⟩, p on M* as a function of (q, π) (but for p_α = π_a where π_a is p_α
// alone), and H on M*.
EquationBlock constrainedMomentaBlock(const HamiltonianTypesetting& ts) {
  const HamiltonianEquations& e = ts.e;
  BlockBuilder b{"Constrained momenta π_a = ⟨p, X_a⟩; p and H on M* in (q, π)", {}, {}};
  std::vector<ex> pairings;
  for (size_t a = 0; a < e.pi.size(); ++a) {
    ex pairing = 0;
    for (int g = 0; g < ts.geometry.m; ++g) pairing += e.X[a][g] * e.p[g];
    pairings.push_back(pairing);
    b.plain.push_back(e.pi[a].get_name() + " = " + ts.pr.plain(pairing));
    b.latex.push_back(texName(e.pi[a]) + " = " + ts.pr.latex(pairing));
  }
  for (int g = 0; g < ts.geometry.m; ++g) {
    const ex& p = e.momentumOnConstraint[g];
    bool restated = false;  // p_α = π_a, which π_a = p_α says already
    for (size_t a = 0; a < e.pi.size(); ++a)
      restated = restated || (p.is_equal(e.pi[a]) && pairings[a].is_equal(e.p[g]));
    if (restated) continue;
    b.plain.push_back(e.p[g].get_name() + " = " + ts.pr.plain(p));
    b.latex.push_back(texName(e.p[g]) + " = " + ts.pr.latex(p));
  }
  b.plain.push_back("H(q, π) = " + ts.pr.plain(e.constrainedHamiltonian));
  b.latex.push_back("H(q, \\pi) = " + ts.pr.latex(e.constrainedHamiltonian));
  return b.done();
}

// The bracket's heading: what it is (Poisson when skew with a zero Jacobiator, almost-Poisson
// when skew with another, neither when not skew) and its defining formulas.
std::string bracketTitle(const HamiltonianEquations& e) {
  if (!e.skew)
    return e.constrained
               ? "Bracket of (q, π) on the constraint, not skew-symmetric (general algebroid): "
                 "{q, π_a} = ρ X_a = −{π_a, q}, {π_a, π_b} = ⟨p, [X_b, X_a]⟩, every order shown"
               : "Bracket of (q, p), not skew-symmetric (general algebroid): {q, p_α} = ρ e_α "
                 "= −{p_α, q}, {p_α, p_β} = C^γ_βα p_γ, every order shown";
  if (e.constrained)
    return std::string("Nonholonomic bracket of (q, π), ") +
           (e.jacobiator.empty() ? "Poisson" : "almost-Poisson") +
           ": {q, π_a} = ρ X_a, {π_a, π_b} = −⟨p, [X_a, X_b]⟩";
  return std::string(e.jacobiator.empty() ? "Linear Poisson" : "Linear almost-Poisson") +
         " bracket of (q, p): {q, p_α} = ρ e_α, {p_α, p_β} = −C^γ_αβ p_γ";
}

// The nonzero {z^I, z^J}: I < J for a skew bracket; for one that is not skew also J < I and
// I = J among the momenta ({π, q} = −{q, π} still).
EquationBlock bracketBlock(const HamiltonianTypesetting& ts) {
  const HamiltonianEquations& e = ts.e;
  BlockBuilder b{bracketTitle(e), {}, {}};
  const int N = static_cast<int>(e.z.size()), n = static_cast<int>(e.lagrangian.q.size());
  for (int I = 0; I < N; ++I)
    for (int J = e.skew || I < n ? I + 1 : n; J < N; ++J) {
      if (e.Lambda(I, J).is_zero()) continue;
      // Appended in steps: a literal plus a temporary trips GCC 12's -Wrestrict (style.md).
      std::string plain = "{";
      plain += coordinatePlain(e, I);
      plain += ", ";
      plain += coordinatePlain(e, J);
      plain += "} = ";
      plain += ts.pr.plain(e.Lambda(I, J));
      b.plain.push_back(std::move(plain));
      b.latex.push_back("\\{" + coordinateLatex(e, I) + ", " + coordinateLatex(e, J) +
                        "\\} = " + ts.pr.latex(e.Lambda(I, J)));
    }
  if (b.plain.empty()) {
    b.plain.push_back("all brackets of the coordinates are 0");
    b.latex.push_back("\\mbox{all brackets of the coordinates are 0}");
  }
  return b.done();
}

EquationBlock jacobiatorBlock(const HamiltonianTypesetting& ts) {
  const HamiltonianEquations& e = ts.e;
  BlockBuilder b{"Jacobiator J(f, g, h) = {{f, g}, h} + {{g, h}, f} + {{h, f}, g}", {}, {}};
  if (!e.skew) {
    b.plain.push_back(
        "not formed: the bracket is not skew-symmetric, so it is neither Poisson nor "
        "almost-Poisson (ż = {z, H} still gives the motion, and {H, H} need not vanish)");
    b.latex.push_back(
        "\\mbox{not formed: the bracket is not skew-symmetric, so it is neither Poisson nor "
        "almost-Poisson}");
    return b.done();
  }
  for (const JacobiatorEntry& j : e.jacobiator) {
    b.plain.push_back("J(" + coordinatePlain(e, j.i) + ", " + coordinatePlain(e, j.j) + ", " +
                      coordinatePlain(e, j.l) + ") = " + ts.pr.plain(j.value));
    b.latex.push_back("J(" + coordinateLatex(e, j.i) + ", " + coordinateLatex(e, j.j) + ", " +
                      coordinateLatex(e, j.l) + ") = " + ts.pr.latex(j.value));
  }
  if (e.jacobiator.empty()) {
    b.plain.push_back("Jacobiator: 0 (the bracket is Poisson)");
    b.latex.push_back("J = 0 \\quad \\mbox{(the bracket is Poisson)}");
  }
  return b.done();
}

DerivedEquations typesetHamiltonian(const HamiltonianEquations& e) {
  DerivedEquations out;
  out.hamiltonian = true;
  out.summary = kHamiltonianSummary;
  out.notes = e.notes;
  if (!e.derived) return out;
  const SymbolicEquations& s = e.lagrangian;
  const Printer pr(s, e.pi, e.p);
  const HamiltonianTypesetting ts{
      e, pr, {s, pr, names(s.y), static_cast<int>(s.q.size()), static_cast<int>(s.y.size()), 0}};
  if (!e.legendre) {
    out.notes.push_back("H not shown: " + e.noLegendreBecause);
    return out;
  }
  out.blocks.push_back(legendreBlock(ts));
  out.blocks.push_back(hamiltonianFunctionBlock(ts));
  if (e.bracket) {
    if (e.constrained) {
      out.blocks.push_back(distributionBlock(ts));
      out.blocks.push_back(constrainedMomentaBlock(ts));
    }
    out.blocks.push_back(bracketBlock(ts));
    out.blocks.push_back(jacobiatorBlock(ts));
  } else {
    out.notes.push_back("bracket not shown: " + e.noBracketBecause);
  }
  if (e.affine.formed && (e.affine.affine || e.affine.timeDependent))
    for (EquationBlock& block : affineBracketBlocks(e.affine, s, pr))
      out.blocks.push_back(std::move(block));
  else if (e.constrained && !e.affine.formed && !e.affine.notFormedBecause.empty() &&
           (e.affine.affine || e.affine.timeDependent))
    out.notes.push_back("bracket of sections not shown: " + e.affine.notFormedBecause);
  return out;
}

}  // namespace

DerivedEquations deriveEquations(const SystemModel& system, const std::vector<double>& parameters,
                                 const std::atomic<bool>* cancel) {
  std::lock_guard lock(ginacMutex());  // held until the GiNaC expressions below are gone
  const CancelDerivationsWhen cancelled(cancel);
  if (system.info().isControlModel()) return typesetControl(deriveControlSymbolic(system));
  const SymbolicEquations s = deriveSymbolic(system, parameters);
  DerivedEquations out;
  out.summary = kLagrangianSummary;
  out.notes = s.notes;
  if (!s.recorded) return out;
  const Printer pr(s);
  const Typesetting ts{s,
                       pr,
                       names(s.y),
                       static_cast<int>(s.q.size()),
                       static_cast<int>(s.y.size()),
                       static_cast<int>(s.constraints.size())};
  out.blocks.push_back(lagrangianBlock(ts));
  if (!s.identityAnchor) out.blocks.push_back(anchorBlock(ts));
  if (!s.structure.empty()) out.blocks.push_back(structureBlock(ts));
  if (s.k > 0) out.blocks.push_back(constraintsBlock(ts));
  if (s.h > 0) out.blocks.push_back(holonomicBlock(ts));
  out.blocks.push_back(massMatrixBlock(ts));
  out.blocks.push_back(rightHandSideBlock(ts));
  if (ts.kt > 0) {
    out.blocks.push_back(constraintMatrixBlock(ts));
    out.blocks.push_back(constraintRightHandSideBlock(ts));
  }
  if (s.solved)
    out.blocks.push_back(explicitBlock(ts));
  else
    out.notes.push_back("explicit equations not shown: " + s.notSolvedBecause);
  return out;
}

DerivedEquations deriveHamiltonianEquations(const SystemModel& system,
                                            const std::vector<double>& parameters,
                                            const std::atomic<bool>* cancel) {
  if (system.info().isControlModel())
    throw InputError("system '" + system.name() +
                     "' is a control model: it has no Lagrangian to take to the Hamiltonian side "
                     "(its equations are Pontryagin's, which already carry a Hamiltonian)");
  std::lock_guard lock(ginacMutex());
  const CancelDerivationsWhen cancelled(cancel);
  const HamiltonianEquations e = deriveHamiltonianSymbolic(system, parameters);
  DerivedEquations out = typesetHamiltonian(e);
  if (e.bracket && e.constrained) {
    const ConstrainedAlgebroid g = constrainedAlgebroidOf(e, system, parameters);
    if (g.formed)
      for (EquationBlock& block : constrainedAlgebroidBlocks(g, false))
        out.blocks.push_back(std::move(block));
  }
  return out;
}

std::string toPlainText(const DerivedEquations& equations) {
  std::string out;
  for (const EquationBlock& block : equations.blocks) {
    out += block.title + "\n";
    std::istringstream lines(block.plain);
    for (std::string line; std::getline(lines, line);) out += "  " + line + "\n";
    out += "\n";
  }
  if (!equations.notes.empty()) {
    out += "Notes\n";
    for (const std::string& note : equations.notes) out += "  - " + note + "\n";
  }
  return out;
}

std::string toLatex(const DerivedEquations& equations) {
  std::string out =
      equations.optimalControl
          ? "% Derived by Nonholonomic Lab: Pontryagin's equations (5.6)-(5.8) of the optimal "
            "control, H = \\xi_i f^i - L. Needs amsmath.\n"
      : equations.hamiltonian
          ? "% Derived by Nonholonomic Lab (theory §9): H = p y - L and the nonholonomic "
            "bracket of (q, \\pi) on the constraint. Needs amsmath.\n"
          : "% Derived by Nonholonomic Lab (theory §2): M \\dot y - A^T \\lambda = F, "
            "A \\dot y = b. Needs amsmath.\n";
  for (const EquationBlock& block : equations.blocks) {
    out += "% " + block.title + "\n\\begin{gather*}\n";
    std::istringstream lines(block.latex);
    std::vector<std::string> rows;
    for (std::string line; std::getline(lines, line);) rows.push_back(line);
    for (size_t i = 0; i < rows.size(); ++i)
      out += "  " + rows[i] + (i + 1 < rows.size() ? " \\\\\n" : "\n");
    out += "\\end{gather*}\n";
  }
  for (const std::string& note : equations.notes) out += "% Note: " + note + "\n";
  return out;
}

}  // namespace nh::model
// SPDX-License-Identifier: GPL-3.0-or-later
