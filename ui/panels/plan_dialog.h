// Simulation ▸ Plan a motion… (Ctrl+Shift+P): a non-modal dialog for the running system's
// optimal plan (nh::solveOptimalControl through the session's PlanSolver). T, one row per
// coordinate with "fixed at T" and the value at T (a quaternion as one attitude row: axis and
// angle in degrees; defaults: the start), the number of Newton starts; Solve runs on a worker
// thread with a progress bar and Cancel; the extremals are listed with cost, residual and
// iterations, and Play (or a double-click) shows the chosen one as the run (one undoable
// step). Bad input and "no extremal" are said in one line; the run shown stays untouched.
// The fixed targets are also shown as a ghost in the 3D view (the window connects
// targetsEdited to SceneView::setTargetGhost): dragging the ghost sets them through
// setTargetCoordinates, typing in the fields moves it.
#pragma once

#include <QDialog>
#include <QStringList>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/nh/system.h"
#include "ui/session/plan_solver.h"

class QCheckBox;
class QDoubleSpinBox;
class QGridLayout;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTreeWidget;

namespace nhui {

class Session;

// The costs of a list of extremals, all in one format (the same decimals, or all in
// scientific notation when the largest is tiny or huge): "3.1416", "6.2832", "12.5664".
QStringList costTexts(const std::vector<double>& costs);
// A plan's targets with their units, as a note says them: "x = 0 m, y = 0.5 m, theta = 0 rad
// at T = 4 s" (a quaternion's components each).
QString describeTargets(const nh::SystemInfo& info, const PlanSettings& plan);

class PlanDialog : public QDialog {
  Q_OBJECT

 public:
  PlanDialog(Session* session, QWidget* parent = nullptr);

  // Rebuilds the rows for the running system: the shown plan's values, else the start's.
  void reload();
  // The plan the fields describe; nullopt with `error` (one line) when they cannot.
  std::optional<PlanSettings> settings(QString& error) const;
  void setSettings(const PlanSettings& settings);
  void solve();
  void cancel();
  bool play(int index);  // false (the message says why) when it cannot be played

  QTreeWidget* results() const { return results_; }
  QLabel* message() const { return message_; }
  QPushButton* solveButton() const { return solveButton_; }
  QPushButton* cancelButton() const { return cancelButton_; }
  QPushButton* playButton() const { return playButton_; }
  QDoubleSpinBox* endTime() const { return tEnd_; }
  QSpinBox* starts() const { return starts_; }
  // The row of coordinate `name` (an attitude row: its quaternion's first component).
  QCheckBox* fixedBox(const QString& name) const;
  QDoubleSpinBox* valueBox(const QString& name) const;
  const PlanOutcome* outcome() const { return outcome_.get(); }
  // The values of the checked rows by coordinate name (an attitude as its quaternion's four
  // components), as the fields say them; what the target ghost shows.
  std::map<std::string, double> targetCoordinates() const;
  // Sets the rows of the coordinates given (checking them; an attitude row when all four of
  // its quaternion's components are given) and emits targetsEdited once.
  void setTargetCoordinates(const std::map<std::string, double>& coordinates);

 signals:
  // The targets the fields describe changed (typed, dragged, loaded): targetCoordinates().
  void targetsEdited(const std::map<std::string, double>& coordinates);

 private:
  struct Row {
    QString name;         // the coordinate, or the first component of a quaternion
    int quaternion = -1;  // the coordinate index of w for an attitude row
    QCheckBox* fixed = nullptr;
    QDoubleSpinBox* value = nullptr;  // a coordinate row
    QDoubleSpinBox* axis[3] = {nullptr, nullptr, nullptr};
    QDoubleSpinBox* angle = nullptr;  // degrees
  };
  void buildRows();
  void addCoordinateRow(int index, double start);
  void addAttitudeRow(int first, const double* start);
  void setRunning(bool running);
  void showOutcome(std::shared_ptr<const PlanOutcome> outcome);
  void showFailure(const QString& message, bool cancelled);
  void say(const QString& text, bool error);
  void emitTargets();  // targetsEdited, unless the rows are being set together

  Session* session_;
  QLabel* heading_ = nullptr;
  QDoubleSpinBox* tEnd_ = nullptr;
  QSpinBox* starts_ = nullptr;
  QWidget* rowsWidget_ = nullptr;
  QGridLayout* rowsLayout_ = nullptr;
  std::vector<Row> rows_;
  int gridRows_ = 0;  // rows of rowsLayout_ used (an attitude takes two)
  QPushButton *solveButton_ = nullptr, *cancelButton_ = nullptr, *playButton_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* message_ = nullptr;
  QTreeWidget* results_ = nullptr;
  std::shared_ptr<const PlanOutcome> outcome_;
  bool settingRows_ = false;  // several fields set at once: one targetsEdited at the end
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
