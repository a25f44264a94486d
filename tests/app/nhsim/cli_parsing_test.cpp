// nhsim's command line as parsed by CLI11 (app/nhsim/command_line.h): help and version,
// refusals of extra arguments, duplicated options and values that are options, echoed input
// cut and escaped to one line, --out and --save-scenario on one file, and write errors on
// standard output.
#include <unistd.h>

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "nhsim_process.h"

namespace {

using Result = nh::test::ProcessResult;

Result nhsim(const QStringList& args) { return nh::test::runNhsim(args); }

// nhsim with its standard output sent to `file` (e.g. /dev/full): exit code and stderr.
Result nhsimWritingTo(const QStringList& args, const QString& file) {
  return nh::test::runNhsim(args, QProcessEnvironment::systemEnvironment(), 120000, file);
}

}  // namespace

class CliParsingTest : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;

  QString path(const QString& name) const { return dir_.filePath(name); }

  // Exit code 2 and exactly one line "nhsim: error: …" containing every fragment.
  void expectUsageError(const QStringList& args, const QStringList& fragments) {
    const Result r = nhsim(args);
    const QString context = args.join(' ').left(200) + " → exit " + QString::number(r.code) +
                            ", stderr: " + r.err.left(400);
    QVERIFY2(r.code == 2, qPrintable(context));
    QVERIFY2(r.err.startsWith("nhsim: error: "), qPrintable(context));
    QVERIFY2(r.err.endsWith('\n') && r.err.count('\n') == 1,
             qPrintable("not one line: " + context));
    for (const QString& fragment : fragments)
      QVERIFY2(r.err.contains(fragment), qPrintable("no '" + fragment + "' in " + context));
  }

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  // Each command explains its options on stdout and exits 0.
  void helpOfEveryCommand_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QStringList>("mentions");
    QTest::newRow("nhsim") << QStringList{"--help"}
                           << QStringList{"list",      "info",         "run",
                                          "export",    "equations",    "linearize",
                                          "--version", "--frames DIR", "--speed"};
    QTest::newRow("-h") << QStringList{"-h"} << QStringList{"linearize"};
    QTest::newRow("list") << QStringList{"list", "--help"} << QStringList{"nhsim list"};
    QTest::newRow("info") << QStringList{"info", "--help"} << QStringList{"--json"};
    QTest::newRow("run") << QStringList{"run", "--help"}
                         << QStringList{"--t-end",       "--dt-out",        "--integrator",
                                        "--rtol",        "--atol",          "--step",
                                        "--set",         "--init",          "--dynamics",
                                        "--formulation", "--no-projection", "--no-reconstruction",
                                        "--out",         "--save-scenario", "--quiet"};
    QTest::newRow("run: checks and interruption")
        << QStringList{"run", "--help"}
        << QStringList{"rtol must be below 0.1", "energy changed by more than 1 %", "# partial"};
    QTest::newRow("run with target")
        << QStringList{"run", "ball_on_table", "--help"} << QStringList{"--save-scenario"};
    QTest::newRow("export") << QStringList{"export", "--help"}
                            << QStringList{
                                   "--video",      "--frames",      "--width",     "--height",
                                   "--fps",        "--t-start",     "--t-end",     "--speed",
                                   "--trail",      "--no-trails",   "--no-forces", "--velocities",
                                   "--no-overlay", "--plots",       "--plot-path", "--plot",
                                   "--csv",        "--no-scenario", "--quiet",     "Xvfb"};
    QTest::newRow("equations") << QStringList{"equations", "--help"}
                               << QStringList{"--latex", "--set"};
    QTest::newRow("linearize") << QStringList{"linearize", "--help"}
                               << QStringList{"--sweep", "--json", "--init"};
  }
  void helpOfEveryCommand() {
    QFETCH(QStringList, args);
    QFETCH(QStringList, mentions);
    // No display and no Xvfb to be found: help must need neither.
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove("DISPLAY");
    env.insert("PATH", "/nonexistent");
    const Result r = nh::test::runNhsim(args, env);
    QVERIFY2(r.code == 0, qPrintable(QString("exit %1, stderr: %2").arg(r.code).arg(r.err)));
    QVERIFY2(r.err.isEmpty(), qPrintable(r.err));
    for (const QString& m : mentions)
      QVERIFY2(r.out.contains(m), qPrintable("no '" + m + "' in:\n" + r.out));
    // Each option explained: the line naming it says more than its name, or (a long value
    // name) the next line does.
    const QStringList lines = r.out.split('\n');
    for (int i = 0; i < lines.size(); ++i) {
      const QString trimmed = lines[i].trimmed();
      if (!trimmed.startsWith("--") || lines[i].startsWith("      ")) continue;
      const bool explained = trimmed.split(QRegularExpression("\\s{2,}")).size() >= 2 ||
                             (i + 1 < lines.size() && lines[i + 1].startsWith("          ") &&
                              !lines[i + 1].trimmed().startsWith("-"));
      QVERIFY2(explained, qPrintable("option without explanation: " + lines[i]));
    }
  }

  void noArgumentsIsUsageOnStderr() {
    const Result r = nhsim({});
    QCOMPARE(r.code, 2);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.contains("nhsim run"), qPrintable(r.err));
  }

  void version() {
    const Result r = nhsim({"--version"});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out, QString("nhsim " NH_PROJECT_VERSION "\n"));
  }

  void extraArgumentsAreRefused() {
    expectUsageError({"list", "extra"}, {"'extra'"});
    expectUsageError({"info", "ball_on_table", "other"}, {"'other'"});
    expectUsageError({"run", "ball_on_table", "other", "--out", path("x.csv")}, {"'other'"});
    expectUsageError({"equations", "ball_on_table", "more"}, {"'more'"});
    expectUsageError({"linearize", "ball_on_table", "more"}, {"'more'"});
    expectUsageError({"list", "--json"}, {"unknown option '--json'"});
    expectUsageError({"--frobnicate"}, {"unknown option '--frobnicate'"});
    QVERIFY(!QFileInfo::exists(path("x.csv")));
  }

  void duplicatedOptionsAreRefused() {
    expectUsageError({"run", "ball_on_table", "--out", path("a.csv"), "--out", path("b.csv")},
                     {"--out", "once"});
    expectUsageError({"run", "ball_on_table", "--t-end", "1", "--t-end", "2"}, {"--t-end"});
    expectUsageError(
        {"run", "ball_on_table", "--dynamics", "vakonomic", "--dynamics", "nonholonomic"},
        {"--dynamics"});
    expectUsageError({"linearize", "ball_on_table", "--sweep", "r=1:2:3", "--sweep", "r=1:2:3"},
                     {"--sweep"});
    QVERIFY(!QFileInfo::exists(path("a.csv")) && !QFileInfo::exists(path("b.csv")));
  }

  void missingValuesAreRefused() {
    expectUsageError({"run", "ball_on_table", "--out"}, {"option --out needs a value"});
    expectUsageError({"info"}, {"info needs a system name"});
  }

  // `--out --quiet` must not write a file named "--quiet"; "-" and negative numbers are values.
  void aValueThatIsAnOptionIsRefused() {
    const QString cwd = QDir::currentPath();
    expectUsageError({"run", "ball_on_table", "--t-end", "0.1", "--out", "--quiet"},
                     {"--out", "needs a value", "'--quiet'"});
    QVERIFY(!QFileInfo::exists(QDir(cwd).filePath("--quiet")));
    expectUsageError({"run", "ball_on_table", "--save-scenario", "--quiet", "--out", path("c.csv")},
                     {"--save-scenario", "needs a value"});
    expectUsageError({"run", "ball_on_table", "--set", "-x=1"}, {"--set", "needs a value"});
    QVERIFY(!QFileInfo::exists(path("c.csv")));
  }

  void negativeNumbersAreValues() {
    Result r = nhsim({"run", "ball_on_turntable", "--t-end", "0.02", "--set", "Omega0=-1", "--init",
                      "x=-0.5", "--out", "-"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QStringList rows = r.out.split('\n', Qt::SkipEmptyParts);
    QVERIFY(rows.size() >= 2);
    QCOMPARE(rows[1].split(',')[1].toDouble(), -0.5);
    r = nhsim({"run", "chaplygin_sleigh", "--t-end", "0.02", "--init", "theta=-0.5", "--out", "-"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    // Taken as the value of --t-start: the refusal is about the unsupported format, checked
    // after the options (nothing is rendered).
#ifdef NH_HAVE_EXPORT  // nhsim-export is built with the GUI (not in the sanitizer presets)
    expectUsageError({"export", "ball_on_table", "--t-start", "-1", "--video", path("x.avi")},
                     {".mp4"});
#endif
  }

  // A 5,000-character name comes back cut: one short line that still lists the known systems.
  void longInputIsCut() {
    const QString name(5000, 'a');
    const Result r = nhsim({"run", name});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.count('\n') == 1, qPrintable(r.err.left(400)));
    QVERIFY2(r.err.contains("unknown system 'aaaa") && r.err.contains("known systems:"),
             qPrintable(r.err.left(400)));
    const QByteArray bytes = r.err.toUtf8();
    QVERIFY2(!bytes.contains(QByteArray(61, 'a')), "more than 60 characters echoed");
    // The known systems are listed; without them the line is short.
    const int listed = bytes.indexOf("known systems:");
    QVERIFY2(listed > 0 && listed < 300, bytes.left(400).constData());
    for (const QStringList& args : {QStringList{"info", name}, QStringList{"equations", name},
                                    QStringList{"run", "ball_on_table", "--set", name + "=1"},
                                    QStringList{"run", "ball_on_table", "--set", "r=" + name},
                                    QStringList{"run", "ball_on_table", "--integrator", name},
                                    QStringList{"linearize", "ball_on_table", "--sweep", name},
                                    QStringList{"list", name}, QStringList{name}}) {
      const Result e = nhsim(args);
      QCOMPARE(e.code, 2);
      QVERIFY2(e.err.count('\n') == 1, qPrintable(e.err.left(400)));
      QVERIFY2(!e.err.toUtf8().contains(QByteArray(61, 'a')), qPrintable(e.err.left(400)));
      QVERIFY2(e.err.contains("known systems") || e.err.toUtf8().size() < 300,
               qPrintable(e.err.left(400)));
    }
  }

  // Newlines and control characters in echoed input are shown escaped: one line.
  void controlCharactersAreEscaped() {
    const QString name = QString("bad\nname") + QChar(1) + "end";
    for (const QStringList& args :
         {QStringList{"run", name}, QStringList{"info", name}, QStringList{name},
          QStringList{"run", "ball_on_table", "--set", name + "=1"},
          QStringList{"run", "ball_on_table", "--init", name + "=1"},
          QStringList{"run", "ball_on_table", "--set", "r=" + name},
          QStringList{"run", "ball_on_table", "--dynamics", name}, QStringList{"list", name}}) {
      const Result r = nhsim(args);
      QCOMPARE(r.code, 2);
      QVERIFY2(r.err.count('\n') == 1, qPrintable(r.err));
      QVERIFY2(r.err.contains("bad\\nname\\x01end"), qPrintable(r.err));
      QVERIFY2(!r.err.contains(QChar(1)), qPrintable(r.err));
    }
  }

  // A full standard output is an output error, exit 1 with one line.
  void fullStandardOutput_data() {
    QTest::addColumn<QStringList>("args");
    QTest::newRow("list") << QStringList{"list"};
    QTest::newRow("info") << QStringList{"info", "ball_on_turntable"};
    QTest::newRow("info json") << QStringList{"info", "ball_on_turntable", "--json"};
    QTest::newRow("help") << QStringList{"--help"};
    QTest::newRow("run help") << QStringList{"run", "--help"};
    QTest::newRow("version") << QStringList{"--version"};
    QTest::newRow("run summary") << QStringList{"run", "ball_on_table", "--t-end",
                                                "0.1", "--out",         "summary.csv"};
    QTest::newRow("equations") << QStringList{"equations", "ball_on_turntable"};
    QTest::newRow("linearize") << QStringList{"linearize", "ball_on_table"};
  }
  void fullStandardOutput() {
    if (!QFileInfo::exists("/dev/full")) QSKIP("no /dev/full");
    QFETCH(QStringList, args);
    for (QString& a : args)
      if (a == "summary.csv") a = path(a);
    const Result r = nhsimWritingTo(args, "/dev/full");
    QVERIFY2(r.code == 1, qPrintable(QString("exit %1, stderr: %2").arg(r.code).arg(r.err)));
    QCOMPARE(r.err, QString("nhsim: error: cannot write to standard output: No space left on "
                            "device\n"));
  }

  void outAndSaveScenarioOnOneFile() {
    const QString csv = path("same.csv");
    expectUsageError(
        {"run", "ball_on_table", "--t-end", "0.1", "--out", csv, "--save-scenario", csv},
        {"--out", "--save-scenario", "same file"});
    QVERIFY(!QFileInfo::exists(csv));
    QVERIFY(QDir(dir_.path()).mkpath("sub"));
    expectUsageError({"run", "ball_on_table", "--t-end", "0.1", "--out", csv, "--save-scenario",
                      path("sub/../same.csv")},
                     {"same file"});
    QVERIFY(!QFileInfo::exists(csv));
    expectUsageError({"run", "ball_on_table", "--t-end", "0.1", "--save-scenario", "-"},
                     {"standard output"});
    expectUsageError(
        {"run", "ball_on_table", "--t-end", "0.1", "--out", "-", "--save-scenario", "/dev/stdout"},
        {"standard output"});
    // Two different files are fine.
    const Result r = nhsim({"run", "ball_on_table", "--t-end", "0.1", "--out", csv,
                            "--save-scenario", path("same.json"), "--quiet"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(QFileInfo::exists(csv) && QFileInfo::exists(path("same.json")));
  }

  // No output option may name a file the command reads: the target model or scenario, the
  // model a scenario names, also through a symbolic link or a hard link. Refused with exit
  // 2 before anything is written; the input keeps its bytes.
  void outputsNeverReplaceAnInput_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("input");  // the file that must stay as it was
    QTest::addColumn<QStringList>("fragments");
    const QString model = path("in/m.yaml"), scenario = path("in/s.json");
    const QString link = path("in/link.json"), hard = path("in/hard.yaml");
    QTest::newRow("run --out the scenario")
        << QStringList{"run", scenario, "--t-end", "0.1", "--out", scenario} << scenario
        << QStringList{"--out", "would replace the input scenario"};
    QTest::newRow("run --out a link to the scenario")
        << QStringList{"run", scenario, "--t-end", "0.1", "--out", link} << scenario
        << QStringList{"--out", "would replace the input scenario"};
    QTest::newRow("run --save-scenario the model")
        << QStringList{"run",   model,         "--t-end",         "0.1",
                       "--out", path("x.csv"), "--save-scenario", model}
        << model << QStringList{"--save-scenario", "would replace the input model"};
    QTest::newRow("run --out a hard link to the model")
        << QStringList{"run", model, "--t-end", "0.1", "--out", hard} << model
        << QStringList{"--out", "would replace the input model"};
    QTest::newRow("run --out the model the scenario names")
        << QStringList{"run", scenario, "--t-end", "0.1", "--out", model} << model
        << QStringList{"--out", "would replace the model", "that the scenario"};
    QTest::newRow("sweep --out the model")
        << QStringList{"sweep",   model,       "--t-end",  "0.1",   "--vary",
                       "m=1:2:2", "--measure", "final(x)", "--out", model}
        << model << QStringList{"--out", "would replace the input model"};
    QTest::newRow("sweep --out the model the scenario names")
        << QStringList{"sweep",   scenario,    "--t-end",  "0.1",   "--vary",
                       "m=1:2:2", "--measure", "final(x)", "--out", path("in/../in/m.yaml")}
        << model << QStringList{"--out", "would replace the model"};
  }
  void outputsNeverReplaceAnInput() {
    QFETCH(QStringList, args);
    QFETCH(QString, input);
    QFETCH(QStringList, fragments);
    QDir(path("in")).removeRecursively();
    QVERIFY(QDir(dir_.path()).mkpath("in"));
    QFile::remove(path("x.csv"));
    const QByteArray model =
        "format: nonholonomic-lab-system\nversion: 1\nname: slider\n"
        "parameters:\n  - {name: m, default: 1.0, min: 0, min_exclusive: true}\n"
        "coordinates: [x, y]\nvelocities: [vx, vy]\nlagrangian: 0.5*m*(vx*vx + vy*vy)\n"
        "constraints:\n  - vy\ninitial: {x: 0, y: 0, vx: 1, vy: 0}\nindependent: [vx]\n";
    const QByteArray scenario =
        "{\"format\": \"nonholonomic-lab-scenario\", \"version\": 2, \"system\": \"m.yaml\"}\n";
    for (const auto& [name, bytes] :
         {std::pair{QString("in/m.yaml"), model}, std::pair{QString("in/s.json"), scenario}}) {
      QFile f(path(name));
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(bytes);
    }
    QVERIFY(QFile::link(path("in/s.json"), path("in/link.json")));
    QVERIFY(::link(QFile::encodeName(path("in/m.yaml")).constData(),
                   QFile::encodeName(path("in/hard.yaml")).constData()) == 0);
    // The model and the scenario run as they are (the rows below fail on the outputs only).
    const Result ok =
        nhsim({"run", path("in/s.json"), "--t-end", "0.1", "--quiet", "--out", path("x.csv")});
    QVERIFY2(ok.code == 0, qPrintable(ok.err));
    QFile before(input);
    QVERIFY(before.open(QIODevice::ReadOnly));
    const QByteArray bytes = before.readAll();
    before.close();
    QFile::remove(path("x.csv"));
    expectUsageError(args, fragments);
    QFile after(input);
    QVERIFY(after.open(QIODevice::ReadOnly));
    QCOMPARE(after.readAll(), bytes);
    QVERIFY(!QFileInfo::exists(path("x.csv")));
  }
};

QTEST_GUILESS_MAIN(CliParsingTest)
#include "cli_parsing_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
