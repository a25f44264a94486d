// The blocks of the affine nonholonomic bracket (affine_bracket_text.h). The partial
// derivatives of H', H'' and of H' − H, H'' − H in the bracket of two sections, the vectors
// ∂/∂p_α and the differentials dz are symbols of their own, so that each piece prints as one
// expression in the printer's order.
#include "core/model/affine_bracket_text.h"

namespace nh::model {

namespace {

using GiNaC::ex;
using GiNaC::symbol;
using namespace typeset;

// Symbols standing for ∂X/∂t and ∂X/∂z^I of a function X named `plain` (LaTeX `tex`).
struct Partials {
  symbol t;
  std::vector<symbol> z;
};

Partials partialsOf(const AffineBracket& b, const std::string& plain, const std::string& tex) {
  Partials d{symbol("∂" + plain + "/∂t", "\\partial_{t} " + tex), {}};
  for (const symbol& z : b.z)
    d.z.emplace_back("∂" + plain + "/∂" + z.get_name(), "\\partial_{" + texName(z) + "} " + tex);
  return d;
}

// {A, X} = ∂A/∂z^I Λ^{IJ} ∂X/∂z^J with X's partials as symbols.
ex bracketWith(const AffineBracket& b, const ex& A, const Partials& X) {
  ex out = 0;
  for (size_t I = 0; I < b.z.size(); ++I)
    for (size_t J = 0; J < b.z.size(); ++J)
      if (!b.Lambda(I, J).is_zero()) out += A.diff(b.z[I]) * b.Lambda(I, J) * X.z[J];
  return out;
}

// Z̄_a(X) = Z[a][α] ∂X/∂p_α with X's partials as symbols.
ex forceOn(const AffineBracket& b, int a, const Partials& X) {
  const size_t n = b.z.size() - b.Z[a].size();
  ex out = 0;
  for (size_t al = 0; al < b.Z[a].size(); ++al) out += b.Z[a][al] * X.z[n + al];
  return out;
}

std::string psiPlain(int a) { return "ψ" + superscript(a + 1); }
std::string psiLatex(int a) { return "\\psi^{" + std::to_string(a + 1) + "}"; }

// "(e)" for a sum, e otherwise.
std::string grouped(const Printer& pr, const ex& e, bool tex) {
  const std::string text = tex ? pr.latex(e) : pr.plain(e);
  if (!GiNaC::is_a<GiNaC::add>(e)) return text;
  return std::string(tex ? "\\left(" : "(").append(text).append(tex ? "\\right)" : ")");
}

EquationBlock constraintsOnMomenta(const AffineBracket& b, const Printer& pr) {
  BlockBuilder out{"Constraints on the momenta ψ^a(t, q, p) = Φ^a(t, q, M⁻¹(p − p0)) = 0", {}, {}};
  for (size_t a = 0; a < b.psi.size(); ++a) {
    out.plain.push_back(psiPlain(static_cast<int>(a)) + " = " + pr.plain(b.psi[a]));
    out.latex.push_back(psiLatex(static_cast<int>(a)) + " = " + pr.latex(b.psi[a]));
  }
  return out.done();
}

// Z̄_a as combinations of the symbols ∂/∂p_α, and 𝒞.
EquationBlock forcesAndRegularity(const AffineBracket& b, const Printer& pr) {
  BlockBuilder out{
      "Constraint forces Z̄_a = −M ∂ψ^a/∂p · ∂/∂p and regularity 𝒞^ab = dψ^a(Z̄_b)", {}, {}};
  const size_t n = b.z.size() - b.Z.front().size();
  std::vector<std::string> names, plainBasis, texBasis;
  for (size_t al = n; al < b.z.size(); ++al) {
    plainBasis.push_back("∂/∂" + b.z[al].get_name());
    texBasis.push_back("\\partial_{" + texName(b.z[al]) + "}");
  }
  for (size_t a = 0; a < b.Z.size(); ++a) {
    const auto [plain, latex] = combinationText(pr, b.Z[a], plainBasis, texBasis);
    out.plain.push_back("Z̄_" + std::to_string(a + 1) + " = " + plain);
    out.latex.push_back("\\bar{Z}_{" + std::to_string(a + 1) + "} = " + latex);
    names.push_back(psiPlain(static_cast<int>(a)));
  }
  const int r = static_cast<int>(b.psi.size());
  for (const std::string& line : plainMatrix(pr, "𝒞", b.regularity, r, r, names, names))
    out.plain.push_back(line);
  out.latex.push_back("\\mathcal{C} = " + latexMatrix(pr, b.regularity, r, r));
  return out.done();
}

// P = Id − 𝒞_ab Z̄_a ⊗ dψ^b, and the dψ^b as combinations of the symbols dt, dz.
EquationBlock projector(const AffineBracket& b, const SymbolicEquations& s, const Printer& pr) {
  BlockBuilder out{"Projector P = Id − 𝒞_ab Z̄_a ⊗ dψ^b onto the constraint", {}, {}};
  std::string plain = "P = Id", latex = "P = \\mathrm{Id}";
  const int r = static_cast<int>(b.psi.size());
  for (int a = 0; a < r; ++a)
    for (int c = 0; c < r; ++c) {
      const ex coefficient = simplified(-b.regularityInverse(a, c), GiNaC::lst{});
      if (coefficient.is_zero()) continue;
      appendTerm(plain, grouped(pr, coefficient, false) + " Z̄_" + std::to_string(a + 1) + " ⊗ d" +
                            psiPlain(c));
      appendTerm(latex, grouped(pr, coefficient, true) + " \\bar{Z}_{" + std::to_string(a + 1) +
                            "} \\otimes d" + psiLatex(c));
    }
  out.plain.push_back(plain);
  out.latex.push_back(latex);
  std::vector<std::string> plainBasis{"dt"}, texBasis{"dt"};
  for (const symbol& z : b.z) {
    plainBasis.push_back(std::string("d").append(z.get_name()));
    texBasis.push_back(std::string("d").append(texName(z)));
  }
  for (int c = 0; c < r; ++c) {
    std::vector<ex> coefficients{b.psi[c].diff(s.t)};
    for (const symbol& z : b.z) coefficients.push_back(b.psi[c].diff(z));
    const auto [dPlain, dLatex] = combinationText(pr, coefficients, plainBasis, texBasis);
    out.plain.push_back(std::string("d").append(psiPlain(c)).append(" = ").append(dPlain));
    out.latex.push_back(std::string("d").append(psiLatex(c)).append(" = ").append(dLatex));
  }
  return out.done();
}

// " + c" or " − c'" (c' = −c, where c prints with a leading minus) before a product.
std::string signedFactor(const Printer& pr, const ex& c, bool tex) {
  const std::string text = tex ? pr.latex(c) : pr.plain(c);
  const bool negative = text.starts_with("-");
  std::string out = negative ? (tex ? " - " : " − ") : " + ";
  return out.append(grouped(pr, negative ? ex(-c) : c, tex));
}

// One term "± c [first] [second]" of the bracket, as a line of each kind.
void termLine(BlockBuilder& out, const Printer& pr, const ex& c, const ex& first,
              const ex& second) {
  std::string plain = " ", latex = "\\quad";
  plain.append(signedFactor(pr, c, false)).append(" [").append(pr.plain(first));
  plain.append("] [").append(pr.plain(second)).append("]");
  latex.append(signedFactor(pr, c, true)).append(" \\left[").append(pr.latex(first));
  latex.append("\\right] \\left[").append(pr.latex(second)).append("\\right]");
  out.plain.push_back(std::move(plain));
  out.latex.push_back(std::move(latex));
}

// ∂(H' − H'')/∂t + {H', H''}, the bracket grouped by the entries of Λ as seed 002 writes it,
// a line each: Λ^IJ (∂H'/∂z^I ∂H''/∂z^J − ∂H'/∂z^J ∂H''/∂z^I) for a skew pair, the two
// orders apart where Λ is not skew.
void headLines(BlockBuilder& out, const AffineBracket& b, const Printer& pr, const Partials& H1,
               const Partials& H2) {
  out.plain.push_back("{h', h''}_nh = ∂H'/∂t − ∂H''/∂t");
  out.latex.push_back("\\{h', h''\\}_{nh} = \\partial_{t} H' - \\partial_{t} H''");
  const size_t N = b.z.size();
  for (size_t I = 0; I < N; ++I)
    for (size_t J = I; J < N; ++J) {
      const ex& up = b.Lambda(I, J);
      const ex& down = b.Lambda(J, I);
      if (up.is_zero() && down.is_zero()) continue;
      const bool skew = I != J && (up + down).is_zero();
      const ex pair = skew ? H1.z[I] * H2.z[J] - H1.z[J] * H2.z[I]
                           : up * H1.z[I] * H2.z[J] + (I == J ? 0 : down * H1.z[J] * H2.z[I]);
      const ex c = skew ? up : ex(1);
      std::string plain = " ", latex = "\\quad";
      if ((c - 1).is_zero() || (c + 1).is_zero()) {
        plain.append(c.is_equal(1) ? " + " : " − ");
        latex.append(c.is_equal(1) ? " + " : " - ");
      } else {
        plain.append(signedFactor(pr, c, false)).append(" ");
        latex.append(signedFactor(pr, c, true)).append(" ");
      }
      plain.append("(").append(pr.plain(pair)).append(")");
      latex.append("\\left(").append(pr.latex(pair)).append("\\right)");
      out.plain.push_back(std::move(plain));
      out.latex.push_back(std::move(latex));
    }
}

// The bracket of two sections with H', H'' and the differences H' − H, H'' − H written as
// their partial derivatives: the Λ terms, then one term of the 𝒞 sums a line.
EquationBlock sectionBracketBlock(const AffineBracket& b, const SymbolicEquations& s,
                                  const Printer&) {
  BlockBuilder out{"Nonholonomic bracket of sections {h', h''}_nh (affine, with time)", {}, {}};
  const Partials H1 = partialsOf(b, "H'", "H'"), H2 = partialsOf(b, "H''", "H''");
  const Partials F = partialsOf(b, "(H'−H)", "(H'-H)"), G = partialsOf(b, "(H''−H)", "(H''-H)");
  // In a product: the momenta, then the partials of H' (and H' − H), then those of H''.
  std::vector<symbol> first(b.z.begin() + static_cast<long>(s.q.size()), b.z.end()), second;
  for (const Partials* d : {&H1, &F}) first.insert(first.end(), d->z.begin(), d->z.end());
  for (const Partials* d : {&H2, &G}) second.insert(second.end(), d->z.begin(), d->z.end());
  const Printer pr(s, second, first);
  headLines(out, b, pr, H1, H2);
  const int r = static_cast<int>(b.psi.size());
  for (int a = 0; a < r; ++a)
    for (int c = 0; c < r; ++c) {
      const ex& Cac = b.regularityInverse(a, c);
      if (Cac.is_zero()) continue;
      termLine(out, pr, simplified(-Cac, GiNaC::lst{}),
               b.psi[c].diff(s.t) + bracketWith(b, b.psi[c], H2), forceOn(b, a, F));
      termLine(out, pr, Cac, b.psi[a].diff(s.t) + bracketWith(b, b.psi[a], H1), forceOn(b, c, G));
    }
  for (int a = 0; a < r; ++a)  // 𝒞_ac 𝒞_de {ψ^c, ψ^e} Z̄_a(H' − H) Z̄_d(H'' − H)
    for (int d = 0; d < r; ++d) {
      ex K = 0;
      for (int c = 0; c < r; ++c)
        for (int e = 0; e < r; ++e)
          K += b.regularityInverse(a, c) * b.regularityInverse(d, e) *
               linearBracket(b, b.psi[c], b.psi[e]);
      K = simplified(K, GiNaC::lst{});
      if (!K.is_zero()) termLine(out, pr, K, forceOn(b, a, F), forceOn(b, d, G));
    }
  return out.done();
}

// λ̄_a and ż of every coordinate on B̄.
EquationBlock motionBlock(const AffineBracket& b, const Printer& pr) {
  BlockBuilder out{
      "Motion ḟ = ∂f/∂t + {f, H} + Q·∂f/∂p + λ̄_a Z̄_a(f), λ̄_a = −𝒞_ab (∂ψ^b/∂t + {ψ^b, H} + "
      "Q·∂ψ^b/∂p); without Q, ḟ = {h + f, h}_nh",
      {},
      {}};
  for (size_t a = 0; a < b.multiplier.size(); ++a) {
    out.plain.push_back("λ̄_" + std::to_string(a + 1) + " = " + pr.plain(b.multiplier[a]));
    out.latex.push_back("\\bar{\\lambda}_{" + std::to_string(a + 1) +
                        "} = " + pr.latex(b.multiplier[a]));
  }
  for (size_t I = 0; I < b.z.size(); ++I) {
    out.plain.push_back(dotPlain(b.z[I].get_name()) + " = " + pr.plain(b.rates[I]));
    out.latex.push_back(dotLatex(texName(b.z[I])) + " = " + pr.latex(b.rates[I]));
  }
  return out.done();
}

}  // namespace

std::vector<EquationBlock> affineBracketBlocks(const AffineBracket& b, const SymbolicEquations& s,
                                               const Printer& pr) {
  return {constraintsOnMomenta(b, pr), forcesAndRegularity(b, pr), projector(b, s, pr),
          sectionBracketBlock(b, s, pr), motionBlock(b, pr)};
}

}  // namespace nh::model
// SPDX-License-Identifier: GPL-3.0-or-later
