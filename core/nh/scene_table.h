// The scene table: the facts about what a front end draws that the app's 3D view (ui/scene)
// and the interactive page (ui/export/interactive_page.cpp, resources/html/page.js) share,
// written once. One row per body kind (its names, what each component of its `size` means,
// the rule for its bounding radius, how it is drawn, its colours); the arrows', trails' and
// runs' colours; and the layout of one sample of an exported scene (the page's record). The
// page receives all of it as JSON data, so that neither side writes a kind, a colour or a
// record width of its own. Colours are plain RGB bytes (no Qt, no VTK).
#pragma once

#include <Eigen/Core>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/nh/system.h"

namespace nh {

struct Rgb {
  std::uint8_t r, g, b;
};

// A body's bounding radius from its size: over the components marked in `of`, the largest
// magnitude (Largest) or the Euclidean length (Length). It holds the body however it turns.
struct BoundRule {
  enum Combine { Largest, Length };
  Combine combine;
  std::array<bool, 3> of;
};

// One colour of a kind's palette, by its role ("a", "top", "+x", …); what each role colours is
// said in the row.
struct ShapeColour {
  const char* role = nullptr;  // nullptr: an unused entry
  Rgb rgb{0, 0, 0};
};

// The row of a body kind (ShapeKind, core/nh/system.h).
struct ShapeRow {
  ShapeKind kind;
  const char* name;       // in exported data and on the page: "Disk"
  const char* modelName;  // a model file's `shape:` word: "disk"
  // How it is drawn (the app's meshes in ui/scene/scene_geometry.h, the page's in page.js):
  // ellipsoid, ball, table, disk, sleigh, box, guide, cylinder.
  const char* geometry;
  std::array<const char*, 3> size;  // what each component of SceneBody::size means
  // A component at or below zero that takes another's value (an ellipsoid's y or z take its
  // x): the index of that other component, -1 for none.
  std::array<int, 3> orComponent;
  BoundRule bound;
  // Scenery (tables, guides): drawn by the primary run only, not framed by the camera, not
  // counted as a body on a table.
  bool scenery;
  std::array<ShapeColour, 7> colours;
};

// The kinds in the order model files list their shapes (sphere, box, disk, …).
inline constexpr std::array<ShapeRow, 8> kShapeTable{{
    {ShapeKind::Sphere,
     "Sphere",
     "sphere",
     "ellipsoid",
     {"semi-axis along local x", "semi-axis along local y (<= 0: x's)",
      "semi-axis along local z (<= 0: x's)"},
     {-1, 0, 0},
     {BoundRule::Largest, {true, true, true}},
     false,
     // Octants alternating between a and b.
     {{{"a", {236, 84, 62}}, {"b", {246, 242, 232}}}}},
    {ShapeKind::Body,
     "Body",
     "box",
     "box",
     {"half-extent along local x", "half-extent along local y", "half-extent along local z"},
     {-1, -1, -1},
     {BoundRule::Length, {true, true, true}},
     false,
     // The faces ±x, ±y, ±z: a light and a mid tone of red, green and blue, so the faces tell
     // the axes apart while no face turns into a dark plate under the lights.
     {{{"+x", {235, 110, 95}},
       {"-x", {200, 150, 140}},
       {"+y", {110, 200, 120}},
       {"-y", {150, 195, 155}},
       {"+z", {110, 150, 235}},
       {"-z", {150, 165, 210}}}}},
    {ShapeKind::Disk,
     "Disk",
     "disk",
     "disk",
     {"radius", "half-thickness (the axis is local y)", "radius"},
     {-1, -1, -1},
     {BoundRule::Length, {true, true, false}},
     false,
     // Sectors alternating between a and b.
     {{{"a", {236, 190, 70}}, {"b", {120, 90, 200}}}}},
    {ShapeKind::Cylinder,
     "Cylinder",
     "cylinder",
     "cylinder",
     {"radius", "half-height (the axis is local z, capped at ±half-height)", "radius"},
     {-1, -1, -1},
     {BoundRule::Length, {true, true, false}},
     false,
     // The side in `side` with one stripe along the axis; the caps `side` shaded.
     {{{"side", {90, 170, 210}}, {"stripe", {240, 236, 222}}}}},
    {ShapeKind::Table,
     "Table",
     "plane",
     "table",
     {"radius", "unused", "thickness (below the top face at local z = 0)"},
     {-1, -1, -1},
     {BoundRule::Length, {true, false, true}},
     true,
     // The top's checker of rings and sectors in light and dark, one marked sector, the rim.
     {{{"light", {172, 182, 198}},
       {"dark", {136, 150, 172}},
       {"marker", {222, 92, 60}},
       {"rim", {70, 78, 92}}}}},
    {ShapeKind::Particle,
     "Particle",
     "point",
     "ball",
     {"radius", "unused", "unused"},
     {-1, -1, -1},
     {BoundRule::Largest, {true, true, true}},
     false,
     {{{"body", {250, 210, 70}}}}},
    {ShapeKind::Sleigh,
     "Sleigh",
     "sleigh",
     "sleigh",
     {"half-length along local x (pointed at +x)", "half-width along local y",
      "half-height along local z"},
     {-1, -1, -1},
     {BoundRule::Length, {true, true, true}},
     false,
     // The hull's top and sides, and a stripe along the top.
     {{{"top", {112, 150, 96}}, {"side", {72, 100, 60}}, {"stripe", {245, 236, 210}}}}},
    {ShapeKind::Guide,
     "Guide",
     "guide",
     "guide",
     {"half-extent along local x", "half-extent along local y",
      "half-extent along local z (0: a flat square)"},
     {-1, -1, -1},
     {BoundRule::Length, {true, true, true}},
     true,
     // A box's faces ±x, ±y, ±z; a flat guide is one translucent square in `plane`.
     {{{"+x", {200, 205, 215}},
       {"-x", {200, 205, 215}},
       {"+y", {170, 175, 185}},
       {"-y", {170, 175, 185}},
       {"+z", {230, 232, 240}},
       {"-z", {120, 120, 130}},
       {"plane", {120, 200, 255}}}}},
}};

// The row of `kind`.
const ShapeRow& shapeRow(ShapeKind kind);
// The colour of `role` in the row of `kind`; throws std::logic_error for a role it lacks.
Rgb shapeColour(ShapeKind kind, std::string_view role);
// A box's six face colours (roles +x, -x, +y, -y, +z, -z) of `kind`.
std::array<Rgb, 6> faceColours(ShapeKind kind);
// The model-file words in table order ("sphere", "box", …), and the kind a word names
// (false when none does).
std::vector<std::string> modelShapeNames();
bool shapeOfModelName(std::string_view word, ShapeKind& kind);

// The size a body is drawn with: components at or below zero replaced as orComponent says.
Eigen::Vector3d drawnSize(ShapeKind kind, const Eigen::Vector3d& size);
// The radius of a sphere about the body's centre that holds it however it is turned, by the
// kind's BoundRule: used by the view's camera and table, and sent to the page.
double boundingRadius(ShapeKind kind, const Eigen::Vector3d& size);
double boundingRadius(const SceneBody& body);

// ---- Colours beyond the bodies ------------------------------------------------------------

// The dark tone a cylinder's caps (and the app's disk rims) are shaded towards.
inline constexpr Rgb kShadeTone{30, 30, 30};
// How far a cylinder's caps are shaded towards kShadeTone.
inline constexpr double kCapShade = 0.1;
// Opacity of a flat guide (its square).
inline constexpr double kFlatGuideOpacity = 0.35;

// The arrows' colours by kind (components 0..1), and the factor that darkens them for the
// legend's text on a light background (yellow and light green text do not read on light grey).
struct ArrowColour {
  ArrowKind kind;
  const char* name;  // in exported data: "AngularVelocity"
  std::array<double, 3> rgb;
};
inline constexpr std::array<ArrowColour, 4> kArrowColours{{
    {ArrowKind::Reaction, "Reaction", {0.95, 0.28, 0.24}},
    {ArrowKind::Velocity, "Velocity", {0.25, 0.85, 0.40}},
    {ArrowKind::AngularVelocity, "AngularVelocity", {0.35, 0.62, 1.00}},
    {ArrowKind::Force, "Force", {0.98, 0.78, 0.18}},
}};
inline constexpr double kLegendOnLight = 0.62;
const ArrowColour& arrowColour(ArrowKind kind);

// A run's trails alone, one per traced point (cycling): saturated mid-brightness colours that
// read on the light table top, on the light and on the dark background.
inline constexpr std::array<Rgb, 4> kTrailColours{
    {{225, 30, 140}, {0, 145, 225}, {30, 165, 60}, {135, 80, 230}}};

// How the two runs of a comparison are told apart (ui/sim/run_style.h says where): their
// colours' names, curves and trails, and the comparison run's bodies.
struct RunColours {
  const char* colourName;     // as the notes and the Compare panel say it
  Rgb onDark;                 // curves on the dark plot theme, the comparison run's bodies
  Rgb onLight;                // curves on the light plot theme (print, slides)
  std::array<Rgb, 4> trails;  // a run's trails in the 3D view, one per traced point
};
// [0] the primary run, [1] the comparison run (vakonomic, or the ghost).
inline constexpr std::array<RunColours, 2> kRunColours{{
    // A run's first two trails (the turntable ball's centre, and its contact seen from the
    // table) differ in lightness as well as hue: two oranges 55 apart were one line on the
    // dark background.
    {"blue",
     {86, 180, 255},
     {20, 100, 200},
     {{{0, 145, 225}, {70, 60, 220}, {0, 175, 200}, {95, 150, 255}}}},
    {"orange",
     {255, 150, 40},
     {214, 95, 0},
     {{{255, 130, 0}, {255, 215, 140}, {200, 80, 10}, {255, 175, 70}}}},
}};
// The comparison run's bodies: one solid colour (kRunColours[1].onDark) at this opacity.
inline constexpr double kComparisonOpacity = 0.45;
// A planned motion's start and target: the bodies in their own colours at this opacity.
inline constexpr double kGhostOpacity = 0.22;

// The page's own stage (the app's lights and grid are VTK's and ui/scene's): its ambient,
// sky and ground light, the camera's headlight, the highlight of shiny surfaces and the
// ground grid's lines where no table is drawn.
struct PageStage {
  Rgb ambient, sky, ground, headlight, specular, grid;
};
inline constexpr PageStage kPageStage{{255, 255, 255}, {255, 255, 255}, {68, 85, 102},
                                      {255, 255, 255}, {51, 51, 51},    {127, 136, 152}};

// ---- One sample of an exported scene ------------------------------------------------------

// Floats per item of a sample, and where each field starts within the item's record: a body
// (position x y z, quaternion x y z w), an arrow (origin, vector), a traced point (position)
// and the moving frame (quaternion x y z w), missing items NaN.
inline constexpr int kBodyRecord = 7, kBodyPosition = 0, kBodyOrientation = 3;
inline constexpr int kArrowRecord = 6, kArrowOrigin = 0, kArrowVector = 3;
inline constexpr int kPointRecord = 3, kPointPosition = 0;
inline constexpr int kFrameRecord = 4, kFrameOrientation = 0;

// A sample of `bodies`, `arrows` and `points`: the bodies' records first, then the arrows',
// the points' and the moving frame's.
struct SampleLayout {
  std::size_t bodies = 0, arrows = 0, points = 0;
  std::size_t width() const { return frame() + kFrameRecord; }
  std::size_t body(std::size_t i) const { return i * kBodyRecord; }
  std::size_t arrow(std::size_t i) const { return bodies * kBodyRecord + i * kArrowRecord; }
  std::size_t point(std::size_t i) const {
    return bodies * kBodyRecord + arrows * kArrowRecord + i * kPointRecord;
  }
  std::size_t frame() const { return point(points); }
};

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
