// The view part's comparison with another integrator (ui/session/scenario_view): read with its
// integrator and step, written back the same, and refused in one line when the integrator is
// missing or unknown or the step is not a positive number; a lesson's energy_drift_expected.
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
