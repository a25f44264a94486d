// The pieces of the equations of motion and their first derivatives, compiled from the tape
// (equation_pieces.h).
#include "core/nh/equation_pieces.h"

#include <algorithm>

#include "core/nh/errors.h"

namespace nh::pieces {

namespace {

// The expressions v (n), F (m), M (m·m, column-major), A (kt·m, column-major), b, Φ (kt),
// then their derivatives with respect to each q and y in turn, and to each of the
// `parameters` variables, recorded on `tape` (variable 0 is t, then q, then y, then those).
std::vector<Sym> pieceExpressions(const SystemModel& sys, const double* par, Tape& tape,
                                  int parameters) {
  const int n = sys.n(), m = sys.m(), kt = sys.constraintsTotal();
  std::vector<Sym> q(n), y(m), rho(n * m), phi(kt), C(m * m * m), Q(m);
  const Sym ts = tape.variable(0);
  for (int i = 0; i < n; ++i) q[i] = tape.variable(1 + i);
  for (int a = 0; a < m; ++a) y[a] = tape.variable(1 + n + a);
  sys.anchor(par, q.data(), rho.data());
  const Sym L = sys.lagrangian(par, ts, q.data(), y.data());
  if (kt > 0) sys.constraints(par, ts, q.data(), y.data(), phi.data());
  if (sys.hasStructure()) sys.structure(par, q.data(), C.data());
  if (sys.hasForce()) sys.force(par, ts, q.data(), y.data(), Q.data());
  auto D = [&](Sym f, int var) { return tape.derivative(f, var); };
  std::vector<Sym> v(n, Sym(0.0));
  for (int i = 0; i < n; ++i)
    for (int a = 0; a < m; ++a) v[i] += rho[i + n * a] * y[a];
  auto along = [&](Sym f) {  // ∂_t + (ρy)·∂_q at frozen y
    Sym r = D(f, 0);
    for (int i = 0; i < n; ++i) r += D(f, 1 + i) * v[i];
    return r;
  };
  std::vector<Sym> p(m), F(m);
  for (int a = 0; a < m; ++a) p[a] = D(L, 1 + n + a);
  for (int a = 0; a < m; ++a) {
    Sym f(0.0);
    for (int i = 0; i < n; ++i) f += rho[i + n * a] * D(L, 1 + i);
    f -= along(p[a]);
    if (sys.hasStructure())  // C^γ_{βα} y^β p_γ, as equations.cpp adds it
      for (int g = 0; g < m; ++g)
        for (int b = 0; b < m; ++b) f += C[g + m * (b + m * a)] * y[b] * p[g];
    if (sys.hasForce()) f += Q[a];
    F[a] = f;
  }
  std::vector<Sym> base;
  base.insert(base.end(), v.begin(), v.end());
  base.insert(base.end(), F.begin(), F.end());
  for (int b = 0; b < m; ++b)
    for (int a = 0; a < m; ++a) base.push_back(D(p[a], 1 + n + b));
  for (int a = 0; a < m; ++a)
    for (int c = 0; c < kt; ++c) base.push_back(D(phi[c], 1 + n + a));
  for (int c = 0; c < kt; ++c) base.push_back(Sym(0.0) - along(phi[c]));
  base.insert(base.end(), phi.begin(), phi.end());
  const int nb = static_cast<int>(base.size());
  std::vector<Sym> all = base;
  for (int j = 0; j < n + m + parameters; ++j)
    for (int i = 0; i < nb; ++i) all.push_back(D(base[i], 1 + j));
  return all;
}

// last in each): what a Newton iteration on the constraints reads.
std::vector<Sym> constraintOutputs(const std::vector<Sym>& all, int blockSize, int kt, int dims) {
  std::vector<Sym> out;
  out.reserve(static_cast<size_t>(kt) * (1 + dims));
  for (int j = 0; j <= dims; ++j)
    for (int c = 0; c < kt; ++c) out.push_back(all[blockSize * j + blockSize - kt + c]);
  return out;
}

}  // namespace

// Reads one block of outputs (v, F, M, A, b, Φ) of `program` from output `offset` on.
void readBlock(const SymProgram& program, const double* registers, int offset, const Pieces& shape,
               Eigen::VectorXd& v, Eigen::VectorXd& F, Eigen::MatrixXd& M, Eigen::MatrixXd& A,
               Eigen::VectorXd& b, Eigen::VectorXd& phi) {
  const int n = shape.n, m = shape.m, kt = shape.kt;
  int k = offset;
  v.resize(n);
  F.resize(m);
  M.resize(m, m);
  A.resize(kt, m);
  b.resize(kt);
  phi.resize(kt);
  for (int i = 0; i < n; ++i) v[i] = program.output(registers, k++);
  for (int a = 0; a < m; ++a) F[a] = program.output(registers, k++);
  for (int i = 0; i < m * m; ++i) M.data()[i] = program.output(registers, k++);
  for (int i = 0; i < kt * m; ++i) A.data()[i] = program.output(registers, k++);
  for (int c = 0; c < kt; ++c) b[c] = program.output(registers, k++);
  for (int c = 0; c < kt; ++c) phi[c] = program.output(registers, k++);
}

// The outputs Φ and ∂Φ/∂x_j of `all` (pieceExpressions' layout: blocks of `blockSize`, Φ

PiecesProgram::PiecesProgram(const EquationsOfMotion& equations, SymProgram::Execution execution,
                             bool constraintsToo, std::vector<int> parameters) {
  const SystemModel& sys = equations.system();
  shape_.n = sys.n();
  shape_.m = sys.m();
  shape_.kt = sys.constraintsTotal();
  for (int i : parameters) parameterValues_.push_back(equations.parameters()[i]);
  try {
    Tape tape;
    const int dims = shape_.n + shape_.m, count = static_cast<int>(parameters.size());
    if (count > 0) tape.bindSystemParametersToVariables(parameters, 1 + dims);
    const std::vector<Sym> all = pieceExpressions(sys, equations.parameters().data(), tape, count);
    for (int i : parameters) readsParameters_ = readsParameters_ && tape.recordedSystemParameter(i);
    blockSize_ = static_cast<int>(all.size()) / (1 + dims + count);
    program_ = SymProgram(tape, 1 + dims + count, all, execution);
    if (constraintsToo)
      constraintProgram_ = SymProgram(
          tape, 1 + dims + count, constraintOutputs(all, blockSize_, shape_.kt, dims), execution);
  } catch (const TapeError& e) {
    throw InputError("'" + sys.name() + "' cannot be linearised: its functions cannot be " +
                     "recorded on the tape (" + e.what() + ")");
  }
}

Pieces PiecesProgram::at(double t, const double* x) const {
  Pieces out = shape_;
  const int dims = shape_.n + shape_.m + static_cast<int>(parameterValues_.size());
  std::vector<double> registers = program_.makeRegisters();
  std::vector<double> vars(1 + dims);
  vars[0] = t;
  std::copy(x, x + shape_.n + shape_.m, vars.begin() + 1);
  std::copy(parameterValues_.begin(), parameterValues_.end(),
            vars.begin() + 1 + shape_.n + shape_.m);
  program_.run(registers.data(), vars.data());
  readBlock(program_, registers.data(), 0, shape_, out.v, out.F, out.M, out.A, out.b, out.phi);
  out.dv.resize(dims);
  out.dF.resize(dims);
  out.dM.resize(dims);
  out.dA.resize(dims);
  out.db.resize(dims);
  out.dphi.resize(dims);
  for (int j = 0; j < dims; ++j)
    readBlock(program_, registers.data(), blockSize_ * (1 + j), shape_, out.dv[j], out.dF[j],
              out.dM[j], out.dA[j], out.db[j], out.dphi[j]);
  return out;
}

// ∂f/∂x from the saddle-point system and its derivative (equation_pieces.h).
Eigen::MatrixXd jacobianOf(const EquationsOfMotion& equations, const Pieces& P,
                           Eigen::VectorXd* ydotOut, int parameters) {
  const int n = P.n, m = P.m, kt = P.kt;
  // The saddle-point system K (ẏ, λ) = (F, b), K = [M −Aᵀ; A 0].
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(m + kt, m + kt);
  K.topLeftCorner(m, m) = P.M;
  K.topRightCorner(m, kt) = -P.A.transpose();
  K.bottomLeftCorner(kt, m) = P.A;
  const Eigen::FullPivLU<Eigen::MatrixXd> lu(K);
  if (!lu.isInvertible())
    throw InputError("the equations of '" + equations.system().name() +
                     "' are singular at this state (M or A M⁻¹ Aᵀ): no linearisation there");
  Eigen::VectorXd rhs(m + kt);
  rhs << P.F, P.b;
  const Eigen::VectorXd sol = lu.solve(rhs);
  const Eigen::VectorXd ydot = sol.head(m), lambda = sol.tail(kt);
  if (ydotOut) *ydotOut = ydot;
  Eigen::MatrixXd J(n + m, n + m + parameters);
  for (int j = 0; j < n + m + parameters; ++j) {
    Eigen::VectorXd r(m + kt);
    r.head(m) = P.dF[j] - P.dM[j] * ydot + P.dA[j].transpose() * lambda;
    r.tail(kt) = P.db[j] - P.dA[j] * ydot;
    const Eigen::VectorXd d = lu.solve(r);
    J.col(j).head(n) = P.dv[j];
    J.col(j).tail(m) = d.head(m);
  }
  return J;
}

}  // namespace nh::pieces
// SPDX-License-Identifier: GPL-3.0-or-later
