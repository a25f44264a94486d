// VTK's text rendering (vtkTextRenderer, vtkFreeTypeTools) and other singletons used while
// rendering are not thread-safe, and an animation export renders on a worker thread while
// the app's view renders on the GUI thread: every Render() call takes this lock, and so does
// every measuring of text outside a render (a text actor's GetSize renders the text). It is
// recursive, as the same measuring runs inside a render too (before each one).
#pragma once

#include <mutex>

namespace nhui {

inline std::recursive_mutex& vtkRenderMutex() {
  static std::recursive_mutex mutex;
  return mutex;
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
