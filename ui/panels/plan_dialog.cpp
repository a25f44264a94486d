// The plan dialog (plan_dialog.h): T, the starts and a row per coordinate (a quaternion as one
// axis-and-angle row), the settings read and checked, the target coordinates the 3D view's
// ghost shows and sets, the solve through the session's PlanSolver with progress and Cancel,
// and the extremals listed and played.
#include "ui/panels/plan_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "core/nh/messages.h"
#include "core/nh/scenario.h"
#include "ui/session/session.h"

namespace nhui {

namespace {

QDoubleSpinBox* numberBox(double lo, double hi, int decimals, double value) {
  auto* box = new QDoubleSpinBox;
  box->setRange(lo, hi);
  box->setDecimals(decimals);
  box->setValue(value);
  box->setKeyboardTracking(false);
  return box;
}

// A unit quaternion (w, x, y, z) as an axis and an angle in degrees (axis (0, 0, 1) for none).
void toAxisAngle(const double* q, double axis[3], double& degrees) {
  const double s = std::hypot(q[1], q[2], q[3]);
  degrees = 2 * std::atan2(s, q[0]) * 180 / M_PI;
  for (int i = 0; i < 3; ++i) axis[i] = s > 1e-12 ? q[i + 1] / s : (i == 2 ? 1 : 0);
}

// The unit quaternion turning by `degrees` about `axis`; false for a zero axis.
bool toQuaternion(const double axis[3], double degrees, double q[4]) {
  const double norm = std::hypot(axis[0], axis[1], axis[2]);
  if (!(norm > 0)) return false;
  const double half = degrees * M_PI / 360;
  q[0] = std::cos(half);
  for (int i = 0; i < 3; ++i) q[i + 1] = std::sin(half) * axis[i] / norm;
  return true;
}

// A coordinate's unit and words from the model's `labels` (the plots' "heading [rad]").
const nh::VariableLabel* labelOf(const nh::SystemInfo& info, const std::string& name) {
  return nh::findVariableLabel(info, name);
}

QString unitOf(const nh::SystemInfo& info, const std::string& name) {
  if (const nh::VariableLabel* l = labelOf(info, name); l && !l->unit.empty())
    return QString::fromStdString(l->unit);
  const auto it = info.stateUnits.find(name);
  return it == info.stateUnits.end() ? QString() : QString::fromStdString(it->second);
}

}  // namespace

QStringList costTexts(const std::vector<double>& costs) {
  double largest = 0;
  for (double c : costs)
    if (std::isfinite(c)) largest = std::max(largest, std::abs(c));
  // Fixed decimals when the largest cost reads well so (6 significant digits of it), else
  // every cost in scientific notation with the same 5 digits.
  const bool fixed = largest >= 1e-3 && largest < 1e7;
  const int decimals =
      fixed ? std::clamp(5 - static_cast<int>(std::floor(std::log10(std::max(largest, 1e-300)))), 0,
                         8)
            : 4;
  QStringList out;
  for (double c : costs) out << QString::number(c, fixed ? 'f' : 'e', decimals);
  return out;
}

QString describeTargets(const nh::SystemInfo& info, const PlanSettings& plan) {
  QStringList parts;
  for (const std::string& name : info.coordinates) {
    const auto it = plan.targets.find(name);
    if (it == plan.targets.end()) continue;
    const QString unit = unitOf(info, name);
    parts << QStringLiteral("%1 = %2%3")
                 .arg(QString::fromStdString(name),
                      QString::fromStdString(nh::formatValue(it->second)),
                      unit.isEmpty() ? QString() : " " + unit);
  }
  return QObject::tr("%1 at T = %2 s")
      .arg(parts.join(QStringLiteral(", ")), QString::fromStdString(nh::formatValue(plan.tEnd)));
}

PlanDialog::PlanDialog(Session* session, QWidget* parent) : QDialog(parent), session_(session) {
  setWindowTitle(tr("Plan a motion"));
  setObjectName("planDialog");
  auto* layout = new QVBoxLayout(this);
  heading_ = new QLabel;
  heading_->setWordWrap(true);
  layout->addWidget(heading_);
  auto* form = new QFormLayout;
  tEnd_ = numberBox(1e-3, 1e4, 3, 1);
  tEnd_->setSuffix(tr(" s"));
  starts_ = new QSpinBox;
  starts_->setRange(1, PlanSettings::kMaxStarts);
  starts_->setValue(8);
  starts_->setToolTip(tr("Newton starts: the plain one, then random costates"));
  form->addRow(tr("Duration T:"), tEnd_);
  form->addRow(tr("Starts:"), starts_);
  layout->addLayout(form);
  auto* targetsLabel = new QLabel(tr("<b>Targets at T</b> (unchecked rows are free at T)"));
  layout->addWidget(targetsLabel);
  auto* scroll = new QScrollArea;
  scroll->setWidgetResizable(true);
  rowsWidget_ = new QWidget;
  rowsLayout_ = new QGridLayout(rowsWidget_);
  scroll->setWidget(rowsWidget_);
  scroll->setMinimumHeight(120);
  layout->addWidget(scroll, 1);

  auto* buttons = new QHBoxLayout;
  solveButton_ = new QPushButton(tr("Solve"));
  solveButton_->setDefault(true);
  cancelButton_ = new QPushButton(tr("Cancel"));
  progress_ = new QProgressBar;
  progress_->setRange(0, 1000);
  progress_->setTextVisible(false);
  buttons->addWidget(solveButton_);
  buttons->addWidget(progress_, 1);
  buttons->addWidget(cancelButton_);
  layout->addLayout(buttons);
  message_ = new QLabel;
  message_->setWordWrap(true);
  message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(message_);

  results_ = new QTreeWidget;
  results_->setHeaderLabels({tr("#"), tr("cost"), tr("residual"), tr("iterations")});
  results_->setRootIsDecorated(false);
  results_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
  results_->setMinimumHeight(110);
  layout->addWidget(results_, 1);
  auto* bottom = new QDialogButtonBox;
  playButton_ = bottom->addButton(tr("Play"), QDialogButtonBox::ActionRole);
  bottom->addButton(QDialogButtonBox::Close);
  layout->addWidget(bottom);

  connect(solveButton_, &QPushButton::clicked, this, &PlanDialog::solve);
  connect(cancelButton_, &QPushButton::clicked, this, &PlanDialog::cancel);
  connect(playButton_, &QPushButton::clicked, this, [this] {
    QTreeWidgetItem* item = results_->currentItem();
    play(item ? results_->indexOfTopLevelItem(item) : 0);
  });
  connect(results_, &QTreeWidget::itemDoubleClicked, this,
          [this](QTreeWidgetItem* item) { play(results_->indexOfTopLevelItem(item)); });
  connect(bottom, &QDialogButtonBox::rejected, this, &QDialog::close);
  PlanSolver* solver = session_->planSolver();
  connect(solver, &PlanSolver::progressed, this,
          [this](double f) { progress_->setValue(static_cast<int>(1000 * f)); });
  connect(solver, &PlanSolver::solved, this, &PlanDialog::showOutcome);
  connect(solver, &PlanSolver::failed, this, &PlanDialog::showFailure);
  setRunning(solver->running());
  resize(480, 620);
  reload();
}

// ---- Rows ---------------------------------------------------------------------------------

void PlanDialog::reload() {
  const SimulationController* c = session_->controller();
  const nh::SystemInfo& info = c->system().info();
  heading_->setText(
      info.isControlModel()
          ? tr("<b>%1</b> moves along a plan: the controls of least cost ∫L dt that take it "
               "from its start to the targets at T.")
                .arg(QString::fromStdString(info.title.empty() ? c->system().name() : info.title))
          : tr("<b>%1</b> has no controls: the plan is the vakonomic motion (least ∫L dt along "
               "the constraints) from its start to the targets at T; Play shows the "
               "nonholonomic motion from the same initial velocity beside it.")
                .arg(QString::fromStdString(info.title.empty() ? c->system().name() : info.title)));
  settingRows_ = true;
  buildRows();
  if (c->plan()) setSettings(*c->plan());
  settingRows_ = false;
  emitTargets();
}

void PlanDialog::buildRows() {
  for (QWidget* w : rowsWidget_->findChildren<QWidget*>(Qt::FindDirectChildrenOnly)) delete w;
  rows_.clear();
  gridRows_ = 0;
  const SimulationController* c = session_->controller();
  const nh::SystemModel& system = c->system();
  const std::vector<double>& x0 = c->initialState();
  std::vector<bool> inQuaternion(system.n(), false);
  for (const nh::QuaternionSlot& slot : system.info().quaternions)
    for (int k = 0; k < 4; ++k) inQuaternion[slot.first + k] = true;
  for (int i = 0; i < system.n(); ++i) {
    const auto slot =
        std::find_if(system.info().quaternions.begin(), system.info().quaternions.end(),
                     [i](const nh::QuaternionSlot& s) { return s.first == i; });
    if (slot != system.info().quaternions.end())
      addAttitudeRow(i, x0.data() + i);
    else if (!inQuaternion[i])
      addCoordinateRow(i, i < static_cast<int>(x0.size()) ? x0[i] : 0.0);
  }
  rowsLayout_->setRowStretch(gridRows_, 1);
}

// The value at T carries the coordinate's unit, as the plots name it ("heading [rad]").
void PlanDialog::addCoordinateRow(int index, double start) {
  const nh::SystemInfo& info = session_->controller()->system().info();
  Row row;
  row.name = QString::fromStdString(info.coordinates[index]);
  row.fixed = new QCheckBox(row.name);
  row.fixed->setChecked(true);
  const nh::VariableLabel* label = labelOf(info, info.coordinates[index]);
  const QString words =
      label && !label->label.empty() ? QString::fromStdString(label->label) : row.name;
  const QString unit = unitOf(info, info.coordinates[index]);
  row.fixed->setToolTip(tr("Fixed at T: %1 (%2) must equal the value at T").arg(row.name, words));
  row.value = numberBox(-1e6, 1e6, 6, start);
  if (!unit.isEmpty()) row.value->setSuffix(" " + unit);
  row.value->setToolTip(unit.isEmpty() ? words : QStringLiteral("%1 [%2]").arg(words, unit));
  const int r = gridRows_++;
  rowsLayout_->addWidget(row.fixed, r, 0);
  rowsLayout_->addWidget(row.value, r, 1, 1, 3);
  connect(row.fixed, &QCheckBox::toggled, row.value, &QWidget::setEnabled);
  connect(row.fixed, &QCheckBox::toggled, this, &PlanDialog::emitTargets);
  connect(row.value, &QDoubleSpinBox::valueChanged, this, &PlanDialog::emitTargets);
  rows_.push_back(row);
}

void PlanDialog::addAttitudeRow(int first, const double* start) {
  const auto& names = session_->controller()->system().info().coordinates;
  Row row;
  row.name = QString::fromStdString(names[first]);
  row.quaternion = first;
  row.fixed = new QCheckBox(tr("attitude"));
  row.fixed->setChecked(true);
  row.fixed->setToolTip(tr("The attitude (%1 … %2) at T, as an axis and an angle in degrees")
                            .arg(row.name, QString::fromStdString(names[first + 3])));
  double axis[3], degrees = 0;
  toAxisAngle(start, axis, degrees);
  // Two lines, so that the row fits the dialog: the axis (a direction: its components in
  // [−1, 1], normalised when solved), then the angle under it.
  const int r = gridRows_;
  gridRows_ += 2;
  rowsLayout_->addWidget(row.fixed, r, 0);
  for (int k = 0; k < 3; ++k) {
    row.axis[k] = numberBox(-1, 1, 3, axis[k]);
    row.axis[k]->setPrefix(QStringLiteral("xyz").mid(k, 1) + " ");
    row.axis[k]->setToolTip(tr("Axis of the turn at T (a direction; its length does not matter)"));
    rowsLayout_->addWidget(row.axis[k], r, 1 + k);
    connect(row.fixed, &QCheckBox::toggled, row.axis[k], &QWidget::setEnabled);
  }
  auto* angleLabel = new QLabel(tr("angle"));
  angleLabel->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  rowsLayout_->addWidget(angleLabel, r + 1, 0);
  row.angle = numberBox(-3600, 3600, 3, degrees);
  row.angle->setSuffix(QStringLiteral("°"));
  row.angle->setToolTip(tr("Angle of the turn at T (degrees)"));
  rowsLayout_->addWidget(row.angle, r + 1, 1, 1, 3);
  connect(row.fixed, &QCheckBox::toggled, row.angle, &QWidget::setEnabled);
  connect(row.fixed, &QCheckBox::toggled, this, &PlanDialog::emitTargets);
  for (QDoubleSpinBox* box : {row.axis[0], row.axis[1], row.axis[2], row.angle})
    connect(box, &QDoubleSpinBox::valueChanged, this, &PlanDialog::emitTargets);
  rows_.push_back(row);
}

QCheckBox* PlanDialog::fixedBox(const QString& name) const {
  for (const Row& row : rows_)
    if (row.name == name) return row.fixed;
  return nullptr;
}

QDoubleSpinBox* PlanDialog::valueBox(const QString& name) const {
  for (const Row& row : rows_)
    if (row.name == name) return row.value;
  return nullptr;
}

std::optional<PlanSettings> PlanDialog::settings(QString& error) const {
  PlanSettings s;
  s.tEnd = tEnd_->value();
  s.starts = starts_->value();
  const auto& names = session_->controller()->system().info().coordinates;
  for (const Row& row : rows_) {
    if (!row.fixed->isChecked()) continue;
    if (row.quaternion < 0) {
      s.targets[row.name.toStdString()] = row.value->value();
      continue;
    }
    const double axis[3] = {row.axis[0]->value(), row.axis[1]->value(), row.axis[2]->value()};
    double q[4];
    if (!toQuaternion(axis, row.angle->value(), q)) {
      error = tr("the attitude's axis must not be zero");
      return std::nullopt;
    }
    for (int k = 0; k < 4; ++k) s.targets[names[row.quaternion + k]] = q[k];
  }
  if (s.targets.empty()) {
    error = tr("check at least one target (\"fixed at T\")");
    return std::nullopt;
  }
  return s;
}

std::map<std::string, double> PlanDialog::targetCoordinates() const {
  std::map<std::string, double> out;
  const auto& names = session_->controller()->system().info().coordinates;
  for (const Row& row : rows_) {
    if (!row.fixed->isChecked()) continue;
    if (row.quaternion < 0) {
      out[row.name.toStdString()] = row.value->value();
      continue;
    }
    const double axis[3] = {row.axis[0]->value(), row.axis[1]->value(), row.axis[2]->value()};
    double q[4];
    if (!toQuaternion(axis, row.angle->value(), q)) continue;  // a zero axis: at the start
    for (int k = 0; k < 4; ++k) out[names[row.quaternion + k]] = q[k];
  }
  return out;
}

void PlanDialog::setTargetCoordinates(const std::map<std::string, double>& coordinates) {
  const auto& names = session_->controller()->system().info().coordinates;
  settingRows_ = true;
  for (Row& row : rows_) {
    if (row.quaternion < 0) {
      const auto it = coordinates.find(row.name.toStdString());
      if (it == coordinates.end()) continue;
      row.fixed->setChecked(true);
      row.value->setValue(it->second);
      continue;
    }
    double q[4], axis[3], degrees = 0;
    int given = 0;
    for (int k = 0; k < 4; ++k)
      if (const auto c = coordinates.find(names[row.quaternion + k]); c != coordinates.end()) {
        q[k] = c->second;
        ++given;
      }
    if (given != 4) continue;
    toAxisAngle(q, axis, degrees);
    row.fixed->setChecked(true);
    for (int k = 0; k < 3; ++k) row.axis[k]->setValue(axis[k]);
    row.angle->setValue(degrees);
  }
  settingRows_ = false;
  emitTargets();
}

void PlanDialog::emitTargets() {
  if (!settingRows_) emit targetsEdited(targetCoordinates());
}

void PlanDialog::setSettings(const PlanSettings& s) {
  const bool outer = settingRows_;
  settingRows_ = true;
  tEnd_->setValue(s.tEnd);
  starts_->setValue(s.starts);
  const auto& names = session_->controller()->system().info().coordinates;
  for (Row& row : rows_) {
    const auto it = s.targets.find(row.name.toStdString());
    row.fixed->setChecked(it != s.targets.end());
    if (it == s.targets.end()) continue;
    if (row.quaternion < 0) {
      row.value->setValue(it->second);
      continue;
    }
    double q[4], axis[3], degrees = 0;
    for (int k = 0; k < 4; ++k) {
      const auto c = s.targets.find(names[row.quaternion + k]);
      q[k] = c == s.targets.end() ? 0 : c->second;
    }
    toAxisAngle(q, axis, degrees);
    for (int k = 0; k < 3; ++k) row.axis[k]->setValue(axis[k]);
    row.angle->setValue(degrees);
  }
  settingRows_ = outer;
  emitTargets();
}

// ---- Solving and playing ------------------------------------------------------------------

void PlanDialog::solve() {
  QString error;
  const std::optional<PlanSettings> s = settings(error);
  if (s && session_->solvePlan(*s, error)) {
    results_->clear();
    outcome_.reset();
    progress_->setValue(0);
    say(tr("Solving…"), false);
    setRunning(true);
    return;
  }
  say(error, true);
}

void PlanDialog::cancel() { session_->planSolver()->cancel(); }

bool PlanDialog::play(int index) {
  if (!outcome_ || index < 0) {
    say(tr("Solve first, then choose an extremal to play."), true);
    return false;
  }
  QString error;
  if (!session_->playPlan(*outcome_, static_cast<size_t>(index), error)) {
    say(error, true);
    return false;
  }
  say(tr("Playing extremal %1 (%2 brings back what was shown before).")
          .arg(index + 1)
          .arg(Session::undoKey()),
      false);
  return true;
}

void PlanDialog::setRunning(bool running) {
  solveButton_->setEnabled(!running);
  cancelButton_->setEnabled(running);
  progress_->setVisible(running);
  playButton_->setEnabled(!running && outcome_ && !outcome_->result.extremals.empty());
}

void PlanDialog::showOutcome(std::shared_ptr<const PlanOutcome> outcome) {
  outcome_ = std::move(outcome);
  if (outcome_->system == session_->controller()->systemPtr()) setSettings(outcome_->settings);
  results_->clear();
  const nh::OptimalControlResult& r = outcome_->result;
  std::vector<double> costs;
  for (const nh::Extremal& e : r.extremals) costs.push_back(e.cost);
  const QStringList costText = costTexts(costs);  // one format for the whole list
  for (size_t k = 0; k < r.extremals.size(); ++k) {
    const nh::Extremal& e = r.extremals[k];
    auto* item =
        new QTreeWidgetItem({QString::number(k + 1), costText[static_cast<int>(k)],
                             QString::number(e.residual, 'e', 1), QString::number(e.iterations)});
    for (int c = 1; c < 4; ++c) item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
    results_->addTopLevelItem(item);
  }
  if (!r.extremals.empty()) {
    const int played = outcome_->settings.played;
    results_->setCurrentItem(
        results_->topLevelItem(played >= 0 && played < results_->topLevelItemCount() ? played : 0));
    say(tr("%n extremal(s) from %1 starts, lowest cost first: choose one and Play "
           "(or double-click it).",
           nullptr, static_cast<int>(r.extremals.size()))
            .arg(r.startsTried),
        false);
  } else {
    say(tr("No extremal met the tolerance (best residual %1)%2")
            .arg(QString::number(r.bestResidual, 'g', 3),
                 r.failure.empty() ? QString() : ": " + QString::fromStdString(r.failure)),
        true);
  }
  setRunning(false);
}

void PlanDialog::showFailure(const QString& message, bool cancelled) {
  say(cancelled ? tr("Cancelled: the run shown is unchanged.") : message, !cancelled);
  setRunning(false);
}

void PlanDialog::say(const QString& text, bool error) {
  message_->setText(text);
  message_->setStyleSheet(error ? QStringLiteral("color: #c0392b;") : QString());
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
