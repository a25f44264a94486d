// The scene's bodies as VTK actors (the scene sync's part for bodies, used by SceneRenderer):
// each kind's mesh built from its row of the scene table (core/nh/scene_table.h: sizes and
// colours) with ui/scene/scene_geometry.h, lit and coloured for the renderer's role, and the
// radius a table is drawn with so that no body is drawn off it.
#pragma once

#include <vtkSmartPointer.h>

#include <Eigen/Core>
#include <vector>

#include "core/nh/system.h"
#include "ui/scene/scene_renderer.h"

class vtkActor;
class vtkPolyData;

namespace nhui {

// The radius a table is drawn with. The models' tables are planes without an edge; a table
// is drawn with its model size until a body on it (of `frame`, or a `guest` of another run)
// gets near that edge, then twice, four times … as large (few rebuilds), so that no body is
// ever drawn off the surface it is on.
double drawnTableRadius(const nh::SceneFrame& frame, const nh::SceneBody& table,
                        const std::vector<nh::SceneBody>& guests);

// A body's mesh and how its surface reflects.
struct BodyMesh {
  vtkSmartPointer<vtkPolyData> poly;
  double specular = 0.3, opacity = 1.0;
};

// The mesh of `body` drawn with `size` (its own, except a table's radius, which may be grown
// beyond the model's: drawnTableRadius).
BodyMesh bodyMesh(const nh::SceneBody& body, const Eigen::Vector3d& size);

// A body's solid colour clamped to 0..1, or (-1, -1, -1) for the shape's own colours (any
// negative or NaN component).
Eigen::Vector3d solidColour(const nh::SceneBody& body);

// The actor of a body's mesh, lit and coloured: its solid colour when it has one
// (solidColour), translucent orange for the comparison run, faint for a ghost.
vtkSmartPointer<vtkActor> bodyActor(const BodyMesh& mesh, nh::ShapeKind kind,
                                    const Eigen::Vector3d& colour, SceneRole role);

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
