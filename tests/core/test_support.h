// Shared helpers for the core test suites: random consistent states and comparisons.
#pragma once

#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "core/nh/scenario.h"

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
  if (info.name == "central_force") init["r"] = 1.0 + 0.4 * u(rng);  // keep r > 0
  std::vector<double> x = initialState(eq, t, init);
  for (int c = sys.n() + sys.m(); c < eq.stateSize(); ++c) x[c] = u(rng);
  return x;
}

inline double relativeDifference(double a, double b, double scale = 1.0) {
  return std::abs(a - b) / std::max({std::abs(a), std::abs(b), scale});
}

}  // namespace nh::test
