// OffscreenScene (offscreen_scene.h): an offscreen vtkRenderWindow with a renderer holding the
// primary and the comparison SceneRenderer (and a planned motion's ghosts), rendered and read
// back as RGB pixels.
#include "ui/export/offscreen_scene.h"

// clang-format off
#include <vtk_glew.h>  // first: the OpenGL declarations VTK loads
// clang-format on
#include <vtkCamera.h>
#include <vtkNew.h>
#include <vtkOpenGLFramebufferObject.h>
#include <vtkOpenGLRenderWindow.h>
#include <vtkOpenGLState.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkUnsignedCharArray.h>

#include <cstdlib>
#include <string>

#include "ui/export/animation_exporter.h"
#include "ui/export/media/virtual_display.h"
#include "ui/scene/render_lock.h"

namespace nhui {

struct OffscreenScene::Impl {
  vtkNew<vtkRenderWindow> window;
  vtkNew<vtkRenderer> renderer;
  vtkNew<vtkUnsignedCharArray> pixels;
  std::unique_ptr<SceneRenderer> scene;
  std::unique_ptr<SceneRenderer> comparison;
  std::unique_ptr<SceneRenderer> ghosts[2];
  int width = 0, height = 0;
  // Pipelined readback: frames started and taken so far, in two pixel buffer objects.
  unsigned int packBuffers[2] = {0, 0};
  long started = 0, taken = 0;

  std::size_t frameBytes() const { return std::size_t(3) * width * height; }
  vtkOpenGLRenderWindow* glWindow() { return vtkOpenGLRenderWindow::SafeDownCast(window); }
  void renderScene() {
    renderer->ResetCameraClippingRange();
    window->Render();
  }
};

OffscreenScene::OffscreenScene(int width, int height) : impl_(std::make_unique<Impl>()) {
  // Without a reachable X server VTK's GLX window aborts the process; fail with a message.
  const char* display = std::getenv("DISPLAY");
  if (!display || !*display || !nh::canConnectToDisplay(display))
    throw RenderError(
        std::string("cannot render: no X display ") +
        (display && *display ? "at DISPLAY=" + std::string(display) : "(DISPLAY is unset)") +
        "; the 3D view renders through X/GLX (run under Xvfb or call ensureDisplay)");
  impl_->width = width;
  impl_->height = height;
  vtkRenderWindow* w = impl_->window;
  w->SetOffScreenRendering(1);
  w->SetShowWindow(false);
  // FXAA (SceneDisplayOptions::fxaa) smooths edges; multisampling would only cost time.
  w->SetMultiSamples(0);
  w->SetAlphaBitPlanes(0);
  w->SetSize(width, height);
  // Frames are read from the framebuffer VTK renders into: its copy into a display
  // framebuffer at the end of each frame is not needed.
  w->SwapBuffersOff();
  w->AddRenderer(impl_->renderer);
  impl_->scene = std::make_unique<SceneRenderer>(impl_->renderer.GetPointer());
  impl_->comparison =
      std::make_unique<SceneRenderer>(impl_->renderer.GetPointer(), SceneRole::Comparison);
}

OffscreenScene::~OffscreenScene() {
  // The scene removes its actors and corner renderer before the window goes.
  if (impl_->packBuffers[0] && impl_->glWindow()) {
    impl_->window->MakeCurrent();
    glDeleteBuffers(2, impl_->packBuffers);
  }
  for (auto& ghost : impl_->ghosts) ghost.reset();
  impl_->comparison.reset();
  impl_->scene.reset();
  impl_->window->Finalize();
}

SceneRenderer& OffscreenScene::scene() { return *impl_->scene; }
SceneRenderer& OffscreenScene::comparison() { return *impl_->comparison; }
SceneRenderer& OffscreenScene::ghost(int which) {
  std::unique_ptr<SceneRenderer>& ghost = impl_->ghosts[which == 0 ? 0 : 1];
  if (!ghost)
    ghost = std::make_unique<SceneRenderer>(impl_->renderer.GetPointer(), SceneRole::Ghost);
  return *ghost;
}
vtkRenderer* OffscreenScene::renderer() { return impl_->renderer; }
vtkCamera* OffscreenScene::camera() { return impl_->renderer->GetActiveCamera(); }
int OffscreenScene::width() const { return impl_->width; }
int OffscreenScene::height() const { return impl_->height; }

const std::uint8_t* OffscreenScene::render() {
  const std::lock_guard lock(vtkRenderMutex());  // the app's view renders on the GUI thread
  impl_->renderScene();
  // The back buffer holds the frame just rendered (offscreen windows never swap to a screen).
  const int ok =
      impl_->window->GetPixelData(0, 0, impl_->width - 1, impl_->height - 1, 0, impl_->pixels, 0);
  if (ok == VTK_ERROR || impl_->pixels->GetNumberOfValues() !=
                             static_cast<vtkIdType>(3) * impl_->width * impl_->height)
    throw RenderError("OpenGL returned no image for a " + std::to_string(impl_->width) + "x" +
                      std::to_string(impl_->height) + " frame (is the size above the GPU limit?)");
  return impl_->pixels->GetPointer(0);
}

}  // namespace nhui

namespace nhui {

void OffscreenScene::startFrame() {
  Impl& d = *impl_;
  if (d.started - d.taken >= 2) throw RenderError("startFrame: two frames wait to be taken");
  const std::lock_guard lock(vtkRenderMutex());
  d.renderScene();
  vtkOpenGLRenderWindow* gl = d.glWindow();
  if (!gl) throw RenderError("the offscreen window does not render through OpenGL");
  gl->MakeCurrent();
  if (!d.packBuffers[0]) {
    glGenBuffers(2, d.packBuffers);
    for (const unsigned int buffer : d.packBuffers) {
      glBindBuffer(GL_PIXEL_PACK_BUFFER, buffer);
      glBufferData(GL_PIXEL_PACK_BUFFER, static_cast<GLsizeiptr>(d.frameBytes()), nullptr,
                   GL_STREAM_READ);
    }
  }
  vtkOpenGLState* state = gl->GetState();
  state->PushReadFramebufferBinding();
  gl->GetRenderFramebuffer()->Bind(GL_READ_FRAMEBUFFER);
  gl->GetRenderFramebuffer()->ActivateReadBuffer(0);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, d.packBuffers[d.started % 2]);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, d.width, d.height, GL_RGB, GL_UNSIGNED_BYTE, nullptr);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  state->PopReadFramebufferBinding();
  glFlush();  // the rasteriser starts on this frame now
  ++d.started;
}

void OffscreenScene::takeFrame(const std::function<void(const std::uint8_t* pixels)>& use) {
  Impl& d = *impl_;
  if (d.taken >= d.started) throw RenderError("takeFrame: no frame was started");
  const void* pixels = nullptr;
  {
    const std::lock_guard lock(vtkRenderMutex());
    d.window->MakeCurrent();
    glBindBuffer(GL_PIXEL_PACK_BUFFER, d.packBuffers[d.taken % 2]);
    pixels = glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, static_cast<GLsizeiptr>(d.frameBytes()),
                              GL_MAP_READ_BIT);
  }
  ++d.taken;
  if (!pixels) {
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    throw RenderError("OpenGL returned no image for a " + std::to_string(d.width) + "x" +
                      std::to_string(d.height) + " frame");
  }
  auto unmap = [&d] {
    const std::lock_guard lock(vtkRenderMutex());
    d.window->MakeCurrent();
    glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  };
  try {
    use(static_cast<const std::uint8_t*>(pixels));
  } catch (...) {
    unmap();
    throw;
  }
  unmap();
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
