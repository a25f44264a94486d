// The Study panel (ui/study): studies of the main view's scenario run in the
// background, fill a line plot or a heat map, export the CSV `nhsim sweep` writes, open a
// run in the main view, and refuse bad CSV files with a message.
//
// The independent check: a ball rolling on a table turning at Omega0 moves its centre on a
// circle with angular frequency w = Omega0·k/(1 + k), k = I/(m r²) (the system's own
// description; Iglesias et al., §VI.3). Started with vx = 0, vy ≠ 0, its velocity turns at w,
// so vx next changes sign at t = π/w = π(1 + k)/(Omega0·k): first_crossing(vx) in closed form.
#include "ui/study/study_panel.h"

#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>
#include <cmath>

#include "nhsim_process.h"
#include "ui/sim/simulation_controller.h"
#include "ui/window/main_window.h"
#include "window_fixture.h"

using nhui::MainWindow;
using nhui::StudyPanel;

namespace {

double halfOrbit(double omega0, double k) { return M_PI * (1 + k) / (omega0 * k); }

QByteArray withoutFirstLine(const QByteArray& text) { return text.mid(text.indexOf('\n') + 1); }

}  // namespace

class StudyPanelTest : public QObject {
  Q_OBJECT

 private slots:
  void init() {
    window_ = std::make_unique<MainWindow>(false);
    QVERIFY(nhtest::showActive(*window_));
    window_->chooseSystem("ball_on_turntable");
    window_->controller()->setInitialOverrides({{"vx", 0.0}, {"vy", 0.1}});
    window_->controller()->pause();
    QDockWidget* dock = window_->studyDock();
    dock->show();
    dock->setFloating(true);
    dock->resize(900, 700);
    panel_ = window_->studyPanel();
    QVERIFY(panel_);
    panel_->setJobs(2);
  }
  void cleanup() { window_.reset(); }

  // A 3×3 heat map over (Omega0, inertia_ratio): every cell holds π(1 + k)/(Omega0·k).
  void gridMatchesTheClosedForm() {
    startGrid();
    QVERIFY(waitForEnd());
    const nhui::StudyGrid& g = panel_->grid();
    QVERIFY(g.twoDimensional());
    QCOMPARE(g.cellCount(), 9);
    QCOMPARE(g.done(), 9);
    for (int ix = 0; ix < 3; ++ix)
      for (int iy = 0; iy < 3; ++iy) {
        const double omega0 = 1 + ix, k = 0.2 + 0.2 * iy;
        QCOMPARE(g.xs[ix], omega0);
        QVERIFY(std::abs(g.ys[iy] - k) < 1e-15);
        const double v = g.values[static_cast<size_t>(ix * 3 + iy)];
        // Linear interpolation between samples 0.01 s apart and the 1e-10 tolerance leave
        // errors below 1e-8 relative; 1e-6 leaves room and still tells a wrong frequency.
        QVERIFY2(std::abs(v - halfOrbit(omega0, k)) < 1e-6 * halfOrbit(omega0, k),
                 qPrintable(QString("Omega0 %1, k %2: %3, expected %4")
                                .arg(omega0)
                                .arg(k)
                                .arg(v, 0, 'g', 12)
                                .arg(halfOrbit(omega0, k), 0, 'g', 12)));
      }
    QVERIFY(panel_->progressLabel()->text().startsWith("9 / 9 runs"));
  }

  // One varied quantity: a line over k at Omega0 = 2.
  void lineMatchesTheClosedForm() {
    window_->controller()->setParameter("Omega0", 2);
    panel_->setSecondAxisEnabled(false);
    panel_->setAxis(0, "inertia_ratio", 0.2, 0.6, 5);
    panel_->setMeasure("first_crossing(vx)");
    panel_->setEndTime(12);
    QVERIFY2(panel_->run(), qPrintable(panel_->messageLabel()->text()));
    QVERIFY(waitForEnd());
    const nhui::StudyGrid& g = panel_->grid();
    QVERIFY(!g.twoDimensional());
    QCOMPARE(g.cellCount(), 5);
    for (int i = 0; i < 5; ++i) {
      const double k = 0.2 + 0.1 * i;
      QVERIFY(std::abs(g.values[static_cast<size_t>(i)] - halfOrbit(2, k)) <
              1e-6 * halfOrbit(2, k));
      QCOMPARE(g.statuses[static_cast<size_t>(i)], QString("ok"));
    }
  }

  // The exported data are the bytes nhsim sweep writes for the same study, but the first
  // comment line: the panel's names the equivalent command with every setting spelt out.
  void exportedCsvEqualsNhsimSweep() {
    startGrid();
    QVERIFY(waitForEnd());
    QTemporaryDir dir;
    const QString mine = dir.filePath("panel.csv"), theirs = dir.filePath("nhsim.csv");
    QVERIFY2(panel_->exportCsv(mine), qPrintable(panel_->messageLabel()->text()));
    const auto r = nh::test::runNhsim({"sweep",     "ball_on_turntable",
                                       "--t-end",   "20",
                                       "--dt-out",  QString::number(window_->controller()->dtOut()),
                                       "--init",    "vx=0",
                                       "--init",    "vy=0.1",
                                       "--vary",    "Omega0=1:3:3",
                                       "--vary",    "inertia_ratio=0.2:0.6:3",
                                       "--measure", "first_crossing(vx)",
                                       "--out",     theirs,
                                       "--quiet",   "--jobs",
                                       "1"});
    QCOMPARE(r.code, 0);
    QFile a(mine), b(theirs);
    QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
    const QByteArray panelText = a.readAll(), nhsimText = b.readAll();
    QVERIFY(panelText.startsWith("# nhsim sweep ball_on_turntable "));
    QCOMPARE(withoutFirstLine(panelText), withoutFirstLine(nhsimText));
    // The command the panel writes gives the same rows when run.
    QVERIFY(panelText.contains("--vary Omega0=1:3:3 --vary inertia_ratio=0.2:0.6:3"));

    // And the file opens in the panel again, with the same values.
    const std::vector<double> before = panel_->grid().values;
    QVERIFY2(panel_->openCsv(theirs), qPrintable(panel_->messageLabel()->text()));
    QCOMPARE(panel_->grid().values, before);
    QCOMPARE(panel_->grid().valueName, QString("first_crossing(vx)"));
  }

  // The map exports as PNG (twice the view's pixels) and SVG, both drawing the measure's name;
  // a path that cannot be written is refused with a message.
  void mapExportsAsPngAndSvg() {
    startGrid();
    QVERIFY(waitForEnd());
    QTemporaryDir dir;
    QVERIFY2(panel_->exportImage(dir.filePath("map.png")),
             qPrintable(panel_->messageLabel()->text()));
    QImage image(dir.filePath("map.png"));
    QVERIFY(!image.isNull() && image.width() >= 1200 && image.height() >= 800);
    QVERIFY(panel_->exportImage(dir.filePath("map.svg")));
    QFile svg(dir.filePath("map.svg"));
    QVERIFY(svg.open(QIODevice::ReadOnly));
    const QByteArray text = svg.readAll();
    QVERIFY(text.contains("<svg") && text.contains("first_crossing(vx)"));
    QVERIFY(!panel_->exportImage(dir.filePath("no/such/folder/map.png")));
    QVERIFY(panel_->messageLabel()->text().startsWith("Cannot write"));
  }

  // Cancel stops the study within a second and leaves the finished runs on the map; the
  // exported file says it is partial.
  void cancelKeepsAPartialMap() {
    panel_->setSecondAxisEnabled(false);
    panel_->setAxis(0, "Omega0", 1, 3, 400);
    panel_->setMeasure("max(abs(vx))");
    panel_->setEndTime(300);
    panel_->setJobs(1);
    QVERIFY(panel_->run());
    QTRY_VERIFY_WITH_TIMEOUT(panel_->resultCount() >= 2, 60000);
    QElapsedTimer clock;
    clock.start();
    panel_->cancel();
    QVERIFY(waitForEnd());
    QVERIFY2(clock.elapsed() < 2000, qPrintable(QString::number(clock.elapsed())));
    const long kept = panel_->resultCount();
    QVERIFY(kept >= 2 && kept < 400);
    QCOMPARE(panel_->grid().done(), static_cast<int>(kept));
    for (long i = 0; i < kept; ++i)
      QVERIFY(std::isfinite(panel_->grid().values[static_cast<size_t>(i)]));
    QTemporaryDir dir;
    QVERIFY(panel_->exportCsv(dir.filePath("partial.csv")));
    QFile f(dir.filePath("partial.csv"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(f.readAll().endsWith(
        QString("# partial: %1 of 400 runs (interrupted)\n").arg(kept).toUtf8()));
  }

  // Clicking a cell sets the main view's parameters to that cell's values, as one undoable
  // edit.
  void clickingACellOpensItsRun() {
    startGrid();
    QVERIFY(waitForEnd());
    nhui::SimulationController* c = window_->controller();
    const double omegaBefore = c->parameter("Omega0"), kBefore = c->parameter("inertia_ratio");
    const int cell = 2 * 3 + 0;  // Omega0 = 3, k = 0.2
    QTest::mouseClick(panel_->map(), Qt::LeftButton, {}, panel_->map()->cellCentre(cell).toPoint());
    QCOMPARE(c->parameter("Omega0"), 3.0);
    QVERIFY(std::abs(c->parameter("inertia_ratio") - 0.2) < 1e-15);
    window_->undoStack()->undo();
    QCOMPARE(c->parameter("Omega0"), omegaBefore);
    QCOMPARE(c->parameter("inertia_ratio"), kBefore);
  }

  // The first axis starts on the system's first parameter, the second on its second (a bug
  // seen in the first screenshots: an empty name, the list's separator, was chosen).
  void axesStartOnParameters() {
    auto* first = panel_->findChild<QComboBox*>("studyAxis1");
    auto* second = panel_->findChild<QComboBox*>("studyAxis2");
    QVERIFY(first && second);
    QCOMPARE(first->currentText(), QString("m"));
    QCOMPARE(second->currentText(), QString("r"));
    window_->chooseSystem("whipple_bicycle");
    QCOMPARE(first->currentText(), QString("w"));
    QCOMPARE(second->currentText(), QString("c"));
  }

  // Bad files: refused with a message naming the file and the line; the map stays.
  void badCsvIsRefused() {
    startGrid();
    QVERIFY(waitForEnd());
    const std::vector<double> shown = panel_->grid().values;
    QTemporaryDir dir;
    auto write = [&](const QString& name, const QByteArray& text) {
      QFile f(dir.filePath(name));
      f.open(QIODevice::WriteOnly);
      f.write(text);
      return dir.filePath(name);
    };
    const struct {
      QString file;
      QString says;
    } cases[] = {
        {write("ragged.csv", "# x\nv,re_1,im_1\n1,2,3\n4,5\n"),
         "line 4: 2 fields where the header has 3"},
        {write("words.csv", "v,max_re\n1,2\n2,abc\n"), "'abc' in column max_re is not a number"},
        {write("headless.csv", "1,2\n3,4\n"), "expected a header line"},
        {write("empty.csv", "# nothing\n"), "no header line"},
        {write("norows.csv", "v,max_re\n"), "has no rows"},
        {write("quote.csv", "v,\"max_re\n1,2\n"), "a quoted field is not closed"},
        {dir.filePath("missing.csv"), "Cannot open missing.csv"},
    };
    for (const auto& c : cases) {
      QVERIFY2(!panel_->openCsv(c.file), qPrintable(c.file));
      QVERIFY2(panel_->messageLabel()->isVisibleTo(panel_) &&
                   panel_->messageLabel()->text().contains(c.says),
               qPrintable(c.file + ": " + panel_->messageLabel()->text()));
      QCOMPARE(panel_->grid().values, shown);
    }
  }

 private:
  void startGrid() {
    panel_->setAxis(0, "Omega0", 1, 3, 3);
    panel_->setSecondAxisEnabled(true);
    panel_->setAxis(1, "inertia_ratio", 0.2, 0.6, 3);
    panel_->setMeasure("first_crossing(vx)");
    panel_->setEndTime(20);
    QVERIFY2(panel_->run(), qPrintable(panel_->messageLabel()->text()));
  }
  bool waitForEnd() {
    if (!panel_->running()) return true;
    QSignalSpy finished(panel_, &StudyPanel::studyFinished);
    return finished.wait(120000);
  }

  std::unique_ptr<MainWindow> window_;
  StudyPanel* panel_ = nullptr;
};

QTEST_MAIN(StudyPanelTest)
#include "study_panel_test.moc"
