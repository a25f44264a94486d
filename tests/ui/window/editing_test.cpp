// Editing in the nhlab window: Ctrl+Z in a focused spin box undoes through the window's undo
// stack; a refusal clears once a value is accepted and moves no row; Edit start grabs the
// body for a position drag (leaving the velocities alone) and the green knob, off the body,
// for a velocity drag, and keeps the history it discards
// on the undo stack; initial-condition fields show units; a system switch is undoable with
// the edited parameters.
#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QSlider>
#include <QUndoStack>
#include <QtTest>
#include <cmath>

#include "spin_box_typing.h"
#include "ui/panels/parameter_panel.h"
#include "ui/scene/scene_view.h"
#include "ui/sim/simulation_controller.h"
#include "ui/window/main_window.h"
#include "window_fixture.h"

using nhtest::typeInto;
using nhui::MainWindow;
using nhui::SimulationController;

class EditingTest : public QObject {
  Q_OBJECT

 private slots:
  void init() {
    window_ = std::make_unique<MainWindow>(false);
    QVERIFY(nhtest::showActive(*window_));
  }
  void cleanup() { window_.reset(); }

  // Ctrl+Z in a focused spin box commits the typed value first, then undoes it.
  void ctrlZInAFocusedSpinBoxUndoes() {
    SimulationController* c = window_->controller();
    auto* spin = window_->parameterPanel()->spinBox("Omega0");
    QVERIFY(spin);
    typeInto(spin, "3");
    QCOMPARE(c->parameter("Omega0"), 3.0);
    QVERIFY(spin->hasFocus());
    QTest::keyClick(spin->findChild<QLineEdit*>(), Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(c->parameter("Omega0"), 1.0);
    QCOMPARE(spin->value(), 1.0);
    // Redo from the spin box too.
    QTest::keyClick(spin->findChild<QLineEdit*>(), Qt::Key_Z,
                    Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(c->parameter("Omega0"), 3.0);
    // Typed but not committed: Ctrl+Z commits it and undoes it, so redo brings it back.
    typeInto(spin, "4", false);
    QTest::keyClick(spin->findChild<QLineEdit*>(), Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(c->parameter("Omega0"), 3.0);
    QVERIFY(window_->undoStack()->canRedo());
    window_->undoStack()->redo();
    QCOMPARE(c->parameter("Omega0"), 4.0);
  }

  // A refusal shows in the panel's fixed line (no row moves) and clears when a value is accepted.
  void refusalClearsAndMovesNoRow() {
    SimulationController* c = window_->controller();
    nhui::ParameterPanel* panel = window_->parameterPanel();
    auto* spin = panel->spinBox("r");
    QLabel* message = panel->reasonLabel("r");
    QVERIFY(spin && message);
    QWidget* below = panel->spinBox("inertia_ratio");
    QCoreApplication::processEvents();
    const QPoint rowBefore = below->mapTo(panel, QPoint(0, 0));
    const QPoint spinBefore = spin->mapTo(panel, QPoint(0, 0));
    typeInto(spin, "-1");
    QCoreApplication::processEvents();
    QCOMPARE(c->parameter("r"), 0.1);
    QVERIFY(message->isVisible());
    QVERIFY2(message->text().contains("-1"), qPrintable(message->text()));
    QCOMPARE(below->mapTo(panel, QPoint(0, 0)), rowBefore);
    QCOMPARE(spin->mapTo(panel, QPoint(0, 0)), spinBefore);
    // Corrected with the slider (no typing): the refusal goes.
    QSlider* slider = panel->slider("r");
    slider->setValue(slider->value() + 10);
    QVERIFY(c->parameter("r") != 0.1);
    QVERIFY(!message->isVisible());
    QVERIFY(spin->refusal().isEmpty());
    QCOMPARE(below->mapTo(panel, QPoint(0, 0)), rowBefore);
    // Refused again, then an accepted typed value clears it too.
    typeInto(spin, "-2");
    QVERIFY(message->isVisible());
    typeInto(spin, "0.25");
    QCOMPARE(c->parameter("r"), 0.25);
    QVERIFY(!message->isVisible());
  }

  // A press on the body grabbed the velocity when the arrow's tip lay on
  // the body (a slow or resting ball), so a position drag rewrote the velocities.
  void positionDragLeavesVelocitiesAlone() {
    SimulationController* c = window_->controller();
    c->pause();
    c->setInitialOverrides({{"vy", 0.0}});  // at rest: the velocity arrow's tip is the centre
    window_->editInitialAction()->trigger();
    QVERIFY(window_->sceneView()->editInitial());
    nhui::SceneView* view = window_->sceneView();
    // The restart is posted: the start is shown once the worker has recorded it.
    QVERIFY(c->waitForTime(0, 10000));
    c->tick();
    view->refresh();
    QCoreApplication::processEvents();
    nh::SceneFrame frame;
    QVERIFY(c->displayedScene(0, frame));
    const Eigen::Vector3d ball = frame.bodies.at(1).position;
    const double at[3] = {ball.x(), ball.y(), ball.z()};
    const QPoint press = view->worldToWidget(at).toPoint();
    QTest::mousePress(view, Qt::LeftButton, {}, press);
    QTest::mouseMove(view, press + QPoint(20, 0));
    QTest::mouseMove(view, press + QPoint(40, 0));
    QTest::mouseRelease(view, Qt::LeftButton, {}, press + QPoint(40, 0));
    const auto& overrides = c->initialOverrides();
    QVERIFY2(overrides.count("x") && std::abs(overrides.at("x") - 0.6) > 1e-3,
             "the ball was not moved");
    QCOMPARE(overrides.count("vx"), size_t(0));
    QCOMPARE(overrides.at("vy"), 0.0);
    QVERIFY(c->initialNotes().empty());
  }

  // The green velocity knob sits at the arrow's tip but never on the body, also for a ball at
  // rest (a zero arrow): a drag from the knob sets the velocity and leaves the position, and
  // a drag from the body then moves the ball and leaves that velocity.
  void velocityKnobAndBodyDragApart() {
    SimulationController* c = window_->controller();
    c->pause();
    c->setInitialOverrides({{"vx", 0.0}, {"vy", 0.0}});
    window_->editInitialAction()->trigger();
    nhui::SceneView* view = window_->sceneView();
    QVERIFY(view->editInitial());
    // The restart is posted: the start is shown once the worker has recorded it.
    QVERIFY(c->waitForTime(0, 10000));
    c->tick();
    view->refresh();
    QCoreApplication::processEvents();
    nh::SceneFrame frame;
    QVERIFY(c->displayedScene(0, frame));
    const Eigen::Vector3d ball = frame.bodies.at(1).position;
    const double at[3] = {ball.x(), ball.y(), ball.z()};
    const QPointF body = view->worldToWidget(at);
    const std::optional<QPointF> knob = view->velocityKnob();
    QVERIFY(knob);
    // Off the body's grab disc (at least 25 px) by more than the knob's own (14 px).
    QVERIFY2(QLineF(*knob, body).length() > 40,
             qPrintable(QString("knob %1 px from the body").arg(QLineF(*knob, body).length())));
    const QPoint grab = knob->toPoint();
    QTest::mousePress(view, Qt::LeftButton, {}, grab);
    QTest::mouseMove(view, grab + QPoint(0, -20));
    QTest::mouseMove(view, grab + QPoint(0, -40));
    QTest::mouseRelease(view, Qt::LeftButton, {}, grab + QPoint(0, -40));
    auto overrides = c->initialOverrides();
    const double speed = std::hypot(overrides.at("vx"), overrides.at("vy"));
    QVERIFY2(speed > 1e-3, "the knob drag set no velocity");
    QVERIFY(!overrides.count("x") || std::abs(overrides.at("x") - 0.6) < 1e-9);
    QVERIFY(!overrides.count("y") || std::abs(overrides.at("y")) < 1e-9);
    // The knob follows the new, longer arrow and stays off the body.
    view->refresh();
    QVERIFY(view->velocityKnob());
    QVERIFY(QLineF(*view->velocityKnob(), body).length() > 40);
    // Now the body: a position drag that keeps the velocity just set.
    const QPoint press = body.toPoint();
    QTest::mousePress(view, Qt::LeftButton, {}, press);
    QTest::mouseMove(view, press + QPoint(20, 0));
    QTest::mouseMove(view, press + QPoint(40, 0));
    QTest::mouseRelease(view, Qt::LeftButton, {}, press + QPoint(40, 0));
    const auto after = c->initialOverrides();
    QVERIFY2(after.count("x") && std::abs(after.at("x") - 0.6) > 1e-3, "the ball was not moved");
    QCOMPARE(after.at("vx"), overrides.at("vx"));
    QCOMPARE(after.at("vy"), overrides.at("vy"));
  }

  // Edit start discarded the history without a way back.
  void editStartKeepsTheHistoryForUndo() {
    SimulationController* c = window_->controller();
    QVERIFY(c->waitForTime(1.5, 30000));
    c->tick();
    const double recorded = c->primary().lastTime();
    QVERIFY(recorded >= 1.5);
    const int commands = window_->undoStack()->count();
    window_->editInitialAction()->trigger();
    QVERIFY(c->primary().lastTime() < 0.5);  // restarted from the initial state
    QCOMPARE(window_->undoStack()->count(), commands + 1);
    window_->undoStack()->undo();
    QVERIFY(c->primary().lastTime() >= recorded);
  }

  // The initial-condition fields had no units.
  void initialFieldsShowUnits() {
    nhui::InitialStatePanel* panel = window_->initialPanel();
    QCOMPARE(panel->label("x")->text(), QString("x [m]"));
    QCOMPARE(panel->label("vy")->text(), QString("vy [m/s]"));
    QCOMPARE(panel->label("wz")->text(), QString("wz [rad/s]"));
    QCOMPARE(panel->label("qw")->text(), QString("qw"));
  }

  // Choosing another system threw the edited parameters away for good.
  void systemSwitchIsUndoableWithItsParameters() {
    SimulationController* c = window_->controller();
    typeInto(window_->parameterPanel()->spinBox("m"), "2");
    QCOMPARE(c->parameter("m"), 2.0);
    window_->chooseSystem("nh_particle");
    QCOMPARE(QString::fromStdString(c->system().name()), QString("nh_particle"));
    window_->undoStack()->undo();
    QCOMPARE(QString::fromStdString(c->system().name()), QString("ball_on_turntable"));
    QCOMPARE(c->parameter("m"), 2.0);
    window_->undoStack()->redo();
    QCOMPARE(QString::fromStdString(c->system().name()), QString("nh_particle"));
  }

 private:
  std::unique_ptr<MainWindow> window_;
};

QTEST_MAIN(EditingTest)
#include "editing_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
