// The web engine's stand-in for the loader (model_loader.cpp): it holds no GiNaC and no
// yaml-cpp, so a model file (or its text) is refused in one line; the bundled models run from the
// archives compiled into it (model_archive.h), the C++ systems as code.
#include "core/model/model_file.h"

namespace nh::model {

std::shared_ptr<const FormulaSystem> loadModelText(const std::string&, const std::string& fileName,
                                                   const std::string&) {
  throw ModelError(fileName, "", 0, 0,
                   "model files are read by nhlab and nhsim; the web engine runs the systems "
                   "compiled into it (export a model from nhsim to carry it in a page)");
}

std::shared_ptr<const FormulaSystem> loadModelFile(const std::string& path) {
  return loadModelText("", path, path);
}

}  // namespace nh::model
// SPDX-License-Identifier: GPL-3.0-or-later
