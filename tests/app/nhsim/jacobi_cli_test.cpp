// `nhsim run --sensitivity` and `nhsim lyapunov` as users run them: the sensitivity columns
// after the run's own, the same run's columns unchanged to the tolerance, a field that
// overflows stopping the run as a blow-up does (exit 3, the column named, the file kept and
// marked partial), the exponents as text and JSON, and bad input exiting 2 with one line and
// no output file. Figures: the Chaplygin sleigh moving backwards (v = −1, ω = 0) is a steady
// motion whose turning mode grows at m a |v| / (I + m a²) = 20/9 per second.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "nhsim_process.h"

namespace {
using Result = nh::test::ProcessResult;
Result nhsim(const QStringList& args) { return nh::test::runNhsim(args); }

QStringList csvLines(const QString& text) { return text.split('\n', Qt::SkipEmptyParts); }

// One line on standard error, exit 2, nothing on standard output.
void checkRefused(const Result& r, const QString& says) {
  QCOMPARE(r.code, 2);
  QVERIFY2(r.err.contains(says), qPrintable(r.err));
  QCOMPARE(r.err.count('\n'), 1);
  QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
}
}  // namespace

class JacobiCliTest : public QObject {
  Q_OBJECT

 private slots:
  // The columns d<state column>/d<NAME> follow the run's own, NAME by NAME (a comma list and
  // a repeated option alike); at t = 0 dNAME/dNAME is 1; the run's columns are those of the
  // same run without them (to the tolerance: the fields are carried beside it).
  void sensitivityColumnsFollowTheRunsOwn() {
    const QStringList run = {"run", "chaplygin_sleigh", "--t-end", "1", "--dt-out", "0.5"};
    const Result plain = nhsim(run);
    const Result r = nhsim(run + QStringList{"--sensitivity", "v,x", "--sensitivity", "omega"});
    QCOMPARE(r.code, 0);
    const QStringList lines = csvLines(r.out), plainLines = csvLines(plain.out);
    QCOMPARE(lines.size(), 4);
    const QStringList header = lines[0].split(',');
    const QStringList plainHeader = plainLines[0].split(',');
    QCOMPARE(header.mid(0, plainHeader.size()), plainHeader);
    QCOMPARE(header.size(), plainHeader.size() + 3 * 6);
    QCOMPARE(header[plainHeader.size()], QString("dx/dv"));
    QCOMPARE(header[plainHeader.size() + 6 + 3], QString("dv/dx"));
    QCOMPARE(header.last(), QString("du/domega"));
    const QStringList first = lines[1].split(',');
    QCOMPARE(first[header.indexOf("dv/dv")].toDouble(), 1.0);
    QCOMPARE(first[header.indexOf("dx/dx")].toDouble(), 1.0);
    QCOMPARE(first[header.indexOf("domega/domega")].toDouble(), 1.0);
    const QStringList last = lines.last().split(','), plainLast = plainLines.last().split(',');
    for (int c = 0; c < plainHeader.size(); ++c)
      QVERIFY(std::abs(last[c].toDouble() - plainLast[c].toDouble()) < 1e-8);
  }

  // The sleigh's turning mode grows as e^(20t/9) while the motion itself stays steady (ω = 0
  // exactly): the fields overflow near t = 320 and the run stops there as a blow-up does,
  // the column named, the rows before kept and the file marked partial.
  void anOverflowingFieldStopsTheRun() {
    QTemporaryDir dir;
    const QString out = dir.filePath("fields.csv");
    const Result r =
        nhsim({"run", "chaplygin_sleigh", "--init", "omega=0", "--init", "v=-1", "--t-end", "400",
               "--dt-out", "10", "--sensitivity", "omega", "--out", out});
    QCOMPARE(r.code, 3);
    QVERIFY2(r.err.contains("blew up at t = 320") && r.err.contains("/domega is no longer finite"),
             qPrintable(r.err));
    QFile file(out);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QStringList lines = csvLines(QString::fromUtf8(file.readAll()));
    QVERIFY2(lines.last().startsWith("# partial: stopped at t = 320"), qPrintable(lines.last()));
    QCOMPARE(lines.size(), 1 + 32 + 1);  // header, t = 0 … 310, the partial line
  }

  // What --sensitivity cannot do is refused before anything is written: a name that is neither
  // an initial value nor a parameter (the allowed ones named), a parameter the system reads
  // as a number (a C++ system's) or of a system with holonomic constraints, an integrator
  // without a variational form (those with one named), vakonomic dynamics.
  void badSensitivitiesAreRefused() {
    QTemporaryDir dir;
    const QString out = dir.filePath("never.csv");
    const QStringList run = {"run", "chaplygin_sleigh", "--t-end", "1", "--out", out};
    checkRefused(nhsim(run + QStringList{"--sensitivity", "v,speed"}),
                 "'speed' is not an initial value or a parameter of 'chaplygin_sleigh' (allowed: "
                 "x, y, theta, v, omega, u, or a parameter: see 'nhsim info chaplygin_sleigh')");
    checkRefused(nhsim({"run", "central_force", "--out", out, "--sensitivity", "k"}),
                 "'central_force' reads its parameters as numbers, not on the tape");
    checkRefused(nhsim({"run", "spherical_pendulum", "--out", out, "--sensitivity", "l"}),
                 "whose holonomic constraints may move its start with them");
    checkRefused(nhsim(run + QStringList{"--sensitivity", "v", "--integrator", "bdf"}),
                 "an integrator with a variational form (dopri5, dop853, rk78, rk4), not bdf");
    checkRefused(nhsim(run + QStringList{"--sensitivity", "v", "--dynamics", "vakonomic"}),
                 "works on the nonholonomic equations");
    checkRefused(nhsim(run + QStringList{"--sensitivity", QString(5000, 'w')}),
                 "is not an initial value");
    QVERIFY(nhsim(run + QStringList{"--sensitivity", QString(5000, 'w')}).err.size() < 300);
    QVERIFY(!QFile::exists(out));
  }

  // The text: a heading naming the dimension of the constraint manifold, then one line per
  // exponent with its estimates at T/2 and at T; the JSON holds the same.
  void exponentsAsTextAndJson() {
    const QStringList args = {
        "lyapunov", "chaplygin_sleigh", "--init", "omega=0", "--init", "v=-1", "--t-end",
        "40",       "--dt-out",         "0.05",   "--count", "2"};
    const Result text = nhsim(args);
    QCOMPARE(text.code, 0);
    const QStringList lines = csvLines(text.out);
    QCOMPARE(lines.size(), 4);
    QVERIFY2(lines[0].contains("dimension 5"), qPrintable(lines[0]));
    QVERIFY2(lines[1].contains("t = 20") && lines[1].contains("t = 40"), qPrintable(lines[1]));
    const Result json = nhsim(args + QStringList{"--json"});
    QCOMPARE(json.code, 0);
    const QJsonObject root = QJsonDocument::fromJson(json.out.toUtf8()).object();
    QCOMPARE(root["dimension"].toInt(), 5);
    QCOMPARE(root["t_half"].toDouble(), 20.0);
    QCOMPARE(root["t_end"].toDouble(), 40.0);
    const QJsonArray end = root["exponents"].toArray(), half = root["exponents_half"].toArray();
    QCOMPARE(end.size(), 2);
    QVERIFY(std::abs(end[0].toDouble() - 20.0 / 9) < 0.01 * 20 / 9);
    QVERIFY(std::abs(end[0].toDouble() - 20.0 / 9) < std::abs(half[0].toDouble() - 20.0 / 9));
    QVERIFY2(lines[2].split(' ', Qt::SkipEmptyParts).last().toDouble() == end[0].toDouble() ||
                 std::abs(lines[2].split(' ', Qt::SkipEmptyParts).last().toDouble() -
                          end[0].toDouble()) < 1e-9,
             qPrintable(lines[2]));
  }

  // Bad input to lyapunov: one line, exit 2.
  void badLyapunovInputIsRefused() {
    const QStringList sleigh = {"lyapunov", "chaplygin_sleigh"};
    checkRefused(nhsim(sleigh + QStringList{"--t-end", "1", "--count", "6"}),
                 "has 5 free directions on its constraint manifold; give 1 … 5");
    checkRefused(nhsim(sleigh + QStringList{"--t-end", "0"}), "--t-end must be a positive number");
    checkRefused(nhsim(sleigh + QStringList{"--t-end", "-2"}), "--t-end must be a positive number");
    checkRefused(nhsim(sleigh), "lyapunov needs --t-end T");
    checkRefused(nhsim(sleigh + QStringList{"--t-end", "1", "--count", "0"}),
                 "--count must be a whole number from 1");
    checkRefused(
        nhsim(sleigh + QStringList{"--t-end", "1", "--integrator", "nh-rattle", "--step", "0.01"}),
        "(dopri5, dop853, rk78, rk4), not nh-rattle");
    checkRefused(nhsim(sleigh + QStringList{"--t-end", "1", "--dynamics", "vakonomic"}),
                 "works on the nonholonomic equations");
  }
};

QTEST_GUILESS_MAIN(JacobiCliTest)
#include "jacobi_cli_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
