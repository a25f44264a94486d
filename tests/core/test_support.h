// Shared helpers for the core test suites: random consistent states and comparisons.
#pragma once

#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "core/nh/scenario.h"
#include "core/nh/system.h"

namespace nh::test {

// A random state near the system's defaults with velocities made consistent with the
// constraints (the engine's own completion), and random multipliers μ when vakonomic.
inline std::vector<double> randomState(const EquationsOfMotion& eq, std::mt19937& rng, double t) {
  const SystemModel& sys = eq.system();
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::map<std::string, double> init;
  const SystemInfo& info = sys.info();
  for (int i = 0; i < sys.n(); ++i) {
    bool isQuaternion = false;
    for (const auto& qs : info.quaternions)
      if (i >= qs.first && i < qs.first + 4) isQuaternion = true;
    const double base = info.defaultCoordinates[i];
    init[info.coordinates[i]] = isQuaternion ? u(rng) : base + 0.5 * u(rng);
  }
  for (int a = 0; a < sys.m(); ++a) init[info.velocities[a]] = info.defaultVelocities[a] + u(rng);
  // Stay where the model is defined (the central force's r > 0, say): a value outside a
  // state variable's range is drawn again inside it.
  for (const auto& limit : info.stateLimits) {
    if (!init.count(limit.name) || limit.allows(init[limit.name])) continue;
    const double lo = std::isfinite(limit.min) ? limit.min : limit.max - 2.0;
    const double hi = std::isfinite(limit.max) ? limit.max : lo + 2.0;
    init[limit.name] = lo + (hi - lo) * (0.5 + 0.4 * u(rng));
  }
  std::vector<double> x = initialState(eq, t, init);
  for (int c = sys.n() + sys.m(); c < eq.stateSize(); ++c) x[c] = u(rng);
  return x;
}

// A system outside the catalogue shared by the suites: a spherical pendulum in Cartesian
// coordinates with the holonomic g = |x|² − l², which exercises ġ through ρ and the
// Gauss–Newton projection.
struct SphericalPendulum {
  static SystemInfo info() {
    SystemInfo s;
    s.name = "spherical_pendulum";
    s.coordinates = {"x", "y", "z"};
    s.velocities = {"vx", "vy", "vz"};
    s.stateOrder = {"x", "y", "z", "vx", "vy", "vz"};
    s.independentVelocities = {"vx", "vy"};
    s.parameters = {{.name = "l", .unit = "m", .description = "length", .defaultValue = 1.0},
                    {.name = "g", .unit = "m/s²", .description = "gravity", .defaultValue = 9.81}};
    s.defaultCoordinates = {0.6, 0, -0.8};
    s.defaultVelocities = {0, 1.0, 0};
    s.holonomicCount = 1;
    return s;
  }
  template <class S>
  static void anchor(const double*, const S*, S* rho) {
    for (int i = 0; i < 3; ++i) rho[i + 3 * i] = S(1.0);
  }
  template <class S>
  static S lagrangian(const double* p, const S&, const S* q, const S* y) {
    return 0.5 * (y[0] * y[0] + y[1] * y[1] + y[2] * y[2]) - p[1] * q[2];
  }
  template <class S>
  static void holonomic(const double* p, const S&, const S* q, S* g) {
    g[0] = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] - p[0] * p[0];
  }
};

inline double relativeDifference(double a, double b, double scale = 1.0) {
  return std::abs(a - b) / std::max({std::abs(a), std::abs(b), scale});
}

}  // namespace nh::test
// SPDX-License-Identifier: GPL-3.0-or-later
