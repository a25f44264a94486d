// Study CSV files read back (study_csv.h): lines split into fields, numbers parsed, the table
// of a `nhsim sweep` or `nhsim linearize --sweep` file, and a grid made from three of its columns.
#include "ui/study/study_csv.h"

#include <QFile>
#include <QFileInfo>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

namespace nhui {

namespace {

// Splits a CSV line; a field may be "quoted" with "" for a quote. False on an open quote.
bool splitCsv(const QString& line, QStringList& fields) {
  fields.clear();
  QString field;
  bool quoted = false, wasQuoted = false;
  for (int i = 0; i < line.size(); ++i) {
    const QChar c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"' && field.isEmpty() && !wasQuoted) {
      quoted = wasQuoted = true;
    } else if (c == ',') {
      fields << field;
      field.clear();
      wasQuoted = false;
    } else {
      field += c;
    }
  }
  fields << field;
  return !quoted;
}

bool parseNumber(const QString& text, double& out) {
  const QString t = text.trimmed().toLower();
  if (t == "nan" || t == "-nan") return out = std::numeric_limits<double>::quiet_NaN(), true;
  if (t == "inf" || t == "+inf") return out = std::numeric_limits<double>::infinity(), true;
  if (t == "-inf") return out = -std::numeric_limits<double>::infinity(), true;
  bool ok = false;
  out = t.toDouble(&ok);
  return ok;
}

constexpr qint64 kMaxFileBytes = 512LL << 20;
constexpr long kMaxCells = 4'000'000;

}  // namespace

bool readStudyCsv(const QString& path, StudyTable& table, QString& error) {
  const QString name = QFileInfo(path).fileName();
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    error = QObject::tr("Cannot open %1: %2").arg(name, file.errorString());
    return false;
  }
  if (file.size() > kMaxFileBytes) {
    error = QObject::tr("%1 is larger than %2 MB; not read").arg(name).arg(kMaxFileBytes >> 20);
    return false;
  }
  StudyTable t;
  bool header = false;
  int varied = 0;
  long lineNumber = 0;
  QStringList fields;
  while (!file.atEnd()) {
    ++lineNumber;
    QString line = QString::fromUtf8(file.readLine());
    while (line.endsWith('\n') || line.endsWith('\r')) line.chop(1);
    if (line.isEmpty()) continue;
    auto fail = [&](const QString& what) {
      error = QObject::tr("%1, line %2: %3").arg(name).arg(lineNumber).arg(what);
      return false;
    };
    if (line.startsWith('#')) {
      const QString comment = line.mid(line.startsWith("# ") ? 2 : 1);
      if (comment.startsWith("vary:") || comment.startsWith("sample:")) ++varied;
      t.comments << comment;
      continue;
    }
    if (!splitCsv(line, fields)) return fail(QObject::tr("a quoted field is not closed"));
    if (!header) {
      header = true;
      t.columns = fields;
      t.statusColumn = static_cast<int>(fields.indexOf("status"));
      for (const QString& f : fields)
        if (f.trimmed().isEmpty()) return fail(QObject::tr("the header has an empty column name"));
      double probe = 0;
      if (parseNumber(fields[0], probe))
        return fail(QObject::tr("expected a header line (column names), found numbers"));
      continue;
    }
    if (fields.size() != t.columns.size())
      return fail(QObject::tr("%1 fields where the header has %2")
                      .arg(fields.size())
                      .arg(t.columns.size()));
    std::vector<double> row(static_cast<size_t>(fields.size()));
    for (int c = 0; c < fields.size(); ++c) {
      if (c == t.statusColumn) {
        row[static_cast<size_t>(c)] = std::numeric_limits<double>::quiet_NaN();
        continue;
      }
      if (!parseNumber(fields[c], row[static_cast<size_t>(c)]))
        return fail(
            QObject::tr("'%1' in column %2 is not a number").arg(fields[c].left(40), t.columns[c]));
    }
    t.numbers.push_back(std::move(row));
    t.statuses.push_back(t.statusColumn >= 0 ? fields[t.statusColumn] : QStringLiteral("ok"));
  }
  if (!header) {
    error = QObject::tr("%1 has no header line: not a CSV of nhsim sweep or linearize").arg(name);
    return false;
  }
  if (t.numbers.empty()) {
    error = QObject::tr("%1 has no rows").arg(name);
    return false;
  }
  const int numeric = static_cast<int>(t.columns.size()) - (t.statusColumn >= 0 ? 1 : 0);
  if (numeric < 2) {
    error = QObject::tr("%1 needs at least two numeric columns (a varied value and a measure)")
                .arg(name);
    return false;
  }
  t.variedCount = std::clamp(varied, 1, std::min(2, numeric - 1));
  table = std::move(t);
  return true;
}

bool gridFromTable(const StudyTable& table, int x, int y, int value, StudyGrid& grid,
                   QString& error) {
  auto distinct = [&](int column) {
    std::vector<double> v;
    for (const auto& row : table.numbers)
      if (std::isfinite(row[static_cast<size_t>(column)]))
        v.push_back(row[static_cast<size_t>(column)]);
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
  };
  StudyGrid g;
  g.xName = g.xLabel = table.columns[x];
  g.valueName = table.columns[value];
  g.xs = distinct(x);
  if (y >= 0) {
    g.yName = g.yLabel = table.columns[y];
    g.ys = distinct(y);
  }
  if (g.xs.empty() || (y >= 0 && g.ys.empty())) {
    error = QObject::tr("column %1 has no finite values").arg(table.columns[g.xs.empty() ? x : y]);
    return false;
  }
  if (static_cast<double>(g.nx()) * g.ny() > kMaxCells) {
    error = QObject::tr("%1 × %2 distinct values make too many cells to draw (at most %3)")
                .arg(g.nx())
                .arg(g.ny())
                .arg(kMaxCells);
    return false;
  }
  g.clearCells();
  for (size_t r = 0; r < table.numbers.size(); ++r) {
    const auto& row = table.numbers[r];
    const double xv = row[static_cast<size_t>(x)];
    if (!std::isfinite(xv) || (y >= 0 && !std::isfinite(row[static_cast<size_t>(y)]))) continue;
    const int ix = static_cast<int>(std::lower_bound(g.xs.begin(), g.xs.end(), xv) - g.xs.begin());
    int iy = 0;
    if (y >= 0)
      iy = static_cast<int>(
          std::lower_bound(g.ys.begin(), g.ys.end(), row[static_cast<size_t>(y)]) - g.ys.begin());
    const size_t cell = static_cast<size_t>(ix * g.ny() + iy);
    if (!g.statuses[cell].isEmpty()) {
      error = QObject::tr("row %1 repeats %2 = %3%4: choose other columns")
                  .arg(r + 1)
                  .arg(g.xName)
                  .arg(xv)
                  .arg(y >= 0 ? QString(", %1 = %2").arg(g.yName).arg(row[static_cast<size_t>(y)])
                              : QString());
      return false;
    }
    g.values[cell] = row[static_cast<size_t>(value)];
    g.statuses[cell] = table.statuses[r];
  }
  grid = std::move(g);
  return true;
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
