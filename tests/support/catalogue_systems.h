// The catalogue split by what its systems can do (tests/core, tests/ui): the systems with
// dynamics, which every run, drawing and derivation suite goes through, and the control
// models, which have none of their own and move only along an optimal plan
// (optimal_control_test; catalogue_test checks their descriptions and scenes).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/model/catalogue.h"
#include "core/nh/scenario.h"

namespace nh::test {

// The scenario that runs `system` at its defaults for tEnd seconds.
inline Scenario scenarioOf(const std::string& system, double tEnd) {
  Scenario s;
  s.system = system;
  s.tEnd = tEnd;
  return s;
}

inline std::vector<std::shared_ptr<const SystemModel>> systemsWithDynamics() {
  std::vector<std::shared_ptr<const SystemModel>> out;
  for (const auto& system : catalogue())
    if (!system->info().isControlModel()) out.push_back(system);
  return out;
}

inline std::vector<std::shared_ptr<const SystemModel>> controlModels() {
  std::vector<std::shared_ptr<const SystemModel>> out;
  for (const auto& system : catalogue())
    if (system->info().isControlModel()) out.push_back(system);
  return out;
}

}  // namespace nh::test
// SPDX-License-Identifier: GPL-3.0-or-later
