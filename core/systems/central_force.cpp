// Seed 003 Ex. 5.1: a particle in a central field in the quasi-velocities w¹ = ṙ,
// w² = r² θ̇ (twice the areal velocity). Anchor columns X₁ = ∂_r, X₂ = r⁻² ∂_θ with
// [X₁, X₂] = −(2/r) X₂, so C²₁₂ = −2/r = −C²₂₁. Force f(r) = −k rⁿ (n = −2: gravity).
#include <cmath>

#include "core/nh/system.h"

namespace nh {
namespace {

struct CentralForce {
  static constexpr std::array<ParameterSpec, 3> kParameters{{
      {.name = "m",
       .unit = "kg",
       .description = "mass of the particle",
       .defaultValue = 1.0,
       .min = 0,
       .minExclusive = true},
      {.name = "k",
       .unit = "N·m^-n",
       .description = "strength of the attraction",
       .defaultValue = 1.0,
       .min = -1e6,
       .max = 1e6},
      {.name = "n",
       .unit = "",
       .description = "exponent of the force law f(r) = −k rⁿ (−2: gravity)",
       .defaultValue = -2.0,
       .min = -5,
       .max = 5},
  }};
  static constexpr int kM = indexOf(kParameters, "m");
  static constexpr int kK = indexOf(kParameters, "k");
  static constexpr int kN = indexOf(kParameters, "n");

  static SystemInfo info() {
    SystemInfo s;
    s.name = "central_force";
    s.title = "Central force in quasi-velocities";
    s.description =
        "A particle attracted to the origin by a central force f(r) = −k rⁿ, written in the "
        "quasi-velocities w1 = ṙ and w2 = r² θ̇. The structure functions of this basis make "
        "w2 (the areal velocity, i.e. the angular momentum per mass) a constant of motion.";
    s.source =
        "Cariñena, Nunes da Costa, Santos, Quasi-coordinates from the point of view of Lie "
        "algebroid structures, Ex. 5.1";
    s.equations =
        "ṙ = w1,  θ̇ = w2 / r²\n"
        "L = ½ m (w1² + w2²/r²) − V(r),  V' = k rⁿ\n"
        "C²₁₂ = −2/r:  m ẇ1 = m w2²/r³ − k rⁿ,  ẇ2 = 0";
    s.parameters = parameterInfos(kParameters);
    s.coordinates = {"r", "theta"};
    s.velocities = {"w1", "w2"};
    s.stateOrder = {"r", "theta", "w1", "w2"};
    s.independentVelocities = {"w1", "w2"};
    s.cyclicCoordinates = {"theta"};
    s.initialization = "There are no velocity constraints: w1 and w2 are free.";
    s.stateLimits = {{.name = "r",
                      .unit = "m",
                      .description = "distance from the centre",
                      .defaultValue = 1.0,
                      .min = 0,
                      .minExclusive = true}};
    s.defaultCoordinates = {1.0, 0.0};
    s.defaultVelocities = {0.0, 0.8};
    s.editing.followBody = "particle";
    return s;
  }
  template <class S>
  static void anchor(const double*, const S* q, S* rho) {
    rho[0 + 2 * 0] = S(1.0);
    rho[1 + 2 * 1] = 1.0 / (q[0] * q[0]);
  }
  template <class S>
  static void structure(const double*, const S* q, S* C) {
    C[1 + 2 * (0 + 2 * 1)] = -2.0 / q[0];  // C²₁₂
    C[1 + 2 * (1 + 2 * 0)] = 2.0 / q[0];   // C²₂₁
  }
  template <class S>
  static S potential(const double* p, const S& r) {
    using std::log, std::pow;
    const double n = p[kN];
    if (n == -1) return p[kK] * log(r);
    return p[kK] * pow(r, n + 1) / (n + 1);
  }
  template <class S>
  static S lagrangian(const double* p, const S&, const S* q, const S* y) {
    return 0.5 * p[kM] * (y[0] * y[0] + y[1] * y[1] / (q[0] * q[0])) - potential(p, q[0]);
  }
  static void scene(const double* p, double, const double* q, const double* y, const double*,
                    SceneFrame& f) {
    const double r = q[0], th = q[1];
    const Eigen::Vector3d x(r * std::cos(th), r * std::sin(th), 0);
    const Eigen::Vector3d radial(std::cos(th), std::sin(th), 0),
        tangential(-std::sin(th), std::cos(th), 0);
    f.extent = 2;
    // The fixed centre of force: a small fixed marker (a guide), not a rigid body's box.
    f.bodies.push_back({ShapeKind::Guide, "centre", Eigen::Vector3d::Zero(),
                        Eigen::Quaterniond::Identity(), Eigen::Vector3d::Constant(0.06)});
    f.bodies.push_back({ShapeKind::Particle, "particle", x, Eigen::Quaterniond::Identity(),
                        Eigen::Vector3d::Constant(0.06)});
    f.arrows.push_back(
        {ArrowKind::Velocity, "velocity", x, y[0] * radial + (y[1] / r) * tangential, {}});
    f.arrows.push_back(
        {ArrowKind::Force, "central force", x, -p[kK] * std::pow(r, p[kN]) * radial, {}});
    f.points.push_back({"particle", x, false});
  }
};

}  // namespace

std::shared_ptr<const SystemModel> makeCentralForce() { return makeSystem<CentralForce>(); }

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
