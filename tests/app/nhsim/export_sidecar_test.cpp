// The scenario written beside an export (ui/export/animation_exporter.h, scenarioPathFor):
// named after the whole output name ("clip.mp4.json"), so a.gif and a.mp4 keep their own;
// it never replaces the input scenario (not even with --force), and an existing file that
// is not the sidecar of an earlier export to the same output is only replaced with --force.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "core/io/scenario_file.h"
#include "nhsim_process.h"

namespace {

using Result = nh::test::ProcessResult;

Result nhsimExport(const QStringList& args) {
  return nh::test::runNhsimExport(
      args + QStringList{"--width", "160", "--height", "120", "--fps", "10", "--t-end", "0.5"});
}

QByteArray contents(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

void writeText(const QString& path, const QByteArray& text) {
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write(text);
}

}  // namespace

class ExportSidecarTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void eachFormatKeepsItsOwnSidecar() {
    const QString folder = dir_.filePath("formats");
    QVERIFY(QDir().mkpath(folder));
    Result r =
        nhsimExport({"ball_on_turntable", "--set", "Omega0=2", "--video", folder + "/a.gif"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    r = nhsimExport({"ball_on_turntable", "--set", "Omega0=3", "--video", folder + "/a.mp4"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QCOMPARE(nh::readScenarioFile((folder + "/a.gif.json").toStdString()).parameters.at("Omega0"),
             2.0);
    QCOMPARE(nh::readScenarioFile((folder + "/a.mp4.json").toStdString()).parameters.at("Omega0"),
             3.0);
    QCOMPARE(QString::fromStdString(nh::exportedAsOf((folder + "/a.mp4.json").toStdString())),
             QString("a.mp4"));
    // Exporting again to the same output replaces its own sidecar without --force.
    r = nhsimExport({"ball_on_turntable", "--set", "Omega0=4", "--video", folder + "/a.mp4"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QCOMPARE(nh::readScenarioFile((folder + "/a.mp4.json").toStdString()).parameters.at("Omega0"),
             4.0);
  }

  void unrelatedFileIsReplacedOnlyWithForce() {
    const QString folder = dir_.filePath("foreign");
    QVERIFY(QDir().mkpath(folder));
    const QString sidecar = folder + "/clip.mp4.json";
    writeText(sidecar, "{\"mine\": true}\n");
    Result r = nhsimExport({"ball_on_turntable", "--video", folder + "/clip.mp4"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("--force") && r.err.contains("--no-scenario"), qPrintable(r.err));
    QCOMPARE(r.err.count('\n'), 1);
    QCOMPARE(contents(sidecar), QByteArray("{\"mine\": true}\n"));
    QVERIFY(!QFileInfo::exists(folder + "/clip.mp4"));

    r = nhsimExport({"ball_on_turntable", "--video", folder + "/clip.mp4", "--no-scenario"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QCOMPARE(contents(sidecar), QByteArray("{\"mine\": true}\n"));

    r = nhsimExport({"ball_on_turntable", "--video", folder + "/clip.mp4", "--force"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QCOMPARE(QString::fromStdString(nh::exportedAsOf(sidecar.toStdString())), QString("clip.mp4"));
  }

  // `nhsim export in.mp4.json --video in.mp4` would write its sidecar over its input.
  void inputScenarioIsNeverReplaced() {
    const QString folder = dir_.filePath("input");
    QVERIFY(QDir().mkpath(folder));
    const QString input = folder + "/in.mp4.json";
    Result r = nh::test::runNhsim({"run", "ball_on_turntable", "--t-end", "0.5", "--out",
                                   folder + "/x.csv", "--save-scenario", input, "--quiet"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QByteArray before = contents(input);
    for (const QStringList& extra : {QStringList{}, QStringList{"--force"}}) {
      r = nhsimExport(QStringList{input, "--set", "Omega0=5", "--video", folder + "/in.mp4"} +
                      extra);
      QCOMPARE(r.code, 2);
      QVERIFY2(r.err.contains("input scenario"), qPrintable(r.err));
      QCOMPARE(contents(input), before);
    }
    r = nhsimExport({input, "--video", folder + "/x.mp4", "--csv", input});
    QCOMPARE(r.code, 2);
    QCOMPARE(contents(input), before);
  }

  // --csv naming the scenario written beside the video (or the video itself) is refused
  // before anything is rendered: the summary never names a scenario that holds CSV.
  void csvNeverReplacesTheSidecar() {
    const QString folder = dir_.filePath("csv");
    QVERIFY(QDir().mkpath(folder));
    const QString video = folder + "/w.mp4";
    Result r = nhsimExport({"ball_on_turntable", "--video", video, "--csv", video + ".json"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("the scenario written beside the export and --csv name the same file"),
             qPrintable(r.err));
    r = nhsimExport({"ball_on_turntable", "--video", video, "--csv", video});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("--video and --csv name the same file"), qPrintable(r.err));
    QCOMPARE(QDir(folder).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
             QStringList());
    // A model given as the input is called a model.
    QVERIFY(QFile::copy(QFINDTESTDATA("../../../resources/systems/nh_particle.yaml"),
                        folder + "/m.yaml"));
    const QByteArray model = contents(folder + "/m.yaml");
    r = nhsimExport({folder + "/m.yaml", "--video", video, "--csv", folder + "/m.yaml"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("would replace the input model"), qPrintable(r.err));
    QCOMPARE(contents(folder + "/m.yaml"), model);
  }

 private:
  QTemporaryDir dir_;
};

QTEST_GUILESS_MAIN(ExportSidecarTest)
#include "export_sidecar_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
