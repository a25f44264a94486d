// CSV rows (core/io/csv_writer): the header, one line per row, values that read back to the
// same doubles, and write errors reported at close (a full device), never silently.
#include "core/io/csv_writer.h"

#include <QtTest>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/nh/errors.h"

class CsvWriterTest : public QObject {
  Q_OBJECT

 private slots:
  void headerRowsAndExactValues() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("rows.csv").toStdString();
    const std::vector<double> values = {0.1,
                                        1.0 / 3.0,
                                        -2.5e-300,
                                        6.02214076e23,
                                        M_PI,
                                        -0.0,
                                        1e16 + 2,
                                        std::numeric_limits<double>::min(),
                                        4503599627370497.0,
                                        0.30000000000000004};
    {
      nh::CsvWriter csv(path, {"t", "x", "y"});
      for (size_t i = 0; i + 2 < values.size(); i += 3)
        csv.write({values[i], values[i + 1], values[i + 2]});
      csv.close();
    }
    QFile f(QString::fromStdString(path));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = f.readAll().split('\n');
    QCOMPARE(lines.size(), 5);  // header, three rows, and the empty piece after the last '\n'
    QCOMPARE(lines[0], QByteArray("t,x,y"));
    QVERIFY(lines[4].isEmpty());
    size_t next = 0;
    for (int row = 1; row <= 3; ++row) {
      const QList<QByteArray> cells = lines[row].split(',');
      QCOMPARE(cells.size(), 3);
      for (const QByteArray& cell : cells) {
        const double back = std::strtod(cell.constData(), nullptr);
        QVERIFY2(back == values[next] && std::signbit(back) == std::signbit(values[next]),
                 cell.constData());
        ++next;
      }
    }
  }

  void aFullDeviceFailsAtClose() {
    if (!QFile::exists("/dev/full")) QSKIP("no /dev/full");
    nh::CsvWriter csv("/dev/full", {"t"});
    for (int i = 0; i < 10000; ++i) csv.write({static_cast<double>(i)});
    QVERIFY_THROWS_EXCEPTION(nh::Error, csv.close());
  }

  void anUnwritablePathFailsAtOnce() {
    QVERIFY_THROWS_EXCEPTION(nh::Error, nh::CsvWriter("/nonexistent-dir/rows.csv", {"t"}));
  }
};

QTEST_GUILESS_MAIN(CsvWriterTest)
#include "csv_writer_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
