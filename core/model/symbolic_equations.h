// The equations of motion of theory §2 as GiNaC expressions, derived from a system's
// functions: its model file's formulas (parameters as symbols) or its C++ functions recorded
// on a tape (parameters as numbers). derived_equations.h typesets them; tests evaluate them.
//
//   p = ∂L/∂y,  M = ∂²L/∂y∂y,  F_α = ρⁱ_α ∂L/∂qⁱ − (∂p_α/∂t + ∂p_α/∂qⁱ ρⁱ_β y^β)
//                                     + C^γ_{βα} y^β p_γ + Q_α,
//   A = ∂Φ/∂y,  b = −(∂Φ/∂t + ∂Φ/∂q ρ y);   M ẏ − Aᵀλ = F,  A ẏ = b.
#pragma once

#include <ginac/ginac.h>

#include <atomic>
#include <string>
#include <vector>

#include "core/nh/system.h"

namespace nh::model {

// C^c_ab = value: [e_a, e_b] ∋ value·e_c. Both orders of a skew pair are listed.
struct StructureCoefficient {
  int a = 0, b = 0, c = 0;
  GiNaC::ex value;
};

struct SymbolicEquations {
  GiNaC::symbol t;
  std::vector<GiNaC::symbol> q, y;        // n coordinates, m velocities
  std::vector<GiNaC::symbol> parameters;  // model files: one per parameter; C++ systems: none
  std::vector<std::string> coordinateNames, velocityNames, parameterNames;
  GiNaC::lst order;  // y then q: the variables simplified expressions are collected by

  GiNaC::matrix rho;  // n×m: q̇ = ρ y
  bool identityAnchor = false;
  GiNaC::ex lagrangian;
  std::vector<StructureCoefficient> structure;  // nonzero coefficients
  bool structureOmitted = false;                // C++ system with q-dependent structure: not in F
  std::vector<GiNaC::ex> constraints;           // k + h: Φ, then ġ = ∂g/∂t + ∂g/∂q ρ y
  std::vector<GiNaC::ex> holonomic;             // h: g (model files; C++ systems give only ġ)
  int k = 0, h = 0;
  std::vector<GiNaC::ex> forces;  // m (zeros when none)
  bool forcesOmitted = false;     // C++ system with a force: not recordable, not in F

  // Simplified; an entry too large to simplify in reasonable time is kept as derived.
  // A and b have k + h rows, one row of zeros when k + h = 0 (GiNaC has no empty matrix).
  GiNaC::matrix M, F, A, b;  // m×m, m×1, (k+h)×m, (k+h)×1

  // ẏ (m×1) and λ ((k+h)×1, likewise) solved from the linear system when it is small enough.
  bool solved = false;
  GiNaC::matrix ydot, lambda;
  std::string notSolvedBecause;  // when !solved

  std::vector<std::string> notes;
  bool recorded = true;  // false: a C++ system that cannot be taped (nothing derived)
};

// Derives the equations. `parameters`: the values of a C++ system's parameters (empty: the
// defaults; ignored for a model file, whose parameters stay symbols). Throws InputError for
// a wrong number of parameters. Not thread-safe (GiNaC is not): one caller at a time.
SymbolicEquations deriveSymbolic(const SystemModel& system,
                                 const std::vector<double>& parameters = {});

// While alive, derivations on this thread throw DerivationCancelled (derived_equations.h)
// at their next simplification once *flag is true; flag nullptr: never.
class CancelDerivationsWhen {
 public:
  explicit CancelDerivationsWhen(const std::atomic<bool>* flag);
  ~CancelDerivationsWhen();
  CancelDerivationsWhen(const CancelDerivationsWhen&) = delete;
  CancelDerivationsWhen& operator=(const CancelDerivationsWhen&) = delete;

 private:
  const std::atomic<bool>* previous_;
};

// Node count of `e`, counting stops soon after `limit` (cheap size guard).
int expressionSize(const GiNaC::ex& e, int limit);

// An upper bound of the terms GiNaC's expand() (and so normal()) would produce for `e`,
// inside functions and denominators too; counting stops past `limit` (returns limit + 1).
// A few microseconds however large the expansion: the guard before normal() and expand().
long expansionBound(const GiNaC::ex& e, long limit);

}  // namespace nh::model
