// Free rigid body: Euler–Poincaré on so(3) (seed 003 Ex. 5.2, seed 000 Ex. 1b), with the
// attitude q̇ = ½ q ⊗ (0, ω) carried along. [e_i, e_j] = ε_ijk e_k gives I ω̇ = (Iω) × ω.
#include <cmath>

#include "core/nh/rotation.h"
#include "core/nh/system.h"

namespace nh {
namespace {

struct RigidBody {
  static constexpr std::array<ParameterSpec, 3> kParameters{{
      {.name = "I1",
       .unit = "kg·m²",
       .description = "principal moment of inertia 1",
       .defaultValue = 1.0,
       .min = 0,
       .minExclusive = true},
      {.name = "I2",
       .unit = "kg·m²",
       .description = "principal moment of inertia 2",
       .defaultValue = 2.0,
       .min = 0,
       .minExclusive = true},
      {.name = "I3",
       .unit = "kg·m²",
       .description = "principal moment of inertia 3",
       .defaultValue = 3.0,
       .min = 0,
       .minExclusive = true},
  }};
  static constexpr int kI1 = indexOf(kParameters, "I1");
  static constexpr int kI2 = indexOf(kParameters, "I2");
  static constexpr int kI3 = indexOf(kParameters, "I3");

  static SystemInfo info() {
    SystemInfo s;
    s.name = "rigid_body";
    s.title = "Free rigid body";
    s.description =
        "A torque-free rigid body with principal moments of inertia I1, I2, I3, in body-frame "
        "angular velocity. Rotation about the intermediate axis is unstable: the default state "
        "shows the 'tennis racket' flip.";
    s.source =
        "Cariñena, Nunes da Costa, Santos, Ex. 5.2; Grabowska & Grabowski, Ex. 1b "
        "(Euler–Poincaré equations)";
    s.equations =
        "L = ½ (I1 w1² + I2 w2² + I3 w3²),  C^k_ij = ε_ijk\n"
        "I ω̇ = (I ω) × ω,   q̇ = ½ q ⊗ (0, ω)";
    s.parameters = parameterInfos(kParameters);
    s.coordinates = {"qw", "qx", "qy", "qz"};
    s.velocities = {"w1", "w2", "w3"};
    s.stateOrder = {"w1", "w2", "w3", "qw", "qx", "qy", "qz"};
    s.independentVelocities = {"w1", "w2", "w3"};
    s.initialization = "There are no velocity constraints: w1, w2, w3 are free.";
    s.defaultCoordinates = {1, 0, 0, 0};
    s.defaultVelocities = {0.02, 2.0, 0.02};
    s.constantStructure = true;
    s.quaternions = {{0}};
    s.editing.followBody = "body";
    return s;
  }
  template <class S>
  static void anchor(const double*, const S* q, S* rho) {
    quaternionAnchor(q, rho, 4, 0, 0, /*spaceFrame=*/false);
  }
  static void structure(const double*, const double*, double* C) { so3Structure(C, 3, 0, 1.0); }
  template <class S>
  static S lagrangian(const double* p, const S&, const S*, const S* y) {
    return 0.5 * (p[kI1] * y[0] * y[0] + p[kI2] * y[1] * y[1] + p[kI3] * y[2] * y[2]);
  }
  static void scene(const double* p, double, const double* q, const double* y, const double*,
                    SceneFrame& f) {
    // A uniform box with these principal moments: a² = 6(I2 + I3 − I1)/m, … (m = 1).
    const double I1 = p[kI1], I2 = p[kI2], I3 = p[kI3];
    Eigen::Vector3d half(std::sqrt(std::max(1e-6, 6 * (I2 + I3 - I1))),
                         std::sqrt(std::max(1e-6, 6 * (I1 + I3 - I2))),
                         std::sqrt(std::max(1e-6, 6 * (I1 + I2 - I3))));
    half *= 0.5 / half.maxCoeff();  // drawn with its longest side 1
    const Eigen::Quaterniond att = quaternionAt(q, 0);
    f.extent = 1.2;
    f.bodies.push_back({ShapeKind::Body, "body", Eigen::Vector3d(0, 0, 0), att, half});
    f.arrows.push_back({ArrowKind::AngularVelocity,
                        "angular velocity",
                        Eigen::Vector3d::Zero(),
                        att * Eigen::Vector3d(y[0], y[1], y[2]),
                        {}});
    f.arrows.push_back({ArrowKind::Force,
                        "angular momentum",
                        Eigen::Vector3d::Zero(),
                        att * Eigen::Vector3d(I1 * y[0], I2 * y[1], I3 * y[2]),
                        {}});
    f.points.push_back({"tip of axis 1", att * Eigen::Vector3d(half.x(), 0, 0), false});
  }
};

}  // namespace

std::shared_ptr<const SystemModel> makeRigidBody() { return makeSystem<RigidBody>(); }

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
