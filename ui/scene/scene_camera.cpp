#include "ui/scene/scene_camera.h"

#include <algorithm>
#include <cmath>

namespace nhui {

namespace {

struct Basis {
  Eigen::Vector3d forward, right, up;
  double tanX, tanY;  // half-view tangents
};

Basis basisOf(const CameraFramer::View& view) {
  Basis b;
  b.forward = view.direction.normalized();
  b.right = b.forward.cross(view.up);
  if (b.right.norm() < 1e-9) b.right = b.forward.unitOrthogonal();
  b.right.normalize();
  b.up = b.right.cross(b.forward);
  b.tanY = std::tan(0.5 * view.viewAngleDegrees * M_PI / 180);
  b.tanX = b.tanY * std::max(1e-3, view.aspect);
  return b;
}

// One component of a critically damped spring towards `target`, advanced exactly by dt.
template <class T>
void spring(T& x, T& v, const T& target, double dt) {
  const T e = x - target;
  const T k = (v + CameraFramer::kRate * e) * dt;
  const double decay = std::exp(-CameraFramer::kRate * dt);
  x = target + (e + k) * decay;
  v = (v - CameraFramer::kRate * k) * decay;
}

}  // namespace

double boundingRadius(const nh::SceneBody& b) {
  const Eigen::Vector3d size = b.size.cwiseAbs();
  switch (b.kind) {
    case nh::ShapeKind::Sphere:
    case nh::ShapeKind::Particle:
      return size.maxCoeff();
    case nh::ShapeKind::Disk:
    case nh::ShapeKind::Cylinder:
      return std::hypot(size.x(), size.y());
    case nh::ShapeKind::Table:
      return std::hypot(size.x(), size.z());
    case nh::ShapeKind::Sleigh:
    case nh::ShapeKind::Body:
    case nh::ShapeKind::Guide:
      return size.norm();
  }
  return size.norm();
}

std::vector<CameraFramer::Sphere> movingBodySpheres(const nh::SceneFrame& frame) {
  std::vector<CameraFramer::Sphere> spheres;
  for (const auto& b : frame.bodies) {
    if (b.kind == nh::ShapeKind::Table || b.kind == nh::ShapeKind::Guide) continue;
    if (!b.position.allFinite()) continue;
    spheres.push_back({b.position, boundingRadius(b)});
  }
  return spheres;
}

void CameraFramer::adopt(const Eigen::Vector3d& focus, double distance) {
  focus_ = targetFocus_ = focus;
  distance_ = targetDistance_ = userDistance_ = std::max(1e-9, distance);
  focusVelocity_.setZero();
  distanceVelocity_ = 0;
}

bool CameraFramer::moving() const {
  const double eps = 1e-4 * distance_;
  return (focus_ - targetFocus_).norm() > eps || focusVelocity_.norm() > eps ||
         std::abs(distance_ - targetDistance_) > eps || std::abs(distanceVelocity_) > eps;
}

double CameraFramer::fitDistance(const View& view, const std::vector<Sphere>& spheres,
                                 double fraction) {
  if (spheres.empty()) return 0;
  Eigen::AlignedBox3d box;
  for (const Sphere& s : spheres) box.extend(s.centre);
  const Eigen::Vector3d centre = box.center();
  double radius = 0;
  for (const Sphere& s : spheres) radius = std::max(radius, (s.centre - centre).norm() + s.radius);
  const Basis b = basisOf(view);
  // The sphere's near side at depth D − R must fit the smaller half-view.
  return radius / (fraction * std::min(b.tanX, b.tanY)) + radius;
}

CameraFramer::Range CameraFramer::shiftRange(const View& view, const Eigen::Vector3d& focus,
                                             double distance, const std::vector<Sphere>& spheres,
                                             double fraction) {
  Range r;
  const Basis b = basisOf(view);
  const Eigen::Vector3d eye = focus - distance * b.forward;
  // Each sphere allows an interval of shifts along each axis of the view plane; the range is
  // their intersection (empty, lo > hi, if they cannot all fit).
  for (const Sphere& s : spheres) {
    const Eigen::Vector3d rel = s.centre - eye;
    const double depth = std::max(rel.dot(b.forward), 1e-6 * distance);
    const double x = rel.dot(b.right), y = rel.dot(b.up);
    const double ax = std::max(0.0, fraction * b.tanX * depth - s.radius);
    const double ay = std::max(0.0, fraction * b.tanY * depth - s.radius);
    r.lo = r.lo.cwiseMax(Eigen::Vector2d(x - ax, y - ay));
    r.hi = r.hi.cwiseMin(Eigen::Vector2d(x + ax, y + ay));
  }
  return r;
}

Eigen::Vector3d CameraFramer::shiftToFit(const View& view, const Eigen::Vector3d& focus,
                                         double distance, const std::vector<Sphere>& spheres,
                                         double fraction, const std::vector<Sphere>& extra,
                                         double extraFraction) {
  if (spheres.empty()) return Eigen::Vector3d::Zero();
  const Range must = shiftRange(view, focus, distance, spheres, fraction);
  const Range nice = shiftRange(view, focus, distance, extra, extraFraction);
  Eigen::Vector2d shift;
  for (int axis = 0; axis < 2; ++axis) {
    double lo = must.lo[axis], hi = must.hi[axis];
    if (lo > hi) {  // the spheres cannot all fit: the middle of their spread
      shift[axis] = 0.5 * (lo + hi);
      continue;
    }
    // The extra spheres (the trail) as well where that keeps the must-haves inside.
    if (std::max(lo, nice.lo[axis]) <= std::min(hi, nice.hi[axis])) {
      lo = std::max(lo, nice.lo[axis]);
      hi = std::min(hi, nice.hi[axis]);
    }
    shift[axis] = std::clamp(0.0, lo, hi);
  }
  const Basis b = basisOf(view);
  return shift.x() * b.right + shift.y() * b.up;
}

void CameraFramer::retarget(const View& view, const std::vector<Sphere>& bodies,
                            const std::vector<Sphere>& trail) {
  if (bodies.empty()) return;
  targetDistance_ = std::max(userDistance_, fitDistance(view, bodies, kSafe));
  // A dead zone: the target moves only when a body leaves the safe zone around it (or the
  // trail leaves the wider trail zone, if following it keeps the bodies in their zone).
  targetFocus_ += shiftToFit(view, targetFocus_, targetDistance_, bodies, kSafe, trail, kTrail);
}

void CameraFramer::step(double dt, const View& view, const std::vector<Sphere>& bodies,
                        const std::vector<Sphere>& trail) {
  if (bodies.empty()) return;
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();
  for (const Sphere& s : bodies) centre += s.centre;
  centre /= static_cast<double>(bodies.size());
  const Basis b = basisOf(view);
  // A jump of more than half the view height between two frames is a scrub or a reset, not
  // motion: ease over to it instead of snapping.
  if (haveBodies_ && (centre - lastBodyCentre_).norm() > 0.5 * b.tanY * distance_)
    easingJump_ = true;
  haveBodies_ = true;
  lastBodyCentre_ = centre;

  retarget(view, bodies, trail);
  dt = std::clamp(dt, 0.0, 0.25);
  spring(focus_, focusVelocity_, targetFocus_, dt);
  spring(distance_, distanceVelocity_, targetDistance_, dt);
  const Eigen::Vector3d hardShift = shiftToFit(view, focus_, distance_, bodies, kHard);
  const double hardDistance = fitDistance(view, bodies, kHard);
  if (easingJump_) {
    if (hardShift.norm() < 1e-9 * distance_ && distance_ >= hardDistance) easingJump_ = false;
    return;
  }
  // The spring lags a body that speeds up; the hard limit keeps it inside the viewport, and
  // moves continuously because the bodies do.
  if (distance_ < hardDistance) distance_ = hardDistance;
  focus_ += shiftToFit(view, focus_, distance_, bodies, kHard);
}

void CameraFramer::settle(const View& view, const std::vector<Sphere>& bodies,
                          const std::vector<Sphere>& trail) {
  retarget(view, bodies, trail);
  focus_ = targetFocus_;
  distance_ = targetDistance_;
  focusVelocity_.setZero();
  distanceVelocity_ = 0;
  easingJump_ = false;
  haveBodies_ = !bodies.empty();
  if (haveBodies_) {
    lastBodyCentre_.setZero();
    for (const Sphere& s : bodies) lastBodyCentre_ += s.centre;
    lastBodyCentre_ /= static_cast<double>(bodies.size());
  }
}

}  // namespace nhui
