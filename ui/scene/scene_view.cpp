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
  ++optionsSerial_;
  primary_->setOptions(options);
  comparison_->setOptions(options);
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
}

void SceneView::applyCamera() {
  const Eigen::Quaterniond R = referenceRotation();
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
  if (signature == lastSignature_ && !needCameraReset_ && !follow_) return;
  lastSignature_ = signature;
  if (!controller_->displayedScene(0, frame_)) return;
  primary_->update(frame_, trailSpans(controller_->primary(), t, options_.trailSeconds));
  nh::SceneFrame other;
  const RunHistory* comparison = controller_->comparison();
  if (comparison && controller_->displayedScene(1, other)) {
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
