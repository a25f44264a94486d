// Reading the CSV files of `nhsim sweep` and `nhsim linearize --sweep` back for the Study
// panel: "#" comment lines, one header line, then rows of numbers (and a status column).
#pragma once

#include <QString>
#include <QStringList>
#include <vector>

#include "ui/study/study_map.h"

namespace nhui {

struct StudyTable {
  QStringList comments;  // the "#" lines, without "# "
  QStringList columns;   // the header
  int statusColumn = -1;
  int variedCount = 0;  // "# vary:" / "# sample:" lines (sweep), else 1 (linearize: first column)
  std::vector<std::vector<double>> numbers;  // per row, per column (NaN in the status column)
  std::vector<QString> statuses;             // per row ("ok" without a status column)
};

// Reads `path`; on failure returns false and sets `error` to one line naming the file, the
// line and what is wrong (and leaves `table` as it was).
bool readStudyCsv(const QString& path, StudyTable& table, QString& error);

// The grid of `value` over the distinct values of column `x` (and `y`, -1 for none). Returns
// false with `error` set when a (x, y) pair repeats or the grid would be too large.
bool gridFromTable(const StudyTable& table, int x, int y, int value, StudyGrid& grid,
                   QString& error);

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
