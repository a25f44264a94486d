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
         {nh::alternatives(nh::kIntegratorChoices), nh::alternatives(nh::kDynamicsChoices),
          nh::alternatives(nh::kFormulationChoices)}) {
      QVERIFY2(contains(usage, names), names.c_str());
      QVERIFY2(contains(runHelp, names), names.c_str());
    }
    QVERIFY(contains(helpOf({"export", "--help"}), nh::alternatives(nh::kFormulationChoices)));
    const QString integrator = refusal({"run", "nh_particle", "--integrator", "euler"});
    QVERIFY2(integrator.contains(QString::fromStdString(
                 "(allowed: " + nh::joined(nh::choiceNames(nh::kIntegratorChoices)) + ")")),
             qPrintable(integrator));
    std::vector<std::string> commands;
    for (const CommandRow& row : kCommandRows) {
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
