// VTK's text rendering (vtkTextRenderer, vtkFreeTypeTools) and other singletons used while
// rendering are not thread-safe, and an animation export renders on a worker thread while
// the app's view renders on the GUI thread: every Render() call takes this lock.
#pragma once

#include <mutex>

namespace nhui {

inline std::mutex& vtkRenderMutex() {
  static std::mutex mutex;
  return mutex;
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
