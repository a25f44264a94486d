// Helpers shared by the suites that run the bundled model files against references.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

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

// The bundled file `name` with each `from` replaced by its `to` (each must occur), loaded.
inline std::shared_ptr<const SystemModel> edited(
    const std::string& name, const std::vector<std::pair<std::string, std::string>>& changes) {
  for (const auto& [file, text] : bundledModelFiles()) {
    if (file != name + ".yaml") continue;
    std::string changed = text;
    for (const auto& [from, to] : changes) {
      const size_t at = changed.find(from);
      if (at == std::string::npos) throw std::logic_error("no '" + from + "' in " + file);
      changed.replace(at, from.size(), to);
    }
    return model::loadModelText(changed, file);
  }
  throw std::logic_error("no bundled " + name);
}

// The bundled file `name` with `forces` (a model-file map, "{v: -0.3*v}") after its Lagrangian.
inline std::shared_ptr<const SystemModel> withForces(const std::string& name,
                                                     const std::string& forces) {
  for (const auto& [file, text] : bundledModelFiles()) {
    if (file != name + ".yaml") continue;
    std::string changed = text;
    const size_t end = changed.find('\n', changed.find("\nlagrangian:") + 1);
    changed.insert(end, "\nforces: " + forces);
    return model::loadModelText(changed, file);
  }
  throw std::logic_error("no bundled " + name);
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
