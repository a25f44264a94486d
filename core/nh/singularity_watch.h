// The singularity search of Simulation::advance: where on a step one of the system's singular
// functions s_i(t, q, y) (SystemInfo::singularities) reaches 0, and the error that stops the
// run there.
#pragma once

#include <functional>
#include <vector>

#include "core/nh/dynamics.h"

namespace nh {

class SingularityWatch {
 public:
  // The state x at τ within the step (the stepper's dense output or chord).
  using StateAt = std::function<void(double tau, double* x)>;

  // The first time where a singular function of `equations` reaches 0 on the step [t0, t1],
  // or, by the look-ahead, within one more step length (up to t0 + 2(t1 − t0)), the state
  // along it given by stateAt; -1 if none does. Remembers which function it was for throwAt.
  double first(const EquationsOfMotion& equations, double t0, double t1, const StateAt& stateAt);
  // SingularSystemError: the system reached the singular point of the last `first` at t.
  [[noreturn]] void throwAt(const SystemModel& system, double t) const;

 private:
  std::vector<double> probe_, values_;  // the state at τ and the functions there
  int index_ = 0;                       // the function that reached 0
};

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
