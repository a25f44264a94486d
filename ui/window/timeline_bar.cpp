// TimelineBar (timeline_bar.h): a slider that seeks where its groove is clicked, kept on the
// primary run's recorded span, with a mark at each parameter edit of the record (its label on
// hover), and the "t / end" label.
#include "ui/window/timeline_bar.h"

#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QSlider>
#include <QStyle>
#include <QStyleOptionSlider>
#include <QToolTip>
#include <cmath>
#include <functional>
#include <utility>
#include <vector>

#include "ui/sim/simulation_controller.h"

namespace nhui {

namespace {

// A slider that jumps to a click on its groove (a seek to that moment, as a media player's
// timeline) instead of stepping a page towards it; the press then drags the handle on.
class SeekSlider : public QSlider {
 public:
  explicit SeekSlider(std::function<void(int)> seek) : QSlider(Qt::Horizontal), seek_(seek) {}

  // The edits' places on the groove (0 … 1 of the recorded span) and their labels.
  void setMarks(std::vector<std::pair<double, QString>> marks) {
    if (marks == marks_) return;
    marks_ = std::move(marks);
    update();
  }

 protected:
  void paintEvent(QPaintEvent* event) override {
    QSlider::paintEvent(event);
    if (marks_.empty()) return;
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    painter.setBrush(QColor(230, 120, 30));
    for (const auto& [fraction, label] : marks_) {
      const double x = markX(fraction);
      const QPointF tip[3] = {{x - 4, 0.0}, {x + 4, 0.0}, {x, 6.0}};
      painter.drawPolygon(tip, 3);
      painter.fillRect(QRectF(x - 0.75, 0, 1.5, height()), QColor(230, 120, 30, 160));
    }
  }
  bool event(QEvent* event) override {
    if (event->type() == QEvent::ToolTip) {
      const auto* help = static_cast<QHelpEvent*>(event);
      for (const auto& [fraction, label] : marks_) {
        if (std::abs(markX(fraction) - help->pos().x()) <= 5) {
          QToolTip::showText(help->globalPos(), label, this);
          return true;
        }
      }
    }
    return QSlider::event(event);
  }

  void mousePressEvent(QMouseEvent* event) override {
    if (event->button() == Qt::LeftButton && maximum() > minimum()) {
      QStyleOptionSlider option;
      initStyleOption(&option);
      const QRect handle =
          style()->subControlRect(QStyle::CC_Slider, &option, QStyle::SC_SliderHandle, this);
      const QPoint at = event->position().toPoint();
      if (!handle.contains(at)) {
        const QRect groove =
            style()->subControlRect(QStyle::CC_Slider, &option, QStyle::SC_SliderGroove, this);
        const int v = QStyle::sliderValueFromPosition(
            minimum(), maximum(), at.x() - groove.x() - handle.width() / 2,
            groove.width() - handle.width(), option.upsideDown);
        {
          const QSignalBlocker block(this);
          setValue(v);
        }
        seek_(v);
      }
    }
    QSlider::mousePressEvent(event);  // the handle, now under the pointer, follows a drag
  }

 private:
  double markX(double fraction) const {
    QStyleOptionSlider option;
    initStyleOption(&option);
    const QRect groove =
        style()->subControlRect(QStyle::CC_Slider, &option, QStyle::SC_SliderGroove, this);
    const QRect handle =
        style()->subControlRect(QStyle::CC_Slider, &option, QStyle::SC_SliderHandle, this);
    return groove.x() + handle.width() / 2.0 + fraction * (groove.width() - handle.width());
  }

  std::function<void(int)> seek_;
  std::vector<std::pair<double, QString>> marks_;
};

}  // namespace

TimelineBar::TimelineBar(SimulationController* controller, QWidget* parent)
    : QWidget(parent), controller_(controller) {
  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(8, 4, 8, 4);
  slider_ = new SeekSlider([this](int v) { seekTo(v); });
  slider_->setObjectName("timeline");
  slider_->setRange(0, kSteps);
  slider_->setToolTip(tr("Scrub through the recorded history; Play resumes from there"));
  label_ = new QLabel;
  label_->setMinimumWidth(170);
  row->addWidget(new QLabel(tr("History")));
  row->addWidget(slider_, 1);
  row->addWidget(label_);
  connect(slider_, &QSlider::sliderPressed, this, [this] { dragging_ = true; });
  connect(slider_, &QSlider::sliderReleased, this, [this] { dragging_ = false; });
  connect(slider_, &QSlider::valueChanged, this, [this](int v) {
    // Only the user's moves seek; refresh() moves the slider with its signals blocked.
    if (!slider_->isSliderDown() && !dragging_ && !slider_->hasFocus()) return;
    seekTo(v);
  });
}

void TimelineBar::seekTo(int v) {
  const RunHistory& run = controller_->primary();
  if (run.empty()) return;
  controller_->seek(run.firstTime() + (run.lastTime() - run.firstTime()) * v / kSteps);
}

void TimelineBar::refresh() {
  const RunHistory& run = controller_->primary();
  const double t = controller_->displayTime();
  const double t0 = run.firstTime(), t1 = run.lastTime();
  if (!slider_->isSliderDown()) {
    QSignalBlocker block(slider_);
    slider_->setValue(t1 > t0 ? static_cast<int>(std::lround((t - t0) / (t1 - t0) * kSteps))
                              : kSteps);
  }
  label_->setText(QStringLiteral("%1 / %2 s").arg(t, 0, 'f', 2).arg(t1, 0, 'f', 2));
  edits_ = controller_->recordedEdits();
  std::vector<std::pair<double, QString>> marks;
  for (const nh::TimedEdit& edit : edits_)
    marks.emplace_back(
        t1 > t0 ? (edit.t - t0) / (t1 - t0) : 1.0,
        tr("t = %1 s: %2").arg(edit.t, 0, 'f', 2).arg(QString::fromStdString(edit.label)));
  static_cast<SeekSlider*>(slider_)->setMarks(std::move(marks));
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
