// Scene sync: turns the core's description of a frame (nh::SceneFrame: bodies, arrows,
// trail points, moving frame) into VTK actors on a vtkRenderer. It knows nothing of Qt
// widgets, so the same class renders into the app's view and into an offscreen
// vtkRenderWindow (tests, video export at fixed simulated times).
#pragma once

#include <vtkSmartPointer.h>

#include <Eigen/Geometry>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/nh/system.h"

class vtkRenderer;
class vtkActor;
class vtkActor2D;
class vtkTextActor;
class vtkArrowSource;
class vtkPolyData;
class vtkAxesActor;

namespace nhui {

struct SceneDisplayOptions {
  bool trails = true;
  double trailSeconds = 30;  // simulated seconds of trail kept (the caller slices the history)
  std::vector<std::string> hiddenTrails;  // trail point names switched off
  bool reactionArrows = true;             // reaction (constraint) and applied forces
  bool velocityArrows = true;
  bool angularVelocityArrows = false;
  bool grid = true;
  bool axes = true;
  bool legend = true;
  bool overlayText = true;
  bool fxaa = false;          // costs ~70 ms a frame in software GL (llvmpipe)
  double textScale = 1.0;     // presentation mode uses larger text
  bool highContrast = false;  // darker background, brighter lines (projectors)
};

enum class SceneRole { Primary, Comparison };

// The points of one trail (columns of a run history), oldest first.
struct TrailSpan {
  std::string name;
  bool inMovingFrame = false;  // points given in the moving (table) frame
  const double* x = nullptr;
  const double* y = nullptr;
  const double* z = nullptr;
  size_t count = 0;
  size_t first = 0;  // absolute sample index of the first point (keeps thinning stable)
};

class SceneRenderer {
 public:
  // The primary renderer also owns the background, lights, grid, axes and legend; a
  // comparison renderer draws translucent moving bodies and its trails in another colour.
  explicit SceneRenderer(vtkRenderer* renderer, SceneRole role = SceneRole::Primary);
  ~SceneRenderer();
  SceneRenderer(const SceneRenderer&) = delete;
  SceneRenderer& operator=(const SceneRenderer&) = delete;

  // Drops the actors of the previous system; the next update() builds new ones.
  void setSystem(const nh::SystemModel* system);
  void setOptions(const SceneDisplayOptions& options);
  const SceneDisplayOptions& options() const { return options_; }
  void setVisible(bool visible);
  bool visible() const { return visible_; }

  void update(const nh::SceneFrame& frame, const std::vector<TrailSpan>& trails);
  void setOverlayText(const std::string& text);

  // A 3/4 view that shows the whole scene.
  void resetCamera();
  // A 3/4 view that shows `region` (e.g. where a trajectory goes) and the bodies; scenes
  // with a table keep the table view.
  void resetCamera(const Eigen::AlignedBox3d& region);

  const nh::SceneFrame& lastFrame() const { return frame_; }
  // Length in world units drawn for a vector of magnitude `value` of the named arrow.
  double arrowLength(const std::string& arrowName, double value) const;

 private:
  struct Body;
  struct Arrow;
  struct Trail;
  void setUpStage();
  void updateBodies();
  void updateArrows();
  void updateTrails(const std::vector<TrailSpan>& trails);
  void updateGrid();
  void updateLegend();
  void syncAxesCamera();
  bool arrowShown(nh::ArrowKind kind) const;

  vtkRenderer* renderer_;
  SceneRole role_;
  SceneDisplayOptions options_;
  bool visible_ = true;
  nh::SceneFrame frame_;
  std::vector<std::unique_ptr<Body>> bodies_;
  std::map<std::string, std::unique_ptr<Arrow>> arrows_;
  std::vector<std::unique_ptr<Trail>> trails_;
  vtkSmartPointer<vtkActor> grid_;
  double gridZ_ = 0;
  double gridHalf_ = 0;
  vtkSmartPointer<vtkRenderer> axesRenderer_;
  vtkSmartPointer<vtkAxesActor> axesActor_;
  vtkSmartPointer<vtkTextActor> overlay_;
  vtkSmartPointer<vtkTextActor> emptyNote_;  // "no scene", centred, for a system without one
  std::vector<vtkSmartPointer<vtkTextActor>> legend_;
  unsigned long startObserver_ = 0;
  bool haveFrame_ = false;
};

}  // namespace nhui
