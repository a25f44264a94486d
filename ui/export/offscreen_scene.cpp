#include "ui/export/offscreen_scene.h"

#include <vtkCamera.h>
#include <vtkNew.h>
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
  int width = 0, height = 0;
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
  w->AddRenderer(impl_->renderer);
  impl_->scene = std::make_unique<SceneRenderer>(impl_->renderer.GetPointer());
  impl_->comparison =
      std::make_unique<SceneRenderer>(impl_->renderer.GetPointer(), SceneRole::Comparison);
}

OffscreenScene::~OffscreenScene() {
  // The scene removes its actors and corner renderer before the window goes.
  impl_->comparison.reset();
  impl_->scene.reset();
  impl_->window->Finalize();
}

SceneRenderer& OffscreenScene::scene() { return *impl_->scene; }
SceneRenderer& OffscreenScene::comparison() { return *impl_->comparison; }
vtkRenderer* OffscreenScene::renderer() { return impl_->renderer; }
vtkCamera* OffscreenScene::camera() { return impl_->renderer->GetActiveCamera(); }
int OffscreenScene::width() const { return impl_->width; }
int OffscreenScene::height() const { return impl_->height; }

const std::uint8_t* OffscreenScene::render() {
  impl_->renderer->ResetCameraClippingRange();
  const std::lock_guard lock(vtkRenderMutex());  // the app's view renders on the GUI thread
  impl_->window->Render();
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
