// nhsim's command line parsed in the process (app/nhsim/command_line.h): the outputs of
// `export` checked against its inputs and against each other before anything is written, so
// that the check holds where nhsim-export is not built.
#include "app/nhsim/command_line.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <string>
#include <vector>

namespace {

// The message parseCommandLine refuses `args` with, or "" when it accepts them.
QString refusal(const std::vector<std::string>& args) {
  try {
    nh::cli::parseCommandLine(args);
  } catch (const nh::cli::UsageError& e) {
    return QString::fromStdString(e.what());
  } catch (const std::exception& e) {
    return "not a usage error: " + QString::fromStdString(e.what());
  }
  return {};
}

}  // namespace

class CommandLineTest : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;

  std::string path(const char* name) const { return dir_.filePath(name).toStdString(); }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    QFile scenario(dir_.filePath("s.json"));
    QVERIFY(scenario.open(QIODevice::WriteOnly));
    scenario.write(
        "{\"format\": \"nonholonomic-lab-scenario\", \"version\": 2, \"system\": "
        "\"nh_particle\"}\n");
  }

  // --csv on the scenario written beside the video (clip.mp4.json) or the frames folder
  // (DIR.json), or on the video itself: refused before the export starts.
  void exportCsvNeverReplacesAnotherOutput() {
    const std::string video = path("w.mp4");
    QString why = refusal({"export", "nh_particle", "--video", video, "--csv", video + ".json"});
    QVERIFY2(why.contains("the scenario written beside the export and --csv name the same file"),
             qPrintable(why));
    why = refusal({"export", "nh_particle", "--video", video, "--csv", video});
    QVERIFY2(why.contains("--video and --csv name the same file"), qPrintable(why));
    why = refusal(
        {"export", "nh_particle", "--frames", path("frames/"), "--csv", path("frames.json")});
    QVERIFY2(why.contains("the scenario written beside the export and --csv"), qPrintable(why));
    // Without the scenario beside the video, that name is free for the CSV.
    QCOMPARE(refusal({"export", "nh_particle", "--video", video, "--csv", video + ".json",
                      "--no-scenario"}),
             QString());
  }

  // --csv over the input names what the input is (a scenario here, a model below).
  void exportCsvNeverReplacesTheInput() {
    const QString why =
        refusal({"export", path("s.json"), "--video", path("w.mp4"), "--csv", path("s.json")});
    QVERIFY2(why.contains("--csv") && why.contains("would replace the input scenario"),
             qPrintable(why));
    const QString model = QFINDTESTDATA("../../../resources/systems/nh_particle.yaml");
    QVERIFY(!model.isEmpty());
    const QString copy = dir_.filePath("m.yaml");
    QVERIFY(QFile::copy(model, copy));
    const QString why2 = refusal(
        {"export", copy.toStdString(), "--video", path("w.mp4"), "--csv", copy.toStdString()});
    QVERIFY2(why2.contains("would replace the input model"), qPrintable(why2));
    const QString why3 = refusal({"export", copy.toStdString(), "--video", copy.toStdString()});
    QVERIFY2(why3.contains("--video") && why3.contains("would replace the input model"),
             qPrintable(why3));
  }
};

QTEST_GUILESS_MAIN(CommandLineTest)
#include "command_line_test.moc"
