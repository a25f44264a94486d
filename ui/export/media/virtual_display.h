// A private X server for headless rendering. VTK on Debian renders only through X/GLX, so
// `nhsim export` and headless tests need a display even where DISPLAY is unset (ssh, CI).
#pragma once

#include <sys/types.h>

#include <memory>
#include <optional>
#include <string>

namespace nh {

// True if an X connection to `displayName` (e.g. ":0") can be opened now.
bool canConnectToDisplay(const std::string& displayName);

// An Xvfb server owned by this process. While it lives, DISPLAY names it; the destructor
// stops the server and restores the previous DISPLAY. The server is also stopped by the
// kernel if the thread that started it dies (PR_SET_PDEATHSIG), so a crashed or killed
// process does not leave it behind: start it from the main thread.
class VirtualDisplay {
 public:
  // Starts `Xvfb -displayfd ... -screen 0 WxHx24 -nolisten tcp`, letting Xvfb choose a free
  // display number, and waits (up to timeoutSeconds) until it accepts connections.
  // Throws nh::Error if Xvfb is not installed (naming the `xvfb` package) or fails to start.
  explicit VirtualDisplay(int width = 1920, int height = 1080, double timeoutSeconds = 10.0);
  ~VirtualDisplay();
  VirtualDisplay(const VirtualDisplay&) = delete;
  VirtualDisplay& operator=(const VirtualDisplay&) = delete;

  const std::string& name() const { return name_; }  // e.g. ":1"
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
  std::string name_;
  std::optional<std::string> previousDisplay_;  // DISPLAY before this server, if it was set
};

// Makes rendering possible: returns nullptr if DISPLAY names an X server that accepts
// connections; otherwise starts a VirtualDisplay (setting DISPLAY) and returns it. Keep the
// result alive for as long as rendering happens.
std::unique_ptr<VirtualDisplay> ensureDisplay();

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
