// The model files of resources/systems/, compiled into the program (so the bundled systems
// need no installed data folder): (file name, text), sorted by file name.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace nh {

const std::vector<std::pair<std::string, std::string>>& bundledModelTexts();

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
