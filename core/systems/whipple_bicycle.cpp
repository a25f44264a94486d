// The Whipple–Carvallo benchmark bicycle, full nonlinear: Meijaard, Papadopoulos, Ruina &
// Schwab 2007, Proc. R. Soc. A 463:1955 (geometry, parameters of Table 1); nonlinear reference
// values in Basu-Mandal, Chatterjee & Papadopoulos 2007, Proc. R. Soc. A 463:1983, Table 1.
//
// Space frame of the paper: x forward, y right, z DOWN. The rear frame B has attitude
// R_B = Rz(yaw) Rx(lean) Ry(pitch), pitch about the rear axle; the front frame H turns by
// `steer` about the steering axis, fixed in B and tilted back by lambda: R_H = R_B Rs(steer).
// Body-fixed points are given in the reference configuration (upright, straight, pitch 0),
// from the rear contact point. The velocities are the coordinates' rates in a constant basis
// (v = −rR(θ̇R + θ̇B) replaces θ̇R), so the anchor is constant and the structure functions vanish.
// Velocities of points and angular velocities come from one directional derivative of the
// positions and attitudes along q̇ = ρ y (Tangent<S>): no hand-derived Jacobians.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <type_traits>

#include "core/nh/scenario.h"  // formatValue
#include "core/nh/system.h"

namespace nh {
namespace {

// Minimal 3-vectors and 3×3 matrices over any scalar (double, jets, Sym, Tangent<·>).
template <class T>
struct Vec3 {
  T c[3];
};
template <class T>
struct Mat3 {
  T a[9];  // row-major
  const T& operator()(int i, int j) const { return a[3 * i + j]; }
  T& operator()(int i, int j) { return a[3 * i + j]; }
};

template <class T>
Mat3<T> multiply(const Mat3<T>& A, const Mat3<T>& B) {
  Mat3<T> C;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) C(i, j) = A(i, 0) * B(0, j) + A(i, 1) * B(1, j) + A(i, 2) * B(2, j);
  return C;
}
template <class T, class X>
Vec3<T> apply(const Mat3<T>& A, const X& x, const X& y, const X& z) {
  Vec3<T> r;
  for (int i = 0; i < 3; ++i) r.c[i] = A(i, 0) * x + A(i, 1) * y + A(i, 2) * z;
  return r;
}
template <class T>
Vec3<T> operator+(const Vec3<T>& a, const Vec3<T>& b) {
  return {{a.c[0] + b.c[0], a.c[1] + b.c[1], a.c[2] + b.c[2]}};
}
template <class T>
Vec3<T> operator*(const T& s, const Vec3<T>& a) {
  return {{s * a.c[0], s * a.c[1], s * a.c[2]}};
}
template <class T>
Vec3<T> cross(const Vec3<T>& a, const Vec3<T>& b) {
  return {{a.c[1] * b.c[2] - a.c[2] * b.c[1], a.c[2] * b.c[0] - a.c[0] * b.c[2],
           a.c[0] * b.c[1] - a.c[1] * b.c[0]}};
}

// Elementary rotations (right-handed, active).
template <class T>
Mat3<T> rotationX(const T& angle) {
  using std::cos, std::sin;
  const T c = cos(angle), s = sin(angle);
  return {{T(1.0), T(0.0), T(0.0), T(0.0), c, -s, T(0.0), s, c}};
}
template <class T>
Mat3<T> rotationY(const T& angle) {
  using std::cos, std::sin;
  const T c = cos(angle), s = sin(angle);
  return {{c, T(0.0), s, T(0.0), T(1.0), T(0.0), -s, T(0.0), c}};
}
template <class T>
Mat3<T> rotationZ(const T& angle) {
  using std::cos, std::sin;
  const T c = cos(angle), s = sin(angle);
  return {{c, -s, T(0.0), s, c, T(0.0), T(0.0), T(0.0), T(1.0)}};
}
// Rotation by `angle` about the constant unit axis u (Rodrigues).
template <class T, class U>
Mat3<T> rotationAbout(const U (&u)[3], const T& angle) {
  using std::cos, std::sin;
  const T c = cos(angle), s = sin(angle), k = 1.0 - c;
  Mat3<T> R;
  const U zero(0.0);
  const U cross[9] = {zero, -u[2], u[1], u[2], zero, -u[0], -u[1], u[0], zero};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      R(i, j) = (i == j ? c : T(0.0)) + s * cross[3 * i + j] + k * (u[i] * u[j]);
  return R;
}

// Angular velocity of an attitude R carried by Tangent<S> (R.v and R.d = Ṙ): in body axes,
// ω̂ = Rᵀ Ṙ; in space axes, ω̂ = Ṙ Rᵀ.
template <class S>
Vec3<S> angularVelocity(const Mat3<Tangent<S>>& R, bool body) {
  auto Omega = [&](int i, int j) {
    S sum(0.0);
    for (int k = 0; k < 3; ++k) sum = sum + (body ? R(k, i).v * R(k, j).d : R(i, k).d * R(j, k).v);
    return sum;
  };
  return {{Omega(2, 1), Omega(0, 2), Omega(1, 0)}};
}
template <class S>
Vec3<S> values(const Vec3<Tangent<S>>& a) {
  return {{a.c[0].v, a.c[1].v, a.c[2].v}};
}
template <class S>
Vec3<S> rates(const Vec3<Tangent<S>>& a) {
  return {{a.c[0].d, a.c[1].d, a.c[2].d}};
}

// A parameter as the formulas over T combine it: a double stays a double (the arithmetic of
// the folded parameters), a parameter recorded on the tape (Sym) becomes a T (Sym, or a
// Tangent<Sym> with derivative 0).
template <class T, class P>
using ParameterOf = std::conditional_t<std::is_same_v<P, double>, double, T>;
template <class T, class P>
ParameterOf<T, P> lift(const P& value) {
  if constexpr (std::is_same_v<P, double> || std::is_same_v<P, T>)
    return value;
  else
    return T(value, P(0.0));
}

struct WhippleBicycle {
  static constexpr double kPi = std::numbers::pi;
  static constexpr std::array<ParameterSpec, 26> kParameters{{
      {.name = "w",
       .unit = "m",
       .description = "wheelbase",
       .defaultValue = 1.02,
       .min = 0,
       .max = 10,
       .minExclusive = true},
      {.name = "c",
       .unit = "m",
       .description = "trail (steering axis meets the ground ahead of the front contact)",
       .defaultValue = 0.08,
       .min = -2,
       .max = 2},
      {.name = "lambda",
       .unit = "rad",
       .description = "steer axis tilt (from the vertical, top tilted back)",
       .defaultValue = kPi / 10,
       .min = -kPi / 2,
       .max = kPi / 2,
       .minExclusive = true,
       .maxExclusive = true},
      {.name = "g", .unit = "m/s²", .description = "gravity", .defaultValue = 9.81, .min = 0},
      {.name = "rR",
       .unit = "m",
       .description = "rear wheel radius",
       .defaultValue = 0.3,
       .min = 0,
       .max = 10,
       .minExclusive = true},
      {.name = "mR",
       .unit = "kg",
       .description = "rear wheel mass",
       .defaultValue = 2.0,
       .min = 0,
       .minExclusive = true},
      {.name = "IRxx",
       .unit = "kg·m²",
       .description = "rear wheel moment of inertia about a diameter",
       .defaultValue = 0.0603,
       .min = 0,
       .minExclusive = true},
      {.name = "IRyy",
       .unit = "kg·m²",
       .description = "rear wheel moment of inertia about its axle",
       .defaultValue = 0.12,
       .min = 0,
       .minExclusive = true},
      {.name = "xB",
       .unit = "m",
       .description = "rear frame (with rider) mass centre, x",
       .defaultValue = 0.3,
       .min = -10,
       .max = 10},
      {.name = "zB",
       .unit = "m",
       .description = "rear frame (with rider) mass centre, z (down)",
       .defaultValue = -0.9,
       .min = -10,
       .max = 10},
      {.name = "mB",
       .unit = "kg",
       .description = "rear frame (with rider) mass",
       .defaultValue = 85.0,
       .min = 0,
       .minExclusive = true},
      {.name = "IBxx",
       .unit = "kg·m²",
       .description = "rear frame inertia about its mass centre, xx",
       .defaultValue = 9.2,
       .min = 0,
       .minExclusive = true},
      {.name = "IByy",
       .unit = "kg·m²",
       .description = "rear frame inertia about its mass centre, yy",
       .defaultValue = 11.0,
       .min = 0,
       .minExclusive = true},
      {.name = "IBzz",
       .unit = "kg·m²",
       .description = "rear frame inertia about its mass centre, zz",
       .defaultValue = 2.8,
       .min = 0,
       .minExclusive = true},
      {.name = "IBxz",
       .unit = "kg·m²",
       .description = "rear frame inertia about its mass centre, xz",
       .defaultValue = 2.4,
       .min = -1e6,
       .max = 1e6},
      {.name = "xH",
       .unit = "m",
       .description = "front frame (fork, handlebar) mass centre, x",
       .defaultValue = 0.9,
       .min = -10,
       .max = 10},
      {.name = "zH",
       .unit = "m",
       .description = "front frame (fork, handlebar) mass centre, z (down)",
       .defaultValue = -0.7,
       .min = -10,
       .max = 10},
      {.name = "mH",
       .unit = "kg",
       .description = "front frame mass",
       .defaultValue = 4.0,
       .min = 0,
       .minExclusive = true},
      {.name = "IHxx",
       .unit = "kg·m²",
       .description = "front frame inertia about its mass centre, xx",
       .defaultValue = 0.05892,
       .min = 0,
       .minExclusive = true},
      {.name = "IHyy",
       .unit = "kg·m²",
       .description = "front frame inertia about its mass centre, yy",
       .defaultValue = 0.06,
       .min = 0,
       .minExclusive = true},
      {.name = "IHzz",
       .unit = "kg·m²",
       .description = "front frame inertia about its mass centre, zz",
       .defaultValue = 0.00708,
       .min = 0,
       .minExclusive = true},
      {.name = "IHxz",
       .unit = "kg·m²",
       .description = "front frame inertia about its mass centre, xz",
       .defaultValue = -0.00756,
       .min = -1e6,
       .max = 1e6},
      {.name = "rF",
       .unit = "m",
       .description = "front wheel radius",
       .defaultValue = 0.35,
       .min = 0,
       .max = 10,
       .minExclusive = true},
      {.name = "mF",
       .unit = "kg",
       .description = "front wheel mass",
       .defaultValue = 3.0,
       .min = 0,
       .minExclusive = true},
      {.name = "IFxx",
       .unit = "kg·m²",
       .description = "front wheel moment of inertia about a diameter",
       .defaultValue = 0.1405,
       .min = 0,
       .minExclusive = true},
      {.name = "IFyy",
       .unit = "kg·m²",
       .description = "front wheel moment of inertia about its axle",
       .defaultValue = 0.28,
       .min = 0,
       .minExclusive = true},
  }};
  static constexpr int kW = indexOf(kParameters, "w");
  static constexpr int kC = indexOf(kParameters, "c");
  static constexpr int kLambda = indexOf(kParameters, "lambda");
  static constexpr int kG = indexOf(kParameters, "g");
  static constexpr int kRR = indexOf(kParameters, "rR");
  static constexpr int kMR = indexOf(kParameters, "mR");
  static constexpr int kIRxx = indexOf(kParameters, "IRxx");
  static constexpr int kIRyy = indexOf(kParameters, "IRyy");
  static constexpr int kXB = indexOf(kParameters, "xB");
  static constexpr int kZB = indexOf(kParameters, "zB");
  static constexpr int kMB = indexOf(kParameters, "mB");
  static constexpr int kIBxx = indexOf(kParameters, "IBxx");
  static constexpr int kIByy = indexOf(kParameters, "IByy");
  static constexpr int kIBzz = indexOf(kParameters, "IBzz");
  static constexpr int kIBxz = indexOf(kParameters, "IBxz");
  static constexpr int kXH = indexOf(kParameters, "xH");
  static constexpr int kZH = indexOf(kParameters, "zH");
  static constexpr int kMH = indexOf(kParameters, "mH");
  static constexpr int kIHxx = indexOf(kParameters, "IHxx");
  static constexpr int kIHyy = indexOf(kParameters, "IHyy");
  static constexpr int kIHzz = indexOf(kParameters, "IHzz");
  static constexpr int kIHxz = indexOf(kParameters, "IHxz");
  static constexpr int kRF = indexOf(kParameters, "rF");
  static constexpr int kMF = indexOf(kParameters, "mF");
  static constexpr int kIFxx = indexOf(kParameters, "IFxx");
  static constexpr int kIFyy = indexOf(kParameters, "IFyy");

  // Positions in q and y.
  static constexpr int iX = 0, iY = 1, iYaw = 2, iLean = 3, iPitch = 4, iSteer = 5, iRearWheel = 6,
                       iFrontWheel = 7;
  static constexpr int jV = 0, jLeanRate = 1, jSteerRate = 2, jYawRate = 3, jPitchRate = 4,
                       jFrontWheelRate = 5, jVx = 6, jVy = 7;
  static constexpr int kN = 8;

  static SystemInfo info() {
    SystemInfo s;
    s.name = "whipple_bicycle";
    s.title = "Whipple bicycle (benchmark)";
    s.description =
        "The Whipple–Carvallo bicycle with the benchmark parameters of Meijaard et al.: a rear "
        "frame with a rigid rider, a front fork with handlebar, and two knife-edge wheels rolling "
        "without slipping on level ground (four nonholonomic contact constraints, and one "
        "holonomic one that keeps the front wheel on the ground and fixes the pitch). No rider "
        "torques, no dissipation. Between about 4.3 and 6.0 m/s it steers itself upright; "
        "slower, it falls over.";
    s.source =
        "Meijaard, Papadopoulos, Ruina & Schwab, Linearized dynamics equations for the balance "
        "and steer of a bicycle: a benchmark and review, Proc. R. Soc. A 463:1955 (2007), Table 1; "
        "nonlinear reference values: Basu-Mandal, Chatterjee & Papadopoulos, Hands-free circular "
        "motions of a benchmark bicycle, Proc. R. Soc. A 463:1983 (2007), Table 1";
    s.equations =
        "Space frame x forward, y right, z down. R_B = Rz(yaw) Rx(lean) Ry(pitch), "
        "R_H = R_B Rot(s, steer), s = (sin λ, 0, cos λ) the steering axis in B\n"
        "rear wheel centre C_R = (x, y, 0) − rR Rz(yaw) Rx(lean) e_z; B's points C_R + R_B (X − "
        "(0, 0, −rR)), H's points A + R_H (X − (w + c, 0, 0)), A = C_R + R_B (w + c, 0, rR) "
        "(X: reference configuration, from the rear contact)\n"
        "ẋ = vx, ẏ = vy, θ̇_R = −v/rR − pitch_rate, the other coordinates' rates are the "
        "velocities of the same name\n"
        "L = Σ (½ m |v_G|² + ½ ωᵀ I ω) − Σ m g·height(G), over B, H, R, F (ω in body axes, "
        "wheels: ω of their frame + θ̇ e_y)\n"
        "Φ1 = vx − v cos(yaw),  Φ2 = vy − v sin(yaw)   (rear contact does not slip)\n"
        "Φ3, Φ4 = x, y components of v(C_F) + ω_F × (P_F − C_F)   (front contact does not slip)\n"
        "g1 = z of P_F = C_F + rF (e_z − n_z n)/√(1 − n_z²) = 0,  n = R_H e_y (front axle)";
    s.parameters = parameterInfos(kParameters);
    s.coordinates = {"x", "y", "yaw", "lean", "pitch", "steer", "rear_wheel", "front_wheel"};
    s.velocities = {"v",          "lean_rate",        "steer_rate", "yaw_rate",
                    "pitch_rate", "front_wheel_rate", "vx",         "vy"};
    s.stateOrder = {
        "x",           "y", "yaw",       "lean",       "pitch",    "steer",      "rear_wheel",
        "front_wheel", "v", "lean_rate", "steer_rate", "yaw_rate", "pitch_rate", "front_wheel_rate",
        "vx",          "vy"};
    s.independentVelocities = {"v", "lean_rate", "steer_rate"};
    // Level ground: position and heading do not enter; the wheels are axisymmetric.
    s.cyclicCoordinates = {"x", "y", "yaw", "rear_wheel", "front_wheel"};
    s.dependentCoordinates = {"pitch"};  // from lean and steer (front wheel on the ground)
    s.initialization =
        "pitch follows from lean and steer (front wheel on the ground, the branch through pitch "
        "0); v (forward speed of the rear contact, −rR·(θ̇_R + θ̇_B)), lean_rate and steer_rate "
        "are kept, and yaw_rate, pitch_rate, front_wheel_rate and vx, vy (velocity of the rear "
        "contact point) follow from the rolling constraints.";
    s.defaultCoordinates = std::vector<double>(kN, 0.0);
    s.defaultVelocities = {4.6, 0.5, 0, 0, 0, 0, 0, 0};
    s.constraintCount = 4;
    s.holonomicCount = 1;
    s.editing.followBody = "rider";
    s.singularities = {
        "the bicycle has fallen over (|lean| reached 80°; the model has no contact between the "
        "frame and the ground, and its lean angle is singular at 90°)"};
    return s;
  }
  // cos(lean) − cos(80°) > 0 while |lean| < 80°.
  static void singularities(const double*, double, const double* q, const double*, double* s) {
    s[0] = std::cos(q[3]) - std::cos(80.0 * std::numbers::pi / 180.0);
  }

  // Rear frame B and front frame H, wheel centres and mass centres, for coordinates q.
  template <class T>
  struct Pose {
    Mat3<T> rear, front;              // attitudes R_B, R_H
    Vec3<T> rearCentre, frontCentre;  // wheel centres
    Vec3<T> rearMass, frontMass;      // mass centres of B and H
    Vec3<T> steerPoint;               // steering axis at ground level (reference)
  };
  template <class T, class Par>
  static Pose<T> pose(const Par* p, const T* q) {
    using std::cos, std::sin;
    using V = ParameterOf<T, Par>;
    auto at = [&](int i) { return lift<T>(p[i]); };
    const V rR = at(kRR), w = at(kW), c = at(kC), zero(0.0);
    const V axis[3] = {lift<T>(sin(p[kLambda])), zero, lift<T>(cos(p[kLambda]))};
    const Mat3<T> heading = multiply(rotationZ(q[iYaw]), rotationX(q[iLean]));
    Pose<T> P;
    P.rear = multiply(heading, rotationY(q[iPitch]));
    P.front = multiply(P.rear, rotationAbout(axis, q[iSteer]));
    P.rearCentre = Vec3<T>{{q[iX], q[iY], T(0.0)}} + apply(heading, zero, zero, V(-rR));
    P.rearMass = P.rearCentre + apply(P.rear, at(kXB), zero, V(at(kZB) + rR));
    P.steerPoint = P.rearCentre + apply(P.rear, V(w + c), zero, rR);
    P.frontCentre = P.steerPoint + apply(P.front, V(-c), zero, V(-at(kRF)));
    P.frontMass = P.steerPoint + apply(P.front, V(at(kXH) - w - c), zero, at(kZH));
    return P;
  }
  // Front contact: the wheel's lowest point, C_F + rF d with d the unit vector of the wheel
  // plane pointing most downward, ∝ e_z − n_z n (n = R_H e_y, the front axle).
  template <class T, class Par>
  static Vec3<T> frontContact(const Par* p, const Pose<T>& P) {
    using std::sqrt;
    const T& nx = P.front(0, 1);
    const T& ny = P.front(1, 1);
    const T& nz = P.front(2, 1);
    const T horizontal = 1.0 - nz * nz;
    const T k = lift<T>(p[kRF]) / sqrt(horizontal);
    return P.frontCentre + Vec3<T>{{-k * nz * nx, -k * nz * ny, k * horizontal}};
  }
  // q̇ = ρ(q) y.
  template <class S, class Par>
  static void coordinateRates(const Par* p, const S* y, S* qd) {
    qd[iX] = y[jVx];
    qd[iY] = y[jVy];
    qd[iYaw] = y[jYawRate];
    qd[iLean] = y[jLeanRate];
    qd[iPitch] = y[jPitchRate];
    qd[iSteer] = y[jSteerRate];
    qd[iRearWheel] = -y[jV] / p[kRR] - y[jPitchRate];
    qd[iFrontWheel] = y[jFrontWheelRate];
  }
  template <class S, class Par>
  static Pose<Tangent<S>> moving(const Par* p, const S* q, const S* y, S* qd) {
    coordinateRates(p, y, qd);
    Tangent<S> qt[kN];
    for (int i = 0; i < kN; ++i) qt[i] = Tangent<S>(q[i], qd[i]);
    return pose(p, qt);
  }

  // The parameters' type Par is double, or Sym when they are recorded on the tape.
  template <class S, class Par = double>
  static void anchor(const Par* p, const S*, S* rho) {
    auto at = [&](int i, int a) -> S& { return rho[i + kN * a]; };
    at(iX, jVx) = S(1.0);
    at(iY, jVy) = S(1.0);
    at(iYaw, jYawRate) = S(1.0);
    at(iLean, jLeanRate) = S(1.0);
    at(iPitch, jPitchRate) = S(1.0);
    at(iSteer, jSteerRate) = S(1.0);
    at(iRearWheel, jV) = S(-1.0 / p[kRR]);
    at(iRearWheel, jPitchRate) = S(-1.0);
    at(iFrontWheel, jFrontWheelRate) = S(1.0);
  }

  template <class S, class Par = double>
  static S lagrangian(const Par* p, const S&, const S* q, const S* y) {
    S qd[kN];
    const Pose<Tangent<S>> P = moving(p, q, y, qd);
    auto translational = [](const auto& m, const Vec3<Tangent<S>>& x) {
      const Vec3<S> v = rates(x);
      return 0.5 * m * (v.c[0] * v.c[0] + v.c[1] * v.c[1] + v.c[2] * v.c[2]);
    };
    // ½ ωᵀ I ω for I = [[xx, 0, xz], [0, yy, 0], [xz, 0, zz]] in body axes.
    auto rotational = [](const Vec3<S>& o, const auto& xx, const auto& yy, const auto& zz,
                         const auto& xz) {
      return 0.5 * (xx * o.c[0] * o.c[0] + yy * o.c[1] * o.c[1] + zz * o.c[2] * o.c[2]) +
             xz * o.c[0] * o.c[2];
    };
    const Vec3<S> omegaB = angularVelocity(P.rear, true), omegaH = angularVelocity(P.front, true);
    Vec3<S> omegaR = omegaB, omegaF = omegaH;
    omegaR.c[1] = omegaR.c[1] + qd[iRearWheel];
    omegaF.c[1] = omegaF.c[1] + qd[iFrontWheel];
    const S kinetic = translational(p[kMB], P.rearMass) + translational(p[kMH], P.frontMass) +
                      translational(p[kMR], P.rearCentre) + translational(p[kMF], P.frontCentre) +
                      rotational(omegaB, p[kIBxx], p[kIByy], p[kIBzz], p[kIBxz]) +
                      rotational(omegaH, p[kIHxx], p[kIHyy], p[kIHzz], p[kIHxz]) +
                      rotational(omegaR, p[kIRxx], p[kIRyy], p[kIRxx], 0.0) +
                      rotational(omegaF, p[kIFxx], p[kIFyy], p[kIFxx], 0.0);
    // V = Σ m g·height = −Σ m g z (z down).
    const S potential = -p[kG] * (p[kMB] * P.rearMass.c[2].v + p[kMH] * P.frontMass.c[2].v +
                                  p[kMR] * P.rearCentre.c[2].v + p[kMF] * P.frontCentre.c[2].v);
    return kinetic - potential;
  }

  template <class S, class Par = double>
  static void constraints(const Par* p, const S&, const S* q, const S* y, S* phi) {
    using std::cos, std::sin;
    // Rear: the wheel's material contact point has velocity (vx − v cos yaw, vy − v sin yaw, 0).
    phi[0] = y[jVx] - y[jV] * cos(q[iYaw]);
    phi[1] = y[jVy] - y[jV] * sin(q[iYaw]);
    // Front: v(C_F) + ω_F × (P_F − C_F), horizontal components (the vertical one is ġ).
    S qd[kN];
    const Pose<Tangent<S>> P = moving(p, q, y, qd);
    Vec3<S> omega = angularVelocity(P.front, false);
    for (int i = 0; i < 3; ++i) omega.c[i] = omega.c[i] + qd[iFrontWheel] * P.front(i, 1).v;
    const Vec3<S> centre = values(P.frontCentre), contact = values(frontContact(p, P));
    const Vec3<S> arm{
        {contact.c[0] - centre.c[0], contact.c[1] - centre.c[1], contact.c[2] - centre.c[2]}};
    const Vec3<S> slip = rates(P.frontCentre) + cross(omega, arm);
    phi[2] = slip.c[0];
    phi[3] = slip.c[1];
  }

  template <class S, class Par = double>
  static void holonomic(const Par* p, const S&, const S* q, S* g) {
    g[0] = frontContact(p, pose(p, q)).c[2];  // height of the front contact (z down)
  }

  static std::string checkParameters(const double* p) {
    auto check = [&](const char* body, const char* xx, const char* zz, const char* xz, double Ixx,
                     double Izz, double Ixz) -> std::string {
      if (Ixx * Izz > Ixz * Ixz) return "";
      return std::string("inertia tensor of the ") + body + " must be positive definite (" + xx +
             "·" + zz + " > " + xz + "², got " + xx + " = " + formatValue(Ixx) + ", " + zz + " = " +
             formatValue(Izz) + ", " + xz + " = " + formatValue(Ixz) + ")";
    };
    std::string problem = check("rear frame", "IBxx", "IBzz", "IBxz", p[kIBxx], p[kIBzz], p[kIBxz]);
    if (problem.empty())
      problem = check("front frame", "IHxx", "IHzz", "IHxz", p[kIHxx], p[kIHzz], p[kIHxz]);
    return problem;
  }

  static void scene(const double* p, double, const double* q, const double*, const double* lambda,
                    SceneFrame& f) {
    using Eigen::Matrix3d, Eigen::Quaterniond, Eigen::Vector3d;
    const double rR = p[kRR], rF = p[kRF], w = p[kW], c = p[kC], tanLambda = std::tan(p[kLambda]);
    const Pose<double> P = pose(p, q);
    // Drawn with z up: turned by π about x, (x, y, z) → (x, −y, −z).
    const Matrix3d flip = Eigen::Vector3d(1, -1, -1).asDiagonal();
    auto drawn = [](const Vec3<double>& a) { return Vector3d(a.c[0], -a.c[1], -a.c[2]); };
    auto attitude = [&](const Mat3<double>& R) {
      Matrix3d M;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) M(i, j) = R(i, j);
      return Quaterniond(flip * M * flip);
    };
    // Body-fixed points given in the reference configuration (from the rear contact, z down).
    auto rearPoint = [&](double x, double y, double z) {
      return drawn(P.rearCentre + apply(P.rear, x, y, z + rR));
    };
    auto frontPoint = [&](double x, double y, double z) {
      return drawn(P.steerPoint + apply(P.front, x - w - c, y, z));
    };
    auto bar = [&](const std::string& name, const Vector3d& a, const Vector3d& b, double radius,
                   const Vector3d& colour) {
      const Vector3d d = b - a;
      f.bodies.push_back({ShapeKind::Cylinder, name, 0.5 * (a + b),
                          Quaterniond::FromTwoVectors(Vector3d::UnitZ(), d),
                          Vector3d(radius, 0.5 * d.norm(), radius), colour});
    };
    f.extent = 1.2 * (w + rR + rF);
    // Rear frame: a diamond from the rear axle to the head tube, and the rider at B's centre.
    const Vector3d frameColour(0.75, 0.18, 0.16), forkColour(0.25, 0.3, 0.36);
    const double low = std::min(rR, rF), headLow = rF + 0.1, headHigh = rF + 0.35;
    const Vector3d axle = drawn(P.rearCentre), bracket = rearPoint(0.4 * w, 0, -low),
                   seat = rearPoint(p[kXB] - 0.12, 0, p[kZB] + 0.18),
                   headBottom = rearPoint(w + c - headLow * tanLambda, 0, -headLow),
                   headTop = rearPoint(w + c - headHigh * tanLambda, 0, -headHigh);
    bar("rear frame", bracket, headBottom, 0.02, frameColour);
    bar("chain stay", axle, bracket, 0.015, frameColour);
    bar("seat stay", axle, seat, 0.015, frameColour);
    bar("seat tube", bracket, seat, 0.018, frameColour);
    bar("top tube", seat, headTop, 0.018, frameColour);
    bar("head tube", headBottom, headTop, 0.025, frameColour);
    f.bodies.push_back({ShapeKind::Body, "rider", drawn(P.rearMass), attitude(P.rear),
                        Vector3d(0.11, 0.16, 0.24), Vector3d(0.32, 0.48, 0.72)});
    // Front frame: fork blade from the head tube to the front axle, handlebar across H's y.
    const Vector3d handlebarCentre =
        frontPoint(w + c - (headHigh + 0.05) * tanLambda, 0, -(headHigh + 0.05));
    bar("fork", headBottom, drawn(P.frontCentre), 0.015, forkColour);
    bar("steerer", headTop, handlebarCentre, 0.015, forkColour);
    bar("handlebar",
        frontPoint(w + c - (headHigh + 0.05) * tanLambda - 0.04, -0.25, -(headHigh + 0.05)),
        frontPoint(w + c - (headHigh + 0.05) * tanLambda - 0.04, 0.25, -(headHigh + 0.05)), 0.015,
        forkColour);
    // Wheels (Disk axis along local y, the axle) with three spokes each.
    auto wheel = [&](const std::string& name, const Vec3<double>& centre,
                     const Mat3<double>& carrier, double angle, double r) {
      const Mat3<double> R = multiply(carrier, rotationY(angle));
      const Vector3d at = drawn(centre);
      f.bodies.push_back({ShapeKind::Disk, name, at, attitude(R), Vector3d(r, 0.012, r)});
      for (int k = 0; k < 3; ++k) {
        const double a = k * kPi / 3;
        const Vector3d spoke = drawn(apply(R, 0.97 * r * std::cos(a), 0.0, 0.97 * r * std::sin(a)));
        bar(name + " spoke " + std::to_string(k + 1), at - spoke, at + spoke, 0.004,
            Vector3d(0.85, 0.85, 0.88));
      }
    };
    wheel("rear wheel", P.rearCentre, P.rear, q[iRearWheel], rR);
    wheel("front wheel", P.frontCentre, P.front, q[iFrontWheel], rF);
    // Contacts and the ground's forces on the wheels: horizontal at the rear (its normal force
    // is not a multiplier: the rear contact height is built into the coordinates), full at the
    // front (λ3, λ4 horizontal, λ5 along z down).
    const Vector3d rearContact(q[iX], -q[iY], 0);
    const Vector3d frontContactPoint = drawn(frontContact(p, P));
    f.points.push_back({"rear contact", rearContact, false});
    f.points.push_back({"front contact", frontContactPoint, false});
    f.arrows.push_back({ArrowKind::Reaction,
                        "rear contact force (horizontal)",
                        rearContact,
                        Vector3d(lambda[0], -lambda[1], 0),
                        {}});
    f.arrows.push_back({ArrowKind::Reaction,
                        "front contact force",
                        frontContactPoint,
                        Vector3d(lambda[2], -lambda[3], -lambda[4]),
                        {}});
  }
};

}  // namespace

std::shared_ptr<const SystemModel> makeWhippleBicycle() { return makeSystem<WhippleBicycle>(); }

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
