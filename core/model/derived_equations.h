// The derived equations of a system, simplified with GiNaC (theory §2): the mass matrix M,
// the right-hand side F, the constraint matrix A and b (A ẏ = b), the structure functions,
// and where the constraints can be eliminated the explicit equations ẏ = …, λ = ….
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "core/nh/errors.h"
#include "core/nh/system.h"

namespace nh::model {

struct EquationBlock {
  std::string title;  // e.g. "Mass matrix M = ∂²L/∂y∂y"
  std::string plain;  // readable text, one equation a line
  std::string
      latex;  // LaTeX (amsmath), one equation a line, e.g. "M = \begin{pmatrix}...\end{pmatrix}"
};

struct DerivedEquations {
  std::vector<EquationBlock> blocks;
  std::vector<std::string> notes;  // e.g. "parameters are numbers: the system is written in C++"
  // A control model's: Pontryagin's equations (control_equations.h) rather than
  // M ẏ − Aᵀλ = F, A ẏ = b.
  bool optimalControl = false;
  // The Hamiltonian side (hamiltonian_equations.h): H, the nonholonomic bracket and its
  // Jacobiator rather than M ẏ − Aᵀλ = F, A ẏ = b.
  bool hamiltonian = false;
  std::string summary;  // which equations these are, in words, e.g. for a header
};

// Derives the equations. A model file's system is derived from its formulas, with its
// parameters as symbols; a C++ system from its recording, with the parameter values as
// numbers. `parameters` empty: the defaults. A control model gets Pontryagin's equations:
// the Hamiltonian, (5.6)–(5.8) and, where (5.8) is linear in u, u(t, q, ξ) and the extremal
// equations with it.
// `cancel` (may be nullptr): once it is true the derivation stops soon, throwing
// DerivationCancelled (for a caller that derives off its GUI thread and no longer needs the
// result).
DerivedEquations deriveEquations(const SystemModel& system,
                                 const std::vector<double>& parameters = {},
                                 const std::atomic<bool>* cancel = nullptr);

// The Hamiltonian side of a system (theory §9): p = ∂L/∂y, H(q, p) = p·y − L, the basis X_a
// of the constraint distribution and the constrained momenta π_a = ⟨p, X_a⟩, the
// nonholonomic bracket of (q, π) and its nonzero Jacobiator entries. A control model has no
// Lagrangian to transform: InputError. `parameters` and `cancel` as for deriveEquations.
DerivedEquations deriveHamiltonianEquations(const SystemModel& system,
                                            const std::vector<double>& parameters = {},
                                            const std::atomic<bool>* cancel = nullptr);

class DerivationCancelled : public Error {
 public:
  using Error::Error;
};

std::string toPlainText(const DerivedEquations& equations);
std::string toLatex(const DerivedEquations& equations);  // a complete LaTeX fragment

}  // namespace nh::model
// SPDX-License-Identifier: GPL-3.0-or-later
