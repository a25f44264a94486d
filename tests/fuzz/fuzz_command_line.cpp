// libFuzzer target: nhsim's command line parsing and checking (nh::cli::parseCommandLine,
// which gives the options struct of the command named, its scenario resolved) on arbitrary
// words. The input is split into argv words at NUL and newline bytes; nothing is run and no
// file is written. Every refusal must be an nh::Error whose message, as reportErrors prints
// it, is one line; a command line accepted for run, export, linearize or sweep must name the
// system of its scenario; anything else (a crash, another exception, a sanitizer report) is a
// finding.
// Build (tests/fuzz/ registers it): clang++-14 -fsanitize=fuzzer,address,undefined, linked
// with nhcli.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <variant>
#include <vector>

#include "app/nhsim/cli_support.h"
#include "app/nhsim/command_line.h"
#include "core/nh/errors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> words;
  std::string word;
  for (size_t i = 0; i < size; ++i) {
    const char c = static_cast<char>(data[i]);
    if (c == '\0' || c == '\n') {
      words.push_back(word);
      word.clear();
    } else {
      word.push_back(c);
    }
  }
  if (size > 0) words.push_back(word);
  try {
    const nh::cli::CommandLine line = nh::cli::parseCommandLine(words);
    std::visit(
        [](const auto& options) {
          if constexpr (requires { options.scenario.resolved; })
            if (options.scenario.resolved.system.empty()) std::abort();
        },
        line);
  } catch (const nh::Error& e) {
    if (nh::cli::oneLine(e.what()).find('\n') != std::string::npos) std::abort();
  }
  return 0;
}
// SPDX-License-Identifier: GPL-3.0-or-later
