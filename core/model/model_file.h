// Model files (docs/model-format.md): a system typed as formulas, read at run time and
// recorded onto the same tape as the built-in systems.
#pragma once

#include <memory>
#include <string>

#include "core/model/formula_system.h"
#include "core/nh/errors.h"

namespace nh::model {

// One problem in a model file: the file, the key, the line and column (1-based; 0 when
// unknown) and what was wrong and what is allowed. what() is
// "FILE:LINE:COLUMN: KEY: PROBLEM" (without line and column when they are unknown).
class ModelError : public InputError {
 public:
  ModelError(std::string file, std::string key, int line, int column, std::string problem);
  const std::string& file() const { return file_; }
  const std::string& key() const { return key_; }
  int line() const { return line_; }
  int column() const { return column_; }
  const std::string& problem() const { return problem_; }

 private:
  std::string file_, key_;
  int line_, column_;
  std::string problem_;
};

// Parses and checks a model file's text; `fileName` is used in messages and to resolve
// nothing else. Checks everything the format demands, then the mass matrix and A M⁻¹ Aᵀ at
// the initial state. Throws ModelError.
std::shared_ptr<const FormulaSystem> loadModelText(const std::string& text,
                                                   const std::string& fileName,
                                                   const std::string& path = "");
// Reads and loads a file (a regular file only). Throws ModelError (unreadable, too) .
std::shared_ptr<const FormulaSystem> loadModelFile(const std::string& path);

// Whether `path` names a model file rather than a scenario or a system name: it ends in
// .yaml or .yml, or it is a readable file whose text says `format: nonholonomic-lab-system`.
bool isModelFilePath(const std::string& path);

}  // namespace nh::model
// SPDX-License-Identifier: GPL-3.0-or-later
