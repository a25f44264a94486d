// DragPlane (drag_plane.h): a body's position differentiated through the system's scene by
// central differences, the plane its variables move it in, the ray's meeting with that plane
// and the least-squares change of the variables for a move in it.
#include "ui/scene/drag_plane.h"

#include <Eigen/Geometry>
#include <Eigen/QR>
#include <algorithm>
#include <cmath>

namespace nhui {

namespace {

bool bodyPosition(const nh::SceneFrame& frame, const std::string& name, Eigen::Vector3d& at) {
  for (const auto& b : frame.bodies)
    if (b.name == name) {
      at = b.position;
      return true;
    }
  return false;
}

}  // namespace

void sceneAtState(const nh::SystemModel& system, const double* p, double t,
                  const std::vector<double>& state, nh::SceneFrame& frame) {
  const std::vector<double> lambda(std::max(1, system.k()), 0.0);
  system.scene(p, t, state.data(), state.data() + system.n(), lambda.data(), frame);
}

bool DragPlane::intersect(const double origin[3], const double direction[3],
                          const Eigen::Vector3d& through, Eigen::Vector3d& hit) const {
  const Eigen::Vector3d o(origin[0], origin[1], origin[2]),
      d(direction[0], direction[1], direction[2]);
  const Eigen::Vector3d n = axes.col(2);
  const double along = d.dot(n);
  if (std::abs(along) < 1e-9) return false;
  const double s = (through - o).dot(n) / along;
  if (s <= 0) return false;
  hit = o + s * d;
  return true;
}

Eigen::VectorXd DragPlane::change(const Eigen::Vector3d& move) const {
  if (jacobian.cols() == 0) return Eigen::VectorXd();
  return jacobian.completeOrthogonalDecomposition().solve(move);
}

bool bodyDragPlane(const nh::SystemModel& system, const double* p, double t,
                   const std::vector<double>& state, const std::string& body,
                   const std::vector<int>& candidates, DragPlane& plane) {
  nh::SceneFrame frame;
  sceneAtState(system, p, t, state, frame);
  if (!bodyPosition(frame, body, plane.point)) return false;
  // Central differences; the scenes' positions are smooth in the variables (mostly linear).
  std::vector<Eigen::Vector3d> columns;
  double largest = 0;
  for (int index : candidates) {
    std::vector<double> x = state;
    const double h = 1e-6 * std::max(1.0, std::abs(state[index]));
    Eigen::Vector3d ahead = Eigen::Vector3d::Constant(NAN), behind = ahead;
    x[index] = state[index] + h;
    sceneAtState(system, p, t, x, frame);
    bodyPosition(frame, body, ahead);
    x[index] = state[index] - h;
    sceneAtState(system, p, t, x, frame);
    bodyPosition(frame, body, behind);
    columns.push_back((ahead - behind) / (2 * h));
    if (columns.back().allFinite()) largest = std::max(largest, columns.back().norm());
  }
  plane.variables.clear();
  std::vector<Eigen::Vector3d> kept;
  for (size_t i = 0; i < columns.size(); ++i)
    if (columns[i].allFinite() && columns[i].norm() >= 0.5 * largest && largest > 1e-12) {
      plane.variables.push_back(candidates[i]);
      kept.push_back(columns[i]);
    }
  if (kept.empty()) return false;
  plane.jacobian.resize(3, static_cast<Eigen::Index>(kept.size()));
  for (size_t i = 0; i < kept.size(); ++i)
    plane.jacobian.col(static_cast<Eigen::Index>(i)) = kept[i];
  plane.axes = Eigen::Matrix3d::Identity();
  if (kept.size() == 2) {
    const Eigen::Vector3d first = kept[0].normalized();
    const Eigen::Vector3d across = kept[1] - kept[1].dot(first) * first;
    if (across.norm() > 1e-6 * kept[1].norm()) {
      plane.axes.col(0) = first;
      plane.axes.col(1) = across.normalized();
      plane.axes.col(2) = first.cross(plane.axes.col(1));
    }
  }
  return true;
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
