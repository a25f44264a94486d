// The Study panel (ui/study): studies of the main view's scenario run in the
// background, fill a line plot or a heat map, export the CSV `nhsim sweep` writes, open a
// run in the main view (the clicked cell outlined), and refuse bad CSV files with a message.
// The choices: only initial values that a run keeps (no dependent velocities), a state
// variable's final value as the default measure; the heat map's colour bar is titled; the
// equivalent command names a model file by its path.
//
// The independent check: a ball rolling on a table turning at Omega0 moves its centre on a
// circle with angular frequency w = Omega0·k/(1 + k), k = I/(m r²) (the system's own
// description; Iglesias et al., §VI.3). Started with vx = 0, vy ≠ 0, its velocity turns at w,
// so vx next changes sign at t = π/w = π(1 + k)/(Omega0·k): first_crossing(vx) in closed form.
#include "ui/study/study_panel.h"

#include <QAbstractScrollArea>
#include <QBuffer>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QPainter>
#include <QSignalSpy>
#include <QSvgGenerator>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>
#include <cmath>

#include "core/model/catalogue.h"
#include "core/model/model_file.h"
#include "core/nh/errors.h"
#include "nhsim_process.h"
#include "ui/session/scenario_view.h"
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

  // The clicked cell is outlined (and only it: the image changes around that cell alone).
  void clickedCellIsOutlined() {
    startGrid();
    QVERIFY(waitForEnd());
    nhui::StudyMap* map = panel_->map();
    const int cell = 1 * 3 + 2;  // Omega0 = 2, k = 0.6
    auto draw = [&] {
      QImage image(map->size(), QImage::Format_RGB32);
      QPainter painter(&image);
      map->render(painter, QRectF(image.rect()));
      return image;
    };
    const QImage plain = draw();
    QCOMPARE(map->selectedCell(), -1);
    QTest::mouseClick(map, Qt::LeftButton, {}, map->cellCentre(cell).toPoint());
    QCOMPARE(map->selectedCell(), cell);
    const QImage marked = draw();
    // The cell's neighbours' centres tell its extent: half way to them, and a few pixels.
    const QPointF centre = map->cellCentre(cell), left = map->cellCentre(cell - 3),
                  below = map->cellCentre(cell - 1);
    const double halfW = 0.5 * (centre.x() - left.x()), halfH = 0.5 * (below.y() - centre.y());
    const QRectF allowed(centre.x() - halfW - 4, centre.y() - halfH - 4, 2 * halfW + 8,
                         2 * halfH + 8);
    int changed = 0;
    for (int y = 0; y < plain.height(); ++y)
      for (int x = 0; x < plain.width(); ++x)
        if (plain.pixel(x, y) != marked.pixel(x, y)) {
          ++changed;
          QVERIFY2(allowed.contains(QPointF(x, y)), qPrintable(QString("%1,%2").arg(x).arg(y)));
        }
    QVERIFY(changed > 4 * (halfW + halfH));
    // A new study clears it.
    startGrid();
    QCOMPARE(map->selectedCell(), -1);
    QVERIFY(waitForEnd());
  }

  // The colour bar carries the measure's name as its title: the SVG of the map names it
  // twice (the plot's title and the bar's).
  void colourBarIsTitled() {
    startGrid();
    QVERIFY(waitForEnd());
    QByteArray svg;
    QBuffer buffer(&svg);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(QSize(900, 600));
    {
      QPainter painter(&generator);
      panel_->map()->render(painter, QRectF(0, 0, 900, 600));
    }
    QCOMPARE(svg.count("first_crossing(vx)"), 2);
  }

  // The default measure is a state variable's final value (final(t), the old default, is
  // the end time: the same in every run).
  void defaultMeasureIsAStateVariable() {
    for (const char* system : {"ball_on_turntable", "chaplygin_sleigh"}) {
      window_->chooseSystem(system);
      QComboBox* box = nullptr;
      for (QComboBox* b : panel_->findChildren<QComboBox*>())
        if (b->isEditable()) box = b;
      QVERIFY(box);
      const QString text = box->currentText();
      QVERIFY2(text != "final(t)" && text.startsWith("final("), qPrintable(text));
      const std::string state = text.mid(6, text.size() - 7).toStdString();
      const auto& order = window_->controller()->system().info().stateOrder;
      QVERIFY2(std::find(order.begin(), order.end(), state) != order.end(), qPrintable(text));
      QVERIFY(box->findText("final(t)") < 0);
    }
  }

  // Only the initial values a run keeps are offered: the coordinates and the independent
  // velocities. The sleigh's sideways velocity u is completed from its constraint (u = 0),
  // so varying it would not vary the run.
  void varyListOffersOnlyIndependentInitialValues() {
    window_->chooseSystem("chaplygin_sleigh");
    auto* first = panel_->findChild<QComboBox*>("studyAxis1");
    QVERIFY(first);
    const nh::SystemInfo& info = window_->controller()->system().info();
    QVERIFY(std::find(info.velocities.begin(), info.velocities.end(), "u") !=
            info.velocities.end());
    QCOMPARE(first->findText("u"), -1);
    for (const char* offered : {"x", "y", "theta", "v", "omega"})
      QVERIFY2(first->findText(offered) >= 0, offered);
    window_->chooseSystem("ball_on_turntable");
    for (const std::string& v : window_->controller()->system().info().velocities) {
      const auto& independent = window_->controller()->system().info().independentVelocities;
      const bool kept = std::find(independent.begin(), independent.end(), v) != independent.end();
      QCOMPARE(first->findText(QString::fromStdString(v)) >= 0, kept);
    }
  }

  // A model saved outside the model folder: the CSV's equivalent command names its file
  // (nhsim does not know its name), and that command runs.
  void commandNamesAModelFileByItsPath() {
    QTemporaryDir dir;
    std::string text;
    for (const auto& [name, body] : nh::bundledModelFiles())
      if (name == "chaplygin_sleigh.yaml") text = body;
    QVERIFY(!text.empty());
    const std::string from = "name: chaplygin_sleigh";
    const auto at = text.find(from);
    QVERIFY(at != std::string::npos);
    text.replace(at, from.size(), "name: knife_edge_mine");
    const QString path = dir.filePath("knife edge mine.yaml");
    {
      QFile f(path);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(QByteArray::fromStdString(text));
    }
    auto system = nh::model::loadModelFile(path.toStdString());
    nh::Scenario scenario;
    scenario.system = system->name();
    window_->controller()->switchSystem(system, scenario);
    panel_->setSecondAxisEnabled(false);
    panel_->setAxis(0, "v", 0.5, 1, 2);
    panel_->setMeasure("final(x)");
    panel_->setEndTime(1);
    QVERIFY2(panel_->run(), qPrintable(panel_->messageLabel()->text()));
    QVERIFY(waitForEnd());
    const QString command = panel_->commandLine();
    QVERIFY2(command.startsWith("nhsim sweep '" + path + "' "), qPrintable(command));
    // The command as a shell splits it, run by nhsim: it finds the model.
    QStringList words;
    QString word;
    bool quoted = false;
    for (const QChar ch : command) {
      if (ch == '\'') {
        quoted = !quoted;
      } else if (ch == ' ' && !quoted) {
        if (!word.isEmpty()) words << word;
        word.clear();
      } else {
        word += ch;
      }
    }
    words << word;
    QCOMPARE(words.takeFirst(), QString("nhsim"));
    words << "--out" << dir.filePath("out.csv") << "--quiet";
    const auto r = nh::test::runNhsim(words);
    QVERIFY2(r.code == 0, qPrintable(words.join(' ')));
  }

  // Docked in a window of 1600×1000 (and in presentation mode at 1024×768), as Simulation ›
  // Study opens it, the map is wholly inside the dock's visible area and of a useful size:
  // before, the controls above it pushed its lower part out of sight.
  void mapFitsItsDock() {
    window_.reset();
    for (const QSize size : {QSize(1600, 1000), QSize(1024, 768)}) {
      MainWindow window(false);
      window.resize(size);
      window.show();
      QVERIFY(QTest::qWaitForWindowExposed(&window));
      if (size.width() < 1600) window.setPresentationMode(true);
      window.studyDock()->show();
      window.studyDock()->raise();
      nhui::StudyMap* map = window.studyPanel()->map();
      auto* area = qobject_cast<QAbstractScrollArea*>(window.studyDock()->widget());
      QVERIFY(area);
      QRect visible, shown;
      auto fits = [&] {
        visible = QRect(area->viewport()->mapTo(&window, QPoint(0, 0)), area->viewport()->size());
        shown = QRect(map->mapTo(&window, QPoint(0, 0)), map->size());
        return map->isVisible() && visible.contains(shown);
      };
      // The dock's layout settles over a few events (later on a busy machine).
      QTRY_VERIFY_WITH_TIMEOUT(fits(), 5000);
      const QString where = QString("%1×%2: map %3,%4 %5×%6, dock's visible area %7,%8 %9×%10")
                                .arg(size.width())
                                .arg(size.height())
                                .arg(shown.x())
                                .arg(shown.y())
                                .arg(shown.width())
                                .arg(shown.height())
                                .arg(visible.x())
                                .arg(visible.y())
                                .arg(visible.width())
                                .arg(visible.height());
      QVERIFY2(shown.height() >= 140 && shown.width() >= 300, qPrintable(where));
    }
  }

  // The last study is saved with the session (the scenario file's view, "study") and comes
  // back into the panel when the file is opened: running it again gives the same command.
  void studyIsSavedWithTheSession() {
    startGrid();
    QVERIFY(waitForEnd());
    const QString command = panel_->commandLine();
    QTemporaryDir dir;
    const QString path = dir.filePath("session.json");
    QVERIFY(window_->saveScenario(path));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    QVERIFY2(text.contains("\"study\"") && text.contains("first_crossing(vx)"), text.constData());

    MainWindow other(false);
    QVERIFY(other.openScenario(path));
    StudyPanel* panel = other.studyPanel();
    QVERIFY(panel->lastSettings());
    QCOMPARE(panel->findChild<QComboBox*>("studyAxis1")->currentText(), QString("Omega0"));
    QCOMPARE(panel->findChild<QComboBox*>("studyAxis2")->currentText(), QString("inertia_ratio"));
    panel->setJobs(2);
    QVERIFY2(panel->run(), qPrintable(panel->messageLabel()->text()));
    // The same axes, ranges and measure (a saved scenario spells out every initial value).
    const auto studyPart = [](const QString& c) { return c.mid(c.indexOf("--vary")); };
    QCOMPARE(studyPart(panel->commandLine()), studyPart(command));
    QVERIFY(panel->commandLine().contains("--t-end 20 "));
    QSignalSpy finished(panel, &StudyPanel::studyFinished);
    QVERIFY(!panel->running() || finished.wait(120000));

    // A study part that is not understood is refused with one line naming the key.
    const struct {
      const char* json;
      const char* says;
    } bad[] = {
        {R"({"version":1,"study":{"vary":[]}})", "'study.vary' must be a list of one or two"},
        {R"({"version":1,"study":{"vary":[{"name":"m","from":1,"to":2}]}})",
         "needs 'name', 'from', 'to' and 'count'"},
        {R"({"version":1,"study":{"vary":[{"name":"m","from":1,"to":2,"count":2.5}]}})",
         "whole number"},
        {R"({"version":1,"study":{"vary":[{"name":"m","from":1,"to":2,"count":3}],"t_end":-1}})",
         "'study.t_end' must be a number"},
        {R"({"version":1,"study":{"measure":3}})", "'study.vary'"},
        {R"({"version":1,"study":{"vary":[{"name":"m","from":1,"to":2,"count":3}],"x":1}})",
         "unknown key 'x' in 'study'"},
    };
    for (const auto& b : bad) {
      try {
        nhui::parseScenarioView(b.json);
        QFAIL(b.json);
      } catch (const nh::InputError& e) {
        QVERIFY2(QString(e.what()).contains(b.says), e.what());
        QVERIFY(!QString(e.what()).contains('\n'));
      }
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
// SPDX-License-Identifier: GPL-3.0-or-later
