// The long options a --help text lists, for the suites that compare the help with the option
// table and the completion: the lines of the option list start with the option
// ("  -h,--help", "  --set NAME=VALUE …"); the usage lines in the footers, which name other
// commands' options too, do not.
#pragma once

#include <QRegularExpression>
#include <QString>
#include <QStringList>

namespace nhtest {

// The options `help` lists, in order, each once.
inline QStringList optionsInHelp(const QString& help) {
  QStringList names;
  static const QRegularExpression option("^\\s+(?:-[a-z],)?(--[a-z][a-z-]*)",
                                         QRegularExpression::MultilineOption);
  for (const QRegularExpressionMatch& m : option.globalMatch(help))
    if (!names.contains(m.captured(1))) names << m.captured(1);
  return names;
}

}  // namespace nhtest
// SPDX-License-Identifier: GPL-3.0-or-later
