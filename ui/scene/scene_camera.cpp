// CameraFramer (scene_camera.h): the bodies and recent trail as spheres, the shift and the
// zoom-out that bring them back in view, and a spring that moves the camera there smoothly.
#include "ui/scene/scene_camera.h"

#include <algorithm>
#include <cmath>

#include "core/nh/scene_table.h"
#include "ui/scene/scene_renderer.h"

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

std::vector<CameraFramer::Sphere> movingBodySpheres(const nh::SceneFrame& frame,
                                                    const std::string& follow) {
  const nh::SceneBody* subject = nullptr;
  for (const auto& b : frame.bodies)
    if (!follow.empty() && b.name == follow && b.position.allFinite()) subject = &b;
  const double near = std::max(1e-6, frame.extent);
  std::vector<CameraFramer::Sphere> spheres;
  for (const auto& b : frame.bodies) {
    if (nh::shapeRow(b.kind).scenery) continue;
    if (!b.position.allFinite()) continue;
    if (subject && (b.position - subject->position).norm() > near) continue;
    spheres.push_back({b.position, nh::boundingRadius(b)});
  }
  return spheres;
}

std::vector<CameraFramer::Sphere> recentTrailSpheres(const std::vector<TrailSpan>& spans,
                                                     size_t keep,
                                                     const Eigen::Quaterniond& toReference) {
  std::vector<CameraFramer::Sphere> trail;
  for (const TrailSpan& span : spans) {
    if (span.inMovingFrame || span.count == 0) continue;
    const size_t first = span.count > keep ? span.count - keep : 0;
    const size_t stride = std::max<size_t>(1, (span.count - first) / 30);
    for (size_t k = first; k < span.count; k += stride) {
      const Eigen::Vector3d p(span.x[k], span.y[k], span.z[k]);
      if (p.allFinite()) trail.push_back({toReference * p, 0.0});
    }
  }
  return trail;
}

void CameraFramer::adopt(const Eigen::Vector3d& focus, double distance) {
  focus_ = targetFocus_ = focus;
  distance_ = targetDistance_ = userDistance_ = std::max(1e-9, distance);
  focusVelocity_.setZero();
  targetVelocity_.setZero();
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

double CameraFramer::fitDistanceAround(const View& view, const Eigen::Vector3d& focus,
                                       const std::vector<Sphere>& spheres, double fraction) {
  double radius = 0;
  for (const Sphere& s : spheres) radius = std::max(radius, (s.centre - focus).norm() + s.radius);
  if (!(radius > 0)) return 0;
  const Basis b = basisOf(view);
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

Eigen::Vector3d CameraFramer::depthShift(const View& view, const Eigen::Vector3d& focus,
                                         double distance, const std::vector<Sphere>& spheres,
                                         double fraction) {
  if (spheres.empty()) return Eigen::Vector3d::Zero();
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();
  for (const Sphere& s : spheres) centre += s.centre;
  centre /= static_cast<double>(spheres.size());
  const Basis b = basisOf(view);
  // Depth of the bodies' centre behind the focal plane; within the band the camera keeps
  // still, beyond it it follows just enough to bring them back to its edge.
  const double behind = (centre - focus).dot(b.forward);
  const double band = fraction * distance;
  const double excess = behind - std::clamp(behind, -band, band);
  return excess * b.forward;
}

std::vector<CameraFramer::Sphere> CameraFramer::withLead(const std::vector<Sphere>& bodies) const {
  std::vector<Sphere> out = bodies;
  const Eigen::Vector3d lead = kLead * bodyVelocity_;
  if (lead.squaredNorm() > 0)
    for (const Sphere& s : bodies) out.push_back({s.centre + lead, s.radius});
  return out;
}

void CameraFramer::retarget(const View& view, const std::vector<Sphere>& bodies,
                            const std::vector<Sphere>& trail) {
  if (bodies.empty()) return;
  const std::vector<Sphere> led = withLead(bodies);
  targetDistance_ = std::max(userDistance_, fitDistance(view, led, kSafe));
  // Bodies moving away from the camera (or towards it) are followed in depth too: shifting
  // the focus only across the view kept them in view but ever smaller, a dot far away.
  targetFocus_ += depthShift(view, targetFocus_, targetDistance_, bodies, kSafeDepth);
  // A dead zone: the target moves only when a body leaves the safe zone around it (or the
  // trail leaves the wider trail zone, if following it keeps the bodies in their zone).
  targetFocus_ += shiftToFit(view, targetFocus_, targetDistance_, bodies, kSafe, trail, kTrail);
}

void CameraFramer::step(double dt, const View& view, const std::vector<Sphere>& bodies,
                        const std::vector<Sphere>& trail, bool jumped) {
  if (bodies.empty()) return;
  // A jump (a scrub, a reset, a new run) is eased over instead of snapped to. A fast body
  // also moves far between frames, but it is followed, not eased after: the spring alone
  // would lag it out of view.
  if (jumped && haveBodies_) {
    easingJump_ = true;
    easedFor_ = 0;
  }
  // The bodies' speed across the scene per wall second, smoothed; a jump is no motion.
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();
  for (const Sphere& s : bodies) centre += s.centre / static_cast<double>(bodies.size());
  if (jumped || !haveBodies_) {
    bodyVelocity_.setZero();
  } else if (dt > 0 && bodies.size() == lastCount_) {  // (a comparison run appearing: no motion)
    const double blend = 1 - std::exp(-std::min(dt, 0.25) / kSpeedSmoothing);
    bodyVelocity_ += blend * ((centre - lastCentre_) / dt - bodyVelocity_);
  }
  if (!bodyVelocity_.allFinite()) bodyVelocity_.setZero();
  lastCentre_ = centre;
  lastCount_ = bodies.size();
  haveBodies_ = true;

  const Eigen::Vector3d targetBefore = targetFocus_;
  retarget(view, bodies, trail);
  dt = std::clamp(dt, 0.0, 0.25);
  // The spring works in the target's own moving frame: a target moving steadily is not lagged
  // behind (a critically damped spring alone trails a target moving at v by 2 v / kRate, which
  // put fast bodies at the edge of the view), and when it stops (a pause) the camera stops
  // with it instead of overshooting by v / (e kRate).
  Eigen::Vector3d relative = focusVelocity_ - targetVelocity_;
  if (jumped || dt <= 0)
    targetVelocity_.setZero();
  else
    targetVelocity_ = (targetFocus_ - targetBefore) / dt;
  spring(focus_, relative, targetFocus_, dt);
  focusVelocity_ = relative + targetVelocity_;
  focus_ += targetVelocity_ * dt;
  spring(distance_, distanceVelocity_, targetDistance_, dt);
  const Eigen::Vector3d hardShift = shiftToFit(view, focus_, distance_, bodies, kHard);
  const double hardDistance = fitDistance(view, bodies, kHard);
  if (easingJump_) {
    easedFor_ += dt;
    // Done when the bodies are back inside, and in any case after kEaseLimit: bodies that
    // keep running away are then held in view by the hard limit below.
    if ((hardShift.norm() < 1e-9 * distance_ && distance_ >= hardDistance) ||
        easedFor_ >= kEaseLimit)
      easingJump_ = false;
    else
      return;
  }
  // The spring lags a body that speeds up; the hard limit keeps it inside the viewport (and
  // within kHardDepth of the focal plane), and moves continuously because the bodies do.
  if (distance_ < hardDistance) distance_ = hardDistance;
  Eigen::Vector3d hard = depthShift(view, focus_, distance_, bodies, kHardDepth);
  hard += shiftToFit(view, focus_ + hard, distance_, bodies, kHard);
  if (hard.squaredNorm() > 0) {
    focus_ += hard;
    // Pinned by the limit, the camera moves with the target: the spring's own velocity would
    // carry it on after the bodies stop (a pause).
    focusVelocity_ = targetVelocity_;
  }
}

void CameraFramer::settle(const View& view, const std::vector<Sphere>& bodies,
                          const std::vector<Sphere>& trail) {
  bodyVelocity_.setZero();
  lastCentre_.setZero();
  for (const Sphere& s : bodies) lastCentre_ += s.centre / static_cast<double>(bodies.size());
  lastCount_ = bodies.size();
  retarget(view, bodies, trail);
  focus_ = targetFocus_;
  distance_ = targetDistance_;
  focusVelocity_.setZero();
  distanceVelocity_ = 0;
  easingJump_ = false;
  targetVelocity_.setZero();
  haveBodies_ = !bodies.empty();
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
