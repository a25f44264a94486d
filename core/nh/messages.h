// Building one-line error messages from untrusted input (style guide: "Errors"): every
// message a parser throws is a single line without raw control characters, whatever the
// file held.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace nh {

// `text` with its control characters written as escapes: \n, \r, \t, \0 and \xHH for the
// others (DEL included). Other bytes, UTF-8 included, are kept.
inline std::string escapeControl(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c != 0x7f) {
      out += ch;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == 0) {
      out += "\\0";
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02X", static_cast<unsigned>(c));
      out += hex;
    }
  }
  return out;
}

// Input echoed in a message: cut to its first `limit` bytes (never inside a UTF-8
// character) followed by "…" when longer, then its control characters escaped.
// A number in a message, to six significant digits ("%.6g": 0.0123457, 1.5e+08).
inline std::string shortNumber(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

inline std::string echoInput(std::string_view input, size_t limit = 60) {
  if (input.size() <= limit) return escapeControl(input);
  size_t cut = limit;
  while (cut > 0 && (static_cast<unsigned char>(input[cut]) & 0xC0) == 0x80) --cut;
  return escapeControl(input.substr(0, cut)) + "…";
}

// `items` with `separator` between them: "a, b, c" ("" for none).
inline std::string joined(const std::vector<std::string>& items,
                          std::string_view separator = ", ") {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += separator;
    out += items[i];
  }
  return out;
}

// Whether a message is one printable line: no byte below 0x20 and no DEL.
inline bool isOneLine(std::string_view message) {
  for (const char ch : message) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7f) return false;
  }
  return true;
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
