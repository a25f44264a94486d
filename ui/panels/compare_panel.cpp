#include "ui/panels/compare_panel.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>

#include "core/nh/errors.h"
#include "ui/panels/parameter_panel.h"
#include "ui/session/session.h"
#include "ui/sim/run_style.h"

namespace nhui {

namespace {
// Rows of the mode box, in CompareMode order.
int rowOf(CompareMode mode) {
  return mode == CompareMode::None ? 0 : mode == CompareMode::Vakonomic ? 1 : 2;
}
}  // namespace

ComparePanel::ComparePanel(Session* session, QWidget* parent)
    : QWidget(parent), session_(session), controller_(session->controller()) {
  auto* form = new QFormLayout(this);
  mode_ = new QComboBox;
  mode_->setObjectName("compareMode");
  mode_->addItem(tr("Off"));
  mode_->addItem(tr("Nonholonomic vs vakonomic"));
  mode_->addItem(tr("Ghost: another parameter value"));
  ghostParameter_ = new QComboBox;
  ghostParameter_->setObjectName("ghostParameter");
  // Narrow enough for a third of a projector's screen: the boxes shrink and elide.
  for (QComboBox* box : {mode_, ghostParameter_}) {
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(10);
  }
  ghostValue_ = new CheckedSpinBox([this](double v) {
    const int i =
        controller_->system().parameterIndex(ghostParameter_->currentText().toStdString());
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
    const int i =
        controller_->system().parameterIndex(ghostParameter_->currentText().toStdString());
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
}

// The ghost's parameter and value mean something only for a ghost run.
void ComparePanel::updateEnabled() {
  const bool ghost = mode_->currentIndex() == rowOf(CompareMode::Ghost);
  ghostParameter_->setEnabled(ghost);
  ghostValue_->setEnabled(ghost);
}

void ComparePanel::setCompare(CompareMode mode, const QString& parameter, double value) {
  {
    const QSignalBlocker blockMode(mode_), blockParameter(ghostParameter_), blockValue(ghostValue_);
    if (mode == CompareMode::Ghost) {
      const int index = ghostParameter_->findText(parameter);
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
  for (const auto& p : controller_->system().info().parameters)
    ghostParameter_->addItem(QString::fromStdString(p.name));
  if (!controller_->parameters().empty()) {
    QSignalBlocker blockValue(ghostValue_);
    const double p0 = controller_->parameters()[0];
    ghostValue_->setValue(p0 != 0 ? 2 * p0 : 1);
  }
}

void ComparePanel::syncMode() {
  const QSignalBlocker blockMode(mode_), blockParameter(ghostParameter_), blockValue(ghostValue_);
  mode_->setCurrentIndex(rowOf(controller_->compareMode()));
  updateEnabled();
  if (controller_->compareMode() != CompareMode::Ghost) return;
  const int index =
      ghostParameter_->findText(QString::fromStdString(controller_->ghostParameter()));
  if (index >= 0) ghostParameter_->setCurrentIndex(index);
  ghostValue_->setValue(controller_->ghostValue());
}

void ComparePanel::apply() {
  const CompareMode mode = mode_->currentIndex() == 0   ? CompareMode::None
                           : mode_->currentIndex() == 1 ? CompareMode::Vakonomic
                                                        : CompareMode::Ghost;
  const std::string parameter =
      mode == CompareMode::Ghost ? ghostParameter_->currentText().toStdString() : std::string();
  const double value = mode == CompareMode::Ghost ? ghostValue_->value() : 0.0;
  // The comparison in force already: nothing to restart.
  if (!controller_->comparing(mode, parameter, value)) {
    const QString text =
        mode == CompareMode::None ? tr("Compare: off")
        : mode == CompareMode::Vakonomic
            ? tr("Compare: nonholonomic vs vakonomic")
            : tr("Compare: ghost %1 = %2").arg(QString::fromStdString(parameter)).arg(value);
    // The steps of one ghost parameter's value merge into one undo step.
    const QString mergeKey =
        mode == CompareMode::Ghost ? "ghost " + QString::fromStdString(parameter) : QString();
    if (!session_->changeTimeline(
            text, [&] { controller_->setCompare(mode, parameter, value); }, mergeKey))
      return;
  }
  controller_->play();
}

}  // namespace nhui
