// The growth watch of vakonomic runs (Simulation::advance): where the multipliers μ grow
// exponentially and the steps per unit time with them, the run stops early with the growth
// rate named, instead of when the step budget is spent.
#pragma once

#include <cstdint>

#include "core/nh/dynamics.h"

namespace nh {

class GrowthWatch {
 public:
  // A new run (Simulation::setState): the marks are forgotten.
  void reset() {
    marks_ = 0;
    level_ = 0;
  }
  // For callers that advance in short pieces without an end (Simulation::setGrowthLookahead):
  // the steps are estimated to at least t + seconds instead of to the piece's tEnd.
  void setLookahead(double seconds) { lookahead_ = seconds; }

  // After every accepted step, x the state of `equations` at t: watches max |μ| (the entries
  // after q and y; nothing to watch without them). Where it grows exponentially (e^{t/τ},
  // measured from its last two tenfold increases to now, every 256 steps) and the steps per
  // unit time do not fall, the steps to tEnd are estimated (at least today's rate times the
  // time left); more than the budget left (`budget` − `stepsThisCall`) throws
  // IntegrationError naming τ. `steps`: the accepted steps since the run started.
  void check(const EquationsOfMotion& equations, double t, const double* x, double tEnd,
             std::int64_t steps, std::int64_t stepsThisCall, std::int64_t budget);

 private:
  struct Mark {
    double t = 0, logMu = 0;
    std::int64_t steps = 0;
  };
  Mark mark_[2];      // the last two tenfold increases of max |μ|
  int marks_ = 0;     // of them set
  double level_ = 0;  // the next level of max |μ| to mark (0: set at the first step)
  double lookahead_ = 0;
};

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
