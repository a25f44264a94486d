// VtkViewWidget (vtk_view_widget.h): a VTK render window drawing into the QOpenGLWidget's
// framebuffer, the GL set-up, resize and paint, and the mouse's orbit, pan, zoom and pick ray.
#include "ui/scene/vtk_view_widget.h"

#include <vtkCamera.h>
#include <vtkCommand.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkObjectFactory.h>
#include <vtkOpenGLState.h>
#include <vtkRenderer.h>
#include <vtkRendererCollection.h>

#include <QMouseEvent>
#include <QOpenGLContext>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "ui/scene/render_lock.h"

namespace nhui {

// VTK's generic window, drawing straight into the framebuffer it is given (the widget's)
// instead of into a framebuffer of its own that is then copied twice (VTK's render to
// display framebuffer, and that into the widget's). VTK's own framebuffers are still created
// (the base class's Start() does it), but nothing is drawn into them.
class TargetFramebufferWindow : public vtkGenericOpenGLRenderWindow {
 public:
  static TargetFramebufferWindow* New();
  vtkTypeMacro(TargetFramebufferWindow, vtkGenericOpenGLRenderWindow)

      void setTargetFramebuffer(unsigned int framebuffer) {
    target_ = framebuffer;
  }

  void Start() override {
    Superclass::Start();  // pushes the caller's bindings (End() pops them) and binds VTK's
    GetState()->vtkglBindFramebuffer(GL_FRAMEBUFFER, target_);
    GLenum attachment = GL_COLOR_ATTACHMENT0;
    GetState()->vtkglDrawBuffers(1, &attachment);
  }

 private:
  unsigned int target_ = 0;
};

vtkStandardNewMacro(TargetFramebufferWindow);

QSurfaceFormat VtkViewWidget::vtkSurfaceFormat() {
  QSurfaceFormat format;
  format.setRenderableType(QSurfaceFormat::OpenGL);
  format.setVersion(3, 2);
  format.setProfile(QSurfaceFormat::CoreProfile);
  format.setSwapBehavior(QSurfaceFormat::DoubleBuffer);
  format.setRedBufferSize(8);
  format.setGreenBufferSize(8);
  format.setBlueBufferSize(8);
  format.setAlphaBufferSize(8);
  format.setDepthBufferSize(24);
  format.setStencilBufferSize(0);
  format.setSamples(0);
  return format;
}

VtkViewWidget::VtkViewWidget(QWidget* parent)
    : QOpenGLWidget(parent),
      renderWindow_(vtkSmartPointer<TargetFramebufferWindow>::New()),
      renderer_(vtkSmartPointer<vtkRenderer>::New()) {
  setFormat(vtkSurfaceFormat());
  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(false);
  setMinimumSize(200, 150);
  renderWindow_->AddRenderer(renderer_);
  // VTK draws into the widget's framebuffer (TargetFramebufferWindow): its own end-of-frame
  // copy (render to display framebuffer) and blit are not wanted.
  renderWindow_->SwapBuffersOff();
  renderWindow_->SetFrameBlitModeToNoBlit();
  // An opaque background keeps the alpha channel at 1 under the translucent trails (VTK
  // blends alpha with ONE, ONE_MINUS_SRC_ALPHA): Qt composes the widget as premultiplied.
  renderer_->SetBackgroundAlpha(1.0);
  renderWindow_->SetMultiSamples(0);
  renderWindow_->AddObserver(vtkCommand::WindowMakeCurrentEvent, this, &VtkViewWidget::onVtkEvent);
  renderWindow_->AddObserver(vtkCommand::WindowIsCurrentEvent, this, &VtkViewWidget::onVtkEvent);
  renderWindow_->AddObserver(vtkCommand::WindowFrameEvent, this, &VtkViewWidget::onVtkEvent);
}

VtkViewWidget::~VtkViewWidget() {
  // Release VTK's GL resources while Qt's context still exists.
  if (context()) {
    makeCurrent();
    renderWindow_->Finalize();
    doneCurrent();
  }
  renderWindow_->RemoveAllObservers();
}

vtkGenericOpenGLRenderWindow* VtkViewWidget::renderWindow() const { return renderWindow_; }
vtkRenderer* VtkViewWidget::renderer() const { return renderer_; }

void VtkViewWidget::onVtkEvent(vtkObject*, unsigned long eventId, void* callData) {
  switch (eventId) {
    case vtkCommand::WindowMakeCurrentEvent:
      // platform.md pitfall: an unconditional makeCurrent() rebinds Qt's framebuffer behind
      // VTK's cached state and leaves VTK's framebuffers without attachments (black view).
      if (QOpenGLContext::currentContext() != context()) makeCurrent();
      break;
    case vtkCommand::WindowIsCurrentEvent:
      *static_cast<bool*>(callData) = QOpenGLContext::currentContext() == context();
      break;
    case vtkCommand::WindowFrameEvent:
      if (!inPaint_) update();
      break;
    default:
      break;
  }
}

void VtkViewWidget::initializeGL() {
  renderWindow_->SetOwnContext(false);
  renderWindow_->SetReadyForRendering(false);
  renderWindow_->SetForceMaximumHardwareLineWidth(1);
  renderWindow_->OpenGLInitContext();
  const double dpr = devicePixelRatioF();
  renderWindow_->SetSize(std::max(1, int(width() * dpr)), std::max(1, int(height() * dpr)));
}

void VtkViewWidget::resizeGL(int w, int h) {
  const double dpr = devicePixelRatioF();
  renderWindow_->SetSize(std::max(1, int(w * dpr)), std::max(1, int(h * dpr)));
}

void VtkViewWidget::paintGL() {
  inPaint_ = true;
  const double dpr = devicePixelRatioF();
  const int w = std::max(1, int(width() * dpr)), h = std::max(1, int(height() * dpr));
  int* size = renderWindow_->GetSize();
  if (size[0] != w || size[1] != h) renderWindow_->SetSize(w, h);

  renderWindow_->setTargetFramebuffer(defaultFramebufferObject());
  vtkOpenGLState* state = renderWindow_->GetState();
  state->Reset();  // Qt changed GL state since VTK last looked
  state->Push();
  state->vtkglDepthFunc(GL_LEQUAL);  // Qt's default is GL_LESS; VTK expects LEQUAL
  renderWindow_->SetReadyForRendering(true);
  {
    const std::lock_guard lock(vtkRenderMutex());  // an export may be rendering meanwhile
    renderWindow_->Render();
  }
  renderWindow_->SetReadyForRendering(false);
  state->Pop();
  // Rendering may have run callbacks that switched contexts.
  if (QOpenGLContext::currentContext() != context()) makeCurrent();
  ++framesPainted_;
  inPaint_ = false;
  emit framePainted();
}

void VtkViewWidget::orbit(double dx, double dy) {
  vtkCamera* cam = renderer_->GetActiveCamera();
  // Turntable orbit about the world z axis, elevation kept short of the poles.
  double fp[3], pos[3];
  cam->GetFocalPoint(fp);
  cam->GetPosition(pos);
  double v[3] = {pos[0] - fp[0], pos[1] - fp[1], pos[2] - fp[2]};
  const double r = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  if (r <= 0) return;
  double azimuth = std::atan2(v[1], v[0]) - dx * 0.008;
  double elevation = std::asin(std::clamp(v[2] / r, -1.0, 1.0)) + dy * 0.008;
  elevation = std::clamp(elevation, -1.5, 1.5);
  cam->SetPosition(fp[0] + r * std::cos(elevation) * std::cos(azimuth),
                   fp[1] + r * std::cos(elevation) * std::sin(azimuth),
                   fp[2] + r * std::sin(elevation));
  cam->SetViewUp(0, 0, 1);
  renderer_->ResetCameraClippingRange();
}

void VtkViewWidget::pan(double dx, double dy) {
  vtkCamera* cam = renderer_->GetActiveCamera();
  double fp[3], pos[3], up[3], dop[3];
  cam->GetFocalPoint(fp);
  cam->GetPosition(pos);
  cam->GetViewUp(up);
  cam->GetDirectionOfProjection(dop);
  const double dist = cam->GetDistance();
  const double worldPerPixel =
      2 * dist * std::tan(cam->GetViewAngle() * M_PI / 360.0) / std::max(1, height());
  double right[3] = {dop[1] * up[2] - dop[2] * up[1], dop[2] * up[0] - dop[0] * up[2],
                     dop[0] * up[1] - dop[1] * up[0]};
  const double rn = std::sqrt(right[0] * right[0] + right[1] * right[1] + right[2] * right[2]);
  // True screen-up is orthogonal to the direction of projection.
  double su[3] = {right[1] * dop[2] - right[2] * dop[1], right[2] * dop[0] - right[0] * dop[2],
                  right[0] * dop[1] - right[1] * dop[0]};
  const double sn = std::sqrt(su[0] * su[0] + su[1] * su[1] + su[2] * su[2]);
  for (int i = 0; i < 3; ++i) {
    const double d = worldPerPixel * (-dx * right[i] / rn + dy * su[i] / sn);
    fp[i] += d;
    pos[i] += d;
  }
  cam->SetFocalPoint(fp);
  cam->SetPosition(pos);
  renderer_->ResetCameraClippingRange();
}

void VtkViewWidget::zoom(double factor) {
  renderer_->GetActiveCamera()->Dolly(factor);
  renderer_->ResetCameraClippingRange();
}

void VtkViewWidget::pickRay(const QPointF& pos, double origin[3], double direction[3]) const {
  const double dpr = devicePixelRatioF();
  const double x = pos.x() * dpr, y = (height() - pos.y()) * dpr;
  double nearPoint[4], farPoint[4];
  renderer_->SetDisplayPoint(x, y, 0.0);
  renderer_->DisplayToWorld();
  renderer_->GetWorldPoint(nearPoint);
  renderer_->SetDisplayPoint(x, y, 1.0);
  renderer_->DisplayToWorld();
  renderer_->GetWorldPoint(farPoint);
  double n = 0;
  for (int i = 0; i < 3; ++i) {
    nearPoint[i] /= nearPoint[3];
    farPoint[i] /= farPoint[3];
    origin[i] = nearPoint[i];
    direction[i] = farPoint[i] - nearPoint[i];
    n += direction[i] * direction[i];
  }
  n = std::sqrt(n);
  for (int i = 0; i < 3; ++i) direction[i] /= n > 0 ? n : 1;
}

QPointF VtkViewWidget::worldToWidget(const double world[3]) const {
  renderer_->SetWorldPoint(world[0], world[1], world[2], 1.0);
  renderer_->WorldToDisplay();
  double d[3];
  renderer_->GetDisplayPoint(d);
  const double dpr = devicePixelRatioF();
  return QPointF(d[0] / dpr, height() - d[1] / dpr);
}

void VtkViewWidget::mousePressEvent(QMouseEvent* event) {
  lastPos_ = event->position();
  if (handleMousePress(event)) {
    drag_ = Drag::Custom;
    return;
  }
  if (event->button() == Qt::LeftButton)
    drag_ = (event->modifiers() & Qt::ShiftModifier) ? Drag::Pan : Drag::Orbit;
  else if (event->button() == Qt::MiddleButton)
    drag_ = Drag::Pan;
  else if (event->button() == Qt::RightButton)
    drag_ = Drag::Zoom;
}

void VtkViewWidget::mouseMoveEvent(QMouseEvent* event) {
  const QPointF d = event->position() - lastPos_;
  lastPos_ = event->position();
  switch (drag_) {
    case Drag::Custom:
      handleMouseMove(event);
      return;
    case Drag::Orbit:
      orbit(d.x(), d.y());
      break;
    case Drag::Pan:
      pan(d.x(), d.y());
      break;
    case Drag::Zoom:
      zoom(std::pow(1.01, -d.y()));
      break;
    case Drag::None:
      return;
  }
  emit cameraChangedByUser();
  update();
}

void VtkViewWidget::mouseReleaseEvent(QMouseEvent* event) {
  if (drag_ == Drag::Custom) handleMouseRelease(event);
  drag_ = Drag::None;
}

void VtkViewWidget::wheelEvent(QWheelEvent* event) {
  zoom(std::pow(1.0015, event->angleDelta().y()));
  emit cameraChangedByUser();
  update();
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
