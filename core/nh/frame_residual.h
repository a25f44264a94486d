// Whether a reference frame Γ(t, q) (SystemModel::referenceFrame) lies on the constraints at
// one (t, q): Φ(t, q, Γ) and the rates ġ(t, q, Γ) of the holonomic constraints vanish. One
// test for the model loader's check at sample points (core/model/model_file.cpp) and for the
// check along a run (checkReferenceFrame, run_checks.h).
#pragma once

#include <string>

#include "core/nh/system.h"

namespace nh {

// Φ(t, q, Γ) counts as 0 when its largest entry is at most this times max(1, |Γ|∞).
inline constexpr double kFrameResidualTolerance = 1e-9;

struct FrameResidual {
  double largest = 0;  // the largest |Φ(t, q, Γ)| over the k constraints and h rates ġ; NaN
                       // when one is not finite
  int worst = 0;       // which one (0 … k + h − 1: the constraints, then the rates)
  bool holds = true;   // largest ≤ kFrameResidualTolerance · max(1, |Γ|∞) (false for NaN)
};

// The constraints of `system` (parameters p) at (t, q) for the velocity `gamma` (m entries, a
// frame's value there). Allocates nothing.
FrameResidual frameResidual(const SystemModel& system, const double* p, double t, const double* q,
                            const double* gamma);

// Entry `index` of frameResidual's constraints in words: "constraints[2]" or "the rate of
// holonomic[1]" (1-based, as a model file lists them).
std::string frameConstraintName(const SystemModel& system, int index);

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
