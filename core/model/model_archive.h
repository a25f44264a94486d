// A loaded model file as bytes, and back. The bundled model files are loaded at build time
// (compile_models.cpp) and compiled into the program in this form, so that running one of
// them needs neither the YAML parse nor the GiNaC derivations of loading its text.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/formula_system.h"

namespace nh::model {

// Everything a FormulaSystem holds (its ModelData, the derived expressions included, and its
// SystemInfo), numbers bit for bit.
std::string archiveModel(const FormulaSystem& system);
// The system archiveModel wrote. Throws std::runtime_error on other bytes.
std::shared_ptr<const FormulaSystem> unarchiveModel(std::string_view bytes);

// A bundled model file compiled ahead: its file name (as in bundledModelTexts()) and archive.
struct CompiledModel {
  std::string_view file;
  std::string_view archive;
};
// Every bundled model file, compiled ahead (defined in the generated compiled_models.cpp,
// which nhmodel links; the generator itself links only the loader).
const std::vector<CompiledModel>& compiledModels();

}  // namespace nh::model
// SPDX-License-Identifier: GPL-3.0-or-later
