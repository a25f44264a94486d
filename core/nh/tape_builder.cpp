// Taped backend (theory §2–3): the system's functions recorded once on a tape, the
// derivatives the equations need compiled into register programs; for constant M and A
// the whole multipliers solution is folded into one program.
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/nh/equations_detail.h"

namespace nh {

namespace {

// The system's functions on the tape, over the variables (t, q, y[, μ]), and the expressions
// of the equations of motion built from them.
struct Recorded {
  int n = 0, m = 0, kt = 0;
  int nv = 0;  // variables: 1 + n + m (+ kt, vakonomic)
  Sym t;
  std::vector<Sym> q, y, mu, rho, phi;
  std::vector<Sym> v;  // ρ(q) y
  Sym L, Lt;           // L, and L̃ = L + μ·Φ (vakonomic) or L
  std::vector<Sym> F;  // ρᵀ∂L̃/∂q − (∂p/∂t + ∂p/∂q ρy), with a constant C-term when taped
  std::vector<Sym> Lq;   // ρᵀ∂L̃/∂q
  std::vector<Sym> out;  // the outputs of the main program (offsets in CompiledEquations)
};

// A number computed outside the tape from the parameters (coefficientPattern), `value` for
// the parameters taped and `generic` for other values of the free ones: nothing when both are
// zero (the caller drops the term), else a constant, or with free parameters a tape
// parameter after the system's.
bool coefficient(Tape& tape, CompiledEquations& w, double value, double generic, Sym& out) {
  const bool present = value != 0 || generic != 0;
  w.coefficientPattern.push_back(present);
  if (!present) return false;
  if (w.freeParameters.empty()) {
    out = tape.constant(value);
    return true;
  }
  const int slot = static_cast<int>(w.parameters.size() + w.coefficients.size());
  w.coefficients.push_back(value);
  out = tape.parameter(slot, value);
  return true;
}

// w with generic values of its free parameters (every free one moved by a different amount),
// its programs computed for them: the coefficients that vanish there as well as at w's values
// are zero whatever the values (a parameter taped at 0 would otherwise make its terms
// vanish from the program). w itself when no parameter is free.
CompiledEquations genericValues(const CompiledEquations& w) {
  CompiledEquations g = w;
  if (w.freeParameters.empty()) return g;
  std::vector<double> values = w.parameters;
  for (size_t k = 0; k < w.freeParameters.size(); ++k) {
    double& v = values[w.freeParameters[k]];
    v += (0.1 + 0.0371 * static_cast<double>(k)) * (1 + std::abs(v));
  }
  g.program = w.program.withParameters(values.data(), static_cast<int>(values.size()));
  return g;
}

// Records the variables and the system's anchor, Lagrangian and constraints.
void record(Tape& tape, const CompiledEquations& w, Recorded& r) {
  const SystemModel& sys = *w.system;
  const int n = w.n, m = w.m, kt = w.kt;
  const bool vakonomic = w.dynamics == DynamicsKind::Vakonomic;
  const double* par = w.parameters.data();
  r.n = n, r.m = m, r.kt = kt;
  r.nv = 1 + n + m + (vakonomic ? kt : 0);
  tape.bindSystemParameters(w.freeParameters);
  r.t = tape.variable(0);
  r.q.resize(n), r.y.resize(m), r.mu.resize(kt), r.rho.resize(n * m), r.phi.resize(kt);
  for (int i = 0; i < n; ++i) r.q[i] = tape.variable(1 + i);
  for (int a = 0; a < m; ++a) r.y[a] = tape.variable(1 + n + a);
  if (vakonomic)
    for (int c = 0; c < kt; ++c) r.mu[c] = tape.variable(1 + n + m + c);
  sys.anchor(par, r.q.data(), r.rho.data());
  r.v.assign(n, Sym(0.0));
  for (int i = 0; i < n; ++i)
    for (int a = 0; a < m; ++a) r.v[i] += r.rho[i + n * a] * r.y[a];
  r.L = sys.lagrangian(par, r.t, r.q.data(), r.y.data());
  if (kt > 0) sys.constraints(par, r.t, r.q.data(), r.y.data(), r.phi.data());
  r.Lt = r.L;
  if (vakonomic)
    for (int c = 0; c < kt; ++c) r.Lt += r.mu[c] * r.phi[c];
}

// The main program's outputs: v, p, F, M, A, b, Φ and L, with their offsets in w.
void addOutputs(Tape& tape, CompiledEquations& w, Recorded& r) {
  const int n = r.n, m = r.m, kt = r.kt;
  auto D = [&](Sym f, int var) { return tape.derivative(f, var); };
  // Total derivative at frozen y along the motion: ∂_t + (ρy)·∂_q.
  auto along = [&](Sym f) {
    Sym s = D(f, 0);
    for (int i = 0; i < n; ++i) s += D(f, 1 + i) * r.v[i];
    return s;
  };
  std::vector<Sym>& out = r.out;
  w.outV = 0;
  out.insert(out.end(), r.v.begin(), r.v.end());
  w.outP = static_cast<int>(out.size());
  std::vector<Sym> p(m);
  for (int a = 0; a < m; ++a) out.push_back(p[a] = D(r.Lt, 1 + n + a));
  w.outF = static_cast<int>(out.size());
  r.F.resize(m);
  r.Lq.resize(m);
  for (int a = 0; a < m; ++a) {
    Sym rhoTLq(0.0);
    for (int i = 0; i < n; ++i) rhoTLq += r.rho[i + n * a] * D(r.Lt, 1 + i);
    r.Lq[a] = rhoTLq;
    r.F[a] = rhoTLq - along(p[a]);
  }
  // Constant structure functions go onto the tape: F_α += C^γ_{βα} y^β p_γ.
  w.structureInTape = w.system->hasStructure() && w.system->info().constantStructure;
  if (w.structureInTape && w.freeParameters.empty()) {
    for (const auto& e : w.structure) {
      Sym value;
      if (coefficient(tape, w, e.value, e.value, value))
        r.F[e.alpha] += value * r.y[e.beta] * p[e.gamma];
    }
  } else if (w.structureInTape) {
    // With free parameters the structure functions are recorded, as expressions in them.
    std::vector<Sym> C(m * m * m);
    w.system->structure(w.parameters.data(), r.q.data(), C.data());
    for (int g = 0; g < m; ++g)
      for (int b = 0; b < m; ++b)
        for (int a = 0; a < m; ++a)
          if (const Sym c = C[g + m * (b + m * a)];
              !(tape.isConstant(c.id) && tape.constantValue(c.id) == 0))
            r.F[a] += c * r.y[b] * p[g];
  }
  out.insert(out.end(), r.F.begin(), r.F.end());
  w.outM = static_cast<int>(out.size());
  for (int b = 0; b < m; ++b)
    for (int a = 0; a < m; ++a) out.push_back(D(p[a], 1 + n + b));  // column-major
  w.outA = static_cast<int>(out.size());
  for (int a = 0; a < m; ++a)
    for (int c = 0; c < kt; ++c) out.push_back(D(r.phi[c], 1 + n + a));  // column-major
  w.outB = static_cast<int>(out.size());
  for (int c = 0; c < kt; ++c) out.push_back(-along(r.phi[c]));
  w.outPhi = static_cast<int>(out.size());
  out.insert(out.end(), r.phi.begin(), r.phi.end());
  w.outL = static_cast<int>(out.size());
  out.push_back(r.L);
  w.outLq = static_cast<int>(out.size());
  out.insert(out.end(), r.Lq.begin(), r.Lq.end());
  // p is affine in y when no entry of M depends on y: then one Newton step inverts it.
  w.momentaLinear = true;
  for (int i = w.outM; i < w.outA && w.momentaLinear; ++i)
    for (int b = 0; b < m && w.momentaLinear; ++b) {
      const Sym d = D(out[i], 1 + n + b);
      w.momentaLinear = tape.isConstant(d.id) && tape.constantValue(d.id) == 0;
    }
}

// Reduction (reconstruction.h): which coordinates nothing the equations use reads.
void planReduction(Tape& tape, CompiledEquations& w, const Recorded& r) {
  const SystemModel& sys = *w.system;
  const double* par = w.parameters.data();
  std::vector<Sym> read(r.out.begin() + w.outP, r.out.begin() + w.outL);  // p, F, M, A, b, Φ
  try {
    if (sys.hasStructure() && !w.structureInTape) {
      std::vector<Sym> C(r.m * r.m * r.m);
      sys.structure(par, r.q.data(), C.data());
      read.insert(read.end(), C.begin(), C.end());
    }
    if (sys.hasForce()) {
      std::vector<Sym> Q(r.m);
      sys.force(par, r.t, r.q.data(), r.y.data(), Q.data());
      read.insert(read.end(), Q.begin(), Q.end());
    }
    w.reconstruction = planReconstruction(tape, sys, r.nv, r.v, read);
  } catch (const TapeError&) {
    w.reconstruction = {};
    w.reconstruction.reason = "forces or structure functions that cannot be taped";
  }
}

// The main program's constant M (m×m) and A (kt×m), read from its folded outputs.
Eigen::MatrixXd constantMassMatrix(const CompiledEquations& w) {
  Eigen::MatrixXd M(w.m, w.m);
  for (int i = 0; i < w.m * w.m; ++i) M.data()[i] = w.program.constantOutput(w.outM + i);
  return M;
}
Eigen::MatrixXd constantConstraintMatrix(const CompiledEquations& w) {
  Eigen::MatrixXd A(w.kt, w.m);
  for (int i = 0; i < w.kt * w.m; ++i) A.data()[i] = w.program.constantOutput(w.outA + i);
  return A;
}

// With M and A constant the multipliers solution is linear in (F, b) with constant
// coefficients: ẏ = P F + Q b, λ = R F + S⁻¹ b (P = M⁻¹ − M⁻¹AᵀS⁻¹AM⁻¹, Q = M⁻¹AᵀS⁻¹,
// R = −S⁻¹AM⁻¹). The coefficients in the order the folded program multiplies them in: per
// row of ẏ, P's then Q's; per row of λ, R's then S⁻¹'s. Empty when M or S is singular.
std::vector<double> solutionCoefficients(const CompiledEquations& w) {
  const int m = w.m, kt = w.kt;
  const Eigen::FullPivLU<Eigen::MatrixXd> luM(constantMassMatrix(w));
  if (!luM.isInvertible()) return {};
  const Eigen::MatrixXd Minv = luM.inverse();
  const Eigen::MatrixXd A = constantConstraintMatrix(w);
  Eigen::MatrixXd P = Minv, Q = Eigen::MatrixXd::Zero(m, kt), R = Eigen::MatrixXd::Zero(kt, m),
                  Sinv = Eigen::MatrixXd::Zero(kt, kt);
  if (kt > 0) {
    const Eigen::FullPivLU<Eigen::MatrixXd> luS(A * Minv * A.transpose());
    if (!luS.isInvertible()) return {};
    Sinv = luS.inverse();
    Q = Minv * A.transpose() * Sinv;
    R = -Sinv * A * Minv;
    P = Minv + Q * A * Minv * -1.0;
  }
  std::vector<double> entries;
  for (int a = 0; a < m; ++a) {
    for (int b = 0; b < m; ++b) entries.push_back(P(a, b));
    for (int c = 0; c < kt; ++c) entries.push_back(Q(a, c));
  }
  for (int c = 0; c < kt; ++c) {
    for (int b = 0; b < m; ++b) entries.push_back(R(c, b));
    for (int d = 0; d < kt; ++d) entries.push_back(Sinv(c, d));
  }
  return entries;
}

// M⁻¹ of the constant M, row by row, for the closed-form multipliers; empty if singular.
std::vector<double> inverseMassCoefficients(const CompiledEquations& w) {
  const Eigen::FullPivLU<Eigen::MatrixXd> luM(constantMassMatrix(w));
  if (!luM.isInvertible()) return {};
  const Eigen::MatrixXd Minv = luM.inverse();
  std::vector<double> entries;
  for (int a = 0; a < w.m; ++a)
    for (int b = 0; b < w.m; ++b) entries.push_back(Minv(a, b));
  return entries;
}

// The coefficients `compute` gives for w's parameters (empty when singular) and, in
// `generic`, for generic values of its free parameters (genericValues; the same values when
// none is free or those are singular).
std::vector<double> withGeneric(const CompiledEquations& w,
                                std::vector<double> (*compute)(const CompiledEquations&),
                                std::vector<double>& generic) {
  std::vector<double> entries = compute(w);
  generic = entries.empty() || w.freeParameters.empty() ? entries : compute(genericValues(w));
  if (generic.size() != entries.size()) generic = entries;
  return entries;
}

// Folding the solution's coefficients into the tape leaves one straight-line program for the
// whole right-hand side; zero coefficients disappear.
void foldConstantSolution(Tape& tape, CompiledEquations& w, const Recorded& r) {
  const int m = r.m, kt = r.kt;
  std::vector<double> generic;
  const std::vector<double> entries = withGeneric(w, solutionCoefficients, generic);
  if (entries.empty()) return;
  std::vector<Sym> direct(r.v.begin(), r.v.end());
  const auto bSym = std::vector<Sym>(r.out.begin() + w.outB, r.out.begin() + w.outB + kt);
  size_t next = 0;
  auto add = [&](Sym& acc, const Sym& term) {
    Sym k;
    if (coefficient(tape, w, entries[next], generic[next], k)) acc += k * term;
    ++next;
  };
  for (int a = 0; a < m; ++a) {
    Sym acc(0.0);
    for (int b = 0; b < m; ++b) add(acc, r.F[b]);
    for (int c = 0; c < kt; ++c) add(acc, bSym[c]);
    direct.push_back(acc);
  }
  for (int c = 0; c < kt; ++c) {
    Sym lam(0.0);
    for (int b = 0; b < m; ++b) add(lam, r.F[b]);
    for (int d = 0; d < kt; ++d) add(lam, bSym[d]);
    direct.push_back(lam);
  }
  w.directProgram = SymProgram(tape, r.nv, direct);
  w.direct = true;
}

double largestMagnitude(const std::vector<double>& values) {
  double largest = 0;
  for (const double v : values) largest = std::max(largest, std::abs(v));
  return largest;
}

// Constant M with a state-dependent A and at most two constraints (the particle, the disk):
// A M⁻¹ Aᵀ is inverted in closed form on the tape. Its determinant and a scale are extra
// outputs, so that a (nearly) singular state falls back to the general path, which reports it
// with the condition number.
void foldClosedFormMultipliers(Tape& tape, CompiledEquations& w, const Recorded& r) {
  const int m = r.m, kt = r.kt;
  std::vector<double> generic;
  const std::vector<double> minvEntries = withGeneric(w, inverseMassCoefficients, generic);
  if (minvEntries.empty()) return;
  std::vector<Sym> Minv(m * m);  // row-major; entries that are zero stay empty
  std::vector<char> present(m * m, 0);
  for (int i = 0; i < m * m; ++i)
    present[i] = coefficient(tape, w, minvEntries[i], generic[i], Minv[i]);
  auto times = [&](int a, int b, const Sym& x, Sym& acc) {
    if (present[a * m + b]) acc += Minv[a * m + b] * x;
  };
  const std::vector<Sym>& out = r.out;
  auto at = [&](int c, int a) { return Sym(out[w.outA + a * kt + c].id, true); };  // A(c, a)
  std::vector<Sym> u(m), W(m * kt);  // u = M⁻¹F, W = M⁻¹Aᵀ (column-major m×kt)
  for (int a = 0; a < m; ++a) {
    Sym acc(0.0);
    for (int b = 0; b < m; ++b) times(a, b, r.F[b], acc);
    u[a] = acc;
    for (int c = 0; c < kt; ++c) {
      Sym wc(0.0);
      for (int b = 0; b < m; ++b) times(a, b, at(c, b), wc);
      W[a + m * c] = wc;
    }
  }
  Sym S[2][2], rc[2], scale(0.0);
  for (int c = 0; c < kt; ++c) {
    Sym residual(out[w.outB + c].id, true);
    for (int a = 0; a < m; ++a) residual -= at(c, a) * u[a];
    rc[c] = residual;
    for (int d = 0; d < kt; ++d) {
      Sym sc(0.0);
      for (int a = 0; a < m; ++a) sc += at(c, a) * W[a + m * d];
      S[c][d] = sc;
    }
  }
  Sym lambda[2], det;
  if (kt == 1) {
    det = S[0][0];
    scale = S[0][0];  // S = A M⁻¹ Aᵀ is a scalar; the relative test is on M⁻¹ below
    lambda[0] = rc[0] / det;
  } else {
    det = S[0][0] * S[1][1] - S[0][1] * S[1][0];
    scale = S[0][0] * S[1][1];
    lambda[0] = (S[1][1] * rc[0] - S[0][1] * rc[1]) / det;
    lambda[1] = (S[0][0] * rc[1] - S[1][0] * rc[0]) / det;
  }
  Sym normA(0.0);  // Σ A², for the scale of a 1×1 S
  for (int c = 0; c < kt; ++c)
    for (int a = 0; a < m; ++a) normA += at(c, a) * at(c, a);
  std::vector<Sym> direct(r.v.begin(), r.v.end());
  for (int a = 0; a < m; ++a) {
    Sym acc = u[a];
    for (int c = 0; c < kt; ++c) acc += W[a + m * c] * lambda[c];
    direct.push_back(acc);
  }
  for (int c = 0; c < kt; ++c) direct.push_back(lambda[c]);
  direct.push_back(det);
  direct.push_back(kt == 1 ? normA : scale);
  w.directProgram = SymProgram(tape, r.nv, direct);
  w.direct = true;
  w.directGuarded = true;
  w.minvNorm = largestMagnitude(minvEntries);
}

}  // namespace

// Records the system's functions once on a tape and compiles what theory §2–3 needs:
//   p = ∂L̃/∂y, M = ∂p/∂y, F = ρᵀ∂L̃/∂q − (∂p/∂t + ∂p/∂q ρy), A = ∂Φ/∂y,
//   b = −(∂Φ/∂t + ∂Φ/∂q ρy), with L̃ = L + μ·Φ for vakonomic dynamics.
void compileTape(CompiledEquations& w) {
  w.taped = false;
  w.coefficientPattern.clear();
  w.coefficients.clear();
  if (w.backend != Backend::Taped) return;
  const SystemModel& sys = *w.system;
  try {
    Tape tape;
    Recorded r;
    record(tape, w, r);
    // Free are the parameters the system's functions recorded as inputs; those they read as
    // numbers are folded in.
    std::erase_if(w.freeParameters, [&](int i) { return !tape.recordedSystemParameter(i); });
    addOutputs(tape, w, r);
    w.program = SymProgram(tape, r.nv, r.out);
    planReduction(tape, w, r);
    w.constantMatrices = true;
    for (int i = w.outM; i < w.outB; ++i) w.constantMatrices &= w.program.outputIsConstant(i);
    w.taped = true;
    // The whole force side is F on the tape (no C-term or force added at run time).
    const bool forcesOnTape = (!sys.hasStructure() || w.structureInTape) && !sys.hasForce();
    w.direct = false;
    if (w.constantMatrices && forcesOnTape) foldConstantSolution(tape, w, r);
    w.directGuarded = false;
    bool constantM = true;
    for (int i = w.outM; i < w.outA; ++i) constantM &= w.program.outputIsConstant(i);
    if (!w.direct && constantM && r.kt >= 1 && r.kt <= 2 && forcesOnTape)
      foldClosedFormMultipliers(tape, w, r);
  } catch (const TapeError&) {
    w.taped = false;
    if (!w.freeParameters.empty()) {
      // A function branches on a parameter's value: fold the parameters in instead.
      w.freeParameters.clear();
      compileTape(w);
    }
    // Otherwise value-dependent functions: evaluate with jets instead.
  }
}

bool instantiateTape(CompiledEquations& c) {
  if (!c.taped || c.freeParameters.empty()) return false;
  std::vector<double> values(c.parameters);
  const int np = static_cast<int>(c.parameters.size());
  c.program = c.program.withParameters(values.data(), np);
  if (c.direct) {
    const std::vector<double> entries =
        c.directGuarded ? inverseMassCoefficients(c) : solutionCoefficients(c);
    // Singular for these values (the general path reports it), or another shape.
    if (entries.size() != c.coefficientPattern.size()) return false;
    // An entry that vanishes in exact arithmetic may come out as rounding noise: where the
    // pattern says 0, noise below a few ulps of the largest entry is taken as 0.
    const double noise = 8 * std::numeric_limits<double>::epsilon() * largestMagnitude(entries);
    for (size_t i = 0; i < entries.size(); ++i) {
      if (c.coefficientPattern[i])
        values.push_back(entries[i]);
      else if (std::abs(entries[i]) > noise)
        return false;
    }
    if (c.directGuarded) c.minvNorm = largestMagnitude(entries);
  }
  const int count = static_cast<int>(values.size());
  if (c.direct) c.directProgram = c.directProgram.withParameters(values.data(), count);
  if (c.reconstruction.program.readsParameters())
    c.reconstruction.program = c.reconstruction.program.withParameters(values.data(), count);
  c.coefficients.assign(values.begin() + np, values.end());
  return true;
}

// One run of the compiled program: v, p, F, M, A, b, Φ and L at (t, q, y, μ).
void EquationsOfMotion::loadTaped(Workspace& w, double t, const double* q, const double* y,
                                  const double* mu) const {
  const CompiledEquations& c = *compiled_;
  const int n = c.n, m = c.m, kt = c.kt;
  double* const r = w.registers.data();  // variables in registers 0..nv-1
  r[0] = t;
  std::copy(q, q + n, r + 1);
  std::copy(y, y + m, r + 1 + n);
  if (c.dynamics == DynamicsKind::Vakonomic) std::copy(mu, mu + kt, r + 1 + n + m);
  const SymProgram& prg = c.program;
  prg.runLoaded(r);
  w.v.resize(n);
  w.p.resize(m);
  w.F.resize(m);
  w.M.resize(m, m);
  w.A.resize(kt, m);
  w.b.resize(kt);
  w.phiV.resize(kt);
  for (int i = 0; i < n; ++i) w.v[i] = prg.output(r, c.outV + i);
  for (int a = 0; a < m; ++a) {
    w.p[a] = prg.output(r, c.outP + a);
    w.F[a] = prg.output(r, c.outF + a);
  }
  for (int i = 0; i < m * m; ++i) w.M.data()[i] = prg.output(r, c.outM + i);
  for (int i = 0; i < kt * m; ++i) w.A.data()[i] = prg.output(r, c.outA + i);
  for (int i = 0; i < kt; ++i) {
    w.b[i] = prg.output(r, c.outB + i);
    w.phiV[i] = prg.output(r, c.outPhi + i);
  }
  w.lagrangian = prg.output(r, c.outL);
  w.Lq.resize(m);
  for (int a = 0; a < m; ++a) w.Lq[a] = prg.output(r, c.outLq + a);
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
