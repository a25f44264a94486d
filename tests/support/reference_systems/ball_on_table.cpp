#include "ball_on_plane.h"

namespace nh {
std::shared_ptr<const SystemModel> makeBallOnTable() {
  return makeSystem<systems::BallOnPlane<false>>();
}
}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
