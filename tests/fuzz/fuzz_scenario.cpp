// Fuzz target: the scenario file parser (JSON text → Scenario, with its validation against
// the named system and the checks of the "view" part). Bad input must end in one InputError
// of one line; anything else (a crash, a sanitizer report, another exception) is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/io/scenario_file.h"
#include "core/nh/errors.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    // A folder that does not exist: a model file named relative to the scenario is not found.
    nh::parseScenarioJson(text, "/nonexistent-fuzz-folder/scenario.json");
  } catch (const nh::InputError& e) {
    nh::fuzz::requireOneLine(e.what());
  }
  return 0;
}
// SPDX-License-Identifier: GPL-3.0-or-later
