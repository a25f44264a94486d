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

#include "core/nh/arrow_scale.h"
#include "core/nh/system.h"
#include "ui/session/display_choices.h"

class vtkRenderer;
class vtkActor;
class vtkActor2D;
class vtkTextActor;
class vtkArrowSource;
class vtkPolyData;
class vtkAxesActor;

namespace nhui {

// The choices of the Display dock (display_choices.h) and what the view adds for itself.
// A scene drawn without a theme chosen is drawn dark (DisplayChoices::dark).
struct SceneDisplayOptions : DisplayChoices {
  SceneDisplayOptions() { dark = true; }
  std::vector<std::string> hiddenTrails;  // trail point names switched off
  bool overlayText = true;
  bool fxaa = false;       // costs ~70 ms a frame in software GL (llvmpipe)
  double textScale = 1.0;  // presentation mode uses larger text
  // Device pixels per logical pixel for text, line widths and the legend: the screen's
  // device pixel ratio in the view; an export's height over the view's height, so that an
  // exported image shows text at the same fraction of its height as the screen does.
  double pixelRatio = 1.0;
  // With arrowScaleFixed, a kind listed here draws that magnitude with the reference length
  // (0.35 × the scene extent); other kinds keep the scale they had when the scale was fixed.
  std::map<nh::ArrowKind, double> fixedArrowReference;
};

// The unit an arrow's legend shows: the arrow's own (a model file's `unit`), else its kind's
// (N, m/s, rad/s); an arrow of kind force without a unit is a force if its name says so.
std::string arrowUnit(const nh::SceneArrow& arrow);

// Ghost: a planned motion's start or target, the bodies faint in their own colours (no
// tables, arrows or trails).
enum class SceneRole { Primary, Comparison, Ghost };

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

// A box on screen, in display pixels of the renderer's window (origin at the bottom left).
struct ScreenBox {
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  bool empty() const { return !(x1 > x0 && y1 > y0); }
  // The area both boxes cover (0 when they are apart or either is empty).
  double overlap(const ScreenBox& other) const;
};

// Where the overlay text stands: the top left (the view's), the top right, or the bottom left
// above the corner axes.
enum class OverlayCorner { TopLeft, TopRight, BottomLeft };

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
  // The body actors drawn now (visible ones).
  int shownBodyCount() const;

  void update(const nh::SceneFrame& frame, const std::vector<TrailSpan>& trails);
  void setOverlayText(const std::string& text);
  // The overlay's corner and its size relative to the rest of the text (1: as the options'
  // textScale says); an export moves and shrinks it off the bodies.
  void placeOverlay(OverlayCorner corner, double sizeFactor);
  // The overlay's box on screen as laid out for the window's size (empty when hidden), and the
  // boxes of the drawn bodies that are not scenery (the ball, not the table) for the current
  // camera.
  ScreenBox overlayBox();
  std::vector<ScreenBox> bodyBoxes() const;

  // A 3/4 view that shows the whole scene.
  void resetCamera();
  // A 3/4 view that shows `region` (e.g. where a trajectory goes) and the bodies; scenes
  // with a table keep the table view.
  void resetCamera(const Eigen::AlignedBox3d& region);

  const nh::SceneFrame& lastFrame() const { return frame_; }
  // Length in world units drawn for a vector of magnitude `value` of the named arrow.
  double arrowLength(const std::string& arrowName, double value) const;
  // The current scale of each arrow (magnitude drawn with the reference length; 0: none yet),
  // and setting them (an export shows the scales the view shows; a reopened scenario the
  // fixed scales it was saved with). A name not drawn yet takes its value when it first is.
  std::map<std::string, double> arrowReferences() const;
  void setArrowReferences(const std::map<std::string, double>& references);
  // Bodies of another run on this scene's tables (the comparison run's, drawn by another
  // renderer without tables): the tables are drawn large enough for them too (next update()).
  void setTableGuests(const std::vector<nh::SceneBody>& bodies);
  // A primary renderer beside a comparison run draws its trails in the first run's colours
  // (ui/sim/run_style.h), so that the notes' and legends' colour names hold; alone, each trail
  // gets a colour of its own.
  void setCompared(bool compared) { compared_ = compared; }
  // A new run (a reset, a restart after an edit): the arrows forget the magnitudes shown so
  // far. Auto scales are taken afresh from the next frame; a fixed scale stays fixed through
  // edits, unless the new run's first vector would be drawn absurdly (over 100 reference
  // lengths, or under 1/1000 of one: an extreme start and back) — then it is taken afresh.
  void newRun();
  // The legend's lines as drawn (tests, exports).
  std::vector<std::string> legendLines() const;

 private:
  bool compared_ = false;
  struct Body;
  struct Arrow;
  struct Trail;
  void setUpStage();
  void updateBodies();
  void updateArrows();
  void updateTrails(const std::vector<TrailSpan>& trails);
  void updateGrid();
  void updateLegend();
  void beforeRender();  // corner axes, endless grid and legend layout for this camera and size
  void layoutLegend();
  // Breaks overlay lines wider than the view at spaces (continuations indented), so that a
  // long line ("orange run … left the scene at t = 27.80 s …") is not cut at the right edge.
  void layoutOverlay();
  void positionOverlay();  // at overlayCorner_
  void restyleText();
  bool arrowShown(nh::ArrowKind kind) const;

  vtkRenderer* renderer_;
  SceneRole role_;
  SceneDisplayOptions options_;
  bool visible_ = true;
  nh::SceneFrame frame_;
  std::vector<nh::SceneBody> tableGuests_;
  std::vector<std::unique_ptr<Body>> bodies_;
  std::map<std::string, std::unique_ptr<Arrow>> arrows_;
  std::map<std::string, double> presetReferences_;  // for arrows not drawn yet (by name)
  std::vector<std::unique_ptr<Trail>> trails_;
  vtkSmartPointer<vtkActor> grid_;
  double gridZ_ = 0;
  double gridHalf_ = 0;
  double gridSpacing_ = 0;
  Eigen::Vector2d gridCentre_ = Eigen::Vector2d::Zero();
  bool gridDark_ = true;
  vtkSmartPointer<vtkRenderer> axesRenderer_;
  vtkSmartPointer<vtkAxesActor> axesActor_;
  vtkSmartPointer<vtkTextActor> overlay_;
  std::string overlayText_;  // as given; drawn wrapped to the view's width (layoutOverlay)
  OverlayCorner overlayCorner_ = OverlayCorner::TopLeft;
  double overlaySize_ = 1;  // placeOverlay's size factor
  struct {
    std::map<std::string, std::string> lines;  // a line as given → as drawn
    double room = -1;
    int fontSize = 0;
  } overlayLayout_;                          // wrapped lines, reused while the width and font stay
  vtkSmartPointer<vtkTextActor> emptyNote_;  // "no scene", centred, for a system without one
  std::vector<vtkSmartPointer<vtkTextActor>> legend_;
  unsigned long startObserver_ = 0;
  bool haveFrame_ = false;
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
