// Soak benchmark (not a test): takes a given number of steps (default 10^8) of a cheap
// system (the free rigid body with rk4, sampled every 1000 steps, each sample observed like an
// output row) in advance() calls of 10^6 steps, and prints the resident set size (from
// /proc/self/statm) before, after the first call and at the end: a long run must not grow.
//   bench_soak [STEPS]
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "bench/bench_support.h"
#include "core/model/catalogue.h"
#include "core/nh/scenario.h"

namespace {

double residentMegabytes() {
  std::ifstream statm("/proc/self/statm");
  long size = 0, resident = 0;
  statm >> size >> resident;
  return resident * static_cast<double>(::sysconf(_SC_PAGESIZE)) / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace nh;
  const long steps = argc > 1 ? std::atol(argv[1]) : 100'000'000L;
  if (steps < 1'000'000) {
    std::fprintf(stderr, "bench_soak: give at least 1000000 steps\n");
    return 2;
  }
  IntegratorOptions o;
  o.method = Integrator::Rk4;
  o.step = 1e-3;
  o.maxSteps = 2'000'000;
  Simulation sim(findSystem("rigid_body"), DynamicsKind::Nonholonomic, Formulation::Multipliers, o);
  sim.setState(0, initialState(sim.equations(), 0, {}));
  const StateLayout layout = stateLayout(sim.equations().system(), DynamicsKind::Nonholonomic);
  Observables obs;
  std::vector<double> row;
  long rows = 0;
  auto onSample = [&](double t, const double* x) {
    outputRow(sim.equations(), sim.workspace(), layout, t, x, obs, row);
    ++rows;
  };
  const double before = residentMegabytes();
  const long chunk = 1'000'000;  // steps per advance() call
  const auto start = bench::Clock::now();
  double afterFirst = 0;
  long taken = 0;
  for (long c = 1; taken < steps; ++c) {
    sim.advance(static_cast<double>(c) * chunk * o.step, 1000 * o.step, onSample);
    taken += chunk;
    if (c == 1) afterFirst = residentMegabytes();
  }
  const double seconds = bench::seconds(start, bench::Clock::now());
  const double after = residentMegabytes();
  std::printf(
      "bench_soak: %ld rk4 steps of rigid_body to t = %g, %ld samples, %.1f s (%.3g steps/s)\n",
      taken, sim.time(), rows, seconds, taken / seconds);
  std::printf(
      "  RSS before %.2f MB, after the first 10^6 steps %.2f MB, at the end %.2f MB "
      "(growth after the first call %+.3f MB)\n",
      before, afterFirst, after, after - afterFirst);
  return 0;
}
// SPDX-License-Identifier: GPL-3.0-or-later
