// What the steppers without dense output share (steppers.cpp, rattle.cpp): internal to
// core/nh.
#pragma once

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

#include "core/nh/steppers.h"

namespace nh::detail {

// What the steppers without dense output share: the state stepped in place, each step ending
// at the stop time when it would pass it, and the chord between the step's ends as calcState.
class LandingStepper : public Stepper {
 public:
  void initialize(const double* x, int size, double t, double dt) override {
    x_.assign(x, x + size);
    start_.assign(x, x + size);
    t_ = t0_ = t;
    dt_ = dt;
  }
  void setStopTime(double t) override { stop_ = t; }

  std::pair<double, double> doStep(const StepperRhs& f) override {
    start_.swap(x_);  // the step goes from start_ to x_
    t0_ = t_;
    // A step that would end within rounding of the stop time lands on it, rather than
    // leaving a sliver of a step to take next.
    const double dt = stop_ - t_ <= dt_ * (1 + kLandingSlack) ? stop_ - t_ : dt_;
    try {
      // `lands`: the step ends at the stop time itself (not at a rounded t + dt); `cut`: it
      // was shortened to end there.
      step(f, dt, dt == stop_ - t_, dt < dt_);
    } catch (...) {
      x_ = start_;  // a step that fails leaves the state where it was
      throw;
    }
    return {t0_, t_};
  }
  void calcState(const StepperRhs&, double tau, double* x) override {
    const double w = t_ > t0_ ? (tau - t0_) / (t_ - t0_) : 1.0;
    for (std::size_t i = 0; i < x_.size(); ++i) x[i] = (1 - w) * start_[i] + w * x_[i];
  }
  const double* currentState() const override { return x_.data(); }
  double currentTimeStep() const override { return dt_; }
  void rejectLast(double shorterStep) override {
    x_ = start_;
    t_ = t0_;
    dt_ = shorterStep;
  }
  bool hasDenseOutput() const override { return false; }
  bool denseOutputCarriesReconstruction() const override { return false; }
  bool nextStepUnderflows(double, double) const override { return false; }

 protected:
  using State = std::vector<double>;
  // One step from start_ at t_ by dt into x_, advancing t_ and (for a controlled method) dt_.
  virtual void step(const StepperRhs& f, double dt, bool lands, bool cut) = 0;
  // f as Boost.Odeint calls it.
  static auto system(const StepperRhs& f) {
    return [&f](const State& x, State& dxdt, double t) {
      dxdt.resize(x.size());
      f(t, x.data(), dxdt.data());
    };
  }

  static constexpr double kLandingSlack = 1e-9;  // relative to the step
  State x_, start_;  // the state at t_, and at t0_ (the last step's start)
  double t_ = 0, t0_ = 0;
  double dt_ = 0;  // the step (rk4) or the next trial step (rk78)
  double stop_ = std::numeric_limits<double>::infinity();  // none: steps are not cut
};

}  // namespace nh::detail
// SPDX-License-Identifier: GPL-3.0-or-later
