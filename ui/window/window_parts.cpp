// The main window's small parts (window_parts.h): the dark palette and plot styles, the lesson
// bar, the error banner, the status line, the shortcut overlay, the speed control and the
// recent files menu.
#include "ui/window/window_parts.h"

#include <QComboBox>
#include <QDateTime>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QSettings>
#include <QSlider>
#include <QStatusBar>
#include <QToolBar>
#include <QToolButton>
#include <algorithm>
#include <cmath>

#include "resources/app_resources.h"
#include "ui/panels/plan_dialog.h"  // describeTargets
#include "ui/plot/plot_widget.h"
#include "ui/scene/scene_view.h"
#include "ui/session/session.h"
#include "ui/window/status_fit.h"

namespace nhui {

// ---- Themes -------------------------------------------------------------------------------

QPalette darkPalette() {
  QPalette p;
  p.setColor(QPalette::Window, QColor(18, 20, 24));
  p.setColor(QPalette::WindowText, QColor(236, 238, 242));
  p.setColor(QPalette::Base, QColor(10, 11, 14));
  p.setColor(QPalette::AlternateBase, QColor(30, 33, 38));
  p.setColor(QPalette::Text, QColor(236, 238, 242));
  p.setColor(QPalette::Button, QColor(40, 44, 52));
  p.setColor(QPalette::ButtonText, QColor(236, 238, 242));
  p.setColor(QPalette::Light, QColor(90, 96, 108));
  p.setColor(QPalette::Midlight, QColor(64, 70, 80));
  p.setColor(QPalette::Mid, QColor(48, 52, 60));
  p.setColor(QPalette::Dark, QColor(12, 13, 16));
  p.setColor(QPalette::Shadow, Qt::black);
  p.setColor(QPalette::Highlight, QColor(255, 200, 40));
  p.setColor(QPalette::HighlightedText, Qt::black);
  p.setColor(QPalette::ToolTipBase, QColor(30, 33, 38));
  p.setColor(QPalette::ToolTipText, QColor(236, 238, 242));
  p.setColor(QPalette::PlaceholderText, QColor(150, 156, 166));
  p.setColor(QPalette::Link, QColor(120, 180, 255));
  for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
    p.setColor(QPalette::Disabled, role, QColor(120, 126, 136));
  return p;
}

PlotStyle plotStyleFor(bool dark, bool presentation) {
  PlotStyle style;
  if (!dark) {
    style.background = QColor(255, 255, 255);
    style.frame = QColor(120, 126, 136);
    style.grid = QColor(226, 229, 234);
    style.text = QColor(30, 32, 36);
  }
  if (presentation) {
    style.lineWidth = 2.6;
    style.fontScale = 1.5;
  }
  return style;
}

// ---- Lesson bar ---------------------------------------------------------------------------

LessonBar::LessonBar(QWidget* parent) : QFrame(parent) {
  setObjectName("lessonBar");
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(10, 6, 6, 6);
  text_ = new QLabel;
  text_->setObjectName("lessonNote");
  text_->setWordWrap(true);
  text_->setTextFormat(Qt::RichText);
  layout->addWidget(text_, 1);
  auto* close = new QToolButton;
  close->setObjectName("closeLessonNote");
  close->setText(QStringLiteral("✕"));
  close->setAutoRaise(true);
  close->setToolTip(tr("Hide the note (it comes back with the next lesson)"));
  connect(close, &QToolButton::clicked, this, &QWidget::hide);
  layout->addWidget(close, 0, Qt::AlignTop);
  hide();
}

void LessonBar::setLesson(const QString& title, const QString& note) {
  if (note.isEmpty()) {
    hide();
    return;
  }
  text_->setText(QStringLiteral("<b>%1</b>%2%3")
                     .arg(title.toHtmlEscaped(),
                          title.isEmpty() ? QString() : QStringLiteral(" — "),
                          note.toHtmlEscaped()));
  show();
}

void LessonBar::showLessonOf(const Session& session) {
  const SimulationController* controller = session.controller();
  const PlanSettings* shown = controller->plan();
  const QString& title = session.lessonTitle();
  const QString& note = session.lessonNote();
  const std::optional<PlanSettings>& lessonPlan = session.lessonPlan();
  const auto same = [](const PlanSettings& a, const PlanSettings& b) {
    return a.tEnd == b.tEnd && a.targets == b.targets && a.played == b.played;
  };
  if (!lessonPlan || note.isEmpty() || !shown || same(*shown, *lessonPlan)) {
    setLesson(title, note);
    return;
  }
  const nh::SystemInfo& info = controller->system().info();
  setLesson(title,
            tr("Shown now: your plan, to %1 (extremal %2). The lesson's note is about its own "
               "plan, to %3: %4 brings it back.")
                .arg(describeTargets(info, *shown))
                .arg(shown->played + 1)
                .arg(describeTargets(info, *lessonPlan), Session::undoKey()));
}

void LessonBar::setDark(bool dark) {
  setStyleSheet(dark ? "QFrame#lessonBar { background: #1d2b3a; border-bottom: 1px solid #3d5a78; }"
                       "QFrame#lessonBar QLabel { color: #eef2f6; }"
                     : "QFrame#lessonBar { background: #fff6d6; border-bottom: 1px solid #d9c37a; }"
                       "QFrame#lessonBar QLabel { color: #202020; }");
}

// ---- Error banner -------------------------------------------------------------------------

ErrorBanner::ErrorBanner(QStatusBar* status, const SimulationController* controller)
    : status_(status), controller_(controller) {
  setObjectName("errorBanner");
  setWordWrap(true);
  setStyleSheet("QLabel { background: #7a1f1a; color: white; padding: 8px; font-weight: bold; }");
  hide();
  connect(controller, &SimulationController::historyReset, this, &QWidget::hide);
  connect(controller, &SimulationController::warningOccurred, this, &ErrorBanner::warn);
  connect(controller, &SimulationController::energyDrifted, this, &ErrorBanner::drift);
}

void ErrorBanner::report(const QString& message) {
  // Most errors (a refused edit, a file that cannot be read) leave the run as it was.
  message_ = message;
  setText(controller_->playing() || controller_->lastError().isEmpty()
              ? tr("⚠  %1").arg(message)
              : tr("⚠  %1\nThe simulation is paused; nothing recorded so far is lost. Change a "
                   "parameter, scrub back, or press R to reset.")
                    .arg(message));
  show();
  status_->showMessage(message, 15000);
}

void ErrorBanner::warn(const QString& message) {
  setText(tr("⚠  %1").arg(message));
  show();
  status_->showMessage(message, 15000);
}

void ErrorBanner::drift(const QString& message) {
  if (!driftExpected_) return warn(message);
  status_->showMessage(tr("As this lesson shows: %1").arg(message));
}

// ---- Status line --------------------------------------------------------------------------

StatusLine::StatusLine(QStatusBar* bar, const SimulationController* controller,
                       const SceneView* view)
    : QObject(bar),
      controller_(controller),
      view_(view),
      time_(new QLabel),
      rate_(new QLabel),
      fpsLabel_(new QLabel),
      residual_(new QLabel) {
  residual_->setToolTip(tr("Largest constraint residual |Φ| at the displayed moment"));
  for (QLabel* l : {time_, rate_, fpsLabel_, residual_}) {
    l->setMinimumWidth(120);
    bar->addPermanentWidget(l);
  }
  // A long message is shown whole: the frame rate, the rate and the residual step aside.
  new StatusMessageFit(bar, {fpsLabel_, rate_, residual_});
}

void StatusLine::update() {
  const qint64 now = QDateTime::currentMSecsSinceEpoch();
  if (now - lastFpsTime_ >= 500) {
    const long frames = view_->framesPainted();
    if (lastFpsTime_ > 0) fps_ = (frames - lastFrames_) * 1000.0 / (now - lastFpsTime_);
    lastFrames_ = frames;
    lastFpsTime_ = now;
  }
  time_->setText(tr("t = %1 s").arg(controller_->displayTime(), 0, 'f', 2));
  rate_->setText(controller_->playing()
                     ? tr("real time × %1").arg(controller_->realTimeFactor(), 0, 'g', 3)
                     : tr("paused"));
  fpsLabel_->setText(tr("%1 fps").arg(fps_, 0, 'f', 0));
  residual_->setText(tr("max |Φ| %1").arg(controller_->displayedResidual(), 0, 'e', 1));
}

// ---- Shortcut overlay ---------------------------------------------------------------------

ShortcutOverlay::ShortcutOverlay(QWidget* view) : QLabel(view) {
  setTextFormat(Qt::RichText);
  setText(nhres::shortcutHelpHtml());
  hide();  // styled and placed when shown
}

void ShortcutOverlay::toggle() {
  setVisible(!isVisible());
  place();
  raise();
}

void ShortcutOverlay::place() {
  if (!isVisible()) return;
  const QWidget* view = parentWidget();
  const QSize room = view->size() - QSize(8, 8);
  for (double points = 12; points >= 7; points -= 0.5) {
    setStyleSheet(
        QStringLiteral("QLabel { background: rgba(15, 18, 24, 215); color: #f0f0f0; border: 1px "
                       "solid #8090a0; border-radius: 10px; padding: %1px; font-size: %2pt; }")
            .arg(points >= 10 ? 16 : 8)
            .arg(points));
    adjustSize();
    if (width() <= room.width() && height() <= room.height()) break;
  }
  move(std::max(0, (view->width() - width()) / 2), std::max(0, (view->height() - height()) / 2));
}

// ---- Speed --------------------------------------------------------------------------------

namespace {
constexpr int kSpeedSteps = 500;  // log scale 0.01× … 1000×
constexpr double kSpeedPresets[] = {0.1, 0.25, 1, 4, 10};
constexpr int kSpeedSnap = 4;  // slider steps (of 500) within which a preset catches

double speedFromSlider(int p) { return std::pow(10.0, -2.0 + 5.0 * p / kSpeedSteps); }
int sliderFromSpeed(double s) {
  return static_cast<int>(std::lround((std::log10(s) + 2.0) / 5.0 * kSpeedSteps));
}
QString speedText(double s) {
  return s < 1 ? QStringLiteral("%1×").arg(s, 0, 'g', 2)
               : QStringLiteral("%1×").arg(s, 0, 'f', s < 10 ? 1 : 0);
}
double snappedSpeed(int p) {
  for (double preset : kSpeedPresets)
    if (std::abs(p - sliderFromSpeed(preset)) <= kSpeedSnap) return preset;
  return speedFromSlider(p);
}
}  // namespace

SpeedControl::SpeedControl(Session* session, QToolBar* bar, QWidget* view)
    : QObject(bar),
      session_(session),
      view_(view),
      slider_(new QSlider(Qt::Horizontal)),
      box_(new QComboBox) {
  bar->addWidget(new QLabel(tr(" Speed ")));
  slider_->setObjectName("speedSlider");
  slider_->setRange(0, kSpeedSteps);
  slider_->setValue(sliderFromSpeed(1));
  slider_->setMaximumWidth(200);
  slider_->setToolTip(
      tr("Simulated seconds per real second: 0.01× to 1000× (snaps to 0.1×, 0.25×, 1×, 4×, 10×)"));
  box_->setObjectName("speedBox");
  box_->setEditable(true);
  box_->setInsertPolicy(QComboBox::NoInsert);
  box_->setToolTip(tr("Playback speed: pick a preset or type a factor from 0.01 to 1000"));
  for (double preset : kSpeedPresets) box_->addItem(speedText(preset), preset);
  box_->setCurrentIndex(box_->findData(1.0));
  box_->setMinimumContentsLength(6);
  bar->addWidget(slider_);
  bar->addWidget(box_);
  SimulationController* controller = session->controller();
  connect(slider_, &QSlider::valueChanged, this,
          [controller](int p) { controller->setSpeed(snappedSpeed(p)); });
  connect(box_, &QComboBox::activated, this, [this](int i) { setFromText(box_->itemText(i)); });
  connect(box_->lineEdit(), &QLineEdit::editingFinished, this,
          [this] { setFromText(box_->lineEdit()->text()); });
  connect(controller, &SimulationController::speedChanged, this, [this](double s) {
    QSignalBlocker blockBox(box_);
    box_->setEditText(speedText(s));
    QSignalBlocker block(slider_);
    slider_->setValue(sliderFromSpeed(s));
  });
}

void SpeedControl::setFromText(const QString& text) {
  QString t = text.trimmed();
  if (t.endsWith(QStringLiteral("×")) || t.endsWith('x') || t.endsWith('X')) t.chop(1);
  bool ok = false;
  const double v = QLocale::c().toDouble(t.trimmed(), &ok);
  if (!ok || !(v >= 0.01 && v <= 1000)) {
    session_->reportError(
        tr("Speed '%1' refused: type a factor from 0.01 to 1000 (for example 0.5 or 2×)")
            .arg(text.left(40)));
    QSignalBlocker block(box_);
    box_->setEditText(speedText(session_->controller()->speed()));
    return;
  }
  session_->controller()->setSpeed(v);
  // The speed is set: the keyboard goes back to the view, so Space plays and pauses again
  // (the box's line edit would take it as text).
  const QWidget* focus = view_->window()->focusWidget();
  if (focus == box_ || focus == box_->lineEdit()) view_->setFocus();
}

// ---- Recent files -------------------------------------------------------------------------

RecentFiles::RecentFiles(QMenu* menu) : QObject(menu), menu_(menu) { updateMenu(); }

void RecentFiles::add(const QString& path) {
  const QString abs = QFileInfo(path).absoluteFilePath();
  files_.removeAll(abs);
  files_.prepend(abs);
  while (files_.size() > 8) files_.removeLast();
  updateMenu();
}

void RecentFiles::read(const QSettings& settings) {
  files_ = settings.value("files/recent").toStringList();
  updateMenu();
}

void RecentFiles::write(QSettings& settings) const { settings.setValue("files/recent", files_); }

void RecentFiles::updateMenu() {
  menu_->clear();
  for (const QString& f : files_)
    menu_->addAction(QFileInfo(f).fileName(), this, [this, f] { emit chosen(f); })->setToolTip(f);
  menu_->setEnabled(!files_.isEmpty());
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
