// The growth watch of vakonomic runs (growth_watch.h): tenfold increases of max |μ| marked,
// the growth rate and the cost per unit time measured between them, the steps to the end
// estimated against the budget.
#include "core/nh/growth_watch.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/nh/errors.h"
#include "core/nh/messages.h"

namespace nh {

void GrowthWatch::check(const EquationsOfMotion& equations, double t, const double* x, double tEnd,
                        std::int64_t steps, std::int64_t stepsThisCall, std::int64_t budget) {
  tEnd = std::max(tEnd, t + lookahead_);
  const SystemModel& system = equations.system();
  const int first = system.n() + system.m(), size = equations.stateSize();
  if (first >= size) return;
  double mu = 0;
  for (int i = first; i < size; ++i) mu = std::max(mu, std::abs(x[i]));
  if (level_ == 0) level_ = 10 * std::max(1.0, mu);
  if (mu >= level_) {  // a tenfold increase: marked
    while (level_ <= mu) level_ *= 10;
    if (marks_ == 2) mark_[0] = mark_[1];
    marks_ = std::min(marks_ + 1, 2);
    mark_[marks_ - 1] = {t, std::log(mu), steps};
  }
  // Every 256 steps from the second mark on: the last two marks and this step.
  if (marks_ < 2 || (steps & 255) != 0) return;
  const Mark &a = mark_[0], &b = mark_[1];
  const Mark c{t, std::log(mu), steps};
  if (!(b.t > a.t && c.t > b.t && c.logMu - b.logMu > 0.5)) return;
  const double tau1 = (b.t - a.t) / (b.logMu - a.logMu), tau2 = (c.t - b.t) / (c.logMu - b.logMu);
  if (!(tau2 > 0 && tau1 > 0 && tau2 < 2 * tau1 && tau2 > 0.5 * tau1)) return;  // not e^{t/τ}
  const double rate1 = (b.steps - a.steps) / (b.t - a.t), rate2 = (c.steps - b.steps) / (c.t - b.t);
  if (!(rate2 >= rate1 && rate2 > 0)) return;  // the cost of a unit of time does not grow
  // The steps from t to tEnd at no more than today's rate (a lower bound while the rate does
  // not fall), or, when it grows, extrapolated like e^{t/σ} from the last two intervals.
  const double remaining = static_cast<double>(budget - stepsThisCall);
  double predicted = rate2 * (tEnd - t);
  double reachable = t + remaining / rate2;  // where the budget ends, by the same estimate
  if (rate2 > rate1) {
    const double sigma = 0.5 * (c.t - a.t) / std::log(rate2 / rate1);
    const double growing = rate2 * sigma * std::expm1((tEnd - t) / sigma);
    if (growing > predicted) {
      predicted = growing;
      reachable = t + sigma * std::log1p(remaining / (rate2 * sigma));
    }
  }
  if (!(predicted > remaining)) return;
  throw IntegrationError(
      "the multipliers of '" + echoInput(system.name()) + "' grow like e^{t/τ} with τ = " +
          shortNumber(tau2) + " s (max |mu| = " + shortNumber(mu) + " at t = " + shortNumber(t) +
          "), and the steps per second with them: the vakonomic solution is unstable here. "
          "Reaching t = " +
          shortNumber(tEnd) + " would take at least about " + shortNumber(predicted) +
          " steps, more than the budget of " + std::to_string(budget) +
          " (it lasts to about t = " + shortNumber(reachable) +
          "); shorten t-end, raise --max-steps, or use nonholonomic dynamics",
      t);
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
