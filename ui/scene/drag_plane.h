// Where a drag in the 3D view moves a scene body and which coordinates that changes: the
// body's position as a function of chosen state variables (differentiated numerically through
// the system's own scene, so a body on an incline is dragged in the incline's plane and one on
// the ground in the horizontal plane), the plane a drag moves it in, and the change of those
// variables for a move within the plane. Used by SceneView for the initial-state handles and
// for Plan a motion's target ghost.
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "core/nh/system.h"

namespace nhui {

// The scene of `system` drawn at a full state (q then the velocities, as a run records it),
// parameters `p` and time `t`, with zero multipliers.
void sceneAtState(const nh::SystemModel& system, const double* p, double t,
                  const std::vector<double>& state, nh::SceneFrame& frame);

struct DragPlane {
  Eigen::Vector3d point = Eigen::Vector3d::Zero();  // the body's centre at the press
  // Columns: the plane's first axis (along the first variable's motion), its second (in the
  // plane, at right angles) and its normal; the identity for a body moving on the ground.
  Eigen::Matrix3d axes = Eigen::Matrix3d::Identity();
  std::vector<int> variables;                         // state indices that move the body
  Eigen::Matrix<double, 3, Eigen::Dynamic> jacobian;  // d position / d variable, by column

  // Where the ray (origin, unit direction) meets the plane through `through` parallel to this
  // one; false when it runs along the plane or meets it behind the eye.
  bool intersect(const double origin[3], const double direction[3], const Eigen::Vector3d& through,
                 Eigen::Vector3d& hit) const;
  // The change of the variables (same order) that moves the body by `move` (least squares,
  // the smallest change where several variables move it the same way).
  Eigen::VectorXd change(const Eigen::Vector3d& move) const;
};

// The plane in which `candidates` (state indices) move the scene body `body` of the state
// `state`. Of the candidates, those whose motion is at least half the largest one's are kept
// (a heading that swings a car's centre a little is left alone). Two kept variables moving the
// body in independent directions span the plane; otherwise it is horizontal. False when the
// body is not in the scene or no candidate moves it.
bool bodyDragPlane(const nh::SystemModel& system, const double* p, double t,
                   const std::vector<double>& state, const std::string& body,
                   const std::vector<int>& candidates, DragPlane& plane);

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
