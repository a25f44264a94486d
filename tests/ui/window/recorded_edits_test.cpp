// What the class saw is what every export shows: a lesson runs in the window, two parameters
// are changed by the parameter panel's undoable edits at two moments, and then
// - the record names both edits at their times with their labels, and the timeline marks them;
// - the window's scenario (what Save writes and every export of the window reads) holds the
//   parameters the run started with and the two edits, and its run by the core's run loop
//   (what `nhsim run` of the saved file does) gives the recorded samples to 1e-12, before and
//   after each edit; the same after writing the file and reading it back, and when the window
//   opens that file again (the edits applied as its run reaches them);
// - the video export of that scenario has, at frame times before and after each edit, the
//   recorded state and the parameters in force then, and writes its MP4.
// Before timed edits, the scenario had the last values from t = 0 and the video another motion.
#include <QMessageBox>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <filesystem>

#include "core/io/scenario_file.h"
#include "core/model/catalogue.h"
#include "core/nh/scenario_run.h"
#include "message_boxes.h"
#include "ui/export/animation_exporter.h"
#include "ui/session/session.h"
#include "ui/sim/simulation_controller.h"
#include "ui/window/main_window.h"
#include "ui/window/timeline_bar.h"
#include "window_fixture.h"

namespace {

struct Sample {
  double t;
  std::vector<double> x;
};

// The samples of `scenario` up to tEnd as `nhsim run` computes them (the core's run loop).
std::vector<Sample> replay(const nh::Scenario& scenario, double tEnd) {
  nh::ScenarioRun run(nh::findSystem(scenario.system), scenario);
  const int n = run.simulation().equations().stateSize();
  std::vector<Sample> out;
  run.advance(tEnd, scenario.dtOut, [&](const nh::ScenarioRun::Sample& s) {
    out.push_back({s.t, std::vector<double>(s.x, s.x + n)});
  });
  return out;
}

// The largest difference between the record's samples and `samples`, which must be as many at
// the same times; -1 when they are not.
double largestDifference(const nhui::RunHistory& record, const std::vector<Sample>& samples) {
  if (samples.size() < record.size()) return -1;
  double worst = 0;
  for (size_t k = 0; k < record.size(); ++k) {
    if (samples[k].t != record.time(k)) return -1;
    const std::vector<double> x = record.state(k);
    for (size_t i = 0; i < x.size(); ++i)
      worst = std::max(worst, std::abs(x[i] - samples[k].x[i]) / std::max(1.0, std::abs(x[i])));
  }
  return worst;
}

}  // namespace

class RecordedEditsTest : public QObject {
  Q_OBJECT

 private slots:
  void exportsShowTheEditedMotion() {
    nhui::MainWindow window(false);
    QVERIFY(nhtest::showActive(window));
    QVERIFY(window.openScenario(QStringLiteral(":/examples/ball_closed_circle.json")));
    nhui::SimulationController* c = window.controller();
    nhui::Session* session = window.session();
    c->pause();

    // Ω₀ to 3 at t = 2, the tilt to 0.05 at t = 4, as a teacher does while the class watches.
    QVERIFY(c->waitForTime(2.5, 120000));
    c->tick();
    c->seek(2.0);
    session->setParameter("Omega0", 3.0);
    QVERIFY(c->waitForTime(4.5, 120000));
    c->tick();
    c->seek(4.0);
    session->setParameter("tilt", 0.05);
    QVERIFY(c->waitForTime(6.0, 120000));
    c->tick();
    c->seek(6.0);
    c->tick();
    const nhui::RunHistory& record = c->primary();
    QVERIFY(record.lastTime() >= 6.0 - 1e-9);

    const std::vector<nh::TimedEdit> edits = c->recordedEdits();
    QCOMPARE(edits.size(), size_t(2));
    QVERIFY(std::abs(edits[0].t - 2.0) < 0.011 && std::abs(edits[1].t - 4.0) < 0.011);
    QCOMPARE(edits[0].parameters.at("Omega0"), 3.0);
    QCOMPARE(edits[1].parameters.at("tilt"), 0.05);
    QVERIFY2(QString::fromStdString(edits[0].label).contains("= 3"), edits[0].label.c_str());
    window.findChild<nhui::TimelineBar*>()->refresh();
    QCOMPARE(window.findChild<nhui::TimelineBar*>()->edits(), edits);

    // The window's scenario starts with the lesson's values and carries the edits: its run is
    // the record, before and after each edit (the sample at an edit's time comes twice).
    const nh::Scenario scenario = c->recordedScenario();
    QCOMPARE(scenario.parameters.at("Omega0"), 1.0);
    QCOMPARE(scenario.parameters.at("tilt"), 0.0);
    QCOMPARE(scenario.edits, edits);
    const double replayed = largestDifference(record, replay(scenario, record.lastTime()));
    QVERIFY2(replayed >= 0 && replayed <= 1e-12, qPrintable(QString::number(replayed)));

    // Saved and read back (nhsim run reads this file): the same edits, the same motion.
    QTemporaryDir dir;
    const std::string path = dir.filePath("edited.json").toStdString();
    nh::writeScenarioFile(scenario, path);
    const nh::Scenario reread = nh::readScenarioFile(path);
    QCOMPARE(reread.edits, edits);
    const double fromFile = largestDifference(record, replay(reread, record.lastTime()));
    QVERIFY2(fromFile >= 0 && fromFile <= 1e-12, qPrintable(QString::number(fromFile)));

    // The video of the window's scenario: frames every 0.04 s, the recorded states at frame
    // times before and after each edit, with the parameters then in force.
    nhui::ExportSettings settings;
    settings.width = 320;
    settings.height = 180;
    settings.fps = 25;
    settings.tStart = 0;
    settings.tEnd = 6;
    nhui::AnimationExporter exporter(scenario, settings);
    const nhui::RunHistory& frames = exporter.history();
    const int omega = c->system().parameterIndex("Omega0");
    const int tilt = c->system().parameterIndex("tilt");
    for (const double t : {1.8, 2.2, 3.8, 4.2, 5.8}) {
      const size_t f = frames.indexAtOrAfter(t - 1e-9);
      const size_t r = record.indexAtOrAfter(frames.time(f) - 1e-9);
      QVERIFY(std::abs(frames.time(f) - t) < 1e-9 && std::abs(record.time(r) - t) < 1e-9);
      const std::vector<double> a = frames.state(f), b = record.state(r);
      for (size_t i = 0; i < a.size(); ++i) QVERIFY(std::abs(a[i] - b[i]) <= 1e-12);
      QCOMPARE(frames.parametersAt(f)[omega], t > 2.0 ? 3.0 : 1.0);
      QCOMPARE(frames.parametersAt(f)[tilt], t > 4.0 ? 0.05 : 0.0);
    }
    const std::filesystem::path video = dir.filePath("class.mp4").toStdString();
    const nhui::ExportResult result = exporter.run(video);
    QCOMPARE(result.frames, 150);
    QVERIFY(std::filesystem::file_size(video) > 0);
    QCOMPARE(nh::readScenarioFile(nhui::scenarioPathFor(video).string()).edits, edits);

    // The saved file opened again in the window: the worker applies the edits as the run
    // reaches them, so the window records the same motion with the same edits marked.
    nhtest::answerNextMessageBox(QMessageBox::Discard);  // the edited run is not saved
    QVERIFY(window.openScenario(QString::fromStdString(path)));
    QVERIFY(c->waitForTime(6.0, 120000));
    c->tick();
    const std::vector<nh::TimedEdit> again = c->recordedEdits();
    QCOMPARE(again.size(), size_t(2));
    QCOMPARE(again[0].t, edits[0].t);
    QCOMPARE(again[1].parameters, edits[1].parameters);
    const double reopened =
        largestDifference(c->primary(), replay(reread, c->primary().lastTime()));
    QVERIFY2(reopened >= 0 && reopened <= 1e-12, qPrintable(QString::number(reopened)));
  }
};

QTEST_MAIN(RecordedEditsTest)
#include "recorded_edits_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
