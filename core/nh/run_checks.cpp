// The checks on a run's samples (run_checks.h): a non-finite value named by column, with a hint
// at extreme values; the energy drift watch; the constraints' rank watch; and the reference
// frame checked against the constraints.
#include "core/nh/run_checks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/nh/errors.h"
#include "core/nh/frame_residual.h"
#include "core/nh/messages.h"
#include "core/nh/scenario.h"

namespace nh {

std::string nonFiniteEntry(const std::vector<std::string>& columns,
                           const std::vector<double>& row) {
  for (size_t i = 0; i < row.size(); ++i) {
    if (std::isfinite(row[i])) continue;
    const std::string name = i < columns.size() ? columns[i] : "column " + std::to_string(i + 1);
    return name + " = " + formatValue(row[i]);
  }
  return {};
}

void checkFiniteRow(const std::string& system, const std::vector<std::string>& columns,
                    const std::vector<double>& row, double t) {
  const std::string entry = nonFiniteEntry(columns, row);
  if (entry.empty()) return;
  throw IntegrationError("integration of '" + echoInput(system) +
                             "' blew up at t = " + formatValue(t) + ": " + entry +
                             " (a value beyond double precision: choose smaller parameters or "
                             "initial values, or check the model's formulas there)",
                         t);
}

std::string extremeValueHint(const std::vector<std::pair<std::string, double>>& values) {
  const std::pair<std::string, double>* worst = nullptr;
  double worstDistance = 0;  // decades outside the range
  for (const auto& entry : values) {
    const double magnitude = std::abs(entry.second);
    if (magnitude == 0 || !std::isfinite(magnitude)) continue;
    const double decades = std::max(std::log10(magnitude) - 100, -100 - std::log10(magnitude));
    if (decades > worstDistance) {
      worstDistance = decades;
      worst = &entry;
    }
  }
  if (!worst) return {};
  return echoInput(worst->first) + " = " + formatValue(worst->second) +
         " is far outside 1e-100 … 1e100, where products of doubles stay representable: give it "
         "in other units";
}

void EnergyDriftWatch::add(const EquationsOfMotion& equations, EquationsWorkspace& ws, double t,
                           const double* x, double energy) {
  if (!std::isfinite(energy)) return;
  if (samples_ == 0) {
    t0_ = t;
    e0_ = energy;
  }
  tLast_ = t;
  eLast_ = energy;
  maxAbsE_ = std::max(maxAbsE_, std::abs(energy));
  if (std::abs(energy - e0_) > maxChange_) {
    maxChange_ = std::abs(energy - e0_);
    eWorst_ = energy;
  }
  const long index = samples_++;
  // dE/dt of the exact equations at the first sample and at samples 2, 4, 8, ...
  if (index != 0 && (index & (index - 1)) != 0) return;
  const int n = equations.stateSize();
  velocity_.resize(n);
  probe_.resize(n);
  double e[2];
  try {
    equations.rhs(ws, t, x, velocity_.data());
  } catch (const Error&) {  // not regular here: no rate, no verdict
    rateKnown_ = false;
    return;
  }
  double xs = 0, fs = 0;
  for (int i = 0; i < n; ++i) {
    xs = std::max(xs, std::abs(x[i]));
    fs = std::max(fs, std::abs(velocity_[i]));
  }
  if (!std::isfinite(fs)) {
    rateKnown_ = false;
    return;
  }
  // A step that moves the state by about 1e-6 of its size (and t by 1e-6 of a second).
  const double h = 1e-6 * std::max(1.0, xs) / std::max(1.0, fs);
  for (int side = 0; side < 2; ++side) {
    const double sign = side == 0 ? 1.0 : -1.0;
    for (int i = 0; i < n; ++i) probe_[i] = x[i] + sign * h * velocity_[i];
    e[side] = equations.energy(ws, t + sign * h, probe_.data());
  }
  const double rate = (e[0] - e[1]) / (2 * h);
  if (!std::isfinite(rate)) {
    rateKnown_ = false;
    return;
  }
  maxRate_ = std::max(maxRate_, std::abs(rate));
}

bool EnergyDriftWatch::conservative() const {
  if (!rateKnown_ || samples_ < 2) return false;
  const double scale = e0_ != 0 ? std::abs(e0_) : maxAbsE_;
  // What the exact equations change over the run stays well below the threshold (and the
  // difference quotient's rounding, about 1e-10 of the energy per unit time, below that).
  const double span = std::max(tLast_ - t0_, 1e-300);
  return maxRate_ * span <= 1e-3 * threshold_ * scale + 1e-9 * scale * std::max(1.0, span);
}

double EnergyDriftWatch::relativeChange() const {
  const double scale = e0_ != 0 ? std::abs(e0_) : maxAbsE_;
  return scale > 0 ? maxChange_ / scale : 0;
}

std::string EnergyDriftWatch::warning() const {
  if (!conservative() || relativeChange() <= threshold_) return {};
  // Signed, as a plot of the energy shows it, and with the digits that tell the values apart.
  char text[96];
  const double change = eWorst_ >= e0_ ? relativeChange() : -relativeChange();
  std::snprintf(text, sizeof text, "%s%.3g %% (from %.4g to %.4g)", change < 0 ? "−" : "+",
                100 * std::abs(change), e0_, eWorst_);
  return std::string("energy changed by ") + text +
         " although the equations conserve it: the integration is inaccurate; tighten the "
         "tolerance (rtol, atol) or the step";
}

void ConstraintRankWatch::add(double t, const Observables& observed) {
  if (observed.lambda.size() == 0) return;
  const double lambda = observed.lambda.cwiseAbs().maxCoeff();
  const double reaction = observed.reaction.size() ? observed.reaction.cwiseAbs().maxCoeff() : 0;
  if (!std::isfinite(lambda) || !std::isfinite(reaction) || lambda == 0) return;
  maxLambda_ = std::max(maxLambda_, lambda);
  const double ratio = reaction / lambda;
  if (reference_ == 0) {
    reference_ = ratio;
    return;
  }
  if (degenerateAt_ < 0 && ratio < 1e-6 * reference_) degenerateAt_ = t;
}

std::string ConstraintRankWatch::warning() const {
  if (degenerateAt_ < 0) return {};
  char largest[32];
  std::snprintf(largest, sizeof largest, "%.3g", maxLambda_);
  return std::string("the multipliers grew to |lambda| = ") + largest +
         " while the constraint forces stay bounded: from t = " + formatValue(degenerateAt_) +
         " the constraints' gradient in the velocities is below 1e-6 of its size at the start "
         "(they lose rank there, as a cone at its apex), so the motion stalls and the "
         "multipliers there are not meaningful";
}

void checkReferenceFrame(const EquationsOfMotion& equations, double t, const double* x) {
  const SystemModel& system = equations.system();
  if (!system.hasReferenceFrame()) return;
  const double* p = equations.parameters().data();
  VecY gamma = VecY::Zero(system.m());
  system.referenceFrame(p, t, x, gamma.data());  // the coordinates lead the state
  const FrameResidual r = frameResidual(system, p, t, x, gamma.data());
  if (r.holds) return;
  throw IntegrationError(
      "the reference_frame of '" + echoInput(system.name()) +
          "' no longer satisfies the constraints at t = " + formatValue(t) + ": Φ(t, q, Γ) = " +
          formatValue(r.largest) + " in " + frameConstraintName(system, r.worst) +
          " (Γ must be a velocity the constraints allow at every t and q, not only near the "
          "initial state: the motion stepped relative to it is another one from here)",
      t);
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
