// Runs per second of a parameter study (core/study) of ball_on_turntable on 1 and 2 worker
// threads, and the speed-up (goal ≥ 1.8× on 2). Two studies: initial values only
// (every worker shares one compiled equation set) and a parameter too (each run tapes its
// equations). Prints the load average beside the figures: other processes on the machine
// take cores from the workers.
// Usage: bench_sweep [RUNS (default 10000)] [T_END (default 1)]
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
  const long runs = argc > 1 ? std::atol(argv[1]) : 10000;
  const double tEnd = argc > 2 ? std::atof(argv[2]) : 1.0;
  if (runs < 1 || !(tEnd > 0)) {
    std::fprintf(stderr, "usage: bench_sweep [RUNS] [T_END]\n");
    return 2;
  }
  struct Case {
    const char* title;
    std::vector<std::string> axes;
  };
  const Case cases[] = {
      {"initial values (shared equations)", {"vx=normal:0:0.3", "vy=uniform:-0.3:0.3"}},
      {"a parameter too (taped per run)", {"Omega0=uniform:0.5:3", "vx=normal:0:0.3"}},
  };
  std::printf(
      "bench_sweep: ball_on_turntable, %ld runs of t = 0 … %g (dt_out 0.01, dopri5), "
      "measures max(x), mean(energy), first_crossing(y)\n",
      runs, tEnd);
  for (const Case& c : cases) {
    StudySpec spec;
    spec.base.system = "ball_on_turntable";
    spec.base.tEnd = tEnd;
    for (const auto& axis : c.axes) spec.sample.push_back(parseSampleAxis(axis));
    spec.count = runs;
    spec.seed = 1;
    spec.measures = {"max(x)", "mean(energy)", "first_crossing(y)"};
    const Study study(spec);
    std::printf("  %s  (load average before: %s)\n", c.title, loadAverage().c_str());
    const double one = runsPerSecond(study, 1);
    const double two = runsPerSecond(study, 2);
    std::printf(
        "    1 worker : %8.1f runs/s\n    2 workers: %8.1f runs/s  (%.2fx)  (load "
        "average after: %s)\n",
        one, two, two / one, loadAverage().c_str());
  }
  return 0;
}
