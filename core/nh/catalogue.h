// The catalogue of systems shipped with Nonholonomic Lab (one file each in core/systems/).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/nh/system.h"

namespace nh {

// All catalogue systems, in the order shown to users.
const std::vector<std::shared_ptr<const SystemModel>>& catalogue();

// The system with this CLI name; throws InputError naming the known systems otherwise.
std::shared_ptr<const SystemModel> findSystem(const std::string& name);

}  // namespace nh
