// File › Export (ui/window/export_menu.cpp): the interactive page of the window's run, with the
// open lesson's title and note, its plotted variables and its comparison run; and a played
// plan exported as its planned motion, as a video and as a page. A run's page is live where the
// web engine is found (it carries the engine and the lesson's scenario); a plan's is not.
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QLabel>
#include <QMessageBox>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>
#include <cmath>
#include <memory>

#include "core/io/scenario_file.h"
#include "message_boxes.h"
#include "ui/export/export_dialog.h"
#include "ui/export/media/video_probe.h"
#include "ui/session/scenario_view.h"
#include "ui/session/session.h"
#include "ui/sim/simulation_controller.h"
#include "ui/window/main_window.h"

namespace {

// Answers the next file dialog with `path` (accepted), once it is shown.
void answerNextFileDialog(const QString& path) {
  QTimer::singleShot(0, [path] {
    for (QWidget* w : QApplication::topLevelWidgets())
      if (auto* dialog = qobject_cast<QFileDialog*>(w); dialog && dialog->isVisible()) {
        dialog->selectFile(path);
        QMetaObject::invokeMethod(dialog, "accept");
        return;
      }
    answerNextFileDialog(path);  // not shown yet
  });
}

}  // namespace

class ExportMenuTest : public QObject {
  Q_OBJECT

 private slots:
  void interactivePageOfTheLesson() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    nhui::MainWindow window(false);
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openScenario(QStringLiteral(":/examples/particle_compare.json")));
    nhui::SimulationController* c = window.controller();
    c->setSpeed(8);
    c->play();
    QTRY_VERIFY_WITH_TIMEOUT(c->displayTime() >= 4, 30000);
    c->pause();

    const QByteArray html = exportedPage(window, dir.filePath("lesson.html"));
    QVERIFY(html.contains("<title>Particle with"));
    QVERIFY(html.contains("Both runs start from the same position and velocity."));
    QVERIFY(html.contains("\"comparison\":{"));
    QVERIFY(html.contains("blue: nonholonomic"));
    QVERIFY(html.contains("\"name\":\"vz\""));
    // Live by default where the web engine is found: the page carries it and the lesson's
    // scenario, and its policy lets WebAssembly compile from the page's own bytes.
    QVERIFY(html.contains("\"live\":{"));
    QVERIFY(html.contains("script-src 'unsafe-inline' 'wasm-unsafe-eval'"));
  }

  // A played plan (the parallel-parking lesson's, solved as the file opens) exports as the
  // planned motion: File ▸ Export ▸ Animation writes its MP4 (T = 4 s at 5 fps: 21 frames,
  // the last at T) with a sidecar that holds the plan; the interactive page holds the plan's
  // samples (its controls), its start and target ghosts; and no red banner is left beside
  // the page's "Saved" message.
  void playedPlanExports() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    nhui::MainWindow window(false);
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openScenario(QStringLiteral(":/examples/parallel_parking.json")));
    QVERIFY(window.session()->planSolver()->wait(120000));
    nhui::SimulationController* c = window.controller();
    QTRY_VERIFY_WITH_TIMEOUT(c->plan() != nullptr, 10000);
    c->pause();

    QAction* animation =
        actionNamed(window, QObject::tr("&Animation (MP4, GIF, WebM, PNG frames)…"));
    QVERIFY(animation);
    animation->trigger();
    auto* dialog = window.findChild<nhui::ExportDialog*>();
    QVERIFY(dialog);
    QCOMPARE(dialog->settings().tEnd, 4.0);
    dialog->findChild<QComboBox*>("exportResolution")->setCurrentIndex(4);  // 480 × 270
    dialog->findChild<QDoubleSpinBox*>("exportFps")->setValue(5);
    const QString clip = dir.filePath("plan.mp4");
    dialog->setOutputPath(clip);
    QSignalSpy finished(dialog, &nhui::ExportDialog::exportFinished);
    dialog->startExport();
    QVERIFY(finished.wait(180000));
    QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(2).toString()));
    const nh::VideoInfo info = nh::probeVideo(clip.toStdString());
    QCOMPARE(info.frameCount, 21);
    QVERIFY2(std::abs(info.durationSeconds - 21 / 5.0) < 0.5 / 5,
             qPrintable(QString::number(info.durationSeconds)));
    const nh::Scenario sidecar = nh::readScenarioFile((clip + ".json").toStdString());
    QCOMPARE(sidecar.tEnd, 4.0);
    QVERIFY(nhui::parseScenarioView(sidecar.view).plan);
    dialog->close();

    const QByteArray html = exportedPage(window, dir.filePath("plan.html"));
    QVERIFY(html.contains("<title>Parallel parking"));
    QVERIFY(html.contains("\"name\":\"w\""));  // the plan's plotted samples
    QVERIFY(html.contains("\"ghosts\":[[{"));  // the start ghost, then the target's
    QVERIFY(html.contains("}],[{"));
    QVERIFY(!html.contains("\"live\":{"));  // a played plan's page plays the plan
    QVERIFY(!window.errorBanner()->isVisible());
    QVERIFY2(window.lastErrorMessage().isEmpty(), qPrintable(window.lastErrorMessage()));
  }

 private:
  static QAction* actionNamed(nhui::MainWindow& window, const QString& text) {
    for (QAction* a : window.findChildren<QAction*>())
      if (a->text() == text) return a;
    return nullptr;
  }

  // File ▸ Export ▸ Interactive page to `path`, its "Saved" message answered: the page's
  // text ("" when none was written).
  static QByteArray exportedPage(nhui::MainWindow& window, const QString& path) {
    QAction* page = actionNamed(window, QObject::tr("&Interactive page (HTML)…"));
    if (!page) return {};
    answerNextFileDialog(path);
    nhtest::answerNextMessageBox(QMessageBox::Ok);
    page->trigger();
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
  }
};

QTEST_MAIN(ExportMenuTest)
#include "export_menu_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
