// What an interactive page embeds, read as the page's script reads it: the JSON of its element
// #nh-data, and its base64 strings of 32-bit floats (samples, times, arrow scales, plots).
#pragma once

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <cstring>
#include <string>
#include <vector>

namespace nhtest {

// The page's embedded data; empty when the page has none.
inline QJsonObject pageDataOf(const std::string& html) {
  const std::string open = R"(<script type="application/json" id="nh-data">)";
  const size_t from = html.find(open);
  if (from == std::string::npos) return {};
  const size_t start = from + open.size();
  const size_t end = html.find("</script>", start);
  return QJsonDocument::fromJson(QByteArray::fromStdString(html.substr(start, end - start)))
      .object();
}

// A base64 string of 32-bit floats, as the page decodes it into a Float32Array.
inline std::vector<float> pageFloats(const QJsonValue& text) {
  const QByteArray raw = QByteArray::fromBase64(text.toString().toLatin1());
  std::vector<float> out(static_cast<size_t>(raw.size()) / sizeof(float));
  std::memcpy(out.data(), raw.constData(), out.size() * sizeof(float));
  return out;
}

}  // namespace nhtest
// SPDX-License-Identifier: GPL-3.0-or-later
