// The scene's bodies as VTK actors: meshes by kind from the scene table, their actors by role,
// and the radius a table is drawn with (ui/scene/body_meshes.h).
#include "ui/scene/body_meshes.h"

#include <vtkActor.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>

#include <algorithm>
#include <cmath>

#include "core/nh/scene_table.h"
#include "ui/scene/scene_geometry.h"

namespace nhui {

namespace {

using geometry::Rgb;

vtkSmartPointer<vtkActor> meshActor(vtkPolyData* poly) {
  vtkNew<vtkPolyDataMapper> mapper;
  mapper->SetInputData(poly);
  mapper->SetScalarModeToUseCellData();
  mapper->SetColorModeToDirectScalars();
  auto actor = vtkSmartPointer<vtkActor>::New();
  actor->SetMapper(mapper);
  return actor;
}

}  // namespace

Eigen::Vector3d solidColour(const nh::SceneBody& body) {
  if (!(body.colour.minCoeff() >= 0)) return Eigen::Vector3d::Constant(-1);
  return body.colour.cwiseMin(1.0);
}

double drawnTableRadius(const nh::SceneFrame& frame, const nh::SceneBody& table,
                        const std::vector<nh::SceneBody>& guests) {
  const double size = std::abs(table.size.x());
  if (!(size > 0) || !table.position.allFinite()) return size;
  const Eigen::Vector3d normal = table.orientation * Eigen::Vector3d::UnitZ();
  double needed = 0;
  std::vector<const nh::SceneBody*> bodies;
  for (const auto& b : frame.bodies) bodies.push_back(&b);
  for (const auto& b : guests) bodies.push_back(&b);
  for (const nh::SceneBody* body : bodies) {
    const nh::SceneBody& b = *body;
    if (nh::shapeRow(b.kind).scenery) continue;
    if (!b.position.allFinite()) continue;
    const Eigen::Vector3d rel = b.position - table.position;
    const double inPlane = (rel - rel.dot(normal) * normal).norm();
    // Only bodies that are on the table (near its plane), with a margin of a tenth of it.
    const double bound = nh::boundingRadius(b);
    if (std::abs(rel.dot(normal)) > 2 * bound + 0.05 * size) continue;
    needed = std::max(needed, inPlane + bound + 0.1 * size);
  }
  double radius = size;
  for (int doubled = 0; radius < needed && doubled < 40; ++doubled) radius *= 2;
  return radius;
}

BodyMesh bodyMesh(const nh::SceneBody& sb, const Eigen::Vector3d& size) {
  BodyMesh m;
  const nh::ShapeKind kind = sb.kind;
  auto colour = [kind](const char* role) { return nh::shapeColour(kind, role); };
  switch (kind) {
    case nh::ShapeKind::Sphere:
      // Semi-axes along the body's x, y, z (an ellipsoid; the table says which stand in for
      // which).
      m.poly =
          geometry::checkeredSphere(nh::drawnSize(kind, sb.size), colour("a"), colour("b"), 64);
      break;
    case nh::ShapeKind::Table: {
      // A larger table keeps the model size's checker near the centre (up to 96 rings).
      const double grown = size.x() / std::max(1e-12, std::abs(sb.size.x()));
      m.poly = geometry::table(size.x(), sb.size.z(),
                               static_cast<int>(std::clamp(6 * grown, 6.0, 96.0)));
      m.specular = 0.12;
      break;
    }
    case nh::ShapeKind::Disk:
      m.poly = geometry::sectoredDisk(sb.size.x(), sb.size.y(), colour("a"), colour("b"));
      break;
    case nh::ShapeKind::Sleigh:
      m.poly = geometry::sleigh(sb.size);
      break;
    case nh::ShapeKind::Particle:
      m.poly = geometry::sphere(sb.size.x(), colour("body"), 40);
      break;
    case nh::ShapeKind::Body:
      m.poly = geometry::box(sb.size, nh::faceColours(kind));
      break;
    case nh::ShapeKind::Guide:
      if (sb.size.z() == 0) {
        m.poly = geometry::square(sb.size.x(), sb.size.y(), colour("plane"));
        m.opacity = nh::kFlatGuideOpacity;
      } else {
        m.poly = geometry::box(sb.size, nh::faceColours(kind));
        m.specular = 0.8;
      }
      break;
    case nh::ShapeKind::Cylinder:
      m.poly =
          geometry::stripedCylinder(sb.size.x(), sb.size.y(), colour("side"), colour("stripe"));
      break;
  }
  return m;
}

vtkSmartPointer<vtkActor> bodyActor(const BodyMesh& mesh, nh::ShapeKind kind,
                                    const Eigen::Vector3d& colour, SceneRole role) {
  vtkSmartPointer<vtkActor> actor = meshActor(mesh.poly);
  vtkProperty* p = actor->GetProperty();
  p->SetSpecular(mesh.specular);
  p->SetSpecularPower(40);
  p->SetDiffuse(0.85);
  p->SetAmbient(0.12);
  p->SetOpacity(mesh.opacity);
  if (kind == nh::ShapeKind::Body || kind == nh::ShapeKind::Sleigh) {
    // Flat faces turned away from both lights would go black (a thin plate seen from its
    // back was a dark slab): more ambient keeps their colour readable.
    p->SetInterpolationToFlat();
    p->SetAmbient(0.35);
    p->SetDiffuse(0.7);
  }
  if (colour.x() >= 0) {
    actor->GetMapper()->ScalarVisibilityOff();
    p->SetColor(colour.x(), colour.y(), colour.z());
  }
  if (role == SceneRole::Comparison) {
    actor->GetMapper()->ScalarVisibilityOff();
    const nh::Rgb orange = nh::kRunColours[1].onDark;
    p->SetColor(orange.r / 255.0, orange.g / 255.0, orange.b / 255.0);
    p->SetOpacity(nh::kComparisonOpacity);
  }
  if (role == SceneRole::Ghost) p->SetOpacity(nh::kGhostOpacity * mesh.opacity);
  return actor;
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
