// The Compare panel on a real controller: the ghost run's parameter and value can be edited
// only while the ghost comparison is chosen, whether it was chosen in the panel, by a
// scenario (setCompare) or brought back by undo (the panel follows the controller by itself).
#include "ui/panels/compare_panel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QUndoStack>
#include <QtTest>

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
    QVERIFY(!parameter->isEnabled());
    QVERIFY(!value->isEnabled());
    panel.setCompare(nhui::CompareMode::Ghost, "Omega0", 2.0);
    QCOMPARE(controller->compareMode(), nhui::CompareMode::Ghost);
    QVERIFY(parameter->isEnabled());
    QVERIFY(value->isEnabled());
    panel.setCompare(nhui::CompareMode::Vakonomic);
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
};

QTEST_MAIN(ComparePanelTest)
#include "compare_panel_test.moc"
