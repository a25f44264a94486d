// Jacobi fields benchmark (not a test): the wall time of a run with the sensitivities to n
// initial values (`nhsim run --sensitivity`) and of `nhsim lyapunov` with K exponents against
// the plain run of the same scenario, measured side by side in one process (each figure the
// median of interleaved repetitions), on four systems from small to large. Goal of the
// sensitivities: at most (1 + n)× the plain run.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/bench_support.h"
#include "core/model/catalogue.h"
#include "core/nh/jacobi_fields.h"
#include "core/nh/scenario_run.h"

using namespace nh;
using nh::bench::Clock;
using nh::bench::seconds;

namespace {

// Accepted steps of the last timed run and of its companion integration (sensitivities).
long runSteps = 0, companionSteps = 0;

// One run of `s` through ScenarioRun, with the sensitivities to `names` when given.
double runSeconds(const Scenario& s, const std::vector<std::string>& names) {
  const auto start = Clock::now();
  ScenarioRun run(findSystem(s.system), s);
  std::unique_ptr<RunSensitivities> sensitivities;
  if (!names.empty()) sensitivities = std::make_unique<RunSensitivities>(run, s, names);
  std::vector<double> row;
  run.advance(
      s.tEnd, s.dtOut,
      [&](const ScenarioRun::Sample& sample) {
        row = sample.row;
        if (sensitivities) sensitivities->sample(run, sample.t, sample.x, row);
      },
      true);
  const double elapsed = seconds(start, Clock::now());
  runSteps = run.simulation().stepsTaken();
  companionSteps = sensitivities ? sensitivities->steps() : 0;
  return elapsed;
}

double lyapunovSeconds(const Scenario& s, int count) {
  const auto start = Clock::now();
  lyapunovExponents(findSystem(s.system), s, count);
  return seconds(start, Clock::now());
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// The kinds of timed work: a plain run, sensitivities to the first n state names, K
// exponents.
struct Job {
  std::string label;
  int sensitivities = 0, exponents = 0;
};

// `parameter`: one whose sensitivities are timed too ("" for none: the bicycle's are refused).
void benchSystem(const std::string& system, double tEnd, int repeats,
                 const std::string& parameter) {
  Scenario s;
  s.system = system;
  s.tEnd = tEnd;
  s.dtOut = 0.01;
  s.integrator.method = Integrator::Dop853;
  const std::vector<std::string> names =
      stateLayout(*findSystem(system), DynamicsKind::Nonholonomic).names;
  const int all = static_cast<int>(names.size());
  const int dimension = lyapunovExponents(
                            findSystem(system),
                            [&] {
                              Scenario brief = s;
                              brief.tEnd = 0.01;
                              return brief;
                            }(),
                            1)
                            .dimension;
  const std::vector<Job> jobs = {{"plain run", 0, 0},
                                 {"n = 1", 1, 0},
                                 {"n = 2", 2, 0},
                                 {"n = 4", 4, 0},
                                 {"n = all", all, 0},
                                 {"lyapunov K = 1", 0, 1},
                                 {"lyapunov K = all", 0, dimension}};
  std::vector<std::vector<double>> times(jobs.size());
  std::vector<long> steps(jobs.size()), companion(jobs.size());
  for (int r = 0; r < repeats; ++r)  // interleaved: a load that comes and goes hits all alike
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      const Job& job = jobs[j];
      companionSteps = 0;
      times[j].push_back(
          job.exponents > 0 ? lyapunovSeconds(s, job.exponents)
                            : runSeconds(s, std::vector<std::string>(
                                                names.begin(), names.begin() + job.sensitivities)));
      steps[j] = runSteps;
      companion[j] = companionSteps;
    }
  // The fixed cost of the fields: the derivative programs compiled and the start's
  // derivatives, from runs of one output step with and without them.
  Scenario brief = s;
  brief.tEnd = s.dtOut;
  std::vector<double> setup;
  std::vector<double> withParameter;
  for (int r = 0; r < repeats; ++r) {
    setup.push_back(runSeconds(brief, {names[0]}) - runSeconds(brief, {}));
    if (!parameter.empty()) withParameter.push_back(runSeconds(s, {parameter}));
  }
  const double plain = median(times[0]);
  std::printf("\n%s, %g s, dop853 rtol 1e-10, rows every 0.01 s, state %d, manifold %d:\n",
              system.c_str(), tEnd, all, dimension);
  std::printf("  %-18s %10s %8s %8s %12s\n", "", "ms", "× plain", "goal", "steps");
  std::printf("  %-18s %10.2f\n", "(set-up, n = 1)", 1e3 * median(setup));
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const double t = median(times[j]);
    const int n = jobs[j].sensitivities == 0 ? 0 : jobs[j].sensitivities;
    std::string label = jobs[j].label;
    if (jobs[j].exponents > 0) label = "lyapunov K = " + std::to_string(jobs[j].exponents);
    if (jobs[j].sensitivities == all) label = "n = " + std::to_string(all) + " (all)";
    const std::string counted =
        jobs[j].exponents > 0 ? ""
        : n > 0               ? std::to_string(steps[j]) + " + " + std::to_string(companion[j])
                              : std::to_string(steps[j]);
    std::printf("  %-18s %10.2f %8.2f %8s %12s\n", label.c_str(), 1e3 * t, t / plain,
                n > 0 ? ("≤ " + std::to_string(1 + n)).c_str() : "", counted.c_str());
  }
  if (parameter.empty()) return;
  const double t = median(withParameter);
  std::printf("  %-18s %10.2f %8.2f %8s %12s\n", ("parameter " + parameter).c_str(), 1e3 * t,
              t / plain, "≤ 2",
              (std::to_string(runSteps) + " + " + std::to_string(companionSteps)).c_str());
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  std::printf("Jacobi fields against the plain run (median of %d interleaved repetitions)\n",
              repeats);
  benchSystem("chaplygin_sleigh", 20, repeats, "a");
  benchSystem("ball_on_turntable", 20, repeats, "Omega0");
  benchSystem("rattleback", 5, repeats, "h");
  benchSystem("whipple_bicycle", 10, repeats, "");
  return 0;
}
// SPDX-License-Identifier: GPL-3.0-or-later
