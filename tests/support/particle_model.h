// The model-file suites' valid starting point, the README's particle with ż = y ẋ, and the
// one-line edit the cases make to it (tests/core, tests/app).
#pragma once

#include <string>

namespace nh::test {

inline const std::string kParticleModel = R"(format: nonholonomic-lab-system
version: 1
name: particle
parameters:
  - {name: m, default: 1, unit: kg, min: 0, min_exclusive: true}
coordinates: [x, y, z]
velocities: [vx, vy, vz]
lagrangian: 0.5*m*(vx^2 + vy^2 + vz^2)
constraints:
  - vz - y*vx
initial: {y: 0.5, vx: 1, vy: 0.5, vz: 0.5}
)";

// A particle under gravity held to the cone vz² = vx² + vy², started on it: it reaches the
// apex, where the constraint's gradient vanishes and its multipliers grow without bound.
inline const std::string kConeModel = R"(format: nonholonomic-lab-system
version: 1
name: cone
parameters:
  - {name: m, default: 1.0, min: 0, min_exclusive: true}
coordinates: [x, y, z]
velocities: [vx, vy, vz]
lagrangian: 0.5*m*(vx*vx + vy*vy + vz*vz) - 9.81*m*z
constraints:
  - vz*vz - vx*vx - vy*vy
initial: {x: 0, y: 0, z: 0, vx: 1, vy: 0.5, vz: 1.118033988749895}
independent: [vx, vy]
)";

// `text` with its first line that starts with `start` replaced by `by` (which may hold
// several lines); `by` appended as a line when no line starts so.
inline std::string withLine(const std::string& text, const std::string& start,
                            const std::string& by) {
  size_t at = text.rfind(start, 0) == 0 ? 0 : text.find("\n" + start);
  if (at == std::string::npos) return text + by + "\n";
  if (at > 0) ++at;  // past the newline
  const size_t end = text.find('\n', at);
  return text.substr(0, at) + by + (end == std::string::npos ? "\n" : text.substr(end));
}

}  // namespace nh::test
// SPDX-License-Identifier: GPL-3.0-or-later
