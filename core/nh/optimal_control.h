// Optimal control and vakonomic boundary-value problems on an algebroid (theory: optimal
// control; Grabowska & Grabowski, Ex. 3): extremals of ∫₀ᵀ L dt from a given start to given
// end conditions at T.
//
// Both problems are solved as one: a state z = (q, ξ) with ξ ∈ E* the costate, algebraic
// unknowns w and the Hamiltonian H(t, q, ξ, w) = ξ·f(t, q, w) − ℓ(t, q, w):
//   q̇^a = ρ^a_i(q) f^i,   ξ̇_j = C^k_ij(q) f^i ξ_k − ρ^a_j(q) ∂H/∂q^a,   0 = ∂H/∂w.
// - A control model (SystemInfo::controls): w = u, f its control section, ℓ its cost: the
//   normal Pontryagin equations (5.6)–(5.8).
// - Any other system (vakonomic): w = (y, μ), f = y, ℓ = L + μ·Φ: ∂H/∂y = 0 says ξ is the
//   vakonomic momentum p + μ ∂Φ/∂y, ∂H/∂μ = 0 says Φ = 0, and the costate equation is the
//   vakonomic equation (theory §3). Its unknowns — the free initial velocities and μ(0) — are
//   in one-to-one correspondence with ξ(0).
// Every derivative comes from the tape: ∂H/∂w, its Jacobian (Newton's method for w, one step
// when the tape shows ∂H/∂w linear in w), and the Jacobian of the right-hand side for the
// variational equations that give the exact sensitivities of multiple shooting.
//
// End conditions: targeted coordinates equal given values at T (a quaternion on the group:
// three conditions); at T the costate annihilates the end variations that keep the targets,
// ξ(T) = (∂R/∂q · ρ)ᵀ ν, with R the target residuals and ν new unknowns (transversality; for
// free coordinates ξ's component along them vanishes).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/nh/system.h"

namespace nh {

struct OptimalControlOptions {
  double tEnd = 1;
  std::vector<double> parameters;  // in the system's order; empty: the defaults
  // Coordinates at t = 0 (n values; empty: the defaults) and, for a system without
  // controls, initial velocities that seed the first Newton start (empty: the defaults).
  std::vector<double> startCoordinates;
  std::vector<double> startVelocities;
  std::map<std::string, double> targets;  // coordinate → value at T (quaternions: all four)
  int starts = 8;                         // Newton starts: the plain one, then random costates
  unsigned seed = 1;                      // of the random starts (reproducible)
  double tolerance = 1e-10;               // on the end conditions (and the shooting gaps)
  int maxIterations = 60;  // Newton iterations per start (and per continuation stage)
  int segments = 0;        // of multiple shooting; 0: chosen from T and the system
  double dtOut = 0;        // spacing of the samples of a path; 0: T/200
};

// One sampled extremal: at each time, the columns of OptimalControlResult::columns.
struct Extremal {
  double cost = 0;                        // ∫₀ᵀ L dt
  double residual = 0;                    // largest end condition or shooting gap left
  int iterations = 0;                     // Newton iterations (all continuation stages)
  std::vector<std::string> unknownNames;  // xi_<velocity>, or free velocities and mu_<i>
  std::vector<double> unknowns;           // their values at t = 0
  std::vector<double> times;
  std::vector<std::vector<double>> rows;  // per time: the columns after t
};

struct OptimalControlResult {
  bool vakonomic = false;  // the system has no controls
  // Columns after t: coordinates, velocities, then controls and xi_<velocity> (control
  // model) or mu_<i> (vakonomic), then cost (the running integral of L).
  std::vector<std::string> columns;
  std::vector<Extremal> extremals;  // those meeting the tolerance, distinct, lowest cost first
  double bestResidual = 0;          // of the best start when none met the tolerance
  std::string failure;              // why no start converged (when extremals is empty)
  // What may help then: other starts, T or targets; or, when ∂²H/∂u² was singular (no start
  // can help), what cost is allowed.
  std::string advice;
  // When the paths of all the extremals found would pass kMaxPathBytes: how many of the
  // costliest were left out.
  std::string note;
  int startsTried = 0;
};

// The memory the sampled paths of one solve may hold together (rows of the columns, 8 bytes a
// value, with the allocator's overhead): a sampling that one path would pass it with is refused,
// and of several extremals the costliest that would pass it are left out.
inline constexpr double kMaxPathBytes = 1e9;

struct Scenario;
// The parameters, start coordinates and (vakonomic) seed velocities of a scenario: its
// overrides of the defaults, checked by name; a control model's velocities follow from its
// controls and cannot be set. Throws InputError.
void startFromScenario(const std::shared_ptr<const SystemModel>& systemPtr,
                       const Scenario& scenario, OptimalControlOptions& options);

// Progress in [0, 1]; return false to cancel (the solve then throws Cancelled).
using OptimalControlProgress = std::function<bool(double fraction)>;

class OptimalControlCancelled : public std::runtime_error {
 public:
  OptimalControlCancelled() : std::runtime_error("the optimisation was cancelled") {}
};

// Solves the problem; throws InputError (saying what and what is allowed) for bad input:
// T ≤ 0, an unknown target, a quaternion not targeted by all four components or not of unit
// length, more end conditions than unknowns, a target the controls cannot move, a system
// with generalised forces (no variational principle), functions the tape cannot record.
OptimalControlResult solveOptimalControl(std::shared_ptr<const SystemModel> system,
                                         const OptimalControlOptions& options,
                                         const OptimalControlProgress& progress = {});

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
