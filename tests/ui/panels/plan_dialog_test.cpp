// Simulation ▸ Plan a motion… end to end (ui/panels/plan_dialog, ui/session's PlanSolver and
// Session::playPlan, the controller's planned runs): a control model chosen shows its start
// with a hint instead of an error and opens the dialog; Brockett's integrator solved on the
// worker thread, listed, played as the run (controls, costates and cost as columns, offered
// by the plots; the start and target drawn faint in the 3D view) and undone; Cancel; a refused plan
// leaves the running simulation untouched; a scenario file with a plan opens, plays its lowest-cost
// extremal (or the one it was saved playing) and saves the plan again; the rows fit the dialog
// and show their units, the costs share one format; a re-planned lesson's bar and scene
// follow the new target; the target ghost in the 3D view dragged (and turned) sets the target
// fields, and the fields move it.
#include "ui/panels/plan_dialog.h"

#include <vtkCamera.h>
#include <vtkRenderer.h>

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QMouseEvent>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QUndoStack>
#include <QtTest>
#include <algorithm>
#include <cmath>

#include "core/io/scenario_file.h"
#include "core/model/catalogue.h"
#include "core/model/model_file.h"
#include "spin_box_typing.h"
#include "ui/export/export_dialog.h"
#include "ui/export/plan_source.h"
#include "ui/plot/plot_panels.h"
#include "ui/scene/scene_view.h"
#include "ui/session/session.h"
#include "ui/sim/simulation_controller.h"
#include "ui/window/main_window.h"
#include "window_fixture.h"

using nhui::MainWindow;
using nhui::PlanDialog;
using nhui::SimulationController;

namespace {

const char* kBrockett = R"(format: nonholonomic-lab-system
version: 1
name: brockett_plan_test
coordinates: [x, y, z]
velocities: [vx, vy, vz]
controls: [u1, u2]
control_section: {vx: u1, vy: u2, vz: x*u2 - y*u1}
cost: 0.5*(u1*u1 + u2*u2)
scene:
  extent: 1
  bodies:
    - {name: point, shape: point, position: [x, y, z], size: [0.05, 0.05, 0.05]}
)";

bool hasColumn(const nhui::RunHistory& run, const char* name) { return run.columnIndex(name) >= 0; }

}  // namespace

class PlanDialogTest : public QObject {
  Q_OBJECT

 private slots:
  void init() {
    window_ = std::make_unique<MainWindow>(false);
    QVERIFY(nhtest::showActive(*window_));
  }
  void cleanup() { window_.reset(); }

  // Choosing a control model: its start, a hint (no singular-matrix error), the dialog.
  void controlModelShowsStartAndOffersThePlan() {
    applyBrockett();
    SimulationController* c = window_->controller();
    QVERIFY(c->isControlModel());
    QVERIFY(c->showingPlan());
    QVERIFY(!c->plan());
    QCOMPARE(c->primary().size(), size_t(1));
    QVERIFY(window_->lastErrorMessage().isEmpty());
    QVERIFY(window_->errorBanner()->text().contains("Plan a motion"));
    QTRY_VERIFY(window_->planDialog() && window_->planDialog()->isVisible());
  }

  // Solve, list, play, undo, redo.
  void solveListPlayUndo() {
    applyBrockett();
    PlanDialog* dialog = window_->showPlanDialog();
    dialog->endTime()->setValue(1);
    dialog->starts()->setValue(24);
    dialog->valueBox("z")->setValue(1);
    QTest::mouseClick(dialog->solveButton(), Qt::LeftButton);
    QVERIFY(window_->session()->planSolver()->wait(60000));
    QVERIFY2(dialog->results()->topLevelItemCount() >= 1, qPrintable(dialog->message()->text()));
    // J_k = kπ|z|/T: the cheapest extremal costs π.
    QVERIFY(std::abs(dialog->outcome()->result.extremals.front().cost - M_PI) < 1e-6);
    QVERIFY(dialog->play(0));
    SimulationController* c = window_->controller();
    QVERIFY(c->plan());
    QCOMPARE(c->plan()->tEnd, 1.0);
    for (const char* column : {"u1", "u2", "xi_vx", "cost", "x", "vz"})
      QVERIFY2(hasColumn(c->primary(), column), column);
    QVERIFY(std::abs(c->primary().lastTime() - 1) < 1e-12);
    const int z = c->primary().columnIndex("z");
    QVERIFY(std::abs(c->primary().column(z).back() - 1) < 1e-6);
    QVERIFY(c->playing());
    c->seek(0.5);
    QCOMPARE(c->displayTime(), 0.5);
    checkPlotsOfferThePlan();
    window_->sceneView()->refresh();
    QCOMPARE(window_->sceneView()->planGhostBodies(), 2);  // the point at the start and at T
    // File ▸ Export offers the planned motion: its dialog opens for T, and nothing is refused.
    exportAction()->trigger();
    auto* exportDialog = window_->findChild<nhui::ExportDialog*>();
    QVERIFY(exportDialog);
    QCOMPARE(exportDialog->settings().tEnd, 1.0);
    QVERIFY2(window_->lastErrorMessage().isEmpty(), qPrintable(window_->lastErrorMessage()));
    // ...and writes it: the MP4 of the played extremal, and beside it the scenario that solves
    // the same plan again (nhsim export of it gives the same motion).
    QTemporaryDir dir;
    const QString video = dir.filePath("plan.mp4");
    exportDialog->setOutputPath(video);
    QSignalSpy finished(exportDialog, &nhui::ExportDialog::exportFinished);
    exportDialog->startExport();
    QVERIFY(finished.wait(180000));
    QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(2).toString()));
    QVERIFY(QFileInfo(video).size() > 0);
    const nh::Scenario sidecar =
        nh::readScenarioFile(nhui::scenarioPathFor(video.toStdString()).string());
    const auto plan = nhui::scenarioPlan(sidecar);
    QVERIFY(plan);
    QCOMPARE(plan->tEnd, 1.0);
    QCOMPARE(plan->targets.at("z"), 1.0);
    exportDialog->close();
    window_->undoStack()->undo();
    QVERIFY(!c->plan());
    QCOMPARE(c->primary().size(), size_t(1));
    window_->sceneView()->refresh();
    QCOMPARE(window_->sceneView()->planGhostBodies(), 0);
    QVERIFY(!window_->timeSeriesPanel()->variables().contains("cost"));
    window_->undoStack()->redo();
    QVERIFY(c->plan());
  }

  // Cancel stops the solve; what is shown stays.
  void cancelKeepsTheRun() {
    applyBrockett();
    PlanDialog* dialog = window_->showPlanDialog();
    dialog->starts()->setValue(64);
    dialog->endTime()->setValue(5);
    dialog->valueBox("z")->setValue(3);
    dialog->solve();
    QVERIFY(dialog->cancelButton()->isEnabled());
    dialog->cancel();
    QVERIFY(window_->session()->planSolver()->wait(60000));
    QVERIFY2(dialog->message()->text().contains("Cancelled"),
             qPrintable(dialog->message()->text()));
    QVERIFY(!window_->controller()->plan());
    QVERIFY(dialog->solveButton()->isEnabled());
  }

  // A refused plan (an unknown target) is said in one line; the simulation goes on.
  void badInputKeepsTheRunningSimulation() {
    window_->chooseSystem("nh_particle");
    SimulationController* c = window_->controller();
    QVERIFY(c->waitForTime(0.2, 10000));
    PlanDialog* dialog = window_->showPlanDialog();
    nhui::PlanSettings bad;
    bad.tEnd = 1;
    bad.targets = {{"nope", 1}};
    QString error;
    QVERIFY(window_->session()->solvePlan(bad, error));
    QVERIFY(window_->session()->planSolver()->wait(60000));
    QVERIFY2(dialog->message()->text().contains("nope"), qPrintable(dialog->message()->text()));
    QVERIFY(!dialog->message()->text().contains('\n'));
    QVERIFY(!c->showingPlan());
    QCOMPARE(QString::fromStdString(c->system().name()), QString("nh_particle"));
    const double before = c->primary().lastTime();
    QVERIFY(c->waitForTime(before + 0.1, 10000));
    // No target checked: refused in the dialog before solving.
    for (const char* name : {"x", "y", "z"}) dialog->fixedBox(name)->setChecked(false);
    dialog->solve();
    QVERIFY(dialog->message()->text().contains("at least one target"));
    QVERIFY(!window_->session()->planSolver()->running());
  }

  // A vakonomic plan plays with the nonholonomic motion from its v(0) as the comparison.
  void vakonomicPlanHasANonholonomicCompanion() {
    window_->chooseSystem("nh_particle");
    PlanDialog* dialog = window_->showPlanDialog();
    dialog->endTime()->setValue(1);
    dialog->starts()->setValue(2);
    dialog->valueBox("x")->setValue(1);
    dialog->valueBox("y")->setValue(0);
    dialog->valueBox("z")->setValue(0.2);
    dialog->solve();
    QVERIFY(window_->session()->planSolver()->wait(60000));
    QVERIFY2(dialog->play(0), qPrintable(dialog->message()->text()));
    SimulationController* c = window_->controller();
    QVERIFY(c->comparison());
    QVERIFY(c->primary().dynamics() == nh::DynamicsKind::Vakonomic);
    QVERIFY(c->comparison()->dynamics() == nh::DynamicsKind::Nonholonomic);
    QVERIFY(hasColumn(c->primary(), "mu_1"));
    window_->undoStack()->undo();
    QVERIFY(!c->showingPlan());
    QVERIFY(!c->comparison());
  }

  // A scenario file with a plan opens, plays its cheapest extremal, and saves the plan.
  void scenarioWithAPlanOpensAndPlays() {
    QTemporaryDir dir;
    const QString model = dir.filePath("brockett.yaml");
    QFile m(model);
    QVERIFY(m.open(QIODevice::WriteOnly));
    m.write(kBrockett);
    m.close();
    const QString scenario = dir.filePath("plan.json");
    QFile s(scenario);
    QVERIFY(s.open(QIODevice::WriteOnly));
    s.write(R"({"format": "nonholonomic-lab-scenario", "version": 2, "system": "brockett.yaml",
      "view": {"version": 1, "plan": {"t_end": 2, "targets": {"x": 0, "y": 0, "z": 1},
      "starts": 24}}})");
    s.close();
    QVERIFY2(window_->openScenario(scenario), qPrintable(window_->lastErrorMessage()));
    QVERIFY(window_->session()->planSolver()->wait(60000));
    SimulationController* c = window_->controller();
    QVERIFY2(c->plan(), qPrintable(window_->lastErrorMessage()));
    QCOMPARE(c->plan()->tEnd, 2.0);
    QCOMPARE(c->plan()->starts, 24);
    QVERIFY(std::abs(c->primary().lastTime() - 2) < 1e-12);
    QVERIFY(!window_->undoStack()->canUndo());  // the file's state, not an edit
    // Saving writes the plan played (the view's JSON reads back to the same settings).
    const QString saved = QDir(QDir::tempPath()).filePath("nh_plan_dialog_saved_plan.json");
    QVERIFY2(window_->saveScenario(saved), qPrintable(window_->lastErrorMessage()));
    const nhui::ScenarioView back =
        nhui::parseScenarioView(nh::readScenarioFile(saved.toStdString()).view);
    QFile::remove(saved);
    QVERIFY(back.plan && *back.plan == *c->plan());
    // A bad plan value is refused with one line.
    QFile bad(scenario);
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write(R"({"format": "nonholonomic-lab-scenario", "version": 2, "system": "brockett.yaml",
      "view": {"version": 1, "plan": {"t_end": -1, "targets": {"z": 1}}}})");
    bad.close();
    QVERIFY(!window_->openScenario(scenario));
    QVERIFY2(window_->lastErrorMessage().contains("plan.t_end"),
             qPrintable(window_->lastErrorMessage()));
  }

  // Saved after playing extremal 2, a scenario reopens playing extremal 2 (it reopened
  // playing the first).
  void savedScenarioReopensTheExtremalPlayed() {
    QTemporaryDir dir;
    const QString model = dir.filePath("brockett.yaml");
    QFile m(model);
    QVERIFY(m.open(QIODevice::WriteOnly));
    m.write(kBrockett);
    m.close();
    const QString scenario = dir.filePath("plan.json");
    QFile s(scenario);
    QVERIFY(s.open(QIODevice::WriteOnly));
    s.write(R"({"format": "nonholonomic-lab-scenario", "version": 2, "system": "brockett.yaml",
      "view": {"version": 1, "plan": {"t_end": 1, "targets": {"x": 0, "y": 0, "z": 1},
      "starts": 24}}})");
    s.close();
    QVERIFY2(window_->openScenario(scenario), qPrintable(window_->lastErrorMessage()));
    QVERIFY(window_->session()->planSolver()->wait(60000));
    SimulationController* c = window_->controller();
    QVERIFY(c->plan());
    QCOMPARE(c->plan()->played, 0);
    PlanDialog* dialog = window_->showPlanDialog();
    dialog->solve();
    QVERIFY(window_->session()->planSolver()->wait(60000));
    QVERIFY2(dialog->results()->topLevelItemCount() >= 2, qPrintable(dialog->message()->text()));
    // J_k = kπ|z|/T: the second extremal costs more than the first (π).
    const double second = dialog->outcome()->result.extremals[1].cost;
    QVERIFY(second > dialog->outcome()->result.extremals[0].cost + 1e-3);
    QVERIFY(dialog->play(1));
    QCOMPARE(c->plan()->played, 1);
    const QString saved = dir.filePath("saved.json");
    QVERIFY2(window_->saveScenario(saved), qPrintable(window_->lastErrorMessage()));
    QFile back(saved);
    QVERIFY(back.open(QIODevice::ReadOnly));
    QVERIFY2(back.readAll().contains("\"played\": 2"), "the saved plan does not say which plays");
    back.close();
    QVERIFY2(window_->openScenario(saved), qPrintable(window_->lastErrorMessage()));
    QVERIFY(window_->session()->planSolver()->wait(60000));
    QTRY_VERIFY(c->plan() && c->plan()->played == 1);
    const int cost = c->primary().columnIndex("cost");
    QVERIFY(cost >= 0);
    // Along an extremal of Brockett's integrator |u| is constant: the cost column holds J / T
    // = J (T = 1), the second extremal's, not the first's π.
    QVERIFY2(std::abs(c->primary().column(cost).back() - second) < 1e-6,
             qPrintable(QString::number(c->primary().column(cost).back())));
  }

  // The plate ball's attitude row fits the dialog (its angle hid behind a scroll bar), and a
  // coordinate's value at T shows its unit, as the plots do ("heading [rad]").
  void rowsFitAndShowUnits() {
    window_->chooseSystem("plate_ball");
    PlanDialog* dialog = window_->showPlanDialog();
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    QTest::qWait(50);
    auto* scroll = dialog->findChild<QScrollArea*>();
    QVERIFY(scroll);
    QVERIFY2(!scroll->horizontalScrollBar()->isVisible(),
             qPrintable(QString("rows want %1 px, the dialog shows %2")
                            .arg(scroll->widget()->minimumSizeHint().width())
                            .arg(scroll->viewport()->width())));
    QDoubleSpinBox* angle = nullptr;
    for (QDoubleSpinBox* box : dialog->findChildren<QDoubleSpinBox*>())
      if (box->suffix() == QStringLiteral("°")) angle = box;
    QVERIFY(angle && angle->isVisible());
    const QRect inViewport(angle->mapTo(scroll->viewport(), QPoint(0, 0)), angle->size());
    QVERIFY2(scroll->viewport()->rect().contains(inViewport),
             qPrintable(QString("angle at x %1..%2, viewport %3 wide")
                            .arg(inViewport.left())
                            .arg(inViewport.right())
                            .arg(scroll->viewport()->width())));
    QCOMPARE(dialog->valueBox("x")->suffix(), QStringLiteral(" m"));
    window_->chooseSystem("unicycle");
    dialog->reload();
    QCOMPARE(dialog->valueBox("theta")->suffix(), QStringLiteral(" rad"));
    QCOMPARE(dialog->valueBox("y")->suffix(), QStringLiteral(" m"));
  }

  // The costs of one list share one format: π, 2π, … printed by 'g' read 3.14159 and 12.5664
  // side by side; tiny or huge costs all go to scientific notation.
  void costsShareOneFormat() {
    const QStringList k = nhui::costTexts({M_PI, 2 * M_PI, 3 * M_PI, 4 * M_PI});
    QCOMPARE(k, (QStringList{"3.1416", "6.2832", "9.4248", "12.5664"}));
    const QStringList mixed = nhui::costTexts({0.401, 0.5, 2.0});
    QCOMPARE(mixed, (QStringList{"0.40100", "0.50000", "2.00000"}));
    const QStringList tiny = nhui::costTexts({3.84e-16, 6e-18});
    QCOMPARE(tiny, (QStringList{"3.8400e-16", "6.0000e-18"}));
  }

  // Parallel parking re-planned to y = 0.5: the lesson bar says where this plan goes (the
  // note said 1 m still), and no parking place stays painted at y = 1; the car ends at 0.5.
  void replannedLessonFollowsTheTarget() {
    QVERIFY(window_->openScenario(QStringLiteral(":/examples/parallel_parking.json")));
    QVERIFY(window_->session()->planSolver()->wait(60000));
    SimulationController* c = window_->controller();
    QTRY_VERIFY(c->plan());
    auto* note = window_->findChild<QLabel*>("lessonNote");
    QVERIFY(note);
    QVERIFY(note->text().contains("1 m to its left"));
    PlanDialog* dialog = window_->showPlanDialog();
    dialog->valueBox("y")->setValue(0.5);
    dialog->solve();
    QVERIFY(window_->session()->planSolver()->wait(60000));
    QVERIFY2(dialog->play(0), qPrintable(dialog->message()->text()));
    QTRY_VERIFY(c->plan() && c->plan()->targets.at("y") == 0.5);
    QVERIFY2(note->text().contains("y = 0.5 m"), qPrintable(note->text()));
    QVERIFY2(!note->text().contains("1 m to its left"), qPrintable(note->text()));
    nh::SceneFrame end;
    c->seek(c->primary().lastTime());
    QVERIFY(c->displayedScene(0, end));
    bool carThere = false;
    for (const nh::SceneBody& b : end.bodies) {
      QVERIFY2(std::abs(b.position.y() - 1) > 0.2, b.name.c_str());  // nothing left at y = 1
      if (b.name == "car") carThere = std::abs(b.position.y() - 0.5) < 1e-3;
    }
    QVERIFY(carThere);
    // Undo brings back the lesson's plan and its note.
    window_->undoStack()->undo();
    QTRY_VERIFY(c->plan() && c->plan()->targets.at("y") == 1);
    QVERIFY(note->text().contains("1 m to its left"));
  }

  // The target is set by dragging its ghost in the 3D view: a drag of the ghost by a known
  // screen offset moves the dialog's x and y by where the mouse ray meets the ghost's plane of
  // motion (the ground here), and typing in a field moves the ghost.
  void draggingTheGhostSetsTheTargetFields() {
    applyBrockett();
    PlanDialog* dialog = window_->showPlanDialog();
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    nhui::SceneView* view = window_->sceneView();
    QTRY_VERIFY(view->targetGhostShown() && view->targetGhostPoint());
    nhtest::typeInto(dialog->valueBox("x"), "0.2");
    nhtest::typeInto(dialog->valueBox("z"), "0.1");
    const Eigen::Vector3d before = ghostBody(view, "point");
    QCOMPARE(before.x(), 0.2);  // the field moved the ghost
    QCOMPARE(before.z(), 0.1);
    const QPoint press = view->targetGhostPoint()->toPoint();
    const QPoint release = press + QPoint(60, -25);
    // Where the rays through the press and the release meet the horizontal plane through the
    // ghost: the ghost moves by their difference.
    const Eigen::Vector3d from = groundHit(view, press, before.z());
    const Eigen::Vector3d to = groundHit(view, release, before.z());
    dragMouse(view, press, release, Qt::NoModifier);
    const Eigen::Vector3d expected = before + (to - from);
    QVERIFY2(
        std::abs(dialog->valueBox("x")->value() - expected.x()) < 1e-5,
        qPrintable(
            QString("x %1, expected %2").arg(dialog->valueBox("x")->value()).arg(expected.x())));
    QVERIFY(std::abs(dialog->valueBox("y")->value() - expected.y()) < 1e-5);
    QVERIFY(std::abs(dialog->valueBox("x")->value() - 0.2) > 0.02);  // it did move
    QCOMPARE(dialog->valueBox("z")->value(), 0.1);                   // the height is left alone
    // The ghost sits under the mouse after the drag.
    const double off = QLineF(*view->targetGhostPoint(), QPointF(release)).length();
    QVERIFY2(off < 1.5, qPrintable(QString("ghost %1 px from the mouse").arg(off)));
    // Typing moves the ghost; unchecking a row puts that coordinate back at the start.
    nhtest::typeInto(dialog->valueBox("y"), "-0.3");
    QCOMPARE(ghostBody(view, "point").y(), -0.3);
    dialog->fixedBox("x")->setChecked(false);
    QCOMPARE(ghostBody(view, "point").x(), window_->controller()->initialState()[0]);
    // Closing the dialog hides the ghost.
    dialog->close();
    QVERIFY(!view->targetGhostShown());
  }

  // An attitude is set by turning the ghost: Ctrl+drag turns it like a trackball (the side
  // facing the camera follows the mouse, 0.01 rad a pixel, about the screen's up for a
  // sideways drag), and the attitude row's axis and angle follow; typed, they turn it.
  void turningTheGhostSetsTheAttitude() {
    window_->chooseSystem("rigid_body_control");
    PlanDialog* dialog = window_->showPlanDialog();
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    nhui::SceneView* view = window_->sceneView();
    QTRY_VERIFY(view->targetGhostPoint());
    QDoubleSpinBox* angle = nullptr;
    for (QDoubleSpinBox* box : dialog->findChildren<QDoubleSpinBox*>())
      if (box->suffix() == QStringLiteral("°")) angle = box;
    QVERIFY(angle);
    nhtest::typeInto(angle, "0");
    const QPoint press = view->targetGhostPoint()->toPoint();
    dragMouse(view, press, press + QPoint(50, 0), Qt::ControlModifier);
    QVERIFY2(std::abs(angle->value() - 50 * 0.01 * 180 / M_PI) < 2e-3,
             qPrintable(QString("angle %1°").arg(angle->value())));
    double up[3];
    view->renderer()->GetActiveCamera()->GetViewUp(up);
    double toward[3];
    view->renderer()->GetActiveCamera()->GetDirectionOfProjection(toward);
    const Eigen::Vector3d d(toward[0], toward[1], toward[2]);
    const Eigen::Vector3d u(up[0], up[1], up[2]);
    const Eigen::Vector3d screenUp = (u - u.dot(d) * d).normalized();  // up as the screen shows it
    const Eigen::Vector3d axis = attitudeAxis(dialog);
    QVERIFY2((axis - screenUp).norm() < 3e-3,
             qPrintable(QString("axis %1 %2 %3").arg(axis.x()).arg(axis.y()).arg(axis.z())));
    // Typed: 90° about z turns the ghost's body so.
    QList<QDoubleSpinBox*> boxes;
    for (QDoubleSpinBox* box : dialog->findChildren<QDoubleSpinBox*>())
      if (box->prefix().size() == 2) boxes << box;
    QCOMPARE(boxes.size(), 3);
    nhtest::typeInto(boxes[0], "0");
    nhtest::typeInto(boxes[1], "0");
    nhtest::typeInto(boxes[2], "1");
    nhtest::typeInto(angle, "90");
    const Eigen::Quaterniond expected(Eigen::AngleAxisd(M_PI / 2, Eigen::Vector3d::UnitZ()));
    for (const auto& b : view->targetGhostFrame().bodies)
      if (b.name == "body") QVERIFY(b.orientation.angularDistance(expected) < 1e-9);
  }

 private:
  QAction* exportAction() const {
    for (QAction* a : window_->findChildren<QAction*>())
      if (a->text().startsWith("&Animation")) return a;
    return nullptr;
  }
  // After Play the plots offer the plan's controls, costates and cost; cost ends at π.
  void checkPlotsOfferThePlan() {
    nhui::TimeSeriesPanel* series = window_->timeSeriesPanel();
    auto* list = series->findChild<QListWidget*>("timeSeriesVariables");
    QStringList offered;
    for (int i = 0; i < list->count(); ++i) offered << list->item(i)->data(Qt::UserRole).toString();
    for (const char* column : {"u1", "xi_vz", "cost"}) QVERIFY2(offered.contains(column), column);
    QVERIFY(!offered.contains("energy"));
    QVERIFY(series->variables().contains("cost"));  // a plan's default
    series->setVariables({"cost"});
    const std::vector<nhui::PlotPane>& panes = series->plot()->panes();
    QCOMPARE(panes.size(), size_t(1));
    QVERIFY(!panes[0].curves.empty());
    const nhui::PlotCurve& curve = panes[0].curves[0];
    QVERIFY(curve.count >= 2);
    QVERIFY(std::abs(curve.y[curve.count - 1] - M_PI) < 1e-6);
    auto* y = window_->phasePanel()->findChild<QComboBox*>("phaseY");
    QVERIFY(y->findData("xi_vz") >= 0);
    QVERIFY(y->findData("u2") >= 0);
  }
  void applyBrockett() {
    auto system = nh::model::loadModelText(kBrockett, "brockett.yaml");
    QString error;
    QVERIFY2(window_->session()->applyModel(system, error), qPrintable(error));
    nh::registerSessionSystem(system);  // as the model editor's Apply does: exports find it
  }
  static Eigen::Vector3d ghostBody(nhui::SceneView* view, const std::string& name) {
    for (const auto& b : view->targetGhostFrame().bodies)
      if (b.name == name) return b.position;
    return Eigen::Vector3d::Constant(std::nan(""));
  }
  static Eigen::Vector3d groundHit(nhui::SceneView* view, const QPointF& at, double height) {
    double o[3], d[3];
    view->pickRay(at, o, d);
    const double s = (height - o[2]) / d[2];
    return {o[0] + s * d[0], o[1] + s * d[1], height};
  }
  static void dragMouse(QWidget* view, const QPoint& from, const QPoint& to,
                        Qt::KeyboardModifiers modifiers) {
    QTest::mousePress(view, Qt::LeftButton, modifiers, from);
    QMouseEvent move(QEvent::MouseMove, QPointF(to), view->mapToGlobal(QPointF(to)), Qt::NoButton,
                     Qt::LeftButton, modifiers);
    QApplication::sendEvent(view, &move);
    QTest::mouseRelease(view, Qt::LeftButton, modifiers, to);
  }
  // The attitude row's axis as a unit vector.
  static Eigen::Vector3d attitudeAxis(PlanDialog* dialog) {
    Eigen::Vector3d axis = Eigen::Vector3d::Zero();
    for (QDoubleSpinBox* box : dialog->findChildren<QDoubleSpinBox*>())
      if (box->prefix().size() == 2)
        axis[QStringLiteral("xyz").indexOf(box->prefix()[0])] = box->value();
    return axis.normalized();
  }
  std::unique_ptr<MainWindow> window_;
};

QTEST_MAIN(PlanDialogTest)
#include "plan_dialog_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
