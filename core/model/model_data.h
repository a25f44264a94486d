// The parsed content of a model file (docs/model-format.md): expressions as small postfix
// programs over one environment of named slots, ready to be evaluated over any scalar type.
#pragma once

#include <Eigen/Geometry>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/nh/system.h"

namespace nh::model {

enum class Op : std::uint8_t {
  Number,
  Slot,
  Neg,
  Add,
  Sub,
  Mul,
  Div,
  Pow,
  Sin,
  Cos,
  Tan,
  Asin,
  Acos,
  Atan,
  Atan2,
  Sinh,
  Cosh,
  Tanh,
  Exp,
  Log,
  Sqrt,
  Abs
};

struct Node {
  Op op = Op::Number;
  int a = -1, b = -1;  // operands: indices of earlier nodes
  double value = 0;    // Number
  int slot = -1;       // Slot
  int offset = 0;      // where the node starts in the expression's text (for messages)
  bool operator==(const Node&) const = default;
};

// Where a piece of text sits in the file (1-based; 0: unknown).
struct SourcePosition {
  int line = 0, column = 0;
  bool operator==(const SourcePosition&) const = default;
};

// One expression: nodes in evaluation order (operands first); the last one is the value.
struct Expression {
  std::vector<Node> nodes;
  std::string text;      // as written ("" for derived expressions)
  std::string key;       // the file's key it came from, e.g. "constraints[1]"
  SourcePosition where;  // of the text's first character
  bool empty() const { return nodes.empty(); }
  bool operator==(const Expression&) const = default;
};

// The environment every expression reads: one flat array of slots,
//   [t | parameters | coordinates | velocities | definitions | multipliers (scene only) |
//    controls (a control model's section and cost only)].
struct SlotLayout {
  int parameters = 0, coordinates = 0, velocities = 0, definitions = 0, multipliers = 0,
      controls = 0;
  int time() const { return 0; }
  int parameter(int i) const { return 1 + i; }
  int coordinate(int i) const { return 1 + parameters + i; }
  int velocity(int a) const { return 1 + parameters + coordinates + a; }
  int definition(int d) const { return 1 + parameters + coordinates + velocities + d; }
  int multiplier(int c) const { return definition(definitions) + c; }
  int control(int u) const { return multiplier(multipliers) + u; }
  int size() const { return control(controls); }
  bool operator==(const SlotLayout&) const = default;
};

struct StructureTerm {
  // [e_a, e_b] ∋ C^c_ab e_c. Skew (the default): a < b and C^c_ba = −C^c_ab is implied. Not
  // skew (`skew: false`): this order only, a = b allowed; nothing is implied for [e_b, e_a].
  int a = 0, b = 0, c = 0;
  Expression value;  // C^c_ab(q)
  bool skew = true;
  bool operator==(const StructureTerm&) const = default;
};

struct SceneRotation {
  std::vector<Expression> quaternion;  // four (w, x, y, z), normalised; or
  std::vector<Expression> axis;        // three, with
  Expression angle;
  bool operator==(const SceneRotation&) const = default;
};

struct SceneBodySpec {
  std::string name;
  ShapeKind kind = ShapeKind::Sphere;
  std::vector<Expression> position;  // three
  std::vector<SceneRotation> orientation;
  std::vector<Expression> size;           // three
  std::optional<Eigen::Vector3d> colour;  // 0..1
  bool operator==(const SceneBodySpec&) const = default;
};

struct SceneArrowSpec {
  std::string name;
  std::string unit;  // empty: the kind's
  ArrowKind kind = ArrowKind::Reaction;
  std::vector<Expression> origin, vector;  // three each
  bool operator==(const SceneArrowSpec&) const = default;
};

struct ScenePointSpec {
  std::string name;
  std::vector<Expression> position;  // three
  bool inMovingFrame = false;
  bool operator==(const ScenePointSpec&) const = default;
};

struct SceneSpec {
  bool present = false;
  Expression extent;  // of the parameters; empty: 1
  std::vector<SceneRotation> movingFrame;
  std::vector<SceneBodySpec> bodies;
  std::vector<SceneArrowSpec> arrows;
  std::vector<ScenePointSpec> points;
  bool operator==(const SceneSpec&) const = default;
};

// A condition on the parameters beyond their ranges: expression > 0 (strict) or ≥ 0.
struct ParameterCheck {
  Expression expression;
  bool strict = true;
  std::string message;  // what is allowed, shown when the condition fails
  bool operator==(const ParameterCheck&) const = default;
};

struct ModelData {
  std::string text;      // the file as read
  std::string fileName;  // for messages
  std::string path;      // on disk ("" : typed in or bundled)

  SlotLayout layout;
  std::vector<std::string> slotNames;  // by slot index
  std::vector<std::string> definitionNames;
  std::vector<Expression> definitions;  // in order; each may use earlier ones

  bool anchorGiven = false;
  std::vector<Expression> anchorText;  // n, as written (q̇ⁱ in terms of q and y)
  std::vector<Expression> rho;         // n·m coefficients ρⁱ_α(q), column-major; derived
  bool structureGiven = false;
  bool structureConstant = true;
  std::vector<StructureTerm> structure;
  Expression lagrangian;
  std::vector<Expression> forces;             // m (empty Expression: zero)
  std::vector<Expression> constraints;        // k
  std::vector<Expression> holonomic;          // h
  std::vector<Expression> holonomicRate;      // h: ġ = ∂g/∂t + ∂g/∂q ρ y (derived)
  std::vector<Expression> holonomicJacobian;  // h·n: ∂g/∂q, column-major (derived)
  std::vector<ParameterCheck> parameterChecks;
  std::vector<Expression> singular;  // s_i(t, q, y): the equations need s_i > 0
  std::vector<Expression> outputs;   // the file's `outputs`, in order (SystemInfo::outputs)
  // The constraints' reference frame Γ(t, q): m expressions (an empty one: 0), or none when
  // the file declares none. hasReferenceFrame: declared, or Γ = 0 satisfies the constraints
  // (linear ones, or none); set by the loader after checking the frame at sample states.
  std::vector<Expression> referenceFrame;
  bool hasReferenceFrame = false;
  // A control model: every velocity as f(t, q, u) (m, in order) and the running cost L(t, q, u).
  std::vector<Expression> controlSection;
  Expression cost;
  SceneSpec scene;
  size_t maxNodes = 1;  // the longest expression's node count (evaluation scratch)
  // What the loader accepted but every run must say, one line each naming the file: a skew
  // structure that contradicts the anchor, kept by `structure_checked: false`. nhsim prints
  // them on standard error once a run; front ends show them as they show a run's warnings.
  std::vector<std::string> loadWarnings;
  // How many definitions (the first ones, in order) each group of expressions reads,
  // computed once at load: an evaluation fills only those.
  struct DefinitionsRead {
    int lagrangian = 0, constraints = 0, forces = 0, structure = 0, holonomic = 0, singular = 0,
        referenceFrame = 0, outputs = 0;
    bool operator==(const DefinitionsRead&) const = default;
  } definitionsRead;
  // Memberwise, numbers by value: a model compiled ahead (model_archive.h) equals its file's.
  bool operator==(const ModelData&) const = default;
};

}  // namespace nh::model
// SPDX-License-Identifier: GPL-3.0-or-later
