// Runs per second of parameter studies (core/study) of ball_on_turntable and whipple_bicycle
// on 1 and 2 worker threads, the speed-up (goal ≥ 1.8× on 2), and per system the runs/s of a
// study varying a parameter as a ratio to one of the same size varying initial values only
// (goal ≥ 0.95×). Prints the load average beside the figures: other processes on the machine
// take cores from the workers.
// Usage: bench_sweep [RUNS (default 2000; the bicycle makes a fiftieth)] [T_END (default 1)]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>

#include "bench/bench_support.h"
#include "core/study/study_runner.h"
#include "core/study/sweep.h"

using namespace nh;
using namespace nh::study;

namespace {

std::string loadAverage() {
  std::ifstream in("/proc/loadavg");
  std::string one, five, fifteen;
  in >> one >> five >> fifteen;
  return one + " " + five + " " + fifteen;
}

double runsPerSecond(const Study& study, int jobs) {
  long rows = 0;
  const auto start = bench::Clock::now();
  runStudy(study, 0, study.runCount(), jobs, [&](const RunResult&) { ++rows; });
  return static_cast<double>(rows) / bench::seconds(start, bench::Clock::now());
}

}  // namespace

int main(int argc, char** argv) {
  const long runs = argc > 1 ? std::atol(argv[1]) : 2000;
  const double tEnd = argc > 2 ? std::atof(argv[2]) : 1.0;
  if (runs < 1 || !(tEnd > 0)) {
    std::fprintf(stderr, "usage: bench_sweep [RUNS] [T_END]\n");
    return 2;
  }
  // Per system, an initial-value study and a parameter study of the same size; the bicycle's
  // runs are about 50 times as long, so it makes a fiftieth of them. Both studies sample the
  // same first axis with the same seed, and their second axis (an initial value, or a
  // parameter) over a narrow band, so that they integrate nearly the same motions in the same
  // number of steps: a wide band of the table's rate Ω₀ (0.5 … 3 rad/s) would take 1.4 times
  // the steps of Ω₀ = 1 and measure the motion, not the cost of a new parameter value.
  struct Pair {
    const char* system;
    long runs;
    std::vector<std::string> initialValues, parameterToo;
  };
  const long bicycleRuns = std::max(1L, runs / 50);
  const Pair pairs[] = {
      {"ball_on_turntable",
       runs,
       {"vx=normal:0:0.3", "vy=uniform:-0.001:0.001"},
       {"vx=normal:0:0.3", "Omega0=uniform:0.999:1.001"}},
      {"whipple_bicycle",
       bicycleRuns,
       {"v=uniform:4:5", "lean_rate=uniform:0.499:0.501"},
       {"v=uniform:4:5", "c=uniform:0.0799:0.0801"}},
  };
  constexpr int kRounds = 5;
  std::printf(
      "bench_sweep: runs of t = 0 … %g (dt_out 0.01, dopri5), measures max(energy) and "
      "mean(energy); an initial-value study shares one compiled equation set, a parameter study "
      "takes it with the parameter as an input of the tape. The two studies of a system are "
      "timed in turn, %d rounds; the best of each is shown.\n",
      tEnd, kRounds);
  auto studyOf = [&](const char* system, long count, const std::vector<std::string>& axes) {
    StudySpec spec;
    spec.base.system = system;
    spec.base.tEnd = tEnd;
    for (const auto& axis : axes) spec.sample.push_back(parseSampleAxis(axis));
    spec.count = count;
    spec.seed = 1;
    spec.measures = {"max(energy)", "mean(energy)"};
    return std::make_unique<Study>(spec);
  };
  for (const Pair& pair : pairs) {
    const auto initial = studyOf(pair.system, pair.runs, pair.initialValues);
    const auto parameter = studyOf(pair.system, pair.runs, pair.parameterToo);
    std::printf("  %-18s %ld runs a study (load average before: %s)\n", pair.system, pair.runs,
                loadAverage().c_str());
    // best[study][jobs − 1]: the studies alternate, so that load that comes and goes falls on
    // both alike.
    double best[2][2] = {{0, 0}, {0, 0}};
    for (int round = 0; round < kRounds; ++round)
      for (int jobs = 1; jobs <= 2; ++jobs)
        for (int k = 0; k < 2; ++k)
          best[k][jobs - 1] =
              std::max(best[k][jobs - 1], runsPerSecond(k == 0 ? *initial : *parameter, jobs));
    const char* titles[2] = {"initial values", "a parameter too"};
    for (int k = 0; k < 2; ++k) {
      std::printf("    %-16s 1 worker %8.1f runs/s, 2 workers %8.1f runs/s (%.2fx)", titles[k],
                  best[k][0], best[k][1], best[k][1] / best[k][0]);
      if (k == 1)
        std::printf("  → %.3f× and %.3f× the initial-value study", best[1][0] / best[0][0],
                    best[1][1] / best[0][1]);
      std::printf("\n");
    }
    std::printf("    (load average after: %s)\n", loadAverage().c_str());
  }
  return 0;
}
// SPDX-License-Identifier: GPL-3.0-or-later
