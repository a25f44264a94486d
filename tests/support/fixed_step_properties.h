// What the tests of the fixed-step geometric integrators (nh-rattle, discrete-gradient)
// measure alike, through Simulation: the state after a run, global errors at three steps
// against DOP853, the return to the start with reversed velocities, quaternion norms.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "core/model/catalogue.h"
#include "core/nh/scenario.h"
#include "core/nh/simulation.h"

namespace nh::test {

// How many steps a long run takes: `steps` in the release build, a tenth of them under the
// sanitizers (which run the same code paths some ten times slower; the release suite runs
// the full length).
constexpr long longRunSteps(long steps) {
#if defined(NH_TEST_SANITIZER)
  return steps / 10;
#else
  return steps;
#endif
}

inline IntegratorOptions fixedStepOptions(Integrator method, double step, bool projection) {
  IntegratorOptions options;
  options.method = method;
  options.step = step;
  options.projection = projection;
  return options;
}

// The state of `system` from its default start after t-end with `options`.
inline std::vector<double> runTo(const std::string& system, double tEnd,
                                 const IntegratorOptions& options) {
  Simulation sim(findSystem(system), DynamicsKind::Nonholonomic, Formulation::Multipliers, options);
  sim.setState(0, initialState(sim.equations(), 0, {}));
  sim.advance(tEnd, tEnd, {});
  return sim.state();
}

inline double maxDifference(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
  return worst;
}

// Largest departure of the attitude quaternions of `equations` from unit norm in x.
inline double quaternionResidual(const EquationsOfMotion& equations, const double* x) {
  double worst = 0;
  for (const QuaternionSlot& qs : equations.system().info().quaternions) {
    double norm2 = 0;
    for (int i = 0; i < 4; ++i) norm2 += x[qs.first + i] * x[qs.first + i];
    worst = std::max(worst, std::abs(std::sqrt(norm2) - 1));
  }
  return worst;
}

// Global errors at t-end with steps h, h/2, h/4 (drift control on, as runs have it by default)
// against DOP853 at 1e-13; a second-order method gives ratios near 4.
inline std::array<double, 3> globalErrors(const std::string& system, Integrator method, double tEnd,
                                          double h) {
  IntegratorOptions reference;
  reference.method = Integrator::Dop853;
  reference.rtol = reference.atol = 1e-13;
  const std::vector<double> exact = runTo(system, tEnd, reference);
  std::array<double, 3> errors{};
  for (int i = 0; i < 3; ++i)
    errors[i] =
        maxDifference(runTo(system, tEnd, fixedStepOptions(method, h / (1 << i), true)), exact);
  return errors;
}

// 200 steps of h forward, velocities reversed, 200 back, velocities reversed: how far from the
// start it ends, and how far the forward run went from it.
struct ReturnTrip {
  double error = 0, distance = 0;
};
inline ReturnTrip returnTrip(const std::string& system, Integrator method, double h) {
  const double span = 200 * h;
  Simulation sim(findSystem(system), DynamicsKind::Nonholonomic, Formulation::Multipliers,
                 fixedStepOptions(method, h, true));
  const std::vector<double> start = initialState(sim.equations(), 0, {});
  const int n = sim.equations().system().n(), size = static_cast<int>(start.size());
  auto reversed = [&](std::vector<double> x) {
    for (int i = n; i < size; ++i) x[i] = -x[i];
    return x;
  };
  sim.setState(0, start);
  sim.advance(span, span, {});
  ReturnTrip trip;
  trip.distance = maxDifference(sim.state(), start);
  sim.setState(0, reversed(sim.state()));
  sim.advance(span, span, {});
  trip.error = maxDifference(reversed(sim.state()), start);
  return trip;
}

}  // namespace nh::test
// SPDX-License-Identifier: GPL-3.0-or-later
