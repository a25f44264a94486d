// The ball rolling on a fixed table (ball_on_plane.h without rotation), one of the C++
// reference systems the bundled model files are checked against (reference_systems.h).
#include "ball_on_plane.h"

namespace nh {
std::shared_ptr<const SystemModel> makeBallOnTable() {
  return makeSystem<systems::BallOnPlane<false>>();
}
}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
