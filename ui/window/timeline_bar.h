// The history bar under the 3D view: a slider over the recorded time span of the primary run
// (dragging it, or clicking its groove, seeks the controller) with a mark at each parameter
// edit of the record (its label on hover), and a "t / end" label.
#pragma once

#include <QWidget>
#include <vector>

#include "core/nh/scenario.h"

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
  // The edits marked on the slider (the record's, as of the last refresh).
  const std::vector<nh::TimedEdit>& edits() const { return edits_; }

  static constexpr int kSteps = 10000;  // slider positions over the recorded span

 private:
  void seekTo(int sliderValue);

  SimulationController* controller_;
  QSlider* slider_ = nullptr;
  QLabel* label_ = nullptr;
  bool dragging_ = false;
  std::vector<nh::TimedEdit> edits_;
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
