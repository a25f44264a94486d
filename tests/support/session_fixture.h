// A Session running a system's default scenario, for suites that drive the session and its
// undo commands without a window.
#pragma once

#include <memory>
#include <string>

#include "ui/session/session.h"

namespace nhtest {

inline std::unique_ptr<nhui::Session> startSession(
    const std::string& system = "ball_on_turntable") {
  auto session = std::make_unique<nhui::Session>();
  nh::Scenario s;
  s.system = system;
  session->controller()->loadScenario(s);
  return session;
}

}  // namespace nhtest
// SPDX-License-Identifier: GPL-3.0-or-later
