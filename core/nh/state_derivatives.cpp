// Exact derivatives of the right-hand side from the tape (state_derivatives.h).
#include "core/nh/state_derivatives.h"

#include <atomic>
#include <vector>

#include "core/nh/equation_pieces.h"
#include "core/nh/errors.h"

namespace nh {

using pieces::Pieces;
using pieces::PiecesProgram;
using pieces::readBlock;

Eigen::MatrixXd stateJacobian(const EquationsOfMotion& equations, double t, const double* x) {
  if (equations.dynamics() != DynamicsKind::Nonholonomic)
    throw InputError("linearisation is available for nonholonomic dynamics only");
  return pieces::jacobianOf(equations, PiecesProgram(equations).at(t, x));
}

// The registers of the two programs and the pieces, the saddle-point matrix and its
// factorisation, sized once for the StateDerivatives `owner`.
struct StateDerivativesWorkspace::Storage {
  Storage(const PiecesProgram& program, std::uint64_t ownerId)
      : owner(ownerId),
        pieceRegisters(program.program().makeRegisters()),
        constraintRegisters(program.constraintProgram().makeRegisters()) {
    const Pieces& P = program.shape();
    readBlock(program.program(), pieceRegisters.data(), 0, P, v, F, M, A, b, phi);
    readBlock(program.program(), pieceRegisters.data(), 0, P, dv, dF, dM, dA, db, dphi);
    K.setZero(P.m + P.kt, P.m + P.kt);
    lu = Eigen::PartialPivLU<Eigen::MatrixXd>(P.m + P.kt);
    rhs.resize(P.m + P.kt);
    solution.resize(P.m + P.kt);
    derivative.resize(P.m + P.kt);
  }
  std::uint64_t owner;
  std::vector<double> pieceRegisters, constraintRegisters;
  Eigen::VectorXd v, F, b, phi, dv, dF, db, dphi, rhs, solution, derivative;
  Eigen::MatrixXd M, A, dM, dA, K;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu;
};

StateDerivativesWorkspace::StateDerivativesWorkspace() = default;
StateDerivativesWorkspace::~StateDerivativesWorkspace() = default;
StateDerivativesWorkspace::StateDerivativesWorkspace(StateDerivativesWorkspace&&) noexcept =
    default;
StateDerivativesWorkspace& StateDerivativesWorkspace::operator=(
    StateDerivativesWorkspace&&) noexcept = default;

namespace {
// A number no other StateDerivatives of this process has (an address could be reused).
std::uint64_t nextId() {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}
}  // namespace

// The programs run every step: native code where available.
StateDerivatives::StateDerivatives(const EquationsOfMotion& equations) : id_(nextId()) {
  if (equations.dynamics() != DynamicsKind::Nonholonomic)
    throw InputError("the state's derivatives are available for nonholonomic dynamics only");
  program_ = std::make_unique<const PiecesProgram>(equations, SymProgram::Execution::Native, true);
}

StateDerivatives::~StateDerivatives() = default;

StateDerivativesWorkspace::Storage& StateDerivatives::storageIn(
    StateDerivativesWorkspace& work) const {
  if (!work.storage_ || work.storage_->owner != id_)
    work.storage_ = std::make_unique<StateDerivativesWorkspace::Storage>(*program_, id_);
  return *work.storage_;
}

// As pieces::jacobianOf, into J and the workspace: the saddle-point system K (ẏ, λ) = (F, b)
// factored once, then one solve per state variable j for the derivative of ẏ.
void StateDerivatives::jacobian(StateDerivativesWorkspace& work, double t, const double* x,
                                Eigen::Ref<Eigen::MatrixXd> J) const {
  StateDerivativesWorkspace::Storage& w = storageIn(work);
  const Pieces& P = program_->shape();
  const int n = P.n, m = P.m, kt = P.kt;
  const SymProgram& program = program_->program();
  program.run(w.pieceRegisters.data(), t, x);
  readBlock(program, w.pieceRegisters.data(), 0, P, w.v, w.F, w.M, w.A, w.b, w.phi);
  w.K.topLeftCorner(m, m) = w.M;
  w.K.topRightCorner(m, kt) = -w.A.transpose();
  w.K.bottomLeftCorner(kt, m) = w.A;
  w.lu.compute(w.K);
  w.rhs << w.F, w.b;
  w.solution = w.lu.solve(w.rhs);
  const auto ydot = w.solution.head(m);
  const auto lambda = w.solution.tail(kt);
  for (int j = 0; j < n + m; ++j) {
    readBlock(program, w.pieceRegisters.data(), program_->blockSize() * (1 + j), P, w.dv, w.dF,
              w.dM, w.dA, w.db, w.dphi);
    w.rhs.head(m) = w.dF;
    w.rhs.head(m).noalias() -= w.dM * ydot;
    w.rhs.head(m).noalias() += w.dA.transpose() * lambda;
    w.rhs.tail(kt) = w.db;
    w.rhs.tail(kt).noalias() -= w.dA * ydot;
    w.derivative = w.lu.solve(w.rhs);
    J.col(j).head(n) = w.dv;
    J.col(j).tail(m) = w.derivative.head(m);
  }
}

void StateDerivatives::constraints(StateDerivativesWorkspace& work, double t, const double* x,
                                   Eigen::Ref<Eigen::VectorXd> phi,
                                   Eigen::Ref<Eigen::MatrixXd> dphi) const {
  StateDerivativesWorkspace::Storage& w = storageIn(work);
  const SymProgram& program = program_->constraintProgram();
  program.run(w.constraintRegisters.data(), t, x);
  const int kt = program_->shape().kt, dims = program_->shape().n + program_->shape().m;
  for (int c = 0; c < kt; ++c) phi[c] = program.output(w.constraintRegisters.data(), c);
  for (int j = 0; j < dims; ++j)
    for (int c = 0; c < kt; ++c)
      dphi(c, j) = program.output(w.constraintRegisters.data(), kt * (1 + j) + c);
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
