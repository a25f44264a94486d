// Helpers shared by the suites that run the bundled model files against references.
#pragma once

#include <memory>
#include <string>

#include "core/model/catalogue.h"
#include "core/model/model_file.h"
#include "core/nh/simulation.h"

namespace nh::test {

// Dormand–Prince at rtol 1e-12, atol 1e-14: accurate to ~1e-11 over the suites' few seconds.
inline IntegratorOptions tight() {
  IntegratorOptions o;
  o.rtol = 1e-12;
  o.atol = 1e-14;
  return o;
}

// A bundled model file (resources/systems/NAME.yaml) loaded afresh; null if there is none.
inline std::shared_ptr<const SystemModel> bundled(const std::string& name) {
  for (const auto& [file, text] : bundledModelFiles())
    if (file == name + ".yaml") return model::loadModelText(text, file);
  return nullptr;
}

// Index of a coordinate or velocity in the state vector [q, y, μ]; -1 if unknown.
inline int indexOf(const SystemModel& system, const std::string& name) {
  const SystemInfo& info = system.info();
  for (int i = 0; i < system.n(); ++i)
    if (info.coordinates[i] == name) return i;
  for (int a = 0; a < system.m(); ++a)
    if (info.velocities[a] == name) return system.n() + a;
  return -1;
}

}  // namespace nh::test
// SPDX-License-Identifier: GPL-3.0-or-later
