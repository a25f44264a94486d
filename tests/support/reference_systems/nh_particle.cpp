// Seed 003 Ex. 7.1: a particle of mass m in R³ with the linear nonholonomic constraint
// ż = y ẋ. Multipliers give λ = m ẋ ẏ /(1 + y²) (m = 1 in the paper).
#include <cmath>

#include "core/nh/system.h"

namespace nh {
namespace {

struct NonholonomicParticle {
  static constexpr std::array<ParameterSpec, 1> kParameters{{
      {.name = "m",
       .unit = "kg",
       .description = "mass of the particle",
       .defaultValue = 1.0,
       .min = 0,
       .minExclusive = true},
  }};
  static constexpr int kM = indexOf(kParameters, "m");

  static SystemInfo info() {
    SystemInfo s;
    s.name = "nh_particle";
    s.title = "Particle with ż = y ẋ";
    s.description =
        "A free particle in space subject to the nonholonomic constraint ż = y ẋ, the classic "
        "example where nonholonomic (d'Alembert) and vakonomic (variational) motions differ.";
    s.source =
        "Cariñena, Nunes da Costa, Santos, Quasi-coordinates from the point of view of Lie "
        "algebroid structures, Ex. 7.1";
    s.equations =
        "L = ½ m (vx² + vy² + vz²)\n"
        "Φ = vz − y vx = 0\n"
        "nonholonomic: m ẍ = −y λ, m ÿ = 0, m z̈ = λ,  λ = m ẋ ẏ / (1 + y²)";
    s.parameters = parameterInfos(kParameters);
    s.coordinates = {"x", "y", "z"};
    s.velocities = {"vx", "vy", "vz"};
    s.stateOrder = {"x", "y", "z", "vx", "vy", "vz"};
    s.independentVelocities = {"vx", "vy"};
    s.initialization =
        "vx and vy are free; vz = y·vx follows from the constraint. If you set vz, the "
        "velocities you did not set are completed instead (least change in kinetic energy).";
    s.defaultCoordinates = {0, 0.5, 0};
    s.defaultVelocities = {1.0, 0.5, 0.5};
    s.constraintCount = 1;
    s.editing.drag = DragHandle{
        .body = "particle", .x = "x", .y = "y", .arrow = "velocity", .vx = "vx", .vy = "vy"};
    s.editing.followBody = "particle";
    return s;
  }
  template <class S>
  static void anchor(const double*, const S*, S* rho) {
    for (int i = 0; i < 3; ++i) rho[i + 3 * i] = S(1.0);
  }
  template <class S>
  static S lagrangian(const double* p, const S&, const S*, const S* y) {
    return 0.5 * p[kM] * (y[0] * y[0] + y[1] * y[1] + y[2] * y[2]);
  }
  template <class S>
  static void constraints(const double*, const S&, const S* q, const S* y, S* phi) {
    phi[0] = y[2] - q[1] * y[0];
  }
  static void scene(const double*, double, const double* q, const double* y, const double* lambda,
                    SceneFrame& f) {
    const Eigen::Vector3d x(q[0], q[1], q[2]);
    f.extent = 2;
    f.bodies.push_back({ShapeKind::Particle, "particle", x, Eigen::Quaterniond::Identity(),
                        Eigen::Vector3d::Constant(0.08)});
    // The plane of allowed velocities at the particle: normal (−y, 0, 1).
    const Eigen::Vector3d normal = Eigen::Vector3d(-q[1], 0, 1).normalized();
    f.bodies.push_back({ShapeKind::Guide, "allowed velocities", x,
                        Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitZ(), normal),
                        Eigen::Vector3d(0.4, 0.4, 0.0)});
    f.arrows.push_back({ArrowKind::Reaction,
                        "constraint force",
                        x,
                        Eigen::Vector3d(-q[1] * lambda[0], 0, lambda[0]),
                        {}});
    f.arrows.push_back({ArrowKind::Velocity, "velocity", x, Eigen::Vector3d(y[0], y[1], y[2]), {}});
    f.points.push_back({"particle", x, false});
  }
};

}  // namespace

std::shared_ptr<const SystemModel> makeNonholonomicParticle() {
  return makeSystem<NonholonomicParticle>();
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
