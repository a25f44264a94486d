#include "ball_on_plane.h"

namespace nh {
std::shared_ptr<const SystemModel> makeBallOnTurntable() {
  return makeSystem<systems::BallOnPlane<true>>();
}
}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
