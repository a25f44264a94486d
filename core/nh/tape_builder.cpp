// Taped backend (theory §2–3): the system's functions recorded once on a tape, the
// derivatives the equations need compiled into register programs; for constant M and A
// the whole multipliers solution is folded into one program.
#include <Eigen/LU>
#include <vector>

#include "core/nh/equations_detail.h"

namespace nh {

// Records the system's functions once on a tape and compiles what theory §2–3 needs:
//   p = ∂L̃/∂y, M = ∂p/∂y, F = ρᵀ∂L̃/∂q − (∂p/∂t + ∂p/∂q ρy), A = ∂Φ/∂y,
//   b = −(∂Φ/∂t + ∂Φ/∂q ρy), with L̃ = L + μ·Φ for vakonomic dynamics.
void compileTape(CompiledEquations& w) {
  w.taped = false;
  if (w.backend != Backend::Taped) return;
  const SystemModel& sys = *w.system;
  const int n = w.n, m = w.m, kt = w.kt;
  const bool vakonomic = w.dynamics == DynamicsKind::Vakonomic;
  const int nv = 1 + n + m + (vakonomic ? kt : 0);
  const double* par = w.parameters.data();
  try {
    Tape tape;
    const Sym t = tape.variable(0);
    std::vector<Sym> q(n), y(m), mu(kt), rho(n * m), phi(kt);
    for (int i = 0; i < n; ++i) q[i] = tape.variable(1 + i);
    for (int a = 0; a < m; ++a) y[a] = tape.variable(1 + n + a);
    if (vakonomic)
      for (int c = 0; c < kt; ++c) mu[c] = tape.variable(1 + n + m + c);
    sys.anchor(par, q.data(), rho.data());
    std::vector<Sym> v(n, Sym(0.0));
    for (int i = 0; i < n; ++i)
      for (int a = 0; a < m; ++a) v[i] += rho[i + n * a] * y[a];
    const Sym L = sys.lagrangian(par, t, q.data(), y.data());
    if (kt > 0) sys.constraints(par, t, q.data(), y.data(), phi.data());
    Sym Lt = L;
    if (vakonomic)
      for (int c = 0; c < kt; ++c) Lt += mu[c] * phi[c];
    auto D = [&](Sym f, int var) { return tape.derivative(f, var); };
    // Total derivative at frozen y along the motion: ∂_t + (ρy)·∂_q.
    auto along = [&](Sym f) {
      Sym r = D(f, 0);
      for (int i = 0; i < n; ++i) r += D(f, 1 + i) * v[i];
      return r;
    };
    std::vector<Sym> out;
    w.outV = 0;
    out.insert(out.end(), v.begin(), v.end());
    w.outP = static_cast<int>(out.size());
    std::vector<Sym> p(m);
    for (int a = 0; a < m; ++a) out.push_back(p[a] = D(Lt, 1 + n + a));
    w.outF = static_cast<int>(out.size());
    std::vector<Sym> F(m);
    for (int a = 0; a < m; ++a) {
      Sym rhoTLq(0.0);
      for (int i = 0; i < n; ++i) rhoTLq += rho[i + n * a] * D(Lt, 1 + i);
      F[a] = rhoTLq - along(p[a]);
    }
    // Constant structure functions go onto the tape: F_α += C^γ_{βα} y^β p_γ.
    w.structureInTape = sys.hasStructure() && sys.info().constantStructure;
    if (w.structureInTape) {
      for (const auto& e : w.structure) F[e.alpha] += e.value * y[e.beta] * p[e.gamma];
    }
    out.insert(out.end(), F.begin(), F.end());
    w.outM = static_cast<int>(out.size());
    for (int b = 0; b < m; ++b)
      for (int a = 0; a < m; ++a) out.push_back(D(p[a], 1 + n + b));  // column-major
    w.outA = static_cast<int>(out.size());
    for (int a = 0; a < m; ++a)
      for (int c = 0; c < kt; ++c) out.push_back(D(phi[c], 1 + n + a));  // column-major
    w.outB = static_cast<int>(out.size());
    for (int c = 0; c < kt; ++c) out.push_back(-along(phi[c]));
    w.outPhi = static_cast<int>(out.size());
    out.insert(out.end(), phi.begin(), phi.end());
    w.outL = static_cast<int>(out.size());
    out.push_back(L);
    w.program = SymProgram(tape, nv, out);
    // Reduction (reconstruction.h): which coordinates nothing the equations use reads.
    {
      std::vector<Sym> read(out.begin() + w.outP, out.begin() + w.outL);  // p, F, M, A, b, Φ
      try {
        if (sys.hasStructure() && !w.structureInTape) {
          std::vector<Sym> C(m * m * m);
          sys.structure(par, q.data(), C.data());
          read.insert(read.end(), C.begin(), C.end());
        }
        if (sys.hasForce()) {
          std::vector<Sym> Q(m);
          sys.force(par, t, q.data(), y.data(), Q.data());
          read.insert(read.end(), Q.begin(), Q.end());
        }
        w.reconstruction = planReconstruction(tape, sys, nv, v, read);
      } catch (const TapeError&) {
        w.reconstruction = {};
        w.reconstruction.reason = "forces or structure functions that cannot be taped";
      }
    }
    w.constantMatrices = true;
    for (int i = w.outM; i < w.outB; ++i) w.constantMatrices &= w.program.outputIsConstant(i);
    w.taped = true;

    // With M and A constant the multipliers solution is linear in (F, b) with constant
    // coefficients: ẏ = P F + Q b, λ = R F + S⁻¹ b (P = M⁻¹ − M⁻¹AᵀS⁻¹AM⁻¹, Q = M⁻¹AᵀS⁻¹,
    // R = −S⁻¹AM⁻¹). Folding them into the tape leaves one straight-line program for the
    // whole right-hand side; zero coefficients disappear.
    w.direct = false;
    if (w.constantMatrices && (!sys.hasStructure() || w.structureInTape) && !sys.hasForce()) {
      Eigen::MatrixXd M(m, m), A(kt, m);
      for (int i = 0; i < m * m; ++i) M.data()[i] = w.program.constantOutput(w.outM + i);
      for (int i = 0; i < kt * m; ++i) A.data()[i] = w.program.constantOutput(w.outA + i);
      const Eigen::FullPivLU<Eigen::MatrixXd> luM(M);
      if (luM.isInvertible()) {
        const Eigen::MatrixXd Minv = luM.inverse();
        Eigen::MatrixXd P = Minv, Q = Eigen::MatrixXd::Zero(m, kt),
                        R = Eigen::MatrixXd::Zero(kt, m), Sinv = Eigen::MatrixXd::Zero(kt, kt);
        bool regular = true;
        if (kt > 0) {
          const Eigen::FullPivLU<Eigen::MatrixXd> luS(A * Minv * A.transpose());
          regular = luS.isInvertible();
          if (regular) {
            Sinv = luS.inverse();
            Q = Minv * A.transpose() * Sinv;
            R = -Sinv * A * Minv;
            P = Minv + Q * A * Minv * -1.0;
          }
        }
        if (regular) {
          std::vector<Sym> direct(v.begin(), v.end());
          const auto bSym = std::vector<Sym>(out.begin() + w.outB, out.begin() + w.outB + kt);
          for (int a = 0; a < m; ++a) {
            Sym acc(0.0);
            for (int b = 0; b < m; ++b) acc += P(a, b) * F[b];
            for (int c = 0; c < kt; ++c) acc += Q(a, c) * bSym[c];
            direct.push_back(acc);
          }
          for (int c = 0; c < kt; ++c) {
            Sym lam(0.0);
            for (int b = 0; b < m; ++b) lam += R(c, b) * F[b];
            for (int d = 0; d < kt; ++d) lam += Sinv(c, d) * bSym[d];
            direct.push_back(lam);
          }
          w.directProgram = SymProgram(tape, nv, direct);
          w.direct = true;
        }
      }
    }

    // Constant M with a state-dependent A and at most two constraints (the particle, the
    // disk): A M⁻¹ Aᵀ is inverted in closed form on the tape. Its determinant and a scale
    // are extra outputs, so that a (nearly) singular state falls back to the general path,
    // which reports it with the condition number.
    w.directGuarded = false;
    bool constantM = true;
    for (int i = w.outM; i < w.outA; ++i) constantM &= w.program.outputIsConstant(i);
    if (!w.direct && constantM && kt >= 1 && kt <= 2 &&
        (!sys.hasStructure() || w.structureInTape) && !sys.hasForce()) {
      Eigen::MatrixXd M(m, m);
      for (int i = 0; i < m * m; ++i) M.data()[i] = w.program.constantOutput(w.outM + i);
      const Eigen::FullPivLU<Eigen::MatrixXd> luM(M);
      if (luM.isInvertible()) {
        const Eigen::MatrixXd Minv = luM.inverse();
        auto at = [&](int c, int a) { return Sym(out[w.outA + a * kt + c].id, true); };  // A(c, a)
        std::vector<Sym> u(m), W(m * kt);  // u = M⁻¹F, W = M⁻¹Aᵀ (column-major m×kt)
        for (int a = 0; a < m; ++a) {
          Sym acc(0.0);
          for (int b = 0; b < m; ++b) acc += Minv(a, b) * F[b];
          u[a] = acc;
          for (int c = 0; c < kt; ++c) {
            Sym wc(0.0);
            for (int b = 0; b < m; ++b) wc += Minv(a, b) * at(c, b);
            W[a + m * c] = wc;
          }
        }
        Sym S[2][2], r[2], scale(0.0);
        for (int c = 0; c < kt; ++c) {
          Sym rc(out[w.outB + c].id, true);
          for (int a = 0; a < m; ++a) rc -= at(c, a) * u[a];
          r[c] = rc;
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
          lambda[0] = r[0] / det;
        } else {
          det = S[0][0] * S[1][1] - S[0][1] * S[1][0];
          scale = S[0][0] * S[1][1];
          lambda[0] = (S[1][1] * r[0] - S[0][1] * r[1]) / det;
          lambda[1] = (S[0][0] * r[1] - S[1][0] * r[0]) / det;
        }
        Sym normA(0.0);  // Σ A², for the scale of a 1×1 S
        for (int c = 0; c < kt; ++c)
          for (int a = 0; a < m; ++a) normA += at(c, a) * at(c, a);
        std::vector<Sym> direct(v.begin(), v.end());
        for (int a = 0; a < m; ++a) {
          Sym acc = u[a];
          for (int c = 0; c < kt; ++c) acc += W[a + m * c] * lambda[c];
          direct.push_back(acc);
        }
        for (int c = 0; c < kt; ++c) direct.push_back(lambda[c]);
        direct.push_back(det);
        direct.push_back(kt == 1 ? normA : scale);
        w.directProgram = SymProgram(tape, nv, direct);
        w.direct = true;
        w.directGuarded = true;
        w.minvNorm = Minv.cwiseAbs().maxCoeff();
      }
    }
  } catch (const TapeError&) {
    w.taped = false;  // value-dependent functions: evaluate with jets instead
  }
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
}

}  // namespace nh
