// The app's export UI: the animation export dialog (runs AnimationExporter on a worker thread,
// with progress, an estimate and Cancel) and the interactive "Export screenshot / plot / data"
// actions over stills.h. Entry points for the main window's File menu:
//
//   nhui::showExportDialog(this, controller.scenario(), defaults);          // Export animation…
//   nhui::exportScreenshot(this, controller.primary(), request);           // Export screenshot…
//   nhui::exportPlot(this, *phasePanel->plot(), phasePanel->xVariable());   // Export plot…
//   nhui::exportData(this, controller.primary(), controller.scenario());    // Export data…
#pragma once

#include <QDialog>
#include <QFutureWatcher>
#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/nh/scenario.h"
#include "ui/export/animation_exporter.h"
#include "ui/export/interactive_page.h"
#include "ui/export/plan_source.h"
#include "ui/export/stills.h"
#include "ui/scene/scene_renderer.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace nh {
class VirtualDisplay;
}

namespace nhui {

class PlotWidget;
class RunHistory;

// What the dialog starts with, taken from the app's current state.
struct ExportDefaults {
  QString directory;               // where the file chooser opens (empty: home)
  QString baseName = "animation";  // file name without extension
  double tEnd = 10;                // e.g. the time simulated so far
  // The view (the session's): display choices, camera mode, comparison and plots, which the
  // export frames, draws and plots as the window shows them.
  ViewState view;
  std::optional<CameraPose> camera;  // the 3D view's camera (cameraPoseOf)
  // The scenario file the window has open ("" for none): the scenario written beside the
  // export never replaces it.
  QString inputScenario;
  // Keep the settings of each format between dialogs (QSettings "export/…"): the last format,
  // size, frame rate, speed, overlay and plots, and the last folder entered or browsed to
  // (even without an export). Off in tests.
  bool rememberSettings = false;
  // The plan the window plays (plan_source.h): exported instead of a simulation of the scenario.
  std::shared_ptr<const PlannedMotion> played;
};

// Opens the export dialog (non-modal, deleted on close) for `scenario`, which it copies: the
// export simulates it afresh from t = 0, so it does not depend on the app's running simulation.
// One dialog per window: while one exports it is brought to the front; an idle one is
// replaced by a new one for what the window shows now (with the remembered settings).
void showExportDialog(QWidget* parent, const nh::Scenario& scenario,
                      const ExportDefaults& defaults);

// Asks for a PNG file name and a size, renders `request` at that size and reports the result
// (or the error) in a message box. request.size is the suggested size.
void exportScreenshot(QWidget* parent, const RunHistory& run, SceneImageRequest request);

// Asks for a .png or .svg file name and a size and saves the plot as shown.
void exportPlot(QWidget* parent, const PlotWidget& plot, const QString& xLabel,
                const QString& suggestedName = "plot");

// Asks for a .csv file name and saves the run's samples, with the scenario JSON next to it.
void exportData(QWidget* parent, const RunHistory& run, const nh::Scenario& scenario);

// Asks for an .html file name and writes the interactive page of `run` (interactive_page.h)
// there, reporting the result (or the error) in a message box; the comparison run's bodies and
// trails from `comparison`, its curves from `comparisonRun`.
void exportInteractivePage(QWidget* parent, const RunHistory& run, const PageSettings& page,
                           const QString& suggestedName, const ComparisonScene& comparison = {},
                           const RunHistory* comparisonRun = nullptr);

class ExportDialog : public QDialog {
  Q_OBJECT

 public:
  ExportDialog(const nh::Scenario& scenario, const ExportDefaults& defaults,
               QWidget* parent = nullptr);
  ~ExportDialog() override;  // cancels a running export and waits for it

  // The settings and path as currently entered (tests drive the dialog through these).
  ExportSettings settings() const;
  QString outputPath() const;
  void setOutputPath(const QString& path);
  bool isRunning() const;

 public slots:
  void startExport();
  void cancelExport();
  // Cancels a running export and returns once it has stopped and removed its temporary.
  void cancelAndWait();

 signals:
  // Emitted on the GUI thread when an export ends: ok, cancelled, or failed with message.
  void exportFinished(bool ok, bool cancelled, const QString& message);

 private:
  struct Outcome {
    ExportResult result;
    QString error;
  };
  void buildUi();
  // The rows of the form, top to bottom (buildUi); the file row's Browse button is returned
  // to be connected with the rest once every control exists.
  QPushButton* addFileRows(QFormLayout* form);
  void addVideoRows(QFormLayout* form);  // resolution and frame rate
  void addTimeRows(QFormLayout* form);   // simulated span and playback speed
  void addShowRows(QFormLayout* form);   // trails, arrows, overlay, plots and the summary
  QHBoxLayout* buildButtons();
  void connectControls(QPushButton* browse);
  void restoreLastFormat();  // when rememberSettings
  void updateSummary();
  void formatChosen();
  void pathEdited();
  void browse();
  void onProgress(const ExportProgress& progress);
  void onFinished();
  void setRunning(bool running);
  QString settingsGroup() const;  // "export/mp4", …, "export/png" for the current format
  void restoreFormatSettings();   // of the current format, when rememberSettings
  void saveFormatSettings() const;
  void rememberFolder() const;  // when rememberSettings
  // False if the scenario beside `output` would replace the input scenario, or replace an
  // unrelated file that the user chose to keep (asked in a message box).
  bool sidecarMayBeWritten(const QString& output);

  nh::Scenario scenario_;
  ExportDefaults defaults_;
  std::atomic<bool> cancel_{false};
  QFutureWatcher<Outcome> watcher_;
  std::unique_ptr<nh::VirtualDisplay> display_;

  QLineEdit* path_ = nullptr;
  QComboBox* format_ = nullptr;
  QComboBox* resolution_ = nullptr;
  QSpinBox* width_ = nullptr;
  QSpinBox* height_ = nullptr;
  QDoubleSpinBox* fps_ = nullptr;
  QDoubleSpinBox* tStart_ = nullptr;
  QDoubleSpinBox* tEnd_ = nullptr;
  QDoubleSpinBox* speed_ = nullptr;
  QCheckBox* trails_ = nullptr;
  QDoubleSpinBox* trailSeconds_ = nullptr;
  QCheckBox* forces_ = nullptr;
  QCheckBox* velocities_ = nullptr;
  QCheckBox* overlay_ = nullptr;
  QCheckBox* plots_ = nullptr;
  QLabel* summary_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* status_ = nullptr;
  QPushButton* exportButton_ = nullptr;
  QPushButton* cancelButton_ = nullptr;
  QPushButton* closeButton_ = nullptr;
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
