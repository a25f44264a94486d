// The systems that were written in C++ before model files existed, kept as independent
// references: tests/core/model/twins_test checks that the bundled model files, which are
// now the programs' only definitions of these systems, reproduce them to round-off.
#pragma once

#include <memory>
#include <vector>

#include "core/nh/system.h"

namespace nh {

std::shared_ptr<const SystemModel> makeBallOnTurntable();
std::shared_ptr<const SystemModel> makeBallOnTable();
std::shared_ptr<const SystemModel> makeNonholonomicParticle();
std::shared_ptr<const SystemModel> makeRigidBody();
std::shared_ptr<const SystemModel> makeRollingDisk();
std::shared_ptr<const SystemModel> makeChaplyginSleigh();

// All of the above.
inline std::vector<std::shared_ptr<const SystemModel>> referenceSystems() {
  return {makeBallOnTurntable(), makeBallOnTable(), makeNonholonomicParticle(),
          makeRigidBody(),       makeRollingDisk(), makeChaplyginSleigh()};
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
