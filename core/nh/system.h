// A mechanical system as the engine sees it (theory §1): a Lagrangian system with constraints
// on a Lie algebroid, stating only its functions. The equations of motion (dynamics.h) take
// every derivative from them: by jets (autodiff.h) or from their recording on a tape (symbolic.h).
//
// SystemModel is that description behind one interface, for the engine and every front end:
// SystemInfo (names, parameters, default state, labels, scene editing) and, for parameters p,
// time t, coordinates q (n) and velocities y (m), the anchor ρ(q) (n×m, column-major; q̇ = ρ y),
// the Lagrangian L(t, q, y), the k constraints Φ(t, q, y) = 0 followed by ġ of the h holonomic
// constraints g(t, q) = 0, optionally the structure functions C^γ_{αβ}(q) (C[γ + m(α + mβ)])
// and a generalised force Q(t, q, y), where the equations are singular, and the scene to draw.
// Each is evaluated over double and, where the engine differentiates it, over Jet1, Jet2 or Sym.
//
// A C++ system (core/systems/*.cpp) is a struct `Def` of static functions that makeSystem<Def>()
// wraps in DefinedSystem, which zeroes ρ, C and Q before Def fills them and derives ġ and ∂g/∂q
// from g. Def has info() and templates anchor(p, q, rho) and lagrangian(p, t, q, y); it may add
// templates constraints(p, t, q, y, phi) and holonomic(p, t, q, g), structure(p, q, C) and
// force(p, t, q, y, Q) (taped too when written as templates), scene(p, t, q, y, lambda, frame),
// singularities(p, t, q, y, s), checkParameters(p), continuousValue(parameter, p, t, q, y) and
// referenceFrame(p, t, q, gamma) (its Γ over the zeros; without it Γ = 0).
// Anything else able to evaluate these functions over each scalar type derives from SystemModel
// directly, as the model files' FormulaSystem (core/model/formula_system.h) does.
#pragma once

#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <cstddef>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/nh/autodiff.h"
#include "core/nh/symbolic.h"

namespace nh {

struct ParameterInfo {
  std::string name;
  std::string unit;
  std::string description;
  double defaultValue = 0;
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  bool minExclusive = false;
  bool maxExclusive = false;
  // The name to show (a model file's `label`, e.g. "Ω₀" for Omega0); the name when none is
  // given.
  std::string label = {};

  bool allows(double v) const;
  std::string rangeText() const;  // e.g. "(0, inf)" or "[0, 1]"
};

// A parameter as a system declares it, once, in a constexpr table written with designated
// initialisers; systems read values by name through indexOf() on that table, and
// parameterInfos() turns the table into SystemInfo::parameters (same order, by construction).
struct ParameterSpec {
  std::string_view name;
  std::string_view unit;
  std::string_view description;
  double defaultValue = 0;
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  bool minExclusive = false;
  bool maxExclusive = false;
};

constexpr std::string_view nameOf(const ParameterSpec& spec) { return spec.name; }
constexpr std::string_view nameOf(std::string_view name) { return name; }

// Position of `name` in a table of ParameterSpec or of names. Evaluated at compile time: a
// name the table does not hold, or holds twice, does not compile.
template <class Entry, std::size_t N>
consteval int indexOf(const std::array<Entry, N>& table, std::string_view name) {
  int found = -1;
  for (std::size_t i = 0; i < N; ++i) {
    if (nameOf(table[i]) != name) continue;
    if (found >= 0) throw "indexOf: name declared twice";
    found = static_cast<int>(i);
  }
  if (found < 0) throw "indexOf: no such name in the table";
  return found;
}

template <std::size_t N>
std::vector<ParameterInfo> parameterInfos(const std::array<ParameterSpec, N>& table) {
  std::vector<ParameterInfo> infos;
  for (const ParameterSpec& p : table)
    infos.push_back({std::string(p.name), std::string(p.unit), std::string(p.description),
                     p.defaultValue, p.min, p.max, p.minExclusive, p.maxExclusive,
                     std::string(p.name)});
  return infos;
}

template <std::size_t N>
std::vector<std::string> names(const std::array<std::string_view, N>& table) {
  return std::vector<std::string>(table.begin(), table.end());
}

// Where a unit quaternion sits in q (indices of w, x, y, z are first..first+3).
struct QuaternionSlot {
  int first = 0;
};

// How a front end may edit the start of a run in the scene, and what moves in it (style
// guide: the UI knows no system by name). Dragging the scene body `body` moves it in the plane
// its variables `x` and `y` move it in (the ground, or an incline's plane) and sets `x` and `y`
// to where it was dropped; pulling the tip of the Velocity arrow `arrow` to the ground-plane
// vector w sets `vx` and `vy` to w's components along the world x and y axes or, with
// velocityInBodyAxes, along the body's own x and y axes. An empty variable name leaves that
// component alone.
struct DragHandle {
  std::string body;
  std::string x, y;
  std::string arrow;  // "" : no velocity to drag
  std::string vx, vy;
  bool velocityInBodyAxes = false;
};

struct SceneEditing {
  std::optional<DragHandle> drag;  // none: the start is edited in the panels only
  std::string followBody;          // the body a following camera keeps in view ("" : none)
  bool movingFrame = false;        // SceneFrame::movingFrame turns: a "view from it" makes sense
};

// How a front end names a recorded variable: "friction force x" with unit "N" for lambda_1.
struct VariableLabel {
  std::string name;   // a coordinate, a velocity, lambda_<i> or energy
  std::string label;  // words; empty: the name
  std::string unit;   // e.g. "m/s"; empty: none given
};

struct SystemInfo {
  std::string name;            // CLI name, e.g. "ball_on_turntable"
  std::string title;           // human title
  std::string description;     // a paragraph
  std::string source;          // literature source
  std::string equations;       // the equations in plain text (for display)
  std::string initialization;  // how inconsistent initial velocities are completed
  std::vector<ParameterInfo> parameters;
  std::vector<std::string> coordinates;            // q names, n
  std::vector<std::string> velocities;             // y names, m
  std::vector<std::string> stateOrder;             // all q and y names in display/CSV order
  std::vector<std::string> independentVelocities;  // kept when completing initial velocities
  std::vector<double> defaultCoordinates;
  std::vector<double> defaultVelocities;
  std::vector<QuaternionSlot> quaternions;
  // Allowed ranges of state variables where the model needs one (e.g. r > 0); the
  // ParameterInfo fields name, min, max and the exclusivity flags are used.
  std::vector<ParameterInfo> stateLimits;
  bool constantStructure = false;  // C^γ_{αβ} independent of q (a Lie algebra, say)
  // Coordinates the equations of motion do not read (positions where the system is
  // invariant, headings, wheel angles, a free attitude): `nhsim linearize` drops them.
  std::vector<std::string> cyclicCoordinates;
  // Coordinates that holonomic completion and drift control solve g(t, q) = 0 for, the
  // others held fixed (the bicycle's pitch from its lean and steer). Empty: all of them,
  // least change (Gauss–Newton). As many as holonomic constraints when given.
  std::vector<std::string> dependentCoordinates;
  int constraintCount = 0;  // k: Φ(t, q, y) = 0
  int holonomicCount = 0;   // h: g(t, q) = 0
  // Where the equations are not defined: one message per function s_i(t, q, y) of
  // SystemModel::singularities; a run stops where one of them reaches 0 (simulation.h).
  std::vector<std::string> singularities;
  // Extra quantities recorded beside the state, one output column each (after the
  // multipliers): names of SystemModel::outputs, e.g. an invariant to plot.
  std::vector<std::string> outputs;
  SceneEditing editing;
  std::vector<VariableLabel> variableLabels;  // optional, any subset of the variables
  // Parameters that are the phase (value at t = 0) of a quantity which is the parameter plus
  // terms without it (the turntable's angle = table_angle0 + ∫₀ᵗ Ω). When another parameter
  // is edited mid-run, the front end shifts the phase so that the quantity keeps its value at
  // that moment (SystemModel::continuousValue; SimulationController::setParameter).
  struct ContinuousPhase {
    std::string parameter;  // a parameter's name
    std::string quantity;   // what it keeps continuous (a model file's definition)
  };
  std::vector<ContinuousPhase> continuousPhases;
  // Units of state variables by name (a model file's `labels: {x: {unit: m}}`, or its older
  // `units:` key), for the initial-condition fields; a variable not listed has none shown.
  std::map<std::string, std::string> stateUnits;
  // A control model (theory: optimal control) names its controls u here; it has no Lagrangian
  // or constraints of its own, but a section f(t, q, u) of E and a running cost L(t, q, u)
  // (SystemModel::controlSection, cost): it moves only as an optimal-control plan says.
  std::vector<std::string> controls;
  bool isControlModel() const { return !controls.empty(); }
  // The quantity `parameter` (a name) keeps continuous; "" if none.
  std::string keptContinuousBy(const std::string& parameter) const {
    for (const ContinuousPhase& c : continuousPhases)
      if (c.parameter == parameter) return c.quantity;
    return {};
  }
};

// The label of a variable (nullptr when the system gives none).
const VariableLabel* findVariableLabel(const SystemInfo& info, const std::string& name);

// ---- What a front end draws, in core terms (style guide: scene sync) ----------------------

// SceneBody::size by kind: Sphere (semi-axes along local x, y, z, an ellipsoid; y or z <= 0
// take x's value); Particle (radius, –, –); Table (radius, –, thickness), top
// face at local z = 0; Disk (radius, half-thickness, radius), axis along local y; Sleigh, Body,
// Guide half-extents (a Guide with zero z is a flat square); Cylinder (radius, half-height,
// radius), axis along local z (capped; the caps at z = ±half-height).
enum class ShapeKind { Sphere, Table, Disk, Sleigh, Particle, Body, Guide, Cylinder };
enum class ArrowKind { Reaction, Velocity, AngularVelocity, Force };

struct SceneBody {
  ShapeKind kind = ShapeKind::Sphere;
  std::string name;
  Eigen::Vector3d position = Eigen::Vector3d::Zero();
  Eigen::Quaterniond orientation = Eigen::Quaterniond::Identity();
  Eigen::Vector3d size = Eigen::Vector3d::Ones();  // radius / half-extents, shape-specific
  // A solid colour (components 0..1) replacing the shape's own colours; negative: its own.
  Eigen::Vector3d colour = Eigen::Vector3d::Constant(-1);
};

struct SceneArrow {
  ArrowKind kind = ArrowKind::Reaction;
  std::string name;
  Eigen::Vector3d origin = Eigen::Vector3d::Zero();
  Eigen::Vector3d vector = Eigen::Vector3d::Zero();
  std::string unit;  // of the vector, for the legend; empty: the kind's (N, m/s, rad/s)
};

struct ScenePoint {
  std::string name;  // e.g. "centre", "contact (table frame)"
  Eigen::Vector3d position = Eigen::Vector3d::Zero();
  bool inMovingFrame = false;  // position given in the moving (table) frame
};

struct SceneFrame {
  std::vector<SceneBody> bodies;
  std::vector<SceneArrow> arrows;
  std::vector<ScenePoint> points;
  // Orientation of a moving reference frame (the turntable) for "view from the table".
  Eigen::Quaterniond movingFrame = Eigen::Quaterniond::Identity();
  double extent = 1;  // typical size of the scene, for cameras and arrow scales
};

// ---- The type-erased system ---------------------------------------------------------------

class SystemModel {
 public:
  explicit SystemModel(SystemInfo info);
  virtual ~SystemModel() = default;

  const SystemInfo& info() const { return info_; }
  const std::string& name() const { return info_.name; }
  int n() const { return static_cast<int>(info_.coordinates.size()); }
  int m() const { return static_cast<int>(info_.velocities.size()); }
  int k() const { return info_.constraintCount; }
  int h() const { return info_.holonomicCount; }
  int constraintsTotal() const { return k() + h(); }  // Φ plus ġ

  std::vector<double> defaultParameters() const;
  int parameterIndex(const std::string& name) const;   // -1 if unknown
  int coordinateIndex(const std::string& name) const;  // -1 if unknown
  // info().cyclicCoordinates and dependentCoordinates as indices into q.
  const std::vector<int>& cyclicIndices() const { return cyclic_; }
  const std::vector<int>& dependentIndices() const { return dependent_; }

  // Conditions on the parameters beyond their ranges (an inertia tensor positive
  // definite, say): "" when the values are allowed, else what is wrong and what is allowed.
  virtual std::string checkParameters(const double* /*p*/) const { return {}; }

  // The quantity that parameter `parameter` keeps continuous (SystemInfo::continuousPhases,
  // e.g. the table's angle) at (t, q, y) with parameters p. NaN when the parameter keeps nothing.
  virtual double continuousValue(int /*parameter*/, const double* /*p*/, double /*t*/,
                                 const double* /*q*/, const double* /*y*/) const {
    return std::numeric_limits<double>::quiet_NaN();
  }

  virtual void anchor(const double* p, const double* q, double* rho) const = 0;
  virtual void anchor(const double* p, const Sym* q, Sym* rho) const = 0;
  virtual bool hasStructure() const = 0;
  virtual void structure(const double* p, const double* q, double* C) const = 0;
  // The same on the tape (for linearisation); throws TapeError if the system cannot.
  virtual void structure(const double* p, const Sym* q, Sym* C) const = 0;
  virtual bool hasForce() const = 0;
  virtual void force(const double* p, double t, const double* q, const double* y,
                     double* Q) const = 0;
  virtual void force(const double* p, const Sym& t, const Sym* q, const Sym* y, Sym* Q) const = 0;

  virtual double lagrangian(const double* p, double t, const double* q, const double* y) const = 0;
  virtual Jet2 lagrangian(const double* p, const Jet2& t, const Jet2* q, const Jet2* y) const = 0;
  virtual Sym lagrangian(const double* p, const Sym& t, const Sym* q, const Sym* y) const = 0;

  // All k + h velocity-level constraints: Φ(t, q, y) followed by ġ = g_t + g_q ρ(q) y.
  virtual void constraints(const double* p, double t, const double* q, const double* y,
                           double* phi) const = 0;
  virtual void constraints(const double* p, const Jet1& t, const Jet1* q, const Jet1* y,
                           Jet1* phi) const = 0;
  virtual void constraints(const double* p, const Jet2& t, const Jet2* q, const Jet2* y,
                           Jet2* phi) const = 0;
  virtual void constraints(const double* p, const Sym& t, const Sym* q, const Sym* y,
                           Sym* phi) const = 0;

  // Holonomic residuals g(t, q) (h of them) and their Jacobian G = ∂g/∂q (h×n, col-major).
  virtual void holonomic(const double* p, double t, const double* q, double* g) const = 0;
  virtual void holonomicJacobian(const double* p, double t, const double* q, double* G) const = 0;

  virtual void scene(const double* p, double t, const double* q, const double* y,
                     const double* lambda, SceneFrame& frame) const = 0;

  // The constraints' reference frame (theory §4): a section Γ(t, q) of E, m velocities with
  // Φ(t, q, Γ) = 0 and ġ(t, q, Γ) = 0, with respect to which affine constraints are linear;
  // the energy with respect to it, T_Γ = p·(y − Γ) − L, is the output column energy_frame.
  // The default, Γ = 0, is the frame of linear constraints (or none); a system with affine
  // constraints states its own, or has none (hasReferenceFrame() false: no energy_frame).
  virtual bool hasReferenceFrame() const { return true; }
  virtual void referenceFrame(const double* /*p*/, double /*t*/, const double* /*q*/,
                              double* gamma) const {
    std::fill(gamma, gamma + m(), 0.0);
  }

  // s_i(t, q, y), one per info().singularities: the equations are defined where every
  // s_i > 0 and not where one is 0 (e.g. a constraint not differentiable there).
  virtual void singularities(const double* /*p*/, double /*t*/, const double* /*q*/,
                             const double* /*y*/, double* /*s*/) const {}

  // The extra quantities of info().outputs at (t, q, y), one per name.
  virtual void outputs(const double* /*p*/, double /*t*/, const double* /*q*/, const double* /*y*/,
                       double* /*out*/) const {}

  // A control model's section f(t, q, u) of E (m values, the velocities) and its running cost
  // L(t, q, u), on the tape (u has info().controls.size() entries). Systems without controls
  // throw InputError.
  virtual void controlSection(const double* p, const Sym& t, const Sym* q, const Sym* u,
                              Sym* f) const;
  virtual Sym cost(const double* p, const Sym& t, const Sym* q, const Sym* u) const;

 private:
  SystemInfo info_;
  std::vector<int> cyclic_, dependent_;
};

// ---- Adapter from a static definition -----------------------------------------------------

template <class Def>
class DefinedSystem final : public SystemModel {
 public:
  DefinedSystem() : SystemModel(Def::info()) {}

  void anchor(const double* p, const double* q, double* rho) const override {
    std::fill(rho, rho + n() * m(), 0.0);
    Def::anchor(p, q, rho);
  }
  void anchor(const double* p, const Sym* q, Sym* rho) const override {
    std::fill(rho, rho + n() * m(), Sym(0.0));
    if constexpr (kParametersOnTape)
      Def::anchor(tapeParameters(p).data(), q, rho);
    else
      Def::anchor(p, q, rho);
  }
  std::string checkParameters(const double* p) const override {
    if constexpr (requires { &Def::checkParameters; })
      return Def::checkParameters(p);
    else
      return {};
  }
  double continuousValue(int parameter, const double* p, double t, const double* q,
                         const double* y) const override {
    if constexpr (requires { &Def::continuousValue; })
      return Def::continuousValue(parameter, p, t, q, y);
    else
      return SystemModel::continuousValue(parameter, p, t, q, y);
  }
  bool hasStructure() const override { return kStructure; }
  void structure(const double* p, const double* q, double* C) const override {
    std::fill(C, C + m() * m() * m(), 0.0);
    if constexpr (kStructure) Def::structure(p, q, C);
  }
  void structure(const double* p, const Sym* q, Sym* C) const override {
    std::fill(C, C + m() * m() * m(), Sym(0.0));
    if constexpr (kStructureOnTape)
      Def::structure(p, q, C);
    else if constexpr (kStructure)
      throw TapeError("the structure functions of '" + name() + "' cannot be taped");
  }
  bool hasForce() const override { return kForce; }
  void force(const double* p, double t, const double* q, const double* y,
             double* Q) const override {
    std::fill(Q, Q + m(), 0.0);
    if constexpr (kForce) Def::force(p, t, q, y, Q);
  }
  void force(const double* p, const Sym& t, const Sym* q, const Sym* y, Sym* Q) const override {
    std::fill(Q, Q + m(), Sym(0.0));
    if constexpr (kForceOnTape)
      Def::force(p, t, q, y, Q);
    else if constexpr (kForce)
      throw TapeError("the force of '" + name() + "' cannot be taped");
  }
  double lagrangian(const double* p, double t, const double* q, const double* y) const override {
    return Def::lagrangian(p, t, q, y);
  }
  Jet2 lagrangian(const double* p, const Jet2& t, const Jet2* q, const Jet2* y) const override {
    return Def::lagrangian(p, t, q, y);
  }
  Sym lagrangian(const double* p, const Sym& t, const Sym* q, const Sym* y) const override {
    if constexpr (kParametersOnTape)
      return Def::lagrangian(tapeParameters(p).data(), t, q, y);
    else
      return Def::lagrangian(p, t, q, y);
  }
  void constraints(const double* p, double t, const double* q, const double* y,
                   double* phi) const override {
    allConstraints(p, t, q, y, phi);
  }
  void constraints(const double* p, const Jet1& t, const Jet1* q, const Jet1* y,
                   Jet1* phi) const override {
    allConstraints(p, t, q, y, phi);
  }
  void constraints(const double* p, const Jet2& t, const Jet2* q, const Jet2* y,
                   Jet2* phi) const override {
    allConstraints(p, t, q, y, phi);
  }
  void constraints(const double* p, const Sym& t, const Sym* q, const Sym* y,
                   Sym* phi) const override {
    if constexpr (kParametersOnTape)
      allConstraints(tapeParameters(p).data(), t, q, y, phi);
    else
      allConstraints(p, t, q, y, phi);
  }
  void holonomic(const double* p, double t, const double* q, double* g) const override {
    if constexpr (requires { &Def::template holonomic<double>; }) Def::holonomic(p, t, q, g);
  }
  void holonomicJacobian(const double* p, double t, const double* q, double* G) const override {
    if constexpr (requires { &Def::template holonomic<double>; }) {
      using T = Tangent<double>;
      T tt(t), qt[kMaxCoordinates], gt[kMaxConstraints];
      for (int j = 0; j < n(); ++j) {
        for (int i = 0; i < n(); ++i) qt[i] = T(q[i], i == j ? 1.0 : 0.0);
        Def::holonomic(p, tt, qt, gt);
        for (int a = 0; a < h(); ++a) G[a + h() * j] = gt[a].d;
      }
    }
  }
  void singularities(const double* p, double t, const double* q, const double* y,
                     double* s) const override {
    if constexpr (requires { &Def::singularities; }) Def::singularities(p, t, q, y, s);
  }
  void scene(const double* p, double t, const double* q, const double* y, const double* lambda,
             SceneFrame& frame) const override {
    frame = SceneFrame{};
    if constexpr (requires { &Def::scene; }) Def::scene(p, t, q, y, lambda, frame);
  }
  void referenceFrame(const double* p, double t, const double* q, double* gamma) const override {
    std::fill(gamma, gamma + m(), 0.0);
    if constexpr (requires { &Def::referenceFrame; }) Def::referenceFrame(p, t, q, gamma);
  }

 private:
  static constexpr bool kStructure = requires(const double* d, double* c) {
    Def::structure(d, d, c);
  };
  static constexpr bool kStructureOnTape = requires(const double* d, const Sym* q, Sym* c) {
    Def::structure(d, q, c);
  };
  static constexpr bool kForce = requires(const double* d, double* f) {
    Def::force(d, 0.0, d, d, f);
  };
  static constexpr bool kForceOnTape = requires(const double* d, const Sym* q, Sym* f) {
    Def::force(d, Sym(0.0), q, q, f);
  };

  // A definition whose functions take the parameters as Sym too (template parameter P after the
  // scalar's: lagrangian<S, P>, ...) records them as the tape binds them (tapeParameter); the
  // others fold every parameter in.
  static constexpr bool kParametersOnTape = requires(const Sym* ps, const Sym& t, const Sym* q) {
    Def::lagrangian(ps, t, q, q);
  };
  std::vector<Sym> tapeParameters(const double* p) const {
    std::vector<Sym> values;
    for (size_t i = 0; i < info().parameters.size(); ++i)
      values.push_back(tapeParameter(static_cast<int>(i), p[i]));
    return values;
  }

  template <class P, class S>
  void allConstraints(const P* p, const S& t, const S* q, const S* y, S* phi) const {
    if constexpr (requires { &Def::template constraints<S>; }) Def::constraints(p, t, q, y, phi);
    if constexpr (requires { &Def::template holonomic<S>; }) {
      // ġ = d/dε g(t + ε, q + ε ρ(q) y): one directional derivative over S.
      // Per-thread scratch for ρ (n×m over S; for Jet2 too large for the stack): allocated on
      // a thread's first call, reused after, so the hot path allocates nothing.
      thread_local std::vector<S> rho;
      rho.assign(n() * m(), S(0.0));
      Def::anchor(p, q, rho.data());
      using T = Tangent<S>;
      T qt[kMaxCoordinates], gt[kMaxConstraints];
      for (int i = 0; i < n(); ++i) {
        S v(0.0);
        for (int a = 0; a < m(); ++a) v = v + rho[i + n() * a] * y[a];
        qt[i] = T(q[i], v);
      }
      Def::holonomic(p, T(t, S(1.0)), qt, gt);
      for (int a = 0; a < h(); ++a) phi[k() + a] = gt[a].d;
    }
  }
};

template <class Def>
std::shared_ptr<const SystemModel> makeSystem() {
  return std::make_shared<DefinedSystem<Def>>();
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
