// SceneView (scene_view.h): the controller's displayed moment drawn through the primary and
// comparison renderers, trails, the camera (follow, table frame, keep in view), plan ghosts,
// and the drag handles that edit the initial position and velocity (in the plane the handle's
// coordinates move the body in: the ground, or an incline). The target ghost of Plan a motion
// is in scene_view_target.cpp.
#include "ui/scene/scene_view.h"

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkSphereSource.h>

#include <QLineF>
#include <QMouseEvent>
#include <cmath>
#include <limits>

#include "core/nh/errors.h"
#include "ui/sim/run_style.h"
#include "ui/sim/simulation_controller.h"

namespace nhui {

namespace {

std::vector<TrailSpan> trailSpans(const RunHistory& run, double tDisplay, double seconds) {
  std::vector<TrailSpan> spans;
  if (run.empty()) return spans;
  const size_t end = run.indexAtOrBefore(tDisplay) + 1;
  const size_t begin = std::min(end, run.indexAtOrAfter(tDisplay - seconds));
  for (const auto& p : run.layout().points) {
    TrailSpan s;
    s.name = p.name;
    s.inMovingFrame = p.inMovingFrame;
    s.x = run.column(p.column).data() + begin;
    s.y = run.column(p.column + 1).data() + begin;
    s.z = run.column(p.column + 2).data() + begin;
    s.count = end - begin;
    s.first = begin;
    spans.push_back(s);
  }
  return spans;
}

std::string formatTime(double t) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "t = %.2f s", t);
  return buf;
}

// The velocity knob: its size relative to the scene and its colours (normal, hovered).
constexpr double kKnobRadius = 0.035;  // × the scene's extent
constexpr double kKnobColour[3] = {0.35, 0.9, 0.45};
constexpr double kKnobHoverColour[3] = {1.0, 0.85, 0.2};
constexpr double kKnobGap = 8;  // screen pixels between the body's grab disc and the knob's

}  // namespace

DragTarget pickDragTarget(QPointF press, QPointF body, double bodyRadius,
                          std::optional<QPointF> tip, double tipRadius, bool control) {
  const double toBody = QLineF(body, press).length();
  const double toTip = tip ? QLineF(*tip, press).length() : std::numeric_limits<double>::infinity();
  if (control && toBody < std::max(40.0, bodyRadius)) return DragTarget::Velocity;
  const bool onBody = toBody < bodyRadius, onTip = toTip < tipRadius;
  if (onTip && onBody) return toTip < toBody ? DragTarget::Velocity : DragTarget::Position;
  if (onTip) return DragTarget::Velocity;
  if (onBody) return DragTarget::Position;
  return DragTarget::None;
}

SceneView::SceneView(SimulationController* controller, QWidget* parent)
    : VtkViewWidget(parent), controller_(controller) {
  primary_ = std::make_unique<SceneRenderer>(renderer(), SceneRole::Primary);
  comparison_ = std::make_unique<SceneRenderer>(renderer(), SceneRole::Comparison);
  planStart_ = std::make_unique<SceneRenderer>(renderer(), SceneRole::Ghost);
  planTarget_ = std::make_unique<SceneRenderer>(renderer(), SceneRole::Ghost);
  planEdit_ = std::make_unique<SceneRenderer>(renderer(), SceneRole::Ghost);
  planEdit_->setVisible(false);
  vtkNew<vtkSphereSource> sphere;
  sphere->SetThetaResolution(24);
  sphere->SetPhiResolution(16);
  vtkNew<vtkPolyDataMapper> mapper;
  mapper->SetInputConnection(sphere->GetOutputPort());
  knob_ = vtkSmartPointer<vtkActor>::New();
  knob_->SetMapper(mapper);
  knob_->GetProperty()->SetColor(kKnobColour[0], kKnobColour[1], kKnobColour[2]);
  knob_->VisibilityOff();
  renderer()->AddActor(knob_);
  connect(this, &VtkViewWidget::cameraChangedByUser, this, &SceneView::captureCamera);
  // A reset or a restart after an edit: the arrows scale afresh for the new run.
  connect(controller_, &SimulationController::historyReset, this, [this] { newRun_ = true; });
  // Another system object (an applied edit of a model keeps its name): new bodies.
  connect(controller_, &SimulationController::scenarioChanged, this, [this] {
    if (controller_->systemPtr() != builtFor_) rebuild();
  });
  rebuild();
}

SceneView::~SceneView() {
  // Actors go before the render window's GL resources.
  makeCurrent();
  renderer()->RemoveActor(knob_);
  knob_ = nullptr;
  planEdit_.reset();
  planTarget_.reset();
  planStart_.reset();
  comparison_.reset();
  primary_.reset();
  doneCurrent();
}

void SceneView::setOptions(const SceneDisplayOptions& options) {
  options_ = options;
  options_.pixelRatio = devicePixelRatioF();  // text and lines in device pixels
  ++optionsSerial_;
  for (SceneRenderer* r :
       {primary_.get(), comparison_.get(), planStart_.get(), planTarget_.get(), planEdit_.get()})
    r->setOptions(options_);
  refresh();
}

void SceneView::setFollow(bool follow) {
  follow_ = follow;
  ++optionsSerial_;
  captureCamera();
  refresh();
}

void SceneView::setTableFrame(bool tableFrame) {
  tableFrame_ = tableFrame;
  ++optionsSerial_;
  captureCamera();
  refresh();
}

void SceneView::rebuild() {
  builtFor_ = controller_->systemPtr();
  ++optionsSerial_;
  for (SceneRenderer* r :
       {primary_.get(), comparison_.get(), planStart_.get(), planTarget_.get(), planEdit_.get()})
    r->setSystem(&controller_->system());
  needCameraReset_ = true;
  refresh();
}

void SceneView::resetCamera() {
  if (frame_.bodies.empty()) {
    needCameraReset_ = true;
    return;
  }
  appliedRotation_ = Eigen::Quaterniond::Identity();
  needCameraReset_ = false;
  if (givenPose_) {  // as given: orbit, zoom and target
    vtkCamera* cam = renderer()->GetActiveCamera();
    cam->SetPosition(givenPose_->position.data());
    cam->SetFocalPoint(givenPose_->focalPoint.data());
    cam->SetViewUp(givenPose_->viewUp.data());
    cam->SetViewAngle(givenPose_->viewAngle);
    givenPose_.reset();
    renderer()->ResetCameraClippingRange();
    captureCamera();
    applyCamera();
    update();
    return;
  }
  primary_->resetCamera();
  captureCamera();
  if (!follow_) frameBodies(true);  // with or without keep-in-view: Reset shows the bodies
  if (follow_) fitAroundFollowedBody();
  applyCamera();
  update();
}

CameraPose SceneView::cameraPose() const {
  vtkCamera* cam = renderer()->GetActiveCamera();
  CameraPose pose;
  cam->GetPosition(pose.position.data());
  cam->GetFocalPoint(pose.focalPoint.data());
  cam->GetViewUp(pose.viewUp.data());
  pose.viewAngle = cam->GetViewAngle();
  return pose;
}

void SceneView::setCameraPose(const CameraPose& pose) {
  givenPose_ = pose;
  needCameraReset_ = true;
  refresh();
}

// A following camera looks at one body (the bicycle's rider) from the reset's distance, which
// was chosen for the bodies' centre: far enough back that every part around it fits (the
// front wheel was cut at the bottom of a projector's view).
void SceneView::fitAroundFollowedBody() {
  const std::string& follow = controller_->system().info().editing.followBody;
  const nh::SceneBody* body = findBody(follow);
  if (!body) return;
  const Eigen::Quaterniond toRef = referenceRotation().conjugate();
  std::vector<CameraFramer::Sphere> parts = movingBodySpheres(frame_, follow);
  for (auto& s : parts) s.centre = toRef * s.centre;
  CameraFramer::View view;
  view.direction = -cameraOffset_.normalized();
  view.up = cameraUp_;
  view.viewAngleDegrees = renderer()->GetActiveCamera()->GetViewAngle();
  view.aspect = height() > 0 ? static_cast<double>(width()) / height() : 1.0;
  const double need =
      CameraFramer::fitDistanceAround(view, toRef * body->position, parts, CameraFramer::kTrail);
  if (cameraOffset_.norm() < need) {
    cameraOffset_ = cameraOffset_.normalized() * need;
    framer_.adopt(cameraFocus_, need);
  }
}

Eigen::Quaterniond SceneView::referenceRotation() const {
  return tableFrame_ ? frame_.movingFrame : Eigen::Quaterniond::Identity();
}

const nh::SceneBody* SceneView::findBody(const std::string& name) const {
  if (name.empty()) return nullptr;
  for (const auto& b : frame_.bodies)
    if (b.name == name) return &b;
  return nullptr;
}

const nh::DragHandle* SceneView::dragHandle() const {
  const auto& drag = controller_->system().info().editing.drag;
  return drag ? &*drag : nullptr;
}

void SceneView::captureCamera() {
  vtkCamera* cam = renderer()->GetActiveCamera();
  double fp[3], pos[3], up[3];
  cam->GetFocalPoint(fp);
  cam->GetPosition(pos);
  cam->GetViewUp(up);
  const Eigen::Vector3d f(fp[0], fp[1], fp[2]), p(pos[0], pos[1], pos[2]), u(up[0], up[1], up[2]);
  // Stored relative to the current reference frame, so switching frames does not jump.
  const Eigen::Quaterniond now = referenceRotation();
  const Eigen::Quaterniond toRef = now.conjugate();
  cameraOffset_ = toRef * (p - f);
  cameraUp_ = toRef * u;
  cameraFocus_ = toRef * f;
  appliedRotation_ = now;
  framer_.adopt(cameraFocus_, cameraOffset_.norm());
}

void SceneView::frameBodies(bool settle) {
  // In the reference frame (world, or the table's): the framer moves cameraFocus_ and the
  // length of cameraOffset_, never their direction.
  const Eigen::Quaterniond toRef = referenceRotation().conjugate();
  const std::string& follow = controller_->system().info().editing.followBody;
  std::vector<CameraFramer::Sphere> bodies = movingBodySpheres(frame_, follow);
  // The comparison run's bodies too, while it is drawn (until it left the scene).
  if (comparisonShown_)
    for (const auto& s : movingBodySpheres(comparisonFrame_, follow)) bodies.push_back(s);
  for (auto& b : bodies) b.centre = toRef * b.centre;
  // The last three simulated seconds of the world-frame trails, about 30 points each.
  const double recent = std::min(3.0, options_.trailSeconds);
  const size_t keep = static_cast<size_t>(recent / std::max(1e-6, controller_->dtOut())) + 1;
  const std::vector<CameraFramer::Sphere> trail = recentTrailSpheres(primaryTrails_, keep, toRef);
  CameraFramer::View view;
  view.direction = -cameraOffset_.normalized();
  view.up = cameraUp_;
  view.viewAngleDegrees = renderer()->GetActiveCamera()->GetViewAngle();
  view.aspect = height() > 0 ? static_cast<double>(width()) / height() : 1.0;
  const double dt = frameClock_.isValid() ? frameClock_.restart() / 1000.0 : 0.0;
  if (!frameClock_.isValid()) frameClock_.start();
  // Playing on moves the display time by about speed × wall time (less while the simulation
  // catches up; the margin covers the controller's ticks falling between two paints) or by a
  // step of the timeline; more, or a new run, is a jump.
  const double t = controller_->displayTime();
  const long epoch = controller_->epoch();
  const double wall = dt > 0 ? dt : 0.1;
  const bool jumped = epoch != framedEpoch_ ||
                      !(std::abs(t - framedTime_) <=
                        controller_->speed() * (1.5 * wall + 0.1) + 2 * controller_->dtOut());
  framedTime_ = t;
  framedEpoch_ = epoch;
  if (settle)
    framer_.settle(view, bodies, trail);
  else
    framer_.step(dt, view, bodies, trail, jumped);
  cameraFocus_ = framer_.focus();
  cameraOffset_ = cameraOffset_.normalized() * framer_.distance();
}

void SceneView::scanComparison() {
  const RunHistory* other = controller_->comparison();
  const RunHistory& primary = controller_->primary();
  if (!other || controller_->epoch() != comparisonEpoch_ || other->size() < comparisonScanned_) {
    comparisonEpoch_ = controller_->epoch();
    comparisonScanned_ = 0;
    comparisonLeftAt_ = std::numeric_limits<double>::quiet_NaN();
  }
  if (!other || !std::isnan(comparisonLeftAt_) || other->empty() || primary.empty()) return;
  // The first sample where a point of the comparison run is not finite or farther than
  // kLeaveExtents scene extents from the same point of the primary run.
  const double limit = kLeaveExtents * std::max(1e-6, frame_.extent);
  // The runs' record layouts differ (a vakonomic run records more multipliers): the point
  // columns are matched by name.
  std::vector<std::pair<int, int>> columns;  // (comparison, primary) first column of a point
  for (const auto& p : other->layout().points)
    for (const auto& q : primary.layout().points)
      if (p.name == q.name) columns.emplace_back(p.column, q.column);
  for (; comparisonScanned_ < other->size(); ++comparisonScanned_) {
    const size_t k = comparisonScanned_;
    const double t = other->time(k);
    if (t > primary.lastTime()) break;  // the primary run has not got there yet
    const size_t j = primary.indexAtOrBefore(t);
    for (const auto& [ca, cb] : columns) {
      const Eigen::Vector3d a(other->column(ca)[k], other->column(ca + 1)[k],
                              other->column(ca + 2)[k]);
      const Eigen::Vector3d b(primary.column(cb)[j], primary.column(cb + 1)[j],
                              primary.column(cb + 2)[j]);
      if (!a.allFinite() || (b.allFinite() && (a - b).norm() > limit)) {
        comparisonLeftAt_ = t;
        return;
      }
    }
  }
}

void SceneView::applyCamera() {
  const Eigen::Quaterniond R = referenceRotation();
  // The user's own camera moves are not fought: no framing while a mouse drag lasts.
  if (!follow_ && options_.keepInView && !navigating()) frameBodies(false);
  Eigen::Vector3d focus = R * cameraFocus_;
  if (follow_) {
    if (const nh::SceneBody* b = findBody(controller_->system().info().editing.followBody))
      focus = b->position;
  }
  const Eigen::Vector3d eye = focus + R * cameraOffset_;
  const Eigen::Vector3d up = R * cameraUp_;
  vtkCamera* cam = renderer()->GetActiveCamera();
  cam->SetFocalPoint(focus.x(), focus.y(), focus.z());
  cam->SetPosition(eye.x(), eye.y(), eye.z());
  cam->SetViewUp(up.x(), up.y(), up.z());
  renderer()->ResetCameraClippingRange();
  appliedRotation_ = R;
  if (follow_) cameraFocus_ = R.conjugate() * focus;
}

void SceneView::refresh() {
  if (!primary_) return;
  const double t = controller_->displayTime();
  // Nothing new to draw (paused, no edit): leave the last frame on screen. Software GL pays
  // for every frame, so idle views should cost nothing.
  const size_t sizes = controller_->primary().size() +
                       (controller_->comparison() ? controller_->comparison()->size() : 0);
  const Signature signature{t, controller_->epoch(), sizes, optionsSerial_, controller_->plan()};
  const bool easing = options_.keepInView && !follow_ && framer_.moving();
  if (signature == lastSignature_ && !needCameraReset_ && !follow_ && !easing) {
    frameClock_.invalidate();  // idle: the next camera step starts from here
    return;
  }
  lastSignature_ = signature;
  if (!controller_->displayedScene(0, frame_)) return;
  primaryTrails_ = trailSpans(controller_->primary(), t, options_.trailSeconds);
  if (newRun_) {
    newRun_ = false;
    primary_->newRun();
    comparison_->newRun();
  }
  const RunHistory* comparison = controller_->comparison();
  scanComparison();
  // A run that left the scene is drawn up to that moment only: far away it would stretch the
  // camera's clipping range until the whole view came out empty.
  const bool left = !std::isnan(comparisonLeftAt_) && t >= comparisonLeftAt_;
  comparisonShown_ = comparison && !left && controller_->displayedScene(1, comparisonFrame_);
  // The comparison run's bodies are on the primary run's table, which is drawn for both.
  primary_->setTableGuests(comparisonShown_ ? comparisonFrame_.bodies
                                            : std::vector<nh::SceneBody>{});
  primary_->setCompared(comparison != nullptr);
  primary_->update(frame_, primaryTrails_);
  if (comparisonShown_) {
    comparison_->setVisible(true);
    comparison_->update(comparisonFrame_, trailSpans(*comparison, t, options_.trailSeconds));
  } else {
    comparison_->setVisible(false);
  }
  updatePlanGhosts();
  updateTargetGhost();
  std::string overlay = formatTime(t);
  if (controller_->compareMode() != CompareMode::None && controller_->comparison()) {
    overlay += '\n';
    overlay += comparisonLegendLine(runLabel(*controller_, 0).toStdString(),
                                    runLabel(*controller_, 1).toStdString());
  }
  if (left) {
    overlay += '\n';
    overlay +=
        leftSceneLine(runLabel(*controller_, 1).toStdString(), comparisonLeftAt_, kLeaveExtents);
  }
  if (tableFrame_) overlay += "\nview: rotating table frame";
  if (editInitial_) overlay += "\nedit: drag the body (position) or the green knob (velocity)";
  if (!targetGhost_.empty())
    overlay += controller_->system().info().quaternions.empty()
                   ? "\nplan: drag the faint target"
                   : "\nplan: drag the faint target, Ctrl+drag to turn it";
  primary_->setOverlayText(overlay);
  if (needCameraReset_) {
    resetCamera();
  } else {
    applyCamera();
  }
  updateHandle();
  update();
}

void SceneView::updatePlanGhosts() {
  const RunHistory& run = controller_->primary();
  const bool shown = controller_->plan() && !run.empty();
  planStart_->setVisible(shown);
  planTarget_->setVisible(shown);
  if (!shown) return;
  nh::SceneFrame start, target;
  run.sceneAt(run.firstTime(), start);
  run.sceneAt(run.lastTime(), target);
  planStart_->update(start, {});
  planTarget_->update(target, {});
}

int SceneView::planGhostBodies() const {
  int count = 0;
  for (const SceneRenderer* r : {planStart_.get(), planTarget_.get()})
    if (r->visible()) count += r->shownBodyCount();
  return count;
}

bool SceneView::handleGeometry(HandleGeometry& g) const {
  const nh::DragHandle* handle = dragHandle();
  if (!handle) return false;
  const nh::SceneBody* body = findBody(handle->body);
  if (!body) return false;
  double up[3];
  renderer()->GetActiveCamera()->GetViewUp(up);
  const Eigen::Vector3d viewUp(up[0], up[1], up[2]);
  auto onScreen = [&](const Eigen::Vector3d& p) {
    const double w[3] = {p.x(), p.y(), p.z()};
    return worldToWidget(w);
  };
  // Screen radius of a world sphere of radius r at p: its centre to its top edge.
  auto screenRadius = [&](const Eigen::Vector3d& p, double r) {
    return QLineF(onScreen(p), onScreen(p + r * viewUp)).length();
  };
  grabDisc(*body, g.body, g.bodyRadius);
  g.tip.reset();
  for (const auto& a : frame_.arrows) {
    if (handle->arrow.empty() || a.name != handle->arrow) continue;
    const double magnitude = a.vector.norm();
    const double length = primary_->arrowLength(a.name, magnitude);
    const bool drawn = magnitude > 0 && length > 0 && std::isfinite(length);
    g.origin = a.origin;
    g.vector = a.vector.allFinite() ? a.vector : Eigen::Vector3d::Zero();
    g.perLength = drawn ? magnitude / length : 1.0 / std::max(1e-6, 0.35 * frame_.extent);
    const double knob = kKnobRadius * frame_.extent;
    g.tipRadius = std::max(14.0, 1.4 * screenRadius(a.origin, knob));
    // The knob sits at the arrow's tip, but never on the body: at least kKnobGap pixels beyond
    // the body's grab disc, along the arrow (a short or zero arrow: along the drag's x axis;
    // an arrow along the line of sight: across the screen), so both can be grabbed.
    const double minPixels = g.bodyRadius + g.tipRadius + kKnobGap;
    const double unit = std::max(1e-6, 0.35 * frame_.extent);
    auto pixelsPerUnit = [&](const Eigen::Vector3d& d) {
      return QLineF(onScreen(a.origin), onScreen(a.origin + unit * d)).length() / unit;
    };
    const Eigen::Matrix3d axes =
        handle->velocityInBodyAxes ? body->orientation.toRotationMatrix() : handlePlane().axes;
    Eigen::Vector3d direction = drawn ? Eigen::Vector3d(a.vector / magnitude) : axes.col(0);
    if (pixelsPerUnit(direction) * unit < 0.2 * minPixels) {
      double dop[3];
      renderer()->GetActiveCamera()->GetDirectionOfProjection(dop);
      const Eigen::Vector3d right = Eigen::Vector3d(dop[0], dop[1], dop[2]).cross(viewUp);
      if (right.norm() > 1e-9) direction = right.normalized();
    }
    double along = drawn ? length : 0.0;
    for (int pass = 0; pass < 3; ++pass) {  // perspective: correct the first guess
      const double pixels = QLineF(g.body, onScreen(a.origin + along * direction)).length();
      if (pixels >= minPixels) break;
      const double perUnit = std::max(1e-9, pixelsPerUnit(direction));
      along = std::max(along * minPixels / std::max(pixels, 1e-9), minPixels / perUnit);
    }
    g.tipWorld = a.origin + along * direction;
    g.tip = onScreen(g.tipWorld);
  }
  return true;
}

void SceneView::grabDisc(const nh::SceneBody& body, QPointF& centre, double& radius) const {
  double up[3];
  renderer()->GetActiveCamera()->GetViewUp(up);
  const Eigen::Vector3d top =
      body.position + 1.3 * std::max({body.size.x(), body.size.y(), 0.05 * frame_.extent}) *
                          Eigen::Vector3d(up[0], up[1], up[2]);
  const double c[3] = {body.position.x(), body.position.y(), body.position.z()};
  const double t[3] = {top.x(), top.y(), top.z()};
  centre = worldToWidget(c);
  radius = std::max(25.0, QLineF(centre, worldToWidget(t)).length());
}

std::optional<QPointF> SceneView::velocityKnob() const {
  HandleGeometry g;
  if (!editInitial_ || !handleGeometry(g)) return std::nullopt;
  return g.tip;
}

void SceneView::updateHandle() {
  HandleGeometry g;
  const bool shown = editInitial_ && handleGeometry(g) && g.tip;
  knob_->SetVisibility(shown);
  if (!shown) return;
  const bool hot = hover_ == DragTarget::Velocity || drag_ == Drag::Velocity;
  const double* colour = hot ? kKnobHoverColour : kKnobColour;
  knob_->GetProperty()->SetColor(colour[0], colour[1], colour[2]);
  knob_->SetScale(kKnobRadius * frame_.extent * (hot ? 1.4 : 1.0) *
                  2);  // the source's diameter is 1
  knob_->SetPosition(g.tipWorld.x(), g.tipWorld.y(), g.tipWorld.z());
}

void SceneView::mouseMoveEvent(QMouseEvent* event) {
  if (editInitial_ && event->buttons() == Qt::NoButton) {
    HandleGeometry g;
    DragTarget target = DragTarget::None;
    if (handleGeometry(g))
      target = pickDragTarget(event->position(), g.body, g.bodyRadius, g.tip, g.tipRadius,
                              event->modifiers() & Qt::ControlModifier);
    if (target != hover_) {
      hover_ = target;
      if (target == DragTarget::None)
        unsetCursor();
      else
        setCursor(target == DragTarget::Velocity ? Qt::CrossCursor : Qt::SizeAllCursor);
      updateHandle();
      update();
    }
  }
  VtkViewWidget::mouseMoveEvent(event);
}

bool SceneView::canEditInitial() const { return dragHandle() != nullptr; }

void SceneView::setEditInitial(bool edit) {
  editInitial_ = edit && canEditInitial();
  ++optionsSerial_;
  setMouseTracking(editInitial_);  // hover feedback on the handles
  if (!editInitial_) {
    hover_ = DragTarget::None;
    unsetCursor();
  }
  if (editInitial_) {  // the start is shown once the worker has recorded it (next tick)
    controller_->pause();
    controller_->reset();
  }
  refresh();
}

DragPlane SceneView::handlePlane() const {
  DragPlane plane;
  const nh::DragHandle* handle = dragHandle();
  const nh::StateLayout& layout = controller_->primary().layout().state;
  const int ix = handle ? layout.find(handle->x) : -1, iy = handle ? layout.find(handle->y) : -1;
  const RunHistory& run = controller_->primary();
  if (ix >= 0 && iy >= 0 &&
      bodyDragPlane(controller_->system(), controller_->parameters().data(),
                    run.empty() ? 0.0 : run.firstTime(), controller_->initialState(), handle->body,
                    {layout.index[ix], layout.index[iy]}, plane))
    return plane;
  // Nothing to differentiate: x and y move the body along the world's x and y.
  plane.axes = Eigen::Matrix3d::Identity();
  plane.variables = {ix >= 0 ? layout.index[ix] : -1, iy >= 0 ? layout.index[iy] : -1};
  plane.jacobian = plane.axes.leftCols(2);
  return plane;
}

bool SceneView::planePoint(const QPointF& pos, const Eigen::Vector3d& through,
                           Eigen::Vector3d& point) const {
  double origin[3], dir[3];
  pickRay(pos, origin, dir);
  return plane_.intersect(origin, dir, through, point);
}

bool SceneView::handleMousePress(QMouseEvent* event) {
  if (pressTargetGhost(event)) return true;
  if (!editInitial_ || event->button() != Qt::LeftButton) return false;
  const nh::DragHandle* handle = dragHandle();
  HandleGeometry g;
  if (!handle || !handleGeometry(g)) return false;
  const nh::SceneBody* body = findBody(handle->body);
  const nh::StateLayout& layout = controller_->primary().layout().state;
  const auto& x0 = controller_->initialState();
  const int ix = layout.find(handle->x), iy = layout.find(handle->y);
  if (ix < 0 || iy < 0) return false;
  startX_ = x0[layout.index[ix]];
  startY_ = x0[layout.index[iy]];
  plane_ = handlePlane();
  emit initialDragStarted();
  velocityAxes_ = handle->velocityInBodyAxes ? body->orientation.toRotationMatrix() : plane_.axes;
  const QPointF p = event->position();
  switch (pickDragTarget(p, g.body, g.bodyRadius, g.tip, g.tipRadius,
                         event->modifiers() & Qt::ControlModifier)) {
    case DragTarget::Velocity: {
      if (!g.tip) return false;
      drag_ = Drag::Velocity;
      velocityOrigin_ = g.origin;
      velocityPerLength_ = g.perLength;
      // The knob moves the velocity by how far it is dragged (it may sit beyond a short
      // arrow's tip); Ctrl on the body pulls out a new velocity from the body's centre.
      const bool onKnob = QLineF(*g.tip, p).length() < g.tipRadius;
      velocityStart_ = onKnob ? g.vector : Eigen::Vector3d::Zero();
      dragStart_ = g.origin;
      if (onKnob && !planePoint(p, g.origin, dragStart_)) dragStart_ = g.origin;
      updateHandle();
      return true;
    }
    case DragTarget::Position: {
      Eigen::Vector3d hit;
      if (!planePoint(p, body->position, hit)) return false;
      drag_ = Drag::Position;
      dragStart_ = hit;
      return true;
    }
    case DragTarget::None:
      break;
  }
  return false;
}

bool SceneView::handleMouseMove(QMouseEvent* event) {
  if (drag_ == Drag::None) return false;
  if (drag_ == Drag::Target || drag_ == Drag::TargetTurn) {
    moveTargetGhost(event);
    return true;
  }
  const nh::DragHandle* handle = dragHandle();
  if (!handle) return false;
  std::map<std::string, double> overrides = controller_->initialOverrides();
  Eigen::Vector3d hit;
  if (drag_ == Drag::Position) {
    if (!planePoint(event->position(), dragStart_, hit)) return true;
    // The change of the handle's x and y that moves the body by as much in its plane.
    const Eigen::VectorXd change = plane_.change(hit - dragStart_);
    const nh::StateLayout& layout = controller_->primary().layout().state;
    const int sx = layout.index[layout.find(handle->x)], sy = layout.index[layout.find(handle->y)];
    overrides[handle->x] = startX_;
    overrides[handle->y] = startY_;
    for (size_t i = 0; i < plane_.variables.size(); ++i) {
      if (plane_.variables[i] == sx) overrides[handle->x] = startX_ + change[Eigen::Index(i)];
      if (plane_.variables[i] == sy) overrides[handle->y] = startY_ + change[Eigen::Index(i)];
    }
  } else {
    if (!planePoint(event->position(), velocityOrigin_, hit)) return true;
    const Eigen::Vector3d w = velocityStart_ + (hit - dragStart_) * velocityPerLength_;
    const Eigen::Vector3d v = velocityAxes_.transpose() * w;  // components along the axes
    if (!handle->vx.empty()) overrides[handle->vx] = v.x();
    if (!handle->vy.empty()) overrides[handle->vy] = v.y();
  }
  emit initialDragMoved(overrides);
  return true;
}

bool SceneView::handleMouseRelease(QMouseEvent*) {
  if (drag_ == Drag::None) return false;
  if (drag_ == Drag::Target || drag_ == Drag::TargetTurn) {
    drag_ = Drag::None;
    return true;
  }
  drag_ = Drag::None;
  updateHandle();
  emit initialDragEnded();
  return true;
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
