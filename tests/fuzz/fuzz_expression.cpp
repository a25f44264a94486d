// Fuzz target: the expression parser alone, then an evaluation of what it accepted and its
// conversion to GiNaC (the passes the symbolic derivations make). Bad input must end in one
// ExpressionError of one line with an offset inside the text; an accepted expression GiNaC
// finds undefined (log(0)) in one ModelError of one line.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include "core/model/expression.h"
#include "core/model/model_file.h"
#include "core/model/symbolic_model.h"
#include "fuzz_support.h"

namespace {

const std::vector<std::string> kNames = {"t", "x", "y", "theta", "v", "m", "r", "lambda_1"};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  nh::model::NameResolver names;
  names.slotOf = [](const std::string& n) {
    for (size_t i = 0; i < kNames.size(); ++i)
      if (kNames[i] == n) return static_cast<int>(i);
    return -1;
  };
  names.known = [] {
    std::string s;
    for (const auto& n : kNames) s += (s.empty() ? "" : ", ") + n;
    return s;
  };
  try {
    const nh::model::Expression e = nh::model::parseExpression(text, names);
    if (e.nodes.empty()) std::abort();  // an accepted expression has a value
    const std::vector<double> env = {0.25, 1.5, -0.75, 0.5, 2.0, 3.0, 0.125, -1.0};
    std::vector<double> scratch(e.nodes.size());
    (void)nh::model::evaluate(e, env.data(), scratch.data());
    if (nh::model::treeDepth(e, [](int) { return 1; }) > 4 * nh::model::kMaxExpressionNesting)
      std::abort();  // the nesting bound bounds the depth of every later pass
    try {
      std::lock_guard lock(nh::model::ginacMutex());
      nh::model::SymbolTable table;
      for (const auto& n : kNames) table.bySlot.emplace_back(n);
      table.firstDefinition = static_cast<int>(kNames.size());
      (void)nh::model::toGinac(e, table);
    } catch (const nh::model::ModelError& err) {
      nh::fuzz::requireOneLine(err.what());
    }
  } catch (const nh::model::ExpressionError& e) {
    nh::fuzz::requireOneLine(e.what());
    if (e.offset() < 0 || static_cast<size_t>(e.offset()) > text.size()) std::abort();
  }
  return 0;
}
// SPDX-License-Identifier: GPL-3.0-or-later
