// The Compare panel on a real controller: the ghost run's parameter and value can be edited
// only while the ghost comparison is chosen, whether it was chosen in the panel, by a
// scenario (setCompare) or brought back by undo (the panel follows the controller by itself);
// the comparison with another integrator steps the second run with it. The ghost's parameters
// are listed by their display names and units, the identifier kept as the item's data.
#include "ui/panels/compare_panel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QUndoStack>
#include <QtTest>

#include "core/nh/simulation.h"
#include "session_fixture.h"
#include "ui/session/session.h"

class ComparePanelTest : public QObject {
  Q_OBJECT

 private slots:
  void ghostFieldsAreEnabledOnlyForAGhostRun() {
    auto session = nhtest::startSession();
    nhui::SimulationController* controller = session->controller();
    QUndoStack& undo = *session->undoStack();
    nhui::ComparePanel panel(session.get());
    auto* mode = panel.findChild<QComboBox*>("compareMode");
    auto* parameter = panel.findChild<QComboBox*>("ghostParameter");
    auto* value = panel.findChild<QDoubleSpinBox*>("ghostValue");
    QVERIFY(mode && parameter && value);
    QCOMPARE(mode->currentIndex(), 0);  // Off
    // The ghost's parameters are named as the Parameters panel names them (the model's label
    // and unit), not by their identifiers (the list said "Omega0").
    const int omega = parameter->findData(QStringLiteral("Omega0"));
    QVERIFY(omega >= 0);
    QCOMPARE(parameter->itemText(omega), QStringLiteral("Ω₀ [rad/s]"));
    QVERIFY(!parameter->isEnabled());
    QVERIFY(!value->isEnabled());
    panel.setCompare(nhui::CompareMode::Ghost, "Omega0", 2.0);
    // A comparison asked before the run has a sample is made once it has (nothing waits).
    QTRY_COMPARE_WITH_TIMEOUT(controller->compareMode(), nhui::CompareMode::Ghost, 30000);
    QCOMPARE(controller->ghostParameter(), std::string("Omega0"));
    QCOMPARE(parameter->currentIndex(), omega);
    QCOMPARE(undo.text(undo.count() - 1), QStringLiteral("Compare: ghost Ω₀ = 2 rad/s"));
    QVERIFY(parameter->isEnabled());
    QVERIFY(value->isEnabled());
    panel.setCompare(nhui::CompareMode::Vakonomic);
    QTRY_COMPARE_WITH_TIMEOUT(controller->compareMode(), nhui::CompareMode::Vakonomic, 30000);
    QVERIFY(!parameter->isEnabled());
    QVERIFY(!value->isEnabled());
    // Undo brings the ghost back: the panel follows the controller.
    undo.undo();
    QCOMPARE(controller->compareMode(), nhui::CompareMode::Ghost);
    QVERIFY(parameter->isEnabled());
    // Chosen in the box by the user.
    mode->setCurrentIndex(0);
    emit mode->activated(0);
    QVERIFY(!value->isEnabled());
  }

  // Another integrator: the integrator box offers every row of the table and is enabled only
  // in that mode, its step only for a fixed-step method; the comparison run is stepped by the
  // chosen integrator and step (the primary keeps its own), both runs advance, and undo
  // brings back the comparison before it.
  void anotherIntegratorStepsTheSecondRun() {
    auto session = nhtest::startSession("nh_particle");
    nhui::SimulationController* controller = session->controller();
    nhui::ComparePanel panel(session.get());
    auto* mode = panel.findChild<QComboBox*>("compareMode");
    auto* integrator = panel.findChild<QComboBox*>("compareIntegrator");
    auto* step = panel.findChild<QDoubleSpinBox*>("compareStep");
    QVERIFY(mode && integrator && step);
    QCOMPARE(integrator->count(), static_cast<int>(std::size(nh::kIntegrators)));
    QVERIFY(!integrator->isEnabled());
    panel.setCompareIntegrator({nh::Integrator::NhRattle, 0.005});
    QTRY_COMPARE_WITH_TIMEOUT(controller->compareMode(), nhui::CompareMode::Integrator, 30000);
    QCOMPARE(mode->currentIndex(), static_cast<int>(nhui::CompareMode::Integrator));
    QVERIFY(integrator->isEnabled());
    QVERIFY(step->isEnabled());
    QCOMPARE(integrator->currentText(), QString("nh-rattle"));
    QVERIFY(controller->runIntegrator(1).method == nh::Integrator::NhRattle);
    QCOMPARE(controller->runIntegrator(1).step, 0.005);
    QVERIFY(controller->runIntegrator(0).method == nh::Integrator::Dopri5);
    QVERIFY(controller->waitForTime(0.5, 30000));
    controller->pause();
    QTRY_VERIFY_WITH_TIMEOUT(controller->comparison() && controller->comparison()->size() > 10,
                             30000);
    QVERIFY(controller->primary().size() > 10);
    // An adaptive method has no step to set.
    panel.setCompareIntegrator({nh::Integrator::Dop853, 0.005});
    QVERIFY(!step->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(controller->otherIntegrator().method == nh::Integrator::Dop853, 30000);
    session->undoStack()->undo();
    QVERIFY(controller->otherIntegrator() ==
            (nhui::IntegratorChoice{nh::Integrator::NhRattle, 0.005}));
    QCOMPARE(integrator->currentText(), QString("nh-rattle"));
    // A step above the output step is refused in one line and the comparison stays.
    QString error;
    QObject::connect(session.get(), &nhui::Session::errorOccurred,
                     [&](const QString& message) { error = message; });
    panel.setCompareIntegrator({nh::Integrator::Rk4, 0.5});
    QTRY_VERIFY2_WITH_TIMEOUT(error.contains("larger than"), qPrintable(error), 30000);
    QVERIFY(controller->otherIntegrator().method == nh::Integrator::NhRattle);
    QCOMPARE(integrator->currentText(), QString("nh-rattle"));
  }
};

QTEST_MAIN(ComparePanelTest)
#include "compare_panel_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
