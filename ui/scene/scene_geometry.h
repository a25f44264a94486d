// Procedural meshes for the scene: patterned so that rotation and rolling are visible.
// Every mesh carries per-cell RGB colours in the cell array "Colors" and point normals.
#pragma once

#include <vtkSmartPointer.h>

#include <Eigen/Geometry>
#include <array>

#include "core/nh/scene_table.h"

class vtkPolyData;

namespace nhui::geometry {

// Colours are the scene table's bytes (core/nh/scene_table.h).
using Rgb = nh::Rgb;

// Ellipsoid with semi-axes `radii` (a sphere when they are equal) whose octants alternate
// between two colours (cell edges lie on the octant boundaries, so the pattern is crisp),
// with a thin dark equator band.
vtkSmartPointer<vtkPolyData> checkeredSphere(const Eigen::Vector3d& radii, Rgb a, Rgb b,
                                             int resolution = 48);

// Plain sphere of one colour.
vtkSmartPointer<vtkPolyData> sphere(double radius, Rgb colour, int resolution = 32);

// Turntable: a disk with its top face at z = 0, a checker of rings × sectors and one marked
// sector, a rim, and thickness below z = 0.
vtkSmartPointer<vtkPolyData> table(double radius, double thickness, int rings = 6);

// Coin-like disk with its axis along y: alternating sectors on both faces and the rim.
vtkSmartPointer<vtkPolyData> sectoredDisk(double radius, double halfWidth, Rgb a, Rgb b);

// Capped cylinder with its axis along z (caps at z = ±halfHeight), smooth sides: the sides
// in `a` with one stripe of `b` along the axis, the caps in alternating sectors of a and b.
vtkSmartPointer<vtkPolyData> stripedCylinder(double radius, double halfHeight, Rgb a, Rgb b);

// Box with half-extents `half`; faces coloured ±x, ±y, ±z in that order.
vtkSmartPointer<vtkPolyData> box(const Eigen::Vector3d& half, const std::array<Rgb, 6>& faces);

// Chaplygin sleigh: a flat body (half-extents `half`) with a pointed front at +x.
vtkSmartPointer<vtkPolyData> sleigh(const Eigen::Vector3d& half);

// Square in the local xy plane (±half.x × ±half.y), both sides.
vtkSmartPointer<vtkPolyData> square(double halfX, double halfY, Rgb colour);

// Lines of a ground grid at height z around (cx, cy), every `spacing`, a major line every
// fifth one counted from the origin (so that grids recentred by multiples of the spacing
// line up); light lines for a dark background, dark ones for a light background.
vtkSmartPointer<vtkPolyData> groundGrid(double halfSize, double spacing, double z, double cx = 0,
                                        double cy = 0, bool forDarkBackground = true);

}  // namespace nhui::geometry
// SPDX-License-Identifier: GPL-3.0-or-later
