// SceneRenderer (scene_renderer.h): the stage, the bodies, arrows (scaled to reference
// lengths), trails, grid, legend and overlay text kept as VTK actors in step with each
// SceneFrame, and the camera reset to a region.
#include "ui/scene/scene_renderer.h"

#include <vtkActor.h>
#include <vtkArrowSource.h>
#include <vtkAxesActor.h>
#include <vtkCamera.h>
#include <vtkCaptionActor2D.h>
#include <vtkCellArray.h>
#include <vtkCommand.h>
#include <vtkIdTypeArray.h>
#include <vtkLight.h>
#include <vtkMatrix4x4.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderStepsPass.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkTranslucentPass.h>
#include <vtkUnsignedCharArray.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>

#include "core/nh/scene_table.h"
#include "ui/scene/body_meshes.h"
#include "ui/scene/render_lock.h"
#include "ui/scene/scene_camera.h"
#include "ui/scene/scene_geometry.h"
#include "ui/scene/trail_buffer.h"

namespace nhui {

namespace {

using geometry::Rgb;

constexpr double kReferenceFraction = 0.35;  // reference arrow length / scene extent

const char* fontFile() {
  static const std::string path = [] {
    const char* candidates[] = {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
                                "/usr/share/fonts/dejavu/DejaVuSans.ttf"};
    for (const char* c : candidates)
      if (std::filesystem::exists(c)) return std::string(c);
    return std::string();
  }();
  return path.empty() ? nullptr : path.c_str();
}

// A shadow in the opposite brightness keeps text readable over bodies and trails; on a light
// background VTK's shadow (a darkened copy) would smear dark text, so there is none.
// The corner axes' share of the view's width (their viewport, at the bottom left).
constexpr double kAxesViewportWidth = 0.13;

void styleText(vtkTextProperty* p, double size, const double rgb[3], bool bold, bool dark) {
  if (const char* file = fontFile()) {
    p->SetFontFamily(VTK_FONT_FILE);
    p->SetFontFile(file);
  }
  p->SetFontSize(std::max(1, static_cast<int>(std::lround(size))));
  p->SetColor(rgb[0], rgb[1], rgb[2]);
  p->SetBold(bold);
  p->SetShadow(dark);
  p->SetShadowOffset(1, -1);
}

void setPose(vtkActor* actor, const Eigen::Vector3d& position, const Eigen::Quaterniond& rotation,
             const Eigen::Vector3d& scale = Eigen::Vector3d::Ones()) {
  const Eigen::Matrix3d R = rotation.normalized().toRotationMatrix() * scale.asDiagonal();
  vtkNew<vtkMatrix4x4> m;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) m->SetElement(i, j, R(i, j));
    m->SetElement(i, 3, position[i]);
  }
  actor->SetUserMatrix(m);
}

// The legend's text colour for an arrow kind: the arrow's colour, darkened on a light
// background (the scene table's kLegendOnLight).
std::array<double, 3> legendColour(nh::ArrowKind kind, bool dark) {
  std::array<double, 3> c = nh::arrowColour(kind).rgb;
  if (!dark)
    for (double& v : c) v *= nh::kLegendOnLight;
  return c;
}

std::string formatNumber(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

// A trail's colour from the scene table: a run's own alone (a light yellow vanished on the
// table); beside a comparison, each run's trails take its colours (run_style.h says where).
Rgb trailColour(size_t i, bool comparison, bool compared) {
  if (comparison || compared) return nh::kRunColours[comparison ? 1 : 0].trails[i % 4];
  return nh::kTrailColours[i % 4];
}

}  // namespace

// The unit a legend shows: the arrow's own (a model file's `unit`), else the kind's; an arrow
// of kind force without a unit is a force if its name says so (it may be a momentum).
std::string arrowUnit(const nh::SceneArrow& a) {
  if (!a.unit.empty()) return a.unit;
  switch (a.kind) {
    case nh::ArrowKind::Reaction:
      return "N";
    case nh::ArrowKind::Velocity:
      return "m/s";
    case nh::ArrowKind::AngularVelocity:
      return "rad/s";
    case nh::ArrowKind::Force:
      return a.name.find("force") != std::string::npos ? "N" : "";
  }
  return "";
}

struct SceneRenderer::Body {
  nh::ShapeKind kind;
  Eigen::Vector3d size;
  Eigen::Vector3d colour = Eigen::Vector3d::Constant(-1);  // as solidColour() reads it
  vtkSmartPointer<vtkActor> actor;
};

struct SceneRenderer::Arrow : nh::ArrowScale {
  nh::ArrowKind kind;
  std::string unit;
  vtkSmartPointer<vtkArrowSource> source;
  vtkSmartPointer<vtkActor> actor;
  double lastMagnitude = 0;
};

struct SceneRenderer::Trail {
  std::string name;
  TrailBuffer buffer;
  vtkSmartPointer<vtkActor> actor;
};

SceneRenderer::SceneRenderer(vtkRenderer* renderer, SceneRole role)
    : renderer_(renderer), role_(role) {
  if (role_ == SceneRole::Primary) setUpStage();
}

SceneRenderer::~SceneRenderer() {
  setSystem(nullptr);
  if (grid_) renderer_->RemoveActor(grid_);
  if (overlay_) renderer_->RemoveActor2D(overlay_);
  if (emptyNote_) renderer_->RemoveActor2D(emptyNote_);
  for (auto& l : legend_) renderer_->RemoveActor2D(l);
  if (startObserver_) renderer_->RemoveObserver(startObserver_);
  if (axesRenderer_ && axesRenderer_->GetRenderWindow())
    axesRenderer_->GetRenderWindow()->RemoveRenderer(axesRenderer_);
}

void SceneRenderer::setUpStage() {
  renderer_->GradientBackgroundOn();
  // Two lights (a key light from above and a camera headlight as fill): each light costs
  // per-fragment work, and software GL is fragment-bound.
  renderer_->RemoveAllLights();
  vtkNew<vtkLight> key;
  key->SetLightTypeToCameraLight();
  key->SetPosition(0.4, 1.0, 1.0);
  key->SetFocalPoint(0, 0, 0);
  key->SetIntensity(0.75);
  renderer_->AddLight(key);
  vtkNew<vtkLight> fill;
  fill->SetLightTypeToHeadlight();
  fill->SetIntensity(0.4);
  renderer_->AddLight(fill);
  renderer_->AutomaticLightCreationOff();
  renderer_->SetTwoSidedLighting(true);
  // VTK's default steps, except that translucent actors (trails, grid, comparison bodies) are
  // alpha-blended in actor order without depth writes, instead of going through VTK 9.1's
  // order-independent translucency: on llvmpipe that pass (float accumulation buffers, a
  // full-screen depth blit and a full-screen composite) cost more than the rest of the frame
  // (glretrace --pcpu, README "GUI"). Trails are drawn oldest first, so newer loops lie on top.
  vtkNew<vtkRenderStepsPass> steps;
  vtkNew<vtkTranslucentPass> translucent;
  steps->SetTranslucentPass(translucent);
  renderer_->SetPass(steps);

  overlay_ = vtkSmartPointer<vtkTextActor>::New();
  renderer_->AddActor2D(overlay_);

  axesActor_ = vtkSmartPointer<vtkAxesActor>::New();
  axesActor_->SetShaftTypeToCylinder();
  axesActor_->SetCylinderRadius(0.04);
  axesActor_->SetConeRadius(0.5);
  axesActor_->SetTotalLength(1, 1, 1);
  for (vtkCaptionActor2D* c :
       {axesActor_->GetXAxisCaptionActor2D(), axesActor_->GetYAxisCaptionActor2D(),
        axesActor_->GetZAxisCaptionActor2D()}) {
    c->GetTextActor()->SetTextScaleModeToNone();
  }
  axesRenderer_ = vtkSmartPointer<vtkRenderer>::New();
  axesRenderer_->SetViewport(0.0, 0.0, kAxesViewportWidth, 0.2);
  axesRenderer_->SetLayer(1);
  axesRenderer_->InteractiveOff();
  axesRenderer_->AddActor(axesActor_);
  // The corner axes, the grid and the legend follow the camera and the window size just
  // before each render.
  startObserver_ =
      renderer_->AddObserver(vtkCommand::StartEvent, this, &SceneRenderer::beforeRender);
  setOptions(options_);
}

void SceneRenderer::beforeRender() {
  if (!axesRenderer_) return;
  if (haveFrame_) updateGrid();
  layoutLegend();
  layoutOverlay();
  vtkCamera* main = renderer_->GetActiveCamera();
  vtkCamera* cam = axesRenderer_->GetActiveCamera();
  double dop[3], up[3];
  main->GetDirectionOfProjection(dop);
  main->GetViewUp(up);
  cam->SetFocalPoint(0.45, 0.45, 0.45);
  cam->SetPosition(0.45 - 4.5 * dop[0], 0.45 - 4.5 * dop[1], 0.45 - 4.5 * dop[2]);
  cam->SetViewUp(up);
  cam->SetViewAngle(30);
  axesRenderer_->ResetCameraClippingRange();
  axesRenderer_->SetDraw(options_.axes && visible_);
}

void SceneRenderer::setSystem(const nh::SystemModel*) {
  for (auto& b : bodies_) renderer_->RemoveActor(b->actor);
  bodies_.clear();
  for (auto& [name, a] : arrows_) renderer_->RemoveActor(a->actor);
  arrows_.clear();
  presetReferences_.clear();
  for (auto& t : trails_) renderer_->RemoveActor(t->actor);
  trails_.clear();
  for (auto& l : legend_) renderer_->RemoveActor2D(l);
  legend_.clear();
  haveFrame_ = false;
  frame_ = nh::SceneFrame{};
}

void SceneRenderer::setOptions(const SceneDisplayOptions& options) {
  options_ = options;
  if (role_ == SceneRole::Primary) {
    // VTK's gradient: Background at the bottom, Background2 at the top.
    if (options_.dark) {
      renderer_->SetBackground(0.09, 0.10, 0.13);
      renderer_->SetBackground2(0.40, 0.46, 0.56);
    } else {
      renderer_->SetBackground(0.78, 0.81, 0.86);
      renderer_->SetBackground2(0.97, 0.97, 0.98);
    }
    renderer_->SetUseFXAA(options_.fxaa);
    restyleText();
    if (grid_) grid_->SetVisibility(options_.grid && visible_);
  }
  if (haveFrame_) {
    updateArrows();
    updateLegend();
  }
}

void SceneRenderer::restyleText() {
  const double scale = options_.textScale * std::max(0.1, options_.pixelRatio);
  const bool dark = options_.dark;
  const double light[3] = {1, 1, 1}, ink[3] = {0.08, 0.09, 0.12};
  styleText(overlay_->GetTextProperty(), 17 * scale * overlaySize_, dark ? light : ink, true, dark);
  if (emptyNote_)
    styleText(emptyNote_->GetTextProperty(), 20 * scale, dark ? light : ink, true, dark);
  const double axisText[3] = {0.95, 0.95, 0.95}, axisInk[3] = {0.15, 0.15, 0.18};
  for (vtkCaptionActor2D* c :
       {axesActor_->GetXAxisCaptionActor2D(), axesActor_->GetYAxisCaptionActor2D(),
        axesActor_->GetZAxisCaptionActor2D()})
    styleText(c->GetCaptionTextProperty(), 14 * std::max(0.1, options_.pixelRatio),
              dark ? axisText : axisInk, true, dark);
}

void SceneRenderer::setVisible(bool visible) {
  visible_ = visible;
  for (auto& b : bodies_) b->actor->SetVisibility(visible);
  for (auto& t : trails_) t->actor->SetVisibility(visible && options_.trails);
  if (haveFrame_) updateArrows();
}

namespace {

// `line` broken at spaces into lines no wider than `room` as `widthOf` measures them (a word
// wider than that stays whole); continuations are indented by two spaces.
std::string wrappedLine(const std::string& line, double room,
                        const std::function<double(const std::string&)>& widthOf) {
  if (line.empty() || widthOf(line) <= room) return line;
  std::string out, current;
  bool first = true;  // the line's first word: taken whatever its width
  size_t word = 0;
  while (word <= line.size()) {
    const size_t space = std::min(line.find(' ', word), line.size());
    const std::string next = line.substr(word, space - word);
    const std::string joined = first ? next : current + " " + next;
    if (first || widthOf(joined) <= room) {
      first = false;
      current = joined;
    } else {
      out += current;
      out += '\n';
      current = "  " + next;
    }
    word = space + 1;
  }
  return out + current;
}

}  // namespace

void SceneRenderer::setOverlayText(const std::string& text) {
  if (!overlay_) return;
  overlayText_ = text;
  overlay_->SetInput(text.c_str());
  overlay_->SetVisibility(options_.overlayText && !text.empty());
  overlay_->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
  overlay_->SetTextScaleModeToNone();
  positionOverlay();
  layoutOverlay();
}

void SceneRenderer::placeOverlay(OverlayCorner corner, double sizeFactor) {
  if (!overlay_) return;
  overlayCorner_ = corner;
  if (overlaySize_ != sizeFactor) {
    overlaySize_ = sizeFactor;
    restyleText();
  }
  positionOverlay();
  layoutOverlay();
}

void SceneRenderer::positionOverlay() {
  const bool right = overlayCorner_ == OverlayCorner::TopRight;
  const bool bottom = overlayCorner_ == OverlayCorner::BottomLeft;
  overlay_->GetTextProperty()->SetJustification(right ? VTK_TEXT_RIGHT : VTK_TEXT_LEFT);
  overlay_->GetTextProperty()->SetVerticalJustification(bottom ? VTK_TEXT_BOTTOM : VTK_TEXT_TOP);
  // Bottom left: just above the corner axes' viewport (0.2 of the height).
  overlay_->SetPosition(right ? 0.985 : 0.015, bottom ? 0.21 : 0.975);
}

double ScreenBox::overlap(const ScreenBox& o) const {
  const double w = std::min(x1, o.x1) - std::max(x0, o.x0);
  const double h = std::min(y1, o.y1) - std::max(y0, o.y0);
  return empty() || o.empty() || w <= 0 || h <= 0 ? 0 : w * h;
}

ScreenBox SceneRenderer::overlayBox() {
  const std::lock_guard lock(vtkRenderMutex());  // measures text (an export may render)
  vtkRenderWindow* w = renderer_->GetRenderWindow();
  if (!overlay_ || !w || !overlay_->GetVisibility() || overlayText_.empty()) return {};
  double extent[2] = {0, 0};
  overlay_->GetSize(renderer_, extent);
  const int* size = renderer_->GetSize();
  const int* origin = renderer_->GetOrigin();
  const double* p = overlay_->GetPosition();
  const double x = origin[0] + p[0] * size[0], y = origin[1] + p[1] * size[1];
  const double x0 = overlayCorner_ == OverlayCorner::TopRight ? x - extent[0] : x;
  const double y0 = overlayCorner_ == OverlayCorner::BottomLeft ? y : y - extent[1];
  return {x0, y0, x0 + extent[0], y0 + extent[1]};
}

std::vector<ScreenBox> SceneRenderer::bodyBoxes() const {
  std::vector<ScreenBox> boxes;
  if (!visible_) return boxes;
  for (const auto& b : bodies_) {
    if (nh::shapeRow(b->kind).scenery || !b->actor->GetVisibility()) continue;
    double bounds[6];
    b->actor->GetBounds(bounds);
    if (!(bounds[1] >= bounds[0])) continue;  // nothing drawn
    ScreenBox box{INFINITY, INFINITY, -INFINITY, -INFINITY};
    for (int corner = 0; corner < 8; ++corner) {
      renderer_->SetWorldPoint(bounds[corner & 1], bounds[2 + ((corner >> 1) & 1)],
                               bounds[4 + ((corner >> 2) & 1)], 1);
      renderer_->WorldToDisplay();
      const double* d = renderer_->GetDisplayPoint();
      box = {std::min(box.x0, d[0]), std::min(box.y0, d[1]), std::max(box.x1, d[0]),
             std::max(box.y1, d[1])};
    }
    boxes.push_back(box);
  }
  return boxes;
}

void SceneRenderer::layoutOverlay() {
  const std::lock_guard lock(vtkRenderMutex());  // measures text (an export may render)
  vtkRenderWindow* w = renderer_->GetRenderWindow();
  if (!overlay_ || !w || overlayText_.empty() || w->GetSize()[0] <= 0) return;
  const double scale = options_.textScale * std::max(0.1, options_.pixelRatio);
  // The overlay starts at 1.5 % of the width; a margin of its own on the right.
  const double room = w->GetSize()[0] * (1 - 0.015) - 12 * scale;
  const int fontSize = overlay_->GetTextProperty()->GetFontSize();
  if (overlayLayout_.room != room || overlayLayout_.fontSize != fontSize ||
      overlayLayout_.lines.size() > 64) {
    overlayLayout_.lines.clear();
    overlayLayout_.room = room;
    overlayLayout_.fontSize = fontSize;
  }
  auto widthOf = [&](const std::string& text) {
    overlay_->SetInput(text.c_str());
    double extent[2] = {0, 0};
    overlay_->GetSize(renderer_, extent);
    return extent[0];
  };
  std::string out;
  size_t start = 0;
  while (start <= overlayText_.size()) {
    const size_t end = std::min(overlayText_.find('\n', start), overlayText_.size());
    const std::string line = overlayText_.substr(start, end - start);
    auto known = overlayLayout_.lines.find(line);
    if (known == overlayLayout_.lines.end())
      known = overlayLayout_.lines.emplace(line, wrappedLine(line, room, widthOf)).first;
    out += known->second;
    if (end < overlayText_.size()) out += '\n';
    start = end + 1;
  }
  overlay_->SetInput(out.c_str());
}

bool SceneRenderer::arrowShown(nh::ArrowKind kind) const { return options_.shows(kind); }

void SceneRenderer::update(const nh::SceneFrame& frame, const std::vector<TrailSpan>& trails) {
  frame_ = frame;
  haveFrame_ = true;
  updateBodies();
  updateArrows();
  updateTrails(trails);
  if (role_ == SceneRole::Primary) {
    // A system without a scene (a model file may have none) says so instead of an empty stage.
    const bool empty = frame_.bodies.empty() && frame_.arrows.empty() && frame_.points.empty();
    if (empty && !emptyNote_) {
      emptyNote_ = vtkSmartPointer<vtkTextActor>::New();
      emptyNote_->SetInput("This system has no scene to draw.\nIts motion is in the plots.");
      emptyNote_->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
      emptyNote_->SetTextScaleModeToNone();
      emptyNote_->SetPosition(0.5, 0.5);
      vtkTextProperty* t = emptyNote_->GetTextProperty();
      t->SetJustificationToCentered();
      t->SetVerticalJustificationToCentered();
      renderer_->AddActor2D(emptyNote_);
      restyleText();
    }
    if (emptyNote_) emptyNote_->SetVisibility(empty);
    updateGrid();
    updateLegend();
    // The corner axes live in their own layer of the same window (added once it is known).
    vtkRenderWindow* window = renderer_->GetRenderWindow();
    if (window && axesRenderer_ && !axesRenderer_->GetRenderWindow()) {
      window->SetNumberOfLayers(std::max(2, window->GetNumberOfLayers()));
      window->AddRenderer(axesRenderer_);
    }
  }
}

int SceneRenderer::shownBodyCount() const {
  int count = 0;
  for (const auto& b : bodies_) count += b->actor && b->actor->GetVisibility() ? 1 : 0;
  return count;
}

void SceneRenderer::updateBodies() {
  // The comparison run and the ghosts share the table and guides with the primary run.
  const bool comparison = role_ != SceneRole::Primary;
  if (bodies_.size() != frame_.bodies.size()) {
    for (auto& b : bodies_) renderer_->RemoveActor(b->actor);
    bodies_.clear();
    for (const auto& sb : frame_.bodies) {
      auto b = std::make_unique<Body>();
      b->kind = sb.kind;
      b->size = Eigen::Vector3d::Constant(-1);  // geometry built below
      bodies_.push_back(std::move(b));
    }
  }
  for (size_t i = 0; i < frame_.bodies.size(); ++i) {
    const nh::SceneBody& sb = frame_.bodies[i];
    Body& b = *bodies_[i];
    const bool skip =
        comparison && (sb.kind == nh::ShapeKind::Table ||
                       (role_ == SceneRole::Ghost && sb.kind == nh::ShapeKind::Guide));
    const Eigen::Vector3d colour = solidColour(sb);
    Eigen::Vector3d size = sb.size;
    if (sb.kind == nh::ShapeKind::Table && !comparison)
      size.x() = drawnTableRadius(frame_, sb, tableGuests_);
    if (b.size != size || b.kind != sb.kind || b.colour != colour || !b.actor) {
      if (b.actor) renderer_->RemoveActor(b.actor);
      b.kind = sb.kind;
      b.size = size;
      b.colour = colour;
      b.actor = bodyActor(bodyMesh(sb, size), sb.kind, colour, role_);
      renderer_->AddActor(b.actor);
    }
    b.actor->SetVisibility(visible_ && !skip);
    setPose(b.actor, sb.position, sb.orientation);
  }
}

void SceneRenderer::updateArrows() {
  const double extent = std::max(1e-6, frame_.extent);
  const double referenceLength = kReferenceFraction * extent;
  for (auto& [name, a] : arrows_) a->actor->SetVisibility(false);
  for (const nh::SceneArrow& sa : frame_.arrows) {
    auto& slot = arrows_[sa.name];
    if (!slot) {
      slot = std::make_unique<Arrow>();
      slot->kind = sa.kind;
      slot->unit = arrowUnit(sa);
      slot->source = vtkSmartPointer<vtkArrowSource>::New();
      slot->source->SetShaftResolution(24);
      slot->source->SetTipResolution(32);
      vtkNew<vtkPolyDataMapper> mapper;
      mapper->SetInputConnection(slot->source->GetOutputPort());
      slot->actor = vtkSmartPointer<vtkActor>::New();
      slot->actor->SetMapper(mapper);
      // Hidden until shown below: a new actor is visible, and an arrow of a hidden kind drawn
      // once at the origin appeared in every export (a fresh renderer) but not on screen.
      slot->actor->SetVisibility(false);
      const auto c = nh::arrowColour(sa.kind).rgb;
      slot->actor->GetProperty()->SetColor(c[0], c[1], c[2]);
      slot->actor->GetProperty()->SetSpecular(0.4);
      slot->actor->GetProperty()->SetAmbient(0.25);
      renderer_->AddActor(slot->actor);
      // A scale given before the arrow was first drawn (a reopened scenario's fixed scales).
      if (const auto preset = presetReferences_.find(sa.name); preset != presetReferences_.end()) {
        slot->reference = preset->second;
        slot->largest = preset->second;
      }
    }
    Arrow& a = *slot;
    const double magnitude = sa.vector.norm();
    a.lastMagnitude = magnitude;
    const auto fixedValue = options_.fixedArrowReference.find(sa.kind);
    const bool drawn =
        a.step(magnitude, options_.arrowScaleFixed,
               fixedValue != options_.fixedArrowReference.end() ? fixedValue->second : 0);
    const bool comparison = role_ != SceneRole::Primary;
    if (comparison || !visible_ || !arrowShown(sa.kind) || !drawn) continue;
    const double length = referenceLength * magnitude / a.reference;
    const double tip = std::min(0.5, 0.07 * extent / length);
    a.source->SetTipLength(tip);
    a.source->SetTipRadius(0.022 * extent);
    a.source->SetShaftRadius(0.0075 * extent);
    a.actor->SetVisibility(true);
    const Eigen::Quaterniond rotation =
        Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitX(), sa.vector / magnitude);
    setPose(a.actor, sa.origin, rotation, Eigen::Vector3d(length, 1, 1));
  }
}

double SceneRenderer::arrowLength(const std::string& arrowName, double value) const {
  auto it = arrows_.find(arrowName);
  if (it == arrows_.end() || !(it->second->reference > 0)) return 0;
  return kReferenceFraction * frame_.extent * value / it->second->reference;
}

std::map<std::string, double> SceneRenderer::arrowReferences() const {
  std::map<std::string, double> references;
  for (const auto& [name, a] : arrows_) references[name] = a->reference;
  return references;
}

void SceneRenderer::setArrowReferences(const std::map<std::string, double>& references) {
  presetReferences_.clear();
  for (const auto& [name, value] : references)
    if (value > 0 && std::isfinite(value)) presetReferences_[name] = value;
  for (const auto& [name, value] : references) {
    auto it = arrows_.find(name);
    if (it == arrows_.end() || !(value > 0)) continue;
    it->second->reference = value;
    it->second->largest = std::max(it->second->largest, value);
  }
  if (haveFrame_) {
    updateArrows();
    updateLegend();
  }
}

void SceneRenderer::setTableGuests(const std::vector<nh::SceneBody>& bodies) {
  tableGuests_ = bodies;
}

void SceneRenderer::newRun() {
  for (auto& [name, a] : arrows_) {
    a->largest = 0;
    a->quietFrames = 0;
    a->recheck = options_.arrowScaleFixed;
    if (!options_.arrowScaleFixed) a->reference = 0;
  }
  // The next update() scales them: the frame held now is the old run's.
}

std::vector<std::string> SceneRenderer::legendLines() const {
  std::vector<std::string> lines;
  for (const auto& l : legend_)
    if (l->GetVisibility()) lines.push_back(l->GetInput() ? l->GetInput() : "");
  return lines;
}

void SceneRenderer::updateTrails(const std::vector<TrailSpan>& spans) {
  const bool comparison = role_ == SceneRole::Comparison;
  // One trail actor per span, matched by position.
  while (trails_.size() > spans.size()) {
    renderer_->RemoveActor(trails_.back()->actor);
    trails_.pop_back();
  }
  while (trails_.size() < spans.size()) {
    auto t = std::make_unique<Trail>();
    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetInputData(t->buffer.polyData());
    mapper->SetScalarModeToUsePointData();
    mapper->SetColorModeToDirectScalars();
    t->actor = vtkSmartPointer<vtkActor>::New();
    t->actor->SetMapper(mapper);
    t->actor->GetProperty()->SetLineWidth(3.0f);
    t->actor->GetProperty()->SetLighting(false);
    t->actor->GetProperty()->SetOpacity(0.999);  // blended: the tail fades out
    renderer_->AddActor(t->actor);
    trails_.push_back(std::move(t));
  }
  for (size_t i = 0; i < spans.size(); ++i) {
    const TrailSpan& s = spans[i];
    Trail& t = *trails_[i];
    t.name = s.name;
    const bool hidden = std::find(options_.hiddenTrails.begin(), options_.hiddenTrails.end(),
                                  s.name) != options_.hiddenTrails.end();
    const bool show = visible_ && options_.trails && !hidden && s.count >= 2;
    t.actor->SetVisibility(show);
    t.actor->GetProperty()->SetLineWidth(
        static_cast<float>(3.0 * std::clamp(options_.pixelRatio, 0.5, 4.0)));
    if (!show) continue;
    // Lifted a little off the table so the contact trail does not fight with its surface.
    const double lift = s.inMovingFrame ? 0.003 * frame_.extent : 0.0;
    t.buffer.sync(s, trailColour(i, comparison, compared_), lift);
    if (s.inMovingFrame)
      setPose(t.actor, Eigen::Vector3d::Zero(), frame_.movingFrame);
    else
      t.actor->SetUserMatrix(nullptr);
  }
}

void SceneRenderer::updateGrid() {
  if (role_ != SceneRole::Primary) return;
  const double extent = std::max(1e-6, frame_.extent);
  // Below everything at the start: the lowest point of the table or of the bodies.
  double z = 0;
  for (const auto& b : frame_.bodies) {
    if (b.kind == nh::ShapeKind::Table) {
      const Eigen::Vector3d normal = b.orientation * Eigen::Vector3d::UnitZ();
      const double sinTilt = std::sqrt(std::max(0.0, 1 - normal.z() * normal.z()));
      z = std::min(z, b.position.z() - drawnTableRadius(frame_, b, tableGuests_) * sinTilt -
                          b.size.z() - 0.02 * extent);
    } else if (b.kind != nh::ShapeKind::Guide) {
      z = std::min(z, b.position.z() - b.size.norm() - 0.002 * extent);
    }
  }
  if (z > -0.002 * extent) z = -0.002 * extent;
  if (grid_ && std::abs(z - gridZ_) < 0.05 * extent) z = gridZ_;
  // An endless floor: the grid is centred under the camera's focal point, snapped to five
  // spacings (the major lines) so the lines stay put while it moves, and reaches well
  // beyond what the camera sees, in power-of-two steps so zooming rebuilds it rarely. Zoomed
  // far out (a body that travels fast, followed from afar) its lines grow coarser, doubling,
  // rather than the floor ending short of the view.
  double spacing = nh::niceCeil(extent / 8);
  vtkCamera* cam = renderer_->GetActiveCamera();
  double fp[3];
  cam->GetFocalPoint(fp);
  const double reach = std::max(2.5 * extent, 3.0 * cam->GetDistance());
  double half = 2.5 * extent;
  while (half < reach) half *= 2;
  while (half > 400 * spacing) spacing *= 2;  // at most 801 lines each way
  const double major = 5 * spacing;
  const Eigen::Vector2d centre(major * std::round(fp[0] / major),
                               major * std::round(fp[1] / major));
  const bool dark = options_.dark;
  if (grid_ && z == gridZ_ && half == gridHalf_ && spacing == gridSpacing_ &&
      centre == gridCentre_ && dark == gridDark_) {
    grid_->SetVisibility(options_.grid && visible_);
    return;
  }
  gridZ_ = z;
  gridHalf_ = half;
  gridSpacing_ = spacing;
  gridCentre_ = centre;
  gridDark_ = dark;
  auto poly = geometry::groundGrid(half, spacing, z, centre.x(), centre.y(), dark);
  if (!grid_) {
    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetScalarModeToUseCellData();
    mapper->SetColorModeToDirectScalars();
    grid_ = vtkSmartPointer<vtkActor>::New();
    grid_->SetMapper(mapper);
    grid_->GetProperty()->SetLighting(false);
    grid_->GetProperty()->SetOpacity(0.999);
    grid_->PickableOff();
    renderer_->AddActor(grid_);
  }
  static_cast<vtkPolyDataMapper*>(grid_->GetMapper())->SetInputData(poly);
  grid_->SetVisibility(options_.grid && visible_);
}

void SceneRenderer::updateLegend() {
  // The legend explains the primary run's arrows; a comparison renderer has none (it used to
  // add a second copy whenever its options changed).
  if (role_ != SceneRole::Primary) return;
  std::vector<std::string> lines;
  std::vector<std::array<double, 3>> colours;
  if (options_.legend) {
    for (const nh::SceneArrow& sa : frame_.arrows) {
      if (!arrowShown(sa.kind)) continue;
      const Arrow& a = *arrows_.at(sa.name);
      const std::string unit = a.unit.empty() ? "" : " " + a.unit;
      if (a.reference > 0) {
        const double length = kReferenceFraction * frame_.extent;
        lines.push_back("\u2192 " + sa.name + ":  " + formatNumber(length) + " m \u2259 " +
                        formatNumber(a.reference) + unit);
      } else {
        lines.push_back("\u2192 " + sa.name + ":  0" + unit);  // never nonzero so far
      }
      colours.push_back(legendColour(sa.kind, options_.dark));
    }
    // The trails drawn, each in its colour ("━━ trail: centre"): which line is which point
    // (the turntable ball's centre, its contact seen from the table).
    for (size_t i = 0; i < trails_.size(); ++i) {
      if (!trails_[i]->actor->GetVisibility()) continue;
      const Rgb c = trailColour(i, false, compared_);
      lines.push_back("\u2501\u2501 trail: " + trails_[i]->name);
      colours.push_back({c.r / 255.0, c.g / 255.0, c.b / 255.0});
    }
  }
  while (legend_.size() > lines.size()) {
    renderer_->RemoveActor2D(legend_.back());
    legend_.pop_back();
  }
  while (legend_.size() < lines.size()) {
    auto t = vtkSmartPointer<vtkTextActor>::New();
    t->SetTextScaleModeToNone();
    renderer_->AddActor2D(t);
    legend_.push_back(t);
  }
  const double size = 14 * options_.textScale * std::max(0.1, options_.pixelRatio);
  for (size_t i = 0; i < lines.size(); ++i) {
    vtkTextActor* t = legend_[i];
    t->SetInput(lines[i].c_str());
    styleText(t->GetTextProperty(), size, colours[i].data(), true, options_.dark);
    t->GetTextProperty()->SetJustificationToRight();
    // A chip behind each line: the coloured text stays readable over the checkered table and
    // over the arrows themselves.
    const double chip = options_.dark ? 0.08 : 0.97;
    t->GetTextProperty()->SetBackgroundColor(chip, chip, chip);
    t->GetTextProperty()->SetBackgroundOpacity(0.8);
    t->GetPositionCoordinate()->SetCoordinateSystemToDisplay();
    t->SetVisibility(visible_);
  }
  layoutLegend();
}

void SceneRenderer::layoutLegend() {
  const std::lock_guard lock(vtkRenderMutex());  // measures text (an export may render)
  // Stacked from the bottom right, one line per arrow, for the window's current size.
  vtkRenderWindow* w = renderer_->GetRenderWindow();
  const int width = w ? w->GetSize()[0] : 800;
  const double scale = options_.textScale * std::max(0.1, options_.pixelRatio);
  double size = 14 * scale;
  // Lines too long for the room right of the corner axes (presentation mode's larger text in a
  // narrow view, the bicycle's long arrow names) get a smaller font, down to 60 %, rather than
  // run over the axes.
  if (w && !legend_.empty()) {
    const int base = std::max(1, static_cast<int>(std::lround(size)));
    double widest = 0;
    for (auto& l : legend_) {
      l->GetTextProperty()->SetFontSize(base);
      double extent[2] = {0, 0};
      l->GetSize(renderer_, extent);
      widest = std::max(widest, extent[0]);
    }
    const double room = width * (1 - kAxesViewportWidth) - 24 * scale;
    if (widest > room && room > 0) {
      size *= std::max(0.6, room / widest);
      for (auto& l : legend_)
        l->GetTextProperty()->SetFontSize(std::max(1, static_cast<int>(std::lround(size))));
    }
  }
  for (size_t i = 0; i < legend_.size(); ++i)
    legend_[i]->SetDisplayPosition(
        width - static_cast<int>(12 * scale),
        static_cast<int>(10 * scale + (legend_.size() - 1 - i) * size * 1.45));
}

void SceneRenderer::resetCamera(const Eigen::AlignedBox3d& region) {
  bool haveTable = false;
  for (const auto& b : frame_.bodies) haveTable |= b.kind == nh::ShapeKind::Table;
  if (haveTable || region.isEmpty()) {
    resetCamera();
    return;
  }
  Eigen::AlignedBox3d box = region;
  for (const auto& b : frame_.bodies) {
    // Sizes are half-extents, except a cylinder's (radius, half-height, radius) along z:
    // its bounding sphere holds it however it is turned.
    const Eigen::Vector3d half = b.kind == nh::ShapeKind::Cylinder
                                     ? Eigen::Vector3d::Constant(nh::boundingRadius(b))
                                     : Eigen::Vector3d(b.size.cwiseAbs());
    box.extend(b.position + half);
    box.extend(b.position - half);
  }
  const Eigen::Vector3d focus = box.center();
  const double radius = std::max(0.5, 0.5 * box.diagonal().norm());
  const Eigen::Vector3d direction = Eigen::Vector3d(0.55, -1.0, 0.62).normalized();
  // 30° view angle: at 2.6 radii the sphere around the box fits the height with a margin.
  const Eigen::Vector3d eye = focus + 2.6 * radius * direction;
  vtkCamera* cam = renderer_->GetActiveCamera();
  cam->SetFocalPoint(focus.x(), focus.y(), focus.z());
  cam->SetPosition(eye.x(), eye.y(), eye.z());
  cam->SetViewUp(0, 0, 1);
  cam->SetViewAngle(30);
  renderer_->ResetCameraClippingRange();
}

void SceneRenderer::resetCamera() {
  vtkCamera* cam = renderer_->GetActiveCamera();
  const double extent = std::max(1e-6, frame_.extent);
  Eigen::Vector3d focus = Eigen::Vector3d::Zero();
  bool haveTable = false;
  for (const auto& b : frame_.bodies) haveTable |= b.kind == nh::ShapeKind::Table;
  if (!haveTable && !frame_.bodies.empty()) {
    for (const auto& b : frame_.bodies) focus += b.position;
    focus /= static_cast<double>(frame_.bodies.size());
    focus.z() = std::max(focus.z(), 0.0);
  }
  const Eigen::Vector3d direction = Eigen::Vector3d(0.55, -1.0, 0.62).normalized();
  // A table fills the view; a free body is seen closer, with room to move around it, but
  // never so close that a large body is cut off (2.6 radii fit it in the 30° view).
  double distance = (haveTable ? 2.45 : 1.7) * extent;
  if (!haveTable)
    for (const auto& b : frame_.bodies)
      // Large bodies (the rigid body's plate) are fitted whole; small ones are seen at the
      // usual distance, and scenery larger than the scene (a plane) is not fitted.
      if (nh::boundingRadius(b) > 0.25 * extent && nh::boundingRadius(b) <= extent)
        distance = std::max(distance, 2.6 * ((b.position - focus).norm() + nh::boundingRadius(b)));
  const Eigen::Vector3d eye = focus + distance * direction;
  cam->SetFocalPoint(focus.x(), focus.y(), focus.z());
  cam->SetPosition(eye.x(), eye.y(), eye.z());
  cam->SetViewUp(0, 0, 1);
  cam->SetViewAngle(30);
  renderer_->ResetCameraClippingRange();
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
