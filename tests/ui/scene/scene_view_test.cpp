// The 3D view's drag handles on the systems on an incline (ui/scene/scene_view, drag_plane),
// in the nhlab window under a display: Edit start on ball_on_conveyor (the belt tilted to 0.6
// rad) and on knife_edge_on_incline drags the body in the incline's plane, so that it stays
// under the mouse and on the incline (its centre at the same height above the plane), and the
// velocity knob sets a velocity along the plane.
#include "ui/scene/scene_view.h"

#include <QApplication>
#include <QMouseEvent>
#include <QtTest>
#include <cmath>

#include "ui/sim/simulation_controller.h"
#include "ui/window/main_window.h"
#include "window_fixture.h"

using nhui::MainWindow;
using nhui::SimulationController;

class SceneViewTest : public QObject {
  Q_OBJECT

 private slots:
  void init() {
    window_ = std::make_unique<MainWindow>(false);
    QVERIFY(nhtest::showActive(*window_));
  }
  void cleanup() { window_.reset(); }

  // A drag moved a body in the horizontal plane, so the systems on an incline had no handle:
  // now the body follows the mouse within the incline's plane.
  void inclineDragStaysInThePlane_data() {
    QTest::addColumn<QString>("system");
    QTest::addColumn<QString>("body");
    QTest::addColumn<QString>("slope");
    // The incline's unit normal from its angle: the conveyor's belt is turned by −slope about
    // y (uphill is +x), the knife edge's plane by +alpha (downhill is +x).
    QTest::addColumn<double>("sign");
    QTest::addColumn<double>("height");  // of the body's centre above the plane
    QTest::newRow("ball_on_conveyor") << "ball_on_conveyor"
                                      << "ball"
                                      << "slope" << -1.0 << 0.1;
    QTest::newRow("knife_edge_on_incline") << "knife_edge_on_incline"
                                           << "skate"
                                           << "alpha" << 1.0 << 0.03;
  }
  void inclineDragStaysInThePlane() {
    QFETCH(QString, system);
    QFETCH(QString, body);
    QFETCH(QString, slope);
    QFETCH(double, sign);
    QFETCH(double, height);
    window_->chooseSystem(system);
    SimulationController* c = window_->controller();
    c->setParameter(slope.toStdString(), 0.6);
    nhui::SceneView* view = window_->sceneView();
    QVERIFY(view->canEditInitial());
    window_->editInitialAction()->setChecked(true);
    QVERIFY(view->editInitial());
    const double angle = sign * 0.6;
    const Eigen::Vector3d normal(std::sin(angle), 0, std::cos(angle));
    const Eigen::Vector3d before = bodyAt(body.toStdString());
    QVERIFY2(std::abs(before.dot(normal) - height) < 1e-9, "the body starts off the incline");
    const double world[3] = {before.x(), before.y(), before.z()};
    const QPoint press = view->worldToWidget(world).toPoint();
    const QPoint release = press + QPoint(70, 30);
    dragMouse(press, release, Qt::NoModifier);
    const Eigen::Vector3d after = bodyAt(body.toStdString());
    QVERIFY2((after - before).norm() > 0.05, "the body was not moved");
    // On the incline: the same height above its plane.
    QVERIFY2(std::abs(after.dot(normal) - height) < 1e-9,
             qPrintable(QString("%1 above the plane").arg(after.dot(normal))));
    // Under the mouse: the drag followed the plane, not a horizontal one through the body.
    const double w[3] = {after.x(), after.y(), after.z()};
    const double off = QLineF(view->worldToWidget(w), QPointF(release)).length();
    QVERIFY2(off < 1.5, qPrintable(QString("%1 px from the mouse").arg(off)));
    // The knob sets a velocity along the plane (the velocity arrow has no normal part).
    const std::optional<QPointF> knob = view->velocityKnob();
    QVERIFY(knob);
    const auto positionOnly = c->initialOverrides();
    dragMouse(knob->toPoint(), knob->toPoint() + QPoint(-30, -40), Qt::NoModifier);
    QVERIFY(c->initialOverrides() != positionOnly);
    QVERIFY(c->waitForTime(0, 10000));  // the restart from the new velocity
    c->tick();
    nh::SceneFrame frame;
    QVERIFY(c->displayedScene(0, frame));
    for (const auto& a : frame.arrows)
      if (a.name == "velocity") {
        QVERIFY2(a.vector.norm() > 1e-3, "no velocity was set");
        QVERIFY(std::abs(a.vector.dot(normal)) < 1e-9 * a.vector.norm() + 1e-12);
      }
    QVERIFY(std::abs(bodyAt(body.toStdString()).dot(normal) - height) < 1e-9);
  }

 private:
  Eigen::Vector3d bodyAt(const std::string& name) {
    SimulationController* c = window_->controller();
    c->waitForTime(0, 10000);  // a drag's restart is posted: its start comes next
    c->tick();
    window_->sceneView()->refresh();
    nh::SceneFrame frame;
    if (c->displayedScene(0, frame))
      for (const auto& b : frame.bodies)
        if (b.name == name) return b.position;
    return Eigen::Vector3d::Constant(std::nan(""));
  }
  void dragMouse(const QPoint& from, const QPoint& to, Qt::KeyboardModifiers modifiers) {
    QWidget* view = window_->sceneView();
    QTest::mousePress(view, Qt::LeftButton, modifiers, from);
    QMouseEvent move(QEvent::MouseMove, QPointF(to), view->mapToGlobal(QPointF(to)), Qt::NoButton,
                     Qt::LeftButton, modifiers);
    QApplication::sendEvent(view, &move);
    QTest::mouseRelease(view, Qt::LeftButton, modifiers, to);
  }

  std::unique_ptr<MainWindow> window_;
};

int main(int argc, char** argv) {
  QSurfaceFormat::setDefaultFormat(nhui::VtkViewWidget::vtkSurfaceFormat());
  QApplication app(argc, argv);
  QApplication::setOrganizationName("NonholonomicLabTests");
  SceneViewTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "scene_view_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
