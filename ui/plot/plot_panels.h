// The two plot docks: a phase portrait of any pair of recorded variables and stacked time
// series of chosen variables, for the primary and (in another colour) the comparison run.
#pragma once

#include <QStringList>
#include <QWidget>
#include <memory>
#include <string>
#include <vector>

#include "core/nh/run_record.h"
#include "core/nh/system.h"
#include "ui/plot/plot_widget.h"

class QComboBox;
class QListWidget;
class QToolButton;

namespace nhui {

class SimulationController;

QColor runColour(int run);

// What the plots call a recorded column: the system's label and unit ("friction force x [N]"
// for lambda_1, model-file key `labels`), the derived columns' meaning, else the name itself.
QString variableDisplayName(const nh::SystemInfo& info, const QString& column);
// What the plots call a column of a run recorded with `layout`: variableDisplayName, and for a
// scene point's coordinate without a label of its own "contact point x [m]". The app's lists
// and titles and the exports' plots (video and page) all name a column through this.
QString columnDisplayName(const nh::RecordLayout& layout, const nh::SystemInfo& info,
                          const QString& column);
// Whether a path plot of x against y is drawn with equal scales on both axes: both are lengths
// in metres — a scene point's coordinate, a coordinate the drag handle moves with the ground
// plane, or a variable the model gives the unit m — so that a circle stays round.
bool equalPathScales(const nh::RecordLayout& layout, const nh::SystemInfo& info,
                     const std::string& x, const std::string& y);

class PhasePortraitPanel : public QWidget {
  Q_OBJECT

 public:
  explicit PhasePortraitPanel(SimulationController* controller, QWidget* parent = nullptr);
  void refresh();         // new samples: repaint
  void resetVariables();  // system changed: default pair
  void setVariables(const QString& x, const QString& y);
  PlotWidget* plot() const { return plot_; }
  QString xVariable() const;
  QString yVariable() const;

 signals:
  void variablesChanged();  // the pair plotted changed (chosen, set or reset)

 private:
  // A new system or other recorded columns (a plan shown or left): the variables offered
  // follow, those chosen are kept where the new columns have them.
  void follow();
  SimulationController* controller_;
  std::shared_ptr<const nh::SystemModel> builtFor_;  // the system whose variables it offers
  std::vector<std::string> builtColumns_;            // the columns it offers them from
  QComboBox* xBox_;
  QComboBox* yBox_;
  PlotWidget* plot_;
  qulonglong signature_ = 0;
  quint64 revision_ = 0;  // counts history resets: part of the curves' data keys
};

class TimeSeriesPanel : public QWidget {
  Q_OBJECT

 public:
  explicit TimeSeriesPanel(SimulationController* controller, QWidget* parent = nullptr);
  void refresh();
  void resetVariables();
  void setVariables(const QStringList& names);
  QStringList variables() const;
  // Compact (presentation mode): the plot alone, without the variable list.
  void setCompact(bool compact);
  PlotWidget* plot() const { return plot_; }

 signals:
  void variablesChanged();  // the variables plotted changed (chosen, set or reset)

 private:
  // A new system or other recorded columns (a plan shown or left): the variables offered
  // follow, those chosen are kept where the new columns have them.
  void follow();
  SimulationController* controller_;
  std::shared_ptr<const nh::SystemModel> builtFor_;  // the system whose variables it offers
  std::vector<std::string> builtColumns_;            // the columns it offers them from
  QStringList defaults_;  // what resetVariables chose (followed to the new defaults)
  QListWidget* list_;
  QWidget* chooser_ = nullptr;  // the list and the autoscale button
  PlotWidget* plot_;
  qulonglong signature_ = 0;
  quint64 revision_ = 0;
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
