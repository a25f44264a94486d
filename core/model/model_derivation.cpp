// The exact derivations of a model file (model_loader.h), with GiNaC: the anchor's
// coefficients ρ (and that q̇ is linear in the velocities), the structure functions from the
// anchor where the file gives none, ġ and ∂g/∂q of the holonomic constraints, and whether the
// scene's moving frame moves.
#include "core/model/model_loader.h"

namespace nh::model::loader {

namespace {

// [X_a, X_b]ⁱ = ρʲ_a ∂_j ρⁱ_b − ρʲ_b ∂_j ρⁱ_a of the anchor's columns a and b, normalised
// (n×1); `zero` says whether every entry is 0.
GiNaC::matrix anchorBracket(const Variables& v, const GiNaC::matrix& rho, int a, int b,
                            bool& zero) {
  const int n = v.n();
  GiNaC::matrix bracket(n, 1);
  zero = true;
  for (int i = 0; i < n; ++i) {
    GiNaC::ex value = 0;
    for (int j = 0; j < n; ++j)
      value += rho(j, a) * rho(i, b).diff(GiNaC::ex_to<GiNaC::symbol>(v.q(j))) -
               rho(j, b) * rho(i, a).diff(GiNaC::ex_to<GiNaC::symbol>(v.q(j)));
    bracket(i, 0) = GiNaC::normal(value);
    zero &= bracket(i, 0).is_zero();
  }
  return bracket;
}

// Whether a scene expression depends on t or the state (a moving frame worth viewing from
// is one that moves).
bool movesWithState(const Variables& v, const Expression& e) {
  if (e.empty()) return false;
  const GiNaC::ex x = toGinac(e, v.sym);
  if (x.has(v.sym.time())) return true;
  for (int i = 0; i < v.n(); ++i)
    if (x.has(v.q(i))) return true;
  for (int a = 0; a < v.m(); ++a)
    if (x.has(v.y(a))) return true;
  return false;
}

}  // namespace

// Whether normal() is cheap for `e`: a bound of its expansion is small.
bool cheapToNormalise(const GiNaC::ex& e) {
  return expansionBound(e, kLoaderExpandLimit) <= kLoaderExpandLimit;
}

// Zero after normal() when that is cheap; an entry too large to normalise is tested as it
// stands (a derivative that vanishes is exactly 0).
bool isZeroExactly(const GiNaC::ex& e) {
  return e.is_zero() || (cheapToNormalise(e) && GiNaC::normal(e).is_zero());
}

// Exact derivations with GiNaC: the anchor's coefficients (and that it is linear in the
// velocities), structure functions from the anchor, ġ and ∂g/∂q.
void Loader::derive() {
  std::lock_guard lock(ginacMutex());
  const SymbolTable sym = makeSymbols(*data_);
  const Variables v{sym, data_->layout};
  const GiNaC::matrix rho = deriveAnchor(v);
  deriveStructure(v, rho);
  checkStructureAgainstAnchor(v, rho);
  deriveHolonomic(v, rho);
  info_.constantStructure = data_->structureConstant;
  findMovingFrame(v);
  checkFrameExactly(v);
}
// A derived GiNaC expression as a model expression, its messages naming `key`.
Expression Loader::toModel(const GiNaC::ex& e, const SymbolTable& sym,
                           const std::string& key) const {
  try {
    Expression x = fromGinac(e, sym, data_->layout);
    x.key = key;
    return x;
  } catch (const std::exception& err) {
    throw ModelError(file_, key, 0, 0, std::string("cannot be evaluated: ") + err.what());
  }
}

// ρ as GiNaC, n×m: the anchor's coefficients of the velocities (the identity without an
// anchor), also kept as model expressions (ModelData::rho).
GiNaC::matrix Loader::deriveAnchor(const Variables& v) {
  ModelData& d = *data_;
  const int n = v.n(), m = v.m();
  GiNaC::exmap zeroY;
  for (int a = 0; a < m; ++a) zeroY[v.y(a)] = 0;
  GiNaC::matrix rho(n, m);
  if (d.anchorGiven) {
    for (int i = 0; i < n; ++i) checkAnchorEntry(v, i, zeroY, rho);
  } else {
    for (int i = 0; i < n; ++i) rho(i, i) = 1;
  }
  d.rho.resize(static_cast<size_t>(n) * m);
  for (int a = 0; a < m; ++a)
    for (int i = 0; i < n; ++i)
      d.rho[i + n * a] = toModel(rho(i, a), v.sym, "anchor." + d.slotNames[d.layout.coordinate(i)]);
  return rho;
}

// Row i of ρ from q̇ of coordinate i, checked to be linear in the velocities with
// coefficients free of them.
void Loader::checkAnchorEntry(const Variables& v, int i, const GiNaC::exmap& zeroY,
                              GiNaC::matrix& rho) const {
  const ModelData& d = *data_;
  const int m = v.m();
  const Expression& text = d.anchorText[i];
  const std::string& coordinate = d.slotNames[d.layout.coordinate(i)];
  try {
    const GiNaC::ex qdot = toGinac(text, v.sym);
    for (int a = 0; a < m; ++a) {
      const GiNaC::ex c = qdot.diff(GiNaC::ex_to<GiNaC::symbol>(v.y(a)));
      for (int b = 0; b < m; ++b)
        if (!isZeroExactly(c.diff(GiNaC::ex_to<GiNaC::symbol>(v.y(b)))))
          failAt(
              text.key, text.where,
              "q̇ of '" + coordinate + "' is not linear in the velocities (the anchor is ρ(q) y)");
      rho(i, a) = c;
    }
    if (!isZeroExactly(qdot.subs(zeroY)))
      failAt(
          text.key, text.where,
          "q̇ of '" + coordinate + "' has a part without velocities (the anchor is ρ(q) y, linear)");
    for (int a = 0; a < m; ++a) {
      for (int b = 0; b < m; ++b)
        if (rho(i, a).has(v.y(b)))
          failAt(text.key, text.where, "the anchor's coefficients may not depend on velocities");
    }
  } catch (const ModelError&) {
    throw;
  } catch (const std::exception& e) {  // GiNaC: a pole, e.g. log(vx) at vx = 0
    failAt(text.key, text.where, std::string("cannot be derived symbolically: ") + e.what());
  }
}

// Structure: given, or the Hamel symbols of the anchor.
void Loader::deriveStructure(const Variables& v, const GiNaC::matrix& rho) {
  ModelData& d = *data_;
  if (d.structureGiven) {
    for (const StructureTerm& term : d.structure)
      d.structureConstant &= !v.dependsOnQ(toGinac(term.value, v.sym));
  } else if (d.anchorGiven && v.n() > 0) {
    structureFromAnchor(v, rho);
  }
}
// Each bracket [X_a, X_b] of the anchor's columns solved for C in ρ C = [X_a, X_b] through
// the normal equations, then checked exactly.
void Loader::structureFromAnchor(const Variables& v, const GiNaC::matrix& rho) {
  ModelData& d = *data_;
  const int n = v.n(), m = v.m();
  for (int i = 0; i < n; ++i)
    for (int a = 0; a < m; ++a)
      if (!cheapToNormalise(rho(i, a)))
        fail("structure", root_,
             "the anchor is too large to derive the structure functions symbolically "
             "(its entries would expand to more than " +
                 std::to_string(kLoaderExpandLimit) + " terms): give `structure`");
  GiNaC::matrix rhoT = rho.transpose();
  GiNaC::matrix gram = rhoT.mul(rho);
  const GiNaC::ex det = GiNaC::normal(gram.determinant());
  if (det.is_zero())
    fail("structure", root_,
         "the anchor's columns are dependent, so the structure functions cannot be derived "
         "from it: give `structure`");
  GiNaC::matrix unknowns(m, 1);
  std::vector<GiNaC::symbol> cs;
  for (int c = 0; c < m; ++c) {
    std::string name(1, 'c');  // (not "c" + …: g++ 12's -Wrestrict misfires on it here)
    name += std::to_string(c);
    cs.emplace_back(name);
    unknowns(c, 0) = cs.back();
  }
  for (int a = 0; a < m; ++a)
    for (int b = a + 1; b < m; ++b) {
      bool zero = true;
      const GiNaC::matrix bracket = anchorBracket(v, rho, a, b, zero);
      if (zero) continue;
      const GiNaC::matrix C = gram.solve(unknowns, rhoT.mul(bracket));
      for (int i = 0; i < n; ++i) {
        GiNaC::ex r = -bracket(i, 0);
        for (int c = 0; c < m; ++c) r += rho(i, c) * C(c, 0);
        if (!GiNaC::normal(r).is_zero())
          fail("structure", root_,
               "the bracket [" + d.slotNames[d.layout.velocity(a)] + ", " +
                   d.slotNames[d.layout.velocity(b)] +
                   "] of the anchor's columns is not in their span, so the structure "
                   "functions cannot be derived from the anchor: give `structure`");
      }
      for (int c = 0; c < m; ++c) {
        const GiNaC::ex value = GiNaC::normal(C(c, 0));
        if (value.is_zero()) continue;
        StructureTerm term;
        term.a = a;
        term.b = b;
        term.c = c;
        term.value = toModel(value, v.sym, "structure");
        d.structureConstant &= !v.dependsOnQ(value);
        d.structure.push_back(std::move(term));
      }
    }
}

// ġ = ∂g/∂t + ∂g/∂q ρ y, and G = ∂g/∂q.
void Loader::deriveHolonomic(const Variables& v, const GiNaC::matrix& rho) {
  ModelData& d = *data_;
  const int n = v.n(), m = v.m();
  const int h = static_cast<int>(d.holonomic.size());
  d.holonomicJacobian.resize(static_cast<size_t>(h) * n);
  for (int c = 0; c < h; ++c) {
    const GiNaC::ex g = toGinac(d.holonomic[c], v.sym);
    GiNaC::ex rate = g.diff(GiNaC::ex_to<GiNaC::symbol>(GiNaC::ex(v.sym.time())));
    for (int i = 0; i < n; ++i) {
      const GiNaC::ex dg = g.diff(GiNaC::ex_to<GiNaC::symbol>(v.q(i)));
      d.holonomicJacobian[c + h * i] = toModel(dg, v.sym, d.holonomic[c].key);
      GiNaC::ex qdot = 0;
      for (int a = 0; a < m; ++a) qdot += rho(i, a) * v.y(a);
      rate += dg * qdot;
    }
    d.holonomicRate.push_back(toModel(rate, v.sym, d.holonomic[c].key));
  }
}

// A moving frame worth viewing from is one that moves: it depends on t or the state.
void Loader::findMovingFrame(const Variables& v) {
  for (const SceneRotation& r : data_->scene.movingFrame) {
    bool any = movesWithState(v, r.angle);
    for (const auto& e : r.quaternion) any |= movesWithState(v, e);
    for (const auto& e : r.axis) any |= movesWithState(v, e);
    info_.editing.movingFrame |= any;
  }
}
}  // namespace nh::model::loader
// SPDX-License-Identifier: GPL-3.0-or-later
