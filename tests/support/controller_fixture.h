// A SimulationController running a system's default scenario, for suites that drive the
// controller and the undo commands without a window.
#pragma once

#include <memory>
#include <string>

#include "ui/sim/simulation_controller.h"

namespace nhtest {

inline std::unique_ptr<nhui::SimulationController> startController(
    const std::string& system = "ball_on_turntable") {
  auto controller = std::make_unique<nhui::SimulationController>();
  nh::Scenario s;
  s.system = system;
  controller->loadScenario(s);
  return controller;
}

}  // namespace nhtest
// SPDX-License-Identifier: GPL-3.0-or-later
