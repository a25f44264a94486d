// Model files (model_file.h): their errors, and telling a model file's path from a scenario's
// or a system's name. Nothing here needs
// GiNaC or yaml-cpp: the web engine links it too.
#include "core/model/model_file.h"

#include <filesystem>
#include <fstream>

#include "core/nh/messages.h"

namespace nh::model {

namespace {

// "FILE:LINE:COLUMN: KEY: PROBLEM", appended piece by piece.
std::string modelErrorText(const std::string& file, const std::string& key, int line, int column,
                           const std::string& problem) {
  std::string text = file;
  if (line > 0)
    text.append(":").append(std::to_string(line)).append(":").append(std::to_string(column));
  text.append(": ");
  if (!key.empty()) text.append(key).append(": ");
  return text.append(problem);
}

}  // namespace

// One line whatever the file held: control characters in the key and the problem (which may
// echo the file's text) are escaped.
ModelError::ModelError(std::string file, std::string key, int line, int column, std::string problem)
    : InputError(escapeControl(modelErrorText(file, key, line, column, problem))),
      file_(std::move(file)),
      key_(escapeControl(key)),
      line_(line),
      column_(column),
      problem_(escapeControl(problem)) {}

bool isModelFilePath(const std::string& path) {
  auto endsWith = [&](const char* s) {
    const std::string e(s);
    return path.size() > e.size() && path.compare(path.size() - e.size(), e.size(), e) == 0;
  };
  if (endsWith(".yaml") || endsWith(".yml")) return true;
  if (endsWith(".json")) return false;
  std::error_code ec;  // only a regular file is looked into: a FIFO would block
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  std::ifstream in(path);
  if (!in) return false;
  char buffer[4096] = {};
  in.read(buffer, sizeof buffer - 1);
  return std::string(buffer).find("nonholonomic-lab-system") != std::string::npos;
}

}  // namespace nh::model
// SPDX-License-Identifier: GPL-3.0-or-later
