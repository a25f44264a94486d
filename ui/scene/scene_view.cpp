#include "ui/scene/scene_view.h"

#include <vtkCamera.h>
#include <vtkRenderer.h>

#include <QMouseEvent>
#include <cmath>

#include "core/nh/errors.h"
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

}  // namespace

SceneView::SceneView(SimulationController* controller, QWidget* parent)
    : VtkViewWidget(parent), controller_(controller) {
  primary_ = std::make_unique<SceneRenderer>(renderer(), SceneRole::Primary);
  comparison_ = std::make_unique<SceneRenderer>(renderer(), SceneRole::Comparison);
  connect(this, &VtkViewWidget::cameraChangedByUser, this, &SceneView::captureCamera);
}

SceneView::~SceneView() {
  // Actors go before the render window's GL resources.
  makeCurrent();
  comparison_.reset();
  primary_.reset();
  doneCurrent();
}

void SceneView::setOptions(const SceneDisplayOptions& options) {
  options_ = options;
  options_.pixelRatio = devicePixelRatioF();  // text and lines in device pixels
  ++optionsSerial_;
  primary_->setOptions(options_);
  comparison_->setOptions(options_);
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
  ++optionsSerial_;
  primary_->setSystem(&controller_->system());
  comparison_->setSystem(&controller_->system());
  needCameraReset_ = true;
  refresh();
}

void SceneView::resetCamera() {
  if (frame_.bodies.empty()) {
    needCameraReset_ = true;
    return;
  }
  primary_->resetCamera();
  appliedRotation_ = Eigen::Quaterniond::Identity();
  needCameraReset_ = false;
  captureCamera();
  if (!follow_) frameBodies(true);  // with or without keep-in-view: Reset shows the bodies
  applyCamera();
  update();
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
  std::vector<CameraFramer::Sphere> bodies = movingBodySpheres(frame_);
  for (auto& b : bodies) b.centre = toRef * b.centre;
  // The last three simulated seconds of the world-frame trails, about 30 points each.
  std::vector<CameraFramer::Sphere> trail;
  const double recent = std::min(3.0, options_.trailSeconds);
  const size_t keep = static_cast<size_t>(recent / std::max(1e-6, controller_->dtOut())) + 1;
  for (const TrailSpan& span : primaryTrails_) {
    if (span.inMovingFrame || span.count == 0) continue;
    const size_t first = span.count > keep ? span.count - keep : 0;
    const size_t stride = std::max<size_t>(1, (span.count - first) / 30);
    for (size_t k = first; k < span.count; k += stride) {
      const Eigen::Vector3d p(span.x[k], span.y[k], span.z[k]);
      if (p.allFinite()) trail.push_back({toRef * p, 0.0});
    }
  }
  CameraFramer::View view;
  view.direction = -cameraOffset_.normalized();
  view.up = cameraUp_;
  view.viewAngleDegrees = renderer()->GetActiveCamera()->GetViewAngle();
  view.aspect = height() > 0 ? static_cast<double>(width()) / height() : 1.0;
  const double dt = frameClock_.isValid() ? frameClock_.restart() / 1000.0 : 0.0;
  if (!frameClock_.isValid()) frameClock_.start();
  if (settle)
    framer_.settle(view, bodies, trail);
  else
    framer_.step(dt, view, bodies, trail);
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
  const Signature signature{t, controller_->epoch(), sizes, optionsSerial_};
  const bool easing = options_.keepInView && !follow_ && framer_.moving();
  if (signature == lastSignature_ && !needCameraReset_ && !follow_ && !easing) {
    frameClock_.invalidate();  // idle: the next camera step starts from here
    return;
  }
  lastSignature_ = signature;
  if (!controller_->displayedScene(0, frame_)) return;
  primaryTrails_ = trailSpans(controller_->primary(), t, options_.trailSeconds);
  primary_->update(frame_, primaryTrails_);
  nh::SceneFrame other;
  const RunHistory* comparison = controller_->comparison();
  scanComparison();
  // A run that left the scene is drawn up to that moment only: far away it would stretch the
  // camera's clipping range until the whole view came out empty.
  const bool left = !std::isnan(comparisonLeftAt_) && t >= comparisonLeftAt_;
  if (comparison && !left && controller_->displayedScene(1, other)) {
    comparison_->setVisible(true);
    comparison_->update(other, trailSpans(*comparison, t, options_.trailSeconds));
  } else {
    comparison_->setVisible(false);
  }
  std::string overlay = formatTime(t);
  switch (controller_->compareMode()) {
    case CompareMode::Vakonomic:
      overlay += "\nsolid: nonholonomic   orange: vakonomic";
      break;
    case CompareMode::Ghost: {
      char buf[160];
      std::snprintf(buf, sizeof buf, "\norange ghost: %s = %g",
                    controller_->ghostParameter().c_str(), controller_->ghostValue());
      overlay += buf;
      break;
    }
    case CompareMode::None:
      break;
  }
  if (left) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "\n%s run left the scene at t = %.2f s",
                  controller_->compareMode() == CompareMode::Vakonomic ? "vakonomic" : "ghost",
                  comparisonLeftAt_);
    overlay += buf;
  }
  if (tableFrame_) overlay += "\nview: rotating table frame";
  if (editInitial_) overlay += "\nedit: drag the body (position) or the green arrow (velocity)";
  primary_->setOverlayText(overlay);
  if (needCameraReset_) {
    resetCamera();
  } else {
    applyCamera();
  }
  update();
}

bool SceneView::canEditInitial() const { return dragHandle() != nullptr; }

void SceneView::setEditInitial(bool edit) {
  editInitial_ = edit && canEditInitial();
  ++optionsSerial_;
  if (editInitial_) {
    controller_->pause();
    controller_->reset();
    controller_->waitForTime(0, 2000);
    controller_->tick();
  }
  refresh();
}

bool SceneView::planePoint(const QPointF& pos, double height, Eigen::Vector3d& point) const {
  double origin[3], dir[3];
  pickRay(pos, origin, dir);
  if (std::abs(dir[2]) < 1e-9) return false;
  const double s = (height - origin[2]) / dir[2];
  if (s <= 0) return false;
  point = Eigen::Vector3d(origin[0] + s * dir[0], origin[1] + s * dir[1], height);
  return true;
}

bool SceneView::handleMousePress(QMouseEvent* event) {
  if (!editInitial_ || event->button() != Qt::LeftButton) return false;
  const nh::DragHandle* handle = dragHandle();
  if (!handle) return false;
  const nh::SceneBody* body = findBody(handle->body);
  if (!body) return false;
  const nh::StateLayout& layout = controller_->primary().layout().state;
  const auto& x0 = controller_->initialState();
  const int ix = layout.find(handle->x), iy = layout.find(handle->y);
  if (ix < 0 || iy < 0) return false;
  startX_ = x0[layout.index[ix]];
  startY_ = x0[layout.index[iy]];
  dragBefore_ = controller_->initialOverrides();
  velocityAxes_ = handle->velocityInBodyAxes ? body->orientation.toRotationMatrix()
                                             : Eigen::Matrix3d::Identity();

  const QPointF p = event->position();
  for (const auto& a : frame_.arrows) {
    if (handle->arrow.empty() || a.name != handle->arrow) continue;
    const double magnitude = a.vector.norm();
    const double length = primary_->arrowLength(a.name, magnitude);
    const Eigen::Vector3d tip =
        magnitude > 0 ? Eigen::Vector3d(a.origin + a.vector / magnitude * length) : a.origin;
    const double tipWorld[3] = {tip.x(), tip.y(), tip.z()};
    const double originWorld[3] = {a.origin.x(), a.origin.y(), a.origin.z()};
    const QPointF tipScreen = worldToWidget(tipWorld), originScreen = worldToWidget(originWorld);
    const bool nearTip = QLineF(tipScreen, p).length() < 18;
    const bool fromBody =
        (event->modifiers() & Qt::ControlModifier) && QLineF(originScreen, p).length() < 40;
    if ((nearTip && options_.velocityArrows) || fromBody) {
      drag_ = Drag::Velocity;
      velocityOrigin_ = a.origin;
      velocityPerLength_ = length > 0 && magnitude > 0 ? magnitude / length
                                                       : 1.0 / std::max(1e-6, 0.35 * frame_.extent);
      return true;
    }
  }
  Eigen::Vector3d hit;
  if (!planePoint(p, body->position.z(), hit)) return false;
  const double radius = std::max({body->size.x(), body->size.y(), 0.05 * frame_.extent});
  const double bodyWorld[3] = {body->position.x(), body->position.y(), body->position.z()};
  const bool onBody = (hit - body->position).norm() < 1.6 * radius ||
                      QLineF(worldToWidget(bodyWorld), p).length() < 25;
  if (!onBody) return false;
  drag_ = Drag::Position;
  dragStart_ = hit;
  return true;
}

bool SceneView::handleMouseMove(QMouseEvent* event) {
  if (drag_ == Drag::None) return false;
  const nh::DragHandle* handle = dragHandle();
  if (!handle) return false;
  std::map<std::string, double> overrides = controller_->initialOverrides();
  Eigen::Vector3d hit;
  if (drag_ == Drag::Position) {
    if (!planePoint(event->position(), dragStart_.z(), hit)) return true;
    overrides[handle->x] = startX_ + (hit.x() - dragStart_.x());
    overrides[handle->y] = startY_ + (hit.y() - dragStart_.y());
  } else {
    if (!planePoint(event->position(), velocityOrigin_.z(), hit)) return true;
    const Eigen::Vector3d w = (hit - velocityOrigin_) * velocityPerLength_;
    const Eigen::Vector3d v = velocityAxes_.transpose() * w;  // components along the axes
    if (!handle->vx.empty()) overrides[handle->vx] = v.x();
    if (!handle->vy.empty()) overrides[handle->vy] = v.y();
  }
  try {
    controller_->setInitialOverrides(overrides);
    controller_->reset();
    controller_->waitForTime(0, 1000);
    controller_->tick();
  } catch (const nh::Error&) {
    // An unreachable state while dragging: keep the last good one.
  }
  return true;
}

bool SceneView::handleMouseRelease(QMouseEvent*) {
  if (drag_ == Drag::None) return false;
  drag_ = Drag::None;
  if (controller_->initialOverrides() != dragBefore_)
    emit initialDragged(dragBefore_, controller_->initialOverrides());
  return true;
}

}  // namespace nhui
