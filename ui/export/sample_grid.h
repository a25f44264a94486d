// The export's samples of a run whose integrator takes fixed steps longer than the sample step
// (rk4, nh-rattle, discrete-gradient at the step a scenario gives them). Sampling such a run
// at the export's fine grid would cut every step at the samples and integrate another motion
// than the app and `nhsim run` show: the run takes its own steps, and the records between two
// of them are interpolated linearly, as the 3D view and the plots draw between samples.
#pragma once

#include <functional>
#include <limits>
#include <utility>
#include <vector>

namespace nhui {

class SampleGrid {
 public:
  // Records of `stride` values, the first the time. The grid is k·h from t = 0 up to
  // `restartAt`, then restartAt + k·h (a start off the grid begins a grid of its own, as the
  // export's frames do). `deliver` receives each record of the grid once, in order.
  SampleGrid(int stride, double h, double restartAt, std::function<void(const double*)> deliver);
  SampleGrid(int stride, double h, std::function<void(const double*)> deliver)
      : SampleGrid(stride, h, std::numeric_limits<double>::infinity(), std::move(deliver)) {}

  // The run's record at its time record[0], not earlier than the last one given: emits every
  // grid time before it, interpolated between the previous record and this one. A grid time on
  // a record is emitted as that record once a later one comes (or at finish()): a run gives
  // its sample at a timed edit's moment twice, the state before and after the edit, and the
  // grid takes the one after, as the app's view shows at that time.
  void add(const double* record);

  // The end of the run: emits a grid time that falls on the last record.
  void finish();

  double nextTime() const;  // the next grid time to be emitted

 private:
  int stride_;
  double h_, restartAt_;
  long index_ = 0;
  bool restarted_ = false;
  std::function<void(const double*)> deliver_;
  std::vector<double> previous_, out_;
  bool havePrevious_ = false;

  void advanceIndex();
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
