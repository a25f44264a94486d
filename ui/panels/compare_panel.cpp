// The Compare dock (compare_panel.h): the mode box, the ghost's parameter and value, the other
// integrator (a row per kIntegrators row) and its step, shown from the session's view and
// each choice sent to the session.
#include "ui/panels/compare_panel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <algorithm>

#include "core/nh/errors.h"
#include "core/nh/simulation.h"
#include "ui/panels/parameter_panel.h"
#include "ui/session/session.h"
#include "ui/sim/run_style.h"

namespace nhui {

namespace {
// Rows of the mode box, in CompareMode order.
int rowOf(CompareMode mode) { return static_cast<int>(mode); }

// The integrator box: one row per kIntegrators row (name, its description as tool tip).
QComboBox* integratorBox() {
  auto* box = new QComboBox;
  box->setObjectName("compareIntegrator");
  for (const auto& row : nh::kIntegrators) {
    box->addItem(QString::fromUtf8(row.name), static_cast<int>(row.value));
    box->setItemData(box->count() - 1, QString::fromUtf8(row.description), Qt::ToolTipRole);
  }
  return box;
}

QDoubleSpinBox* stepBox() {
  auto* box = new QDoubleSpinBox;
  box->setObjectName("compareStep");
  box->setDecimals(5);
  box->setRange(1e-5, SimulationController::kMaxStepSize);
  box->setSingleStep(0.001);
  box->setSuffix(QStringLiteral(" s"));
  box->setToolTip(QObject::tr("The fixed step of the other integrator (rk4, nh-rattle …)"));
  return box;
}
}  // namespace

ComparePanel::ComparePanel(Session* session, QWidget* parent)
    : QWidget(parent), session_(session), controller_(session->controller()) {
  auto* form = new QFormLayout(this);
  // Labels above their fields, and the fields as wide as the dock: beside their labels the
  // boxes kept their ten-character size hint and cut "Nonholonomic vs vakonomic".
  form->setRowWrapPolicy(QFormLayout::WrapAllRows);
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  mode_ = new QComboBox;
  mode_->setObjectName("compareMode");
  mode_->addItem(tr("Off"));
  mode_->addItem(tr("Nonholonomic vs vakonomic"));
  mode_->addItem(tr("Ghost: another parameter value"));
  mode_->addItem(tr("Another integrator"));
  ghostParameter_ = new QComboBox;
  ghostParameter_->setObjectName("ghostParameter");
  // Narrow enough for a third of a projector's screen: the boxes shrink and elide.
  for (QComboBox* box : {mode_, ghostParameter_}) {
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(10);
  }
  ghostValue_ = new CheckedSpinBox([this](double v) {
    const int i = controller_->system().parameterIndex(
        ghostParameter_->currentData().toString().toStdString());
    if (i < 0) return QString();
    const auto& info = controller_->system().info().parameters[i];
    return info.allows(v) ? QString()
                          : tr("must be in %1").arg(QString::fromStdString(info.rangeText()));
  });
  ghostValue_->setObjectName("ghostValue");
  auto* reason = new QLabel;
  reason->setStyleSheet("color: #ff6b5b;");
  reason->setWordWrap(true);
  connect(ghostValue_, &CheckedSpinBox::refusalChanged, reason, &QLabel::setText);
  form->addRow(tr("Compare"), mode_);
  form->addRow(tr("Ghost parameter"), ghostParameter_);
  form->addRow(tr("Ghost value"), ghostValue_);
  form->addRow(reason);
  addIntegratorRows(form);
  auto* note =
      new QLabel(tr("The second run starts from the same initial state. In the scene and in "
                    "every plot the first run is drawn in %1, the second in %2.")
                     .arg(QString::fromLatin1(kRunStyles[0].colourName),
                          QString::fromLatin1(kRunStyles[1].colourName)));
  note->setWordWrap(true);
  form->addRow(note);
  connect(mode_, &QComboBox::activated, this, &ComparePanel::apply);
  connect(mode_, &QComboBox::currentIndexChanged, this, &ComparePanel::updateEnabled);
  connect(ghostParameter_, &QComboBox::activated, this, [this] {
    const int i = controller_->system().parameterIndex(
        ghostParameter_->currentData().toString().toStdString());
    if (i >= 0) {
      QSignalBlocker block(ghostValue_);
      const double p = controller_->parameters()[i];
      ghostValue_->setValue(p != 0 ? 2 * p : 1);
    }
    if (mode_->currentIndex() == rowOf(CompareMode::Ghost)) apply();
  });
  connect(ghostValue_, &QDoubleSpinBox::valueChanged, this, [this] {
    if (mode_->currentIndex() == rowOf(CompareMode::Ghost)) apply();
  });
  rebuild();
  updateEnabled();
  // A new system lists its parameters; a loaded scenario or a restored history shows its
  // comparison.
  auto follow = [this] {
    if (controller_->systemPtr() != builtFor_) rebuild();
    syncMode();
  };
  connect(controller_, &SimulationController::scenarioChanged, this, follow);
  connect(controller_, &SimulationController::comparisonChanged, this, follow);
  // A comparison refused after it was chosen (made once the run's first sample came).
  connect(session_, &Session::viewChanged, this, [this](ViewParts parts) {
    if (parts & kViewComparison) syncMode();
  });
}

// The other integrator and its step; a change restarts the comparison when it is chosen.
void ComparePanel::addIntegratorRows(QFormLayout* form) {
  integrator_ = integratorBox();
  integrator_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  integrator_->setMinimumContentsLength(10);
  integratorStep_ = stepBox();
  showIntegrator(controller_->otherIntegrator());
  form->addRow(tr("Integrator"), integrator_);
  form->addRow(tr("Its step"), integratorStep_);
  connect(integrator_, &QComboBox::activated, this, [this] {
    updateEnabled();
    if (mode_->currentIndex() == rowOf(CompareMode::Integrator)) apply();
  });
  connect(integratorStep_, &QDoubleSpinBox::editingFinished, this, [this] {
    if (mode_->currentIndex() == rowOf(CompareMode::Integrator)) apply();
  });
}

// The ghost's parameter and value mean something only for a ghost run, the integrator only
// for a comparison with another integrator, and its step only when that one has a fixed step.
void ComparePanel::updateEnabled() {
  const bool ghost = mode_->currentIndex() == rowOf(CompareMode::Ghost);
  ghostParameter_->setEnabled(ghost);
  ghostValue_->setEnabled(ghost);
  const bool other = mode_->currentIndex() == rowOf(CompareMode::Integrator);
  integrator_->setEnabled(other);
  integratorStep_->setEnabled(other && nh::isFixedStep(chosenIntegrator().method));
}

int ComparePanel::wholeWidth() const {
  int text = 0;
  for (int i = 0; i < mode_->count(); ++i)
    text = std::max(text, mode_->fontMetrics().horizontalAdvance(mode_->itemText(i)));
  QStyleOptionComboBox option;
  option.initFrom(mode_);
  const QSize box = mode_->style()->sizeFromContents(
      QStyle::CT_ComboBox, &option, QSize(text, mode_->fontMetrics().height()), mode_);
  const QMargins margins = layout()->contentsMargins();
  return box.width() + margins.left() + margins.right();
}

CompareMode ComparePanel::chosenMode() const {
  return static_cast<CompareMode>(std::max(0, mode_->currentIndex()));
}

IntegratorChoice ComparePanel::chosenIntegrator() const {
  return {static_cast<nh::Integrator>(integrator_->currentData().toInt()),
          integratorStep_->value()};
}

void ComparePanel::showIntegrator(const IntegratorChoice& other) {
  const QSignalBlocker blockIntegrator(integrator_), blockStep(integratorStep_);
  const int index = integrator_->findData(static_cast<int>(other.method));
  if (index >= 0) integrator_->setCurrentIndex(index);
  integratorStep_->setValue(other.step);
}

void ComparePanel::setCompareIntegrator(const IntegratorChoice& other) {
  showIntegrator(other);
  {
    const QSignalBlocker blockMode(mode_);
    mode_->setCurrentIndex(rowOf(CompareMode::Integrator));
  }
  updateEnabled();
  apply();
}

void ComparePanel::setCompare(CompareMode mode, const QString& parameter, double value) {
  {
    const QSignalBlocker blockMode(mode_), blockParameter(ghostParameter_), blockValue(ghostValue_);
    if (mode == CompareMode::Ghost) {
      const int index = ghostParameter_->findData(parameter);
      if (index < 0) {
        session_->reportError(tr("unknown parameter '%1' for the ghost run").arg(parameter));
        return;
      }
      ghostParameter_->setCurrentIndex(index);
      ghostValue_->setValue(value);
    }
    mode_->setCurrentIndex(rowOf(mode));
  }
  updateEnabled();
  apply();
}

void ComparePanel::rebuild() {
  builtFor_ = controller_->systemPtr();
  QSignalBlocker block(ghostParameter_);
  ghostParameter_->clear();
  // Named as the Parameters panel names them ("Ω₀ [rad/s]"); the identifier is the data.
  for (const auto& p : controller_->system().info().parameters)
    ghostParameter_->addItem(QString::fromStdString(displayHeading(p)),
                             QString::fromStdString(p.name));
  if (!controller_->parameters().empty()) {
    QSignalBlocker blockValue(ghostValue_);
    const double p0 = controller_->parameters()[0];
    ghostValue_->setValue(p0 != 0 ? 2 * p0 : 1);
  }
}

void ComparePanel::syncMode() {
  const QSignalBlocker blockMode(mode_), blockParameter(ghostParameter_), blockValue(ghostValue_);
  mode_->setCurrentIndex(rowOf(controller_->compareMode()));
  if (controller_->compareMode() == CompareMode::Integrator)
    showIntegrator(controller_->otherIntegrator());
  updateEnabled();
  if (controller_->compareMode() != CompareMode::Ghost) return;
  const int index =
      ghostParameter_->findData(QString::fromStdString(controller_->ghostParameter()));
  if (index >= 0) ghostParameter_->setCurrentIndex(index);
  ghostValue_->setValue(controller_->ghostValue());
}

void ComparePanel::apply() {
  const CompareMode mode = chosenMode();
  const bool done =
      session_->setComparison(mode, ghostParameter_->currentData().toString().toStdString(),
                              ghostValue_->value(), chosenIntegrator());
  // A refused integrator or step is not shown as if in force.
  if (!done && mode == CompareMode::Integrator) syncMode();
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
