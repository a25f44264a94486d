// The parameter and initial-condition panels (parameter_panel.h): CheckedSpinBox, which refuses
// out-of-range values and lets playback and undo keys through, and the panels' rows of slider
// and spin box, rebuilt per system and kept in step with the session.
#include "ui/panels/parameter_panel.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSlider>
#include <QUndoStack>
#include <QVBoxLayout>
#include <cmath>

#include "core/nh/errors.h"
#include "ui/session/session.h"
#include "ui/sim/run_style.h"
#include "ui/sim/simulation_controller.h"

namespace nhui {

namespace {

constexpr int kSliderSteps = 1000;

QString formatValue(double v) { return QString::number(v, 'g', 8); }

QString rangeReason(const nh::ParameterInfo& info, double v) {
  if (info.allows(v)) return {};
  return QObject::tr("%1 must be in %2, got %3")
      .arg(QString::fromStdString(info.name), QString::fromStdString(info.rangeText()),
           formatValue(v));
}

// Why `v` cannot be `info`'s value now: its range, then the system's own checks with the other
// parameters in force (a rigid body's moments obey the triangle inequalities), as
// SimulationController::setParameter checks them; "" if it can.
QString refusalOf(const SimulationController& controller, const nh::ParameterInfo& info, double v) {
  if (QString reason = rangeReason(info, v); !reason.isEmpty()) return reason;
  std::vector<double> candidate = controller.parameters();
  const int i = controller.system().parameterIndex(info.name);
  if (i < 0 || i >= static_cast<int>(candidate.size())) return {};
  candidate[i] = v;
  const std::string why = controller.system().checkParameters(candidate.data());
  if (why.empty()) return {};
  return QObject::tr("%1 = %2 is not allowed: %3")
      .arg(QString::fromStdString(info.name), formatValue(v), QString::fromStdString(why));
}

// The panel's message line: two lines high whether shown or not, so that showing a refusal
// moves no row (the rows under the mouse stay where they are).
QLabel* makeMessageLabel(QWidget* parent) {
  auto* label = new QLabel(parent);
  label->setObjectName("reason");
  label->setWordWrap(true);
  label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  label->setStyleSheet("color: #ff6b5b; font-weight: bold;");
  QFont bold = label->font();
  bold.setBold(true);
  label->setFixedHeight(2 * QFontMetrics(bold).lineSpacing() + 4);
  QSizePolicy policy = label->sizePolicy();
  policy.setRetainSizeWhenHidden(true);
  policy.setHorizontalPolicy(QSizePolicy::Ignored);  // long text wraps, never widens the panel
  label->setSizePolicy(policy);
  label->hide();
  return label;
}

// Keys a committed field still takes: what edits a number (digits, sign, point, exponent, erasing)
// and the spin box's own steps. Any other key without a modifier (Space, ← →, R, C) belongs
// to the window's playback shortcuts once the value has been committed with Enter.
bool editsANumber(const QKeyEvent* key) {
  switch (key->key()) {
    case Qt::Key_Backspace:
    case Qt::Key_Delete:
    case Qt::Key_Up:
    case Qt::Key_Down:
    case Qt::Key_PageUp:
    case Qt::Key_PageDown:
    case Qt::Key_Home:
    case Qt::Key_End:
    case Qt::Key_Return:
    case Qt::Key_Enter:
    case Qt::Key_Tab:
    case Qt::Key_Backtab:
    case Qt::Key_Escape:
      return true;
    default:
      break;
  }
  const QString text = key->text();
  return text.size() == 1 && (text[0].isDigit() || QStringLiteral(".,-+eE").contains(text[0]));
}

bool isPlaybackKey(const QKeyEvent* key) {
  const Qt::KeyboardModifiers mods = key->modifiers() & ~Qt::KeypadModifier;
  return (mods == Qt::NoModifier || mods == Qt::ShiftModifier) && !editsANumber(key);
}

bool isUndoOrRedo(const QKeyEvent* key) {
  return key->matches(QKeySequence::Undo) || key->matches(QKeySequence::Redo) ||
         (key->key() == Qt::Key_Z && (key->modifiers() & Qt::ControlModifier)) ||
         (key->key() == Qt::Key_Y && (key->modifiers() & Qt::ControlModifier));
}

// The unit of a state variable for the initial-condition fields: the system's `units`
// (SystemInfo::stateUnits, from a model file's `labels`); "" when it gives none.
QString stateUnit(const nh::SystemModel& system, const std::string& name) {
  const auto& units = system.info().stateUnits;
  const auto it = units.find(name);
  return it == units.end() ? QString() : QString::fromStdString(it->second);
}

}  // namespace

// ---- CheckedSpinBox -----------------------------------------------------------------------

CheckedSpinBox::CheckedSpinBox(std::function<QString(double)> check, QWidget* parent)
    : QDoubleSpinBox(parent), check_(std::move(check)) {
  setRange(-1e15, 1e15);
  setDecimals(12);
  setKeyboardTracking(false);  // commit on Enter or focus-out, not per keystroke
  setAccelerated(true);
  setMinimumWidth(90);
  connect(lineEdit(), &QLineEdit::textEdited, this, &CheckedSpinBox::onTextEdited);
  connect(lineEdit(), &QLineEdit::returnPressed, this, [this] { committed_ = true; });
  lineEdit()->installEventFilter(this);
}

// Whether the window's shortcut gets `event` (a ShortcutOverride): undo and redo always; the
// playback keys once the field's value is committed and nothing has been typed since.
bool CheckedSpinBox::letsShortcutThrough(QEvent* event) {
  if (event->type() != QEvent::ShortcutOverride) return false;
  const auto* key = static_cast<QKeyEvent*>(event);
  if (isUndoOrRedo(key)) {
    interpretText();
    return true;
  }
  return committed_ && isPlaybackKey(key);
}

// Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y belong to the window's undo stack, not to the line edit's
// own text undo. The override reaches the line edit (the focus widget) and, ignored there,
// the spin box, whose QAbstractSpinBox::event would hand it to the line edit again, which
// accepts it and so blocks the window's shortcut: both places refuse it. What was typed is
// committed first, so the undo undoes it and redo brings it back.
// After Enter the field keeps the keyboard with its text selected: Space would replace the
// value with a blank and never reach Play. Until the field is clicked or typed into again,
// the playback keys go to the window as they do from the 3D view.
bool CheckedSpinBox::eventFilter(QObject* watched, QEvent* event) {
  if (letsShortcutThrough(event)) {
    event->ignore();
    return true;
  }
  if (event->type() == QEvent::MouseButtonPress) committed_ = false;
  return QDoubleSpinBox::eventFilter(watched, event);
}

bool CheckedSpinBox::event(QEvent* event) {
  if (letsShortcutThrough(event)) {
    event->ignore();
    return true;
  }
  if (event->type() == QEvent::FocusIn || event->type() == QEvent::FocusOut) committed_ = false;
  return QDoubleSpinBox::event(event);
}

void CheckedSpinBox::keyPressEvent(QKeyEvent* event) {
  QDoubleSpinBox::keyPressEvent(event);
  if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) committed_ = true;
}

void CheckedSpinBox::clearRefusal() {
  if (refusal_.isEmpty()) return;
  refusal_.clear();
  markRefused(false);
  emit refusalChanged(QString());
}

// A red tint of the field, through the palette: a style sheet border would change the spin
// box's size and so move the rows of the panel.
void CheckedSpinBox::markRefused(bool refused) {
  if (!refused) {
    setPalette(QPalette());
    return;
  }
  QPalette p = palette();
  const QColor base = p.color(QPalette::Base), red(0xff, 0x6b, 0x5b);
  auto mix = [](int a, int b) { return (a * 3 + b * 2) / 5; };
  p.setColor(QPalette::Base, QColor(mix(base.red(), red.red()), mix(base.green(), red.green()),
                                    mix(base.blue(), red.blue())));
  setPalette(p);
}

QString CheckedSpinBox::textFromValue(double value) const { return formatValue(value); }

double CheckedSpinBox::valueFromText(const QString& text) const {
  return QLocale::c().toDouble(text.trimmed());
}

// The field's own limits come first: QDoubleSpinBox would clamp a value past them (1e300
// became 1e15 without a word), so they are refused like any value out of range.
QString CheckedSpinBox::reasonFor(double v) const {
  if (v < minimum() || v > maximum())
    return tr("%1 is beyond what this field holds (%2 to %3)")
        .arg(formatValue(v), formatValue(minimum()), formatValue(maximum()));
  return check_(v);
}

QValidator::State CheckedSpinBox::validate(QString& text, int&) const {
  bool ok = false;
  const double v = QLocale::c().toDouble(text.trimmed(), &ok);
  if (!ok || !std::isfinite(v)) return QValidator::Intermediate;
  return reasonFor(v).isEmpty() ? QValidator::Acceptable : QValidator::Intermediate;
}

void CheckedSpinBox::fixup(QString&) const {}

void CheckedSpinBox::onTextEdited(const QString& text) {
  committed_ = false;
  bool ok = false;
  const double v = QLocale::c().toDouble(text.trimmed(), &ok);
  QString reason;
  if (!text.trimmed().isEmpty() && text.trimmed() != "-" && text.trimmed() != "+") {
    if (!ok || !std::isfinite(v))
      reason = tr("'%1' is not a number").arg(text.trimmed().left(40));
    else
      reason = reasonFor(v);
  }
  // The reason stays up after Enter restores the previous value, until a value is accepted.
  refusal_ = reason;
  markRefused(!reason.isEmpty());
  emit refusalChanged(reason);
}

// ---- SystemFieldsPanel --------------------------------------------------------------------

SystemFieldsPanel::SystemFieldsPanel(Session* session, QWidget* parent)
    : QWidget(parent), session_(session), controller_(session->controller()) {
  layout_ = new QVBoxLayout(this);
  layout_->setContentsMargins(6, 6, 6, 6);
  message_ = makeMessageLabel(this);
  layout_->addWidget(message_);
}

void SystemFieldsPanel::follow(void (SimulationController::*valuesChanged)()) {
  rebuild();
  connect(controller_, valuesChanged, this, [this] { syncValues(); });
  connect(controller_, &SimulationController::scenarioChanged, this,
          [this] { controller_->systemPtr() != builtFor_ ? rebuild() : syncValues(); });
}

// ---- ParameterPanel -----------------------------------------------------------------------

ParameterPanel::ParameterPanel(Session* session, QWidget* parent)
    : SystemFieldsPanel(session, parent) {
  follow(&SimulationController::parametersChanged);
}

void ParameterPanel::showRefusal(const QString& message) {
  message_->setText(message);
  message_->setToolTip(message);
  message_->show();
}

void ParameterPanel::clearRefusals() {
  for (Row& row : rows_) {
    QSignalBlocker block(row.spin);
    row.spin->clearRefusal();
  }
  message_->clear();
  message_->setToolTip(QString());
  message_->hide();
}

void ParameterPanel::rebuild() {
  builtFor_ = controller_->systemPtr();
  if (body_) body_->deleteLater();
  rows_.clear();
  body_ = new QWidget;
  auto* grid = new QGridLayout(body_);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->setVerticalSpacing(2);
  grid->setColumnStretch(1, 1);
  const auto& infos = controller_->system().info().parameters;
  rows_.reserve(infos.size());
  int gridRow = 0;
  for (const nh::ParameterInfo& info : infos) {
    Row row;
    row.name = QString::fromStdString(info.name);
    row.info = info;
    const double d = info.defaultValue;
    const double scale = d != 0 ? std::abs(d) : 1.0;
    double lo = std::max(info.min, d - 4 * scale), hi = std::min(info.max, d + 4 * scale);
    if (info.minExclusive && lo <= info.min) lo = info.min + 1e-3 * (hi - info.min);
    if (info.maxExclusive && hi >= info.max) hi = info.max - 1e-3 * (info.max - lo);
    row.lo = lo;
    row.hi = hi;
    const QString unit = QString::fromStdString(displayUnit(info));
    // The model's display name ("Ω₀") where it gives one (run_style.h, the one source of the
    // names shown); the identifier (for --set and the files) stays in the tooltip.
    const QString shown = QString::fromStdString(displayName(info));
    auto* label = new QLabel(QString::fromStdString(displayHeading(info)));
    label->setObjectName("label_" + row.name);
    const QString tip =
        QStringLiteral("<b>%1</b>%2%3<br>%4<br>allowed: %5, default %6")
            .arg(shown.toHtmlEscaped(),
                 shown == row.name ? QString() : QStringLiteral(" (%1)").arg(row.name),
                 unit.isEmpty() ? QString() : " [" + unit + "]",
                 QString::fromStdString(info.description).toHtmlEscaped(),
                 QString::fromStdString(info.rangeText()), formatValue(d));
    label->setToolTip(tip);
    row.slider = new QSlider(Qt::Horizontal);
    row.slider->setObjectName("slider_" + row.name);
    row.slider->setRange(0, kSliderSteps);
    row.slider->setToolTip(tip);
    row.spin = new CheckedSpinBox(
        [controller = controller_, info](double v) { return refusalOf(*controller, info, v); });
    row.spin->setObjectName("spin_" + row.name);
    row.spin->setToolTip(tip);
    row.spin->setSingleStep(std::pow(10.0, std::floor(std::log10((hi - lo) / 100))));
    grid->addWidget(label, gridRow, 0);
    grid->addWidget(row.slider, gridRow, 1);
    grid->addWidget(row.spin, gridRow, 2);
    ++gridRow;
    rows_.push_back(row);
  }
  for (Row& row : rows_) {
    Row* r = &row;
    connect(row.slider, &QSlider::sliderPressed, this, [this] { ++dragSerial_; });
    connect(row.slider, &QSlider::valueChanged, this, [this, r](int p) { sliderMoved(*r, p); });
    connect(row.spin, &QDoubleSpinBox::valueChanged, this,
            [this, r](double v) { spinCommitted(*r, v); });
    connect(row.spin, &CheckedSpinBox::refusalChanged, this, [this](const QString& reason) {
      if (reason.isEmpty())
        message_->hide();
      else
        showRefusal(tr("Refused: %1").arg(reason));
    });
  }
  auto* defaults = new QPushButton(tr("Restore defaults"));
  defaults->setToolTip(
      tr("Every parameter back to its default, except phases that keep a motion continuous "
         "(the table's angle at t = 0 is shifted so the table turns on from where it is)"));
  connect(defaults, &QPushButton::clicked, this, [this] {
    QUndoStack* undo = session_->undoStack();
    undo->beginMacro(tr("Restore default parameters"));
    for (Row& row : rows_) {
      if (!controller_->system().info().keptContinuousBy(row.info.name).empty()) continue;
      const double now = controller_->parameter(row.info.name);
      if (now != row.info.defaultValue)
        session_->setParameter(row.info.name, row.info.defaultValue);
    }
    undo->endMacro();
  });
  grid->addWidget(defaults, gridRow, 0, 1, 3);
  grid->setRowStretch(gridRow + 1, 1);
  layout_->addWidget(body_);
  syncValues();
}

void ParameterPanel::syncValues() {
  syncing_ = true;
  for (Row& row : rows_) {
    const double v = controller_->parameter(row.info.name);
    // A value that changed (an accepted edit, undo, scrubbing) supersedes a refusal.
    if (v != row.spin->value()) clearRefusals();
    QSignalBlocker bs(row.slider), bp(row.spin);
    row.spin->setValue(v);
    const double f = std::clamp((v - row.lo) / (row.hi - row.lo), 0.0, 1.0);
    row.slider->setValue(static_cast<int>(std::lround(f * kSliderSteps)));
  }
  syncing_ = false;
}

void ParameterPanel::sliderMoved(Row& row, int position) {
  if (syncing_) return;
  double v = row.lo + (row.hi - row.lo) * position / kSliderSteps;
  // Round to 4 significant digits of the span so values read cleanly.
  const double step = std::pow(10.0, std::floor(std::log10(row.hi - row.lo)) - 3);
  v = std::round(v / step) * step;
  const double before = controller_->parameter(row.info.name);
  if (before == v) return;
  if (const QString reason = refusalOf(*controller_, row.info, v); !reason.isEmpty()) {
    syncValues();  // the slider back to the value in force (this clears refusals: show it after)
    showRefusal(tr("Refused: %1").arg(reason));
    return;
  }
  clearRefusals();
  {
    QSignalBlocker block(row.spin);
    row.spin->setValue(v);
  }
  // One drag (or one run of key presses without a press in between) merges into one step.
  session_->setParameter(row.info.name, v,
                         row.slider->isSliderDown() ? dragSerial_ : -1 - dragSerial_);
  // Refused all the same (the command reported why and left the stack): the widgets, set
  // ahead of the controller above, show the value in force again.
  if (controller_->parameter(row.info.name) != v) syncValues();
}

void ParameterPanel::spinCommitted(Row& row, double value) {
  if (syncing_) return;
  const QString reason = refusalOf(*controller_, row.info, value);
  if (!reason.isEmpty()) {
    syncValues();  // back to the value in force (this clears refusals: show it after)
    showRefusal(tr("Refused: %1").arg(reason));
    return;
  }
  clearRefusals();
  const double before = controller_->parameter(row.info.name);
  if (before == value) return;
  session_->setParameter(row.info.name, value);
  // Refused all the same (the command reported why and left the stack): the spin box shows
  // the value in force again.
  if (controller_->parameter(row.info.name) != value) syncValues();
}

CheckedSpinBox* ParameterPanel::spinBox(const QString& name) const {
  for (const Row& r : rows_)
    if (r.name == name) return r.spin;
  return nullptr;
}

QSlider* ParameterPanel::slider(const QString& name) const {
  for (const Row& r : rows_)
    if (r.name == name) return r.slider;
  return nullptr;
}

QLabel* ParameterPanel::reasonLabel(const QString&) const { return message_; }

// ---- InitialStatePanel --------------------------------------------------------------------

InitialStatePanel::InitialStatePanel(Session* session, QWidget* parent)
    : SystemFieldsPanel(session, parent) {
  follow(&SimulationController::initialChanged);
}

void InitialStatePanel::rebuild() {
  builtFor_ = controller_->systemPtr();
  if (body_) body_->deleteLater();
  spins_.clear();
  labels_.clear();
  message_->hide();
  body_ = new QWidget;
  auto* grid = new QGridLayout(body_);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->setVerticalSpacing(2);
  const nh::StateLayout layout = controller_->primary().layout().state;
  int row = 0;
  for (size_t i = 0; i < layout.names.size(); ++i) {
    const QString name = QString::fromStdString(layout.names[i]);
    auto* spin = new CheckedSpinBox(
        [](double v) { return std::isfinite(v) ? QString() : QObject::tr("must be finite"); });
    spin->setObjectName("initial_" + name);
    spin->setSingleStep(0.1);
    QLabel* reason = message_;
    connect(spin, &CheckedSpinBox::refusalChanged, reason, [reason](const QString& r) {
      reason->setText(r);
      reason->setVisible(!r.isEmpty());
    });
    connect(spin, &QDoubleSpinBox::valueChanged, this, [this, name, reason, spin](double v) {
      if (syncing_) return;
      auto after = controller_->initialOverrides();
      after[name.toStdString()] = v;
      // A state the constraints cannot complete is refused by the session, nothing changed.
      QString error;
      if (session_->setInitial(after, false, &error)) {
        spin->clearRefusal();
        reason->hide();
      } else {
        reason->setText(tr("Refused: %1").arg(error));
        reason->show();
        syncValues();
      }
    });
    const QString unit = stateUnit(controller_->system(), layout.names[i]);
    auto* label = new QLabel(unit.isEmpty() ? name : QStringLiteral("%1 [%2]").arg(name, unit));
    label->setObjectName("initialLabel_" + name);
    grid->addWidget(label, row, 0);
    grid->addWidget(spin, row, 1);
    ++row;
    spins_.emplace_back(name, spin);
    labels_.push_back(label);
  }
  notes_ = new QLabel;
  notes_->setWordWrap(true);
  notes_->setStyleSheet("color: #e0b050;");
  grid->addWidget(notes_, row++, 0, 1, 2);
  auto* info = new QLabel(QString::fromStdString(controller_->system().info().initialization));
  info->setWordWrap(true);
  info->setStyleSheet("color: palette(mid);");
  grid->addWidget(info, row++, 0, 1, 2);
  auto* buttons = new QHBoxLayout;
  auto* resetButton = new QPushButton(tr("Reset to these (R)"));
  auto* clearButton = new QPushButton(tr("Defaults"));
  buttons->addWidget(resetButton);
  buttons->addWidget(clearButton);
  grid->addLayout(buttons, row++, 0, 1, 2);
  grid->setRowStretch(row, 1);
  connect(resetButton, &QPushButton::clicked, this, [this] { session_->reset(); });
  connect(clearButton, &QPushButton::clicked, this, [this] {
    if (controller_->initialOverrides().empty()) return;
    session_->setInitial({}, false);
  });
  layout_->addWidget(body_);
  syncValues();
}

void InitialStatePanel::syncValues() {
  const nh::StateLayout& layout = controller_->primary().layout().state;
  // The same system under other dynamics has another state (vakonomic runs add the
  // multipliers mu): the fields follow the state, not only the system.
  bool sameFields = spins_.size() == layout.names.size();
  for (size_t i = 0; sameFields && i < spins_.size(); ++i)
    sameFields = spins_[i].first.toStdString() == layout.names[i];
  if (!sameFields) {
    rebuild();  // which syncs the values
    return;
  }
  syncing_ = true;
  const auto& x0 = controller_->initialState();
  const auto& overrides = controller_->initialOverrides();
  for (size_t i = 0; i < spins_.size() && i < layout.index.size(); ++i) {
    auto& [name, spin] = spins_[i];
    QSignalBlocker block(spin);
    if (layout.index[i] < static_cast<int>(x0.size())) spin->setValue(x0[layout.index[i]]);
    QFont f = spin->font();
    f.setBold(overrides.count(name.toStdString()) > 0);
    spin->setFont(f);
  }
  QStringList notes;
  for (const auto& n : controller_->initialNotes()) notes << QString::fromStdString(n);
  notes_->setText(notes.join("\n"));
  notes_->setVisible(!notes.isEmpty());
  syncing_ = false;
}

QLabel* InitialStatePanel::label(const QString& name) const {
  for (size_t i = 0; i < spins_.size(); ++i)
    if (spins_[i].first == name) return labels_[i];
  return nullptr;
}

CheckedSpinBox* InitialStatePanel::spinBox(const QString& name) const {
  for (const auto& [n, s] : spins_)
    if (n == name) return s;
  return nullptr;
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
