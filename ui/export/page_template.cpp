// The HTML pieces (page_template.h): resources read as text, escaping, filled templates.
#include "ui/export/page_template.h"

#include <QByteArray>
#include <QFile>

#include "core/nh/errors.h"
#include "ui/export/interactive_page.h"

namespace nhui {

std::string resourceText(const char* path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) throw nh::InputError(kPageUnavailable);
  const QByteArray bytes = file.readAll();
  return std::string(bytes.constData(), static_cast<size_t>(bytes.size()));
}

std::string htmlEscaped(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string filledTemplate(const std::string& page,
                           const std::map<std::string, std::string>& parts) {
  std::string out;
  size_t at = 0;
  while (true) {
    const size_t open = page.find('@', at);
    const size_t close = open == std::string::npos ? open : page.find('@', open + 1);
    if (close == std::string::npos) break;
    const auto it = parts.find(page.substr(open + 1, close - open - 1));
    if (it == parts.end()) {
      out += page.substr(at, close - at);
      at = close;
      continue;
    }
    out += page.substr(at, open - at) + it->second;
    at = close + 1;
  }
  return out + page.substr(at);
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
