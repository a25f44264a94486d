// VTK rendered inside a Qt 6 QOpenGLWidget through vtkGenericOpenGLRenderWindow (Debian's
// VTK Qt module is built against Qt 5). Unlike VTK's own QVTKOpenGLNativeWidget, which lets
// VTK render into its own framebuffer and blits that into the widget's, VTK here draws
// straight into the widget's framebuffer object in Qt's context (no full-screen copies).
//
// Camera navigation is done here directly (no vtkRenderWindowInteractor): left drag orbits,
// middle or Shift+left drag pans, wheel or right drag zooms.
#pragma once

#include <vtkNew.h>
#include <vtkSmartPointer.h>

#include <QOpenGLWidget>

class vtkGenericOpenGLRenderWindow;
class vtkRenderer;
class vtkCamera;
class vtkObject;

namespace nhui {

class TargetFramebufferWindow;

class VtkViewWidget : public QOpenGLWidget {
  Q_OBJECT

 public:
  explicit VtkViewWidget(QWidget* parent = nullptr);
  ~VtkViewWidget() override;

  // The surface format VTK needs (OpenGL 3.2 core, no multisampling: VTK does FXAA).
  static QSurfaceFormat vtkSurfaceFormat();

  vtkGenericOpenGLRenderWindow* renderWindow() const;
  vtkRenderer* renderer() const;  // the main scene renderer (layer 0)

  // Camera moves in world units; the view-specific layer (SceneView) adds following etc.
  void orbit(double dxPixels, double dyPixels);
  void pan(double dxPixels, double dyPixels);
  void zoom(double factor);

  // Ray from the eye through a widget position (logical pixels): origin and unit direction.
  void pickRay(const QPointF& pos, double origin[3], double direction[3]) const;
  // World point to widget position (logical pixels).
  QPointF worldToWidget(const double world[3]) const;

  // The user is orbiting, panning or zooming with the mouse right now.
  bool navigating() const {
    return drag_ == Drag::Orbit || drag_ == Drag::Pan || drag_ == Drag::Zoom;
  }

  // Frames painted so far (for the frame-rate display).
  long framesPainted() const { return framesPainted_; }

 signals:
  void cameraChangedByUser();
  void framePainted();

 protected:
  void initializeGL() override;
  void resizeGL(int w, int h) override;
  void paintGL() override;

  // Subclasses may take a mouse press before navigation does (return true to consume it).
  virtual bool handleMousePress(QMouseEvent*) { return false; }
  virtual bool handleMouseMove(QMouseEvent*) { return false; }
  virtual bool handleMouseRelease(QMouseEvent*) { return false; }

  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;

 private:
  void onVtkEvent(vtkObject* caller, unsigned long eventId, void* callData);

  vtkSmartPointer<TargetFramebufferWindow> renderWindow_;
  vtkSmartPointer<vtkRenderer> renderer_;
  bool inPaint_ = false;
  long framesPainted_ = 0;
  enum class Drag { None, Orbit, Pan, Zoom, Custom } drag_ = Drag::None;
  QPointF lastPos_;
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
