// Lookups in the scene table (core/nh/scene_table.h): a kind's row and colours, model-file
// words, the drawn size and the bounding radius by the kind's rule.
#include "core/nh/scene_table.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace nh {

const ShapeRow& shapeRow(ShapeKind kind) {
  for (const ShapeRow& row : kShapeTable)
    if (row.kind == kind) return row;
  throw std::logic_error("the scene table has no row for a body kind");
}

Rgb shapeColour(ShapeKind kind, std::string_view role) {
  const ShapeRow& row = shapeRow(kind);
  for (const ShapeColour& c : row.colours)
    if (c.role && role == c.role) return c.rgb;
  throw std::logic_error("the scene table's " + std::string(row.name) + " has no colour '" +
                         std::string(role) + "'");
}

std::array<Rgb, 6> faceColours(ShapeKind kind) {
  return {shapeColour(kind, "+x"), shapeColour(kind, "-x"), shapeColour(kind, "+y"),
          shapeColour(kind, "-y"), shapeColour(kind, "+z"), shapeColour(kind, "-z")};
}

std::vector<std::string> modelShapeNames() {
  std::vector<std::string> names;
  for (const ShapeRow& row : kShapeTable) names.emplace_back(row.modelName);
  return names;
}

bool shapeOfModelName(std::string_view word, ShapeKind& kind) {
  for (const ShapeRow& row : kShapeTable)
    if (word == row.modelName) {
      kind = row.kind;
      return true;
    }
  return false;
}

Eigen::Vector3d drawnSize(ShapeKind kind, const Eigen::Vector3d& size) {
  const ShapeRow& row = shapeRow(kind);
  Eigen::Vector3d out = size;
  for (int i = 0; i < 3; ++i)
    if (row.orComponent[i] >= 0 && !(size[i] > 0)) out[i] = size[row.orComponent[i]];
  return out;
}

double boundingRadius(ShapeKind kind, const Eigen::Vector3d& size) {
  const BoundRule& rule = shapeRow(kind).bound;
  double largest = 0, squares = 0;
  for (int i = 0; i < 3; ++i) {
    if (!rule.of[i]) continue;
    largest = std::max(largest, std::abs(size[i]));
    squares += size[i] * size[i];
  }
  return rule.combine == BoundRule::Largest ? largest : std::sqrt(squares);
}

double boundingRadius(const SceneBody& body) { return boundingRadius(body.kind, body.size); }

const ArrowColour& arrowColour(ArrowKind kind) {
  for (const ArrowColour& a : kArrowColours)
    if (a.kind == kind) return a;
  throw std::logic_error("the scene table has no colour for an arrow kind");
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
