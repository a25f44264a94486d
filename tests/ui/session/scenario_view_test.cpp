// The view part's comparison with another integrator (ui/session/scenario_view): read with its
// integrator and step, written back the same, and refused in one line when the integrator is
// missing or unknown or the step is not a positive number; a lesson's energy_drift_expected;
// the camera's pose (orbit, zoom, target) and the theme, read, written back and checked.
#include "ui/session/scenario_view.h"

#include <QtTest>

#include "core/nh/errors.h"

class ScenarioViewTest : public QObject {
  Q_OBJECT

 private slots:
  void otherIntegratorIsReadAndWritten() {
    const nhui::ScenarioView view = nhui::parseScenarioView(
        R"({"version": 1, "compare": {"mode": "integrator", "integrator": "nh-rattle", "step": 0.05}})");
    QVERIFY(view.comparison && view.comparison->mode == nhui::CompareMode::Integrator);
    QVERIFY(view.comparison->method == nh::Integrator::NhRattle);
    QCOMPARE(view.comparison->step, 0.05);
    QVERIFY(view.otherStepGiven);
    const nhui::ScenarioView again = nhui::parseScenarioView(nhui::scenarioViewToJson(view));
    QVERIFY(again.comparison == view.comparison);
    // Without a step: the window chooses one (the output step or smaller).
    const nhui::ScenarioView noStep = nhui::parseScenarioView(
        R"({"version": 1, "compare": {"mode": "integrator", "integrator": "rk4"}})");
    QVERIFY(noStep.comparison && noStep.comparison->method == nh::Integrator::Rk4);
    QVERIFY(!noStep.otherStepGiven);
  }

  // A lesson about an integrator's energy drift says so ("energy_drift_expected"): read,
  // written back, absent by default, and refused in one line when it is not true or false.
  void energyDriftExpectedIsReadAndWritten() {
    const nhui::ScenarioView view =
        nhui::parseScenarioView(R"({"version": 1, "energy_drift_expected": true})");
    QVERIFY(view.energyDriftExpected);
    QVERIFY(nhui::parseScenarioView(nhui::scenarioViewToJson(view)).energyDriftExpected);
    QVERIFY(!nhui::parseScenarioView(R"({"version": 1})").energyDriftExpected);
    try {
      nhui::parseScenarioView(R"({"version": 1, "energy_drift_expected": "yes"})");
      QFAIL("accepted");
    } catch (const nh::InputError& e) {
      QVERIFY2(
          QString::fromUtf8(e.what()).contains("'energy_drift_expected' must be true or false"),
          e.what());
    }
  }

  // The camera's pose and the theme a view was saved with come back from its JSON as saved;
  // a view without them gives none.
  void cameraPoseAndThemeAreReadAndWritten() {
    nhui::ScenarioView view;
    view.follow = false;
    nhui::CameraPose pose;
    pose.position = {1.5, -2.25, 0.75};
    pose.focalPoint = {0.1, 0.2, 0.05};
    pose.viewUp = {0, 0.1, 1};
    pose.viewAngle = 24;
    view.camera = pose;
    view.dark = false;
    const std::string json = nhui::scenarioViewToJson(view);
    QVERIFY2(json.find(R"("position":[1.5,-2.25,0.75])") != std::string::npos, json.c_str());
    QVERIFY2(json.find(R"("theme":"light")") != std::string::npos, json.c_str());
    const nhui::ScenarioView back = nhui::parseScenarioView(json);
    QVERIFY(back.camera && *back.camera == pose);
    QVERIFY(back.dark && !*back.dark);
    QVERIFY(back.follow && !*back.follow);
    const nhui::ScenarioView bare = nhui::parseScenarioView(R"({"version": 1})");
    QVERIFY(!bare.camera && !bare.dark);
    // Up and view angle may be left out: the view's defaults.
    const nhui::ScenarioView least = nhui::parseScenarioView(
        R"({"version": 1, "theme": "dark", "camera": {"position": [0, -3, 1], "target": [0, 0, 0]}})");
    QVERIFY(least.camera && least.dark && *least.dark);
    QVERIFY(least.camera->viewUp == (std::array<double, 3>{0, 0, 1}));
    QCOMPARE(least.camera->viewAngle, 30.0);
  }

  void cameraAndThemeMistakesAreRefused_data() {
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("says");
    QTest::newRow("theme") << R"("theme": "blue")"
                           << R"(view: 'theme' must be "dark" or "light")";
    QTest::newRow("target alone") << R"("camera": {"target": [0, 0, 0]})"
                                  << "view: 'camera' needs both 'position' and 'target'";
    QTest::newRow("two numbers")
        << R"("camera": {"position": [0, 1], "target": [0, 0, 0]})"
        << "view: 'camera.position' must be a list of three finite numbers";
    QTest::newRow("same point") << R"("camera": {"position": [1, 1, 1], "target": [1, 1, 1.0]})"
                                << "view: 'camera.position' and 'camera.target' must be different";
    QTest::newRow("no up")
        << R"("camera": {"position": [0, 1, 0], "target": [0, 0, 0], "up": [0, 0, 0]})"
        << "view: 'camera.up' must not be zero";
    QTest::newRow("angle")
        << R"("camera": {"position": [0, 1, 0], "target": [0, 0, 0], "view_angle": 0})"
        << "view: 'camera.view_angle' must be a number from 1 to 150";
    QTest::newRow("key") << R"("camera": {"zoom": 2})"
                         << "unknown key 'zoom' in 'camera'";
  }
  void cameraAndThemeMistakesAreRefused() {
    QFETCH(QString, json);
    QFETCH(QString, says);
    try {
      nhui::parseScenarioView(R"({"version": 1, )" + json.toStdString() + "}");
      QFAIL("accepted");
    } catch (const nh::InputError& e) {
      QVERIFY2(QString::fromUtf8(e.what()).contains(says), e.what());
      QVERIFY(!QString::fromUtf8(e.what()).contains('\n'));
    }
  }

  void mistakesAreRefused_data() {
    QTest::addColumn<QString>("compare");
    QTest::addColumn<QString>("says");
    QTest::newRow("no integrator")
        << R"({"mode": "integrator"})"
        << "view: a comparison with another integrator needs 'integrator' (one of dopri5, ";
    QTest::newRow("unknown") << R"({"mode": "integrator", "integrator": "euler"})"
                             << "view: 'compare.integrator': unknown integrator 'euler'";
    QTest::newRow("step") << R"({"mode": "integrator", "integrator": "rk4", "step": 0})"
                          << "view: 'compare.step' must be a positive number of seconds";
    QTest::newRow("mode") << R"({"mode": "twin"})"
                          << R"(or "integrator")";
  }
  void mistakesAreRefused() {
    QFETCH(QString, compare);
    QFETCH(QString, says);
    try {
      nhui::parseScenarioView(R"({"version": 1, "compare": )" + compare.toStdString() + "}");
      QFAIL("accepted");
    } catch (const nh::InputError& e) {
      QVERIFY2(QString::fromUtf8(e.what()).contains(says), e.what());
      QVERIFY(!QString::fromUtf8(e.what()).contains('\n'));
    }
  }
};

QTEST_APPLESS_MAIN(ScenarioViewTest)
#include "scenario_view_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
