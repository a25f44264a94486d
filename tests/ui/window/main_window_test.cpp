// The nhlab window end to end: it starts playing the default scenario, parameter edits go
// through the widgets (refused with a reason when invalid, undoable), the timeline resumes
// deterministically, scenarios round-trip through files, and the 3D view really draws.
#include "ui/window/main_window.h"

#include <QAction>
#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QMouseEvent>
#include <QSlider>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>
#include <cmath>
#include <set>

#include "core/model/catalogue.h"
#include "spin_box_typing.h"
#include "tests/support/catalogue_systems.h"
#include "ui/panels/parameter_panel.h"
#include "ui/plot/plot_panels.h"
#include "ui/scene/scene_view.h"
#include "ui/sim/simulation_controller.h"
#include "ui/window/status_fit.h"
#include "window_fixture.h"

using nhtest::typeInto;
using nhui::MainWindow;
using nhui::SimulationController;

namespace {

// Angular frequency of the rotation of the centre's velocity (vx, vy) over [t0, t1]: the
// slope of the unwrapped angle, by least squares. For a ball on a turntable the centre
// moves on a circle, so this is the circle's angular frequency κΩ (theory: κ = 2/7).
double velocityTurnRate(const nhui::RunHistory& run, double t0, double t1) {
  const auto& t = run.times();
  const auto& vx = run.column(run.columnIndex("vx"));
  const auto& vy = run.column(run.columnIndex("vy"));
  double sumT = 0, sumA = 0, sumTT = 0, sumTA = 0, previous = 0, offset = 0;
  int n = 0;
  for (size_t k = 0; k < run.size(); ++k) {
    if (t[k] < t0 || t[k] > t1) continue;
    double a = std::atan2(vy[k], vx[k]);
    if (n > 0) {
      while (a + offset - previous > M_PI) offset -= 2 * M_PI;
      while (a + offset - previous < -M_PI) offset += 2 * M_PI;
    }
    a += offset;
    previous = a;
    sumT += t[k];
    sumA += a;
    sumTT += t[k] * t[k];
    sumTA += t[k] * a;
    ++n;
  }
  return (n * sumTA - sumT * sumA) / (n * sumTT - sumT * sumT);
}

}  // namespace

class MainWindowTest : public QObject {
  Q_OBJECT

 private slots:
  void init() {
    window_ = std::make_unique<MainWindow>(false);
    QVERIFY(nhtest::showActive(*window_));
  }
  void cleanup() { window_.reset(); }

  // The view has one owner: a choice in the Display dock is the session's and the 3D view
  // draws it; a view set on the session shows in the dock, the 3D view and the plots.
  void theDisplayDockAndThePlotsShowTheSessionsView() {
    nhui::Session* session = window_->session();
    auto* grid = window_->findChild<QCheckBox*>("grid");
    QVERIFY(grid);
    const bool was = session->view().display.grid;
    grid->click();
    QCOMPARE(session->view().display.grid, !was);
    QCOMPARE(window_->sceneView()->options().grid, !was);
    nhui::ViewState v = session->view();
    v.display.grid = was;
    v.timeSeries = {"energy"};
    session->setView(v, nhui::kViewDisplay | nhui::kViewPlots);
    QCOMPARE(grid->isChecked(), was);
    QCOMPARE(window_->sceneView()->options().grid, was);
    QCOMPARE(window_->timeSeriesPanel()->variables(), QStringList{"energy"});
    // A variable chosen in the plot panel is written back to the session (in the panel's order).
    window_->timeSeriesPanel()->setVariables({"energy", "x"});
    QCOMPARE(session->view().timeSeries, window_->timeSeriesPanel()->variables());
    QVERIFY(session->view().timeSeries.contains("x"));
  }

  void defaultScenarioPlays() {
    SimulationController* c = window_->controller();
    QCOMPARE(QString::fromStdString(c->system().name()), QString("ball_on_turntable"));
    QCOMPARE(c->parameter("Omega0"), 1.0);
    QVERIFY(c->playing());  // nothing to configure first
    nh::SceneFrame first;
    QTRY_VERIFY_WITH_TIMEOUT(c->displayedScene(0, first), 5000);
    const Eigen::Vector3d start = first.bodies.at(1).position;
    QTRY_VERIFY_WITH_TIMEOUT(c->displayTime() > 0.8, 10000);
    nh::SceneFrame later;
    QVERIFY(c->displayedScene(0, later));
    QCOMPARE(QString::fromStdString(later.bodies.at(1).name), QString("ball"));
    // v0 = 0.2 m/s: after ≥ 0.8 s the centre has moved ≳ 0.1 m (1e-3 is far below that).
    QVERIFY2((later.bodies.at(1).position - start).norm() > 1e-3, "the ball did not move");
  }

  void doublingOmegaDoublesCircleFrequency() {
    SimulationController* c = window_->controller();
    const double T = 8.0;  // ≥ a third of the period 2π/(2Ω/7) at Ω = 1
    c->reset();
    QVERIFY(c->waitForTime(T, 30000));
    const double w1 = velocityTurnRate(c->primary(), 0, T);

    // Through the widget: type 2 into Omega0's spin box.
    auto* spin = window_->parameterPanel()->spinBox("Omega0");
    QVERIFY(spin);
    typeInto(spin, "2");
    QCOMPARE(c->parameter("Omega0"), 2.0);
    c->reset();
    QVERIFY(c->waitForTime(T, 30000));
    const double w2 = velocityTurnRate(c->primary(), 0, T);
    // Closed form κΩ with κ = I/(I + m r²) = 2/7; the integrator's rtol is 1e-10, so 1e-6 is
    // loose and still catches any wrong factor.
    QVERIFY2(std::abs(w1 - 2.0 / 7.0) < 1e-6, qPrintable(QString("w1 = %1").arg(w1, 0, 'g', 12)));
    QVERIFY2(std::abs(w2 / w1 - 2.0) < 1e-6,
             qPrintable(QString("w2/w1 = %1").arg(w2 / w1, 0, 'g', 12)));
  }

  void invalidValueIsRefusedWithReason() {
    SimulationController* c = window_->controller();
    auto* spin = window_->parameterPanel()->spinBox("r");
    QLabel* reason = window_->parameterPanel()->reasonLabel("r");
    QVERIFY(spin && reason);
    QVERIFY(!reason->isVisible());
    const int undoCount = window_->undoStack()->count();
    typeInto(spin, "-1");
    QCOMPARE(c->parameter("r"), 0.1);  // not applied
    QCOMPARE(spin->value(), 0.1);      // the widget went back to the valid value
    QVERIFY(reason->isVisible());      // and says why
    QVERIFY2(reason->text().contains("(0, inf)") && reason->text().contains("-1"),
             qPrintable(reason->text()));
    QCOMPARE(window_->undoStack()->count(), undoCount);
    // A valid value clears the reason.
    typeInto(spin, "0.2");
    QCOMPARE(c->parameter("r"), 0.2);
    QVERIFY(!reason->isVisible());
  }

  void undoRestoresPreviousValue() {
    SimulationController* c = window_->controller();
    auto* spin = window_->parameterPanel()->spinBox("Omega0");
    typeInto(spin, "3");
    QCOMPARE(c->parameter("Omega0"), 3.0);
    QTest::keyClick(window_.get(), Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(c->parameter("Omega0"), 1.0);
    QCOMPARE(spin->value(), 1.0);
    QTest::keyClick(window_.get(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(c->parameter("Omega0"), 3.0);

    // One slider drag is one undo step, however many values it passed through.
    QSlider* slider = window_->parameterPanel()->slider("tilt");
    const int before = window_->undoStack()->count();
    slider->setSliderDown(true);
    for (int v : {520, 560, 600, 650}) slider->setValue(v);
    slider->setSliderDown(false);
    QCOMPARE(window_->undoStack()->count(), before + 1);
    QVERIFY(c->parameter("tilt") > 0);
    QTest::keyClick(window_.get(), Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(c->parameter("tilt"), 0.0);
  }

  void scrubBackAndResumeReproducesTrajectory() {
    SimulationController* c = window_->controller();
    c->pause();
    c->reset();
    QVERIFY(c->waitForTime(3.0, 30000));
    c->tick();
    const nhui::RunHistory& run = c->primary();
    const int ix = run.columnIndex("x"), iy = run.columnIndex("y");
    std::vector<double> t0(run.times()), x0(run.column(ix)), y0(run.column(iy));

    // Drag the timeline back to about a third of the recorded span.
    QSlider* timeline = window_->timeline();
    timeline->setSliderDown(true);
    timeline->setValue(timeline->maximum() / 3);
    timeline->setSliderDown(false);
    QVERIFY(!c->playing());
    const double resumeAt = c->displayTime();
    QVERIFY(resumeAt > 0.5 && resumeAt < 2.5);

    c->play();  // resumes from the recorded state at the scrubbed moment
    QVERIFY(c->waitForTime(3.0, 30000));
    c->pause();
    size_t compared = 0;
    double worst = 0;
    for (size_t k = 0; k < run.size() && k < t0.size(); ++k) {
      QVERIFY(std::abs(run.time(k) - t0[k]) < 1e-9);
      if (t0[k] < resumeAt || t0[k] > 3.0) continue;
      worst = std::max(
          {worst, std::abs(run.column(ix)[k] - x0[k]), std::abs(run.column(iy)[k] - y0[k])});
      ++compared;
    }
    QVERIFY(compared > 50);
    // The restart changes only where the adaptive steps fall: differences stay at the level
    // of the integrator tolerance (rtol 1e-10, atol 1e-12), far below 1e-7 m.
    QVERIFY2(worst < 1e-7, qPrintable(QString("largest difference %1").arg(worst)));
  }

  void saveLoadRoundTrip() {
    SimulationController* c = window_->controller();
    c->setParameter("Omega0", 1.5);
    c->setParameter("inertia_ratio", 2.0 / 3.0);
    c->setInitialOverrides({{"vx", 0.1}, {"x", 0.4}});
    QTemporaryDir dir;
    const QString path = dir.filePath("round_trip.json");
    QVERIFY(window_->saveScenario(path));

    MainWindow other(false);
    QVERIFY(other.openScenario(path));
    SimulationController* d = other.controller();
    QCOMPARE(d->system().name(), c->system().name());
    QCOMPARE(d->parameters(), c->parameters());
    QCOMPARE(d->initialState().size(), c->initialState().size());
    for (size_t i = 0; i < c->initialState().size(); ++i)
      QVERIFY(std::abs(d->initialState()[i] - c->initialState()[i]) < 1e-14);
    // A broken file is refused with a message and changes nothing.
    const QString bad = dir.filePath("bad.json");
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{ \"system\": \"no_such_system\" }");
    f.close();
    QVERIFY(!other.openScenario(bad));
    QVERIFY(!other.errorBanner()->isHidden());  // (the window itself is not shown)
    QVERIFY2(other.errorBanner()->text().contains("bad.json"),
             qPrintable(other.errorBanner()->text()));
    QCOMPARE(d->parameters(), c->parameters());
  }

  // The 3D view's camera — its orbit, zoom and target — is saved with a scenario and is where
  // the view starts when another window opens it.
  void theCameraComesBackWithTheScenario() {
    nhui::Session* session = window_->session();
    nhui::ViewState v = session->view();
    v.display.keepInView = false;  // the camera stays where it is put (saved with the view)
    session->setView(v, nhui::kViewDisplay);
    nhui::CameraPose pose;
    pose.position = {1.2, -0.4, 2.6};
    pose.focalPoint = {0.3, 0.1, 0.0};
    pose.viewUp = {0, 0, 1};
    pose.viewAngle = 27;
    window_->sceneView()->setCameraPose(pose);
    auto near = [](const nhui::CameraPose& a, const nhui::CameraPose& b) {
      for (int k = 0; k < 3; ++k)
        if (std::abs(a.position[k] - b.position[k]) > 1e-9 ||
            std::abs(a.focalPoint[k] - b.focalPoint[k]) > 1e-9)
          return false;
      return std::abs(a.viewAngle - b.viewAngle) < 1e-9;
    };
    QTRY_VERIFY(near(window_->sceneView()->cameraPose(), pose));
    QTemporaryDir dir;
    const QString path = dir.filePath("camera.json");
    QVERIFY(window_->saveScenario(path));

    MainWindow other(false);
    QVERIFY(nhtest::showActive(other));
    QVERIFY(other.openScenario(path));
    QVERIFY(other.session()->view().camera && near(*other.session()->view().camera, pose));
    QTRY_VERIFY2(near(other.sceneView()->cameraPose(), pose),
                 qPrintable(QString("position %1 %2 %3")
                                .arg(other.sceneView()->cameraPose().position[0])
                                .arg(other.sceneView()->cameraPose().position[1])
                                .arg(other.sceneView()->cameraPose().position[2])));
  }

  void viewGrabIsNonBlankAndChanges() {
    SimulationController* c = window_->controller();
    c->reset();
    c->setSpeed(4);
    c->play();
    QTRY_VERIFY_WITH_TIMEOUT(c->displayTime() > 0.3, 10000);
    QTest::qWait(200);
    const QImage a = window_->sceneView()->grabFramebuffer();
    QTRY_VERIFY_WITH_TIMEOUT(c->displayTime() > 2.5, 15000);
    QTest::qWait(200);
    const QImage b = window_->sceneView()->grabFramebuffer();
    QVERIFY(!a.isNull() && a.size() == b.size());
    QSet<QRgb> colours;
    double brightness = 0;
    long changed = 0;
    for (int y = 0; y < a.height(); y += 2)
      for (int x = 0; x < a.width(); x += 2) {
        const QRgb p = a.pixel(x, y);
        colours.insert(p);
        brightness += qGray(p);
        if (p != b.pixel(x, y)) ++changed;
      }
    brightness /= (a.width() / 2) * (a.height() / 2);
    // A black or uniform view (the bridge pitfall) has one colour and no brightness.
    QVERIFY2(colours.size() > 200, qPrintable(QString("%1 colours").arg(colours.size())));
    QVERIFY2(brightness > 30, qPrintable(QString("mean grey %1").arg(brightness)));
    QVERIFY2(changed > 200, qPrintable(QString("%1 pixels changed").arg(changed)));
  }

  void everySystemPlaysAndDraws() {
    SimulationController* c = window_->controller();
    for (const auto& system : nh::test::systemsWithDynamics()) {
      const QString name = QString::fromStdString(system->name());
      window_->chooseSystem(name);
      QCOMPARE(QString::fromStdString(c->system().name()), name);
      QTRY_VERIFY_WITH_TIMEOUT(c->displayTime() > 0.2, 10000);
      QVERIFY2(c->lastError().isEmpty(), qPrintable(c->lastError()));
      nh::SceneFrame frame;
      QVERIFY(c->displayedScene(0, frame));
      QVERIFY(!frame.bodies.empty());
    }
  }

  // A long status message is shown whole at a projector's 1024 px: the less important
  // permanent fields (frame rate, rate, residual) step aside while it is up and come back
  // after; the time stays. It used to run into the time label ("…(Ctrl+Zt = 4.21 s").
  void aLongStatusMessageIsNotCutIntoTheTimeLabel() {
    window_->resize(1024, 740);
    QTRY_COMPARE(window_->width(), 1024);
    auto* fit = window_->findChild<nhui::StatusMessageFit*>();
    QVERIFY(fit);
    QStatusBar* bar = window_->statusBar();
    bar->showMessage(
        QStringLiteral("Edited from t = 4.21 s: the history after it was replaced "
                       "(Ctrl+Z brings it back) and more words to make it long"));
    QTRY_VERIFY(fit->messageWidth() <= fit->roomForMessage());
    int shown = 0;
    for (QLabel* l : bar->findChildren<QLabel*>(QString(), Qt::FindDirectChildrenOnly))
      shown += l->isVisible();
    QVERIFY(shown >= 1);  // the time
    bar->clearMessage();
    int after = 0;
    for (QLabel* l : bar->findChildren<QLabel*>(QString(), Qt::FindDirectChildrenOnly))
      after += l->isVisible();
    QVERIFY2(after > shown, qPrintable(QString("%1 then %2").arg(shown).arg(after)));
  }

  // Parameters show the model's display name with their unit ("Ω₀ [rad/s]" for Omega0); the
  // identifier stays in the tooltip, for --set and files.
  void parametersShowTheirDisplayNames() {
    auto* label = window_->findChild<QLabel*>("label_Omega0");
    QVERIFY(label);
    QCOMPARE(label->text(), QStringLiteral("Ω₀ [rad/s]"));
    QVERIFY(label->toolTip().contains("(Omega0)"));
    auto* mass = window_->findChild<QLabel*>("label_m");
    QVERIFY(mass);
    QCOMPARE(mass->text(), QStringLiteral("m [kg]"));
  }

  void blowUpPausesWithMessageAndKeepsHistory() {
    SimulationController* c = window_->controller();
    window_->chooseSystem("central_force");
    // No angular momentum: the particle falls into the centre at t ≈ 1.11 s (1/r² force).
    c->setInitialOverrides({{"w2", 0.0}});
    c->setSpeed(4);
    c->reset();
    c->play();
    QTRY_VERIFY_WITH_TIMEOUT(!c->lastError().isEmpty(), 20000);
    QTRY_VERIFY_WITH_TIMEOUT(!c->playing(), 2000);
    QVERIFY2(c->lastError().contains("central_force"), qPrintable(c->lastError()));
    QVERIFY(window_->errorBanner()->isVisible());
    QVERIFY(window_->errorBanner()->text().contains("paused"));
    // Everything up to the failure is still there to scrub through.
    QVERIFY(c->primary().lastTime() > 1.0);
    c->seek(0.5);
    QCOMPARE(c->displayTime(), 0.5);
    // Fixing the cause and resuming works: give it angular momentum and reset.
    c->setInitialOverrides({});
    c->reset();
    c->play();
    QTRY_VERIFY_WITH_TIMEOUT(c->displayTime() > 1.5, 20000);
    QVERIFY(c->lastError().isEmpty());
  }

  // A parameter set right after choosing a system, before the first sample arrives (nhlab
  // --system appell_hamel --set a=0.2), governs the run: wound up, the weight's horizontal
  // speed reaches 0 at t* = 2 (1 + a²)/(a g) = 1.06 s, where the model file's `singular` entry
  // stops the run; the app pauses with that message, keeping the history before t*.
  void parameterSetAtTheStartGovernsTheRunAndASingularPointPauses() {
    SimulationController* c = window_->controller();
    window_->chooseSystem("appell_hamel");
    c->setParameter("a", 0.2);
    c->setSpeed(4);
    c->play();
    QTRY_VERIFY_WITH_TIMEOUT(!c->lastError().isEmpty(), 20000);
    QTRY_VERIFY_WITH_TIMEOUT(!c->playing(), 2000);
    QVERIFY2(c->lastError().contains("singular point at t = 1.06014"), qPrintable(c->lastError()));
    QVERIFY(window_->errorBanner()->isVisible());
    QVERIFY(c->primary().lastTime() > 1.0 && c->primary().lastTime() < 1.0602);
    c->setParameter("a", -0.2);  // let down instead: it speeds up for good
    c->reset();
    c->play();
    QTRY_VERIFY_WITH_TIMEOUT(c->displayTime() > 1.5, 20000);
    QVERIFY(c->lastError().isEmpty());
  }

  void draggingTheBallSetsTheInitialPosition() {
    SimulationController* c = window_->controller();
    nhui::SceneView* view = window_->sceneView();
    view->setEditInitial(true);
    QVERIFY(view->editInitial());
    QVERIFY(c->waitForTime(0, 10000));  // the restart is posted: its start comes next
    QTest::qWait(100);
    nh::SceneFrame frame;
    QVERIFY(c->displayedScene(0, frame));
    const Eigen::Vector3d ball = frame.bodies.at(1).position;
    const double world[3] = {ball.x(), ball.y(), ball.z()};
    const QPoint from = view->worldToWidget(world).toPoint();
    const QPoint to = from + QPoint(-60, 0);
    const int undoCount = window_->undoStack()->count();
    QTest::mousePress(view, Qt::LeftButton, Qt::NoModifier, from);
    QMouseEvent move(QEvent::MouseMove, QPointF(to), view->mapToGlobal(QPointF(to)), Qt::NoButton,
                     Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(view, &move);
    QTest::mouseRelease(view, Qt::LeftButton, Qt::NoModifier, to);
    QVERIFY(c->initialOverrides().count("x"));
    QVERIFY(std::abs(c->initialOverrides().at("x") - 0.6) > 0.01);  // moved from the default
    QCOMPARE(window_->undoStack()->count(), undoCount + 1);
    window_->undoStack()->undo();
    QVERIFY(c->initialOverrides().empty());
  }

  // The window reads what can be dragged, and whether there is a moving frame to view from,
  // from each system's SceneEditing description: dragging the named body adds its
  // displacement in the plane it moves in (the ground, an incline) to the named coordinates,
  // Ctrl+dragging from the named arrow sets exactly the named velocities (for the sleigh: its
  // forward speed v, along its axis).
  void draggingFollowsEachSystemsDescription() {
    SimulationController* c = window_->controller();
    nhui::SceneView* view = window_->sceneView();
    for (const auto& system : nh::test::systemsWithDynamics()) {
      window_->chooseSystem(QString::fromStdString(system->name()));
      const QString name = QString::fromStdString(system->name());
      const nh::SceneEditing& editing = system->info().editing;
      QCOMPARE(window_->tableFrameAction()->isEnabled(), editing.movingFrame);
      QCOMPARE(view->canEditInitial(), editing.drag.has_value());
      window_->editInitialAction()->setChecked(true);
      QCOMPARE(view->editInitial(), editing.drag.has_value());
      if (!editing.drag) {
        QVERIFY(!window_->editInitialAction()->isChecked());
        continue;
      }
      const nh::DragHandle& drag = *editing.drag;
      auto bodyPosition = [&] {
        nh::SceneFrame frame;
        c->waitForTime(0, 10000);  // a drag's restart is posted: its start comes next
        c->tick();
        if (!c->displayedScene(0, frame)) return Eigen::Vector3d(Eigen::Vector3d::Zero());
        for (const auto& b : frame.bodies)
          if (b.name == drag.body) return b.position;
        return Eigen::Vector3d(Eigen::Vector3d::Zero());
      };
      auto stateValue = [&](const std::string& variable) {
        const nh::StateLayout& layout = c->primary().layout().state;
        return c->initialState()[layout.index[layout.find(variable)]];
      };
      auto dragMouse = [&](const QPoint& from, const QPoint& to, Qt::KeyboardModifiers mods) {
        QTest::mousePress(view, Qt::LeftButton, mods, from);
        QMouseEvent move(QEvent::MouseMove, QPointF(to), view->mapToGlobal(QPointF(to)),
                         Qt::NoButton, Qt::LeftButton, mods);
        QApplication::sendEvent(view, &move);
        QTest::mouseRelease(view, Qt::LeftButton, mods, to);
      };
      QTest::qWait(50);

      const Eigen::Vector3d before = bodyPosition();
      const double x0 = stateValue(drag.x), y0 = stateValue(drag.y);
      const double world[3] = {before.x(), before.y(), before.z()};
      const QPoint from = view->worldToWidget(world).toPoint();
      dragMouse(from, from + QPoint(-50, 20), Qt::NoModifier);
      const Eigen::Vector3d moved = bodyPosition() - before;
      QVERIFY2(moved.norm() > 1e-3, qPrintable(name));
      QVERIFY2(c->initialOverrides().count(drag.x) && c->initialOverrides().count(drag.y),
               qPrintable(name));
      // Displacement in the body's plane = change of the coordinates (1e-9: rounding only):
      // on the ground x along x (the pendulum's bob also goes up or down its sphere); on an
      // incline (x up or down the slope) x is the length along the slope.
      const double dx = stateValue(drag.x) - x0;
      const bool alongX = std::abs(dx - moved.x()) < 1e-9;
      const bool alongSlope = std::abs(std::abs(dx) - std::hypot(moved.x(), moved.z())) < 1e-9;
      QVERIFY2(alongX || alongSlope, qPrintable(name));
      QVERIFY2(std::abs(stateValue(drag.y) - y0 - moved.y()) < 1e-9, qPrintable(name));

      if (!drag.arrow.empty()) {
        nh::SceneFrame frame;
        QVERIFY(c->displayedScene(0, frame));
        Eigen::Vector3d origin = Eigen::Vector3d::Zero();
        for (const auto& a : frame.arrows)
          if (a.name == drag.arrow) origin = a.origin;
        const double o[3] = {origin.x(), origin.y(), origin.z()};
        const std::map<std::string, double> positionOnly = c->initialOverrides();
        const QPoint start = view->worldToWidget(o).toPoint();
        dragMouse(start, start + QPoint(40, -30), Qt::ControlModifier);
        std::map<std::string, double> added = c->initialOverrides();
        for (const auto& [k, v] : positionOnly) added.erase(k);
        std::set<std::string> expected;
        for (const std::string& v : {drag.vx, drag.vy})
          if (!v.empty()) expected.insert(v);
        std::set<std::string> got;
        for (const auto& [k, v] : added) got.insert(k);
        QVERIFY2(got == expected, qPrintable(name));
        // Free velocities start as dragged; dependent ones (the disk's vx, vy) are completed
        // onto the constraints from there.
        const auto& free = system->info().independentVelocities;
        for (const std::string& v : expected)
          if (std::find(free.begin(), free.end(), v) != free.end())
            QVERIFY2(std::abs(stateValue(v) - added.at(v)) < 1e-9, qPrintable(name));
      }
      window_->editInitialAction()->setChecked(false);
    }
  }

  void compareRunsShareInitialState() {
    SimulationController* c = window_->controller();
    c->setCompare(nhui::CompareMode::Vakonomic);
    QVERIFY(c->comparison());
    QVERIFY(c->waitForTime(1.0, 30000));
    const auto x = c->primary().state(0), v = c->comparison()->state(0);
    for (size_t i = 0; i < x.size(); ++i) QCOMPARE(v[i], x[i]);
    c->setCompare(nhui::CompareMode::Ghost, "Omega0", 2.0);
    QVERIFY(c->waitForTime(1.0, 30000));
    QCOMPARE(c->comparison()->parametersAt(0)[c->system().parameterIndex("Omega0")], 2.0);
    QCOMPARE(c->primary().parametersAt(0)[c->system().parameterIndex("Omega0")], 1.0);
  }

 private:
  std::unique_ptr<MainWindow> window_;
};

int main(int argc, char** argv) {
  QSurfaceFormat::setDefaultFormat(nhui::VtkViewWidget::vtkSurfaceFormat());
  QApplication app(argc, argv);
  QApplication::setOrganizationName("NonholonomicLabTests");
  MainWindowTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "main_window_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
