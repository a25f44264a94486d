// The two plot docks (plot_panels.h): the recorded columns offered (with their display names),
// the phase portrait and the time series, each reading the controller's histories and
// redrawing only when the data or the choice changed.
#include "ui/plot/plot_panels.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHash>
#include <QLabel>
#include <QListWidget>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cstring>

#include "ui/sim/run_style.h"
#include "ui/sim/simulation_controller.h"

namespace nhui {

namespace {

// The recorded columns the plots offer, each with what the lists show. A scene point's
// coordinate reads "contact point x [m]"; one that shows the same quantity as a column before
// it (the sleigh's contact point is its state (x, y)) is left out, so that every quantity is
// offered once. `aliases` maps a left-out column to the one offered for it.
struct Variables {
  QStringList columns, texts;
  QHash<QString, QString> aliases;
};

Variables plotVariables(const SimulationController& c) {
  const RecordLayout& layout = c.primary().layout();
  const nh::SystemInfo& info = c.system().info();
  QStringList columns, texts;
  for (const std::string& n : layout.columns) {
    columns << QString::fromStdString(n);
    texts << columnDisplayName(layout, info, columns.back());
  }
  std::vector<bool> point(static_cast<size_t>(columns.size()), false);
  for (const RecordLayout::Point& p : layout.points)
    for (int a = 0; a < 3; ++a)
      if (p.column + a < columns.size()) point[static_cast<size_t>(p.column + a)] = true;
  Variables out;
  for (int i = 0; i < columns.size(); ++i) {
    const int first = static_cast<int>(texts.indexOf(texts[i]));
    if (point[static_cast<size_t>(i)] && first < i) {
      out.aliases.insert(columns[i], columns[first]);
      continue;
    }
    out.columns << columns[i];
    out.texts << texts[i];
  }
  return out;
}

QStringList variableNames(const SimulationController& c) { return plotVariables(c).columns; }

// Whether a panel built for `system` and `columns` offers what the controller records now.
bool offersCurrent(const SimulationController& c,
                   const std::shared_ptr<const nh::SystemModel>& system,
                   const std::vector<std::string>& columns) {
  return c.systemPtr() == system && c.primary().layout().columns == columns;
}

// The variables a time series shows at first: a run's energy, residual and first multiplier;
// a plan's controls (a control model) or first multiplier (vakonomic) and its running cost.
QStringList defaultSeries(const SimulationController& c, const QStringList& names) {
  QStringList wanted = {"energy", "residual", "lambda_1"};
  if (c.plan()) {
    wanted.clear();
    for (const std::string& u : c.system().info().controls) wanted << QString::fromStdString(u);
    wanted << "mu_1"
           << "cost";
  }
  QStringList defaults;
  for (const QString& n : wanted)
    if (names.contains(n)) defaults << n;
  return defaults;
}

// The sample of a run at the displayed moment.
size_t shownIndex(const SimulationController& c, const RunHistory& run) {
  if (run.empty()) return 0;
  return run.indexAtOrBefore(c.displayTime() + 1e-9 * c.dtOut());
}

// The samples a plot draws: while playing, those up to the displayed moment (the worker runs
// ahead of the display); paused or scrubbed back, the whole record, the displayed moment
// marked on it (a time cursor, as ParaView's), instead of a curve cut at that moment.
size_t drawnCount(const SimulationController& c, const RunHistory& run) {
  if (run.empty()) return 0;
  return c.playing() ? shownIndex(c, run) + 1 : run.size();
}

// A length in metres: a scene point's recorded coordinate, a coordinate the system's drag
// handle moves with the ground plane, or a variable the model gives the unit m.
bool isLength(const RecordLayout& layout, const nh::SystemInfo& info, const std::string& n) {
  for (const auto& p : layout.points)
    for (int i = 0; i < 3; ++i)
      if (p.column + i < static_cast<int>(layout.columns.size()) &&
          layout.columns[static_cast<size_t>(p.column + i)] == n)
        return true;
  const auto& drag = info.editing.drag;
  if (drag && (n == drag->x || n == drag->y)) return true;
  const nh::VariableLabel* label = nh::findVariableLabel(info, n);
  return label && label->unit == "m";
}

// Names a curve's data for PlotWidget's cache: recorded samples change only at a history
// reset (restart, truncation, samples dropped at the front) or a new job (epoch).
quint64 dataKey(const SimulationController& c, quint64 revision, int run, const QString& x,
                const QString& y) {
  const quint64 key = qHashMulti(0x9e3779b97f4a7c15ULL, revision, c.epoch(), run, x, y);
  return key == 0 ? 1 : key;
}

}  // namespace

QString variableDisplayName(const nh::SystemInfo& info, const QString& column) {
  if (column == "t") return QStringLiteral("t [s]");
  if (column == "energy_error")
    return QStringLiteral("energy error (E − E₀)/|E₀|");  // E − E₀ where E₀ = 0: run_history.h
  if (column == "residual") return QStringLiteral("largest constraint residual");
  if (column == "energy_frame" && !nh::findVariableLabel(info, "energy_frame")) {
    // T_Γ (nh::frameEnergy), in the unit the system gives its energy (none if it gives none).
    const nh::VariableLabel* energy = nh::findVariableLabel(info, "energy");
    const QString text = QStringLiteral("energy in the constraint's frame");
    if (!energy || energy->unit.empty()) return text;
    return text + QStringLiteral(" [%1]").arg(QString::fromStdString(energy->unit));
  }
  if (column.startsWith(QStringLiteral("p_")) &&
      !nh::findVariableLabel(info, column.toStdString())) {
    // The hamiltonian formulation's momentum ∂L/∂y of a velocity, named after it.
    const std::string velocity = column.mid(2).toStdString();
    const auto& vs = info.velocities;
    if (std::find(vs.begin(), vs.end(), velocity) != vs.end()) {
      const nh::VariableLabel* v = nh::findVariableLabel(info, velocity);
      const QString name = v && !v->label.empty() ? QString::fromStdString(v->label)
                                                  : QString::fromStdString(velocity);
      return QStringLiteral("momentum (%1)").arg(name);
    }
  }
  if (const nh::VariableLabel* v = nh::findVariableLabel(info, column.toStdString())) {
    QString text = v->label.empty() ? column : QString::fromStdString(v->label);
    if (!v->unit.empty()) text += QStringLiteral(" [%1]").arg(QString::fromStdString(v->unit));
    return text;
  }
  return column;
}

QString columnDisplayName(const RecordLayout& layout, const nh::SystemInfo& info,
                          const QString& column) {
  const QString text = variableDisplayName(info, column);
  if (text != column) return text;
  static const char* const axes[] = {"x", "y", "z"};
  const std::string n = column.toStdString();
  for (const RecordLayout::Point& p : layout.points)
    for (int a = 0; a < 3; ++a)
      if (p.column + a < static_cast<int>(layout.columns.size()) &&
          layout.columns[static_cast<size_t>(p.column + a)] == n)
        return QStringLiteral("%1 %2 [m]").arg(QString::fromStdString(p.name), axes[a]);
  return text;
}

bool equalPathScales(const RecordLayout& layout, const nh::SystemInfo& info, const std::string& x,
                     const std::string& y) {
  return isLength(layout, info, x) && isLength(layout, info, y);
}

QColor runColour(int run) { return runColourOf(kRunStyles[run == 0 ? 0 : 1].onDark); }

PhasePortraitPanel::PhasePortraitPanel(SimulationController* controller, QWidget* parent)
    : QWidget(parent), controller_(controller) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  xBox_ = new QComboBox;
  yBox_ = new QComboBox;
  xBox_->setObjectName("phaseX");
  yBox_->setObjectName("phaseY");
  // Long variable names elide instead of widening the panel (in presentation mode it shares a
  // third of the screen with the plot).
  for (QComboBox* box : {xBox_, yBox_}) {
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(8);
  }
  auto* autoscale = new QToolButton;
  autoscale->setText(tr("Autoscale"));
  autoscale->setCheckable(true);
  autoscale->setChecked(true);
  // Two rows, so the panel fits a third of a projector's screen.
  auto* choices = new QGridLayout;
  choices->addWidget(new QLabel(tr("horizontal")), 0, 0);
  choices->addWidget(xBox_, 0, 1);
  choices->addWidget(autoscale, 0, 2);
  choices->addWidget(new QLabel(tr("vertical")), 1, 0);
  choices->addWidget(yBox_, 1, 1);
  choices->setColumnStretch(1, 1);
  layout->addLayout(choices);
  plot_ = new PlotWidget;
  plot_->setObjectName("phasePlot");
  layout->addWidget(plot_, 1);
  connect(autoscale, &QToolButton::toggled, plot_, &PlotWidget::setAutoscale);
  connect(plot_, &PlotWidget::autoscaleChanged, autoscale, &QToolButton::setChecked);
  auto changed = [this] {
    plot_->setAutoscale(true);
    plot_->setPanes({});
    refresh();
    emit variablesChanged();
  };
  connect(xBox_, &QComboBox::currentIndexChanged, this, changed);
  connect(yBox_, &QComboBox::currentIndexChanged, this, changed);
  connect(controller_, &SimulationController::historyReset, this, [this] { ++revision_; });
  // A new system or a plan offers its own variables; a loaded scenario or restored comparison
  // repaints.
  connect(controller_, &SimulationController::scenarioChanged, this, &PhasePortraitPanel::follow);
  connect(controller_, &SimulationController::comparisonChanged, this, &PhasePortraitPanel::follow);
  connect(controller_, &SimulationController::planChanged, this, &PhasePortraitPanel::follow);
  resetVariables();
}

QString PhasePortraitPanel::xVariable() const { return xBox_->currentData().toString(); }
QString PhasePortraitPanel::yVariable() const { return yBox_->currentData().toString(); }

void PhasePortraitPanel::setVariables(const QString& x, const QString& y) {
  const Variables variables = plotVariables(*controller_);
  if (const int i = xBox_->findData(variables.aliases.value(x, x)); i >= 0)
    xBox_->setCurrentIndex(i);
  if (const int i = yBox_->findData(variables.aliases.value(y, y)); i >= 0)
    yBox_->setCurrentIndex(i);
}

void PhasePortraitPanel::follow() {
  if (!offersCurrent(*controller_, builtFor_, builtColumns_)) {
    const QString x = xVariable(), y = yVariable();
    const QStringList names = variableNames(*controller_);
    resetVariables();
    if (controller_->systemPtr() == builtFor_ && names.contains(x) && names.contains(y))
      setVariables(x, y);
  }
  refresh();
}

void PhasePortraitPanel::resetVariables() {
  builtFor_ = controller_->systemPtr();
  builtColumns_ = controller_->primary().layout().columns;
  const Variables variables = plotVariables(*controller_);
  const QStringList& names = variables.columns;
  QSignalBlocker bx(xBox_), by(yBox_);
  xBox_->clear();
  yBox_->clear();
  for (QComboBox* box : {xBox_, yBox_})
    for (int i = 0; i < names.size(); ++i) {
      box->addItem(variables.texts[i], names[i]);
      box->setItemData(box->count() - 1, names[i], Qt::ToolTipRole);  // the column's name
    }
  QString x = names.value(1), y = names.value(2);
  // The ground-plane coordinates the system's drag handle moves, when it has one.
  if (const auto& drag = controller_->system().info().editing.drag) {
    const QString dx = QString::fromStdString(drag->x), dy = QString::fromStdString(drag->y);
    if (names.contains(dx) && names.contains(dy)) {
      x = dx;
      y = dy;
    }
  }
  xBox_->setCurrentIndex(std::max(0, xBox_->findData(x)));
  yBox_->setCurrentIndex(std::max(0, yBox_->findData(y)));
  plot_->setAutoscale(true);
  plot_->setPanes({});
  refresh();
  emit variablesChanged();
}

namespace {
// What a plot shows changes only with the displayed moment, the recorded samples or an edit.
qulonglong dataSignature(const SimulationController& c) {
  const auto h = [](qulonglong seed, qulonglong v) { return seed * 1000003ULL ^ v; };
  qulonglong s = h(static_cast<qulonglong>(c.epoch()), c.primary().size());
  s = h(s, c.comparison() ? c.comparison()->size() : 0);
  s = h(s, c.playing() ? 1 : 0);
  double t = c.displayTime();
  qulonglong bits;
  std::memcpy(&bits, &t, sizeof bits);
  return h(s, bits);
}
}  // namespace

void PhasePortraitPanel::refresh() {
  const qulonglong signature = dataSignature(*controller_) ^ qHash(xVariable() + "|" + yVariable());
  if (signature == signature_ && !plot_->panes().empty()) return;
  signature_ = signature;
  const std::string xn = xVariable().toStdString(), yn = yVariable().toStdString();
  PlotPane pane;
  pane.yLabel = QStringLiteral("%1 – %2").arg(xBox_->currentText(), yBox_->currentText());
  for (int r = 0; r < 2; ++r) {
    const RunHistory* run = r == 0 ? &controller_->primary() : controller_->comparison();
    if (!run) continue;
    const int xc = run->columnIndex(xn), yc = run->columnIndex(yn);
    if (xc < 0 || yc < 0) continue;
    PlotCurve c;
    c.name = controller_->comparison() ? runLabel(*controller_, r) : QString();
    c.colour = runColour(r);
    c.run = r;
    c.x = run->column(xc).data();
    c.y = run->column(yc).data();
    c.count = drawnCount(*controller_, *run);
    c.current = shownIndex(*controller_, *run);
    c.increasingX = xn == "t";
    c.dataKey = dataKey(*controller_, revision_, r, xVariable(), yVariable());
    pane.curves.push_back(c);
  }
  plot_->setEqualAspect(
      equalPathScales(controller_->primary().layout(), controller_->system().info(), xn, yn));
  plot_->setXLabel(xBox_->currentText());
  plot_->setPanes({pane});
}

TimeSeriesPanel::TimeSeriesPanel(SimulationController* controller, QWidget* parent)
    : QWidget(parent), controller_(controller) {
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  auto* side = new QVBoxLayout;
  list_ = new QListWidget;
  list_->setObjectName("timeSeriesVariables");
  list_->setMaximumWidth(190);
  list_->setToolTip(tr("Tick the variables to plot against time"));
  auto* autoscale = new QToolButton;
  autoscale->setText(tr("Autoscale"));
  autoscale->setCheckable(true);
  autoscale->setChecked(true);
  side->addWidget(list_, 1);
  side->addWidget(autoscale);
  chooser_ = new QWidget;
  chooser_->setLayout(side);
  layout->addWidget(chooser_);
  plot_ = new PlotWidget;
  plot_->setObjectName("timeSeriesPlot");
  plot_->setXLabel("t [s]");
  layout->addWidget(plot_, 1);
  connect(autoscale, &QToolButton::toggled, plot_, &PlotWidget::setAutoscale);
  connect(plot_, &PlotWidget::autoscaleChanged, autoscale, &QToolButton::setChecked);
  connect(list_, &QListWidget::itemChanged, this, [this] {
    plot_->setPanes({});
    refresh();
    emit variablesChanged();
  });
  connect(controller_, &SimulationController::historyReset, this, [this] { ++revision_; });
  // A new system or a plan offers its own variables; a loaded scenario or restored comparison
  // repaints.
  connect(controller_, &SimulationController::scenarioChanged, this, &TimeSeriesPanel::follow);
  connect(controller_, &SimulationController::comparisonChanged, this, &TimeSeriesPanel::follow);
  connect(controller_, &SimulationController::planChanged, this, &TimeSeriesPanel::follow);
  resetVariables();
}

void TimeSeriesPanel::setCompact(bool compact) { chooser_->setVisible(!compact); }

void TimeSeriesPanel::follow() {
  if (!offersCurrent(*controller_, builtFor_, builtColumns_)) {
    const QStringList chosen = variables();
    const QStringList names = variableNames(*controller_);
    const bool allRecorded = std::all_of(chosen.begin(), chosen.end(),
                                         [&](const QString& n) { return names.contains(n); });
    // A plan's columns or a run's again: choices of one's own (a lesson's) stay when all of
    // them are still recorded; the defaults follow to the defaults of what is shown now.
    if (controller_->systemPtr() == builtFor_ && chosen != defaults_ && allRecorded) {
      builtColumns_ = controller_->primary().layout().columns;
      setVariables(chosen);
    } else {
      resetVariables();
    }
  }
  refresh();
}

void TimeSeriesPanel::resetVariables() {
  builtFor_ = controller_->systemPtr();
  builtColumns_ = controller_->primary().layout().columns;
  defaults_ = defaultSeries(*controller_, variableNames(*controller_));
  setVariables(defaults_);
}

void TimeSeriesPanel::setVariables(const QStringList& chosen) {
  const Variables variables = plotVariables(*controller_);
  QStringList wanted;
  for (const QString& n : chosen) wanted << variables.aliases.value(n, n);
  QSignalBlocker block(list_);
  list_->clear();
  for (int i = 0; i < variables.columns.size(); ++i) {
    const QString& n = variables.columns[i];
    if (n == "t") continue;
    auto* item = new QListWidgetItem(variables.texts[i], list_);
    item->setData(Qt::UserRole, n);
    item->setToolTip(item->text() == n ? n : item->text() + " — " + n);
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(wanted.contains(n) ? Qt::Checked : Qt::Unchecked);
  }
  plot_->setAutoscale(true);
  plot_->setPanes({});
  refresh();
  emit variablesChanged();
}

QStringList TimeSeriesPanel::variables() const {
  QStringList out;
  for (int i = 0; i < list_->count(); ++i)
    if (list_->item(i)->checkState() == Qt::Checked)
      out << list_->item(i)->data(Qt::UserRole).toString();
  return out;
}

void TimeSeriesPanel::refresh() {
  const qulonglong signature = dataSignature(*controller_) ^ qHash(variables().join("|"));
  if (signature == signature_ && !plot_->panes().empty()) return;
  signature_ = signature;
  std::vector<PlotPane> panes;
  for (const QString& name : variables()) {
    PlotPane pane;
    pane.yLabel = variableDisplayName(controller_->system().info(), name);
    for (int i = 0; i < list_->count(); ++i)
      if (list_->item(i)->data(Qt::UserRole).toString() == name)
        pane.yLabel = list_->item(i)->text();
    for (int r = 0; r < 2; ++r) {
      const RunHistory* run = r == 0 ? &controller_->primary() : controller_->comparison();
      if (!run) continue;
      const int c = run->columnIndex(name.toStdString());
      if (c < 0) continue;
      PlotCurve curve;
      curve.name = controller_->comparison() ? runLabel(*controller_, r) : QString();
      curve.colour = runColour(r);
      curve.run = r;
      curve.x = run->times().data();
      curve.y = run->column(c).data();
      curve.count = drawnCount(*controller_, *run);
      curve.current = shownIndex(*controller_, *run);
      curve.increasingX = true;
      curve.dataKey = dataKey(*controller_, revision_, r, QStringLiteral("t"), name);
      pane.curves.push_back(curve);
    }
    panes.push_back(std::move(pane));
  }
  plot_->setPanes(std::move(panes));
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
