// What `nhsim info` says of a system, shared by nhsim and the Python module's System.info().
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/model/structure_kind.h"
#include "core/nh/scenario.h"

namespace nh::cli {

// What `nhsim info` says of a system beyond its SystemInfo: the state layouts, the kind of
// algebroid its structure is (structure_kind.h), the coordinates reconstructed over each step
// (reconstruction.h), or why none are, and a control model's cost as written.
struct SystemFacts {
  StateLayout nonholonomic, vakonomic;
  model::StructureClassification structure;
  std::vector<std::string> reconstructed;
  std::string notReconstructed = "the system cannot be taped";
  std::string cost;
  std::string discreteGradient;  // what discrete-gradient conserves, or why it does not apply
};

// The facts of `system` at its default parameters and start.
SystemFacts factsOf(const std::shared_ptr<const SystemModel>& system);

// `nhsim info --constraints --json`'s "constraint_algebroid": the verdict and the blocks of the
// constraints' algebroid (constrained_algebroid.h). Throws InputError for a control model.
nlohmann::json constraintAlgebroidJson(const SystemModel& system);

// `nhsim info --json`: the description, the parameters with their ranges, the state and the
// facts, keys sorted.
nlohmann::json infoJson(const SystemInfo& s, const SystemFacts& facts);

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
