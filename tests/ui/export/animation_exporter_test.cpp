// AnimationExporter in-process: the frame grid, validation, cancellation, early failure on an
// unwritable target, determinism of rendered frames, plots beside the 3D view, the scenario
// sidecar, the view's theme and a scenario's camera, the overlay off the bodies in a small
// frame. Renders through ensureDisplay() (a private Xvfb when DISPLAY is unusable).
#include "ui/export/animation_exporter.h"

#include <QDir>
#include <QGuiApplication>
#include <QTemporaryDir>
#include <QTest>
#include <atomic>
#include <cmath>

#include "core/io/scenario_file.h"
#include "core/model/catalogue.h"
#include "core/nh/errors.h"
#include "core/nh/scenario.h"
#include "core/nh/simulation.h"
#include "ui/export/media/video_probe.h"
#include "ui/export/media/virtual_display.h"
#include "ui/plot/plot_widget.h"
#include "ui/sim/run_history.h"

using nhui::AnimationExporter;
using nhui::ExportSettings;

namespace {

ExportSettings small(double tEnd = 1.0) {
  ExportSettings s;
  s.width = 320;
  s.height = 240;
  s.fps = 15;
  s.tEnd = tEnd;
  return s;
}

// The mean brightness (0 … 255) of a row of pixels from x0 to x1.
double brightness(const nh::RgbImage& image, int y, int x0, int x1) {
  double sum = 0;
  for (int x = x0; x < x1; ++x)
    for (int c = 0; c < 3; ++c) sum += image.row(y)[3 * x + c];
  return sum / (3.0 * (x1 - x0));
}

QString boxText(const nhui::ScreenBox& b) {
  return QString("(%1, %2)-(%3, %4)").arg(b.x0).arg(b.y0).arg(b.x1).arg(b.y1);
}

QStringList entriesOf(const QString& folder) {
  return QDir(folder).entryList(QDir::AllEntries | QDir::Hidden | QDir::System |
                                QDir::NoDotAndDotDot);
}

template <class F>
QString inputErrorOf(F f) {
  try {
    f();
  } catch (const nh::InputError& e) {
    return QString::fromUtf8(e.what());
  }
  return {};
}

}  // namespace

class AnimationExporterTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    display_ = nh::ensureDisplay();
    QVERIFY(dir_.isValid());
  }

  // N = round((tEnd − tStart)·fps/speed); frame i at tStart + i·speed/fps.
  void frameGrid() {
    ExportSettings s;
    s.tEnd = 10;
    QCOMPARE(s.frameCount(), 300);
    s.speed = 0.25;
    s.tStart = 1;
    s.tEnd = 2;
    QCOMPARE(s.frameCount(), 120);
    QVERIFY(std::abs(s.frameTime(4) - (1 + 4 * 0.25 / 30)) < 1e-15);
    s.speed = 4;
    s.tStart = 0;
    s.tEnd = 3;
    s.fps = 10;
    QCOMPARE(s.frameCount(), 8);  // 7.5 rounds up
  }

  // A run of fixed steps longer than the export's samples (the long-runs lesson: rk4 and
  // nh-rattle at h = 0.3 s, 10× time-lapse at 30 fps, samples 0.0098 s apart) takes its own
  // steps, as in the app and in nhsim run: each sample's energy is the linear interpolation of
  // a run's at t = 0.3 k, for both runs, rk4's energy drifts as it does at that step, and the
  // run the CSV gets is its states at those steps.
  void fixedStepsAreKeptBetweenSamples() {
    nh::Scenario scenario;
    scenario.system = "nonholonomic_oscillator";
    scenario.integrator.method = nh::Integrator::Rk4;
    scenario.integrator.step = 0.3;
    scenario.dtOut = 0.3;
    ExportSettings s = small(60.0);
    s.fps = 30;
    s.speed = 10;
    s.comparison.mode = nhui::CompareMode::Integrator;
    s.comparison.method = nh::Integrator::NhRattle;
    s.comparison.step = 0.3;
    AnimationExporter exporter(scenario, s);
    const auto system = nh::findSystem(scenario.system);
    for (const bool comparison : {false, true}) {
      const nhui::RunHistory& run = comparison ? *exporter.comparisonHistory() : exporter.history();
      QVERIFY(run.size() > 5000);  // 60 s at about 0.01 s
      nh::IntegratorOptions options = scenario.integrator;
      if (comparison) options.method = nh::Integrator::NhRattle;
      nh::Simulation reference(system, nh::DynamicsKind::Nonholonomic, nh::Formulation::Multipliers,
                               options);
      reference.setState(0, nh::initialState(reference.equations(), 0, {}));
      std::vector<double> energies;
      reference.advance(61.0, 0.3, [&](double t, const double* x) {
        energies.push_back(reference.equations().energy(reference.workspace(), t, x));
      });
      const std::vector<double>& energy = run.column(run.columnIndex("energy"));
      for (size_t k = 0; k < run.size(); ++k) {
        const double t = run.time(k);
        const auto j = static_cast<size_t>(std::floor(t / 0.3 + 1e-9));
        const double w = t / 0.3 - static_cast<double>(j);
        const double expected =
            w < 1e-9 ? energies[j] : (1 - w) * energies[j] + w * energies[j + 1];
        if (!(std::abs(energy[k] - expected) < 1e-12 * std::abs(expected)))
          QFAIL(qPrintable(QString("%1 run, t = %2: energy %3, the run at its steps %4")
                               .arg(comparison ? "nh-rattle" : "rk4")
                               .arg(t)
                               .arg(energy[k], 0, 'g', 17)
                               .arg(expected, 0, 'g', 17)));
      }
      if (!comparison) {
        const double drift = (energies[200] - energies[0]) / std::abs(energies[0]);
        QVERIFY2(drift < -1e-3, qPrintable(QString::number(drift)));  // rk4 loses energy
        // The CSV's rows are the run's own states at its steps, none interpolated.
        const nhui::RunHistory& steps = exporter.recordedRun();
        const std::vector<double>& stepEnergy = steps.column(steps.columnIndex("energy"));
        QVERIFY(steps.size() >= 201 && steps.size() <= energies.size());
        for (size_t k = 0; k < steps.size(); ++k) {
          QVERIFY(std::abs(steps.time(k) - 0.3 * static_cast<double>(k)) < 1e-9);
          QVERIFY(std::abs(stepEnergy[k] - energies[k]) <= 1e-14 * std::abs(energies[k]));
        }
      }
    }
  }

  // The recorded sample behind each frame sits on the grid, also for a start off the grid.
  void sampleTimesOnGrid() {
    ExportSettings s = small(1.0);
    s.tStart = 0.33;
    AnimationExporter exporter(nh::Scenario{}, s);
    QCOMPARE(exporter.frameCount(), 10);  // round(0.67 · 15)
    for (int i = 0; i < exporter.frameCount(); ++i)
      QVERIFY2(std::abs(exporter.sampleTime(i) - s.frameTime(i)) < 1e-9,
               qPrintable(QString("frame %1: %2").arg(i).arg(exporter.sampleTime(i))));
    // The history also holds the lead-in before tStart (trails start there).
    QCOMPARE(exporter.history().firstTime(), 0.0);
  }

  void validation_data() {
    QTest::addColumn<int>("which");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("width") << 0 << "video size";
    QTest::newRow("fps") << 1 << "fps";
    QTest::newRow("span") << 2 << "end time";
    QTest::newRow("speed") << 3 << "speed";
    QTest::newRow("no frame") << 4 << "no frame";
    QTest::newRow("plot variable") << 5 << "'nope'";
    QTest::newRow("parameter") << 6 << "r";
  }
  void validation() {
    QFETCH(int, which);
    QFETCH(QString, mentions);
    ExportSettings s = small();
    nh::Scenario scenario;
    switch (which) {
      case 0:
        s.width = 2000;
        break;
      case 1:
        s.fps = 0;
        break;
      case 2:
        s.tEnd = s.tStart;
        break;
      case 3:
        s.speed = 0;
        break;
      case 4:
        s.tEnd = 0.01;
        break;
      case 5:
        s.plots = true;
        s.timeSeries = {"nope"};
        break;
      case 6:
        scenario.parameters["r"] = -1;
        break;
    }
    const QString message = inputErrorOf([&] { AnimationExporter(scenario, s); });
    QVERIFY2(message.contains(mentions), qPrintable(message));
  }

  // Cancel after a few frames: the result says so and the folder stays empty (no temporary).
  void cancelLeavesNothing() {
    const QString folder = dir_.filePath("cancel");
    QVERIFY(QDir().mkpath(folder));
    for (const char* name : {"clip.mp4", "clip.gif", "frames/"}) {
      AnimationExporter exporter(nh::Scenario{}, small(2.0));
      std::atomic<bool> cancel{false};
      int frames = 0;
      const auto result =
          exporter.run((folder + "/" + name).toStdString(),
                       [&](const nhui::ExportProgress& p) {
                         if (p.stage == nhui::ExportProgress::Stage::Rendering && ++frames == 3)
                           cancel = true;
                       },
                       &cancel);
      QVERIFY(result.cancelled);
      QCOMPARE(frames, 3);
      QVERIFY2(entriesOf(folder).isEmpty(), qPrintable(entriesOf(folder).join(", ")));
    }
  }

  // An unwritable target fails at once (before simulating), with a message naming it.
  void unwritableFailsEarly() {
    AnimationExporter exporter(nh::Scenario{}, small());
    int calls = 0;
    try {
      exporter.run(dir_.filePath("no/such/folder/clip.mp4").toStdString(),
                   [&](const nhui::ExportProgress&) { ++calls; });
      QFAIL("no error");
    } catch (const nh::VideoError& e) {
      QCOMPARE(e.kind(), nh::VideoError::Kind::Unwritable);
      QVERIFY2(QString(e.what()).contains("folder"), e.what());
    }
    QCOMPARE(calls, 0);
  }

  // Same scenario, two exporters: byte-identical frames; different frames differ.
  void framesAreDeterministic() {
    AnimationExporter a(nh::Scenario{}, small()), b(nh::Scenario{}, small());
    const nh::RgbImage a5 = a.renderFrame(5), b5 = b.renderFrame(5);
    QVERIFY(a5.pixels == b5.pixels);
    const nh::RgbImage a9 = a.renderFrame(9);
    QVERIFY(a9.pixels != a5.pixels);
  }

  // A video draws its own grid and axes and frames its camera by its framing: display choices
  // taken from a view that hides the grid and axes and keeps nothing in view change no pixel,
  // while one the video takes (the trails) does.
  void gridAndAxesAreTheVideos() {
    ExportSettings hidden = small();
    hidden.display.grid = false;
    hidden.display.axes = false;
    hidden.display.keepInView = false;
    ExportSettings noTrails = small();
    noTrails.display.trails = false;
    AnimationExporter shown(nh::Scenario{}, small()), bare(nh::Scenario{}, hidden),
        trailless(nh::Scenario{}, noTrails);
    const nh::RgbImage frame = shown.renderFrame(9);
    QVERIFY(bare.renderFrame(9).pixels == frame.pixels);
    QVERIFY(trailless.renderFrame(9).pixels != frame.pixels);
  }

  // Plots on the right: the plot background there, the 3D scene (gradient, table) on the left.
  void plotsBesideTheScene() {
    ExportSettings s = small(2.0);
    s.width = 640;
    s.height = 360;
    s.plots = true;
    s.timeSeries = {"energy", "lambda_1"};
    AnimationExporter exporter(nh::Scenario{}, s);
    const nh::RgbImage frame = exporter.renderFrame(20);
    QCOMPARE(frame.width, 640);
    QCOMPARE(frame.height, 360);
    // PlotStyle's background (24, 27, 34) fills the plot column's margin.
    const std::uint8_t* corner = frame.row(2) + 3 * (640 - 3);
    QVERIFY2(corner[0] == 24 && corner[1] == 27 && corner[2] == 34,
             qPrintable(QString("%1 %2 %3").arg(corner[0]).arg(corner[1]).arg(corner[2])));
    // The curves' colour (86, 180, 255) appears in the plot column.
    int curve = 0;
    for (int y = 0; y < 360; ++y)
      for (int x = 420; x < 640; ++x) {
        const std::uint8_t* p = frame.row(y) + 3 * x;
        curve += std::abs(p[0] - 86) < 30 && std::abs(p[1] - 180) < 30 && p[2] > 220;
      }
    QVERIFY2(curve > 50, qPrintable(QString::number(curve)));
  }

  // A finished export writes the clip and the resolved scenario, which reproduces the grid.
  void scenarioSidecar() {
    const QString folder = dir_.filePath("sidecar");
    QVERIFY(QDir().mkpath(folder));
    nh::Scenario scenario;
    scenario.system = "rolling_disk";
    scenario.parameters["r"] = 0.4;
    ExportSettings s = small(1.0);
    s.speed = 0.5;
    AnimationExporter exporter(scenario, s);
    const auto result = exporter.run((folder + "/disk.gif").toStdString());
    QVERIFY(!result.cancelled);
    QCOMPARE(result.frames, 30);
    QCOMPARE(entriesOf(folder), (QStringList{"disk.gif", "disk.gif.json"}));
    const nh::Scenario back = nh::readScenarioFile((folder + "/disk.gif.json").toStdString());
    QCOMPARE(back.parameters.at("r"), 0.4);
    QVERIFY(std::abs(back.tEnd - 1.0) < 1e-12);
    // dt_out divides the frame step (0.5/15 s) into whole samples.
    const double perFrame = (0.5 / 15) / back.dtOut;
    QVERIFY2(std::abs(perFrame - std::round(perFrame)) < 1e-9,
             qPrintable(QString::number(perFrame)));
    const nh::VideoInfo info = nh::probeVideo((folder + "/disk.gif").toStdString());
    QCOMPARE(info.frameCount, 30);
  }

  // The frames, their plots and the overlay in the view's theme: light as the light theme
  // shows it (a light sky above the scene, the light plot background), dark by default; a
  // scenario's view part gives the theme it was saved in, and its camera.
  void theThemeIsTheViews() {
    ExportSettings dark = small(2.0);
    dark.width = 640;
    dark.height = 360;
    dark.plots = true;
    ExportSettings light = dark;
    QVERIFY(dark.display.dark);  // the default
    light.display.dark = false;
    AnimationExporter inDark(nh::Scenario{}, dark), inLight(nh::Scenario{}, light);
    const nh::RgbImage d = inDark.renderFrame(10), l = inLight.renderFrame(10);
    // The sky at the top of the 3D view, right of the overlay.
    const double darkSky = brightness(d, 1, 250, 390), lightSky = brightness(l, 1, 250, 390);
    QVERIFY2(lightSky > 230 && darkSky < 150,
             qPrintable(QString("light %1, dark %2").arg(lightSky).arg(darkSky)));
    // The plot column's margin in each theme's background.
    for (const auto& [frame, style] :
         {std::pair{&d, nhui::PlotStyle::dark()}, std::pair{&l, nhui::PlotStyle::light()}}) {
      const std::uint8_t* corner = frame->row(2) + 3 * (640 - 3);
      QCOMPARE(QColor(corner[0], corner[1], corner[2]), style.background);
    }
    // A scenario's view part: the theme it was saved in and its camera.
    ExportSettings fromFile = small();
    nhui::applyScenarioView(
        R"({"version": 1, "theme": "light", "camera": {"position": [1, -3, 2], "target": [0.5, 0, 0], "view_angle": 25}})",
        fromFile);
    QVERIFY(!fromFile.display.dark);
    QVERIFY(fromFile.camera);
    QVERIFY(fromFile.camera->position == (std::array<double, 3>{1, -3, 2}));
    QVERIFY(fromFile.camera->focalPoint == (std::array<double, 3>{0.5, 0, 0}));
    QCOMPARE(fromFile.camera->viewAngle, 25.0);
    // The first frame starts from it: its direction and its view angle.
    fromFile.framing = ExportSettings::Framing::Fixed;
    AnimationExporter placed(nh::Scenario{}, fromFile);
    const nhui::CameraPose first = placed.cameraAt(0);
    QCOMPARE(first.position, fromFile.camera->position);
    QCOMPARE(first.focalPoint, fromFile.camera->focalPoint);
    QCOMPARE(first.viewAngle, 25.0);
  }

  // At 480 × 270 the overlay (time, title, nine parameters of the ball on the turntable) is
  // smaller than at 1280 × 720 and stands where it covers no body: in no frame of the
  // closed-circle lesson does its box overlap the ball's box on screen.
  void theOverlayCoversNoBody() {
    nh::Scenario lesson = nh::readScenarioFile(NH_EXAMPLES_DIR "/ball_closed_circle.json");
    ExportSettings s;
    nhui::applyScenarioView(lesson.view, s);
    s.width = 480;
    s.height = 270;
    s.fps = 10;
    s.tEnd = 12;
    AnimationExporter small(lesson, s);
    ExportSettings large = s;
    large.width = 1280;
    large.height = 720;
    large.tEnd = 1;
    AnimationExporter hd(lesson, large);
    const AnimationExporter::FrameBoxes big = hd.frameBoxes(0);
    QVERIFY(!big.overlay.empty());
    for (int i = 0; i < small.frameCount(); i += 3) {
      const AnimationExporter::FrameBoxes f = small.frameBoxes(i);
      QVERIFY2(!f.overlay.empty() && !f.bodies.empty(), qPrintable(QString::number(i)));
      QVERIFY2(f.overlay.y1 - f.overlay.y0 < 0.75 * (big.overlay.y1 - big.overlay.y0),
               qPrintable(boxText(f.overlay) + " at 480x270, " + boxText(big.overlay)));
      for (const nhui::ScreenBox& body : f.bodies)
        QVERIFY2(f.overlay.overlap(body) == 0,
                 qPrintable(QString("frame %1: overlay %2, body %3")
                                .arg(i)
                                .arg(boxText(f.overlay), boxText(body))));
    }
    // Looked at from above with the ball under the top-left corner, where the overlay stands
    // at first, and its wrapped lines as wide as the frame: the overlay moves off the ball.
    ExportSettings aimed = s;
    aimed.tEnd = 1;
    aimed.framing = ExportSettings::Framing::Fixed;
    nhui::CameraPose above;
    above.position = {1.1, -0.35, 2};
    above.focalPoint = {1.1, -0.35, 0};
    above.viewUp = {0, 1, 0};
    aimed.camera = above;
    AnimationExporter under(lesson, aimed);
    for (int i = 0; i < under.frameCount(); i += 2) {
      const AnimationExporter::FrameBoxes f = under.frameBoxes(i);
      QCOMPARE(f.bodies.size(), size_t(1));
      const nhui::ScreenBox& ball = f.bodies[0];
      QVERIFY2(ball.x1 < 240 && ball.y0 > 0.6 * 270, qPrintable(boxText(ball)));  // top left
      QVERIFY2(f.overlay.overlap(ball) == 0,
               qPrintable(QString("frame %1: overlay %2, ball %3")
                              .arg(i)
                              .arg(boxText(f.overlay), boxText(ball))));
    }
  }

 private:
  std::unique_ptr<nh::VirtualDisplay> display_;
  QTemporaryDir dir_;
};

QTEST_MAIN(AnimationExporterTest)
#include "animation_exporter_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
