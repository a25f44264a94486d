// Reading the dynamics of a model file (model_loader.h): the anchor, the structure, the
// Lagrangian and forces, the constraints, the reference frame, a control model's control
// section and cost, the singular places and the extra outputs.
#include <algorithm>

#include "core/model/model_loader.h"

namespace nh::model::loader {

void Loader::readDynamics() {
  readAnchor();
  readStructure();
  if (info_.isControlModel()) {
    readControlSection();
  } else {
    readLagrangianAndForces();
    readConstraints();
    readReferenceFrame();
  }
  readSingular();
  readOutputs();
}
// control_section (every velocity as f(t, q, u)) and cost (L(t, q, u)) of a control model.
void Loader::readControlSection() {
  const YAML::Node section = root_["control_section"];
  if (!section)
    fail("control_section", root_,
         "missing key 'control_section': a control model gives every velocity as an "
         "expression of t, coordinates and controls");
  if (!section.IsMap()) fail("control_section", section, "expected a map velocity → expression");
  const int m = static_cast<int>(info_.velocities.size());
  data_->controlSection.resize(m);
  std::vector<bool> seen(m, false);
  Scope scope;
  scope.velocities = false;
  scope.controls = true;
  scope.definitions = 0;
  for (const auto& kv : section) {
    const std::string v = kv.first.Scalar();
    const int a = velocityIndex(v);
    if (a < 0)
      fail("control_section." + v, kv.first,
           "'" + v + "' is not a velocity (velocities: " + namesOrNone(info_.velocities) + ")");
    if (seen[a]) fail("control_section." + v, kv.first, "the velocity '" + v + "' has two entries");
    seen[a] = true;
    data_->controlSection[a] = expression(kv.second, "control_section." + v, scope);
  }
  for (int a = 0; a < m; ++a)
    if (!seen[a])
      fail("control_section", section,
           "no entry for the velocity '" + info_.velocities[a] +
               "' (the section gives every velocity as f(t, q, u))");
  if (!root_["cost"])
    fail("cost", root_, "missing key 'cost': the running cost L(t, q, u) to minimise");
  data_->cost = expression(root_["cost"], "cost", scope);
}

// anchor: q̇ of every coordinate as an expression of q and the velocities.
void Loader::readAnchor() {
  const int n = static_cast<int>(info_.coordinates.size());
  const int m = static_cast<int>(info_.velocities.size());
  const YAML::Node anchor = root_["anchor"];
  if (!anchor) {
    if (n != 0 && n != m)
      fail("anchor", root_,
           "missing key 'anchor': with " + std::to_string(n) + " coordinates and " +
               std::to_string(m) + " velocities, say how q̇ depends on the velocities");
    return;
  }
  if (!anchor.IsMap()) fail("anchor", anchor, "expected a map coordinate → expression for q̇");
  data_->anchorGiven = true;
  data_->anchorText.resize(n);
  std::vector<bool> seen(n, false);
  for (const auto& kv : anchor) {
    const std::string c = kv.first.Scalar();
    const int i = coordinateIndex(c);
    if (i < 0)
      fail("anchor." + c, kv.first,
           "'" + c + "' is not a coordinate (coordinates: " + namesOrNone(info_.coordinates) + ")");
    if (seen[i]) fail("anchor." + c, kv.first, "the coordinate '" + c + "' has two entries");
    seen[i] = true;
    Scope s;
    s.time = false;
    data_->anchorText[i] = expression(kv.second, "anchor." + c, s);
  }
  for (int i = 0; i < n; ++i)
    if (!seen[i])
      fail("anchor", anchor,
           "no entry for the coordinate '" + info_.coordinates[i] +
               "' (the anchor gives q̇ of every coordinate)");
}

// structure: a list of {bracket: [a, b], equals: {c: C^c_ab}, skew: true | false}. A skew
// entry (the default) gives [e_a, e_b] and implies [e_b, e_a] = −[e_a, e_b]; an entry with
// `skew: false` gives [e_a, e_b] only (a general algebroid's bracket, theory: general
// algebroids), so both orders of such a pair are written out and [e_a, e_a] may be non-zero.
void Loader::readStructure() {
  const YAML::Node structure = root_["structure"];
  if (!structure) return;
  data_->structureGiven = true;
  sequence(structure, "structure");
  BracketsSeen seen;
  for (size_t e = 0; e < structure.size(); ++e)
    readStructureEntry(structure[e], "structure[" + std::to_string(e + 1) + "]", seen);
}

// The entry's bracket [a, b] as velocity indices, refused when it repeats or contradicts an
// earlier entry.
std::pair<int, int> Loader::readBracket(const YAML::Node& entry, const std::string& key, bool skew,
                                        BracketsSeen& seen) {
  const YAML::Node br = entry["bracket"];
  if (!br || !br.IsSequence() || br.size() != 2)
    fail(key + ".bracket", br.IsDefined() ? br : entry, "expected [a, b], two velocities");
  const int a = velocityIndex(br[0].IsScalar() ? br[0].Scalar() : "");
  const int b = velocityIndex(br[1].IsScalar() ? br[1].Scalar() : "");
  if (a < 0 || b < 0)
    fail(key + ".bracket", br,
         "a bracket of velocities is needed (velocities: " + namesOrNone(info_.velocities) + ")");
  if (a == b && skew)
    fail(key + ".bracket", br,
         "[e_a, e_a] is zero for a skew bracket; give two different velocities, or add "
         "`skew: false` for a bracket that is not skew");
  const std::string shown = "[" + info_.velocities[a] + ", " + info_.velocities[b] + "]";
  const auto [declared, first] = seen.skewOf.insert({{std::min(a, b), std::max(a, b)}, skew});
  if (!first && declared->second != skew)
    fail(key + ".bracket", br,
         "the pair " + shown +
             " is given both as a skew bracket and with `skew: false`; declare each pair one "
             "way");
  if (!first && skew)
    fail(key + ".bracket", br, "this bracket is given twice (skew-symmetry is implied)");
  if (!skew && !seen.ordered.insert({a, b}).second)
    fail(key + ".bracket", br,
         "the bracket " + shown + " is given twice (with `skew: false` each order is given once)");
  return {a, b};
}

void Loader::readStructureEntry(const YAML::Node& entry, const std::string& key,
                                BracketsSeen& seen) {
  checkMap(entry, key, {"bracket", "equals", "skew"});
  const bool skew = !entry["skew"] || boolean(entry["skew"], key + ".skew");
  auto [a, b] = readBracket(entry, key, skew, seen);
  const bool backwards = skew && a > b;  // stored as [e_b, e_a] = −(the given value)
  if (backwards) std::swap(a, b);
  if (skew) bracketEntries_[{a, b}] = {key + ".bracket", entry["bracket"]};
  const YAML::Node eq = entry["equals"];
  if (!eq || !eq.IsMap())
    fail(key + ".equals", eq.IsDefined() ? eq : entry, "expected a map velocity → expression");
  for (const auto& kv : eq) {
    const int c = velocityIndex(kv.first.Scalar());
    if (c < 0)
      fail(key + ".equals." + kv.first.Scalar(), kv.first,
           "'" + kv.first.Scalar() +
               "' is not a velocity (velocities: " + namesOrNone(info_.velocities) + ")");
    Scope s;
    s.time = false;
    s.velocities = false;
    StructureTerm term;
    term.a = a;
    term.b = b;
    term.c = c;
    term.skew = skew;
    term.value = expression(kv.second, key + ".equals." + kv.first.Scalar(), s);
    if (backwards) {
      Expression& v = term.value;
      Node neg;
      neg.op = Op::Neg;
      neg.a = static_cast<int>(v.nodes.size()) - 1;
      v.nodes.push_back(neg);
    }
    data_->structure.push_back(std::move(term));
  }
}

void Loader::readLagrangianAndForces() {
  if (!root_["lagrangian"]) fail("lagrangian", root_, "missing key 'lagrangian'");
  data_->lagrangian = expression(root_["lagrangian"], "lagrangian", Scope{});
  data_->forces.resize(info_.velocities.size());
  if (const YAML::Node forces = root_["forces"]) {
    if (!forces.IsMap()) fail("forces", forces, "expected a map velocity → expression");
    for (const auto& kv : forces) {
      const int a = velocityIndex(kv.first.Scalar());
      if (a < 0)
        fail("forces." + kv.first.Scalar(), kv.first,
             "'" + kv.first.Scalar() +
                 "' is not a velocity (velocities: " + namesOrNone(info_.velocities) + ")");
      data_->forces[a] = expression(kv.second, "forces." + kv.first.Scalar(), Scope{});
    }
  }
}

// constraints (Φ, of t, q and y) and holonomic (g, of t and q), at most as many as
// velocities.
void Loader::readConstraints() {
  const int m = static_cast<int>(info_.velocities.size());
  if (const YAML::Node c = root_["constraints"]) {
    for (size_t i = 0; i < c.size(); ++i)
      data_->constraints.push_back(
          expression(c[i], "constraints[" + std::to_string(i + 1) + "]", Scope{}));
  }
  if (const YAML::Node g = root_["holonomic"]) {
    Scope s;
    s.velocities = false;
    for (size_t i = 0; i < g.size(); ++i)
      data_->holonomic.push_back(expression(g[i], "holonomic[" + std::to_string(i + 1) + "]", s));
  }
  const int k = static_cast<int>(data_->constraints.size());
  const int h = static_cast<int>(data_->holonomic.size());
  if (k + h > m)
    fail(k > 0 ? "constraints" : "holonomic", root_[k > 0 ? "constraints" : "holonomic"],
         std::to_string(k + h) + " constraints on " + std::to_string(m) +
             " velocities: at most as many independent constraints as velocities");
  if (k + h > kMaxConstraints)
    fail("constraints", root_["constraints"],
         std::to_string(k + h) + " constraints; at most " + std::to_string(kMaxConstraints) +
             " are supported");
  info_.constraintCount = k;
  info_.holonomicCount = h;
}

// reference_frame: the constraints' reference frame Γ(t, q), a velocity expression of t, the
// coordinates and the parameters for the velocities named (the others 0). Checked against the
// constraints once the system is built (checkReferenceFrame).
void Loader::readReferenceFrame() {
  const YAML::Node frame = root_["reference_frame"];
  if (!frame) return;
  if (!frame.IsMap()) fail("reference_frame", frame, "expected a map velocity → expression");
  Scope scope;
  scope.velocities = false;
  data_->referenceFrame.resize(info_.velocities.size());
  for (const auto& kv : frame) {
    const std::string v = kv.first.Scalar();
    const std::string key = "reference_frame." + v;
    const int a = velocityIndex(v);
    if (a < 0)
      fail(key, kv.first,
           "'" + v + "' is not a velocity (velocities: " + namesOrNone(info_.velocities) + ")");
    data_->referenceFrame[a] = expression(kv.second, key, scope);
  }
}

// Where the equations are not defined (ext): the run stops where an expression reaches 0.
void Loader::readSingular() {
  const YAML::Node singular = root_["singular"];
  if (!singular) return;
  sequence(singular, "singular");
  for (size_t i = 0; i < singular.size(); ++i) {
    const std::string key = "singular[" + std::to_string(i + 1) + "]";
    const YAML::Node e = singular[i];
    checkMap(e, key, {"expression", "message"});
    if (!e["expression"]) fail(key, e, "missing key 'expression'");
    data_->singular.push_back(expression(e["expression"], key + ".expression", Scope{}));
    info_.singularities.push_back(e["message"] ? scalar(e["message"], key + ".message", "text")
                                               : "'" + data_->singular.back().text + "' reached 0");
  }
}

// Extra quantities to record (ext): `outputs: {H: expression, …}`, each an output column
// named by its key, after the multipliers; its expression reads t, the parameters, the
// coordinates, the velocities and the definitions.
void Loader::readOutputs() {
  const YAML::Node outputs = root_["outputs"];
  if (!outputs) return;
  if (!outputs.IsMap()) fail("outputs", outputs, "expected a map name → expression");
  const std::vector<std::string> reserved = {"t", "energy", "energy_frame", "residual",
                                             "energy_error"};
  for (const auto& kv : outputs) {
    const std::string key = "outputs." + kv.first.Scalar();
    const std::string n = identifier(kv.first, key);
    const bool prefixed = n.rfind("phi_", 0) == 0 || n.rfind("g_", 0) == 0 ||
                          n.rfind("lambda_", 0) == 0 || n.rfind("p_", 0) == 0;
    if (prefixed || std::find(reserved.begin(), reserved.end(), n) != reserved.end())
      fail(key, kv.first,
           "'" + n + "' is the name of a recorded column (t, energy, energy_frame, residual, " +
               "energy_error, phi_…, g_…, lambda_…, p_…): choose another");
    declare(n, kv.first, key);
    data_->outputs.push_back(expression(kv.second, key, Scope{}));
    info_.outputs.push_back(n);
  }
}
}  // namespace nh::model::loader
// SPDX-License-Identifier: GPL-3.0-or-later
