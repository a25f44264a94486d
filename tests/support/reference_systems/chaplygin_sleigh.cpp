// The Chaplygin sleigh: a planar body with a knife edge at the contact point P, its centre
// of mass at distance a ahead of P along the body axis. Quasi-velocities (v, u, omega): the
// velocity of P along and across the body axis and the turning rate. Anchor columns
// X_v = (cos θ, sin θ, 0), X_u = (−sin θ, cos θ, 0), X_ω = ∂_θ with [X_ω, X_v] = X_u,
// [X_ω, X_u] = −X_v. The knife edge is Φ = u = 0. Then v̇ = a ω², ω̇ = −m a v ω /(I + m a²).
#include <cmath>

#include "core/nh/system.h"

namespace nh {
namespace {

struct ChaplyginSleigh {
  static constexpr std::array<ParameterSpec, 3> kParameters{{
      {.name = "m",
       .unit = "kg",
       .description = "mass of the sleigh",
       .defaultValue = 1.0,
       .min = 0,
       .minExclusive = true},
      {.name = "I",
       .unit = "kg·m²",
       .description = "moment of inertia about the centre of mass",
       .defaultValue = 0.05,
       .min = 0,
       .minExclusive = true},
      {.name = "a",
       .unit = "m",
       .description = "distance from the knife edge to the centre of mass",
       .defaultValue = 0.2,
       .min = -10,
       .max = 10},
  }};
  static constexpr int kM = indexOf(kParameters, "m");
  static constexpr int kI = indexOf(kParameters, "I");
  static constexpr int kA = indexOf(kParameters, "a");
  static constexpr std::array<std::string_view, 3> kVelocities{"v", "u", "omega"};
  static constexpr int kV = indexOf(kVelocities, "v");
  static constexpr int kU = indexOf(kVelocities, "u");
  static constexpr int kOmega = indexOf(kVelocities, "omega");

  static SystemInfo info() {
    SystemInfo s;
    s.name = "chaplygin_sleigh";
    s.title = "Chaplygin sleigh";
    s.description =
        "A planar body that slides on a knife edge: its contact point cannot move sideways. "
        "Whatever it starts with, its rotation dies out and it ends up gliding straight along "
        "its axis, with the centre of mass leading.";
    s.source = "Chaplygin (1911); Bloch, Nonholonomic Mechanics and Control, §1.7";
    s.equations =
        "ẋ = v cos θ − u sin θ,  ẏ = v sin θ + u cos θ,  θ̇ = ω\n"
        "L = ½ m (v² + (u + a ω)²) + ½ I ω²,   Φ = u = 0\n"
        "v̇ = a ω²,  ω̇ = −m a v ω / (I + m a²)";
    s.parameters = parameterInfos(kParameters);
    s.coordinates = {"x", "y", "theta"};
    s.velocities = names(kVelocities);
    s.stateOrder = {"x", "y", "theta", "v", "omega", "u"};
    s.independentVelocities = {"v", "omega"};
    s.initialization =
        "v and omega are free; the sideways velocity u of the knife edge (an extra column) is "
        "held at 0 by the constraint.";
    s.defaultCoordinates = {0, 0, 0};
    s.defaultVelocities = {0.3, 0, 3.0};
    s.constantStructure = true;
    s.constraintCount = 1;
    s.editing.drag = DragHandle{.body = "sleigh",
                                .x = "x",
                                .y = "y",
                                .arrow = "velocity",
                                .vx = "v",
                                .vy = "",
                                .velocityInBodyAxes = true};
    s.editing.followBody = "sleigh";
    return s;
  }
  template <class S>
  static void anchor(const double*, const S* q, S* rho) {
    using std::cos, std::sin;
    const S c = cos(q[2]), s = sin(q[2]);
    rho[0 + 3 * kV] = c;
    rho[1 + 3 * kV] = s;
    rho[0 + 3 * kU] = -s;
    rho[1 + 3 * kU] = c;
    rho[2 + 3 * kOmega] = S(1.0);
  }
  static void structure(const double*, const double*, double* C) {
    auto at = [C](int g, int a, int b) -> double& { return C[g + 3 * (a + 3 * b)]; };
    at(kU, kOmega, kV) = 1;  // [X_ω, X_v] = X_u
    at(kU, kV, kOmega) = -1;
    at(kV, kOmega, kU) = -1;  // [X_ω, X_u] = −X_v
    at(kV, kU, kOmega) = 1;
  }
  template <class S>
  static S lagrangian(const double* p, const S&, const S*, const S* y) {
    const S lateral = y[kU] + p[kA] * y[kOmega];
    return 0.5 * p[kM] * (y[kV] * y[kV] + lateral * lateral) + 0.5 * p[kI] * y[kOmega] * y[kOmega];
  }
  template <class S>
  static void constraints(const double*, const S&, const S*, const S* y, S* phi) {
    phi[0] = y[kU];
  }
  static void scene(const double* p, double, const double* q, const double* y, const double* lambda,
                    SceneFrame& f) {
    const double th = q[2];
    const Eigen::Vector3d axis(std::cos(th), std::sin(th), 0), side(-std::sin(th), std::cos(th), 0);
    const Eigen::Vector3d contact(q[0], q[1], 0);
    const Eigen::Vector3d com = contact + p[kA] * axis;
    const double length = std::max(0.4, 2.5 * std::abs(p[kA]));
    f.extent = 2;
    f.bodies.push_back({ShapeKind::Sleigh, "sleigh", com + Eigen::Vector3d(0, 0, 0.03),
                        Eigen::Quaterniond(Eigen::AngleAxisd(th, Eigen::Vector3d::UnitZ())),
                        Eigen::Vector3d(0.5 * length, 0.25 * length, 0.03)});
    f.bodies.push_back({ShapeKind::Guide, "knife edge", contact,
                        Eigen::Quaterniond(Eigen::AngleAxisd(th, Eigen::Vector3d::UnitZ())),
                        Eigen::Vector3d(0.15, 0.005, 0.05)});
    f.arrows.push_back({ArrowKind::Reaction, "knife-edge force", contact, lambda[0] * side, {}});
    f.arrows.push_back({ArrowKind::Velocity, "velocity", contact, y[kV] * axis + y[kU] * side, {}});
    f.arrows.push_back({ArrowKind::AngularVelocity,
                        "angular velocity",
                        com,
                        Eigen::Vector3d(0, 0, y[kOmega]),
                        {}});
    f.points.push_back({"contact point", contact, false});
    f.points.push_back({"centre of mass", com, false});
  }
};

}  // namespace

std::shared_ptr<const SystemModel> makeChaplyginSleigh() { return makeSystem<ChaplyginSleigh>(); }

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
