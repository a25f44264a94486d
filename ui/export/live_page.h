// What a live page carries beside the recorded run (interactive_page.h, PageSettings::live):
// the scenario the web engine runs, each parameter with its name, unit and bounds, the initial
// state, the arrows' fixed scales, and a typed-in model's archive. Private to ui/export.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "core/nh/scenario.h"

namespace nhui {

struct PageSettings;

// The page's data.live (resources/html/live.js reads it). Throws nh::InputError with
// livePageRefusal's line.
nlohmann::json livePageData(const nh::Scenario& scenario, const PageSettings& settings);

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
