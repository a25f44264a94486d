// The ball rolling on a turntable (ball_on_plane.h turning with Ω(t)), one of the C++
// reference systems the bundled model files are checked against (reference_systems.h).
#include "ball_on_plane.h"

namespace nh {
std::shared_ptr<const SystemModel> makeBallOnTurntable() {
  return makeSystem<systems::BallOnPlane<true>>();
}
}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
