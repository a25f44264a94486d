// The energy with respect to the constraints' reference frame, T_Γ = E − p·Γ (frame_energy.h,
// theory §4), at one state: the column energy_frame.
#include "core/nh/frame_energy.h"

namespace nh {

double frameEnergy(const EquationsOfMotion& equations, double t, const double* x,
                   const Observables& observed) {
  const SystemModel& system = equations.system();
  VecY gamma(system.m());
  system.referenceFrame(equations.parameters().data(), t, x, gamma.data());
  return observed.energy - observed.momentum.dot(gamma);
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
