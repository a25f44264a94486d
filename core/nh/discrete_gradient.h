// What `--integrator discrete-gradient` (discrete_gradient.cpp) can step and what it conserves.
//
// The method keeps a quantity 𝓔 that the exact equations keep: the energy when the
// constraints are linear in the velocities, the energy in the constraints' declared reference
// frame (energy_frame, frame_energy.h) when they are affine. It needs what makes 𝓔 a first
// integral and the flow almost-Poisson: nonholonomic dynamics in (q, y), constraints linear or
// affine in y and no holonomic ones, no explicit time in L, the constraints, the reference
// frame or the forces, no forces besides those of L, a skew bracket (C^γ_{αβ} = −C^γ_{βα}) and
// a system the tape can record. Each refusal is one line: the reason and what to choose.
#pragma once

#include <string>
#include <vector>

#include "core/nh/dynamics.h"
#include "core/nh/integrators.h"

namespace nh {

struct DiscreteGradientFit {
  std::string refusal;       // "" when the method applies; else one line, why not
  bool frameEnergy = false;  // affine constraints: it keeps energy_frame, not the energy
};

// What the method does with `equations` (their system at their parameter values). With a
// state x (stateSize() entries at time t) it also checks that 𝓔 is a first integral there:
// d𝓔/dt = ∇𝓔·ẋ vanishes relative to |∇𝓔||ẋ| (a tilted turntable keeps neither its energy nor
// the energy in the table's frame).
DiscreteGradientFit discreteGradientFit(const EquationsOfMotion& equations,
                                        const double* x = nullptr, double t = 0);

// Throws InputError with the refusal of discreteGradientFit, if any.
void checkDiscreteGradientApplies(const EquationsOfMotion& equations, const double* x = nullptr,
                                  double t = 0);

// One line for `nhsim info` and the run summary: "discrete-gradient: conserves the energy",
// "discrete-gradient: conserves the energy in the constraints' reference frame
// (energy_frame)" or "discrete-gradient: not applicable: <reason>".
std::string discreteGradientSummary(const DiscreteGradientFit& fit);

// The row's fit (integrators.h): with equations, discreteGradientFit's refusal, or the column it
// conserves ("energy" or "energy_frame") and discreteGradientSummary's line; without, nothing
// beyond what the row's flags refuse.
IntegratorFit discreteGradientIntegratorFit(const IntegratorTarget& target);

// |d𝓔/dt| / (|∇𝓔| |ẋ|) at (t, x), 𝓔 and its gradient in the coordinates (q, v) of the method
// (discrete_gradient.cpp); 0 where either vanishes. For a system the static checks accept.
double relativeEnergyRate(const EquationsOfMotion& equations, bool frameEnergy, double t,
                          const double* x);

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
