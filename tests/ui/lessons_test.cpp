// Classroom features of the window: lessons (scenario files with a "view" part) open with
// their note, speed, plots and comparison; presentation mode gives the 3D view most of the
// screen; the speed box takes presets and typed factors; unsaved edits mark the title and
// are asked about on quitting; the light and dark themes reach the palette, plots and scene;
// the export dialog exports what the lesson's view shows.
#include <vtkCamera.h>
#include <vtkMatrix4x4.h>
#include <vtkNew.h>

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
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
#include "ui/export/animation_exporter.h"
#include "ui/export/export_dialog.h"
#include "ui/panels/undo_commands.h"
#include "ui/plot/plot_panels.h"
#include "ui/scene/scene_view.h"
#include "ui/sim/run_history.h"
#include "ui/window/main_window.h"

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
      QVERIFY2(view.fixedArrowScale.value_or(false), qPrintable(lesson.file));
      QVERIFY2(window_->openScenario(lesson.resourcePath()), qPrintable(lesson.file));
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
      QCOMPARE(window_->controller()->compareMode(),
               view.compare.value_or(nhui::CompareMode::None));
      QCOMPARE(window_->sceneView()->follow(), view.follow.value_or(false));
      QCOMPARE(window_->undoStack()->isClean(), true);
      QVERIFY(window_->sceneView()->options().arrowScaleFixed);
    }
    // Choosing a system afterwards leaves the lesson: its note goes.
    window_->chooseSystem("rigid_body");
    QVERIFY(window_->lessonNote().isEmpty());
    QVERIFY(!window_->lessonBar()->isVisible());
  }

  // The export dialog the particle lesson opens after a while of play exports what the view
  // shows: the followed particle, the vakonomic comparison, the velocity arrow and fixed
  // scales; and its frames from t = 0 show both particles, though the live camera it starts
  // from was framed for a later moment.
  void exportDialogExportsWhatTheViewShows() {
    QVERIFY(window_->openScenario(":/examples/particle_compare.json"));
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
    QCOMPARE(s.compare, nhui::CompareMode::Vakonomic);
    QVERIFY(s.velocityArrows);
    QVERIFY(s.fixedArrowScale);
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

  // Saving writes the view part; opening the file again restores speed, plots and compare.
  void savedViewRoundTrips() {
    window_->controller()->setSpeed(4);
    window_->timeSeriesPanel()->setVariables({"vx", "energy"});
    window_->setCompare(nhui::CompareMode::Vakonomic);
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

    window_->setPresentationMode(false);
    QVERIFY(!window_->findChild<QToolBar*>("presentationSideBar"));
    QTRY_VERIFY(window_->findChild<QDockWidget*>("phaseDock")->isVisible());
    QVERIFY(window_->findChild<QDockWidget*>("displayDock")->isVisible());
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
    auto* controller = window_->controller();
    window_->undoStack()->push(
        new nhui::SetParameterCommand(controller, "m", controller->parameter("m"), 2.0));
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
    QVERIFY(window_->sceneView()->options().darkBackground);
    window_->setTheme(MainWindow::Theme::Light);
    QVERIFY(QApplication::palette().color(QPalette::Window).lightness() > 180);
    QTRY_VERIFY(window_->timeSeriesPanel()->plot()->plotStyle().background.lightness() > 200);
    QVERIFY(!window_->sceneView()->options().darkBackground);
  }
};

QTEST_MAIN(LessonsTest)
#include "lessons_test.moc"
