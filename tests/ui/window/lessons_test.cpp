// Classroom features of the window: lessons (scenario files with a "view" part) open with
// their note, speed, plots and comparison; presentation mode gives the 3D view most of the
// screen; the speed box takes presets and typed factors; unsaved edits mark the title and
// are asked about on quitting; the light and dark themes reach the palette, plots and scene;
// the export dialog exports what the lesson's view shows; the lesson on long runs compares two
// integrators.
#include <vtkCamera.h>
#include <vtkMatrix4x4.h>
#include <vtkNew.h>

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QScrollArea>
#include <QSlider>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QToolBar>
#include <QUndoStack>
#include <QtTest>
#include <memory>

#include "core/io/scenario_file.h"
#include "message_boxes.h"
#include "resources/app_resources.h"
#include "spin_box_typing.h"
#include "ui/export/animation_exporter.h"
#include "ui/export/export_dialog.h"
#include "ui/panels/parameter_panel.h"
#include "ui/plot/plot_panels.h"
#include "ui/scene/scene_view.h"
#include "ui/session/undo_commands.h"
#include "ui/sim/run_history.h"
#include "ui/sim/run_style.h"
#include "ui/window/main_window.h"
#include "window_fixture.h"

using nhtest::answerNextMessageBox;
using nhui::MainWindow;

namespace {

void writeFile(const QString& path, const QByteArray& bytes) {
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write(bytes);
}

}  // namespace

class LessonsTest : public QObject {
  Q_OBJECT

 private:
  std::unique_ptr<MainWindow> window_;
  QTemporaryDir dir_;

  QComboBox* speedBox() const { return window_->findChild<QComboBox*>("speedBox"); }

 private slots:
  void init() {
    window_ = std::make_unique<MainWindow>(false);
    window_->resize(1600, 1000);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
  }
  void cleanup() {
    if (window_ && window_->presentationMode()) window_->setPresentationMode(false);
    window_.reset();
  }

  // Every lesson opens with its title in the window title, its note beside the view, and
  // the speed, plotted variables and comparison its view part states.
  void lessonsOpenWithTheirView() {
    const std::vector<nhres::Example> lessons = nhres::examples();
    QVERIFY(lessons.size() >= 8);
    for (const nhres::Example& lesson : lessons) {
      const nh::Scenario s = nhres::readResourceScenario(lesson.resourcePath());
      const nhui::ScenarioView view = nhui::parseScenarioView(s.view);
      QVERIFY2(!view.note.isEmpty(), qPrintable(lesson.file));
      QVERIFY2(view.display.count("arrow_scale") && view.display.at("arrow_scale") == 1,
               qPrintable(lesson.file));
      QVERIFY2(window_->openScenario(lesson.resourcePath()), qPrintable(lesson.file));
      // A lesson with a plan plays its extremal once solved (a vakonomic one beside the
      // nonholonomic motion from the same initial velocity).
      if (view.plan) {
        QVERIFY(window_->session()->planSolver()->wait(150000));
        QVERIFY2(window_->controller()->plan(), qPrintable(window_->lastErrorMessage()));
      }
      QVERIFY(window_->windowTitle().startsWith(view.title));
      QCOMPARE(window_->lessonNote(), view.note);
      QVERIFY(window_->lessonBar()->isVisible());
      QVERIFY(window_->lessonBar()
                  ->findChild<QLabel*>("lessonNote")
                  ->text()
                  .contains(view.note.toHtmlEscaped()));
      QCOMPARE(window_->controller()->speed(), view.speed.value_or(1.0));
      if (view.timeSeries) {  // shown in the system's order
        QStringList shown = window_->timeSeriesPanel()->variables(), wanted = *view.timeSeries;
        shown.sort();
        wanted.sort();
        QCOMPARE(shown, wanted);
      }
      if (view.phase) {
        QCOMPARE(window_->phasePanel()->xVariable(), view.phase->at(0));
        QCOMPARE(window_->phasePanel()->yVariable(), view.phase->at(1));
      }
      const bool vakonomicPlan = view.plan && !window_->controller()->isControlModel();
      QCOMPARE(window_->controller()->compareMode(), vakonomicPlan ? nhui::CompareMode::Vakonomic
                                                     : view.comparison ? view.comparison->mode
                                                                       : nhui::CompareMode::None);
      QCOMPARE(window_->sceneView()->follow(), view.follow.value_or(false));
      QCOMPARE(window_->undoStack()->isClean(), true);
      QVERIFY(window_->sceneView()->options().arrowScaleFixed);
    }
    // Choosing a system afterwards leaves the lesson: its note goes.
    window_->chooseSystem("rigid_body");
    QVERIFY(window_->lessonNote().isEmpty());
    QVERIFY(!window_->lessonBar()->isVisible());
  }

  // The lesson "Long runs" compares the nonholonomic oscillator stepped by rk4 with the same
  // run stepped by nh-rattle at the same step: both runs advance, the second one with the
  // other integrator, the energy error plotted for both.
  void longRunsLessonComparesIntegrators() {
    QVERIFY(window_->openScenario(QStringLiteral(":/examples/long_runs.json")));
    nhui::SimulationController* c = window_->controller();
    QCOMPARE(c->compareMode(), nhui::CompareMode::Integrator);
    const nh::IntegratorOptions primary = c->runIntegrator(0), other = c->runIntegrator(1);
    QVERIFY(primary.method == nh::Integrator::Rk4);
    QVERIFY(other.method == nh::Integrator::NhRattle);
    QCOMPARE(other.step, primary.step);
    QVERIFY(window_->timeSeriesPanel()->variables().contains("energy_error"));
    c->setSpeed(50);
    c->play();
    QTRY_VERIFY_WITH_TIMEOUT(c->displayTime() >= 100, 60000);
    c->pause();
    QVERIFY(c->comparison());
    QVERIFY(c->primary().lastTime() >= 100);
    QVERIFY(c->comparison()->lastTime() >= 100);
    QVERIFY2(c->lastError().isEmpty(), qPrintable(c->lastError()));
    QCOMPARE(nhui::runLabel(*c, 1).left(9), QString("nh-rattle"));
  }

  // The export dialog the particle lesson opens after a while of play exports what the view
  // shows: the followed particle, the vakonomic comparison, the velocity arrow and fixed
  // scales; and its frames from t = 0 show both particles, though the live camera it starts
  // from was framed for a later moment.
  void exportDialogExportsWhatTheViewShows() {
    QVERIFY(window_->openScenario(QStringLiteral(":/examples/particle_compare.json")));
    nhui::SimulationController* c = window_->controller();
    c->setSpeed(8);
    c->play();
    QTRY_VERIFY_WITH_TIMEOUT(c->displayTime() >= 20, 30000);
    c->pause();
    QAction* exportAction = nullptr;
    for (QAction* a : window_->findChildren<QAction*>())
      if (a->shortcut() == QKeySequence(QObject::tr("Ctrl+E"))) exportAction = a;
    QVERIFY(exportAction);
    exportAction->trigger();
    auto* dialog = window_->findChild<nhui::ExportDialog*>();
    QVERIFY(dialog);
    nhui::ExportSettings s = dialog->settings();
    dialog->close();
    QCOMPARE(s.framing, nhui::ExportSettings::Framing::Follow);
    QCOMPARE(s.comparison.mode, nhui::CompareMode::Vakonomic);
    QVERIFY(s.display.velocityArrows);
    QVERIFY(s.display.arrowScaleFixed);
    QVERIFY(s.camera);
    s.width = 320;
    s.height = 200;
    s.fps = 2;
    s.tStart = 0;
    s.tEnd = 6;
    nhui::AnimationExporter exporter(c->scenario(), s);
    const nhui::RunHistory* comparison = exporter.comparisonHistory();
    QVERIFY(comparison);
    for (int i : {0, exporter.frameCount() - 1}) {
      const nhui::CameraPose camera = exporter.cameraAt(i);
      vtkNew<vtkCamera> cam;
      cam->SetPosition(camera.position.data());
      cam->SetFocalPoint(camera.focalPoint.data());
      cam->SetViewUp(camera.viewUp.data());
      cam->SetViewAngle(camera.viewAngle);
      const double t = exporter.sampleTime(i);
      for (const nhui::RunHistory* run : {&exporter.history(), comparison}) {
        nh::SceneFrame frame;
        run->sceneAt(t, frame);
        const Eigen::Vector3d p = frame.bodies.front().position;
        // Normalised view coordinates of the particle: inside [-1, 1] on both axes.
        double q[4] = {p.x(), p.y(), p.z(), 1.0};
        vtkMatrix4x4* m = cam->GetCompositeProjectionTransformMatrix(320.0 / 200.0, -1, 1);
        double r[4];
        m->MultiplyPoint(q, r);
        QVERIFY2(r[3] > 0 && std::abs(r[0] / r[3]) < 1 && std::abs(r[1] / r[3]) < 1,
                 qPrintable(QString("t = %1 s: particle at (%2, %3)")
                                .arg(t)
                                .arg(r[0] / r[3])
                                .arg(r[1] / r[3])));
      }
    }
  }

  // The words match the screen: a colour a lesson's note names is a run's colour from the one
  // table the scene and the plots draw with (the particle lesson said "in blue" of a run the
  // scene drew in gold and magenta), and with a comparison the first run's trail is drawn in
  // that colour.
  void lessonNotesNameTheColoursDrawn() {
    const QStringList colours{"blue",   "orange",  "red",  "green", "gold",  "yellow",
                              "purple", "magenta", "pink", "grey",  "white", "black"};
    QStringList runColours;
    for (const nhui::RunStyle& r : nhui::kRunStyles) runColours << r.colourName;
    for (const nhres::Example& lesson : nhres::examples()) {
      const nhui::ScenarioView view =
          nhui::parseScenarioView(nhres::readResourceScenario(lesson.resourcePath()).view);
      const QString note = view.note.toLower();
      for (const QString& c : colours)
        if (QRegularExpression("\\b" + c + "\\b").match(note).hasMatch())
          QVERIFY2(runColours.contains(c), qPrintable(lesson.file + " names " + c));
    }
    QVERIFY(window_->openScenario(QStringLiteral(":/examples/particle_compare.json")));
    QVERIFY(window_->controller()->waitForTime(3.0, 30000));
    window_->controller()->tick();
    window_->controller()->seek(3.0);  // 3 s of trail
    window_->sceneView()->refresh();
    QCOMPARE(window_->controller()->compareMode(), nhui::CompareMode::Vakonomic);
    const QImage shot = window_->sceneView()->grabFramebuffer();
    if (!qEnvironmentVariable("NH_SCREENSHOT_DIR").isEmpty())
      shot.save(QDir(qEnvironmentVariable("NH_SCREENSHOT_DIR")).filePath("particle-compare.png"));
    const nhui::Rgb8 blue = nhui::kRunStyles[0].trails[0];
    int bluePixels = 0;
    for (int y = 0; y < shot.height(); ++y)
      for (int x = 0; x < shot.width(); ++x) {
        const QColor p = shot.pixelColor(x, y);
        bluePixels += std::abs(p.red() - blue.r) + std::abs(p.green() - blue.g) +
                          std::abs(p.blue() - blue.b) <
                      40;
      }
    QVERIFY2(bluePixels > 30, qPrintable(QString::number(bluePixels)));
  }

  // A view part that is not understood refuses the whole file with a message naming the
  // key, and the running scenario is left as it was.
  void badViewIsRefusedWholly() {
    const QString path = dir_.filePath("bad.json");
    writeFile(path, R"({"format": "nonholonomic-lab-scenario", "version": 2,
                 "system": "chaplygin_sleigh", "view": {"version": 1, "speed": "fast"}})");
    const std::string before = window_->controller()->system().name();
    QVERIFY(!window_->openScenario(path));
    QCOMPARE(window_->controller()->system().name(), before);
    QVERIFY2(window_->errorBanner()->text().contains("'speed' must be a number from 0.01 to 1000"),
             qPrintable(window_->errorBanner()->text()));
    writeFile(path, R"({"format": "nonholonomic-lab-scenario", "version": 2,
                 "system": "chaplygin_sleigh", "view": {"version": 1, "colours": 1}})");
    QVERIFY(!window_->openScenario(path));
    QVERIFY(window_->errorBanner()->text().contains("unknown key 'colours' in the view"));
  }

  // A title or note longer than a lesson bar can show is refused when the file is read, with
  // its length: a 10 MB title used to stall the window in text layout, and a long title
  // widened the window past the screen.
  void overlongTitleOrNoteIsRefusedWithItsLength() {
    const QString path = dir_.filePath("long.json");
    const QString title(10 * 1024 * 1024, QLatin1Char('T'));
    writeFile(path, QStringLiteral(R"({"format": "nonholonomic-lab-scenario", "version": 2,
                 "system": "chaplygin_sleigh", "view": {"version": 1, "title": "%1"}})")
                        .arg(title)
                        .toUtf8());
    const QSize before = window_->size();
    QElapsedTimer clock;
    clock.start();
    QVERIFY(!window_->openScenario(path));
    QVERIFY2(clock.elapsed() < 5000, qPrintable(QString::number(clock.elapsed())));
    const QString banner = window_->errorBanner()->text();
    QVERIFY2(banner.contains("'title' is 10485760 characters long; at most 120 are allowed"),
             qPrintable(banner.left(300)));
    QVERIFY(banner.size() < 400);
    QCOMPARE(window_->size(), before);
    writeFile(path, QStringLiteral(R"({"format": "nonholonomic-lab-scenario", "version": 2,
                 "system": "chaplygin_sleigh", "view": {"version": 1, "note": "%1"}})")
                        .arg(QString(1001, QLatin1Char('n')))
                        .toUtf8());
    QVERIFY(!window_->openScenario(path));
    QVERIFY2(window_->errorBanner()->text().contains("'note' is 1001 characters long"),
             qPrintable(window_->errorBanner()->text().left(300)));
    // At the limits the lesson opens.
    writeFile(path, QStringLiteral(R"({"format": "nonholonomic-lab-scenario", "version": 2,
                 "system": "chaplygin_sleigh", "view": {"version": 1, "title": "%1", "note": "%2"}})")
                        .arg(QString(120, QLatin1Char('T')), QString(1000, QLatin1Char('n')))
                        .toUtf8());
    QVERIFY(window_->openScenario(path));
    QCOMPARE(window_->lessonNote().size(), 1000);
  }

  // Saving writes the view part; opening the file again restores speed, plots and compare.
  void savedViewRoundTrips() {
    window_->controller()->setSpeed(4);
    window_->timeSeriesPanel()->setVariables({"vx", "energy"});
    window_->session()->setComparison(nhui::CompareMode::Vakonomic);
    QTRY_COMPARE_WITH_TIMEOUT(window_->controller()->compareMode(), nhui::CompareMode::Vakonomic,
                              20000);
    const QString path = dir_.filePath("saved.json");
    QVERIFY(window_->saveScenario(path));
    const nh::Scenario s = nh::readScenarioFile(path.toStdString());
    QVERIFY(!s.view.empty());
    auto other = std::make_unique<MainWindow>(false);
    QVERIFY(other->openScenario(path));
    QCOMPARE(other->controller()->speed(), 4.0);
    QCOMPARE(other->timeSeriesPanel()->variables(), QStringList({"vx", "energy"}));
    QCOMPARE(other->controller()->compareMode(), nhui::CompareMode::Vakonomic);
  }

  // Presentation mode at a projector's 1024×768: the 3D view gets most of the screen, one
  // plot stays, the other panels wait behind a side bar, and no tool bar is cut off.
  // Leaving it restores the panels.
  void presentationGivesTheViewTheScreen() {
    const QSize normalSize = window_->size();
    // Every dock goes, the Study and Equations docks too (they were left on screen).
    window_->studyDock()->show();
    window_->equationsDock()->show();
    // The View menu lists every dock (the Equations dock was missing).
    QMenu* viewMenu = nullptr;
    for (QAction* a : window_->menuBar()->actions())
      if (a->text().remove('&') == "View") viewMenu = a->menu();
    QVERIFY(viewMenu);
    for (QDockWidget* d : window_->findChildren<QDockWidget*>())
      QVERIFY2(viewMenu->actions().contains(d->toggleViewAction()), qPrintable(d->objectName()));
    window_->setPresentationMode(true);
    // Without a window manager (Xvfb) full screen is the screen's size; a projector's.
    window_->setGeometry(0, 0, 1024, 768);
    QTRY_COMPARE(window_->size(), QSize(1024, 768));
    QTest::qWait(100);
    const QSize view = window_->sceneView()->size();
    QVERIFY2(view.width() * view.height() >= 0.4 * 1024 * 768,
             qPrintable(QString("3D view %1×%2").arg(view.width()).arg(view.height())));
    QVERIFY2(view.height() >= 500, qPrintable(QString("3D view height %1").arg(view.height())));
    int plotsShown = 0;
    for (QDockWidget* d : window_->findChildren<QDockWidget*>())
      if (d->isVisible()) {
        ++plotsShown;
        QCOMPARE(d->objectName(), QString("timeDock"));
      }
    QCOMPARE(plotsShown, 1);
    for (QToolBar* t : window_->findChildren<QToolBar*>())
      if (t->isVisible() && t->orientation() == Qt::Horizontal)
        QVERIFY2(t->sizeHint().width() <= t->width() + 1,
                 qPrintable(QString("%1 wants %2 px, has %3")
                                .arg(t->objectName())
                                .arg(t->sizeHint().width())
                                .arg(t->width())));
    auto* side = window_->findChild<QToolBar*>("presentationSideBar");
    QVERIFY(side && side->isVisible());
    QVERIFY(side->width() <= 140);
    // The side bar opens a panel on demand.
    QAction* values = side->actions().at(0);
    values->trigger();
    QVERIFY(window_->findChild<QDockWidget*>("parametersDock")->isVisible());
    values->trigger();
    QVERIFY(!window_->findChild<QDockWidget*>("parametersDock")->isVisible());
    // A panel opened there takes the plot's place, never the 3D view's: the view keeps its
    // size with every panel open (Compare and Display used to crush it to about 270 px), and
    // the history slider keeps its length.
    const QString shots = qEnvironmentVariable("NH_SCREENSHOT_DIR");
    auto* history = window_->timeline();
    const int historyWidth = history->width();
    for (QAction* a : side->actions()) {
      if (a->text() == QStringLiteral("Plots")) continue;
      a->trigger();
      QTest::qWait(150);
      const QSize now = window_->sceneView()->size();
      if (!shots.isEmpty())
        window_->grab().save(QDir(shots).filePath("presentation-" + a->text() + ".png"));
      QVERIFY2(now.width() >= view.width() - 2 && now.height() >= view.height() - 40,
               qPrintable(QString("%1 open: 3D view %2×%3, was %4×%5")
                              .arg(a->text())
                              .arg(now.width())
                              .arg(now.height())
                              .arg(view.width())
                              .arg(view.height())));
      QVERIFY2(history->width() >= historyWidth - 2,
               qPrintable(QString("%1 open: history slider %2 px, was %3")
                              .arg(a->text())
                              .arg(history->width())
                              .arg(historyWidth)));
      a->trigger();
    }
    QTest::qWait(150);
    QVERIFY(window_->sceneView()->width() >= view.width() - 2);

    window_->setPresentationMode(false);
    QVERIFY(!window_->findChild<QToolBar*>("presentationSideBar"));
    // The window comes back as it was, within the screen (it came back wider than a 1024 px
    // screen).
    QTRY_COMPARE(window_->size(), normalSize);
    QVERIFY(window_->frameGeometry().width() <= window_->screen()->availableGeometry().width());
    QTRY_VERIFY(window_->findChild<QDockWidget*>("phaseDock")->isVisible());
    QVERIFY(window_->findChild<QDockWidget*>("displayDock")->isVisible());
  }

  // After a speed typed into the box and Return, Space plays and pauses again: the keyboard
  // goes back to the view instead of staying in the box, which took Space as text.
  void spaceTogglesPlayAfterTypingASpeed() {
    QComboBox* box = speedBox();
    QVERIFY(nhtest::showActive(*window_));  // shortcuts reach an active window only
    box->lineEdit()->setFocus();
    box->lineEdit()->selectAll();
    QTest::keyClicks(box->lineEdit(), "3");
    QTest::keyClick(box->lineEdit(), Qt::Key_Return);
    QCOMPARE(window_->controller()->speed(), 3.0);
    QWidget* focus = window_->focusWidget();
    QVERIFY(focus);
    QVERIFY2(focus != box->lineEdit(), "the speed box kept the keyboard");
    const bool playing = window_->controller()->playing();
    QTest::keyClick(focus, Qt::Key_Space);
    QCOMPARE(window_->controller()->playing(), !playing);
    QCOMPARE(box->currentText(), QStringLiteral("3.0×"));
  }

  // In presentation mode, a value typed into a parameter's field and committed with Enter
  // leaves the playback keys to playback: Space pauses and plays again (it used to replace
  // the selected value with a blank while the run went on), → steps; typing again edits.
  void playbackKeysReachPlayAfterAParameterIsTyped() {
    window_->chooseSystem("ball_on_turntable");
    window_->setPresentationMode(true);
    QVERIFY(nhtest::showActive(*window_));  // shortcuts reach an active window only
    auto* side = window_->findChild<QToolBar*>("presentationSideBar");
    QVERIFY(side);
    side->actions().at(0)->trigger();  // Values
    nhui::SimulationController* c = window_->controller();
    c->play();
    QDoubleSpinBox* tilt = window_->parameterPanel()->spinBox("tilt");
    QVERIFY(tilt);
    QTRY_VERIFY(tilt->isVisible());
    nhtest::typeInto(tilt, "0.05");
    QCOMPARE(c->parameter("tilt"), 0.05);
    QWidget* focus = QApplication::focusWidget();
    QVERIFY(focus);
    const bool playing = c->playing();  // the edit may restart the run paused or playing
    QTest::keyClick(focus, Qt::Key_Space);
    QVERIFY2(c->playing() != playing, "Space after Enter did not reach Play/Pause");
    if (c->playing()) QTest::keyClick(QApplication::focusWidget(), Qt::Key_Space);
    QVERIFY2(!c->playing(), "Space after Enter did not pause");
    QCOMPARE(tilt->text(), QStringLiteral("0.05"));
    QCOMPARE(c->parameter("tilt"), 0.05);
    const double t = c->displayTime();
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Right);
    QTRY_VERIFY(c->displayTime() > t);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Space);
    QVERIFY2(c->playing(), "Space again did not play");
    // Typing again edits the field: its keys are the field's.
    nhtest::typeInto(tilt, "0.07", false);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Space);
    QVERIFY(c->playing());
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
    QCOMPARE(c->parameter("tilt"), 0.07);
  }

  // The presentation side bar marks the one panel in front: opening Values behind the plot's
  // tab unmarks Plots (both stayed marked), and Plots brings the plot back to the front.
  void sideBarMarksThePanelInFront() {
    window_->setPresentationMode(true);
    window_->setGeometry(0, 0, 1024, 768);
    QTRY_COMPARE(window_->size(), QSize(1024, 768));
    auto* side = window_->findChild<QToolBar*>("presentationSideBar");
    QVERIFY(side);
    QAction *values = nullptr, *plots = nullptr;
    for (QAction* a : side->actions()) {
      if (a->text() == QStringLiteral("Values")) values = a;
      if (a->text() == QStringLiteral("Plots")) plots = a;
    }
    QVERIFY(values && plots);
    QVERIFY(plots->isChecked() && !values->isChecked());
    values->trigger();
    QTRY_VERIFY(window_->findChild<QDockWidget*>("parametersDock")->isVisible());
    QTRY_VERIFY(!plots->isChecked());
    QVERIFY(values->isChecked());
    int marked = 0;
    for (QAction* a : side->actions()) marked += a->isChecked() ? 1 : 0;
    QCOMPARE(marked, 1);
    plots->trigger();
    QTRY_VERIFY(window_->findChild<QDockWidget*>("timeDock")->isVisible());
    QTRY_VERIFY(plots->isChecked());
    QVERIFY(!values->isChecked());
  }

  // At 1600×1000 the left docks show their lines whole: "Fixed arrow scale" was cut at the
  // Display dock's edge and the Compare box read "Nonholonomic vs vako".
  void leftDocksShowTheirLinesWhole() {
    QTRY_COMPARE(window_->size(), QSize(1600, 1000));
    QTest::qWait(100);
    auto* fixed = window_->findChild<QCheckBox*>("arrowScaleFixed");
    QVERIFY(fixed && fixed->isVisible());
    auto* area =
        qobject_cast<QScrollArea*>(window_->findChild<QDockWidget*>("displayDock")->widget());
    QVERIFY(area);
    const int right = fixed->mapTo(area->viewport(), QPoint(fixed->sizeHint().width(), 0)).x();
    QVERIFY2(right <= area->viewport()->width(),
             qPrintable(QString("'Fixed arrow scale' ends at %1, the dock shows %2 px")
                            .arg(right)
                            .arg(area->viewport()->width())));
    auto* mode = window_->findChild<QComboBox*>("compareMode");
    QVERIFY(mode && mode->isVisible());
    const int text =
        mode->fontMetrics().horizontalAdvance(QStringLiteral("Nonholonomic vs vakonomic"));
    QVERIFY2(
        mode->width() >= text + 20,
        qPrintable(
            QString("the Compare box is %1 px for %2 px of text").arg(mode->width()).arg(text)));
  }

  // The speed box: presets, typed factors with or without ×, refused nonsense; the slider
  // snaps back to exactly 1×.
  void speedPresetsAndTypedValues() {
    QComboBox* box = speedBox();
    QVERIFY(box);
    QStringList presets;
    for (int i = 0; i < box->count(); ++i) presets << box->itemText(i);
    QCOMPARE(presets, QStringList({"0.1×", "0.25×", "1.0×", "4.0×", "10×"}));
    box->lineEdit()->setFocus();
    box->lineEdit()->selectAll();
    QTest::keyClicks(box->lineEdit(), "2.5x");
    QTest::keyClick(box->lineEdit(), Qt::Key_Return);
    QCOMPARE(window_->controller()->speed(), 2.5);
    box->lineEdit()->selectAll();
    QTest::keyClicks(box->lineEdit(), "fast");
    QTest::keyClick(box->lineEdit(), Qt::Key_Return);
    QCOMPARE(window_->controller()->speed(), 2.5);
    QVERIFY(window_->statusBar()->currentMessage().contains("from 0.01 to 1000"));
    box->setCurrentIndex(0);
    emit box->activated(0);
    QCOMPARE(window_->controller()->speed(), 0.1);
    auto* slider = window_->findChild<QSlider*>("speedSlider");
    slider->setValue(198);  // two steps below 1×
    QCOMPARE(window_->controller()->speed(), 1.0);
  }

  // An edit marks the title as modified; quitting then asks (Cancel keeps the window open);
  // saving clears the mark.
  void unsavedEditsAreMarkedAndAsked() {
    QVERIFY(!window_->isWindowModified());
    window_->session()->setParameter("m", 2.0);
    QVERIFY(window_->isWindowModified());
    answerNextMessageBox(QMessageBox::Cancel);
    QVERIFY(!window_->close());
    QVERIFY(window_->isVisible());
    QVERIFY(window_->saveScenario(dir_.filePath("edited.json")));
    QVERIFY(!window_->isWindowModified());
    window_->undoStack()->undo();
    QVERIFY(window_->isWindowModified());
    answerNextMessageBox(QMessageBox::Discard);
    QVERIFY(window_->close());
  }

  // The themes set the application palette, the plots' background and the scene's.
  void themesReachPaletteAndPlots() {
    window_->setTheme(MainWindow::Theme::Dark);
    QVERIFY(QApplication::palette().color(QPalette::Window).lightness() < 60);
    QTRY_VERIFY(window_->timeSeriesPanel()->plot()->plotStyle().background.lightness() < 60);
    QVERIFY(window_->sceneView()->options().dark);
    window_->setTheme(MainWindow::Theme::Light);
    QVERIFY(QApplication::palette().color(QPalette::Window).lightness() > 180);
    QTRY_VERIFY(window_->timeSeriesPanel()->plot()->plotStyle().background.lightness() > 200);
    QVERIFY(!window_->sceneView()->options().dark);
  }
};

QTEST_MAIN(LessonsTest)
#include "lessons_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
