// The Study panel: varies one or two parameters or initial values of the main
// view's scenario over a grid, reduces each run to a measure (the syntax of `nhsim sweep
// --measure`) and shows the result filling in live (StudyMap). The runs go on a background
// thread (nh::study::runStudy with a cancel flag); results reach the GUI thread through
// queued calls, so the GUI never waits. A CSV written by `nhsim sweep` or `nhsim linearize
// --sweep` can be opened instead; the map exports as PNG and SVG, the study's data as the
// CSV `nhsim sweep` writes for the same study.
#pragma once

#include <QElapsedTimer>
#include <QStringList>
#include <QVector>
#include <QWidget>
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/study/sweep.h"
#include "ui/session/scenario_view.h"
#include "ui/study/study_csv.h"
#include "ui/study/study_map.h"

class QBoxLayout;
class QCheckBox;
class QComboBox;
class QGridLayout;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QToolButton;
class QVBoxLayout;

namespace nhui {

class SimulationController;

class StudyPanel : public QWidget {
  Q_OBJECT

 public:
  explicit StudyPanel(SimulationController* controller, QWidget* parent = nullptr);
  ~StudyPanel() override;  // cancels a running study and waits for its thread

  // The controls, as a user sets them (axis 0 or 1; axis 1 is used when enabled).
  void setAxis(int axis, const QString& name, double from, double to, int count);
  void setSecondAxisEnabled(bool on);
  void setMeasure(const QString& measure);
  void setEndTime(double tEnd);
  void setJobs(int jobs);
  // The settings of the last study run here (none before the first); a session saved with
  // them brings them back with applySettings (axes whose names the system lacks are left).
  const std::optional<StudySettings>& lastSettings() const { return lastSettings_; }
  void applySettings(const StudySettings& settings);

  // Run: builds the study from the controls and the main view's scenario and starts it in
  // the background. False (and a message in messageLabel()) when the input is refused.
  bool run();
  void cancel();
  bool running() const { return thread_.joinable() && !finished_; }
  // Opens a CSV (false and a message when it is refused; the shown map is kept then).
  bool openCsv(const QString& path);
  // Writes the map (PNG or SVG by the suffix) or the data (CSV); false and a message on error.
  bool exportImage(const QString& path);
  bool exportCsv(const QString& path);
  // Opens cell `cell` of the map in the main view (emits runChosen).
  void openCell(int cell);

  StudyMap* map() const { return map_; }
  const StudyGrid& grid() const { return map_->grid(); }
  QLabel* messageLabel() const { return message_; }
  QLabel* progressLabel() const { return progress_; }
  // The command line of `nhsim sweep` that computes the running or last study.
  QString commandLine() const { return command_; }
  // Results in run order (a prefix of the study's runs when it was cancelled).
  long resultCount() const { return static_cast<long>(results_.size()); }

 protected:
  void resizeEvent(QResizeEvent* event) override;
  void showEvent(QShowEvent* event) override;

 signals:
  // The user picked a run: set these parameters / initial values (by name) in the main view.
  void runChosen(const QStringList& names, const QVector<double>& values);
  void studyFinished();
  // The last study changed (a study started, or another system made it void); not emitted
  // by applySettings.
  void settingsChanged(const std::optional<StudySettings>& settings);

 private:
  struct Job;  // one background study: its thread's shared state
  // The parts of the panel, top to bottom (the constructor).
  void addAxisRows(QGridLayout* form);  // what to vary: one or two axes
  void addRunRows(QGridLayout* form);   // the measure, the end time, workers, Run and Cancel
  QHBoxLayout* buildFileButtons();      // Open CSV and the Export menu
  QWidget* buildCsvColumns();           // the columns an opened CSV is shown by
  void addStatusLabels(QVBoxLayout* layout);
  // The study the controls describe, on the main view's scenario, and its measure; false
  // (and an error shown) when they are refused.
  bool readSpec(nh::study::StudySpec& spec, QString& measure);
  // Starts the study's thread; its results reach drain() and finish() through queued calls.
  void launch(const std::shared_ptr<const nh::study::Study>& study);
  void rebuildChoices();
  void axisChosen(int axis);
  void drain(long generation);
  void finish(long generation, long written, const QString& error);
  void updateProgress();
  void showError(const QString& text);
  void showNote(const QString& text);
  void chooseCsvColumns();
  void setRunning(bool on);
  QString sweepCommandLine(const nh::study::StudySpec& spec) const;

  SimulationController* controller_;
  QBoxLayout* box_ = nullptr;    // the controls and the map
  QWidget* controls_ = nullptr;  // above the map, or beside it in a wide panel
  bool fitted_ = false;          // the dock was given room for the map once
  struct AxisControls {
    QComboBox* name = nullptr;
    QLineEdit *from = nullptr, *to = nullptr;
    QSpinBox* count = nullptr;
  } axes_[2];
  QCheckBox* secondAxis_;
  QComboBox* measure_;
  QLineEdit* tEnd_;
  QSpinBox* jobs_;
  QPushButton *run_, *cancel_, *open_;
  QToolButton* export_;
  QWidget* csvColumns_;
  QComboBox *csvX_, *csvY_, *csvValue_;
  QLabel *progress_, *message_, *failures_;
  StudyMap* map_;

  StudyTable table_;  // the open CSV (columns empty when the map shows a study run here)
  std::shared_ptr<Job> job_;
  std::thread thread_;
  bool finished_ = true;
  long generation_ = 0;
  long total_ = 0;
  QElapsedTimer clock_;
  QString command_;
  std::shared_ptr<const nh::study::Study> study_;  // the running or last study
  std::vector<nh::study::RunResult> results_;
  bool partial_ = false;
  std::optional<StudySettings> lastSettings_;
  std::string systemName_;  // the system the choices were built for
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
