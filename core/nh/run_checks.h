// Checks on the samples of a run that the integration itself does not make: every value of
// an output row finite, the energy of a system that conserves it kept (numerical drift), the
// constraints kept by the multipliers' rank and by the model's reference frame. The run loop
// (scenario_run.h) makes them on every sample of every front end's runs.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/nh/dynamics.h"

namespace nh {

// The first entry of `row` (values under `columns`, as outputColumns and outputRow give
// them) that is not finite, as "energy = -nan"; "" when every entry is finite.
std::string nonFiniteEntry(const std::vector<std::string>& columns, const std::vector<double>& row);

// Throws IntegrationError "integration of 'SYSTEM' blew up at t = T: energy = inf (…)" for
// a row with a non-finite entry (the state, the energy, a residual or a multiplier), naming
// the first such column; `system` is echoed cut to 60 characters.
void checkFiniteRow(const std::string& system, const std::vector<std::string>& columns,
                    const std::vector<double>& row, double t);

// For the message of a run that failed: among `values` (parameters and initial values by
// name), the one furthest outside 1e-100 … 1e100 in magnitude (zeros aside), as "m = 1e-310
// is far outside 1e-100 … 1e100, where products of doubles stay representable: give it in
// other units"; "" when every value is inside. Masses of 1e-310 or radii of 1e-160 make
// inertias that underflow to 0 and inverses that overflow.
std::string extremeValueHint(const std::vector<std::pair<std::string, double>>& values);

// The relative change of energy past which a run of a system that conserves energy is
// reported as numerically inaccurate: 1 %.
inline constexpr double kEnergyDriftThreshold = 0.01;

// Watches the energy E_L of one run for drift. A system conserves energy when dE/dt of the
// exact equations (∇E · f + ∂E/∂t, by a central difference along the vector field) is
// negligible along the run: it is evaluated at the first sample and at samples 2, 4, 8, …
// (a handful per run). For such a run, warning() reports an energy that moved by more than
// `threshold` relative to |E(0)| (or to the largest |E| seen when E(0) = 0): the integrator's
// error, not the physics. Systems that exchange energy (a driven turntable, nonlinear
// constraints whose reaction works) are never reported.
class EnergyDriftWatch {
 public:
  explicit EnergyDriftWatch(double threshold = kEnergyDriftThreshold) : threshold_(threshold) {}

  // The sample at (t, x) (the full state, size equations.stateSize()) with its energy (the
  // row's "energy"); `ws` is scratch for equations (the caller's workspace).
  void add(const EquationsOfMotion& equations, EquationsWorkspace& ws, double t, const double* x,
           double energy);

  // Whether the energy is conserved by the equations along the samples seen so far.
  bool conservative() const;
  // The largest relative change of energy from the first sample (0 before two samples).
  double relativeChange() const;
  // "" or one line: "energy changed by +45 % (from -0.68 to 26.3) although the equations
  // conserve it: tighten the tolerance (rtol, atol) or the step".
  std::string warning() const;

 private:
  double threshold_;
  long samples_ = 0;
  double t0_ = 0, tLast_ = 0;
  double e0_ = 0, eLast_ = 0, eWorst_ = 0, maxAbsE_ = 0, maxChange_ = 0;
  double maxRate_ = 0;     // the largest |dE/dt| of the exact equations seen
  bool rateKnown_ = true;  // false when dE/dt could not be evaluated (non-finite)
  std::vector<double> probe_, velocity_;
};

// Watches the multipliers of a run for a constraint that loses rank. Where the gradient of
// a constraint in the velocities vanishes (vz² = vx² + vy² at the cone's apex v = 0) the
// multipliers that keep the motion on it grow without bound (λ ~ 1/|∂Φ/∂y|) while the
// reaction they give, Aᵀλ, stays bounded, and the motion stalls there. The sign is the ratio
// |Aᵀλ| / |λ| (the gradient's size) falling below 1e-6 of its value at the first sample
// with λ ≠ 0. The rows stay accurate (the constraint holds, energy is kept); what λ (and a
// vakonomic μ) mean there does not: warning() says so.
class ConstraintRankWatch {
 public:
  // The sample at t with its observables (λ and the reaction of outputRow's observe()).
  void add(double t, const Observables& observed);
  // "" or one line: "the multipliers grew to |λ| = 4.9e+08 while the constraint forces stay
  // bounded: from t = 3.1 the constraints' gradient is below 1e-6 of its size at the start
  // (they lose rank there, as a cone at its apex), so the motion stalls and λ, μ there are
  // not meaningful".
  std::string warning() const;

 private:
  double reference_ = 0;      // |Aᵀλ| / |λ| at the first sample with λ ≠ 0
  double degenerateAt_ = -1;  // the first time the ratio fell below 1e-6 of it
  double maxLambda_ = 0;
};

// Rechecks a model's reference frame Γ(t, q) along a run. The loader shows Φ(t, q, Γ) = 0
// symbolically where GiNaC can, and otherwise tests it at sample points only: a frame right
// near them alone (Γ_vy = 1 + 10 (y − 0.5 + |y − 0.5|)³ for vy − x vx − 1, wrong past y = 0.5)
// loads, and discrete-gradient, which steps the motion relative to Γ, then computes another
// motion where it is wrong. This applies the loader's test (frameResidual, frame_residual.h)
// at the state x (equations.stateSize() entries) at time t, with the run's parameters, and
// throws IntegrationError(…, t) where it fails: "the reference_frame of 'S' no longer
// satisfies the constraints at t = T: Φ(t, q, Γ) = R in constraints[1] (…)". Nothing for a
// system without a reference frame. Costs one evaluation of Γ and one of the constraints;
// allocates nothing unless it throws. Simulation calls it at every sample of a
// discrete-gradient run.
void checkReferenceFrame(const EquationsOfMotion& equations, double t, const double* x);

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
