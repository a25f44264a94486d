// The Pontryagin system on the tape (pontryagin.h).
#include "core/nh/pontryagin.h"

#include <cmath>
#include <limits>
#include <string>

#include "core/nh/errors.h"

namespace nh {

namespace {

// The functions of the problem over the tape's variables (t, q, ξ, w).
struct Recorded {
  Sym t;
  std::vector<Sym> q, xi, w, f, rho, C;
  Sym ell;   // ℓ: the cost (control model) or L + μ·Φ (vakonomic)
  Sym cost;  // the running cost L reported
};

bool isZero(const Tape& tape, Sym s) {
  return tape.isConstant(s.id) && tape.constantValue(s.id) == 0;
}

// H's ingredients: f and ℓ of a control model, or f = y and ℓ = L + μ·Φ.
void recordProblem(const SystemModel& sys, const double* p, bool vakonomic, int kt, Recorded& r) {
  const int m = sys.m();
  r.f.resize(m);
  if (!vakonomic) {
    sys.controlSection(p, r.t, r.q.data(), r.w.data(), r.f.data());
    r.ell = r.cost = sys.cost(p, r.t, r.q.data(), r.w.data());
    return;
  }
  for (int a = 0; a < m; ++a) r.f[a] = r.w[a];
  r.cost = sys.lagrangian(p, r.t, r.q.data(), r.f.data());
  r.ell = r.cost;
  std::vector<Sym> phi(kt);
  if (kt > 0) sys.constraints(p, r.t, r.q.data(), r.f.data(), phi.data());
  for (int c = 0; c < kt; ++c) r.ell += r.w[m + c] * phi[c];
}

}  // namespace

PontryaginSystem::PontryaginSystem(std::shared_ptr<const SystemModel> system,
                                   std::vector<double> parameters)
    : system_(std::move(system)), parameters_(std::move(parameters)) {
  const SystemModel& sys = *system_;
  vakonomic_ = !sys.info().isControlModel();
  n_ = sys.n();
  m_ = sys.m();
  kt_ = vakonomic_ ? sys.constraintsTotal() : 0;
  c_ = vakonomic_ ? m_ + kt_ : static_cast<int>(sys.info().controls.size());
  if (vakonomic_ && sys.hasForce())
    throw InputError("'" + sys.name() +
                     "' has generalised forces: a motion with forces extremises no action, so "
                     "it has no optimal path (systems without forces are allowed)");
  try {
    record();
  } catch (const TapeError& e) {
    throw InputError("the functions of '" + sys.name() +
                     "' cannot be differentiated on the tape (" + e.what() +
                     "): optimisation needs expressions without abs, min, max or branches");
  }
}

void PontryaginSystem::record() {
  const SystemModel& sys = *system_;
  const double* p = parameters_.data();
  const int n = n_, m = m_, c = c_, N = n + m;
  Tape tape;
  Recorded r;
  r.t = tape.variable(0);
  for (int i = 0; i < n; ++i) r.q.push_back(tape.variable(1 + i));
  for (int a = 0; a < m; ++a) r.xi.push_back(tape.variable(1 + n + a));
  for (int j = 0; j < c; ++j) r.w.push_back(tape.variable(1 + N + j));
  recordProblem(sys, p, vakonomic_, kt_, r);
  r.rho.assign(n * m, Sym(0.0));
  sys.anchor(p, r.q.data(), r.rho.data());
  r.C.assign(m * m * m, Sym(0.0));
  if (sys.hasStructure()) sys.structure(p, r.q.data(), r.C.data());
  Sym H = -r.ell;
  for (int a = 0; a < m; ++a) H += r.xi[a] * r.f[a];
  auto D = [&](Sym s, int var) { return tape.derivative(s, var); };
  // ż = (ρ f, C f ξ − ρᵀ ∂H/∂q) and G = ∂H/∂w.
  std::vector<Sym> F(N, Sym(0.0)), G(c);
  for (int i = 0; i < n; ++i)
    for (int a = 0; a < m; ++a) F[i] += r.rho[i + n * a] * r.f[a];
  for (int j = 0; j < m; ++j) {
    Sym s(0.0);
    for (int i = 0; i < m; ++i)
      for (int k = 0; k < m; ++k)
        if (!isZero(tape, r.C[k + m * (i + m * j)]))
          s += r.C[k + m * (i + m * j)] * r.f[i] * r.xi[k];
    for (int a = 0; a < n; ++a) s -= r.rho[a + n * j] * D(H, 1 + a);
    F[n + j] = s;
  }
  for (int j = 0; j < c; ++j) G[j] = D(H, 1 + N + j);
  std::vector<Sym> out(F);
  oF_ = 0;
  oG_ = static_cast<int>(out.size());
  out.insert(out.end(), G.begin(), G.end());
  oGw_ = static_cast<int>(out.size());
  linear_ = true;
  for (int j = 0; j < c; ++j)
    for (int i = 0; i < c; ++i) {
      const Sym g = D(G[i], 1 + N + j);
      out.push_back(g);
      for (int l = 0; l < c && linear_; ++l) linear_ = isZero(tape, D(g, 1 + N + l));
    }
  oGz_ = static_cast<int>(out.size());
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < c; ++i) out.push_back(D(G[i], 1 + j));
  oFz_ = static_cast<int>(out.size());
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < N; ++i) out.push_back(D(F[i], 1 + j));
  oFw_ = static_cast<int>(out.size());
  for (int j = 0; j < c; ++j)
    for (int i = 0; i < N; ++i) out.push_back(D(F[i], 1 + N + j));
  oL_ = static_cast<int>(out.size());
  out.push_back(r.cost);
  oSection_ = static_cast<int>(out.size());
  out.insert(out.end(), r.f.begin(), r.f.end());
  program_ = SymProgram(tape, 1 + N + c, out);
  // Which coordinates the unknowns can move: q̇^a reads w, or a coordinate that moves.
  movable_.assign(n, false);
  for (bool changed = true; changed;) {
    changed = false;
    for (int a = 0; a < n; ++a) {
      if (movable_[a]) continue;
      bool moves = false;
      for (int j = 0; j < c && !moves; ++j) moves = !isZero(tape, D(F[a], 1 + N + j));
      for (int b = 0; b < n && !moves; ++b) moves = movable_[b] && !isZero(tape, D(F[a], 1 + b));
      if (moves) movable_[a] = changed = true;
    }
  }
  std::vector<Sym> endOut(r.rho);
  for (int b = 0; b < n; ++b)
    for (int k = 0; k < n * m; ++k) endOut.push_back(D(r.rho[k], 1 + b));
  endProgram_ = SymProgram(tape, 1 + N + c, endOut, SymProgram::Execution::Interpreted);
}

PontryaginSystem::Workspace PontryaginSystem::makeWorkspace() const {
  Workspace ws;
  ws.registers = program_.makeRegisters();
  ws.endRegisters = endProgram_.makeRegisters();
  ws.variables.assign(1 + N() + c_, 0.0);
  ws.w = Eigen::VectorXd::Zero(c_);
  ws.jacobian = Eigen::MatrixXd::Zero(N(), N());
  ws.G = ws.step = Eigen::VectorXd::Zero(c_);
  ws.Gw = Eigen::MatrixXd::Zero(c_, c_);
  ws.Gz = ws.dwdz = Eigen::MatrixXd::Zero(c_, N());
  ws.Fw = Eigen::MatrixXd::Zero(N(), c_);
  ws.lu = Eigen::PartialPivLU<Eigen::MatrixXd>(c_);
  return ws;
}

void PontryaginSystem::loadG(Workspace& ws) const {
  const int c = c_;
  const double* R = ws.registers.data();
  for (int i = 0; i < c; ++i) ws.G[i] = program_.output(R, oG_ + i);
  for (int k = 0; k < c * c; ++k) ws.Gw(k % c, k / c) = program_.output(R, oGw_ + k);
}

void PontryaginSystem::factorise(Workspace& ws) const {
  ws.lu.compute(ws.Gw);
  const auto diagonal = ws.lu.matrixLU().diagonal().cwiseAbs();
  if (!(diagonal.minCoeff() > 1e-12 * diagonal.maxCoeff()))
    throw SingularControl(vakonomic_ ? "the constraints are singular for the vakonomic momentum"
                                     : "∂²H/∂u² is singular");
  ws.luCurrent = true;
}

// Newton's method for ∂H/∂w = 0 from ws.w, with the variables (t, z) already loaded; one step
// when G is linear in w. Leaves the program's outputs at the solution. Both tests are relative
// to the size of w (and G to ∂²H/∂w² times it): at large T the controls are tiny (6d/T²), and
// an absolute test would stop with them wrong in the second digit.
void PontryaginSystem::solveW(Workspace& ws) const {
  const int N = this->N(), c = c_;
  double lastStep = std::numeric_limits<double>::infinity();
  for (int iteration = 0; iteration < 40; ++iteration) {
    for (int j = 0; j < c; ++j) ws.variables[1 + N + j] = ws.w[j];
    program_.run(ws.registers.data(), ws.variables.data());
    loadG(ws);
    // Linear in w: Gw does not change with w, so the factorisation stays current.
    ws.luCurrent = linear_ && iteration > 0;
    const double size = ws.w.lpNorm<Eigen::Infinity>();
    if (iteration > 0 &&
        ws.G.lpNorm<Eigen::Infinity>() <= 1e-13 * ws.Gw.lpNorm<Eigen::Infinity>() * size)
      return;
    factorise(ws);
    ws.step.noalias() = ws.lu.solve(-ws.G);
    ws.w += ws.step;
    if (!ws.w.allFinite()) throw SingularControl("∂H/∂u = 0 has no finite solution");
    // A step no longer shrinking fast (past the second) is rounding: w is as good as it gets.
    const double stepSize = ws.step.lpNorm<Eigen::Infinity>();
    const bool rounding = iteration >= 2 && stepSize >= 0.5 * lastStep &&
                          stepSize <= 1e-10 * ws.w.lpNorm<Eigen::Infinity>();
    lastStep = stepSize;
    if (stepSize <= 1e-15 * ws.w.lpNorm<Eigen::Infinity>() || rounding) {
      for (int j = 0; j < c; ++j) ws.variables[1 + N + j] = ws.w[j];
      program_.run(ws.registers.data(), ws.variables.data());
      loadG(ws);
      ws.luCurrent = linear_;
      return;
    }
  }
  throw SingularControl("Newton's method for ∂H/∂u = 0 does not converge");
}

double PontryaginSystem::rates(Workspace& ws, double t, const double* z, double* zdot,
                               bool wantJacobian) const {
  const int N = this->N(), c = c_;
  ws.variables[0] = t;
  for (int i = 0; i < N; ++i) ws.variables[1 + i] = z[i];
  solveW(ws);
  const double* R = ws.registers.data();
  for (int i = 0; i < N; ++i) zdot[i] = program_.output(R, oF_ + i);
  if (wantJacobian) {
    for (int k = 0; k < c * N; ++k) ws.Gz(k % c, k / c) = program_.output(R, oGz_ + k);
    for (int k = 0; k < N * c; ++k) ws.Fw(k % N, k / N) = program_.output(R, oFw_ + k);
    for (int k = 0; k < N * N; ++k) ws.jacobian(k % N, k / N) = program_.output(R, oFz_ + k);
    if (!ws.luCurrent) factorise(ws);
    // dw/dz = −Gw⁻¹ Gz: the total Jacobian of ż with w(z).
    ws.dwdz.noalias() = ws.lu.solve(ws.Gz);
    ws.jacobian.noalias() -= ws.Fw * ws.dwdz;
  }
  return program_.output(R, oL_);
}

Eigen::VectorXd PontryaginSystem::section(const Workspace& ws) const {
  Eigen::VectorXd f(m_);
  for (int a = 0; a < m_; ++a) f[a] = program_.output(ws.registers.data(), oSection_ + a);
  return f;
}

Eigen::VectorXd PontryaginSystem::dHdw(Workspace& ws, double t, const double* z,
                                       const Eigen::VectorXd& w) const {
  const int N = this->N(), c = c_;
  ws.variables[0] = t;
  for (int i = 0; i < N; ++i) ws.variables[1 + i] = z[i];
  for (int j = 0; j < c; ++j) ws.variables[1 + N + j] = w[j];
  program_.run(ws.registers.data(), ws.variables.data());
  Eigen::VectorXd G(c);
  for (int i = 0; i < c; ++i) G[i] = program_.output(ws.registers.data(), oG_ + i);
  return G;
}

void PontryaginSystem::anchorAndDerivative(Workspace& ws, const double* q, Eigen::MatrixXd& rho,
                                           std::vector<Eigen::MatrixXd>& dRho) const {
  const int n = n_, m = m_;
  std::vector<double> vars(1 + N() + c_, 0.0);
  for (int i = 0; i < n; ++i) vars[1 + i] = q[i];
  endProgram_.run(ws.endRegisters.data(), vars.data());
  const double* R = ws.endRegisters.data();
  rho.resize(n, m);
  for (int k = 0; k < n * m; ++k) rho(k % n, k / n) = endProgram_.output(R, k);
  dRho.assign(n, Eigen::MatrixXd(n, m));
  for (int b = 0; b < n; ++b)
    for (int k = 0; k < n * m; ++k)
      dRho[b](k % n, k / n) = endProgram_.output(R, n * m * (1 + b) + k);
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
