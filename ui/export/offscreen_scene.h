// A SceneRenderer in its own offscreen vtkRenderWindow: renders the 3D scene at any size up to
// the OpenGL framebuffer limit without a visible window (export frames, screenshots, tests).
// VTK renders through GLX here, so an X display must be reachable (nh::ensureDisplay()).
// Use one instance from one thread only: its OpenGL context belongs to that thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

#include "ui/scene/scene_renderer.h"

class vtkRenderer;
class vtkCamera;

namespace nhui {

class OffscreenScene {
 public:
  // Throws RenderError (animation_exporter.h) if no X display accepts connections.
  OffscreenScene(int width, int height);
  ~OffscreenScene();
  OffscreenScene(const OffscreenScene&) = delete;
  OffscreenScene& operator=(const OffscreenScene&) = delete;

  SceneRenderer& scene();
  // A comparison run's renderer in the same view (translucent orange bodies and trails).
  SceneRenderer& comparison();
  // A planned motion's start (0) or target (1): translucent copies of the bodies
  // (SceneRole::Ghost), made on first use.
  SceneRenderer& ghost(int which);
  vtkRenderer* renderer();
  vtkCamera* camera();
  int width() const;
  int height() const;

  // Renders and returns the pixels: packed RGB, bottom row first (OpenGL order), valid until
  // the next render(). Throws RenderError if OpenGL produced no image.
  const std::uint8_t* render();
  // The top row of render()'s pixels and the stride that walks down from it (negative).
  const std::uint8_t* topRow(const std::uint8_t* pixels) const {
    return pixels + static_cast<std::ptrdiff_t>(height() - 1) * 3 * width();
  }
  std::ptrdiff_t topDownStride() const { return -3 * static_cast<std::ptrdiff_t>(width()); }

  // Pipelined rendering (export): startFrame() renders the scene as it is now and starts
  // reading the frame back into one of two pixel buffer objects, without waiting for it;
  // takeFrame() waits for the oldest started frame and passes its pixels (as render() returns
  // them) to `use`. So the scene of frame i+1 is set up and submitted while the rasteriser
  // still draws frame i. At most two frames may be started and not taken.
  void startFrame();
  void takeFrame(const std::function<void(const std::uint8_t* pixels)>& use);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
