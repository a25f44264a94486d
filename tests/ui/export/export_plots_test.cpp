// The plots beside an exported animation (ui/export/export_plots.cpp): every lesson with a
// comparison has both runs' curves, named for the legend, in each of its own plots (its view's
// path and time series, as `nhsim export --plots` takes them); a path of two lengths (the
// closed circle's x–y) has equal scales on the frame it is painted in; panes are titled with
// the app's display names. Renders through ensureDisplay() (the view is set up as for a frame).
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <cmath>
#include <memory>

#include "core/io/scenario_file.h"
#include "core/nh/scenario.h"
#include "ui/export/animation_exporter.h"
#include "ui/export/media/virtual_display.h"

namespace {

// The settings `nhsim export LESSON --plots` takes: the lesson's view and plots, small frames.
nhui::ExportSettings lessonSettings(const nh::Scenario& lesson, double tEnd) {
  nhui::ExportSettings s;
  s.width = 480;
  s.height = 270;
  s.fps = 10;
  s.tEnd = tEnd;
  nhui::applyScenarioView(lesson.view, s);
  nhui::applyScenarioPlots(lesson, s);
  s.plots = true;
  return s;
}

nh::Scenario lessonOf(const QString& name) {
  return nh::readScenarioFile(QDir(NH_EXAMPLES_DIR).filePath(name).toStdString());
}

// The lessons whose view compares two runs.
QStringList comparingLessons() {
  QStringList out;
  for (const QString& name : QDir(NH_EXAMPLES_DIR).entryList({"*.json"}, QDir::Files, QDir::Name)) {
    QFile f(QDir(NH_EXAMPLES_DIR).filePath(name));
    if (!f.open(QIODevice::ReadOnly)) continue;
    const QJsonObject view = QJsonDocument::fromJson(f.readAll()).object()["view"].toObject();
    if (!view.isEmpty() && view["compare"].toObject()["mode"].toString("off") != "off") out << name;
  }
  return out;
}

}  // namespace

class ExportPlotsTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { display_ = nh::ensureDisplay(); }

  // The particle lesson's own plots (x–z, then z, vz and the energy), not x–y and the energy.
  void lessonPlotsAreItsOwn() {
    nhui::ExportSettings s;
    nhui::applyScenarioPlots(lessonOf("particle_compare.json"), s);
    QCOMPARE(s.pathX + "," + s.pathY, std::string("x,z"));
    QCOMPARE(s.timeSeries, (std::vector<std::string>{"z", "vz", "energy"}));
    nh::Scenario plain;
    plain.system = "ball_on_turntable";
    nhui::applyScenarioPlots(plain, s);
    QCOMPARE(s.pathX + "," + s.pathY, std::string("x,y"));
    QCOMPARE(s.timeSeries, std::vector<std::string>{"energy"});
  }

  // Both runs in every pane of every lesson with a comparison, each named as the legend does.
  void everyPaneHasBothRuns() {
    const QStringList lessons = comparingLessons();
    QVERIFY(lessons.size() >= 2);
    for (const QString& name : lessons) {
      const nh::Scenario lesson = lessonOf(name);
      const nhui::ExportSettings s = lessonSettings(lesson, 1);
      nhui::AnimationExporter exporter(lesson, s);
      const auto labels = exporter.runLabels();
      const std::vector<nhui::ExportPlot> plots = exporter.plotsAt(exporter.frameCount() - 1);
      size_t panes = 0;
      for (const nhui::ExportPlot& plot : plots)
        for (const nhui::PlotPane& pane : plot.panes) {
          ++panes;
          QVERIFY2(pane.curves.size() == 2, qPrintable(name + ": " + pane.yLabel));
          for (int r = 0; r < 2; ++r) {
            const nhui::PlotCurve& c = pane.curves[static_cast<size_t>(r)];
            QCOMPARE(c.run, r);
            QCOMPARE(c.name.toStdString(), labels[static_cast<size_t>(r)]);
            QVERIFY2(c.count > 1, qPrintable(name + ": " + pane.yLabel));
          }
        }
      QCOMPARE(panes, s.timeSeries.size() + (s.pathX.empty() ? 0 : 1));
    }
  }

  // The closed circle's x–y path: one scale on both axes in the frame it is painted in (the
  // circle is round); its panes titled as the app titles them.
  void pathOfLengthsToScale() {
    const nh::Scenario lesson = lessonOf("ball_closed_circle.json");
    nhui::AnimationExporter exporter(lesson, lessonSettings(lesson, 3));
    const std::vector<nhui::ExportPlot> plots = exporter.plotsAt(0);
    QCOMPARE(plots.size(), size_t(2));
    const nhui::ExportPlot& path = plots[0];
    QVERIFY(path.path);
    QVERIFY(!path.equalFrame.isEmpty());
    const double sx = (path.x.hi - path.x.lo) / path.equalFrame.width();
    const double sy = (path.panes[0].y.hi - path.panes[0].y.lo) / path.equalFrame.height();
    QVERIFY2(std::abs(sx - sy) <= 1e-9 * sx, qPrintable(QString("%1 against %2").arg(sx).arg(sy)));
    QCOMPARE(path.panes[0].yLabel, QString("centre x [m] – centre y [m]"));
    QStringList titles;
    for (const nhui::PlotPane& pane : plots[1].panes) titles << pane.yLabel;
    QVERIFY2(titles.contains("friction force x [N]"), qPrintable(titles.join(", ")));
    QCOMPARE(plots[1].xLabel, QString("t [s]"));
  }

 private:
  std::unique_ptr<nh::VirtualDisplay> display_;
};

QTEST_MAIN(ExportPlotsTest)
#include "export_plots_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
