// The one-step integrators behind the Stepper interface (steppers.h): DOP853 with dense output,
// and Boost.Odeint's Dormand–Prince 5, Fehlberg 7(8) and classical Runge–Kutta 4.
#include "core/nh/steppers.h"

#include <algorithm>
#include <boost/numeric/odeint.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/nh/dop853_tableau.h"
#include "core/nh/landing_stepper.h"

namespace nh {

namespace {

using detail::LandingStepper;

class Dop853 final : public Stepper {
 public:
  Dop853(double atol, double rtol) : atol_(atol), rtol_(rtol) {}

  void setTimeScale(double scale) override { timeScale_ = scale; }

  void initialize(const double* x, int size, double t, double dt) override {
    n_ = size;
    y_.assign(x, x + n_);
    yNew_.resize(n_);
    yOld_.resize(n_);
    tmp_.resize(n_);
    for (auto& k : k_) k.resize(n_);
    for (auto& d : dense_) d.resize(n_);
    t_ = t;
    h_ = dt;
    haveF_ = false;
    denseReady_ = false;
  }

  std::pair<double, double> doStep(const StepperRhs& f) override {
    using namespace dop853;
    if (!haveF_) {
      f(t_, y_.data(), k_[0].data());
      haveF_ = true;
    }
    bool rejected = false;
    for (;;) {
      const double h = h_;
      if (!(h > 1e-14 * std::max(timeScale_, std::abs(t_))))
        throw StepFailure("step size underflow");
      for (int s = 1; s < 12; ++s) stage(f, s, t_, y_, h);
      for (int i = 0; i < n_; ++i) {
        double acc = 0;
        for (int j = 0; j < 12; ++j) acc += kB[j] * k_[j][i];
        yNew_[i] = y_[i] + h * acc;
      }
      f(t_ + h, yNew_.data(), k_[12].data());
      // Hairer's combined estimate: |h|·‖e5‖² / √((‖e5‖² + 0.01‖e3‖²)·n) over the scale.
      double e5 = 0, e3 = 0;
      for (int i = 0; i < n_; ++i) {
        const double scale = atol_ + rtol_ * std::max(std::abs(y_[i]), std::abs(yNew_[i]));
        double a5 = 0, a3 = 0;
        for (int j = 0; j < 13; ++j) {
          a5 += kE5[j] * k_[j][i];
          a3 += kE3[j] * k_[j][i];
        }
        e5 += (a5 / scale) * (a5 / scale);
        e3 += (a3 / scale) * (a3 / scale);
      }
      double err = 0;
      if (e5 > 0 || e3 > 0) err = std::abs(h) * e5 / std::sqrt((e5 + 0.01 * e3) * n_);
      if (!std::isfinite(err)) err = 1e10;  // a blown-up trial: shrink as far as allowed
      if (err < 1) {
        double factor =
            err == 0 ? kMaxFactor : std::min(kMaxFactor, kSafety * std::pow(err, -0.125));
        if (rejected) factor = std::min(1.0, factor);
        yOld_.swap(y_);
        y_.swap(yNew_);
        tOld_ = t_;
        hLast_ = h;
        t_ += h;
        h_ = h * factor;
        k_[0].swap(k_[12]);  // FSAL: f(t₁, y₁) starts the next step; k_[12] keeps f(t₀)
        denseReady_ = false;
        return {tOld_, t_};
      }
      h_ = h * std::max(kMinFactor, kSafety * std::pow(err, -0.125));
      rejected = true;
    }
  }

  void calcState(const StepperRhs& f, double tau, double* x) override {
    using namespace dop853;
    if (!denseReady_) {
      // After the swap k_[0] is f(t₁) and k_[12] the old step's f(t₀): restore the
      // stage order of the step for the extra stages, then swap back.
      k_[0].swap(k_[12]);
      const double h = hLast_;
      for (int s = 13; s < 16; ++s) stage(f, s, tOld_, yOld_, h);
      for (int i = 0; i < n_; ++i) {
        const double dy = y_[i] - yOld_[i];
        dense_[0][i] = dy;
        dense_[1][i] = h * k_[0][i] - dy;
        dense_[2][i] = 2 * dy - h * (k_[12][i] + k_[0][i]);
        for (int r = 0; r < 4; ++r) {
          double acc = 0;
          for (int j = 0; j < 16; ++j) acc += kD[16 * r + j] * k_[j][i];
          dense_[3 + r][i] = h * acc;
        }
      }
      k_[0].swap(k_[12]);
      denseReady_ = true;
    }
    const double s = hLast_ > 0 ? (tau - tOld_) / hLast_ : 1.0;
    for (int i = 0; i < n_; ++i) {
      // Σ in nested form: terms alternate factors s and (1 − s), from the highest down.
      double v = 0;
      for (int r = 6; r >= 0; --r) {
        v += dense_[r][i];
        v *= (6 - r) % 2 == 0 ? s : 1 - s;
      }
      x[i] = yOld_[i] + v;
    }
  }

  const double* currentState() const override { return y_.data(); }
  double currentTimeStep() const override { return h_; }
  void rejectLast(double shorterStep) override {
    y_.swap(yOld_);
    t_ = tOld_;
    k_[0].swap(k_[12]);
    h_ = shorterStep;
    denseReady_ = false;
  }
  int order() const override { return 8; }

 private:
  // Stage s of the tableau from (t0, y0) with step h: k_[s] = f(t0 + c_s h, y0 + h Σ a_sj k_j).
  void stage(const StepperRhs& f, int s, double t0, const std::vector<double>& y0, double h) {
    using namespace dop853;
    for (int i = 0; i < n_; ++i) {
      double acc = 0;
      for (int j = 0; j < s; ++j) acc += kA[16 * s + j] * k_[j][i];
      tmp_[i] = y0[i] + h * acc;
    }
    f(t0 + kC[s] * h, tmp_.data(), k_[s].data());
  }

  static constexpr double kSafety = 0.9, kMinFactor = 0.2, kMaxFactor = 10;
  double atol_, rtol_;
  double timeScale_ = 1.0;  // a step below 1e-14 of this (or of t) is an underflow
  int n_ = 0;
  double t_ = 0, tOld_ = 0, h_ = 0, hLast_ = 0;
  bool haveF_ = false, denseReady_ = false;
  std::vector<double> y_, yNew_, yOld_, tmp_;
  std::vector<double> k_[16];
  std::vector<double> dense_[7];
};

class OdeintDopri5 final : public Stepper {
 public:
  using State = std::vector<double>;
  OdeintDopri5(double atol, double rtol)
      : impl_(boost::numeric::odeint::make_dense_output(
            atol, rtol, boost::numeric::odeint::runge_kutta_dopri5<State>())) {}

  void initialize(const double* x, int size, double t, double dt) override {
    x0_.assign(x, x + size);
    impl_.initialize(x0_, t, dt);
  }
  std::pair<double, double> doStep(const StepperRhs& f) override {
    return impl_.do_step([&f](const State& x, State& dxdt, double t) {
      dxdt.resize(x.size());
      f(t, x.data(), dxdt.data());
    });
  }
  void calcState(const StepperRhs&, double tau, double* x) override {
    buffer_.resize(x0_.size());
    impl_.calc_state(tau, buffer_);
    std::copy(buffer_.begin(), buffer_.end(), x);
  }
  const double* currentState() const override { return impl_.current_state().data(); }
  double currentTimeStep() const override { return impl_.current_time_step(); }
  void rejectLast(double shorterStep) override {
    x0_ = impl_.previous_state();
    impl_.initialize(x0_, impl_.previous_time(), shorterStep);
  }
  int order() const override { return 5; }

 private:
  boost::numeric::odeint::dense_output_runge_kutta<boost::numeric::odeint::controlled_runge_kutta<
      boost::numeric::odeint::runge_kutta_dopri5<State>>>
      impl_;
  State x0_, buffer_;
};

class OdeintRk4 final : public LandingStepper {
 public:
  int order() const override { return 4; }

 private:
  void step(const StepperRhs& f, double dt, bool lands, bool) override {
    impl_.do_step(system(f), start_, t_, x_, dt);
    t_ = lands ? stop_ : t_ + dt;
  }
  boost::numeric::odeint::runge_kutta4<State> impl_;
};

class OdeintFehlberg78 final : public LandingStepper {
 public:
  OdeintFehlberg78(double atol, double rtol)
      : impl_(boost::numeric::odeint::make_controlled(
            atol, rtol, boost::numeric::odeint::runge_kutta_fehlberg78<State>())) {}
  void setTimeScale(double scale) override { timeScale_ = scale; }
  int order() const override { return 8; }

 private:
  void step(const StepperRhs& f, double dt, bool lands, bool cut) override {
    int failures = 0;
    while (impl_.try_step(system(f), start_, t_, x_, dt) == boost::numeric::odeint::fail) {
      if (++failures > 500 || dt < 1e-14 * std::max(std::abs(t_), timeScale_))
        throw StepFailure("step size underflow");
    }
    // try_step left its proposal for the next step in dt; a step shortened to hit a stop
    // time says nothing about the step size the solution allows.
    if (!cut || failures > 0) dt_ = dt;
    if (lands && failures == 0) t_ = stop_;
  }
  boost::numeric::odeint::controlled_runge_kutta<
      boost::numeric::odeint::runge_kutta_fehlberg78<State>>
      impl_;
  double timeScale_ = 1.0;
};

}  // namespace

bool Stepper::nextStepUnderflows(double t, double timeScale) const {
  return currentTimeStep() < 1e-14 * std::max(std::abs(t), timeScale);
}

std::unique_ptr<Stepper> makeDop853(double atol, double rtol) {
  return std::make_unique<Dop853>(atol, rtol);
}
std::unique_ptr<Stepper> makeOdeintDopri5(double atol, double rtol) {
  return std::make_unique<OdeintDopri5>(atol, rtol);
}
std::unique_ptr<Stepper> makeOdeintFehlberg78(double atol, double rtol) {
  return std::make_unique<OdeintFehlberg78>(atol, rtol);
}
std::unique_ptr<Stepper> makeOdeintRk4() { return std::make_unique<OdeintRk4>(); }

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
