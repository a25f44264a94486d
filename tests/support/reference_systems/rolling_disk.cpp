// A vertical disk (coin) rolling without slipping on a plane: heading phi, rolling angle
// theta. Moments of inertia of a thin uniform disk: ½ m r² about the axle, ¼ m r² about
// the vertical diameter.
#include <cmath>

#include "core/nh/system.h"

namespace nh {
namespace {

struct RollingDisk {
  static constexpr std::array<ParameterSpec, 2> kParameters{{
      {.name = "m",
       .unit = "kg",
       .description = "mass of the disk",
       .defaultValue = 1.0,
       .min = 0,
       .minExclusive = true},
      {.name = "r",
       .unit = "m",
       .description = "radius of the disk",
       .defaultValue = 0.3,
       .min = 0,
       .minExclusive = true},
  }};
  static constexpr int kM = indexOf(kParameters, "m");
  static constexpr int kR = indexOf(kParameters, "r");

  static SystemInfo info() {
    SystemInfo s;
    s.name = "rolling_disk";
    s.title = "Vertical rolling disk";
    s.description =
        "A thin disk (a coin) kept vertical, rolling without slipping on a plane. Its heading "
        "and rolling rates stay constant, so its contact point runs on a circle of radius "
        "r·wtheta/wphi, or on a straight line when wphi = 0.";
    s.source = "Classic example (Bloch, Nonholonomic Mechanics and Control, §1.4)";
    s.equations =
        "L = ½ m (vx² + vy²) + ½ (¼ m r²) wphi² + ½ (½ m r²) wtheta²\n"
        "Φ¹ = vx − r wtheta cos(phi) = 0\n"
        "Φ² = vy − r wtheta sin(phi) = 0";
    s.parameters = parameterInfos(kParameters);
    s.coordinates = {"x", "y", "phi", "theta"};
    s.velocities = {"vx", "vy", "wphi", "wtheta"};
    s.stateOrder = {"x", "y", "phi", "theta", "wphi", "wtheta", "vx", "vy"};
    s.independentVelocities = {"wphi", "wtheta"};
    s.initialization =
        "wphi and wtheta are free; vx and vy (the velocity of the centre, reported as extra "
        "columns) follow from the rolling constraints.";
    s.defaultCoordinates = {0, 0, 0, 0};
    s.defaultVelocities = {0, 0, 0.5, 2.0};
    s.constraintCount = 2;
    s.editing.drag =
        DragHandle{.body = "disk", .x = "x", .y = "y", .arrow = "velocity", .vx = "vx", .vy = "vy"};
    s.editing.followBody = "disk";
    return s;
  }
  template <class S>
  static void anchor(const double*, const S*, S* rho) {
    for (int i = 0; i < 4; ++i) rho[i + 4 * i] = S(1.0);
  }
  template <class S>
  static S lagrangian(const double* p, const S&, const S*, const S* y) {
    const double m = p[kM], r = p[kR];
    return 0.5 * m * (y[0] * y[0] + y[1] * y[1]) + 0.125 * m * r * r * y[2] * y[2] +
           0.25 * m * r * r * y[3] * y[3];
  }
  template <class S>
  static void constraints(const double* p, const S&, const S* q, const S* y, S* phi) {
    using std::cos, std::sin;
    phi[0] = y[0] - p[kR] * y[3] * cos(q[2]);
    phi[1] = y[1] - p[kR] * y[3] * sin(q[2]);
  }
  static void scene(const double* p, double, const double* q, const double* y, const double* lambda,
                    SceneFrame& f) {
    const double r = p[kR];
    const Eigen::Quaterniond att = Eigen::AngleAxisd(q[2], Eigen::Vector3d::UnitZ()) *
                                   Eigen::AngleAxisd(q[3], Eigen::Vector3d::UnitY());
    const Eigen::Vector3d centre(q[0], q[1], r), contact(q[0], q[1], 0);
    f.extent = std::max(2.0, 6 * r);
    f.bodies.push_back({ShapeKind::Disk, "disk", centre, att, Eigen::Vector3d(r, 0.15 * r, r)});
    f.arrows.push_back({ArrowKind::Reaction,
                        "rolling constraint force",
                        contact,
                        Eigen::Vector3d(lambda[0], lambda[1], 0),
                        {}});
    f.arrows.push_back(
        {ArrowKind::Velocity, "velocity", centre, Eigen::Vector3d(y[0], y[1], 0), {}});
    f.arrows.push_back(
        {ArrowKind::AngularVelocity,
         "angular velocity",
         centre,
         Eigen::Vector3d(0, 0, y[2]) +
             y[3] * (Eigen::AngleAxisd(q[2], Eigen::Vector3d::UnitZ()) * Eigen::Vector3d::UnitY()),
         {}});
    f.points.push_back({"contact point", contact, false});
  }
};

}  // namespace

std::shared_ptr<const SystemModel> makeRollingDisk() { return makeSystem<RollingDisk>(); }

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
