#include "ui/window/timeline_bar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <cmath>

#include "ui/sim/simulation_controller.h"

namespace nhui {

TimelineBar::TimelineBar(SimulationController* controller, QWidget* parent)
    : QWidget(parent), controller_(controller) {
  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(8, 4, 8, 4);
  slider_ = new QSlider(Qt::Horizontal);
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
    const RunHistory& run = controller_->primary();
    if (run.empty()) return;
    controller_->seek(run.firstTime() + (run.lastTime() - run.firstTime()) * v / kSteps);
  });
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
}

}  // namespace nhui
