// The history bar under the 3D view: a slider over the recorded time span of the primary run
// (dragging it, or clicking its groove, seeks the controller) and a "t / end" label.
#pragma once

#include <QWidget>

class QLabel;
class QSlider;

namespace nhui {

class SimulationController;

class TimelineBar : public QWidget {
  Q_OBJECT

 public:
  explicit TimelineBar(SimulationController* controller, QWidget* parent = nullptr);

  QSlider* slider() const { return slider_; }
  // Moves the slider (unless the user holds it) and the label to the displayed moment.
  void refresh();

  static constexpr int kSteps = 10000;  // slider positions over the recorded span

 private:
  void seekTo(int sliderValue);

  SimulationController* controller_;
  QSlider* slider_ = nullptr;
  QLabel* label_ = nullptr;
  bool dragging_ = false;
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
