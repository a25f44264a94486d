// What the class saw is what every export shows: a lesson runs in the window, two parameters
// are changed by the parameter panel's undoable edits at two moments, and then
// - the record names both edits at their times with their labels, and the timeline marks them;
// - the window's scenario (what Save writes and every export of the window reads) holds the
//   parameters the run started with and the two edits, and its run by the core's run loop
//   (what `nhsim run` of the saved file does) gives the recorded samples to 1e-12, before and
//   after each edit; the same after writing the file and reading it back, and when the window
//   opens that file again (the edits applied as its run reaches them);
// - the video export of that scenario has, at frame times before and after each edit, the
//   recorded state and the parameters in force then, and writes its MP4; a still of the
//   video's run at each edit's moment is the still of the record (and not that of the
//   unedited run); the page made from that scenario (as `nhsim export --html` makes it) has
//   the record's samples (and not the unedited run's after an edit); the CSV the window
//   exports is the record, digit for digit, its scenario file carries the edits and no note
//   says that it reproduces only a part.
// Before timed edits, the scenario had the last values from t = 0 and the video another motion.
#include <QFile>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMessageBox>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>

#include "core/io/scenario_file.h"
#include "core/model/catalogue.h"
#include "core/nh/scenario_run.h"
#include "message_boxes.h"
#include "page_data.h"
#include "ui/export/animation_exporter.h"
#include "ui/export/interactive_page.h"
#include "ui/export/stills.h"
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

// The page's embedded data: its times and its samples (32-bit floats in base64, as the page
// decodes them).
struct PageSamples {
  std::vector<float> t;
  std::vector<float> samples;
};

PageSamples pageSamplesOf(const std::string& html) {
  const QJsonObject data = nhtest::pageDataOf(html);
  return {nhtest::pageFloats(data["t"]), nhtest::pageFloats(data["samples"])};
}

// The largest difference between two pages' samples in the page's samples i whose time is in
// [from, to]; -1 when the pages do not have the same times and sample sizes.
double pageDifference(const PageSamples& a, const PageSamples& b, double from, double to) {
  if (a.t != b.t || a.samples.size() != b.samples.size() || a.t.empty()) return -1;
  const size_t width = a.samples.size() / a.t.size();
  double worst = 0;
  for (size_t i = 0; i < a.t.size(); ++i) {
    if (a.t[i] < from || a.t[i] > to) continue;
    for (size_t j = i * width; j < (i + 1) * width; ++j)
      if (!std::isnan(a.samples[j]) || !std::isnan(b.samples[j]))
        worst = std::max(worst, static_cast<double>(std::abs(a.samples[j] - b.samples[j])));
  }
  return worst;
}

// A still of `run` at time t, 320 × 180, from the default camera.
QImage stillOf(const nhui::RunHistory& run, double t, const QString& path) {
  nhui::SceneImageRequest request;
  request.size = QSize(320, 180);
  request.time = t;
  nhui::saveSceneImage(path, run, request);
  return QImage(path);
}

// How many pixels of two images of one size differ by more than `threshold` in a channel.
int differingPixels(const QImage& a, const QImage& b, int threshold) {
  if (a.size() != b.size()) return a.width() * a.height() + 1;
  int count = 0;
  for (int y = 0; y < a.height(); ++y)
    for (int x = 0; x < a.width(); ++x) {
      const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
      if (std::abs(qRed(p) - qRed(q)) > threshold || std::abs(qGreen(p) - qGreen(q)) > threshold ||
          std::abs(qBlue(p) - qBlue(q)) > threshold)
        ++count;
    }
  return count;
}

// The CSV's rows as numbers (the header skipped).
std::vector<std::vector<double>> csvRows(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  std::vector<std::vector<double>> rows;
  f.readLine();
  while (!f.atEnd()) {
    const QList<QByteArray> cells = f.readLine().trimmed().split(',');
    std::vector<double> row;
    for (const QByteArray& cell : cells) row.push_back(std::stod(cell.toStdString()));
    rows.push_back(std::move(row));
  }
  return rows;
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

    // The same scenario without its edits: the motion the old exports showed.
    nh::Scenario unedited = scenario;
    unedited.edits.clear();
    nhui::AnimationExporter uneditedExporter(unedited, settings);

    // A still at each edit's moment (just after it): the video's run shows the record's state
    // there; the unedited run's still differs once an edit has acted.
    for (const double t : {2.2, 4.2}) {
      const QString tag = QString::number(t);
      const QImage recorded = stillOf(record, t, dir.filePath("record-" + tag + ".png"));
      const QImage exported = stillOf(frames, t, dir.filePath("export-" + tag + ".png"));
      const QImage old =
          stillOf(uneditedExporter.history(), t, dir.filePath("unedited-" + tag + ".png"));
      // The same state drawn twice: at most a few pixels of anti-aliasing differ (the table
      // turns at another rate in the unedited run: thousands of pixels).
      QVERIFY(!recorded.isNull());
      QVERIFY(differingPixels(recorded, exported, 16) <= 20);
      QVERIFY2(differingPixels(recorded, old, 16) > 1000,
               qPrintable("the still at t = " + tag + " ignores the edits"));
    }

    // The page of the scenario (nhsim export --html) has the record's samples, before and
    // after each edit; the page of the unedited run differs after the first edit.
    const nhui::PageSettings pageSettings = nhui::pageSettingsFor(scenario, settings);
    const PageSamples fromRecord = pageSamplesOf(nhui::interactivePage(record, pageSettings));
    const PageSamples exportedPage = pageSamplesOf(nhui::exportedPage(exporter, scenario));
    const PageSamples oldPage = pageSamplesOf(nhui::exportedPage(uneditedExporter, unedited));
    const double pageError = pageDifference(fromRecord, exportedPage, 0, 6);
    QVERIFY2(pageError >= 0 && pageError <= 1e-6, qPrintable(QString::number(pageError)));
    QVERIFY(pageDifference(fromRecord, oldPage, 0, 1.9) <= 1e-6);
    QVERIFY(pageDifference(fromRecord, oldPage, 2.5, 6) > 1e-3);

    // The CSV the window exports (File > Export > Data) is the record, and its scenario file
    // the window's, edits and all.
    const QString csv = dir.filePath("class.csv");
    QCOMPARE(nhui::saveTrajectory(csv, record, scenario), QString());
    const std::vector<std::vector<double>> rows = csvRows(csv);
    QCOMPARE(rows.size(), record.size());
    for (size_t k = 0; k < rows.size(); ++k)
      for (size_t i = 0; i < rows[k].size(); ++i) {
        const double value = record.column(static_cast<int>(i))[k];
        QVERIFY(rows[k][i] == value || (std::isnan(rows[k][i]) && std::isnan(value)));
      }
    QCOMPARE(nh::readScenarioFile(nhui::scenarioPathForData(csv).toStdString()).edits, edits);

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
