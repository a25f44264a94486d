// The export dialog and the scenario it writes beside the output (clip.mp4 → clip.mp4.json,
// frames "run/" → run.json): it never replaces the scenario file the window has open, and asks
// before replacing a file that no earlier export to the same output wrote; "No" writes nothing
// and starts nothing. The dialog keeps its settings and its last folder (in a settings scope of
// the suite's own temporary folder).
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <memory>

#include "core/io/scenario_file.h"
#include "message_boxes.h"
#include "ui/export/export_dialog.h"
#include "ui/export/media/virtual_display.h"

namespace {

QByteArray contentsOf(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeText(const QString& path, const QByteArray& text) {
  QFile f(path);
  return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

QStringList entriesOf(const QString& folder) {
  return QDir(folder).entryList(QDir::AllEntries | QDir::Hidden | QDir::System |
                                QDir::NoDotAndDotDot);
}

// A short, small clip: 15 frames of 480 × 270.
void makeTiny(nhui::ExportDialog& dialog) {
  dialog.findChild<QComboBox*>("exportResolution")->setCurrentIndex(4);  // 480 × 270
  dialog.findChild<QDoubleSpinBox*>("exportFps")->setValue(15);
  dialog.findChild<QDoubleSpinBox*>("exportEnd")->setValue(1);
}

}  // namespace

class ExportDialogSidecarTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName("NonholonomicLabExportDialogTest");
    QVERIFY(dir_.isValid());
    // The settings the dialogs keep go to the suite's temporary folder.
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir_.filePath("settings"));
    display_ = nh::ensureDisplay();
  }

  // The settings of the last export come back in the next dialog (its format, folder, size
  // and frame rate), per format; they used to be forgotten.
  void theLastSettingsComeBack() {
    QSettings().remove("export");
    const QString folder = dir_.filePath("remembered");
    QVERIFY(QDir().mkpath(folder));
    nhui::ExportDefaults defaults;
    defaults.rememberSettings = true;
    {
      nhui::ExportDialog dialog(nh::Scenario{}, defaults);
      dialog.findChild<QComboBox*>("exportFormat")->setCurrentIndex(2);  // GIF
      makeTiny(dialog);
      dialog.findChild<QDoubleSpinBox*>("exportFps")->setValue(12);
      dialog.setOutputPath(folder + "/clip.gif");
      dialog.startExport();
      QVERIFY(dialog.isRunning());
      dialog.cancelAndWait();
    }
    nhui::ExportDialog next(nh::Scenario{}, defaults);
    QCOMPARE(next.findChild<QComboBox*>("exportFormat")->currentIndex(), 2);
    QCOMPARE(next.findChild<QDoubleSpinBox*>("exportFps")->value(), 12.0);
    QCOMPARE(next.findChild<QComboBox*>("exportResolution")->currentIndex(), 4);
    QCOMPARE(QFileInfo(next.outputPath()).absolutePath(), QFileInfo(folder).absoluteFilePath());
    QVERIFY(next.outputPath().endsWith(".gif"));
    // Without remembering (tests, --no-settings) a dialog starts from the defaults.
    const nhui::ExportDefaults fresh;
    nhui::ExportDialog plain(nh::Scenario{}, fresh);
    QCOMPARE(plain.findChild<QComboBox*>("exportFormat")->currentIndex(), 0);
    QSettings().remove("export");
  }

  // The folder typed or browsed to comes back in the next dialog even when nothing was
  // exported (the dialog closed); a folder that does not exist is not kept.
  void theLastFolderComesBackWithoutAnExport() {
    QSettings().remove("export");
    const QString folder = dir_.filePath("chosen");
    QVERIFY(QDir().mkpath(folder));
    nhui::ExportDefaults defaults;
    defaults.rememberSettings = true;
    {
      nhui::ExportDialog dialog(nh::Scenario{}, defaults);
      dialog.setOutputPath(folder + "/clip.mp4");
    }
    {
      nhui::ExportDialog next(nh::Scenario{}, defaults);
      QCOMPARE(QFileInfo(next.outputPath()).absolutePath(), QFileInfo(folder).absoluteFilePath());
      next.setOutputPath(dir_.filePath("missing/clip.mp4"));
    }
    nhui::ExportDialog third(nh::Scenario{}, defaults);
    QCOMPARE(QFileInfo(third.outputPath()).absolutePath(), QFileInfo(folder).absoluteFilePath());
    QSettings().remove("export");
  }

  // Ctrl+E twice gives one dialog: an idle one is replaced, one that exports comes to the front.
  void oneDialogPerWindow() {
    QWidget window;
    const nhui::ExportDefaults defaults;
    nhui::showExportDialog(&window, nh::Scenario{}, defaults);
    nhui::showExportDialog(&window, nh::Scenario{}, defaults);
    QCOMPARE(window.findChildren<nhui::ExportDialog*>().size(), 1);
    auto* dialog = window.findChild<nhui::ExportDialog*>();
    makeTiny(*dialog);
    dialog->findChild<QDoubleSpinBox*>("exportEnd")->setValue(60);  // still exporting below
    dialog->setOutputPath(dir_.filePath("one.gif"));
    dialog->startExport();
    QVERIFY(dialog->isRunning());
    nhui::showExportDialog(&window, nh::Scenario{}, defaults);
    QCOMPARE(window.findChildren<nhui::ExportDialog*>().size(), 1);
    QCOMPARE(window.findChild<nhui::ExportDialog*>(), dialog);
    dialog->cancelAndWait();
  }

  // The window has run.json open; PNG frames to "run" would write their scenario to run.json.
  void neverReplacesTheOpenScenario() {
    const QString folder = dir_.filePath("input");
    QVERIFY(QDir().mkpath(folder));
    const QString input = folder + "/run.json";
    nh::writeScenarioFile(nh::Scenario{}, input.toStdString());
    const QByteArray before = contentsOf(input);
    QVERIFY(!before.isEmpty());

    nhui::ExportDefaults defaults;
    defaults.inputScenario = input;
    nhui::ExportDialog dialog(nh::Scenario{}, defaults);
    makeTiny(dialog);
    dialog.setOutputPath(folder + "/run");
    QSignalSpy finished(&dialog, &nhui::ExportDialog::exportFinished);
    dialog.startExport();
    const bool started = dialog.isRunning();
    dialog.cancelAndWait();
    QVERIFY2(!started, "the export started although its scenario would replace run.json");
    QCOMPARE(finished.size(), 1);
    QVERIFY(!finished.at(0).at(0).toBool());
    const QString message = finished.at(0).at(2).toString();
    QVERIFY2(message.contains("would replace the open scenario file"), qPrintable(message));
    QCOMPARE(contentsOf(input), before);
    QCOMPARE(entriesOf(folder), QStringList{"run.json"});
  }

  // clip.mp4.json holds the user's notes: "No" keeps them and exports nothing, "Yes" replaces
  // them with the export's scenario.
  void asksBeforeReplacingAnUnrelatedFile() {
    const QString folder = dir_.filePath("unrelated");
    QVERIFY(QDir().mkpath(folder));
    const QString sidecar = folder + "/clip.mp4.json";
    const QByteArray notes = "my notes, not a scenario\n";
    QVERIFY(writeText(sidecar, notes));

    const nhui::ExportDefaults defaults;
    nhui::ExportDialog dialog(nh::Scenario{}, defaults);
    makeTiny(dialog);
    dialog.setOutputPath(folder + "/clip.mp4");
    QSignalSpy finished(&dialog, &nhui::ExportDialog::exportFinished);

    nhtest::answerNextMessageBox(QMessageBox::No);
    dialog.startExport();
    const bool started = dialog.isRunning();
    dialog.cancelAndWait();
    QVERIFY2(!started, "the export started without asking, or after the user said No");
    QCOMPARE(finished.size(), 1);
    QVERIFY(!finished.at(0).at(0).toBool());
    QVERIFY2(finished.at(0).at(2).toString().contains("was kept"),
             qPrintable(finished.at(0).at(2).toString()));
    QCOMPARE(contentsOf(sidecar), notes);
    QCOMPARE(entriesOf(folder), QStringList{"clip.mp4.json"});

    nhtest::answerNextMessageBox(QMessageBox::Yes);
    dialog.startExport();
    QVERIFY(dialog.isRunning());
    QVERIFY(finished.wait(120000));
    QVERIFY2(finished.last().at(0).toBool(), qPrintable(finished.last().at(2).toString()));
    QVERIFY(QFileInfo(folder + "/clip.mp4").size() > 0);
    QCOMPARE(nh::exportedAsOf(sidecar.toStdString()), std::string("clip.mp4"));

    // The sidecar of an earlier export to the same output is replaced without a question.
    dialog.startExport();
    QVERIFY2(dialog.isRunning(), "asked about the scenario its own earlier export wrote");
    QVERIFY(finished.wait(120000));
    QVERIFY2(finished.last().at(0).toBool(), qPrintable(finished.last().at(2).toString()));
  }

 private:
  QTemporaryDir dir_;
  std::unique_ptr<nh::VirtualDisplay> display_;
};

QTEST_MAIN(ExportDialogSidecarTest)
#include "export_dialog_sidecar_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
