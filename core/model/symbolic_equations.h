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
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "core/model/symbolic_model.h"
#include "core/nh/system.h"

namespace nh::model {

// C^c_ab = value: [e_a, e_b] ∋ value·e_c. Both orders of a skew pair are listed; a pair
// declared `skew: false` lists the orders its model file gives.
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
  // false: nothing derived (a C++ system that cannot be taped, or what was read is too large
  // to derive: tooLargeToDerive); the notes say why.
  bool recorded = true;
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

// The steps the derivations share (this file's and control_equations.cpp's).

// The symbols of t, q, y and the parameters, ρ and the structure functions of a model file,
// from its symbol table (model files' parameters are symbols).
void readFormulaGeometry(const ModelData& data, const SymbolTable& table, SymbolicEquations& s);
// The tape's nodes as GiNaC expressions over `variables` (the tape's variables in order), in
// id order: a C++ system's functions recorded over Sym.
std::vector<GiNaC::ex> tapeToGinac(const Tape& tape, const std::vector<GiNaC::ex>& variables);
// ρ (and whether it is the identity) and the structure functions simplified.
void simplifyGeometry(SymbolicEquations& s);

// A readable form of e, collected by `variables` (the leading ones first), or e itself when
// it is too large to simplify or the derivation's time is up.
GiNaC::ex simplified(const GiNaC::ex& e, const GiNaC::lst& variables);

// K x = r by Gauss–Jordan elimination with size guards, each solution simplified by `order`;
// nullopt with `why` set when an entry outgrows the limits or K is singular
// (why == kSingularForAllValues).
inline constexpr const char* kSingularForAllValues = "the linear system is singular for all values";
std::optional<std::vector<GiNaC::ex>> solveLinear(std::vector<std::vector<GiNaC::ex>> K,
                                                  std::vector<GiNaC::ex> r, const GiNaC::lst& order,
                                                  std::string& why);

// While alive, the derivations on this thread have a time budget of their own (past it,
// nothing more is simplified); the caller's budget is restored after it.
class DerivationBudget {
 public:
  DerivationBudget();
  ~DerivationBudget();
  DerivationBudget(const DerivationBudget&) = delete;
  DerivationBudget& operator=(const DerivationBudget&) = delete;

 private:
  std::chrono::steady_clock::time_point deadline_;
  bool overBudget_, tooLarge_;
};

// The note that some entries were kept unsimplified (too large, or out of time) in the
// current budget; "" when none were.
std::string cappedNote();

// "" when every expression read (named by what it is) may be derived; otherwise the note why
// nothing is: one of them has more nodes than the derivations' limit with its definitions
// written out (so that the time budget holds: diff() cannot be stopped half-way).
std::string tooLargeToDerive(const std::vector<std::pair<std::string, GiNaC::ex>>& read);

// Node count of `e`, counting stops soon after `limit` (cheap size guard).
int expressionSize(const GiNaC::ex& e, int limit);

// An upper bound of the terms GiNaC's expand() (and so normal()) would produce for `e`,
// inside functions and denominators too; counting stops past `limit` (returns limit + 1).
// A few microseconds however large the expansion: the guard before normal() and expand().
long expansionBound(const GiNaC::ex& e, long limit);

}  // namespace nh::model
// SPDX-License-Identifier: GPL-3.0-or-later
