// The scene's meshes (scene_geometry.h): a mesh builder with per-cell colours and normals, and
// the patterned spheres, table, disks, cylinders, boxes, sleigh and ground grid.
#include "ui/scene/scene_geometry.h"

#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkFloatArray.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataNormals.h>
#include <vtkSphereSource.h>
#include <vtkUnsignedCharArray.h>

#include <cmath>
#include <vector>

#include "core/nh/scene_table.h"

namespace nhui::geometry {

namespace {

// Accumulates flat or smooth faces with per-vertex normals and per-cell colours.
class MeshBuilder {
 public:
  MeshBuilder() {
    normals_->SetNumberOfComponents(3);
    normals_->SetName("Normals");
    colours_->SetNumberOfComponents(3);
    colours_->SetName("Colors");
  }
  vtkIdType vertex(const Eigen::Vector3d& p, const Eigen::Vector3d& n) {
    normals_->InsertNextTuple3(n.x(), n.y(), n.z());
    return points_->InsertNextPoint(p.x(), p.y(), p.z());
  }
  void face(std::initializer_list<vtkIdType> ids, Rgb c) {
    polys_->InsertNextCell(static_cast<vtkIdType>(ids.size()));
    for (vtkIdType id : ids) polys_->InsertCellPoint(id);
    colours_->InsertNextTuple3(c.r, c.g, c.b);
  }
  // A flat quad with its own vertices (hard edges).
  void flatQuad(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c,
                const Eigen::Vector3d& d, Rgb colour) {
    const Eigen::Vector3d n = (b - a).cross(d - a).normalized();
    face({vertex(a, n), vertex(b, n), vertex(c, n), vertex(d, n)}, colour);
  }
  void flatTriangle(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c,
                    Rgb colour) {
    const Eigen::Vector3d n = (b - a).cross(c - a).normalized();
    face({vertex(a, n), vertex(b, n), vertex(c, n)}, colour);
  }
  vtkSmartPointer<vtkPolyData> build() {
    auto poly = vtkSmartPointer<vtkPolyData>::New();
    poly->SetPoints(points_);
    poly->SetPolys(polys_);
    poly->GetPointData()->SetNormals(normals_);
    poly->GetCellData()->SetScalars(colours_);
    return poly;
  }

 private:
  vtkNew<vtkPoints> points_;
  vtkNew<vtkCellArray> polys_;
  vtkNew<vtkFloatArray> normals_;
  vtkNew<vtkUnsignedCharArray> colours_;
};

Rgb mix(Rgb a, Rgb b, double t) {
  auto m = [t](std::uint8_t x, std::uint8_t y) {
    return static_cast<std::uint8_t>(std::lround(x + (y - x) * t));
  };
  return {m(a.r, b.r), m(a.g, b.g), m(a.b, b.b)};
}

}  // namespace

vtkSmartPointer<vtkPolyData> sphere(double radius, Rgb colour, int resolution) {
  vtkNew<vtkSphereSource> source;
  source->SetRadius(radius);
  source->SetThetaResolution(resolution);
  source->SetPhiResolution(resolution / 2 + 1);
  source->Update();
  auto poly = vtkSmartPointer<vtkPolyData>::New();
  poly->DeepCopy(source->GetOutput());
  vtkNew<vtkUnsignedCharArray> colours;
  colours->SetNumberOfComponents(3);
  colours->SetName("Colors");
  for (vtkIdType c = 0; c < poly->GetNumberOfCells(); ++c)
    colours->InsertNextTuple3(colour.r, colour.g, colour.b);
  poly->GetCellData()->SetScalars(colours);
  return poly;
}

vtkSmartPointer<vtkPolyData> checkeredSphere(const Eigen::Vector3d& radii, Rgb a, Rgb b,
                                             int resolution) {
  // Smooth sphere built on a latitude/longitude grid whose lines include the octant borders,
  // stretched to the ellipsoid (the normal of x = D n is ∝ D⁻¹ n).
  const int nLon = std::max(8, resolution / 4 * 4), nLat = std::max(8, resolution / 4 * 2);
  MeshBuilder mesh;
  std::vector<vtkIdType> ids((nLat + 1) * (nLon + 1));
  for (int i = 0; i <= nLat; ++i) {
    const double theta = M_PI * i / nLat;  // from the north pole
    for (int j = 0; j <= nLon; ++j) {
      const double phi = 2 * M_PI * j / nLon;
      const Eigen::Vector3d n(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi),
                              std::cos(theta));
      ids[i * (nLon + 1) + j] =
          mesh.vertex(radii.cwiseProduct(n), n.cwiseQuotient(radii).normalized());
    }
  }
  const Rgb band{40, 40, 48};
  for (int i = 0; i < nLat; ++i) {
    for (int j = 0; j < nLon; ++j) {
      const bool north = i < nLat / 2;
      const int quadrant = j / (nLon / 4);
      Rgb c = ((quadrant % 2 == 0) == north) ? a : b;
      // Thin band next to the equator makes the spin axis readable.
      if (i == nLat / 2 - 1 || i == nLat / 2) c = mix(c, band, 0.35);
      const vtkIdType p00 = ids[i * (nLon + 1) + j], p01 = ids[i * (nLon + 1) + j + 1];
      const vtkIdType p10 = ids[(i + 1) * (nLon + 1) + j], p11 = ids[(i + 1) * (nLon + 1) + j + 1];
      mesh.face({p00, p10, p11, p01}, c);
    }
  }
  return mesh.build();
}

vtkSmartPointer<vtkPolyData> table(double radius, double thickness, int rings) {
  const int sectors = 24;
  const auto colour = [](const char* role) { return nh::shapeColour(nh::ShapeKind::Table, role); };
  const Rgb light = colour("light"), dark = colour("dark"), marker = colour("marker");
  const Rgb rim = colour("rim");
  MeshBuilder mesh;
  const Eigen::Vector3d up(0, 0, 1);
  auto at = [&](double r, double phi, double z) {
    return Eigen::Vector3d(r * std::cos(phi), r * std::sin(phi), z);
  };
  for (int s = 0; s < sectors; ++s) {
    const double p0 = 2 * M_PI * s / sectors, p1 = 2 * M_PI * (s + 1) / sectors;
    for (int k = 0; k < rings; ++k) {
      const double r0 = radius * k / rings, r1 = radius * (k + 1) / rings;
      Rgb c = ((s + k) % 2 == 0) ? light : dark;
      if (s == 0) c = marker;  // one sector stands out so the rotation is visible
      if (k == 0) {
        mesh.face({mesh.vertex(at(0, 0, 0), up), mesh.vertex(at(r1, p0, 0), up),
                   mesh.vertex(at(r1, p1, 0), up)},
                  c);
      } else {
        mesh.face({mesh.vertex(at(r0, p0, 0), up), mesh.vertex(at(r1, p0, 0), up),
                   mesh.vertex(at(r1, p1, 0), up), mesh.vertex(at(r0, p1, 0), up)},
                  c);
      }
    }
  }
  // Rim with radial ticks, and the bottom.
  const int rimSegments = 96;
  for (int s = 0; s < rimSegments; ++s) {
    const double p0 = 2 * M_PI * s / rimSegments, p1 = 2 * M_PI * (s + 1) / rimSegments;
    const Eigen::Vector3d n0(std::cos(p0), std::sin(p0), 0), n1(std::cos(p1), std::sin(p1), 0);
    const Rgb c = (s % 8 == 0) ? Rgb{230, 230, 235} : rim;
    mesh.face({mesh.vertex(at(radius, p0, 0), n0), mesh.vertex(at(radius, p0, -thickness), n0),
               mesh.vertex(at(radius, p1, -thickness), n1), mesh.vertex(at(radius, p1, 0), n1)},
              c);
    const Eigen::Vector3d down(0, 0, -1);
    mesh.face(
        {mesh.vertex(at(0, 0, -thickness), down), mesh.vertex(at(radius, p1, -thickness), down),
         mesh.vertex(at(radius, p0, -thickness), down)},
        rim);
  }
  return mesh.build();
}

vtkSmartPointer<vtkPolyData> sectoredDisk(double radius, double halfWidth, Rgb a, Rgb b) {
  const int sectors = 16, perSector = 4, n = sectors * perSector;
  MeshBuilder mesh;
  auto at = [&](double r, double phi, double y) {
    return Eigen::Vector3d(r * std::cos(phi), y, r * std::sin(phi));
  };
  const Rgb rimA = mix(a, nh::kShadeTone, 0.25), rimB = mix(b, nh::kShadeTone, 0.25);
  for (int s = 0; s < n; ++s) {
    const double p0 = 2 * M_PI * s / n, p1 = 2 * M_PI * (s + 1) / n;
    const bool even = (s / perSector) % 2 == 0;
    for (int side = -1; side <= 1; side += 2) {
      const Eigen::Vector3d nrm(0, side, 0);
      const double y = side * halfWidth;
      const vtkIdType c = mesh.vertex(at(0, 0, y), nrm);
      const vtkIdType v0 = mesh.vertex(at(radius, p0, y), nrm);
      const vtkIdType v1 = mesh.vertex(at(radius, p1, y), nrm);
      if (side > 0)
        mesh.face({c, v1, v0}, even ? a : b);
      else
        mesh.face({c, v0, v1}, even ? a : b);
    }
    const Eigen::Vector3d n0(std::cos(p0), 0, std::sin(p0)), n1(std::cos(p1), 0, std::sin(p1));
    mesh.face(
        {mesh.vertex(at(radius, p0, -halfWidth), n0), mesh.vertex(at(radius, p0, halfWidth), n0),
         mesh.vertex(at(radius, p1, halfWidth), n1), mesh.vertex(at(radius, p1, -halfWidth), n1)},
        even ? rimA : rimB);
  }
  return mesh.build();
}

vtkSmartPointer<vtkPolyData> stripedCylinder(double radius, double halfHeight, Rgb a, Rgb b) {
  const int sectors = 8, perSector = 6, n = sectors * perSector;
  MeshBuilder mesh;
  auto at = [&](double r, double phi, double z) {
    return Eigen::Vector3d(r * std::cos(phi), r * std::sin(phi), z);
  };
  // Sides: shared vertices along each generator (smooth shading), one stripe of b.
  std::vector<vtkIdType> bottom(n + 1), top(n + 1);
  for (int s = 0; s <= n; ++s) {
    const double phi = 2 * M_PI * s / n;
    const Eigen::Vector3d normal(std::cos(phi), std::sin(phi), 0);
    bottom[s] = mesh.vertex(at(radius, phi, -halfHeight), normal);
    top[s] = mesh.vertex(at(radius, phi, halfHeight), normal);
  }
  for (int s = 0; s < n; ++s)
    mesh.face({bottom[s], bottom[s + 1], top[s + 1], top[s]}, s < perSector / 2 ? b : a);
  // Caps: sectors alternating between a and b (offset on the bottom, so the two ends differ).
  const Rgb capA = mix(a, nh::kShadeTone, nh::kCapShade);
  for (int side = -1; side <= 1; side += 2) {
    const Eigen::Vector3d normal(0, 0, side);
    const double z = side * halfHeight;
    for (int s = 0; s < n; ++s) {
      const double p0 = 2 * M_PI * s / n, p1 = 2 * M_PI * (s + 1) / n;
      const bool even = ((s / perSector) + (side < 0 ? 1 : 0)) % 2 == 0;
      const vtkIdType c = mesh.vertex(at(0, 0, z), normal);
      const vtkIdType v0 = mesh.vertex(at(radius, p0, z), normal);
      const vtkIdType v1 = mesh.vertex(at(radius, p1, z), normal);
      if (side > 0)
        mesh.face({c, v0, v1}, even ? capA : b);
      else
        mesh.face({c, v1, v0}, even ? capA : b);
    }
  }
  return mesh.build();
}

vtkSmartPointer<vtkPolyData> box(const Eigen::Vector3d& h, const std::array<Rgb, 6>& faces) {
  MeshBuilder mesh;
  const double x = h.x(), y = h.y(), z = h.z();
  using V = Eigen::Vector3d;
  mesh.flatQuad(V(x, -y, -z), V(x, y, -z), V(x, y, z), V(x, -y, z), faces[0]);
  mesh.flatQuad(V(-x, -y, -z), V(-x, -y, z), V(-x, y, z), V(-x, y, -z), faces[1]);
  mesh.flatQuad(V(-x, y, -z), V(-x, y, z), V(x, y, z), V(x, y, -z), faces[2]);
  mesh.flatQuad(V(-x, -y, -z), V(x, -y, -z), V(x, -y, z), V(-x, -y, z), faces[3]);
  mesh.flatQuad(V(-x, -y, z), V(x, -y, z), V(x, y, z), V(-x, y, z), faces[4]);
  mesh.flatQuad(V(-x, -y, -z), V(-x, y, -z), V(x, y, -z), V(x, -y, -z), faces[5]);
  return mesh.build();
}

vtkSmartPointer<vtkPolyData> sleigh(const Eigen::Vector3d& h) {
  // Outline in the xy plane: a rectangle with a pointed nose towards +x.
  const double L = h.x(), W = h.y(), Z = h.z();
  const std::vector<Eigen::Vector2d> outline = {
      {-L, -W}, {0.55 * L, -W}, {L, 0}, {0.55 * L, W}, {-L, W}};
  // Sage green: no run colour (its wooden orange was the comparison's orange).
  const auto colour = [](const char* role) { return nh::shapeColour(nh::ShapeKind::Sleigh, role); };
  const Rgb top = colour("top"), side = colour("side"), stripe = colour("stripe");
  MeshBuilder mesh;
  const int n = static_cast<int>(outline.size());
  // Top and bottom as fans from the centre.
  for (int i = 0; i < n; ++i) {
    const auto& a = outline[i];
    const auto& b = outline[(i + 1) % n];
    mesh.flatTriangle(Eigen::Vector3d(0, 0, Z), Eigen::Vector3d(a.x(), a.y(), Z),
                      Eigen::Vector3d(b.x(), b.y(), Z), top);
    mesh.flatTriangle(Eigen::Vector3d(0, 0, -Z), Eigen::Vector3d(b.x(), b.y(), -Z),
                      Eigen::Vector3d(a.x(), a.y(), -Z), side);
    mesh.flatQuad(Eigen::Vector3d(a.x(), a.y(), -Z), Eigen::Vector3d(b.x(), b.y(), -Z),
                  Eigen::Vector3d(b.x(), b.y(), Z), Eigen::Vector3d(a.x(), a.y(), Z), side);
  }
  // A stripe along the axis shows the heading.
  const double s = 0.12 * W, zt = Z * 1.02;
  mesh.flatQuad(Eigen::Vector3d(-0.9 * L, -s, zt), Eigen::Vector3d(0.85 * L, -s, zt),
                Eigen::Vector3d(0.85 * L, s, zt), Eigen::Vector3d(-0.9 * L, s, zt), stripe);
  return mesh.build();
}

vtkSmartPointer<vtkPolyData> square(double hx, double hy, Rgb colour) {
  MeshBuilder mesh;
  using V = Eigen::Vector3d;
  mesh.flatQuad(V(-hx, -hy, 0), V(hx, -hy, 0), V(hx, hy, 0), V(-hx, hy, 0), colour);
  mesh.flatQuad(V(-hx, -hy, 0), V(-hx, hy, 0), V(hx, hy, 0), V(hx, -hy, 0), colour);
  return mesh.build();
}

vtkSmartPointer<vtkPolyData> groundGrid(double halfSize, double spacing, double z, double cx,
                                        double cy, bool forDarkBackground) {
  vtkNew<vtkPoints> points;
  vtkNew<vtkCellArray> lines;
  vtkNew<vtkUnsignedCharArray> colours;
  colours->SetNumberOfComponents(4);
  colours->SetName("Colors");
  const long n = std::lround(halfSize / spacing);
  const long ix = std::lround(cx / spacing), iy = std::lround(cy / spacing);
  const double x0 = (ix - n) * spacing, x1 = (ix + n) * spacing;
  const double y0 = (iy - n) * spacing, y1 = (iy + n) * spacing;
  for (long i = -n; i <= n; ++i) {
    for (int axis = 0; axis < 2; ++axis) {
      const long index = i + (axis == 0 ? ix : iy);
      const bool major = index % 5 == 0;
      const double c = index * spacing;
      const vtkIdType a =
          axis == 0 ? points->InsertNextPoint(c, y0, z) : points->InsertNextPoint(x0, c, z);
      const vtkIdType b =
          axis == 0 ? points->InsertNextPoint(c, y1, z) : points->InsertNextPoint(x1, c, z);
      const vtkIdType ids[2] = {a, b};
      lines->InsertNextCell(2, ids);
      if (forDarkBackground) {
        const unsigned char grey = major ? 200 : 175;
        colours->InsertNextTuple4(grey, grey, grey + 10, major ? 95 : 40);
      } else {
        const unsigned char grey = major ? 60 : 90;
        colours->InsertNextTuple4(grey, grey, grey + 10, major ? 120 : 60);
      }
    }
  }
  auto poly = vtkSmartPointer<vtkPolyData>::New();
  poly->SetPoints(points);
  poly->SetLines(lines);
  poly->GetCellData()->SetScalars(colours);
  return poly;
}

}  // namespace nhui::geometry
// SPDX-License-Identifier: GPL-3.0-or-later
