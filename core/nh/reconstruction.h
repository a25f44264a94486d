// Reduction and reconstruction (theory §1: group coordinates "used only for reconstruction";
// docs/engine.md): coordinates that nothing in the
// equations of motion reads — a free attitude quaternion, positions where the system is
// invariant, headings and wheel angles — do not take part in the adaptive stepper's error
// control. The stepper integrates the reduced state z (the other coordinates, the
// velocities, the vakonomic μ); after each accepted step the reconstructed coordinates are
// carried over it from the stepper's dense output:
//  - a quadrature q̇ᵢ = vᵢ(t, z) by 3-point Gauss–Legendre (order 6);
//  - a unit quaternion whose kinematics are linear in itself, q̇ = G(t, z) q with G in a copy
//    of su(2) (left or right multiplication by ½ω), by the 6th-order Magnus integrator on
//    the same Gauss points (Blanes, Casas & Ros 2000; Iserles & Nørsett 1999) with the
//    exact exponential exp(Ω) = cos θ + (sin θ/θ) Ω, θ² = −Ω², so the quaternion stays unit
//    by construction whatever the spin per step.
// Both are adaptive within the step: each piece is compared with its two halves (step
// doubling); a piece whose halves' error estimate |whole − halves|/63 exceeds
// atol + rtol·|r| is halved again. A step that
// would need more than kMaxReconstructionPieces pieces is handed back to the stepper as
// rejected.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/nh/symbolic.h"

namespace nh {

struct ReconstructionPlan {
  bool available = false;
  std::string reason;            // why not, when not available
  std::vector<int> quadratures;  // coordinate indices integrated as quadratures
  std::vector<int> quaternions;  // first coordinate index of each reconstructed quaternion
  std::vector<int> entries;      // the reconstructed state indices: quadratures, then quaternions
  std::vector<int> reduced;      // state indices the stepper integrates, ascending
  // Over (t, q, y[, μ]): vᵢ of each quadrature, then G (4×4, row-major) of each quaternion.
  SymProgram program;
};

inline constexpr int kMaxReconstructionPieces = 1 << 16;

class SystemModel;
// What compileTape finds on the tape: v are the coordinates' rates ρ(q)y, `read` every
// output the equations of motion use (p, F, M, A, b, Φ, taped structure and force).
// Whether two plans reconstruct the same entries and reduce to the same rows (the equations
// under other parameter values): a Reconstructor made for one can be rebound to the other.
bool sameLayout(const ReconstructionPlan& a, const ReconstructionPlan& b);

ReconstructionPlan planReconstruction(Tape& tape, const SystemModel& system, int variableCount,
                                      const std::vector<Sym>& v, const std::vector<Sym>& read);

// Carries the reconstructed coordinates of a full state over a step; one per Simulation.
class Reconstructor {
 public:
  // Writes the full state at τ into x, leaving its reconstructed entries as they are.
  using StateAt = std::function<void(double tau, double* x)>;

  Reconstructor() = default;
  Reconstructor(const ReconstructionPlan* plan, int n, int stateSize, int variableCount);
  // Carries on with `plan`, of the same layout (sameLayout) as the one in use: its program's
  // registers are taken anew, the buffers kept.
  void rebind(const ReconstructionPlan* plan);

  // Advances the reconstructed entries of x (the full state at a) to b. Returns false, x
  // unchanged, when the tolerance would need more than kMaxReconstructionPieces pieces.
  bool advance(const StateAt& stateAt, double a, double b, double* x, double atol, double rtol);
  std::int64_t pieces() const { return pieces_; }  // pieces integrated so far (statistics)

 private:
  // Ω (per quaternion, 16 entries) and Δ (per quadrature) of the 6th-order rule on [a, b].
  void rule(const StateAt& stateAt, double a, double b, const double* x, double* omega,
            double* delta);
  void apply(const double* omega, const double* delta, double* x) const;
  bool piece(const StateAt& stateAt, double a, double b, const double* omegaWhole,
             const double* deltaWhole, double* x, int depth, double atol, double rtol, int& budget);

  const ReconstructionPlan* plan_ = nullptr;
  int n_ = 0, stateSize_ = 0, variableCount_ = 0;
  std::vector<double> registers_, variables_, probe_, trial_, saved_, start_;
  std::vector<std::vector<double>> omega_, delta_;  // per recursion depth: left and right halves
  std::int64_t pieces_ = 0;
};

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
