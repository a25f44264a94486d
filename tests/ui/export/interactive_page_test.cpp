// The interactive page (ui/export/interactive_page.h): built from a run in-process, opened in
// headless Chromium with #selftest (the page renders, reads its canvas, presses play, moves the
// slider and writes its verdict into the DOM, which --dump-dom prints), its size for 20 s runs,
// a lesson's note on it, text that cannot end its script early, and the targets it refuses.
// The page's bodies are bounded by the view's rule: the page data carries the core's bounding
// radius of each body (core/nh/scene_table.h) and the page's self-test compares its own rule's
// value with it, for the bicycle's wheels (disks) and frame tubes (cylinders). Every lesson
// with a comparison has the comparison run in every plot; each arrow has its own scale (the
// closed circle's friction is drawn readably beside the normal force); a path of two lengths
// is drawn with equal scales (the self-test measures it); titles are the app's names.
// The Chromium case is skipped where chromium is not installed (CI installs it).
#include "ui/export/interactive_page.h"

#include <sys/stat.h>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cstring>

#include "catalogue_systems.h"
#include "core/io/scenario_file.h"
#include "core/nh/scenario.h"
#include "core/nh/scene_table.h"
#include "page_data.h"
#include "ui/export/animation_exporter.h"
#include "ui/export/media/video_encoder.h"
#include "ui/sim/run_history.h"

namespace {

using nh::test::scenarioOf;

// The page of `scenario` as `nhsim export --html` makes it.
std::string pageOf(const nh::Scenario& scenario, double tEnd) {
  nhui::ExportSettings settings;
  settings.tEnd = tEnd;
  nhui::applyScenarioView(scenario.view, settings);
  nhui::AnimationExporter exporter(scenario, settings);
  return nhui::exportedPage(exporter, scenario);
}

// The lessons (resources/examples) whose view compares two runs.
QStringList comparingLessons() {
  QStringList out;
  for (const QString& name : QDir(NH_EXAMPLES_DIR).entryList({"*.json"}, QDir::Files, QDir::Name)) {
    QFile f(QDir(NH_EXAMPLES_DIR).filePath(name));
    if (!f.open(QIODevice::ReadOnly)) continue;
    const QJsonObject view = QJsonDocument::fromJson(f.readAll()).object()["view"].toObject();
    const QString mode = view["compare"].toObject()["mode"].toString("off");
    if (!view.isEmpty() && mode != "off") out << name;
  }
  return out;
}

QStringList entriesOf(const QString& folder) {
  return QDir(folder).entryList(
      QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
}

// The message a target gets from the video encoder and from the page, with the noun that
// differs ("a video" / "a page") taken out.
QString refusal(const std::function<void()>& write) {
  try {
    write();
  } catch (const nh::VideoError& e) {
    return QString::fromStdString(e.what()).replace("a video", "X").replace("a page", "X");
  } catch (const std::exception& e) {
    return QString("unexpected: ") + e.what();
  }
  return "accepted";
}

}  // namespace

class InteractivePageTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    QVERIFY2(nhui::interactivePageAvailable(), nhui::kPageUnavailable);
  }

  // The page draws something, play and the slider change the canvas, nothing is fetched.
  void opensInChromium_data() {
    QTest::addColumn<QString>("system");
    QTest::newRow("ball_on_turntable") << "ball_on_turntable";
    QTest::newRow("chaplygin_sleigh") << "chaplygin_sleigh";
  }
  void opensInChromium() {
    QFETCH(QString, system);
    const QString verdict = selfTestVerdict(system);
    if (verdict.isEmpty()) QSKIP("chromium is not installed (scripts/install-deps.sh)");
    QVERIFY2(verdict.startsWith("selftest: PASS"), qPrintable(verdict));
    QVERIFY2(verdict.contains("ok   no network request"), qPrintable(verdict));
    // Both systems' default path (the drag pair x–y) is of two lengths: measured to scale.
    QVERIFY2(verdict.contains(" to scale ("), qPrintable(verdict));
  }

  // The data carries each body's bounding radius as the core computes it for the view's
  // camera and tables, and its kind's row of the scene table.
  void dataCarriesTheCoreBounds() {
    const QJsonObject data = nhtest::pageDataOf(pageOf(scenarioOf("whipple_bicycle", 1), 1));
    const QJsonObject kinds = data["scene"].toObject()["kinds"].toObject();
    QStringList seen;
    for (const QJsonValue& value : data["bodies"].toArray()) {
      const QJsonObject body = value.toObject();
      const QString kind = body["kind"].toString();
      QVERIFY2(kinds.contains(kind), qPrintable(kind));
      const nh::ShapeRow* row = nullptr;
      for (const nh::ShapeRow& r : nh::kShapeTable)
        if (kind == r.name) row = &r;
      QVERIFY(row);
      const QJsonArray size = body["size"].toArray();
      const Eigen::Vector3d s(size[0].toDouble(), size[1].toDouble(), size[2].toDouble());
      QCOMPARE(body["bound"].toDouble(), nh::boundingRadius(row->kind, s));
      seen << kind;
    }
    QVERIFY2(seen.contains("Disk") && seen.contains("Cylinder"), qPrintable(seen.join(", ")));
  }

  // The page bounds the bicycle's wheels (disks) and frame tubes (cylinders) by its kinds' rule
  // as the data gives it, and that is the view's value (checked by the page's self-test).
  void pageBoundsAreTheViews() {
    const QString verdict = selfTestVerdict("whipple_bicycle");
    if (verdict.isEmpty()) QSKIP("chromium is not installed (scripts/install-deps.sh)");
    QVERIFY2(verdict.contains(QRegularExpression("\\nok   bound of Disk [^\\n]*as the app's")),
             qPrintable(verdict));
    QVERIFY2(verdict.contains(QRegularExpression("\\nok   bound of Cylinder [^\\n]*as the app's")),
             qPrintable(verdict));
    QVERIFY2(verdict.startsWith("selftest: PASS"), qPrintable(verdict));
  }

  // A 20 s run of catalogue systems with many bodies, arrows or traced points stays under 3 MB.
  void twentySecondsFitInThreeMegabytes_data() {
    QTest::addColumn<QString>("system");
    for (const char* s : {"whipple_bicycle", "ball_on_turntable", "rattleback", "rolling_disk_3d"})
      QTest::newRow(s) << s;
  }
  void twentySecondsFitInThreeMegabytes() {
    QFETCH(QString, system);
    const std::string html = pageOf(scenarioOf(system.toStdString(), 20), 20);
    QVERIFY2(html.size() <= 3000000, qPrintable(QString::number(html.size())));
    QVERIFY(html.find("@DATA@") == std::string::npos);
  }

  // A lesson's title and note are on the page; text cannot close the data's script element.
  void keepsTheLessonNote() {
    const nh::Scenario lesson = nh::readScenarioFile(NH_EXAMPLES_DIR "/disk_circle.json");
    const std::string html = pageOf(lesson, 2);
    QVERIFY(html.find("Rolling disk on a circle") != std::string::npos);
    QVERIFY(html.find("A vertical coin turning at 1 rad/s") != std::string::npos);

    nhui::ExportSettings settings;
    settings.tEnd = 1;
    nh::Scenario s = scenarioOf("rolling_disk", 1);
    nhui::AnimationExporter exporter(s, settings);
    nhui::PageSettings page = nhui::pageSettingsFor(s, settings);
    page.title = "a </script><script>alert(1)</script> title";
    page.note = "</script>";
    const std::string out = nhui::interactivePage(exporter.history(), page);
    QVERIFY(out.find("alert(1)</script>") == std::string::npos);
    QVERIFY(out.find("\\u003c/script>") != std::string::npos);
  }

  // Every lesson with a comparison: each of its own plots (its view's path and time series)
  // carries the comparison run's values beside the primary run's, and the legend names both.
  void everyPlotHasTheComparison() {
    const QStringList lessons = comparingLessons();
    QVERIFY(lessons.size() >= 2);
    for (const QString& name : lessons) {
      const nh::Scenario lesson =
          nh::readScenarioFile(QDir(NH_EXAMPLES_DIR).filePath(name).toStdString());
      const QJsonObject data = nhtest::pageDataOf(pageOf(lesson, 1));
      const QJsonObject plots = data["plots"].toObject();
      const QJsonArray runs = plots["runs"].toArray();
      QVERIFY2(runs.size() == 2 && !runs[0].toString().isEmpty() && !runs[1].toString().isEmpty(),
               qPrintable(name));
      nhui::ExportSettings own;
      nhui::applyScenarioPlots(lesson, own);
      QCOMPARE(plots["series"].toArray().size(), qsizetype(own.timeSeries.size()));
      std::vector<QJsonObject> columns;
      if (!own.pathX.empty()) {
        const QJsonObject path = plots["path"].toObject();
        QCOMPARE(path["x"].toObject()["name"].toString(), QString::fromStdString(own.pathX));
        QCOMPARE(path["y"].toObject()["name"].toString(), QString::fromStdString(own.pathY));
        columns = {path["x"].toObject(), path["y"].toObject()};
      }
      for (const QJsonValue& c : plots["series"].toArray()) columns.push_back(c.toObject());
      for (const QJsonObject& c : columns) {
        const std::vector<float> other = nhtest::pageFloats(c["comparison"]);
        QVERIFY2(std::any_of(other.begin(), other.end(), [](float v) { return std::isfinite(v); }),
                 qPrintable(name + ": " + c["name"].toString()));
        QCOMPARE(other.size(), nhtest::pageFloats(c["values"]).size());
      }
    }
  }

  // The closed circle's friction (what the lesson is about) is drawn on its own scale, not on
  // the normal force's: over the run, its arrow is on average at least a quarter as long as
  // the normal force's (on one shared scale it was a hundredth); titles are the app's names.
  void arrowsOnTheirOwnScales() {
    const nh::Scenario lesson = nh::readScenarioFile(NH_EXAMPLES_DIR "/ball_closed_circle.json");
    const QJsonObject data = nhtest::pageDataOf(pageOf(lesson, 4));
    const QJsonArray arrows = data["arrows"].toArray();
    const nh::SampleLayout layout{static_cast<size_t>(data["bodies"].toArray().size()),
                                  static_cast<size_t>(arrows.size()),
                                  static_cast<size_t>(data["points"].toArray().size())};
    const std::vector<float> samples = nhtest::pageFloats(data["samples"]);
    const size_t count = static_cast<size_t>(data["count"].toInt());
    // The mean drawn length of an arrow, in reference lengths.
    auto meanLength = [&](const QString& arrowName) {
      for (qsizetype i = 0; i < arrows.size(); ++i) {
        if (arrows[i].toObject()["name"].toString() != arrowName) continue;
        const std::vector<float> scale = nhtest::pageFloats(data["arrowScales"].toArray()[i]);
        double sum = 0;
        for (size_t k = 0; k < count; ++k) {
          const float* v = &samples[k * layout.width() + layout.arrow(static_cast<size_t>(i)) +
                                    nh::kArrowVector];
          const double length = std::sqrt(double(v[0]) * v[0] + v[1] * v[1] + v[2] * v[2]);
          if (std::isfinite(scale[k]) && scale[k] > 0) sum += length / scale[k];
        }
        return sum / static_cast<double>(count);
      }
      return -1.0;
    };
    const double friction = meanLength("friction"), normal = meanLength("normal force");
    QVERIFY2(normal > 0.05 && friction >= 0.25 * normal,
             qPrintable(QString("friction %1, normal force %2").arg(friction).arg(normal)));

    const QJsonObject plots = data["plots"].toObject();
    QStringList titles;
    for (const QJsonValue& c : plots["series"].toArray())
      titles << c.toObject()["label"].toString();
    QVERIFY2(titles.contains("friction force x [N]"), qPrintable(titles.join(", ")));
    QVERIFY2(!titles.contains("lambda_1 [N]"), qPrintable(titles.join(", ")));
  }

  // The path of two lengths (the closed circle's x–y) is drawn with equal scales; the long
  // runs' dimensionless x–z is not.
  void equalScalesForAPathOfLengths() {
    const nh::Scenario circle = nh::readScenarioFile(NH_EXAMPLES_DIR "/ball_closed_circle.json");
    QVERIFY(nhtest::pageDataOf(pageOf(circle, 1))["plots"]
                .toObject()["path"]
                .toObject()["equal"]
                .toBool());
    const nh::Scenario runs = nh::readScenarioFile(NH_EXAMPLES_DIR "/long_runs.json");
    const QJsonObject path =
        nhtest::pageDataOf(pageOf(runs, 1))["plots"].toObject()["path"].toObject();
    QCOMPARE(path["x"].toObject()["name"].toString(), QString("x"));
    QVERIFY(!path["equal"].toBool());
  }

  // The targets a video refuses, refused with the same messages (a link to a device, a FIFO,
  // a missing folder, a folder that is a file) and a directory; nothing left behind; an
  // existing page is replaced whole.
  void refusesWhatVideoRefuses() {
    const QDir folder(dir_.filePath("targets"));
    QVERIFY(QDir().mkpath(folder.path()));
    QVERIFY(QFile(folder.filePath("plain")).open(QIODevice::WriteOnly));
    for (const char* suffix : {".html", ".gif"}) {
      QVERIFY(QFile::link("/dev/null", folder.filePath(QString("null") + suffix)));
      QCOMPARE(
          ::mkfifo(QFile::encodeName(folder.filePath(QString("pipe") + suffix)).constData(), 0600),
          0);
      QVERIFY(folder.mkdir(QString("dir") + suffix));
    }
    const QStringList before = entriesOf(folder.path());
    const nh::VideoSettings video{320, 240, 15, nh::VideoFormat::Gif};
    for (const QString& name : QStringList{"null", "pipe", "missing/page", "plain/page"}) {
      const QString page = refusal([&] {
        nhui::writeInteractivePage(folder.filePath(name + ".html").toStdString(), "<html></html>");
      });
      const QString clip = refusal([&] {
        nh::VideoEncoder encoder;
        encoder.open(folder.filePath(name + ".gif").toStdString(), video);
      });
      QVERIFY2(page.startsWith("cannot write"), qPrintable(name + ": " + page));
      QCOMPARE(page, QString(clip).replace(".gif", ".html"));
    }
    const QString dir = folder.filePath("dir.html");
    QCOMPARE(refusal([&] { nhui::writeInteractivePage(dir.toStdString(), "<html></html>"); }),
             "cannot write '" + dir + "': it is a directory; choose a file name");
    QCOMPARE(entriesOf(folder.path()), before);

    const QString path = folder.filePath("page.html");
    nhui::writeInteractivePage(path.toStdString(), "first");
    nhui::writeInteractivePage(path.toStdString(), "second, longer");
    QFile written(path);
    QVERIFY(written.open(QIODevice::ReadOnly));
    QCOMPARE(written.readAll(), QByteArray("second, longer"));
    QStringList after = entriesOf(folder.path());
    QVERIFY(after.removeOne("page.html"));
    QCOMPARE(after, before);
  }

 private:
  // The page of `system` (4 s) opened in headless Chromium with #selftest: its verdict, "" when
  // Chromium is not installed.
  QString selfTestVerdict(const QString& system) {
    const QString chromium = QStandardPaths::findExecutable("chromium");
    if (chromium.isEmpty()) return {};
    const QString path = dir_.filePath(system + ".html");
    nhui::writeInteractivePage(path.toStdString(), pageOf(scenarioOf(system.toStdString(), 4), 4));
    QProcess p;
    p.start(chromium, {"--headless=new", "--no-sandbox", "--disable-gpu", "--use-angle=swiftshader",
                       "--enable-unsafe-swiftshader", "--window-size=1024,700",
                       "--user-data-dir=" + dir_.filePath("profile-" + system), "--dump-dom",
                       "file://" + path + "#selftest"});
    if (!p.waitForFinished(120000)) return "selftest: chromium did not finish";
    const QString dom = QString::fromUtf8(p.readAllStandardOutput());
    const qsizetype at = dom.indexOf("selftest: ");
    if (at < 0)
      return "selftest: no verdict in the page: " +
             QString::fromUtf8(p.readAllStandardError()).right(2000);
    return dom.mid(at, dom.indexOf("</pre>", at) - at);
  }

  QTemporaryDir dir_;
};

QTEST_GUILESS_MAIN(InteractivePageTest)
#include "interactive_page_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
