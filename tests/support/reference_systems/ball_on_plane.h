// A homogeneous (or any isotropic) ball rolling without slipping on a plane, optionally
// rotating about its normal with Ω(t) and tilted by `tilt` (downhill is −x of the plane's
// non-rotating axes). Theory §5; seed 002 §VI.3, seed 000 Ex. 4, seed 003 Ex. 7.2.
//
// q = (x, y, qw, qx, qy, qz), y = (vx, vy, wx, wy, wz) with ω in the (non-rotating) plane
// frame; algebroid TR² × so(3) with the attitude carried along for rendering.
#pragma once

#include <cmath>

#include "core/nh/rotation.h"
#include "core/nh/system.h"

namespace nh::systems {

namespace ball_parameters {
inline constexpr ParameterSpec kMass{.name = "m",
                                     .unit = "kg",
                                     .description = "mass of the ball",
                                     .defaultValue = 1.0,
                                     .min = 0,
                                     .minExclusive = true};
inline constexpr ParameterSpec kRadius{.name = "r",
                                       .unit = "m",
                                       .description = "radius of the ball",
                                       .defaultValue = 0.1,
                                       .min = 0,
                                       .minExclusive = true};
inline constexpr ParameterSpec kInertiaRatio{
    .name = "inertia_ratio",
    .unit = "",
    .description =
        "I/(m r²): 0.4 for a solid ball, 2/3 for a thin shell (0: no rotational "
        "inertia, which makes the system non-regular)",
    .defaultValue = 0.4,
    .min = 0,
    .max = 1};
inline constexpr ParameterSpec kOmega0{
    .name = "Omega0",
    .unit = "rad/s",
    .description = "constant part of the table's angular velocity",
    .defaultValue = 1.0,
    .min = -100,
    .max = 100};
inline constexpr ParameterSpec kOmegaRate{.name = "Omega_rate",
                                          .unit = "rad/s²",
                                          .description = "angular acceleration of the table",
                                          .defaultValue = 0.0,
                                          .min = -100,
                                          .max = 100};
inline constexpr ParameterSpec kOmegaAmp{.name = "Omega_amp",
                                         .unit = "rad/s",
                                         .description = "amplitude of the oscillating part of Ω",
                                         .defaultValue = 0.0,
                                         .min = -100,
                                         .max = 100};
inline constexpr ParameterSpec kOmegaFreq{.name = "Omega_freq",
                                          .unit = "rad/s",
                                          .description = "frequency of the oscillating part of Ω",
                                          .defaultValue = 1.0,
                                          .min = 0,
                                          .max = 1000};
inline constexpr ParameterSpec kTilt{
    .name = "tilt",
    .unit = "rad",
    .description = "angle of the table plane to the horizontal (downhill is −x)",
    .defaultValue = 0.0,
    .min = -1.4,
    .max = 1.4};
inline constexpr ParameterSpec kGravity{.name = "g",
                                        .unit = "m/s²",
                                        .description = "gravitational acceleration",
                                        .defaultValue = 9.81,
                                        .min = 0,
                                        .max = 1000};
inline constexpr ParameterSpec kTableAngle0{
    .name = "table_angle0",
    .unit = "rad",
    .description =
        "angle of the table at t = 0 (shifted by the app when Ω is edited during a "
        "run, so the table turns on from where it is)",
    .defaultValue = 0};

// The turntable's parameters: the fixed table's plus Ω(t) before the tilt, and the table's
// phase last.
template <bool Rotating>
constexpr auto table() {
  if constexpr (Rotating)
    return std::array<ParameterSpec, 10>{kMass,      kRadius,     kInertiaRatio, kOmega0,
                                         kOmegaRate, kOmegaAmp,   kOmegaFreq,    kTilt,
                                         kGravity,   kTableAngle0};
  else
    return std::array<ParameterSpec, 5>{kMass, kRadius, kInertiaRatio, kTilt, kGravity};
}
}  // namespace ball_parameters

template <bool Rotating>
struct BallOnPlane {
  static constexpr auto kParameters = ball_parameters::table<Rotating>();
  static constexpr int kM = indexOf(kParameters, "m");
  static constexpr int kR = indexOf(kParameters, "r");
  static constexpr int kInertiaRatio = indexOf(kParameters, "inertia_ratio");
  static constexpr int kTilt = indexOf(kParameters, "tilt");
  static constexpr int kG = indexOf(kParameters, "g");
  static constexpr double kTableRadius = 2.0;  // drawn size only

  // Ω(t) = Omega0 + Omega_rate·t + Omega_amp·sin(Omega_freq·t)
  template <class S>
  static S omega(const double* p, const S& t) {
    if constexpr (!Rotating) {
      return S(0.0);
    } else {
      using std::sin;
      constexpr int k0 = indexOf(kParameters, "Omega0"), kRate = indexOf(kParameters, "Omega_rate");
      constexpr int kAmp = indexOf(kParameters, "Omega_amp"),
                    kFreq = indexOf(kParameters, "Omega_freq");
      return p[k0] + p[kRate] * t + p[kAmp] * sin(p[kFreq] * t);
    }
  }
  // table_angle0 + ∫₀ᵗ Ω: the table's rotation angle.
  static double tableAngle(const double* p, double t) {
    if constexpr (!Rotating) {
      return 0;
    } else {
      constexpr int k0 = indexOf(kParameters, "Omega0"), kRate = indexOf(kParameters, "Omega_rate");
      constexpr int kAmp = indexOf(kParameters, "Omega_amp"),
                    kFreq = indexOf(kParameters, "Omega_freq");
      const double f = p[kFreq];
      const double osc = f != 0 ? p[kAmp] * (1 - std::cos(f * t)) / f : 0.0;
      return p[indexOf(kParameters, "table_angle0")] + p[k0] * t + 0.5 * p[kRate] * t * t + osc;
    }
  }
  // table_angle0 keeps the table's angle continuous (ParameterInfo::keepsContinuous).
  static double continuousValue(int parameter, const double* p, double t, const double*,
                                const double*) {
    if constexpr (Rotating) {
      if (parameter == indexOf(kParameters, "table_angle0")) return tableAngle(p, t);
    }
    return std::numeric_limits<double>::quiet_NaN();
  }
  static double inertia(const double* p) { return p[kInertiaRatio] * p[kM] * p[kR] * p[kR]; }

  static SystemInfo info();

  template <class S>
  static void anchor(const double*, const S* q, S* rho) {
    constexpr int n = 6;
    rho[0 + n * 0] = S(1.0);
    rho[1 + n * 1] = S(1.0);
    quaternionAnchor(q, rho, n, 2, 2, /*spaceFrame=*/true);
  }

  static void structure(const double*, const double*, double* C) { so3Structure(C, 5, 2, -1.0); }

  template <class S>
  static S lagrangian(const double* p, const S&, const S* q, const S* y) {
    using std::sin;
    const double m = p[kM], I = inertia(p);
    const S kinetic =
        0.5 * m * (y[0] * y[0] + y[1] * y[1]) + 0.5 * I * (y[2] * y[2] + y[3] * y[3] + y[4] * y[4]);
    return kinetic - m * p[kG] * std::sin(p[kTilt]) * q[0];  // height of the centre: x sin(tilt)
  }

  // Contact point at rest relative to the table: v + ω × (−r n) = Ω n × (x, y).
  template <class S>
  static void constraints(const double* p, const S& t, const S* q, const S* y, S* phi) {
    const double r = p[kR];
    const S W = omega(p, t);
    phi[0] = y[0] - r * y[3] + W * q[1];
    phi[1] = y[1] + r * y[2] - W * q[0];
  }

  // The constraints' reference frame: the velocity of a ball turning with the table
  // (centre Ω n × (x, y), angular velocity Ω n), as the model file's reference_frame.
  static void referenceFrame(const double* p, double t, const double* q, double* gamma) {
    const double W = omega(p, t);
    gamma[0] = -W * q[1];
    gamma[1] = W * q[0];
    gamma[4] = W;
  }

  static void scene(const double* p, double t, const double* q, const double* y,
                    const double* lambda, SceneFrame& frame) {
    const double r = p[kR];
    const Eigen::Quaterniond tilt(Eigen::AngleAxisd(-p[kTilt], Eigen::Vector3d::UnitY()));
    const Eigen::Quaterniond table =
        tilt * Eigen::Quaterniond(Eigen::AngleAxisd(tableAngle(p, t), Eigen::Vector3d::UnitZ()));
    const Eigen::Vector3d centre = tilt * Eigen::Vector3d(q[0], q[1], r);
    const Eigen::Vector3d contact = tilt * Eigen::Vector3d(q[0], q[1], 0);
    frame.movingFrame = table;
    frame.extent = kTableRadius;
    frame.bodies.push_back({ShapeKind::Table, "table", Eigen::Vector3d::Zero(), table,
                            Eigen::Vector3d(kTableRadius, kTableRadius, 0.04)});
    frame.bodies.push_back(
        {ShapeKind::Sphere, "ball", centre, tilt * quaternionAt(q, 2), Eigen::Vector3d(r, r, r)});
    // λ = friction force on the ball at the contact point (Aᵀλ's translational part).
    frame.arrows.push_back({ArrowKind::Reaction,
                            "friction",
                            contact,
                            tilt * Eigen::Vector3d(lambda[0], lambda[1], 0),
                            {}});
    frame.arrows.push_back({ArrowKind::Force,
                            "normal force",
                            contact,
                            tilt * Eigen::Vector3d(0, 0, p[kM] * p[kG] * std::cos(p[kTilt])),
                            {}});
    frame.arrows.push_back(
        {ArrowKind::Velocity, "velocity", centre, tilt * Eigen::Vector3d(y[0], y[1], 0), {}});
    frame.arrows.push_back({ArrowKind::AngularVelocity,
                            "angular velocity",
                            centre,
                            tilt * Eigen::Vector3d(y[2], y[3], y[4]),
                            {}});
    frame.points.push_back({"centre", centre, false});
    frame.points.push_back({"contact (table frame)", table.conjugate() * contact, true});
  }
};

template <bool Rotating>
SystemInfo BallOnPlane<Rotating>::info() {
  SystemInfo s;
  s.parameters = parameterInfos(kParameters);
  if constexpr (Rotating) s.continuousPhases.push_back({"table_angle0", "table_angle"});
  if constexpr (Rotating) {
    s.name = "ball_on_turntable";
    s.title = "Ball on a rotating table";
    s.description =
        "A ball rolls without slipping on a horizontal (or tilted) table that turns about its "
        "vertical axis with angular velocity Ω(t) = Omega0 + Omega_rate·t + "
        "Omega_amp·sin(Omega_freq·t). For constant Ω the centre of the ball moves on a circle "
        "with angular frequency Ω·I/(I + m r²) (2Ω/7 for a solid ball), whatever its initial "
        "velocity: a rolling ball does not fly off a turntable.";
    s.source =
        "Iglesias, Marrero, Martín de Diego, Sosa, Nonholonomic systems on Lie affgebroids, "
        "§VI.3; Grabowska & Grabowski, Variational calculus with constraints on general "
        "algebroids, Ex. 4";
    s.equations =
        "L = ½ m (vx² + vy²) + ½ I |ω|² − m g sin(tilt) x,   I = inertia_ratio·m r²\n"
        "Φ¹ = vx − r ωy + Ω(t) y = 0\n"
        "Φ² = vy + r ωx − Ω(t) x = 0\n"
        "reduced (tilt = 0): ẍ = −κ (Ω' y + Ω ẏ),  ÿ = κ (Ω' x + Ω ẋ),  ω̇z = 0,  κ = I/(I + m r²)";
  } else {
    s.name = "ball_on_table";
    s.title = "Ball on a fixed table";
    s.description =
        "A ball rolls without slipping on a fixed table (tilted by `tilt`). On a level table it "
        "rolls in a straight line at constant speed; on an incline it accelerates downhill at "
        "(1 − κ) g sin(tilt), κ = I/(I + m r²) (5/7 g sin(tilt) for a solid ball).";
    s.source =
        "Cariñena, Nunes da Costa, Santos, Quasi-coordinates from the point of view of Lie "
        "algebroid structures, Ex. 7.2";
    s.equations =
        "L = ½ m (vx² + vy²) + ½ I |ω|² − m g sin(tilt) x,   I = inertia_ratio·m r²\n"
        "Φ¹ = vx − r ωy = 0\n"
        "Φ² = vy + r ωx = 0";
  }
  s.coordinates = {"x", "y", "qw", "qx", "qy", "qz"};
  s.velocities = {"vx", "vy", "wx", "wy", "wz"};
  s.stateOrder = {"x", "y", "vx", "vy", "wx", "wy", "wz", "qw", "qx", "qy", "qz"};
  s.independentVelocities = {"vx", "vy", "wz"};
  s.initialization =
      "vx, vy and wz are free; wx and wy follow from the rolling constraints. If you set wx or "
      "wy, the velocities you did not set are completed instead (least change in kinetic "
      "energy).";
  s.defaultCoordinates = {0.6, 0.0, 1, 0, 0, 0};
  s.defaultVelocities = {0.0, 0.2, 0, 0, 2.0};
  s.quaternions = {{2}};
  s.constantStructure = true;
  s.constraintCount = 2;
  s.editing.drag =
      DragHandle{.body = "ball", .x = "x", .y = "y", .arrow = "velocity", .vx = "vx", .vy = "vy"};
  s.editing.followBody = "ball";
  s.editing.movingFrame = Rotating;
  return s;
}

}  // namespace nh::systems
// SPDX-License-Identifier: GPL-3.0-or-later
