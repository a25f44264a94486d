// SampleGrid (sample_grid.h): the records of a fixed-step run taken at its own steps, and the
// export's samples between two of them interpolated linearly.
#include "ui/export/sample_grid.h"

#include <algorithm>
#include <cmath>

namespace nhui {

SampleGrid::SampleGrid(int stride, double h, double restartAt,
                       std::function<void(const double*)> deliver)
    : stride_(stride),
      h_(h),
      restartAt_(restartAt),
      deliver_(std::move(deliver)),
      previous_(static_cast<size_t>(stride)),
      out_(static_cast<size_t>(stride)) {
  // A restart on the grid (or at 0) is no restart: the grid runs on through it.
  if (!(restartAt_ > 0) || std::abs(std::remainder(restartAt_, h_)) <= 1e-9 * h_)
    restartAt_ = std::numeric_limits<double>::infinity();
}

double SampleGrid::nextTime() const {
  return restarted_ ? restartAt_ + static_cast<double>(index_) * h_
                    : static_cast<double>(index_) * h_;
}

void SampleGrid::advanceIndex() {
  ++index_;
  if (!restarted_ && nextTime() >= restartAt_ - 1e-9 * h_) {
    restarted_ = true;
    index_ = 0;
  }
}

void SampleGrid::add(const double* record) {
  const double t = record[0];
  const double tolerance = 1e-9 * h_;
  for (double tau = nextTime(); tau < t - tolerance; tau = nextTime()) {
    const double t0 = previous_[0];
    if (!havePrevious_ || std::abs(tau - t0) <= tolerance) {
      // On the previous record (or before the first one, which the run starts at: nothing
      // earlier): that record, the last one given at its time.
      const double* from = havePrevious_ ? previous_.data() : record;
      std::copy(from, from + stride_, out_.begin());
    } else {
      const double w = (tau - t0) / (t - t0);
      for (int c = 0; c < stride_; ++c) out_[c] = (1 - w) * previous_[c] + w * record[c];
    }
    out_[0] = tau;
    deliver_(out_.data());
    advanceIndex();
  }
  std::copy(record, record + stride_, previous_.begin());
  havePrevious_ = true;
}

void SampleGrid::finish() {
  if (!havePrevious_ || std::abs(nextTime() - previous_[0]) > 1e-9 * h_) return;
  std::copy(previous_.begin(), previous_.end(), out_.begin());
  out_[0] = nextTime();
  deliver_(out_.data());
  advanceIndex();
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
