// Stills and data (screenshot PNG at a chosen size, plot PNG and SVG, trajectory CSV with its
// scenario) and the export dialog driven as the app uses it (worker thread, finish, cancel).
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QImage>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>
#include <cmath>

#include "core/io/scenario_file.h"
#include "core/model/catalogue.h"
#include "core/nh/scenario.h"
#include "ui/export/animation_exporter.h"
#include "ui/export/export_dialog.h"
#include "ui/export/media/video_probe.h"
#include "ui/export/media/virtual_display.h"
#include "ui/export/stills.h"
#include "ui/sim/run_history.h"

namespace {

QStringList entriesOf(const QString& folder) {
  return QDir(folder).entryList(QDir::AllEntries | QDir::Hidden | QDir::System |
                                QDir::NoDotAndDotDot);
}

double greyVariance(const QImage& image) {
  double sum = 0, sum2 = 0;
  const int n = image.width() * image.height();
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) {
      const double v = qGray(image.pixel(x, y));
      sum += v;
      sum2 += v * v;
    }
  return sum2 / n - (sum / n) * (sum / n);
}

}  // namespace

class ExportStillsTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    display_ = nh::ensureDisplay();
    QVERIFY(dir_.isValid());
    nhui::ExportSettings s;
    s.tEnd = 3;
    exporter_ = std::make_unique<nhui::AnimationExporter>(nh::Scenario{}, s);
    run_ = &exporter_->history();
    QVERIFY(run_->size() > 100);
  }

  // The 3D scene at a size other than any window's, not blank.
  void screenshot() {
    nhui::SceneImageRequest request;
    request.size = QSize(1000, 700);
    request.time = 2.0;
    request.overlayText = "t = 2.00 s";
    const QString path = dir_.filePath("scene.png");
    nhui::saveSceneImage(path, *run_, request);
    const QImage image(path);
    QCOMPARE(image.size(), QSize(1000, 700));
    QVERIFY2(greyVariance(image) > 100, qPrintable(QString::number(greyVariance(image))));
  }

  // A plot as PNG at the chosen size and as SVG (vector: a polyline, the axis label as text).
  void plots() {
    nhui::PlotSnapshot plot;
    nhui::PlotPane pane;
    pane.yLabel = "energy";
    nhui::PlotCurve curve;
    curve.colour = QColor(86, 180, 255);
    curve.x = run_->times().data();
    curve.y = run_->column(run_->columnIndex("energy")).data();
    curve.count = run_->size();
    curve.increasingX = true;
    pane.curves.push_back(curve);
    QVERIFY(nhui::curveBounds(pane.curves, plot.x, pane.y));
    pane.y = {pane.y.lo - 0.01, pane.y.hi + 0.01};
    plot.panes.push_back(pane);
    plot.xLabel = "t [s]";
    nhui::savePlotImage(dir_.filePath("energy.png"), plot, QSize(900, 400));
    const QImage png(dir_.filePath("energy.png"));
    QCOMPARE(png.size(), QSize(900, 400));
    QVERIFY(greyVariance(png) > 10);

    nhui::savePlotImage(dir_.filePath("energy.svg"), plot, QSize(900, 400));
    QFile svg(dir_.filePath("energy.svg"));
    QVERIFY(svg.open(QIODevice::ReadOnly));
    const QByteArray text = svg.readAll();
    QVERIFY(text.contains("<svg"));
    QVERIFY(text.contains("polyline") || text.contains("<path"));
    QVERIFY(text.contains("energy"));

    try {
      nhui::savePlotImage(dir_.filePath("energy.bmp"), plot, QSize(900, 400));
      QFAIL("no error for .bmp");
    } catch (const nh::InputError& e) {
      QVERIFY(QString(e.what()).contains(".svg"));
    }
  }

  // CSV with nhsim run's columns and the scenario next to it; re-simulating the scenario the
  // way `nhsim run` does gives the same rows (tolerance: the last digits of adaptive dense output
  // are identical here since the same steps are taken; 1e-9 leaves room for none).
  void trajectory() {
    const QString csv = dir_.filePath("data/run.csv");
    QVERIFY(QDir().mkpath(dir_.filePath("data")));
    const QString note = nhui::saveTrajectory(csv, *run_, nh::Scenario{});
    QVERIFY2(note.isEmpty(), qPrintable(note));
    QCOMPARE(entriesOf(dir_.filePath("data")), (QStringList{"run.csv", "run.json"}));

    const nh::Scenario s = nh::readScenarioFile(dir_.filePath("data/run.json").toStdString());
    const auto system = nh::findSystem(s.system);
    nh::Simulation sim(system, s.dynamics, s.formulation, s.integrator);
    sim.setParameters(nh::resolveParameters(*system, s.parameters));
    sim.setState(0, nh::initialState(sim.equations(), 0, s.initial));
    const nh::StateLayout layout = nh::stateLayout(*system, s.dynamics);
    std::vector<std::vector<double>> rows;
    nh::Observables obs;
    std::vector<double> row;
    sim.advance(s.tEnd, s.dtOut, [&](double t, const double* x) {
      nh::outputRow(sim.equations(), sim.workspace(), layout, t, x, obs, row);
      rows.push_back(row);
    });

    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QTextStream in(&file);
    const QStringList header = in.readLine().split(',');
    QCOMPARE(header.size(), static_cast<int>(nh::outputColumns(sim.equations()).size()));
    QCOMPARE(header.first(), QString("t"));
    size_t k = 0;
    double worst = 0;
    while (!in.atEnd()) {
      const QStringList cells = in.readLine().split(',');
      if (k < rows.size())
        for (int c = 0; c < cells.size(); ++c)
          worst = std::max(worst,
                           std::abs(cells[c].toDouble() - rows[k][c]) / (1 + std::abs(rows[k][c])));
      ++k;
    }
    QCOMPARE(k, run_->size());
    QVERIFY(rows.size() + 1 >= run_->size());
    QVERIFY2(worst < 1e-9, qPrintable(QString::number(worst)));
  }

  // The dialog exports on its worker thread and reports; Cancel leaves nothing behind.
  void dialogExportsAndCancels() {
    nhui::ExportDefaults defaults;
    defaults.tEnd = 1;
    nhui::ExportDialog dialog(nh::Scenario{}, defaults);
    dialog.findChild<QComboBox*>("exportResolution")->setCurrentIndex(4);  // 480 × 270
    dialog.findChild<QDoubleSpinBox*>("exportFps")->setValue(15);
    const QString folder = dir_.filePath("dialog");
    QVERIFY(QDir().mkpath(folder));
    dialog.setOutputPath(folder + "/clip.gif");
    QCOMPARE(dialog.settings().width, 480);
    QSignalSpy finished(&dialog, &nhui::ExportDialog::exportFinished);
    dialog.startExport();
    QVERIFY(dialog.isRunning());
    QVERIFY(finished.wait(60000));
    QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(2).toString()));
    QCOMPARE(nh::probeVideo((folder + "/clip.gif").toStdString()).frameCount, 15);

    const QString cancelFolder = dir_.filePath("dialog_cancel");
    QVERIFY(QDir().mkpath(cancelFolder));
    dialog.findChild<QDoubleSpinBox*>("exportEnd")->setValue(30);
    dialog.setOutputPath(cancelFolder + "/long.mp4");
    dialog.startExport();
    QTRY_VERIFY_WITH_TIMEOUT(!entriesOf(cancelFolder).isEmpty(), 20000);  // the temporary exists
    dialog.cancelExport();
    QVERIFY(finished.wait(60000));
    QVERIFY(finished.last().at(1).toBool());
    QVERIFY2(entriesOf(cancelFolder).isEmpty(), qPrintable(entriesOf(cancelFolder).join(", ")));
  }

 private:
  std::unique_ptr<nh::VirtualDisplay> display_;
  QTemporaryDir dir_;
  std::unique_ptr<nhui::AnimationExporter> exporter_;
  const nhui::RunHistory* run_ = nullptr;
};

QTEST_MAIN(ExportStillsTest)
#include "export_stills_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
