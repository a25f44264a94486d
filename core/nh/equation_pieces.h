// The pieces of the nonholonomic equations of motion M ẏ − Aᵀλ = F, A ẏ = b at one state —
// v = ρy, F, M, A, b and Φ — and their first derivatives with respect to every q and y,
// compiled once from the tape and evaluated at any state; and ∂f/∂x of the right-hand side
// from them, by differentiating the saddle-point system. Shared by the linearisation
// (linearize.cpp) and the derivatives the integrators read (state_derivatives.cpp).
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "core/nh/dynamics.h"
#include "core/nh/symbolic.h"

namespace nh::pieces {

// Values and first derivatives of v = ρy, F, M, A, b and Φ at one state, from the tape.
struct Pieces {
  int n = 0, m = 0, kt = 0;
  Eigen::VectorXd v, F, b, phi;
  Eigen::MatrixXd M, A;
  // Derivatives with respect to state variable j (q then y), then to the parameters the
  // program was made for (PiecesProgram's `parameters`): the same shapes.
  std::vector<Eigen::VectorXd> dv, dF, db, dphi;
  std::vector<Eigen::MatrixXd> dM, dA;
};

// Reads one block of outputs (v, F, M, A, b, Φ) of `program` from output `offset` on.
void readBlock(const SymProgram& program, const double* registers, int offset, const Pieces& shape,
               Eigen::VectorXd& v, Eigen::VectorXd& F, Eigen::MatrixXd& M, Eigen::MatrixXd& A,
               Eigen::VectorXd& b, Eigen::VectorXd& phi);

// The pieces of one system, compiled once from its tape and evaluated at any state; with
// `constraintsToo`, also a program of Φ and its derivatives alone. The programs' outputs are
// the block of values, then one block of derivatives per state variable (blockSize() each);
// the constraint program's Φ, then ∂Φ/∂x_j for each j. Throws InputError when the system
// cannot be taped.
class PiecesProgram {
 public:
  // With `parameters` (indices into the system's parameters), those are variables of the
  // tape after the state, and the pieces' derivatives with respect to them follow the
  // state's (the values the equations have); readsParameters() says whether the system's
  // functions recorded them there (a system that reads its parameters as numbers does not).
  explicit PiecesProgram(const EquationsOfMotion& equations,
                         SymProgram::Execution execution = SymProgram::Execution::Interpreted,
                         bool constraintsToo = false, std::vector<int> parameters = {});
  bool readsParameters() const { return readsParameters_; }

  // The pieces at (t, x) (allocates: for a linearisation, not for a step).
  Pieces at(double t, const double* x) const;

  const Pieces& shape() const { return shape_; }
  int blockSize() const { return blockSize_; }
  const SymProgram& program() const { return program_; }
  const SymProgram& constraintProgram() const { return constraintProgram_; }

 private:
  Pieces shape_;
  int blockSize_ = 0;
  SymProgram program_, constraintProgram_;
  std::vector<double> parameterValues_;  // of the parameters that are variables
  bool readsParameters_ = true;
};

// ∂f/∂x (n + m square); the accelerations ẏ it solves for on the way go to *ydotOut when
// given. With `parameters`, the columns ∂f/∂p of the pieces' parameter derivatives follow
// ((n + m) × (n + m + parameters)). Throws InputError where M or A M⁻¹ Aᵀ is singular.
Eigen::MatrixXd jacobianOf(const EquationsOfMotion& equations, const Pieces& P,
                           Eigen::VectorXd* ydotOut = nullptr, int parameters = 0);

}  // namespace nh::pieces
// SPDX-License-Identifier: GPL-3.0-or-later
