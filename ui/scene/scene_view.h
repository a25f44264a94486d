// The app's 3D view: a VtkViewWidget showing the controller's displayed moment through two
// SceneRenderers (primary and comparison run), with camera following, the rotating-table
// frame, editing of the initial position and velocity by dragging, and Plan a motion's
// target ghost, dragged (and turned) to set the plan's targets.
#pragma once

#include <vtkSmartPointer.h>

#include <Eigen/Geometry>
#include <QElapsedTimer>
#include <QPointF>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "ui/scene/drag_plane.h"
#include "ui/scene/scene_camera.h"
#include "ui/scene/scene_renderer.h"
#include "ui/scene/vtk_view_widget.h"
#include "ui/session/scenario_view.h"  // CameraPose
#include "ui/sim/simulation_controller.h"

class vtkActor;

namespace nhui {

// What a press at `press` grabs in edit-start mode (screen coordinates): the velocity handle
// (the knob at the velocity arrow's tip, `tip`, grabbable within `tipRadius`; SceneView puts
// it beyond the body's disc) or the body (a disc of `bodyRadius` around `body`). Where both
// are in reach, the nearer centre wins. Ctrl on the body pulls out a new velocity.
enum class DragTarget { None, Position, Velocity };
DragTarget pickDragTarget(QPointF press, QPointF body, double bodyRadius,
                          std::optional<QPointF> tip, double tipRadius, bool control);

class SceneView : public VtkViewWidget {
  Q_OBJECT

 public:
  explicit SceneView(SimulationController* controller, QWidget* parent = nullptr);
  ~SceneView() override;

  void setOptions(const SceneDisplayOptions& options);
  const SceneDisplayOptions& options() const { return options_; }
  // Follow: the camera's focal point sits on the system's follow body. Otherwise, with
  // options().keepInView (the default), the camera eases just enough to keep the moving
  // bodies (the comparison run's too, while it is drawn) in view (CameraFramer); orbiting and
  // zooming stay the user's.
  void setFollow(bool follow);
  bool follow() const { return follow_; }
  void setTableFrame(bool tableFrame);
  bool tableFrame() const { return tableFrame_; }
  // Dragging the system's drag-handle body sets the initial position, dragging the knob at
  // its velocity arrow's tip (or Ctrl+drag from the body) the initial velocity, as the
  // system's SceneEditing describes; a position drag leaves the velocities as they were, a
  // knob drag changes the velocity by how far the knob moves (a short or zero arrow's knob
  // sits off the body, beyond its tip).
  // Hovering a handle highlights it. Turning it on resets to the initial state (the caller
  // keeps the discarded history for undo).
  void setEditInitial(bool edit);
  bool editInitial() const { return editInitial_; }
  // Whether the system's description offers a drag handle (SystemInfo::editing.drag).
  bool canEditInitial() const;
  // Where the velocity knob is on screen in edit-start mode (widget coordinates): at the
  // velocity arrow's tip, or farther out along it so that it never lies on the body.
  std::optional<QPointF> velocityKnob() const;

  // The default 3/4 view, moved (without easing) to show the moving bodies wherever they are;
  // or, once after setCameraPose, that pose.
  void resetCamera();
  // The camera as it is (world coordinates), and a pose to put it in (a scenario's): at the
  // next reset of the camera (the first frame of a new system), else at once. Follow and
  // keep-in-view move it from there as they move a camera the user placed.
  CameraPose cameraPose() const;
  void setCameraPose(const CameraPose& pose);
  // A comparison run that went far from the primary one (a diverging vakonomic run) is hidden
  // from then on; the time it left, or NaN while it stays. The overlay says so.
  double comparisonLeftAt() const { return comparisonLeftAt_; }
  // Distance from the primary run, in scene extents, beyond which a comparison run has left.
  static constexpr double kLeaveExtents = 10;
  // Pulls the displayed moment from the controller into the renderers and schedules a paint.
  void refresh();
  // Forget the system's actors (after a system change).
  void rebuild();

  SceneRenderer& primaryRenderer() { return *primary_; }
  // While a plan is shown (SimulationController::plan), its start and target: the bodies
  // drawn faint at the first and the last sample of the played extremal. The body actors
  // they draw now (none without a plan).
  int planGhostBodies() const;

  // Plan a motion's target ghost: the start drawn faint with these coordinates (by name; the
  // dialog's fixed targets, a quaternion as its four components), the others at the start.
  // An empty map hides it. While it is shown, a drag of its body moves it in the plane the
  // body moves in (the drag handle's coordinates, else the coordinates that move the body
  // most), and Ctrl+drag (or any drag of a body no coordinate moves) turns its attitude
  // (a system's quaternion) like a trackball; each move is emitted as targetGhostDragged.
  void setTargetGhost(const std::map<std::string, double>& coordinates);
  bool targetGhostShown() const { return !targetGhost_.empty(); }
  // Where the ghost's grabbed body is on screen (widget coordinates); nullopt when hidden.
  std::optional<QPointF> targetGhostPoint() const;
  // The ghost's frame as last drawn (tests).
  const nh::SceneFrame& targetGhostFrame() const { return targetFrame_; }

 signals:
  // A drag of the start begins (its restarts will replace the history shown: the session
  // keeps that history for the undo stack), moves (the initial overrides it asks for: the
  // session applies them, the view writes nothing itself) and finishes.
  void initialDragStarted();
  void initialDragMoved(const std::map<std::string, double>& overrides);
  void initialDragEnded();
  // A drag of the target ghost moved it: the coordinates it changed, with their new values
  // (a turn: the four components of the quaternion).
  void targetGhostDragged(const std::map<std::string, double>& coordinates);

 protected:
  bool handleMousePress(QMouseEvent* event) override;
  bool handleMouseMove(QMouseEvent* event) override;
  bool handleMouseRelease(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;

 private:
  void captureCamera();
  void applyCamera();
  void fitAroundFollowedBody();  // a following camera's distance: every part in view
  void frameBodies(bool settle);
  void scanComparison();
  void updatePlanGhosts();
  Eigen::Quaterniond referenceRotation() const;
  const nh::SceneBody* findBody(const std::string& name) const;  // in the displayed frame
  const nh::DragHandle* dragHandle() const;                      // nullptr: nothing to drag
  // The plane the drag handle's coordinates move its body in, at the initial state.
  DragPlane handlePlane() const;
  bool planePoint(const QPointF& pos, const Eigen::Vector3d& through, Eigen::Vector3d& point) const;
  // The target ghost: its state, the body grabbed, and its drags (scene_view_target.cpp).
  bool targetState(std::vector<double>& state) const;
  std::string targetBody() const;
  void updateTargetGhost();
  bool pressTargetGhost(QMouseEvent* event);
  void moveTargetGhost(QMouseEvent* event);
  // The handles on screen at the displayed frame; false if the system has none to drag.
  struct HandleGeometry {
    QPointF body;
    double bodyRadius = 0;
    std::optional<QPointF> tip;
    double tipRadius = 0;
    Eigen::Vector3d tipWorld = Eigen::Vector3d::Zero();  // the knob: the tip, off the body
    Eigen::Vector3d origin = Eigen::Vector3d::Zero();
    Eigen::Vector3d vector = Eigen::Vector3d::Zero();  // the velocity the arrow shows
    double perLength = 1;                              // velocity per unit of drawn arrow length
  };
  bool handleGeometry(HandleGeometry& g) const;
  // Where a body can be grabbed on screen: its centre and a disc around it (at least 25 px).
  void grabDisc(const nh::SceneBody& body, QPointF& centre, double& radius) const;
  void updateHandle();  // the velocity knob: where it is, shown in edit mode, hover colour

  SimulationController* controller_;
  std::shared_ptr<const nh::SystemModel> builtFor_;  // the system the bodies show
  std::unique_ptr<SceneRenderer> primary_;
  std::unique_ptr<SceneRenderer> comparison_;
  std::unique_ptr<SceneRenderer> planStart_, planTarget_;  // SceneRole::Ghost
  SceneDisplayOptions options_;
  nh::SceneFrame frame_;
  nh::SceneFrame comparisonFrame_;  // the comparison run's, when comparisonShown_
  bool comparisonShown_ = false;
  bool follow_ = false;
  bool tableFrame_ = false;
  bool editInitial_ = false;
  bool needCameraReset_ = true;
  std::optional<CameraPose> givenPose_;  // setCameraPose's, until the camera is reset to it
  bool newRun_ = false;                  // the controller reset its history since the last update
  // Camera in the reference frame (world, or the table's when tableFrame_).
  Eigen::Vector3d cameraFocus_ = Eigen::Vector3d::Zero();
  Eigen::Vector3d cameraOffset_ = Eigen::Vector3d(1, -2, 1);
  Eigen::Vector3d cameraUp_ = Eigen::Vector3d::UnitZ();
  Eigen::Quaterniond appliedRotation_ = Eigen::Quaterniond::Identity();
  CameraFramer framer_;
  double framedTime_ = 0;  // display time and run of the last camera update (jumps)
  long framedEpoch_ = -1;
  QElapsedTimer frameClock_;  // wall-clock time between camera updates (the framer's easing)
  std::vector<TrailSpan> primaryTrails_;
  // Where the scan for the comparison leaving the scene has got to (per history epoch).
  long comparisonEpoch_ = -1;
  size_t comparisonScanned_ = 0;
  double comparisonLeftAt_ = std::numeric_limits<double>::quiet_NaN();

  struct Signature {
    double time = -1;
    long epoch = -1;
    size_t samples = 0;
    long options = 0;
    const void* plan = nullptr;
    bool operator==(const Signature&) const = default;
  };
  Signature lastSignature_;
  long optionsSerial_ = 0;

  enum class Drag { None, Position, Velocity, Target, TargetTurn } drag_ = Drag::None;
  DragPlane plane_;  // a position or target drag's plane
  Eigen::Vector3d dragStart_ = Eigen::Vector3d::Zero();
  Eigen::Vector3d velocityOrigin_ = Eigen::Vector3d::Zero();
  Eigen::Vector3d velocityStart_ = Eigen::Vector3d::Zero();  // the velocity when the drag began
  double velocityPerLength_ = 1;
  Eigen::Matrix3d velocityAxes_ = Eigen::Matrix3d::Identity();  // columns: the axes of vx, vy
  double startX_ = 0, startY_ = 0;
  vtkSmartPointer<vtkActor> knob_;
  DragTarget hover_ = DragTarget::None;

  std::map<std::string, double> targetGhost_;  // Plan a motion's target (empty: none)
  std::unique_ptr<SceneRenderer> planEdit_;    // SceneRole::Ghost: the target being set
  nh::SceneFrame targetFrame_;
  std::vector<double> targetStart_;  // the ghost's state when its drag began
  QPointF targetPress_;
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
