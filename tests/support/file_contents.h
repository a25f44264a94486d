// Reading back what a test wrote: a file's bytes, and a folder's entries (hidden ones too, so a
// left-over temporary shows).
#pragma once

#include <QDir>
#include <QFile>
#include <QStringList>
#include <string>

namespace nhtest {

inline std::string readAll(const std::string& path) {
  QFile f(QString::fromStdString(path));
  if (!f.open(QIODevice::ReadOnly)) return "<unreadable>";
  return f.readAll().toStdString();
}

inline QStringList entries(const QString& folder) {
  return QDir(folder).entryList(QDir::AllEntries | QDir::Hidden | QDir::System |
                                QDir::NoDotAndDotDot);
}

}  // namespace nhtest
// SPDX-License-Identifier: GPL-3.0-or-later
