// Fuzz target: the model file parser with its expression parser, the derivations and the
// regularity check at the initial state (loadModelText). Bad input must end in one
// ModelError of one line; anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/model/model_file.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Loading records the equations onto the tape; inputs far beyond the largest bundled model
  // only make each run slower, not the parser's paths different. The bound lets through the
  // regressions at the parser's limits: nesting 20,000 deep, a sum of 100,000 terms.
  if (size > 262144) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    nh::model::loadModelText(text, "fuzz.yaml");
  } catch (const nh::model::ModelError& e) {
    nh::fuzz::requireOneLine(e.what());
  }
  return 0;
}
// SPDX-License-Identifier: GPL-3.0-or-later
