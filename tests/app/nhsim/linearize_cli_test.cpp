// `nhsim linearize` as users run it: the exact JSON shapes of its output, text and CSV
// output, the warning away from an equilibrium, and bad input exiting 2 with one line.
// The eigenvalues are checked against the Chaplygin sleigh's closed form: straight motion at
// speed v has eigenvalues 0 and −m a v/(I + m a²) (m = 1, I = 0.05, a = 0.2).
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include "nhsim_process.h"

namespace {
using Result = nh::test::ProcessResult;
Result nhsim(const QStringList& args) { return nh::test::runNhsim(args); }
double sleighRate(double v) { return -1.0 * 0.2 * v / (0.05 + 1.0 * 0.2 * 0.2); }
}  // namespace

class LinearizeCliTest : public QObject {
  Q_OBJECT

 private slots:
  void jsonAtOnePoint() {
    const Result r = nhsim({"linearize", "chaplygin_sleigh", "--init", "omega=0", "--json"});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.err.isEmpty(), qPrintable(r.err));  // an equilibrium: no warning
    const QJsonObject root = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(root.keys(), (QStringList{"eigenvalues", "point", "system", "variables"}));
    // In the documented order (keys() sorts them).
    QVERIFY2(
        r.out.startsWith(R"({"system":"chaplygin_sleigh","variables":["v","omega"],"point":{)"),
        qPrintable(r.out));
    QVERIFY(r.out.indexOf("\"point\"") < r.out.indexOf("\"eigenvalues\""));
    QCOMPARE(root["system"].toString(), QString("chaplygin_sleigh"));
    QCOMPARE(root["variables"].toArray(), (QJsonArray{"v", "omega"}));
    const QJsonObject point = root["point"].toObject();
    QCOMPARE(point["v"].toDouble(), 0.3);
    QCOMPARE(point["omega"].toDouble(), 0.0);
    QVERIFY(point.contains("theta") && point.contains("u"));
    const QJsonArray e = root["eigenvalues"].toArray();
    QCOMPARE(e.size(), 2);
    QVERIFY(std::abs(e[0].toArray()[0].toDouble() - sleighRate(0.3)) < 1e-12);
    QVERIFY(std::abs(e[1].toArray()[0].toDouble()) < 1e-12);
    QCOMPARE(e[0].toArray().size(), 2);
  }

  void textOutputAndWarningAwayFromEquilibrium() {
    const Result r = nhsim({"linearize", "chaplygin_sleigh"});  // ω = 3: turning
    QCOMPARE(r.code, 0);
    QVERIFY2(r.err.contains("warning") && r.err.contains("not an equilibrium"), qPrintable(r.err));
    const QStringList lines = r.out.split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 2);
    for (const QString& line : lines) QCOMPARE(line.split(' ').size(), 2);
  }

  void sweepJsonAndCsv() {
    const Result r = nhsim(
        {"linearize", "chaplygin_sleigh", "--init", "omega=0", "--sweep", "v=-1:1:5", "--json"});
    QCOMPARE(r.code, 0);
    const QJsonObject root = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(root.keys(), (QStringList{"eigenvalues", "sweep", "system", "values", "variables"}));
    QCOMPARE(root["sweep"].toString(), QString("v"));
    QVERIFY2(r.out.startsWith(R"({"system":"chaplygin_sleigh","sweep":"v","values":[)"),
             qPrintable(r.out));
    QVERIFY(r.out.indexOf("\"values\"") < r.out.indexOf("\"variables\"") &&
            r.out.indexOf("\"variables\"") < r.out.indexOf("\"eigenvalues\""));
    QCOMPARE(root["values"].toArray(), (QJsonArray{-1.0, -0.5, 0.0, 0.5, 1.0}));
    const QJsonArray all = root["eigenvalues"].toArray();
    QCOMPARE(all.size(), 5);
    for (int i = 0; i < 5; ++i) {
      const double v = -1.0 + 0.5 * i;
      const QJsonArray e = all[i].toArray();
      QCOMPARE(e.size(), 2);
      const double lo = std::min(sleighRate(v), 0.0), hi = std::max(sleighRate(v), 0.0);
      QVERIFY(std::abs(e[0].toArray()[0].toDouble() - lo) < 1e-12);
      QVERIFY(std::abs(e[1].toArray()[0].toDouble() - hi) < 1e-12);
    }
    // A parameter sweep as CSV with the conventions of `nhsim sweep`: "# " comment lines (the
    // command first), one header line NAME,re_1,im_1,re_2,im_2,max_re, then a row per value;
    // max_re is the largest real part.
    const Result csv =
        nhsim({"linearize", "chaplygin_sleigh", "--init", "omega=0", "--sweep", "a=0.1:0.3:3"});
    QCOMPARE(csv.code, 0);
    QVERIFY2(csv.out.startsWith(
                 "# nhsim linearize chaplygin_sleigh --init omega=0 --sweep a=0.1:0.3:3\n"),
             qPrintable(csv.out));
    QVERIFY(csv.out.contains("\n# sweep: a=0.1:0.3:3 (parameter)\n"));
    QStringList lines;
    for (const QString& line : csv.out.split('\n', Qt::SkipEmptyParts))
      if (!line.startsWith('#')) lines << line;
    QCOMPARE(lines.size(), 4);
    QCOMPARE(lines[0], QString("a,re_1,im_1,re_2,im_2,max_re"));
    const QStringList cells = lines[2].split(',');
    QCOMPARE(cells.size(), 6);
    QCOMPARE(cells[0].toDouble(), 0.2);
    QVERIFY(std::abs(cells[1].toDouble() - sleighRate(0.3)) < 1e-12);
    QCOMPARE(cells[5].toDouble(), std::max(cells[1].toDouble(), cells[3].toDouble()));
    // N = 1: FROM alone.
    const Result one = nhsim({"linearize", "chaplygin_sleigh", "--sweep", "v=2:5:1"});
    QCOMPARE(one.code, 0);
    QVERIFY2(one.out.contains("\nv,re_1,im_1,re_2,im_2,max_re\n2,"), qPrintable(one.out));
  }

  // The rattleback's steady spin swept through both senses (a relative equilibrium: the
  // attitude in its chart, the heading dropped): the CSV names the chart's variables, and the
  // largest real part at w3 = 5 is about ten times the one at w3 = −5 (2.1207 and 0.2025,
  // linearize_test checks them against Newton–Euler). Its default start is tilted: a warning.
  void rattlebackSpinSweep() {
    const Result r = nhsim({"linearize", "rattleback", "--init", "qw=1", "--init", "qx=0", "--init",
                            "w3=5", "--sweep", "w3=-5:5:3"});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.err.isEmpty(), qPrintable(r.err));
    QVERIFY(r.out.contains("\n# variables: xi1, xi2, w1, w2, w3\n"));
    QStringList rows;
    for (const QString& line : r.out.split('\n', Qt::SkipEmptyParts))
      if (!line.startsWith('#')) rows << line;
    QCOMPARE(rows.size(), 4);
    QCOMPARE(rows[0], QString("w3,re_1,im_1,re_2,im_2,re_3,im_3,re_4,im_4,re_5,im_5,max_re"));
    const double backwards = rows[1].split(',').last().toDouble();
    const double forwards = rows[3].split(',').last().toDouble();
    QVERIFY2(std::abs(forwards - 2.1206923978919576) < 1e-8, qPrintable(rows[3]));
    QVERIFY2(std::abs(backwards - 0.2025212832922616) < 1e-8, qPrintable(rows[1]));
    const Result tilted = nhsim({"linearize", "rattleback"});
    QCOMPARE(tilted.code, 0);
    QVERIFY(tilted.err.contains("not an equilibrium"));
  }

  // The benchmark bicycle (Meijaard et al. 2007) through the command line: the weave pair's
  // real part changes sign between 4.2923825363 and 4.2923825364 m/s (paper:
  // 4.29238253634111), a real eigenvalue between 6.0242620153 and 6.0242620154 (paper:
  // 6.02426201538837). Started with its default lean rate it is not at an equilibrium.
  void bicycleWeaveAndCapsizeFromSweeps() {
    auto sweep = [&](const QString& range) {
      const Result r = nhsim({"linearize", "whipple_bicycle", "--init", "lean_rate=0", "--sweep",
                              "v=" + range, "--json"});
      if (r.code != 0) qWarning("%s", qPrintable(r.err));
      return QJsonDocument::fromJson(r.out.toUtf8()).object();
    };
    const QJsonObject weave = sweep("4.2923825363:4.2923825364:2");
    QCOMPARE(weave["variables"].toArray(),
             (QJsonArray{"lean", "steer", "v", "lean_rate", "steer_rate"}));
    auto weaveReal = [](const QJsonArray& eigenvalues) {
      for (const auto& e : eigenvalues)
        if (std::abs(e.toArray()[1].toDouble()) > 1e-6) return e.toArray()[0].toDouble();
      return std::nan("");
    };
    const QJsonArray w = weave["eigenvalues"].toArray();
    QCOMPARE(w.size(), 2);
    QVERIFY(weaveReal(w[0].toArray()) > 0);
    QVERIFY(weaveReal(w[1].toArray()) < 0);
    auto capsizeReal = [](const QJsonArray& eigenvalues) {
      double best = -HUGE_VAL;
      for (const auto& e : eigenvalues) {
        const double re = e.toArray()[0].toDouble(), im = e.toArray()[1].toDouble();
        if (im == 0 && std::abs(re) < 1 && std::abs(re) > 1e-13) best = std::max(best, re);
      }
      return best;
    };
    const QJsonArray c = sweep("6.0242620153:6.0242620154:2")["eigenvalues"].toArray();
    QVERIFY(capsizeReal(c[0].toArray()) < 0);
    QVERIFY(capsizeReal(c[1].toArray()) > 0);
    const Result moving = nhsim({"linearize", "whipple_bicycle"});
    QCOMPARE(moving.code, 0);
    QVERIFY(moving.err.contains("not an equilibrium"));
  }

  void badInputExitsTwo() {
    const QList<QStringList> cases = {
        {"linearize"},
        {"linearize", "no_such_system"},
        {"linearize", "chaplygin_sleigh", "--sweep", "nope=0:1:3"},
        {"linearize", "chaplygin_sleigh", "--sweep", "u=0:1:3"},  // a dependent velocity
        {"linearize", "chaplygin_sleigh", "--sweep", "v=0:1:0"},
        {"linearize", "chaplygin_sleigh", "--sweep", "v=0:1:-2"},
        {"linearize", "chaplygin_sleigh", "--sweep", "v=nan:1:3"},
        {"linearize", "chaplygin_sleigh", "--sweep", "v=0:inf:3"},
        {"linearize", "chaplygin_sleigh", "--sweep", "v=0:1"},
        {"linearize", "chaplygin_sleigh", "--set", "nope=1"},
        {"linearize", "chaplygin_sleigh", "--init", "nope=1"},
        {"linearize", "chaplygin_sleigh", "--dynamics", "vakonomic"},
        {"linearize", "chaplygin_sleigh", "--frobnicate"},
        // A dependent coordinate, and a value the constraints move, cannot be swept.
        {"linearize", "whipple_bicycle", "--sweep", "pitch=0:0.1:2"},
        {"linearize", "spherical_pendulum", "--sweep", "x=0:0.5:3"},
        // A sweep that fails part way prints nothing (the wheelbase reaches 10.5 m).
        {"linearize", "whipple_bicycle", "--sweep", "w=1:20:3"},
        // At a singular point (past the bicycle's 80° stop) there is nothing to linearise.
        {"linearize", "whipple_bicycle", "--init", "lean=1.5"},
        // A parameter check beyond the ranges (the mass centre inside the body).
        {"linearize", "rattleback", "--set", "h=0.03"},
        {"run", "rattleback", "--set", "c=0.005"},
        {"run", "chaplygin_sphere", "--set", "I1=0.01"},
        {"run", "suslov", "--set", "I13=3"},  // an inertia tensor that is not positive definite
    };
    for (const QStringList& args : cases) {
      const Result r = nhsim(args);
      QVERIFY2(r.code == 2, qPrintable(args.join(' ') + " → " + QString::number(r.code)));
      QVERIFY2(r.out.isEmpty(), qPrintable(args.join(' ')));
      QCOMPARE(r.err.count('\n'), 1);
      QVERIFY(r.err.startsWith("nhsim: error: "));
    }
    QVERIFY(nhsim({"run", "rattleback", "--set", "h=0.03"}).err.contains("h < c"));
  }
};

QTEST_GUILESS_MAIN(LinearizeCliTest)
#include "linearize_cli_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
