// Reading the scene of a model file (model_loader.h): what is drawn (bodies, arrows, points,
// a moving frame) and how the scene may be edited (the body followed, the body dragged).
#include <algorithm>
#include <cctype>

#include "core/model/model_loader.h"
#include "core/nh/scene_table.h"

namespace nh::model::loader {

namespace {

bool isHexColour(const std::string& s) {  // #rrggbb
  return s.size() == 7 && s[0] == '#' && std::all_of(s.begin() + 1, s.end(), [](char c) {
           return std::isxdigit(static_cast<unsigned char>(c)) != 0;
         });
}

}  // namespace

std::vector<Expression> Loader::vector3(const YAML::Node& node, const std::string& key, int count,
                                        Scope scope) const {
  if (!node || !node.IsSequence() || static_cast<int>(node.size()) != count)
    fail(key, node.IsDefined() ? node : root_["scene"],
         "expected a list of " + std::to_string(count) + " expressions");
  std::vector<Expression> out;
  for (int i = 0; i < count; ++i)
    out.push_back(expression(node[i], key + "[" + std::to_string(i + 1) + "]", scope));
  return out;
}

std::vector<SceneRotation> Loader::rotations(const YAML::Node& node, const std::string& key,
                                             Scope scope) const {
  std::vector<SceneRotation> out;
  if (!node) return out;
  std::vector<YAML::Node> items;
  if (node.IsMap())
    items.push_back(node);
  else if (node.IsSequence())
    for (size_t i = 0; i < node.size(); ++i) items.push_back(node[i]);
  else
    fail(key, node,
         "expected {quaternion: [w, x, y, z]} or {axis: [x, y, z], angle: a}, or a list of them");
  for (size_t i = 0; i < items.size(); ++i) {
    const std::string k = node.IsSequence() ? key + "[" + std::to_string(i + 1) + "]" : key;
    checkMap(items[i], k, {"quaternion", "axis", "angle"});
    SceneRotation r;
    if (items[i]["quaternion"]) {
      r.quaternion = vector3(items[i]["quaternion"], k + ".quaternion", 4, scope);
    } else if (items[i]["axis"] && items[i]["angle"]) {
      r.axis = vector3(items[i]["axis"], k + ".axis", 3, scope);
      r.angle = expression(items[i]["angle"], k + ".angle", scope);
    } else {
      fail(k, items[i], "expected quaternion: [w, x, y, z] or axis: [x, y, z] with angle");
    }
    out.push_back(std::move(r));
  }
  return out;
}
void Loader::readScene() {
  const YAML::Node scene = root_["scene"];
  if (!scene) return;
  checkMap(scene, "scene",
           {"extent", "follow", "moving_frame", "drag", "bodies", "arrows", "points"});
  SceneSpec& spec = data_->scene;
  spec.present = true;
  if (scene["extent"]) {
    Scope parametersOnly;
    parametersOnly.time = parametersOnly.coordinates = parametersOnly.velocities = false;
    spec.extent = expression(scene["extent"], "scene.extent", parametersOnly);
  }
  // Positions and sizes read t, q, y, the parameters and the definitions.
  spec.movingFrame = rotations(scene["moving_frame"], "scene.moving_frame", Scope{});
  std::set<std::string> bodyNames;
  if (const YAML::Node bodies = scene["bodies"]) {
    sequence(bodies, "scene.bodies");
    for (size_t i = 0; i < bodies.size(); ++i)
      spec.bodies.push_back(
          readBody(bodies[i], "scene.bodies[" + std::to_string(i + 1) + "]", bodyNames));
  }
  if (const YAML::Node arrows = scene["arrows"]) {
    sequence(arrows, "scene.arrows");
    for (size_t i = 0; i < arrows.size(); ++i)
      spec.arrows.push_back(readArrow(arrows[i], "scene.arrows[" + std::to_string(i + 1) + "]"));
  }
  if (const YAML::Node points = scene["points"]) {
    sequence(points, "scene.points");
    for (size_t i = 0; i < points.size(); ++i)
      spec.points.push_back(readPoint(points[i], "scene.points[" + std::to_string(i + 1) + "]"));
  }
  if (const YAML::Node follow = scene["follow"]) {
    info_.editing.followBody = scalar(follow, "scene.follow", "a body's name");
    if (!bodyNames.count(info_.editing.followBody))
      fail("scene.follow", follow, "no body is called '" + info_.editing.followBody + "'");
  }
  if (const YAML::Node drag = scene["drag"]) readDrag(drag, bodyNames);
}

// A body of scene.bodies; its name, used once, is added to `bodyNames`.
SceneBodySpec Loader::readBody(const YAML::Node& b, const std::string& key,
                               std::set<std::string>& bodyNames) const {
  checkMap(b, key, {"name", "shape", "position", "orientation", "size", "colour", "color"});
  SceneBodySpec body;
  body.name = scalar(b["name"], key + ".name", "a name");
  if (!bodyNames.insert(body.name).second)
    fail(key + ".name", b["name"], "two bodies are called '" + body.name + "'");
  const std::string shape = scalar(b["shape"], key + ".shape", "a shape");
  if (!shapeOfModelName(shape, body.kind))
    fail(key + ".shape", b["shape"],
         "unknown shape '" + shape + "' (allowed: " + namesOrNone(modelShapeNames()) + ")");
  body.position = vector3(b["position"], key + ".position", 3, Scope{});
  body.orientation = rotations(b["orientation"], key + ".orientation", Scope{});
  body.size = vector3(b["size"], key + ".size", 3, Scope{});
  const YAML::Node colour = b["colour"] ? b["colour"] : b["color"];
  if (colour) {
    const std::string c = scalar(colour, key + ".colour", "a colour like \"#d04030\"");
    if (!isHexColour(c))
      fail(key + ".colour", colour, "'" + c + "' is not a colour (write \"#rrggbb\")");
    const long v = std::strtol(c.c_str() + 1, nullptr, 16);
    body.colour =
        Eigen::Vector3d(((v >> 16) & 255) / 255.0, ((v >> 8) & 255) / 255.0, (v & 255) / 255.0);
  }
  return body;
}

// An arrow of scene.arrows: its origin and vector may read the multipliers too.
SceneArrowSpec Loader::readArrow(const YAML::Node& a, const std::string& key) const {
  checkMap(a, key, {"name", "kind", "origin", "vector", "unit"});
  SceneArrowSpec arrow;
  arrow.name = scalar(a["name"], key + ".name", "a name");
  if (a["unit"]) arrow.unit = scalar(a["unit"], key + ".unit", "a unit (N·m·s, say)");
  const std::string kind = scalar(a["kind"], key + ".kind", "an arrow kind");
  if (kind == "reaction")
    arrow.kind = ArrowKind::Reaction;
  else if (kind == "force")
    arrow.kind = ArrowKind::Force;
  else if (kind == "velocity")
    arrow.kind = ArrowKind::Velocity;
  else if (kind == "angular_velocity" || kind == "angular velocity")
    arrow.kind = ArrowKind::AngularVelocity;
  else
    fail(
        key + ".kind", a["kind"],
        "unknown arrow kind '" + kind + "' (allowed: reaction, force, velocity, angular_velocity)");
  Scope withLambda;
  withLambda.multipliers = true;
  arrow.origin = vector3(a["origin"], key + ".origin", 3, withLambda);
  arrow.vector = vector3(a["vector"], key + ".vector", 3, withLambda);
  return arrow;
}

ScenePointSpec Loader::readPoint(const YAML::Node& p, const std::string& key) const {
  checkMap(p, key, {"name", "position", "in_moving_frame"});
  ScenePointSpec point;
  point.name = scalar(p["name"], key + ".name", "a name");
  point.position = vector3(p["position"], key + ".position", 3, Scope{});
  if (p["in_moving_frame"])
    point.inMovingFrame = boolean(p["in_moving_frame"], key + ".in_moving_frame");
  return point;
}

// scene.drag: the body dragged, the state variables it moves and the velocity arrow.
void Loader::readDrag(const YAML::Node& drag, const std::set<std::string>& bodyNames) {
  checkMap(drag, "scene.drag", {"body", "x", "y", "arrow", "vx", "vy", "body_axes"});
  DragHandle d;
  d.body = scalar(drag["body"], "scene.drag.body", "a body's name");
  if (!bodyNames.count(d.body))
    fail("scene.drag.body", drag["body"], "no body is called '" + d.body + "'");
  auto stateName = [&](const char* k, bool velocity) -> std::string {
    if (!drag[k]) return "";
    const std::string v = scalar(drag[k], std::string("scene.drag.") + k, "a name");
    if ((velocity ? velocityIndex(v) : coordinateIndex(v)) < 0)
      fail(std::string("scene.drag.") + k, drag[k],
           "'" + v + "' is not a " + (velocity ? "velocity" : "coordinate"));
    return v;
  };
  d.x = stateName("x", false);
  d.y = stateName("y", false);
  d.vx = stateName("vx", true);
  d.vy = stateName("vy", true);
  if (drag["arrow"]) d.arrow = scalar(drag["arrow"], "scene.drag.arrow", "an arrow's name");
  if (drag["body_axes"]) d.velocityInBodyAxes = boolean(drag["body_axes"], "scene.drag.body_axes");
  info_.editing.drag = d;
}
}  // namespace nh::model::loader
// SPDX-License-Identifier: GPL-3.0-or-later
