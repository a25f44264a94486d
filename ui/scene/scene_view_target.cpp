// SceneView's target ghost for Plan a motion (scene_view.h): the start drawn faint at the
// dialog's target coordinates; a drag of its body moves it in the plane its coordinates move
// it in (the same DragPlane as the initial-state handle), Ctrl+drag turns its attitude like a
// trackball, and every move is emitted for the dialog's fields.
#include <vtkCamera.h>
#include <vtkRenderer.h>

#include <Eigen/Geometry>
#include <QLineF>
#include <QMouseEvent>
#include <algorithm>
#include <cmath>

#include "ui/scene/scene_view.h"
#include "ui/sim/simulation_controller.h"

namespace nhui {

namespace {

constexpr double kTurnPerPixel = 0.01;  // radians of a turn per pixel dragged

bool inQuaternion(const nh::SystemInfo& info, int index) {
  return std::any_of(
      info.quaternions.begin(), info.quaternions.end(),
      [&](const nh::QuaternionSlot& s) { return index >= s.first && index < s.first + 4; });
}

}  // namespace

void SceneView::setTargetGhost(const std::map<std::string, double>& coordinates) {
  targetGhost_ = coordinates;
  ++optionsSerial_;
  refresh();
}

bool SceneView::targetState(std::vector<double>& state) const {
  state = controller_->initialState();
  const auto& names = controller_->system().info().coordinates;
  for (const auto& [name, value] : targetGhost_) {
    const auto it = std::find(names.begin(), names.end(), name);
    const auto index = static_cast<size_t>(it - names.begin());
    if (it != names.end() && index < state.size()) state[index] = value;
  }
  return !state.empty();
}

std::string SceneView::targetBody() const {
  if (const nh::DragHandle* handle = dragHandle()) return handle->body;
  const std::string& follow = controller_->system().info().editing.followBody;
  for (const auto& b : targetFrame_.bodies)
    if (b.name == follow) return follow;
  return targetFrame_.bodies.empty() ? std::string() : targetFrame_.bodies.front().name;
}

void SceneView::updateTargetGhost() {
  std::vector<double> state;
  const bool shown = !targetGhost_.empty() && targetState(state);
  planEdit_->setVisible(shown);
  if (!shown) {
    targetFrame_ = nh::SceneFrame{};
    return;
  }
  const RunHistory& run = controller_->primary();
  sceneAtState(controller_->system(), controller_->parameters().data(),
               run.empty() ? 0.0 : run.firstTime(), state, targetFrame_);
  planEdit_->update(targetFrame_, {});
}

std::optional<QPointF> SceneView::targetGhostPoint() const {
  const std::string name = targetBody();
  for (const auto& b : targetFrame_.bodies)
    if (b.name == name && !targetGhost_.empty()) {
      QPointF centre;
      double radius = 0;
      grabDisc(b, centre, radius);
      return centre;
    }
  return std::nullopt;
}

bool SceneView::pressTargetGhost(QMouseEvent* event) {
  if (targetGhost_.empty() || event->button() != Qt::LeftButton) return false;
  const std::string name = targetBody();
  const auto body = std::find_if(targetFrame_.bodies.begin(), targetFrame_.bodies.end(),
                                 [&](const nh::SceneBody& b) { return b.name == name; });
  if (body == targetFrame_.bodies.end()) return false;
  QPointF centre;
  double radius = 0;
  grabDisc(*body, centre, radius);
  if (QLineF(centre, event->position()).length() > radius) return false;
  if (!targetState(targetStart_)) return false;
  // The drag handle's coordinates where the system names them, else every coordinate outside
  // a quaternion (bodyDragPlane keeps those that move the body most).
  const nh::SystemInfo& info = controller_->system().info();
  std::vector<int> candidates;
  const nh::StateLayout& layout = controller_->primary().layout().state;
  if (const nh::DragHandle* handle = dragHandle()) {
    for (const std::string& v : {handle->x, handle->y})
      if (const int i = layout.find(v); i >= 0) candidates.push_back(layout.index[i]);
  } else {
    for (int i = 0; i < controller_->system().n(); ++i)
      if (!inQuaternion(info, i)) candidates.push_back(i);
  }
  const RunHistory& run = controller_->primary();
  const bool moves =
      bodyDragPlane(controller_->system(), controller_->parameters().data(),
                    run.empty() ? 0.0 : run.firstTime(), targetStart_, name, candidates, plane_);
  const bool turn = (event->modifiers() & Qt::ControlModifier) || !moves;
  if (turn && info.quaternions.empty()) return false;
  if (!turn && !planePoint(event->position(), plane_.point, dragStart_)) return false;
  targetPress_ = event->position();
  drag_ = turn ? Drag::TargetTurn : Drag::Target;
  return true;
}

void SceneView::moveTargetGhost(QMouseEvent* event) {
  const nh::SystemInfo& info = controller_->system().info();
  std::map<std::string, double> moved;
  if (drag_ == Drag::Target) {
    Eigen::Vector3d hit;
    if (!planePoint(event->position(), dragStart_, hit)) return;
    const Eigen::VectorXd change = plane_.change(hit - dragStart_);
    for (size_t i = 0; i < plane_.variables.size(); ++i) {
      const auto index = static_cast<size_t>(plane_.variables[i]);
      moved[info.coordinates[index]] = targetStart_[index] + change[Eigen::Index(i)];
    }
  } else {
    // A trackball: the side facing the camera follows the mouse. The turn is made in the
    // world, on the body as drawn (a fixed tilt before the quaternion, as on the conveyor's
    // slope, is taken out): body' = R body, so q' = F⁻¹ R F q with F = body q⁻¹.
    vtkCamera* camera = renderer()->GetActiveCamera();
    double up[3], dop[3];
    camera->GetViewUp(up);
    camera->GetDirectionOfProjection(dop);
    const Eigen::Vector3d u(up[0], up[1], up[2]), d(dop[0], dop[1], dop[2]);
    const Eigen::Vector3d right = d.cross(u).normalized();
    const Eigen::Vector3d screenUp = right.cross(d).normalized();  // the view-up may lean
    const QPointF delta = event->position() - targetPress_;
    const Eigen::Vector3d along = right * delta.x() - screenUp * delta.y();
    const Eigen::Vector3d axis = along.cross(d);
    if (axis.norm() < 1e-9) return;
    const int first = info.quaternions.front().first;
    const auto at = [&](int k) { return targetStart_[static_cast<size_t>(first + k)]; };
    const Eigen::Quaterniond q = Eigen::Quaterniond(at(0), at(1), at(2), at(3)).normalized();
    Eigen::Quaterniond fixed = Eigen::Quaterniond::Identity();
    nh::SceneFrame start;
    const RunHistory& run = controller_->primary();
    sceneAtState(controller_->system(), controller_->parameters().data(),
                 run.empty() ? 0.0 : run.firstTime(), targetStart_, start);
    for (const auto& b : start.bodies)
      if (b.name == targetBody()) fixed = b.orientation * q.conjugate();
    const Eigen::Quaterniond turn(
        Eigen::AngleAxisd(kTurnPerPixel * QLineF(QPointF(), delta).length(), axis.normalized()));
    const Eigen::Quaterniond turned = (fixed.conjugate() * turn * fixed * q).normalized();
    const double components[4] = {turned.w(), turned.x(), turned.y(), turned.z()};
    for (int k = 0; k < 4; ++k)
      moved[info.coordinates[static_cast<size_t>(first + k)]] = components[k];
  }
  for (const auto& [name, value] : moved) targetGhost_[name] = value;
  ++optionsSerial_;
  emit targetGhostDragged(moved);
  refresh();
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
