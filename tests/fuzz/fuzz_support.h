// Shared by the fuzz targets: what every parser error must be.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/nh/messages.h"

namespace nh::fuzz {

// Aborts (a finding for libFuzzer, a failure for the replay) when a parser's error message
// is not one printable line: no newline, no other control character.
inline void requireOneLine(const char* message) {
  if (nh::isOneLine(message)) return;
  std::fprintf(stderr, "error message is not one printable line: %s\n",
               nh::escapeControl(message).c_str());
  std::abort();
}

}  // namespace nh::fuzz
// SPDX-License-Identifier: GPL-3.0-or-later
