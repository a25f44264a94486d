// The singularity search (singularity_watch.h): each singular function sampled along the step,
// its zeros bisected, its dips found by golden-section search, and a zero just ahead by a
// parabola through the step.
#include "core/nh/singularity_watch.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "core/nh/errors.h"
#include "core/nh/messages.h"

namespace nh {

// A singular function s(τ) of the state along a step is sampled at kSingularSamples + 1
// equally spaced times. It reaches 0 where it changes sign (the zero is bisected) or where
// it has a local minimum not above kSingularDip times the samples around it: a function such
// as vx² + vy² only touches 0 (the velocity passes through 0 between two samples), which the
// minimum (golden-section search on the step's interpolant) finds. A dip that deep within
// one accepted step is a zero at the integrator's resolution. A zero just beyond the step is
// found by a look-ahead (below).
namespace {
constexpr int kSingularSamples = 16;
constexpr double kSingularDip = 1e-8;
constexpr int kSingularIterations = 80;
}  // namespace

double SingularityWatch::first(const EquationsOfMotion& equations, double t0, double t1,
                               const StateAt& stateAt) {
  const SystemModel& system = equations.system();
  const int count = static_cast<int>(system.info().singularities.size());
  const int n = system.n();
  probe_.resize(equations.stateSize());
  values_.resize(count);
  const double* p = equations.parameters().data();
  auto value = [&](int i, double tau) {
    stateAt(tau, probe_.data());
    system.singularities(p, tau, probe_.data(), probe_.data() + n, values_.data());
    return values_[i];
  };
  double first = -1;
  for (int i = 0; i < count; ++i) {
    std::array<double, kSingularSamples + 1> tau, v;
    for (int j = 0; j <= kSingularSamples; ++j) {
      tau[j] = j == kSingularSamples ? t1 : t0 + (t1 - t0) * j / kSingularSamples;
      v[j] = value(i, tau[j]);
    }
    double hit = -1;
    for (int j = 0; j <= kSingularSamples && hit < 0; ++j) {
      if (v[j] > 0) continue;  // not NaN and positive
      if (j == 0) {
        hit = t0;
        break;
      }
      double lo = tau[j - 1], hi = tau[j];  // s(lo) > 0 ≥ s(hi) (or NaN)
      for (int it = 0; it < kSingularIterations && hi - lo > 0; ++it) {
        const double mid = 0.5 * (lo + hi);
        (value(i, mid) > 0 ? lo : hi) = mid;
      }
      hit = hi;
    }
    for (int j = 1; j < kSingularSamples && hit < 0; ++j) {
      if (!(v[j] <= v[j - 1] && v[j] <= v[j + 1])) continue;
      // Three equal samples (a motion settled, s constant to rounding): no dip to look for.
      // Searching there cost the bicycle 400 interpolations a step once it had come upright.
      if (v[j] == v[j - 1] && v[j] == v[j + 1]) continue;
      double a = tau[j - 1], b = tau[j + 1];
      const double golden = 0.5 * (std::sqrt(5.0) - 1);
      double c = b - golden * (b - a), d = a + golden * (b - a);
      double vc = value(i, c), vd = value(i, d);
      for (int it = 0; it < kSingularIterations && b - a > 0; ++it) {
        if (vc <= vd) {
          b = d, d = c, vd = vc;
          c = b - golden * (b - a);
          vc = value(i, c);
        } else {
          a = c, c = d, vc = vd;
          d = a + golden * (b - a);
          vd = value(i, d);
        }
      }
      const double least = std::min(vc, vd);
      if (!(least > kSingularDip * std::max(v[j - 1], v[j + 1]))) hit = vc <= vd ? c : d;
    }
    // Look-ahead: the parabola through the step's start, middle and end. An adaptive stepper
    // cannot step across such a point (its trial steps fail ever closer to it), a fixed one
    // steps over it: if the parabola touches 0 within the next step's length, that is where
    // s reaches 0 (to the accuracy of the parabola: exact for s = |v|² with v linear in t).
    if (hit < 0) {
      const double v0 = v[0], vm = v[kSingularSamples / 2], v1 = v[kSingularSamples];
      const double A = 2 * (v1 - 2 * vm + v0), B = v1 - v0 - A;
      if (A > 0) {
        const double u = -B / (2 * A), least = v0 - B * B / (4 * A);
        if (u > 1 && u <= 2 && !(least > kSingularDip * std::max(v0, v1))) hit = t0 + u * (t1 - t0);
      }
    }
    if (hit < 0 && v[kSingularSamples] <= kSingularDip * v[0]) hit = t1;
    if (hit >= 0 && (first < 0 || hit < first)) {
      first = hit;
      index_ = i;
    }
  }
  return first;
}

void SingularityWatch::throwAt(const SystemModel& system, double t) const {
  throw SingularSystemError(
      "'" + echoInput(system.name()) + "' reached a singular point at t = " + shortNumber(t) +
          ": " + system.info().singularities[index_] + " (the equations are not defined there)",
      t, std::numeric_limits<double>::infinity());
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
