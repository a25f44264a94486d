// Keeps moving bodies in view: the "keep in view" camera of the 3D view
// (SceneDisplayOptions::keepInView). It works on a camera given as a focal point, a distance
// along a fixed direction and a view angle, and never turns the camera: the orientation and
// zoom are the user's. When the bodies leave a safe zone around the centre (or their recent
// trail leaves a wider one, where following it keeps the bodies in theirs) it translates the
// focal point just enough to bring them back, and it zooms out only when the bodies
// themselves no longer fit, together with where they will be kLead wall-clock seconds on at
// their recent speed: a fast body that would cross the view within a few frames is seen from
// farther out, inside the safe zone instead of at the edge. While the user
// drags the camera it does nothing (SceneView). Both move through a critically damped spring (no
// overshoot, no jumps); a hard limit keeps the bodies inside the viewport even while the spring
// catches up.
#pragma once

#include <Eigen/Geometry>
#include <vector>

#include "core/nh/system.h"

namespace nhui {

struct TrailSpan;

class CameraFramer {
 public:
  struct Sphere {
    Eigen::Vector3d centre = Eigen::Vector3d::Zero();
    double radius = 0;
  };
  struct View {
    Eigen::Vector3d direction = Eigen::Vector3d::UnitY();  // unit, from the eye to the focus
    Eigen::Vector3d up = Eigen::Vector3d::UnitZ();
    double viewAngleDegrees = 30;  // vertical
    double aspect = 1;             // width / height
  };

  // Adopts a camera set by the user or by a reset, without easing: the spring stops there
  // and `distance` becomes the zoom the framer returns to when the bodies fit again.
  void adopt(const Eigen::Vector3d& focus, double distance);

  // Advances the camera by `dt` wall-clock seconds. bodies: must stay in view; trail: kept
  // in view too where that keeps the bodies in their zone. `jumped`: the bodies did not get
  // here by playing on (a scrub, a reset, a new run); the camera eases over instead of
  // snapping. The caller knows: from positions alone a jump and a fast body look alike.
  void step(double dt, const View& view, const std::vector<Sphere>& bodies,
            const std::vector<Sphere>& trail, bool jumped = false);
  // Puts the camera at once where step() would settle (Reset camera).
  void settle(const View& view, const std::vector<Sphere>& bodies,
              const std::vector<Sphere>& trail);

  // The least camera distance at which the spheres fit inside `fraction` of the half-view
  // around `focus`, however the camera turns about it (a following camera: the followed body
  // is one part of the system, the bicycle's rider, and its wheels must stay in view).
  static double fitDistanceAround(const View& view, const Eigen::Vector3d& focus,
                                  const std::vector<Sphere>& spheres, double fraction);

  const Eigen::Vector3d& focus() const { return focus_; }
  double distance() const { return distance_; }
  // Still easing towards its target (a caller that paints only on change keeps painting).
  bool moving() const;

  // Fractions of the half-view: the bodies are kept in the safe zone (the camera moves when
  // they leave it), the recent trail in the trail zone while that keeps the bodies in
  // theirs, and the bodies never leave the hard zone.
  static constexpr double kSafe = 0.5, kTrail = 0.9, kHard = 0.95;
  // The same along the line of sight, as fractions of the camera distance: how far the bodies'
  // centre may lie in front of or behind the focal point before the camera follows them.
  static constexpr double kSafeDepth = 0.25, kHardDepth = 0.5;
  // Spring rate (1/s): about 95 % of a re-framing is done after 4.7 / kRate seconds.
  static constexpr double kRate = 4.0;
  // Wall-clock seconds of motion ahead kept in the safe zone with the bodies, and the time
  // constant (s) of the smoothing of their speed.
  static constexpr double kLead = 0.5, kSpeedSmoothing = 0.3;
  // Longest ease after a jump (wall-clock seconds; about 90 % of it is done by then) before the
  // hard limit holds the bodies in view again.
  static constexpr double kEaseLimit = 1.0;

 private:
  struct Range {  // of focus shifts along the view's right and up axes
    Eigen::Vector2d lo = Eigen::Vector2d::Constant(-1e300), hi = Eigen::Vector2d::Constant(1e300);
  };
  void retarget(const View& view, const std::vector<Sphere>& bodies,
                const std::vector<Sphere>& trail);
  // The bodies and, for moving ones, where they will be kLead seconds on.
  std::vector<Sphere> withLead(const std::vector<Sphere>& bodies) const;
  static Range shiftRange(const View& view, const Eigen::Vector3d& focus, double distance,
                          const std::vector<Sphere>& spheres, double fraction);
  // The smallest focus shift within the view plane that keeps `spheres` inside `fraction` of
  // the half-view at `distance` (and `extra` inside `extraFraction` where possible).
  static Eigen::Vector3d shiftToFit(const View& view, const Eigen::Vector3d& focus, double distance,
                                    const std::vector<Sphere>& spheres, double fraction,
                                    const std::vector<Sphere>& extra = {},
                                    double extraFraction = 1);
  // The smallest focus shift along the line of sight that brings the spheres' centre within
  // `fraction` of `distance` of the focal plane.
  static Eigen::Vector3d depthShift(const View& view, const Eigen::Vector3d& focus, double distance,
                                    const std::vector<Sphere>& spheres, double fraction);
  // Distance at which `spheres` fit inside `fraction` of the half-view.
  static double fitDistance(const View& view, const std::vector<Sphere>& spheres, double fraction);

  Eigen::Vector3d focus_ = Eigen::Vector3d::Zero();
  Eigen::Vector3d focusVelocity_ = Eigen::Vector3d::Zero();
  Eigen::Vector3d targetFocus_ = Eigen::Vector3d::Zero();
  Eigen::Vector3d targetVelocity_ = Eigen::Vector3d::Zero();  // per wall second
  double distance_ = 1, distanceVelocity_ = 0, targetDistance_ = 1;
  double userDistance_ = 1;
  bool haveBodies_ = false;
  bool easingJump_ = false;  // the bodies jumped out of view: no hard limit until back in
  double easedFor_ = 0;      // wall-clock seconds of the current ease
  // The bodies' centre at the last step and its smoothed velocity per wall second.
  Eigen::Vector3d lastCentre_ = Eigen::Vector3d::Zero();
  Eigen::Vector3d bodyVelocity_ = Eigen::Vector3d::Zero();
  size_t lastCount_ = 0;
};

// The bodies that move (all but the scenery, tables and guides, which stay put), as spheres
// of the scene table's bounding radius (nh::boundingRadius, core/nh/scene_table.h).
// With `follow` naming a body (the system's followed body): that body and those within the
// scene's extent of it (the bicycle's parts, not the belt a ball has rolled off).
std::vector<CameraFramer::Sphere> movingBodySpheres(const nh::SceneFrame& frame,
                                                    const std::string& follow = {});
// The trail the framer keeps in view with the bodies: about 30 points of the last `keep`
// samples of each world-frame span, turned by `toReference` (the view's reference frame).
std::vector<CameraFramer::Sphere> recentTrailSpheres(
    const std::vector<TrailSpan>& spans, size_t keep,
    const Eigen::Quaterniond& toReference = Eigen::Quaterniond::Identity());

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
