// Scenario files in-process (core/io/scenario_file): every key read, every error named with
// the file and the reason, and a write → read round trip that keeps every double exactly.
#include "core/io/scenario_file.h"

#include <sys/stat.h>

#include <QtTest>
#include <cmath>
#include <string>

#include "core/model/catalogue.h"
#include "core/nh/errors.h"

namespace {

const std::string kHead = R"({"format": "nonholonomic-lab-scenario", "version": 1, )";

// The message of the InputError that parsing `json` throws, or "" if it parses.
QString parseError(const std::string& json) {
  try {
    nh::parseScenarioJson(json, "test.json");
  } catch (const nh::InputError& e) {
    return QString::fromUtf8(e.what());
  }
  return {};
}

}  // namespace

class ScenarioFileTest : public QObject {
  Q_OBJECT

 private slots:
  void readsEveryKey() {
    const nh::Scenario s = nh::parseScenarioJson(
        kHead + R"("system": "rolling_disk", "parameters": {"r": 0.25}, "initial": {"wphi": 2},
        "t_end": 7.5, "dt_out": 0.125, "dynamics": "vakonomic", "formulation": "gibbs-appell",
        "integrator": {"method": "rk78", "rtol": 1e-9, "atol": 1e-11, "step": 0.002,
                       "projection": false}})",
        "test.json");
    QCOMPARE(s.system, std::string("rolling_disk"));
    QCOMPARE(s.parameters.at("r"), 0.25);
    QCOMPARE(s.initial.at("wphi"), 2.0);
    QCOMPARE(s.tEnd, 7.5);
    QCOMPARE(s.dtOut, 0.125);
    QVERIFY(s.dynamics == nh::DynamicsKind::Vakonomic);
    QVERIFY(s.formulation == nh::Formulation::GibbsAppell);
    QVERIFY(s.integrator.method == nh::Integrator::Rk78);
    QCOMPARE(s.integrator.rtol, 1e-9);
    QCOMPARE(s.integrator.atol, 1e-11);
    QCOMPARE(s.integrator.step, 0.002);
    QVERIFY(!s.integrator.projection);
  }

  void defaultsWhenKeysAreMissing() {
    const nh::Scenario s = nh::parseScenarioJson(kHead + R"("system": "ball_on_table"})", "x");
    const nh::Scenario defaults;
    QCOMPARE(s.tEnd, defaults.tEnd);
    QCOMPARE(s.dtOut, defaults.dtOut);
    QVERIFY(s.parameters.empty());
    QVERIFY(s.integrator.projection);
  }

  void errorsNameTheFileAndTheReason_data() {
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("fragment");
    auto row = [](const char* name, const std::string& json, const char* fragment) {
      QTest::newRow(name) << QString::fromStdString(json) << fragment;
    };
    row("syntax", kHead + "\"system\": ,}", "not valid JSON (parse error at line 1");
    row("array", "[1, 2]", "a scenario must be a JSON object");
    row("format", R"({"format": "other", "version": 1, "system": "ball_on_table"})",
        "'format' must be \"nonholonomic-lab-scenario\"");
    row("no version", R"({"format": "nonholonomic-lab-scenario", "system": "ball_on_table"})",
        "missing 'version'");
    row("version", R"({"format": "nonholonomic-lab-scenario", "version": 3})",
        "unsupported scenario version 3 (this program reads versions 1 to 2)");
    row("view in version 1", kHead + R"("system": "ball_on_table", "view": {"version": 1}})",
        "'view' needs scenario version 2");
    row("view not object",
        R"({"format": "nonholonomic-lab-scenario", "version": 2, "system": "ball_on_table", )"
        R"("view": [1]})",
        "'view' must be an object");
    row("view without version",
        R"({"format": "nonholonomic-lab-scenario", "version": 2, "system": "ball_on_table", )"
        R"("view": {"speed": 2}})",
        "'view' must state its version");
    row("system type", kHead + R"("system": 3})", "'system' must be a string naming a system");
    row("unknown system", kHead + R"("system": "bicycle"})", "unknown system 'bicycle'");
    row("unknown key", kHead + R"("system": "ball_on_table", "colour": 1})",
        "unknown key 'colour' in the scenario");
    row("parameter type", kHead + R"("system": "ball_on_table", "parameters": {"r": "big"}})",
        "'parameters.r' must be a number");
    row("initial not object", kHead + R"("system": "ball_on_table", "initial": [1]})",
        "'initial' must be an object of name: number");
    row("integrator key", kHead + R"("system": "ball_on_table", "integrator": {"order": 5}})",
        "unknown key 'order' in 'integrator'");
    row("method", kHead + R"("system": "ball_on_table", "integrator": {"method": "euler"}})",
        "test.json: unknown integrator 'euler'");
    row("projection", kHead + R"("system": "ball_on_table", "integrator": {"projection": 1}})",
        "'integrator.projection' must be true or false");
    // integrator.max_steps follows --max-steps: a whole number in [1, 10^12].
    for (const char* bad : {"0", "-5", "2.5", "2e6", "1000000000001", "\"100\"", "true"})
      row((std::string("max_steps ") + bad).c_str(),
          kHead + R"("system": "ball_on_table", "integrator": {"max_steps": )" + bad + "}}",
          "'integrator.max_steps' must be a whole number in [1, 10^12], got ");
    row("dynamics", kHead + R"("system": "ball_on_table", "dynamics": "lagrange"})",
        "test.json: unknown dynamics 'lagrange'");
    row("validate", kHead + R"("system": "ball_on_table", "t_end": -1})", "test.json: ");
    // The integrator's settings are checked as the command-line options are.
    row("loose rtol", kHead + R"("system": "ball_on_table", "integrator": {"rtol": 1}})",
        "test.json: rtol 1 allows errors of 10 %");
    row("loose atol", kHead + R"("system": "ball_on_table", "integrator": {"atol": 1e10}})",
        "test.json: atol 1e+10 allows absolute errors");
    row("rk4 step over dt_out",
        kHead + R"("system": "ball_on_table", "integrator": {"method": "rk4", "step": 100}})",
        "test.json: rk4 step 100 is larger than dt-out 0.01");
    // The view part: the rules nhlab shows it by, so that nhsim never writes back a view
    // that nhlab refuses.
    const std::string v2 =
        R"({"format": "nonholonomic-lab-scenario", "version": 2, "system": "ball_on_table", )";
    row("view speed", v2 + R"("view": {"version": 1, "speed": -1}})",
        "test.json: view: 'speed' must be a number from 0.01 to 1000");
    row("view trail", v2 + R"("view": {"version": 1, "display": {"trail_seconds": -30}}})",
        "test.json: view: 'display.trail_seconds' must be a number from 0.1 to 1e+06");
    row("view step", v2 + R"("view": {"version": 1, "step": 0}})",
        "view: 'step' must be a number from 0.0001 to 10");
    row("view flag", v2 + R"("view": {"version": 1, "camera": {"follow": 1}}})",
        "view: 'camera.follow' must be true or false");
    row("view key", v2 + R"("view": {"version": 1, "zoom": 2}})",
        "view: unknown key 'zoom' in the view");
    row("view version", v2 + R"("view": {"version": 2}})",
        "view: version 2 is newer than this program reads (1)");
    row("view phase", v2 + R"("view": {"version": 1, "plots": {"phase": ["x"]}}})",
        "view: 'plots.phase' must be a list of 2 variable names");
    row("view compare", v2 + R"("view": {"version": 1, "compare": {"mode": "twin"}}})",
        "view: 'compare.mode' must be");
    row("view ghost", v2 + R"("view": {"version": 1, "compare": {"mode": "ghost"}}})",
        "view: a ghost comparison needs 'parameter'");
    // A comparison with another integrator names one of the table's and a positive step.
    row("view other integrator",
        v2 + R"("view": {"version": 1, "compare": {"mode": "integrator"}}})",
        "view: a comparison with another integrator needs 'integrator' (one of dopri5, ");
    row("view unknown integrator",
        v2 + R"("view": {"version": 1, "compare": {"mode": "integrator", "integrator": "euler"}}})",
        "view: 'compare.integrator': unknown integrator 'euler' (allowed: dopri5, ");
    row("view other step",
        v2 + R"("view": {"version": 1, "compare": {"mode": "integrator", "integrator": "rk4", )"
             R"("step": -1}}})",
        "view: 'compare.step' must be a positive number of seconds");
    // Timed edits: a list of {t, set}, in time order, within the run, of known parameters in
    // their ranges.
    const std::string sys = kHead + R"("system": "ball_on_table", "t_end": 10, )";
    row("edits not list", sys + R"("edits": {"t": 1}})", "'edits' must be a list of");
    row("edit without set", sys + R"("edits": [{"t": 1}]})", "each of 'edits' must be");
    row("edit key", sys + R"("edits": [{"t": 1, "set": {"r": 0.2}, "when": 2}]})",
        "unknown key 'when' in an edit");
    row("edit after the end", sys + R"("edits": [{"t": 12, "set": {"r": 0.2}}]})",
        "edit at t = 12 is outside the run (0 … 10)");
    row("edits out of order",
        sys + R"("edits": [{"t": 5, "set": {"r": 0.2}}, {"t": 2, "set": {"r": 0.3}}]})",
        "edit at t = 2 comes after one at t = 5: list the edits in time order");
    row("edit of unknown parameter", sys + R"("edits": [{"t": 1, "set": {"Omega": 3}}]})",
        "edit at t = 1: unknown parameter 'Omega' for system 'ball_on_table'");
    row("edit out of range", sys + R"("edits": [{"t": 1, "set": {"r": -2}}]})",
        "edit at t = 1: parameter 'r' must be in");
  }
  void errorsNameTheFileAndTheReason() {
    QFETCH(QString, json);
    QFETCH(QString, fragment);
    const QString message = parseError(json.toStdString());
    QVERIFY2(message.startsWith("test.json: "), qPrintable(message));
    QVERIFY2(message.contains(fragment), qPrintable(message));
  }

  // The step budget is written, read back, and a file without it (older files) gets the
  // default; the largest budget allowed is read exactly.
  void maxStepsIsStoredAndReloaded() {
    nh::Scenario s;
    s.integrator.maxSteps = 12345;
    const std::string json = nh::scenarioToJson(s);
    QVERIFY2(QString::fromStdString(json).contains("\"max_steps\": 12345"), json.c_str());
    QCOMPARE(nh::parseScenarioJson(json, "back.json").integrator.maxSteps, 12345L);
    const nh::Scenario old = nh::parseScenarioJson(
        kHead + R"("system": "ball_on_table", "integrator": {"method": "rk4"}})", "old.json");
    QCOMPARE(old.integrator.maxSteps, nh::IntegratorOptions{}.maxSteps);
    const nh::Scenario largest = nh::parseScenarioJson(
        kHead + R"("system": "ball_on_table", "integrator": {"max_steps": 1000000000000}})",
        "largest.json");
    QCOMPARE(largest.integrator.maxSteps, nh::kMaxStepBudget);
  }

  // The "view" part (version 2) is carried through reading and writing unchanged, and a
  // file without one writes none.
  void viewPartIsCarriedThrough() {
    const std::string json =
        R"({"format": "nonholonomic-lab-scenario", "version": 2, "system": "ball_on_table", )"
        R"("view": {"version": 1, "speed": 0.25, "note": "watch", "plots": {"phase": ["x", "y"]}}})";
    const nh::Scenario s = nh::parseScenarioJson(json, "test.json");
    QVERIFY(!s.view.empty());
    const nh::Scenario back = nh::parseScenarioJson(nh::scenarioToJson(s), "back.json");
    QCOMPARE(back.view, s.view);
    QVERIFY(QString::fromStdString(s.view).contains("\"speed\":0.25"));
    const nh::Scenario plain =
        nh::parseScenarioJson(kHead + R"("system": "ball_on_table"})", "plain.json");
    QVERIFY(plain.view.empty());
    QVERIFY(!QString::fromStdString(nh::scenarioToJson(plain)).contains("view"));
  }

  // Written and read back, a resolved scenario keeps every value bit for bit (the numbers
  // chosen have no short decimal form).
  // Timed edits are written and read back exactly, labels included, in their order.
  void editsRoundTrip() {
    nh::Scenario s;
    s.system = "ball_on_table";
    s.tEnd = 30;
    s.edits = {{0.1 + 0.2, {{"r", 0.2}}, "r = 0.2 m"}, {25.000000000000004, {{"r", 0.3}}, ""}};
    const nh::Scenario back = nh::parseScenarioJson(nh::scenarioToJson(s, ""), "test.json");
    QVERIFY(back.edits == s.edits);
  }

  void roundTripKeepsEveryDouble() {
    QTemporaryDir dir;
    nh::Scenario s;
    s.system = "chaplygin_sleigh";
    s.parameters = {{"m", 1.0 / 3.0}, {"a", std::sqrt(2.0)}};
    s.initial = {{"v", M_PI}, {"omega", -1e-17}};
    s.tEnd = 12.345678901234567;
    s.integrator.rtol = 3.3e-11;
    s.integrator.maxSteps = 777;
    s.dynamics = nh::DynamicsKind::Vakonomic;
    const std::string path = dir.filePath("s.json").toStdString();
    nh::writeScenarioFile(s, path);
    const nh::Scenario back = nh::readScenarioFile(path);
    QVERIFY(back.parameters == s.parameters);
    QVERIFY(back.initial == s.initial);
    QCOMPARE(back.tEnd, s.tEnd);
    QCOMPARE(back.integrator.rtol, s.integrator.rtol);
    QCOMPARE(back.integrator.maxSteps, s.integrator.maxSteps);
    QVERIFY(back.dynamics == s.dynamics);
    QCOMPARE(nh::scenarioToJson(back), nh::scenarioToJson(s));
  }

  void resolvedScenarioNamesEveryParameterAndStateVariable() {
    for (const auto& system : nh::catalogue()) {
      const auto& info = system->info();
      std::vector<double> parameters;
      for (const auto& p : info.parameters) parameters.push_back(p.defaultValue);
      const nh::StateLayout layout = nh::stateLayout(*system, nh::DynamicsKind::Nonholonomic);
      std::vector<double> x(layout.names.size());
      for (size_t i = 0; i < x.size(); ++i) x[layout.index[i]] = 0.5 + static_cast<double>(i);
      nh::Scenario s;
      s.system = system->name();
      const nh::Scenario r = nh::resolvedScenario(s, parameters, x);
      QCOMPARE(r.parameters.size(), info.parameters.size());
      QCOMPARE(r.initial.size(), layout.names.size());
      for (size_t i = 0; i < layout.names.size(); ++i)
        QCOMPARE(r.initial.at(layout.names[i]), x[layout.index[i]]);
    }
  }

  void refusesNonRegularFiles() {
    QTemporaryDir dir;
    const std::string fifo = dir.filePath("pipe.json").toStdString();
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    for (const std::string& path : {fifo, dir.path().toStdString(), std::string("/dev/null")}) {
      try {
        nh::readScenarioFile(path);  // must not block on the FIFO
        QFAIL(qPrintable(QString::fromStdString("no error for " + path)));
      } catch (const nh::InputError& e) {
        QVERIFY2(QString(e.what()).startsWith(
                     QString::fromStdString("cannot read scenario file '" + path + "'")),
                 e.what());
      }
    }
  }

  // The variables plotted over time: each once in the order first named, at most 12
  // different ones (the scenario's plots.time_series and export's --plot share this).
  void timeSeriesAreDistinctAndCapped() {
    const std::vector<std::string> many(5000, "x");
    QCOMPARE(nh::distinctTimeSeries(many, "--plot"), std::vector<std::string>{"x"});
    QCOMPARE(nh::distinctTimeSeries({"y", "x", "y", "energy", "x"}, "--plot"),
             (std::vector<std::string>{"y", "x", "energy"}));
    std::vector<std::string> names;
    for (int k = 1; k <= 12; ++k) {
      std::string name = "v";
      name += std::to_string(k);
      names.push_back(name);
    }
    QCOMPARE(nh::distinctTimeSeries(names, "--plot").size(), size_t(12));
    names.push_back("v13");
    try {
      nh::distinctTimeSeries(names, "--plot");
      QFAIL("13 accepted");
    } catch (const nh::InputError& e) {
      QCOMPARE(std::string(e.what()),
               std::string("--plot names 13 different variables; at most 12 are plotted "
                           "over time"));
    }
  }
};

QTEST_GUILESS_MAIN(ScenarioFileTest)
#include "scenario_file_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
