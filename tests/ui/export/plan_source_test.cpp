// A planned motion exported (ui/export/plan_source.cpp): the lesson's plan solved as the app
// solves it, its extremal on the frame grid with a last frame at T that shows the body at the
// target, the start and target ghosts drawn in the frames, the controls and costates as plot
// columns, the vakonomic plan's nonholonomic companion as the comparison, the sidecar that
// solves the same plan again, and the refusals left (a control model with no plan, an end
// time past T).
#include "ui/export/plan_source.h"

#include <QDir>
#include <QImage>
#include <QPointF>
#include <QTest>
#include <cmath>
#include <memory>

#include "core/io/scenario_file.h"
#include "core/model/catalogue.h"
#include "core/nh/scene_table.h"
#include "resources/app_resources.h"
#include "ui/export/animation_exporter.h"
#include "ui/export/media/virtual_display.h"
#include "ui/session/scenario_view.h"
#include "ui/sim/run_history.h"

using nhui::AnimationExporter;
using nhui::ExportSettings;

namespace {

constexpr int kWidth = 320, kHeight = 240;

ExportSettings smallSettings(double tEnd) {
  ExportSettings s;
  s.width = kWidth;
  s.height = kHeight;
  s.fps = 5;
  s.tEnd = tEnd;
  return s;
}

// Where a world point lands in the image seen through `camera` (pixels, top row 0).
QPointF project(const nhui::CameraPose& camera, const Eigen::Vector3d& p) {
  const Eigen::Vector3d eye(camera.position.data()), focus(camera.focalPoint.data()),
      up(camera.viewUp.data());
  const Eigen::Vector3d forward = (focus - eye).normalized();
  const Eigen::Vector3d right = forward.cross(up).normalized();
  const Eigen::Vector3d trueUp = right.cross(forward);
  const Eigen::Vector3d rel = p - eye;
  const double tanY = std::tan(0.5 * camera.viewAngle * M_PI / 180);
  const double depth = rel.dot(forward);
  const double x = rel.dot(right) / (depth * tanY * kWidth / kHeight);
  const double y = rel.dot(trueUp) / (depth * tanY);
  return {0.5 * (x + 1) * kWidth, 0.5 * (1 - y) * kHeight};
}

// Pixels within `radius` of `at` that differ clearly between two images.
long changedNear(const nh::RgbImage& a, const nh::RgbImage& b, QPointF at, int radius) {
  long n = 0;
  for (int y = std::max(0, int(at.y()) - radius); y <= std::min(kHeight - 1, int(at.y()) + radius);
       ++y)
    for (int x = std::max(0, int(at.x()) - radius); x <= std::min(kWidth - 1, int(at.x()) + radius);
         ++x) {
      const std::uint8_t* p = a.row(y) + 3 * x;
      const std::uint8_t* q = b.row(y) + 3 * x;
      if (std::abs(p[0] - q[0]) + std::abs(p[1] - q[1]) + std::abs(p[2] - q[2]) > 30) ++n;
    }
  return n;
}

// Where the first body that is not scenery (a table, a guide) is.
Eigen::Vector3d movingBodyAt(const nh::SceneFrame& frame) {
  for (const auto& b : frame.bodies)
    if (!nh::shapeRow(b.kind).scenery) return b.position;
  return Eigen::Vector3d::Constant(std::nan(""));
}

double valueAt(const nhui::RunHistory& run, const char* column, size_t k) {
  const int c = run.columnIndex(column);
  return c < 0 ? std::nan("") : run.column(c)[k];
}

}  // namespace

class PlanSourceTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { display_ = nh::ensureDisplay(); }

  // Parallel parking (a control model): 4 s at 5 fps is 21 frames, the last at T, where the
  // unicycle stands at the target (x, y, theta) = (0, 1, 0) of the lesson's plan.
  void theLessonsPlanIsExported() {
    const nh::Scenario scenario = nhres::readResourceScenario(":/examples/parallel_parking.json");
    ExportSettings s = smallSettings(4);
    nhui::applyScenarioView(scenario.view, s);
    s.plots = true;
    s.timeSeries = {"u1", "u2", "xi_v1", "cost"};  // the controls, a costate, the cost
    AnimationExporter exporter(scenario, s);
    QCOMPARE(exporter.frameCount(), 21);
    QCOMPARE(exporter.sampleTime(20), 4.0);
    const nhui::PlannedMotion* planned = exporter.plannedMotion();
    QVERIFY(planned);
    QVERIFY(!planned->companion);  // a control model has no nonholonomic companion
    const nhui::RunHistory& run = exporter.history();
    const size_t last = run.indexAtOrBefore(exporter.sampleTime(20) + 1e-12);
    QVERIFY(std::abs(run.time(last) - 4) < 1e-12);
    for (const auto& [name, target] : planned->plan.targets)
      QVERIFY2(
          std::abs(valueAt(run, name.c_str(), last) - target) < 1e-6,
          qPrintable(
              QString("%1 = %2 at T").arg(name.c_str()).arg(valueAt(run, name.c_str(), last))));
    // The frames follow the extremal: halfway, the exported sample is the plan's.
    const nhui::RunHistory& plan = *planned->run;
    const size_t mid = run.indexAtOrBefore(2 + 1e-12);
    const size_t planMid = plan.indexAtOrBefore(2 + 1e-12);
    QVERIFY(std::abs(plan.time(planMid) - 2) < 1e-9);
    QVERIFY(std::abs(valueAt(run, "y", mid) - valueAt(plan, "y", planMid)) < 1e-9);
    // The CSV: the extremal as solved, controls and costates included.
    const nhui::RunHistory& csv = exporter.recordedRun();
    for (const char* column : {"x", "theta", "v1", "u1", "u2", "xi_v1", "cost"})
      QVERIFY2(csv.columnIndex(column) >= 0, column);
    QCOMPARE(csv.size(), plan.size());

    // Frame 0 shows the target ghost where the body will be at T; the last frame shows the
    // body there (it covers its ghost), so the two differ little there but much at the start.
    const nh::RgbImage first = exporter.renderFrame(0);
    const nh::RgbImage lastFrame = exporter.renderFrame(20);
    nh::SceneFrame start, target;
    run.sceneAt(0, start);
    run.sceneAt(4, target);
    const QPointF atStart = project(exporter.cameraAt(0), movingBodyAt(start));
    QVERIFY2(changedNear(first, lastFrame, atStart, 6) > 10, "the body left its start");
    QImage(lastFrame.pixels.data(), kWidth, kHeight, 3 * kWidth, QImage::Format_RGB888)
        .save(QDir::temp().filePath("plan_source_test_last_frame.png"));

    // The sidecar solves the same plan again, for the same span.
    const nh::Scenario& resolved = exporter.resolvedScenario();
    QCOMPARE(resolved.tEnd, 4.0);
    const auto plan2 = nhui::parseScenarioView(resolved.view).plan;
    QVERIFY(plan2);
    QVERIFY(plan2->targets == planned->plan.targets);
    QCOMPARE(plan2->tEnd, 4.0);
  }

  // The start and target ghosts are drawn: frame 0 has the target ghost where the unicycle
  // stands at T, which it leaves out when the "plan" holds the body at its start (its target
  // ghost then is its start); the same camera, the same body, the same start ghost.
  void theGhostsAreDrawn() {
    const nh::Scenario scenario = nhres::readResourceScenario(":/examples/parallel_parking.json");
    ExportSettings s = smallSettings(4);
    s.framing = ExportSettings::Framing::Fixed;
    s.display.trails = false;
    s.overlay = false;
    AnimationExporter exporter(scenario, s);
    const nhui::RunHistory& run = exporter.history();
    nh::SceneFrame target;
    run.sceneAt(4, target);
    const nh::RgbImage first = exporter.renderFrame(0);

    nhui::PlannedMotion held = *exporter.plannedMotion();
    const nhui::RunHistory& plan = *held.run;
    auto still = std::make_shared<nhui::RunHistory>(nh::findSystem("unicycle"), plan.dynamics(),
                                                    plan.layout());
    still->setParametersFrom(0, plan.parametersAt(0));
    std::vector<double> record(plan.layout().stride());
    for (size_t k = 0; k < plan.size(); ++k) {
      for (int c = 0; c < plan.layout().stride(); ++c) record[c] = plan.column(c)[0];
      record[0] = plan.time(k);
      still->append(record.data(), 1);
    }
    held.run = still;
    ExportSettings heldSettings = s;
    heldSettings.camera = exporter.cameraAt(0);
    AnimationExporter without(scenario, heldSettings,
                              std::make_shared<const nhui::PlannedMotion>(held));
    QCOMPARE(without.frameCount(), 21);
    const nh::RgbImage other = without.renderFrame(0);
    const QPointF atTarget = project(exporter.cameraAt(0), movingBodyAt(target));
    QVERIFY2(
        changedNear(first, other, atTarget, 6) > 10,
        qPrintable(QString("no target ghost at (%1, %2) px").arg(atTarget.x()).arg(atTarget.y())));
  }

  // A vakonomic plan: its nonholonomic companion is the comparison, with its legend.
  void theCompanionIsTheComparison() {
    const nh::Scenario scenario =
        nhres::readResourceScenario(":/examples/particle_vakonomic_ends.json");
    AnimationExporter exporter(scenario, smallSettings(2));
    QCOMPARE(exporter.frameCount(), 11);
    const nhui::RunHistory* companion = exporter.comparisonHistory();
    QVERIFY(companion);
    QVERIFY(companion->dynamics() == nh::DynamicsKind::Nonholonomic);
    QVERIFY(exporter.history().dynamics() == nh::DynamicsKind::Vakonomic);
    QCOMPARE(exporter.comparisonLegend(), std::string("blue: vakonomic   orange: nonholonomic"));
    QVERIFY(exporter.comparisonShown(10));
    QVERIFY(exporter.history().columnIndex("mu_1") >= 0);
  }

  // What is still refused, in one line each.
  void refusals() {
    nh::Scenario unplanned;
    unplanned.system = "unicycle";
    try {
      AnimationExporter exporter(unplanned, smallSettings(1));
      QFAIL("a control model without a plan was accepted");
    } catch (const nh::InputError& e) {
      QCOMPARE(QString(e.what()), QString(nhui::kNoPlanRefused));
    }
    const nh::Scenario scenario = nhres::readResourceScenario(":/examples/parallel_parking.json");
    try {
      AnimationExporter exporter(scenario, smallSettings(5));
      QFAIL("an end time past T was accepted");
    } catch (const nh::InputError& e) {
      QVERIFY2(QString(e.what()).contains("ends at T = 4 s"), e.what());
    }
  }

 private:
  std::unique_ptr<nh::VirtualDisplay> display_;
};

QTEST_MAIN(PlanSourceTest)
#include "plan_source_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
