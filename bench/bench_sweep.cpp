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
  struct Case {
    const char* system;
    const char* title;
    std::vector<std::string> axes;
    long runs;
  };
  // Per system, an initial-value study and a parameter study of the same size; the bicycle's
  // runs are about 50 times as long, so it makes a fiftieth of them. Both studies sample the
  // same first axis with the same seed, and their second axis (an initial value, or a
  // parameter) over a narrow band, so that they integrate nearly the same motions in the same
  // number of steps: a wide band of the table's rate Ω₀ (0.5 … 3 rad/s) would take 1.4 times
  // the steps of Ω₀ = 1 and measure the motion, not the cost of a new parameter value.
  const long bicycleRuns = std::max(1L, runs / 50);
  const Case cases[] = {
      {"ball_on_turntable", "initial values", {"vx=normal:0:0.3", "vy=uniform:-0.001:0.001"}, runs},
      {"ball_on_turntable",
       "a parameter too",
       {"vx=normal:0:0.3", "Omega0=uniform:0.999:1.001"},
       runs},
      {"whipple_bicycle",
       "initial values",
       {"v=uniform:4:5", "lean_rate=uniform:0.499:0.501"},
       bicycleRuns},
      {"whipple_bicycle",
       "a parameter too",
       {"v=uniform:4:5", "c=uniform:0.0799:0.0801"},
       bicycleRuns},
  };
  std::printf(
      "bench_sweep: runs of t = 0 … %g (dt_out 0.01, dopri5), measures max(energy) and "
      "mean(energy); an initial-value study shares one compiled equation set, a "
      "parameter study takes it with the parameter as an input of the tape\n",
      tEnd);
  double previous[2] = {0, 0};
  for (const Case& c : cases) {
    StudySpec spec;
    spec.base.system = c.system;
    spec.base.tEnd = tEnd;
    for (const auto& axis : c.axes) spec.sample.push_back(parseSampleAxis(axis));
    spec.count = c.runs;
    spec.seed = 1;
    spec.measures = {"max(energy)", "mean(energy)"};
    const Study study(spec);
    std::printf("  %-18s %-16s %6ld runs (load average before: %s)\n", c.system, c.title, c.runs,
                loadAverage().c_str());
    const double one = runsPerSecond(study, 1);
    const double two = runsPerSecond(study, 2);
    std::printf("    1 worker : %8.1f runs/s", one);
    if (previous[0] > 0) std::printf("  (%.3f× the initial-value study)", one / previous[0]);
    std::printf("\n    2 workers: %8.1f runs/s  (%.2fx)", two, two / one);
    if (previous[1] > 0) std::printf("  (%.3f× the initial-value study)", two / previous[1]);
    std::printf("  (load average after: %s)\n", loadAverage().c_str());
    const bool initialValues = std::string(c.title) == "initial values";
    previous[0] = initialValues ? one : 0;
    previous[1] = initialValues ? two : 0;
  }
  return 0;
}
