// A parameter value inside its range that the system refuses (the Chaplygin sphere's moments
// obey the triangle inequalities, I1 ≤ I2 + I3: its model file's parameter_checks). The soak
// (seed 20261123) found the panel showing such a value while the controller kept the one in
// force: the slider and the spin box showed the new value before the edit was applied, and the
// refused edit left them so. The panel now refuses it like an out-of-range value, says why, and
// shows the value in force.
#include <QLabel>
#include <QSlider>
#include <QUndoStack>
#include <QtTest>
#include <cmath>

#include "spin_box_typing.h"
#include "ui/panels/parameter_panel.h"
#include "ui/scene/vtk_view_widget.h"
#include "ui/sim/simulation_controller.h"
#include "ui/window/main_window.h"
#include "window_fixture.h"

using nhui::MainWindow;
using nhui::SimulationController;

class ParameterRefusalTest : public QObject {
  Q_OBJECT

 private slots:
  void init() {
    window_ = std::make_unique<MainWindow>(false);
    QVERIFY(nhtest::showActive(*window_));
    window_->chooseSystem("chaplygin_sphere");
    QCOMPARE(window_->controller()->system().name(), std::string("chaplygin_sphere"));
    // Defaults I1 = 0.003, I2 = 0.004, I3 = 0.005: I1 may be at most 0.009.
    QCOMPARE(window_->controller()->parameter("I1"), 0.003);
  }
  void cleanup() { window_.reset(); }

  void aTypedValueTheSystemRefusesIsNotShown() {
    SimulationController* c = window_->controller();
    nhui::ParameterPanel* panel = window_->parameterPanel();
    const int commands = window_->undoStack()->count();
    nhtest::typeInto(panel->spinBox("I1"), "0.012");
    QCOMPARE(c->parameter("I1"), 0.003);
    QCOMPARE(panel->spinBox("I1")->value(), 0.003);
    QVERIFY2(
        panel->reasonLabel()->isVisible() && panel->reasonLabel()->text().contains("I1 ≤ I2 + I3"),
        qPrintable(panel->reasonLabel()->text()));
    QCOMPARE(window_->undoStack()->count(), commands);
    // An allowed value is then taken, and the refusal goes.
    nhtest::typeInto(panel->spinBox("I1"), "0.008");
    QCOMPARE(c->parameter("I1"), 0.008);
    QCOMPARE(panel->spinBox("I1")->value(), 0.008);
    QVERIFY(!panel->reasonLabel()->isVisible());
  }

  void aSliderPositionTheSystemRefusesIsNotShown() {
    SimulationController* c = window_->controller();
    nhui::ParameterPanel* panel = window_->parameterPanel();
    QSlider* slider = panel->slider("I1");
    const int before = slider->value();
    const int commands = window_->undoStack()->count();
    // The slider spans I1's default ± 4 × default, clamped to (0, …): its top is 0.015.
    slider->setSliderDown(true);
    slider->setValue(slider->maximum());
    slider->setSliderDown(false);
    QCOMPARE(c->parameter("I1"), 0.003);
    QCOMPARE(panel->spinBox("I1")->value(), 0.003);
    QCOMPARE(slider->value(), before);
    QVERIFY2(panel->reasonLabel()->text().contains("I1 ≤ I2 + I3"),
             qPrintable(panel->reasonLabel()->text()));
    QCOMPARE(window_->undoStack()->count(), commands);
  }

  // Raising I2 first makes room for the same I1.
  void theCheckUsesTheOtherValuesInForce() {
    SimulationController* c = window_->controller();
    nhui::ParameterPanel* panel = window_->parameterPanel();
    nhtest::typeInto(panel->spinBox("I2"), "0.008");
    QCOMPARE(c->parameter("I2"), 0.008);
    nhtest::typeInto(panel->spinBox("I1"), "0.012");
    QCOMPARE(c->parameter("I1"), 0.012);
    QCOMPARE(panel->spinBox("I1")->value(), 0.012);
  }

  // A value past what the field holds is refused with the field's limits, like a value out of
  // the parameter's range: it used to be clamped to 1e15 without a word.
  void aValueBeyondTheFieldIsRefusedNotClamped() {
    SimulationController* c = window_->controller();
    nhui::ParameterPanel* panel = window_->parameterPanel();
    const double before = c->parameter("m");
    const int commands = window_->undoStack()->count();
    nhtest::typeInto(panel->spinBox("m"), "1e300");
    QCOMPARE(c->parameter("m"), before);
    QCOMPARE(panel->spinBox("m")->value(), before);
    QVERIFY2(panel->reasonLabel()->isVisible() &&
                 panel->reasonLabel()->text().contains("beyond what this field holds") &&
                 panel->reasonLabel()->text().contains("1e+15"),
             qPrintable(panel->reasonLabel()->text()));
    QCOMPARE(window_->undoStack()->count(), commands);
  }

 private:
  std::unique_ptr<MainWindow> window_;
};

int main(int argc, char** argv) {
  QSurfaceFormat::setDefaultFormat(nhui::VtkViewWidget::vtkSurfaceFormat());
  QApplication app(argc, argv);
  QApplication::setOrganizationName("NonholonomicLabTests");
  ParameterRefusalTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "parameter_refusal_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
