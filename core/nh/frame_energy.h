// The energy with respect to the constraints' reference frame (theory §4): for a reference
// frame Γ(t, q) of the constraints (SystemModel::referenceFrame, Φ(t, q, Γ) = 0),
//
//   T_Γ = p·(y − Γ) − L = E − p·Γ,
//
// which the reactions of ideal affine constraints leave alone: along a motion
// dT_Γ/dt = −∂L/∂t + Q·(y − Γ) − Γ·(ρᵀ ∂L/∂q + C-term) − p·dΓ/dt (theory §4), so that T_Γ is
// conserved on a table turning at constant Ω while E is not. The output column energy_frame.
#pragma once

#include "core/nh/dynamics.h"

namespace nh {

// T_Γ at (t, x) from what observe() gave there (its energy and momentum). The system must
// have a reference frame (SystemModel::hasReferenceFrame). Allocates nothing.
double frameEnergy(const EquationsOfMotion& equations, double t, const double* x,
                   const Observables& observed);

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
