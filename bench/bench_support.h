// Timing helpers shared by the benchmark executables.
#pragma once

#include <chrono>

namespace nh::bench {

using Clock = std::chrono::steady_clock;

inline double seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// Repeats f in doubling batches until at least `budget` seconds have passed; returns calls
// per second.
template <class F>
double rate(F&& f, double budget = 0.5) {
  long calls = 0, batch = 64;
  const auto start = Clock::now();
  double elapsed = 0;
  while (elapsed < budget) {
    for (long i = 0; i < batch; ++i) f();
    calls += batch;
    batch *= 2;
    elapsed = seconds(start, Clock::now());
  }
  return calls / elapsed;
}

}  // namespace nh::bench
// SPDX-License-Identifier: GPL-3.0-or-later
