// The live page (resources/html/live.js with the web engine of app/web, carried by the page that
// ui/export/interactive_page.cpp, live_page.cpp and web_engine.cpp write): opened in headless
// Chromium with #livetest it drives itself as a student would — the first parameter typed in
// at t = 2 s, run to 4 s, undone, a refused value, redone — and writes what it computed. Its
// rows are compared with the desktop's run loop (nh::ScenarioRun) of the same scenario with
// and without that edit, to 1e-10 of each column's scale (the residuals, round-off of zero,
// to 1e-12 absolute): the page computes the same motion
// as nhsim, and Undo restores the unedited one. A link's setup opens the page with its values
// and says in one line what it ignored. A live page of a SUNDIALS integrator or a planned
// motion is refused in one line. The page makes no request. Needs the web engine built (the
// wasm preset, NH_WEB_ENGINE_DIR) and chromium.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>

#include "catalogue_systems.h"
#include "core/io/scenario_file.h"
#include "core/model/catalogue.h"
#include "core/nh/comparison.h"
#include "core/nh/errors.h"
#include "core/nh/scenario_run.h"
#include "page_data.h"
#include "ui/export/animation_exporter.h"
#include "ui/export/interactive_page.h"

namespace {

using nh::test::scenarioOf;

// The live page of `scenario`, with its view's comparison (a lesson's) when it has one.
std::string livePageOf(const nh::Scenario& scenario) {
  nhui::ExportSettings settings;
  settings.tEnd = scenario.tEnd;
  nhui::applyScenarioView(scenario.view, settings);
  nhui::AnimationExporter exporter(scenario, settings);
  return nhui::exportedPage(exporter, scenario, true);
}

using Rows = std::vector<std::vector<double>>;

// The desktop's rows of `scenario` up to tEnd (every dt-out), as nhsim run writes them: up to
// where the run stopped, if it did (a bicycle that falls over).
Rows nativeRows(const nh::Scenario& scenario, double tEnd) {
  nh::ScenarioRun run(nh::findSystem(scenario.system), scenario);
  Rows rows;
  try {
    run.advance(tEnd, scenario.dtOut,
                [&](const nh::ScenarioRun::Sample& s) { rows.push_back(s.row); });
  } catch (const nh::Error& e) {
    qInfo("the desktop's run stopped: %s", e.what());
  }
  return rows;
}

// The desktop's comparison run beside `scenario` (core/nh/comparison.h, as the app and the
// video set it up), with the scenario's edits, up to tEnd every dt-out.
Rows nativeComparisonRows(const nh::Scenario& scenario, const nh::Comparison& comparison,
                          double tEnd) {
  const auto system = nh::findSystem(scenario.system);
  const nh::ScenarioRun primary(system, scenario);
  const nh::RunSetup start{system,
                           scenario.dynamics,
                           scenario.formulation,
                           scenario.integrator,
                           nh::resolveParameters(*system, scenario.parameters),
                           primary.start().x0};
  nh::ScenarioRun run(nh::comparisonSetup(start, comparison), 0.0);
  run.setEdits(scenario.edits, comparison);
  Rows rows;
  run.advance(tEnd, scenario.dtOut,
              [&](const nh::ScenarioRun::Sample& s) { rows.push_back(s.row); });
  return rows;
}

Rows rowsOf(const QJsonValue& value) {
  Rows rows;
  for (const QJsonValue row : value.toArray()) {
    std::vector<double> r;
    for (const QJsonValue v : row.toArray()) r.push_back(v.isNull() ? std::nan("") : v.toDouble());
    rows.push_back(std::move(r));
  }
  return rows;
}

// The largest difference of two runs relative to each column's largest magnitude; -1 when
// their shapes differ.
double difference(const Rows& a, const Rows& b) {
  if (a.size() != b.size() || a.empty() || a[0].size() != b[0].size()) return -1;
  double worst = 0;
  int said = 0;
  for (size_t c = 0; c < a[0].size(); ++c) {
    double scale = 1e-300;
    for (const auto& r : b) scale = std::max(scale, std::abs(r[c]));
    if (scale < 1e-12) scale = 1e-2;  // a residual, round-off of zero: |a − b| ≤ 1e-12 passes
    for (size_t k = 0; k < a.size(); ++k)
      if (!(std::isnan(a[k][c]) && std::isnan(b[k][c]))) {
        if (std::abs(a[k][c] - b[k][c]) / scale > 1e-10 && ++said <= 5)
          qWarning("row %zu column %zu: %.17g against %.17g", k, c, a[k][c], b[k][c]);
        worst = std::max(worst, std::abs(a[k][c] - b[k][c]) / scale);
      }
  }
  return worst;
}

}  // namespace

class LivePageTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    chromium_ = QStandardPaths::findExecutable("chromium");
  }

  // The page's engine computes what the desktop computes over 10 s, for every system with
  // dynamics at its defaults, with its first parameter edited at t = 2 s and after the undo.
  // Both at dop853, rtol 1e-12, as the engine's own suite (tests/app/web): the two builds
  // round a few operations differently, and where that flips a step's acceptance the runs
  // part by the order of the tolerance (the rattleback by 6e-10 at the default 1e-10).
  void editedAndUndoneAsTheDesktop_data() {
    QTest::addColumn<QString>("system");
    for (const auto& system : nh::test::systemsWithDynamics())
      QTest::newRow(system->name().c_str()) << QString::fromStdString(system->name());
  }
  void editedAndUndoneAsTheDesktop() {
    QFETCH(QString, system);
    constexpr double kEnd = 10;
    nh::Scenario scenario = scenarioOf(system.toStdString(), kEnd);
    scenario.integrator.method = nh::Integrator::Dop853;
    scenario.integrator.rtol = 1e-12;
    scenario.integrator.atol = 1e-14;
    const QJsonObject report = openedPage(scenario, QString("#livetest=%1").arg(kEnd));
    for (const QJsonValue check : report["checks"].toArray())
      QVERIFY2(check.toString().startsWith("ok"), qPrintable(check.toString()));
    QVERIFY(report["checks"].toArray().size() >= 7);
    const QJsonObject edit = report["edit"].toObject();
    nh::Scenario live = scenario;
    live.dtOut = dtOut_;
    // Undone, the run is computed again up to the time shown: where the edited run stopped,
    // if it did (the edited bicycle falls over), else the end.
    const Rows undoneRows = rowsOf(report["undone"]);
    QVERIFY(!undoneRows.empty() && undoneRows.back()[0] > 2);
    const Rows unedited = nativeRows(live, undoneRows.back()[0]);
    QCOMPARE(undoneRows.size(), unedited.size());
    const double undone = difference(rowsOf(report["undone"]), unedited);
    QVERIFY2(undone >= 0 && undone <= 1e-10, qPrintable(QString::number(undone)));
    nh::TimedEdit timed;
    timed.t = edit["t"].toDouble();
    timed.parameters[edit["name"].toString().toStdString()] = edit["value"].toDouble();
    QVERIFY2(std::abs(timed.t - 2.0) <= 1e-9, qPrintable(QString::number(timed.t)));
    live.edits = {timed};
    Rows edited = nativeRows(live, kEnd);
    Rows editedLive = rowsOf(report["edited"]);
    QCOMPARE(editedLive.size(), edited.size());
    if (edited.back()[0] < kEnd - 1e-9) {
      // A run that stops (the edited bicycle falls over) grows every difference without bound
      // as it nears the singular point: the runs are compared up to a second before it.
      const double before = edited.back()[0] - 1;
      auto cut = [before](Rows& rows) {
        while (!rows.empty() && rows.back()[0] > before) rows.pop_back();
      };
      cut(edited);
      cut(editedLive);
    }
    const double error = difference(editedLive, edited);
    QVERIFY2(error >= 0 && error <= 1e-10, qPrintable(QString::number(error)));
    // The edit changed the motion: the edited run is not the unedited one.
    QVERIFY(difference(rowsOf(report["edited"]), unedited) != 0);
  }

  // A lesson's comparison is run live beside the run shown: the vakonomic particle beside the
  // nonholonomic one, and nh-rattle beside rk4 at the lesson's large step h = 0.3 (each row a
  // step's end: the page's slices never cut a fixed step short). The run's rows and the
  // comparison's are the desktop's, with the edit and after its undo, and the edit changed them.
  void comparisonRunsLive_data() {
    QTest::addColumn<QString>("lesson");
    QTest::addColumn<int>("mode");
    QTest::addColumn<int>("method");
    QTest::newRow("vakonomic") << "particle_compare" << int(nh::CompareMode::Vakonomic) << 0;
    QTest::newRow("integrator") << "long_runs" << int(nh::CompareMode::Integrator)
                                << int(nh::Integrator::NhRattle);
  }
  void comparisonRunsLive() {
    QFETCH(QString, lesson);
    QFETCH(int, mode);
    QFETCH(int, method);
    QFile file(NH_EXAMPLES_DIR "/" + lesson + ".json");
    QVERIFY(file.open(QIODevice::ReadOnly));
    nh::Scenario scenario = nh::parseScenarioJson(file.readAll().toStdString(), "the lesson");
    scenario.tEnd = 4;
    const QJsonObject report = openedPage(scenario, "#livetest");
    for (const QJsonValue check : report["checks"].toArray())
      QVERIFY2(check.toString().startsWith("ok"), qPrintable(check.toString()));
    nh::Comparison comparison;
    comparison.mode = nh::CompareMode(mode);
    comparison.method = nh::Integrator(method);
    comparison.step = scenario.integrator.step;
    nh::Scenario live = scenario;
    live.dtOut = dtOut_;
    live.view.clear();
    const double runApart = difference(rowsOf(report["undone"]), nativeRows(live, 4));
    QVERIFY2(runApart >= 0 && runApart <= 1e-10, qPrintable(QString::number(runApart)));
    const Rows unedited = nativeComparisonRows(live, comparison, 4);
    const Rows undone = rowsOf(report["comparisonUndone"]);
    QCOMPARE(undone.size(), unedited.size());
    const double apart = difference(undone, unedited);
    QVERIFY2(apart >= 0 && apart <= 1e-10, qPrintable(QString::number(apart)));
    const QJsonObject edit = report["edit"].toObject();
    nh::TimedEdit timed;
    timed.t = edit["t"].toDouble();
    timed.parameters[edit["name"].toString().toStdString()] = edit["value"].toDouble();
    live.edits = {timed};
    const Rows edited = rowsOf(report["comparisonEdited"]);
    const double error = difference(edited, nativeComparisonRows(live, comparison, 4));
    QVERIFY2(error >= 0 && error <= 1e-10, qPrintable(QString::number(error)));
    QVERIFY(difference(edited, unedited) != 0);
  }

  // A link hands out a setup: its parameter taken, an unknown name and a bad value ignored
  // and said in one line.
  void linkRestoresASetup() {
    const nh::Scenario scenario = scenarioOf("ball_on_turntable", 4);
    const auto system = nh::findSystem("ball_on_turntable");
    const nh::ParameterInfo& p = system->info().parameters.front();
    const double value = p.defaultValue * 1.5 + 0.25;
    const QString hash = QString("#%1=%2&bogus=3&%1x=abc&t=1&livetest")
                             .arg(QString::fromStdString(p.name))
                             .arg(value, 0, 'g', 17);
    const QJsonObject report = openedPage(scenario, hash);
    QCOMPARE(report["setup"]
                 .toObject()["parameters"]
                 .toObject()[QString::fromStdString(p.name)]
                 .toDouble(),
             value);
    const QString message = report["message"].toString();
    QVERIFY2(message.startsWith("ignored in the link: ") && message.contains("bogus=3") &&
                 !message.contains('\n'),
             qPrintable(message));
    nh::Scenario linked = scenario;
    linked.dtOut = dtOut_;
    linked.parameters[p.name] = value;
    const double error = difference(rowsOf(report["rows"]), nativeRows(linked, 1));
    QVERIFY2(error >= 0 && error <= 1e-10, qPrintable(QString::number(error)));
  }

  // What the page's engine cannot run is refused in one line before any page is written.
  void refusals() {
    nh::Scenario bdf = scenarioOf("ball_on_turntable", 1);
    bdf.integrator.method = nh::Integrator::BdfCvode;
    try {
      livePageOf(bdf);
      QFAIL("a bdf page was written");
    } catch (const nh::InputError& e) {
      const QString what = e.what();
      QVERIFY2(what.contains("SUNDIALS") && what.contains("dop853") && !what.contains('\n'),
               e.what());
    }
  }

 private:
  // The live page of `scenario` opened with `hash`: the report its #livetest writes.
  QJsonObject openedPage(const nh::Scenario& scenario, const QString& hash) {
    if (chromium_.isEmpty())
      return {{"checks", QJsonArray{"FAIL chromium is not installed (scripts/install-deps.sh)"}}};
    const std::string html = livePageOf(scenario);
    const QJsonObject data = nhtest::pageDataOf(html);
    dtOut_ = data["live"].toObject()["scenario"].toObject()["dt_out"].toDouble();
    const QString path = dir_.filePath(QString("live-%1.html").arg(++pages_));
    nhui::writeInteractivePage(path.toStdString(), html);
    QProcess p;
    p.start(chromium_,
            {"--headless=new", "--no-sandbox", "--disable-gpu", "--use-angle=swiftshader",
             "--enable-unsafe-swiftshader", "--window-size=1280,800", "--virtual-time-budget=60000",
             "--user-data-dir=" + dir_.filePath(QString("profile-%1").arg(pages_)), "--dump-dom",
             "file://" + path + hash});
    if (!p.waitForFinished(180000)) return {{"checks", QJsonArray{"FAIL chromium did not finish"}}};
    const QString dom = QString::fromUtf8(p.readAllStandardOutput());
    const QString open = "<pre id=\"livetest\">";
    const qsizetype at = dom.indexOf(open);
    if (at < 0)
      return {{"checks", QJsonArray{"FAIL no report in the page: " +
                                    QString::fromUtf8(p.readAllStandardError()).right(1500)}}};
    QString json = dom.mid(at + open.size(), dom.indexOf("</pre>", at) - at - open.size());
    json.replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
    return QJsonDocument::fromJson(json.toUtf8()).object();
  }

  QTemporaryDir dir_;
  QString chromium_;
  double dtOut_ = 0;
  int pages_ = 0;
};

QTEST_GUILESS_MAIN(LivePageTest)
#include "live_page_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
