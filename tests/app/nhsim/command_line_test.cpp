// nhsim's command line parsed in the process (app/nhsim/command_line.h): the outputs of
// `export` checked against its inputs and against each other before anything is written, so
// that the check holds where nhsim-export is not built; each command's words in its own
// options struct; the commands, integrators, dynamics and formulations in the usage, the help
// and the refusals as their tables list them.
#include "app/nhsim/command_line.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <string>
#include <variant>
#include <vector>

#include "core/nh/messages.h"
#include "core/nh/named_choice.h"
#include "core/nh/simulation.h"

namespace {

// The message parseCommandLine refuses `args` with, or "" when it accepts them.
QString refusal(const std::vector<std::string>& args) {
  try {
    nh::cli::parseCommandLine(args);
  } catch (const nh::cli::UsageError& e) {
    return QString::fromStdString(e.what());
  } catch (const std::exception& e) {
    return "not a usage error: " + QString::fromStdString(e.what());
  }
  return {};
}

// The help text `args` ask for ("" when they ask for something else).
std::string helpOf(const std::vector<std::string>& args) {
  const nh::cli::CommandLine line = nh::cli::parseArguments(args);
  const auto* help = std::get_if<nh::cli::HelpRequest>(&line);
  return help ? help->text : std::string();
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

class CommandLineTest : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;

  std::string path(const char* name) const { return dir_.filePath(name).toStdString(); }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    QFile scenario(dir_.filePath("s.json"));
    QVERIFY(scenario.open(QIODevice::WriteOnly));
    scenario.write(
        "{\"format\": \"nonholonomic-lab-scenario\", \"version\": 2, \"system\": "
        "\"nh_particle\"}\n");
  }

  // --csv on the scenario written beside the video (clip.mp4.json) or the frames folder
  // (DIR.json), or on the video itself: refused before the export starts.
  void exportCsvNeverReplacesAnotherOutput() {
    const std::string video = path("w.mp4");
    QString why = refusal({"export", "nh_particle", "--video", video, "--csv", video + ".json"});
    QVERIFY2(why.contains("the scenario written beside the export and --csv name the same file"),
             qPrintable(why));
    why = refusal({"export", "nh_particle", "--video", video, "--csv", video});
    QVERIFY2(why.contains("--video and --csv name the same file"), qPrintable(why));
    why = refusal(
        {"export", "nh_particle", "--frames", path("frames/"), "--csv", path("frames.json")});
    QVERIFY2(why.contains("the scenario written beside the export and --csv"), qPrintable(why));
    // Without the scenario beside the video, that name is free for the CSV.
    QCOMPARE(refusal({"export", "nh_particle", "--video", video, "--csv", video + ".json",
                      "--no-scenario"}),
             QString());
  }

  // --csv over the input names what the input is (a scenario here, a model below).
  void exportCsvNeverReplacesTheInput() {
    const QString why =
        refusal({"export", path("s.json"), "--video", path("w.mp4"), "--csv", path("s.json")});
    QVERIFY2(why.contains("--csv") && why.contains("would replace the input scenario"),
             qPrintable(why));
    const QString model = QFINDTESTDATA("../../../resources/systems/nh_particle.yaml");
    QVERIFY(!model.isEmpty());
    const QString copy = dir_.filePath("m.yaml");
    QVERIFY(QFile::copy(model, copy));
    const QString why2 = refusal(
        {"export", copy.toStdString(), "--video", path("w.mp4"), "--csv", copy.toStdString()});
    QVERIFY2(why2.contains("would replace the input model"), qPrintable(why2));
    const QString why3 = refusal({"export", copy.toStdString(), "--video", copy.toStdString()});
    QVERIFY2(why3.contains("--video") && why3.contains("would replace the input model"),
             qPrintable(why3));
  }

  // A scenario's view names things of its system and runs a comparison beside the run: one
  // check, against the system and the run's own t-end, before any work, by every command. So
  // run --save-scenario writes nothing that export refuses, and a comparison integrator the
  // system cannot take is refused instead of drawn as a run of NaN.
  void viewCheckedAgainstTheSystemByEveryCommand() {
    const struct {
      const char* system;
      const char* view;
      const char* says;
    } cases[] = {
        {"nh_particle", R"({"version": 1, "compare": {"mode": "ghost", "parameter": "bogus",
           "value": 1}})",
         "the ghost's parameter 'bogus' is not a parameter of 'nh_particle'"},
        {"nh_particle", R"({"version": 1, "compare": {"mode": "integrator", "integrator": "rk4",
           "step": 1e6}})",
         "larger than dt-out"},
        {"nh_particle", R"({"version": 1, "compare": {"mode": "integrator", "integrator": "rk4",
           "step": 1e-300}})",
         "the comparison integrator: step must be at least 1e-12"},
        {"nh_particle", R"({"version": 1, "plan": {"t_end": 1, "targets": {"bogus": 1}}})",
         "'plan.targets.bogus' is not a coordinate of 'nh_particle'"},
        {"spherical_pendulum", R"({"version": 1, "compare": {"mode": "integrator",
           "integrator": "discrete-gradient", "step": 0.001}})",
         "the comparison integrator: discrete-gradient"},
    };
    int k = 0;
    for (const auto& c : cases) {
      const std::string scenario = path(("view" + std::to_string(++k) + ".json").c_str());
      QFile f(QString::fromStdString(scenario));
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(QByteArray("{\"format\": \"nonholonomic-lab-scenario\", \"version\": 2, ") +
              "\"system\": \"" + c.system + "\", \"view\": " + c.view + "}\n");
      f.close();
      const std::string saved = path("saved.json");
      for (const auto& words : std::vector<std::vector<std::string>>{
               {"run", scenario, "--save-scenario", saved},
               {"export", scenario, "--html", path("page.html")},
               {"linearize", scenario},
               {"sweep", scenario, "--vary", "m=1:2:2", "--measure", "final(x)"}}) {
        const QString why = refusal(words);
        QVERIFY2(why.contains("view: ") && why.contains(c.says),
                 qPrintable(QString::fromStdString(words[0]) + ": " + why));
      }
      QVERIFY(!QFile::exists(QString::fromStdString(saved)));
    }
  }

  // The comparison's steps are counted over the run's t-end: --t-end 3 of a scenario whose
  // own t-end (600) would need more steps than the budget.
  void comparisonBudgetCountsTheRunsTimeSpan() {
    const std::string scenario = path("budget.json");
    QFile f(QString::fromStdString(scenario));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"format": "nonholonomic-lab-scenario", "version": 2, "system": "nh_particle",
      "t_end": 600, "dt_out": 0.01, "view": {"version": 1, "compare": {"mode": "integrator",
      "integrator": "rk4", "step": 1e-5}}})");
    f.close();
    // 600 / 1e-5 + 600 / 0.01 + 1 = 60060001 steps, over the budget of 2·10^7.
    const QString whole = refusal({"run", scenario});
    QVERIFY2(whole.contains("to reach t-end 600"), qPrintable(whole));
    QCOMPARE(refusal({"run", scenario, "--t-end", "3"}), QString());
    QCOMPARE(refusal({"export", scenario, "--html", path("budget.html"), "--t-end", "3"}),
             QString());
  }

  // Outputs are checked before any work, for every command: a missing folder, a folder given
  // as a file, standard output where an export cannot write to it, and optimize's --json
  // (standard output) with --out - (refused: one of them would be lost).
  void outputsCheckedBeforeAnyWork() {
    const std::string missing = "/nonexistent-folder-of-nhsim/x.csv";
    const std::vector<std::vector<std::string>> unwritable = {
        {"run", "nh_particle", "--out", missing},
        {"run", "nh_particle", "--save-scenario", missing},
        {"sweep", "nh_particle", "--vary", "m=1:2:2", "--measure", "final(x)", "--out", missing},
        {"export", "nh_particle", "--html", path("p.html"), "--csv", missing},
        {"optimize", "nh_particle", "--t-end", "1", "--target", "x=1", "--out", missing},
        {"optimize", "nh_particle", "--t-end", "1", "--target", "x=1", "--json", "--out", missing},
    };
    for (const auto& words : unwritable) {
      const QString why = refusal(words);
      QVERIFY2(why.contains("cannot write '" + QString::fromStdString(missing) + "'") &&
                   why.contains("(the folder '/nonexistent-folder-of-nhsim')"),
               qPrintable(why));
    }
    const QString folder = refusal({"optimize", "nh_particle", "--t-end", "1", "--target", "x=1",
                                    "--out", dir_.path().toStdString()});
    QVERIFY2(folder.startsWith("--out: cannot write") && folder.contains("directory"),
             qPrintable(folder));
    for (const char* option : {"--html", "--video", "--frames"}) {
      const QString why = refusal({"export", "nh_particle", option, "-"});
      QVERIFY2(why.startsWith(QString(option) + ": standard output is not supported"),
               qPrintable(why));
    }
    const QString both = refusal(
        {"optimize", "nh_particle", "--t-end", "1", "--target", "x=1", "--json", "--out", "-"});
    QVERIFY2(both.contains("--json and --out - both write to standard output"), qPrintable(both));
    using namespace nh::cli;
    const CommandLine json =
        parseCommandLine({"optimize", "nh_particle", "--t-end", "1", "--target", "x=1", "--json"});
    QCOMPARE(std::get<OptimizeOptions>(json).output.out, std::string());  // JSON alone
    const CommandLine csv =
        parseCommandLine({"optimize", "nh_particle", "--t-end", "1", "--target", "x=1"});
    QCOMPARE(std::get<OptimizeOptions>(csv).output.out, std::string("-"));
  }

  // Numbers are decimal: hexadecimal (0x10 read as 16), spaces and words are refused in
  // every numeric option.
  void numbersAreDecimal() {
    for (const auto& words : std::vector<std::vector<std::string>>{
             {"run", "nh_particle", "--t-end", "0x10"},
             {"run", "nh_particle", "--dt-out", " 0.1"},
             {"run", "nh_particle", "--set", "m=0x1p0"},
             {"run", "nh_particle", "--init", "x=1 "},
             {"run", "nh_particle", "--max-steps", "0x100"},
             {"run", "nh_particle", "--max-steps", " 100"},
             {"run", "nh_particle", "--t-end", "+-1"},
             {"optimize", "nh_particle", "--t-end", "0X2", "--target", "x=1"}}) {
      const QString why = refusal(words);
      QVERIFY2(why.contains("is not a number") || why.contains("is not a whole number") ||
                   why.contains("must be a whole number"),
               qPrintable(QString::fromStdString(words[2] + " " + words[3]) + ": " + why));
    }
    QCOMPARE(refusal({"run", "nh_particle", "--t-end", "+1.5e1", "--set", "m=.5"}), QString());
  }

  // Each command's words land in its own options struct; linearize's --sweep is not the
  // sweep command's.
  void eachCommandHasItsOptions() {
    using namespace nh::cli;
    const CommandLine run = parseArguments(
        {"run", "nh_particle", "--t-end", "2", "--integrator", "rk4", "--out", "a.csv", "--quiet"});
    const auto* r = std::get_if<RunOptions>(&run);
    QVERIFY(r);
    QCOMPARE(r->scenario.target, std::string("nh_particle"));
    QCOMPARE(r->time.tEnd, std::string("2"));
    QCOMPARE(r->integrator.method, std::string("rk4"));
    QCOMPARE(r->output.out, std::string("a.csv"));
    QVERIFY(r->output.quiet);

    const CommandLine linearize =
        parseArguments({"linearize", "nh_particle", "--sweep", "m=1:2:3"});
    QVERIFY(std::holds_alternative<LinearizeOptions>(linearize));
    QCOMPARE(std::get<LinearizeOptions>(linearize).sweep, std::string("m=1:2:3"));

    const CommandLine sweep = parseArguments(
        {"sweep", "nh_particle", "--vary", "m=1:2:3", "--measure", "final(x)", "--jobs", "2"});
    const auto* w = std::get_if<SweepOptions>(&sweep);
    QVERIFY(w);
    QCOMPARE(w->vary, std::vector<std::string>{"m=1:2:3"});
    QCOMPARE(w->jobs, std::string("2"));
    QCOMPARE(w->output.out, std::string("-"));

    QVERIFY(std::holds_alternative<ListOptions>(parseArguments({"list"})));
    QVERIFY(std::get<InfoOptions>(parseArguments({"info", "nh_particle", "--json"})).json);
    QVERIFY(
        std::get<EquationsOptions>(parseArguments({"equations", "nh_particle", "--latex"})).latex);
    QVERIFY(
        std::get<EquationsOptions>(parseArguments({"equations", "nh_particle", "--hamiltonian"}))
            .hamiltonian);
    QVERIFY(std::holds_alternative<VersionRequest>(parseArguments({"--version"})));
    QVERIFY(std::holds_alternative<HelpRequest>(parseArguments({"run", "--help"})));
  }

  // parseCommandLine fills the scenario of the options struct.
  void checkedCommandLineHoldsTheScenario() {
    using namespace nh::cli;
    const CommandLine line = parseCommandLine(
        {"run", "nh_particle", "--t-end", "2", "--integrator", "rk4", "--step", "0.001"});
    const nh::Scenario& s = std::get<RunOptions>(line).scenario.resolved;
    QCOMPARE(s.tEnd, 2.0);
    QVERIFY(s.integrator.method == nh::Integrator::Rk4);
    QVERIFY(!std::get<RunOptions>(line).scenario.fromFile);
  }

  // The usage, the help of run and the refusals name every integrator, dynamics,
  // formulation and command of the tables.
  void namesComeFromTheTables() {
    using namespace nh::cli;
    const std::string usage = usageText();
    const std::string runHelp = helpOf({"run", "--help"});
    for (const std::string& names :
         {nh::alternatives(nh::kIntegrators), nh::alternatives(nh::kDynamicsChoices),
          nh::alternatives(nh::kFormulationChoices)}) {
      QVERIFY2(contains(usage, names), names.c_str());
      QVERIFY2(contains(runHelp, names), names.c_str());
    }
    QVERIFY(contains(helpOf({"export", "--help"}), nh::alternatives(nh::kFormulationChoices)));
    const QString integrator = refusal({"run", "nh_particle", "--integrator", "euler"});
    QVERIFY2(integrator.contains(QString::fromStdString(
                 "(allowed: " + nh::joined(nh::choiceNames(nh::kIntegrators)) + ")")),
             qPrintable(integrator));
    std::vector<std::string> commands;
    for (const CommandRow& row : kCommands) {
      commands.emplace_back(row.name);
      QVERIFY2(contains(helpOf({"--help"}), row.summary), row.name);
    }
    const QString unknown = refusal({"simulate"});
    QVERIFY2(unknown.contains(QString::fromStdString("(commands: " + nh::joined(commands))),
             qPrintable(unknown));
  }
};

QTEST_GUILESS_MAIN(CommandLineTest)
#include "command_line_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
