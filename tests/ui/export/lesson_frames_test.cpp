// Exported frames of every lesson show the lesson's bodies: each exported moment is framed the
// way the view frames it (keep in view or follow, from the exported span's own bodies, also
// when the start camera looks somewhere else, as the live camera does after a minute of
// play), the comparison run is drawn where the lesson has one (a vakonomic plan's
// nonholonomic companion too), and no frame is a bare background; a lesson that plans its
// motion shows its planned motion. A few small frames per lesson keep the run time short.
#include <QTest>
#include <cmath>

#include "core/model/catalogue.h"
#include "resources/app_resources.h"
#include "ui/export/animation_exporter.h"
#include "ui/export/media/virtual_display.h"
#include "ui/scene/scene_camera.h"
#include "ui/session/scenario_view.h"
#include "ui/sim/run_history.h"

using nhui::AnimationExporter;
using nhui::CameraPose;
using nhui::ExportSettings;

namespace {

constexpr int kWidth = 240, kHeight = 180;

// Where a world point lands in a kWidth × kHeight image seen through `camera` (pixels, top
// row 0), and its depth in front of the eye.
struct Projected {
  double x = 0, y = 0, depth = 0, pixelsPerUnit = 0;
};
Projected project(const CameraPose& camera, const Eigen::Vector3d& p) {
  const Eigen::Vector3d eye(camera.position.data()), focus(camera.focalPoint.data()),
      up(camera.viewUp.data());
  const Eigen::Vector3d forward = (focus - eye).normalized();
  const Eigen::Vector3d right = forward.cross(up).normalized();
  const Eigen::Vector3d trueUp = right.cross(forward);
  const Eigen::Vector3d rel = p - eye;
  const double tanY = std::tan(0.5 * camera.viewAngle * M_PI / 180);
  const double aspect = static_cast<double>(kWidth) / kHeight;
  Projected out;
  out.depth = rel.dot(forward);
  const double x = rel.dot(right) / (out.depth * tanY * aspect);
  const double y = rel.dot(trueUp) / (out.depth * tanY);
  out.x = 0.5 * (x + 1) * kWidth;
  out.y = 0.5 * (1 - y) * kHeight;
  out.pixelsPerUnit = 0.5 * kHeight / (out.depth * tanY);
  return out;
}

// A blank frame is one gradient: each row the same colour. Counts pixels far from their
// row's first pixel.
long differingFromRow(const nh::RgbImage& image) {
  long n = 0;
  for (int y = 0; y < image.height; ++y) {
    const std::uint8_t* row = image.row(y);
    for (int x = 0; x < image.width; ++x) {
      const std::uint8_t* p = row + 3 * x;
      if (std::abs(p[0] - row[0]) + std::abs(p[1] - row[1]) + std::abs(p[2] - row[2]) > 60) ++n;
    }
  }
  return n;
}

// Pixels within `radius` of (cx, cy) that read as the comparison run's orange (red high,
// green in the middle, blue low), translucent over any background; not the yellow of a
// particle (green near red) nor the red of a force arrow (green low).
long orangeNear(const nh::RgbImage& image, double cx, double cy, double radius) {
  long n = 0;
  for (int y = std::max(0, int(cy - radius)); y <= std::min(image.height - 1, int(cy + radius));
       ++y)
    for (int x = std::max(0, int(cx - radius)); x <= std::min(image.width - 1, int(cx + radius));
         ++x) {
      const std::uint8_t* p = image.row(y) + 3 * x;
      if (p[0] > 100 && p[1] > 0.35 * p[0] && p[1] < 0.72 * p[0] && p[2] < 0.6 * p[1]) ++n;
    }
  return n;
}

}  // namespace

class LessonFramesTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { display_ = nh::ensureDisplay(); }

  // Each lesson exported as nhsim export exports it (its view's camera mode, arrows and
  // comparison), from the default start camera and from a camera that looks far away.
  void everyLessonShowsItsBodies_data() {
    QTest::addColumn<QString>("lesson");
    QTest::addColumn<bool>("farCamera");
    for (const nhres::Example& e : nhres::examples()) {
      QTest::newRow(qPrintable(e.file)) << e.resourcePath() << false;
      // A planned motion is solved first: from the default camera only, to keep the time short.
      if (nhui::parseScenarioView(nhres::readResourceScenario(e.resourcePath()).view).plan)
        continue;
      QTest::newRow(qPrintable(e.file + " far camera")) << e.resourcePath() << true;
    }
  }
  void everyLessonShowsItsBodies() {
    QFETCH(QString, lesson);
    QFETCH(bool, farCamera);
    const nh::Scenario scenario = nhres::readResourceScenario(lesson);
    ExportSettings s;
    s.width = kWidth;
    s.height = kHeight;
    s.fps = std::max(2.0, 3 / scenario.tEnd);  // at least four frames (a plan's 1 s too)
    s.tEnd = scenario.tEnd;
    nhui::applyScenarioView(scenario.view, s);
    if (farCamera) {
      // The live camera after a minute of play: framed for a place the bodies are not at
      // the start, seen from farther out.
      CameraPose far;
      far.focalPoint = {40, -25, 3};
      far.position = {44, -32, 8};
      s.camera = far;
    }
    AnimationExporter exporter(scenario, s);
    const nhui::RunHistory& run = exporter.history();
    const nhui::RunHistory* comparison = exporter.comparisonHistory();
    const std::string follow = nh::findSystem(scenario.system)->info().editing.followBody;
    const int n = exporter.frameCount();
    QVERIFY(n >= 4);
    for (int i : {0, 1, n / 2, n - 1}) {
      const nh::RgbImage image = exporter.renderFrame(i);
      const CameraPose camera = exporter.cameraAt(i);
      const double t = exporter.sampleTime(i);
      const QString where = QString("frame %1 (t = %2 s)").arg(i).arg(t);
      QVERIFY2(differingFromRow(image) > kWidth * kHeight / 100, qPrintable(where + ": blank"));
      nh::SceneFrame frame;
      run.sceneAt(t, frame);
      const auto bodies = nhui::movingBodySpheres(frame, follow);
      QVERIFY(!bodies.empty());
      for (const auto& b : bodies) {
        const Projected p = project(camera, b.centre);
        QVERIFY2(p.depth > 0 && p.x > 0 && p.x < kWidth && p.y > 0 && p.y < kHeight,
                 qPrintable(where + QString(": body at (%1, %2) px").arg(p.x).arg(p.y)));
      }
      if (!comparison) continue;
      QVERIFY2(exporter.comparisonShown(i), qPrintable(where + ": no comparison run"));
      comparison->sceneAt(t, frame);
      for (const auto& b : nhui::movingBodySpheres(frame, follow)) {
        const Projected p = project(camera, b.centre);
        QVERIFY2(p.depth > 0 && p.x > 0 && p.x < kWidth && p.y > 0 && p.y < kHeight,
                 qPrintable(where + QString(": comparison at (%1, %2) px").arg(p.x).arg(p.y)));
        const double radius = std::max(2.0, b.radius * p.pixelsPerUnit);
        QVERIFY2(orangeNear(image, p.x, p.y, radius + 1) > 0,
                 qPrintable(where + ": the comparison body is not drawn"));
      }
    }
  }

  // What a lesson's view part says reaches the export: the followed body, the velocity
  // arrow, fixed scales and the vakonomic comparison; entries it leaves out stay as set.
  void scenarioViewReachesTheSettings() {
    ExportSettings s;
    s.display.trails = false;
    nhui::applyScenarioView(R"({"version": 1, "camera": {"follow": true},
        "display": {"velocity": true, "arrow_scale": "fixed", "trail_seconds": 7},
        "compare": {"mode": "vakonomic"}})",
                            s);
    QCOMPARE(s.framing, ExportSettings::Framing::Follow);
    QVERIFY(s.display.velocityArrows);
    QVERIFY(s.display.arrowScaleFixed);
    QVERIFY(!s.display.trails);
    QCOMPARE(s.display.trailSeconds, 7.0);
    QCOMPARE(s.comparison.mode, nhui::CompareMode::Vakonomic);
    nhui::applyScenarioView(R"({"version": 1, "camera": {"follow": false},
        "compare": {"mode": "ghost", "parameter": "m", "value": 2}})",
                            s);
    QCOMPARE(s.framing, ExportSettings::Framing::KeepInView);
    QCOMPARE(s.comparison.mode, nhui::CompareMode::Ghost);
    QCOMPARE(s.comparison.ghostParameter, std::string("m"));
    QCOMPARE(s.comparison.ghostValue, 2.0);
  }

  // A ghost run of an unknown parameter is refused before anything is simulated.
  void unknownGhostParameterIsRefused() {
    ExportSettings s;
    s.width = kWidth;
    s.height = kHeight;
    s.tEnd = 1;
    s.comparison.mode = nhui::CompareMode::Ghost;
    s.comparison.ghostParameter = "nope";
    try {
      AnimationExporter exporter(nh::Scenario{}, s);
      QFAIL("an unknown ghost parameter was accepted");
    } catch (const nh::InputError& e) {
      QVERIFY2(QString(e.what()).contains("'nope'"), e.what());
    }
  }

 private:
  std::unique_ptr<nh::VirtualDisplay> display_;
};

QTEST_MAIN(LessonFramesTest)
#include "lesson_frames_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
