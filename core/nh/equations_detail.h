// Inside the equations of motion (not for callers): what is compiled once per system and
// parameter set (CompiledEquations, immutable and shared), and what every call writes
// (EquationsWorkspace::Data, one per thread). Theory §2–3.
#pragma once

#include <Eigen/LU>
#include <Eigen/QR>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/nh/dynamics.h"
#include "core/nh/reconstruction.h"
#include "core/nh/small_lu.h"
#include "core/nh/symbolic.h"

namespace nh {

inline constexpr double kMinReciprocalCondition = 1e-13;  // below: treated as singular

// LU's rcond() estimate can miss an exactly singular matrix (it divides by a zero
// pivot); the ratio of the smallest to the largest pivot catches that case too.
template <class LU>
double reciprocalCondition(const LU& lu) {
  const auto diag = lu.matrixLU().diagonal().cwiseAbs();
  const double maxPivot = diag.maxCoeff();
  const double pivotRatio = maxPivot > 0 ? diag.minCoeff() / maxPivot : 0.0;
  const double rc = lu.rcond();
  return std::isfinite(rc) ? std::min(rc, pivotRatio) : 0.0;
}

// The factorisations of the multipliers solution: M = LU, M⁻¹Aᵀ, S = A M⁻¹ Aᵀ = LU.
struct MultiplierFactors {
  SmallLU<kMaxVelocities> luM;
  MatYK MinvAt;
  MatK S;
  SmallLU<kMaxConstraints> luS;
  enum class Result { Regular, SingularM, SingularS };
  // Factorises M (m×m) and, when kt > 0, S for A (kt×m). Allocates nothing.
  Result compute(const MatY& M, const MatKY& A, int m, int kt);
};

// Compiled once per (system, dynamics, parameters, backend); never written afterwards.
struct CompiledEquations {
  std::shared_ptr<const SystemModel> system;
  DynamicsKind dynamics = DynamicsKind::Nonholonomic;
  Backend backend = Backend::Taped;
  std::vector<double> parameters;
  // Parameters recorded as inputs of the tape (indices into `parameters`, ascending): other
  // values of them need no new tape, only instantiateTape. Empty: all are folded in.
  std::vector<int> freeParameters;
  // Numbers computed outside the tape from the parameters and multiplied onto it (constant
  // structure functions, the folded solution's coefficients), in the order they are computed:
  // whether each was nonzero (a zero drops its term, so the pattern is part of the programs'
  // shape), and with free parameters the nonzero ones' values, which the programs take as the
  // tape parameters after the system's.
  std::vector<char> coefficientPattern;
  std::vector<double> coefficients;
  std::uint64_t serial = 0;  // unique per compilation: a workspace knows what it was prepared for
  int n = 0, m = 0, kt = 0;

  // Nonzero structure functions C^γ_{βα}, listed once when they do not depend on q.
  struct StructureEntry {
    int gamma, beta, alpha;
    double value;
  };
  std::vector<StructureEntry> structure;

  // Taped backend: one program computing v, p, F (without C-term and Q), M, A, b, Φ, L.
  bool taped = false;
  SymProgram program;
  int outV = 0, outP = 0, outF = 0, outM = 0, outA = 0, outB = 0, outPhi = 0, outL = 0;
  int outLq = 0;                  // ρᵀ∂L/∂q, after L (the dual side's ṗ: hamiltonian.cpp)
  bool momentaLinear = false;     // p = ∂L/∂y is affine in y (M does not depend on y)
  bool constantMatrices = false;  // M and A constant ...
  bool constantFactors = false;   // ... and regular: `factors` hold their factorisations
  MultiplierFactors factors;
  bool structureInTape = false;  // constant C-term already part of F on the tape
  bool direct = false;           // directProgram gives v, ẏ and λ in one run
  bool directGuarded = false;    // ... followed by det(A M⁻¹ Aᵀ) and its scale, to check
  double minvNorm = 1;           // max |M⁻¹| entry, for the 1×1 check
  SymProgram directProgram;
  ReconstructionPlan reconstruction;  // taped only
};

// tape_builder.cpp: records the system's functions and fills the taped part of `c`
// (leaves c.taped false if the system cannot be taped).
void compileTape(CompiledEquations& c);
// For c, a copy of compiled equations with free parameters whose `parameters` and
// `structure` were set to other values of the free parameters only: the programs and
// coefficients for them, without a new tape. False when the coefficients' zero pattern or
// a folded factorisation does not carry over (then c needs compileTape).
bool instantiateTape(CompiledEquations& c);

// Everything a call writes. Fixed-capacity Eigen types: sized at run time, never on the heap.
struct EquationsWorkspace::Data {
  std::uint64_t preparedFor = 0;                   // CompiledEquations::serial
  std::vector<double> registers, directRegisters;  // of program and directProgram
  std::array<double, kMaxVelocities * kMaxVelocities * kMaxVelocities> C{};
  MatQY rho;
  VecQ v;  // ρ y
  Jet2 t2, q2[kMaxCoordinates], y2[kMaxVelocities], phi2[kMaxConstraints];
  Jet1 t1, q1[kMaxCoordinates], y1[kMaxVelocities], phi1[kMaxConstraints];
  MatY M, K;
  VecY F, p, Q, ydot, ydotParticular, rhs;
  VecY Lq;               // ρᵀ∂L/∂q
  VecY yLegendre, step;  // hamiltonian.cpp: y(t, q, p) (kept as the next call's guess), Newton step
  Eigen::PartialPivLU<MatY> luLegendre;
  VecY kScale;  // Gibbs–Appell: diag(K)^(-1/2), the equilibration of K
  MatKY A;
  VecK b, lambda, phiV;
  MultiplierFactors factors;
  Eigen::PartialPivLU<MatY> luK;
  Eigen::HouseholderQR<MatYK> qr;
  MatY Qfull;
  double lagrangian = 0;
};

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
