// Long-run benchmark (not a test): for each system of kSystems, 10⁶ steps (--steps N to
// shorten) of each integrator of kLongRunIntegrators — the geometric ones and rk4 at the system's
// step, dopri5 and DOP853 at tolerances calibrated on a short run to cost about what
// nh-rattle costs ("equal work") — without drift control, printing per run the CPU time, the
// largest relative energy error, the largest constraint residual, the drift criterion (the
// largest energy error in the last tenth of the run over the largest in the first tenth:
// ≤ 1.5 is no secular drift) and the cost per step relative to rk4, then the goals: at equal
// work the geometric methods' energy error at least 100× below the classical ones', and
// nh-rattle within 3× rk4's cost per step. --csv DIR writes the energy error against time
// per run (the largest in each of about 2000 windows) for scripts/plot-long-runs.py.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/model/catalogue.h"
#include "core/nh/errors.h"
#include "core/nh/scenario.h"
#include "core/nh/simulation.h"

using namespace nh;

namespace {

// One system: its name (or model file), parameters (--set), initial values (--init) and the
// step of the fixed-step integrators.
struct LongRunSystem {
  const char* name;
  std::map<std::string, double> parameters;
  std::map<std::string, double> init;
  double step;
};
const LongRunSystem kSystems[] = {
    {"chaplygin_sleigh", {}, {}, 0.01},       {"suslov", {}, {}, 0.01},
    {"ball_on_table", {}, {}, 0.01},          {"rattleback", {}, {}, 0.002},
    {"nonholonomic_oscillator", {}, {}, 0.1}, {"suslov_oblique", {}, {}, 0.01},
};

// How an integrator's run is set: the reference of equal work (nh-rattle, at the system's
// step), at the system's step, or at a tolerance costing about the reference's time.
enum class Work { Reference, SameStep, EqualWork };
struct LongRunIntegrator {
  Integrator method;
  Work work;
  bool geometric;  // counted on the geometric side of the goal
};
const LongRunIntegrator kLongRunIntegrators[] = {
    {Integrator::NhRattle, Work::Reference, true},
    {Integrator::DiscreteGradient, Work::SameStep, true},
    {Integrator::Rk4, Work::SameStep, false},
    {Integrator::Dopri5, Work::EqualWork, false},
    {Integrator::Dop853, Work::EqualWork, false},
};

constexpr long kMaxSamples = 100'000;      // states kept per run (every k-th step's end)
constexpr long kAdaptiveSamples = 10'000;  // the same for the adaptive methods
constexpr int kCsvPoints = 2000;
constexpr double kRounding = 1e-14;  // a relative energy error at rounding level

double cpuSeconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

// The states at the output times of one run, kept without evaluating anything (the energy
// and residuals are computed after the timing).
struct Samples {
  int size = 0;
  std::vector<double> t, x;
};

struct RunResult {
  double cpu = 0, tolerance = 0;
  long steps = 0;
  double energyError = 0, residual = 0, drift = 0;
  std::vector<double> t, error;  // relative energy error per sample
  std::string failure;           // why the run stopped early, if it did
};

// Runs `eq` from x0 over [0, span] with `options`, without drift control, keeping the state
// every dtOut; CPU time of the run alone.
RunResult timedRun(const std::shared_ptr<const EquationsOfMotion>& eq,
                   const std::vector<double>& x0, IntegratorOptions options, double span,
                   double dtOut, Samples& samples) {
  options.projection = false;
  Simulation sim(eq, options);
  sim.setState(0, x0);
  samples.size = static_cast<int>(x0.size());
  samples.t.clear();
  samples.x.clear();
  samples.t.reserve(kMaxSamples + 2);
  samples.x.reserve((kMaxSamples + 2) * x0.size());
  RunResult r;
  const double start = cpuSeconds();
  try {
    sim.advance(span, dtOut, [&](double t, const double* x) {
      samples.t.push_back(t);
      samples.x.insert(samples.x.end(), x, x + samples.size);
    });
  } catch (const std::exception& e) {
    r.failure = e.what();
  }
  r.cpu = cpuSeconds() - start;
  r.steps = sim.stepsTaken();
  return r;
}

// Largest departure of the attitude quaternions from unit norm.
double quaternionResidual(const EquationsOfMotion& eq, const double* x) {
  double worst = 0;
  for (const QuaternionSlot& qs : eq.system().info().quaternions) {
    double norm2 = 0;
    for (int i = 0; i < 4; ++i) norm2 += x[qs.first + i] * x[qs.first + i];
    worst = std::max(worst, std::abs(std::sqrt(norm2) - 1));
  }
  return worst;
}

// Energy errors, residuals and the drift criterion of the kept states.
void evaluate(const EquationsOfMotion& eq, const Samples& samples, RunResult& r) {
  EquationsWorkspace ws(eq);
  const size_t count = samples.t.size();
  if (count < 10) return;
  const double e0 = eq.energy(ws, samples.t[0], samples.x.data());
  const double scale = std::max(std::abs(e0), 1e-300);
  r.t = samples.t;
  r.error.resize(count);
  for (size_t i = 0; i < count; ++i) {
    const double* x = samples.x.data() + i * samples.size;
    r.error[i] = std::abs(eq.energy(ws, samples.t[i], x) - e0) / scale;
    r.residual = std::max({r.residual, eq.residual(samples.t[i], x), quaternionResidual(eq, x)});
  }
  r.energyError = *std::max_element(r.error.begin(), r.error.end());
  const size_t tenth = count / 10;
  const double first = *std::max_element(r.error.begin() + 1, r.error.begin() + tenth);
  const double last = *std::max_element(r.error.end() - tenth, r.error.end());
  r.drift = first > 0 ? last / first : (last > 0 ? INFINITY : 1);
}

// CPU seconds per simulated second of `method` at `tolerance` over a short span, the run
// repeated until it has taken at least kCalibrationSeconds (the clock's ticks are coarse).
constexpr double kCalibrationSeconds = 0.02;
double costRate(const std::shared_ptr<const EquationsOfMotion>& eq, const std::vector<double>& x0,
                Integrator method, double tolerance, double span, double dtOut) {
  IntegratorOptions options;
  options.method = method;
  options.rtol = options.atol = tolerance;
  Samples scratch;
  double cpu = 0;
  int runs = 0;
  while (cpu < kCalibrationSeconds && runs < 1000) {
    const RunResult r = timedRun(eq, x0, options, span, dtOut, scratch);
    if (!r.failure.empty()) return INFINITY;
    cpu += r.cpu;
    ++runs;
  }
  return cpu / (runs * span);
}

// The loosest tolerance (rtol = atol, decades 1e-3 … 1e-13) at which `method` costs at least
// `target` CPU seconds per simulated second on a short span, or 1e-13 when even that costs
// less.
double calibrate(const std::shared_ptr<const EquationsOfMotion>& eq, const std::vector<double>& x0,
                 Integrator method, double span, double dtOut, double target) {
  for (int decade = 3; decade < 13; ++decade) {
    const double tolerance = std::pow(10.0, -decade);
    if (costRate(eq, x0, method, tolerance, span, dtOut) >= target) return tolerance;
  }
  return 1e-13;
}

struct SystemRuns {
  const LongRunSystem* system;
  std::vector<RunResult> runs;  // in the order of kLongRunIntegrators
  double rk4PerStep = 0;
};

// The runs of one system, each with `steps` steps of the system's step (or over that span).
SystemRuns runSystem(const LongRunSystem& row, long steps) {
  const auto sys = findSystem(row.name);
  auto eq = std::make_shared<const EquationsOfMotion>(sys, DynamicsKind::Nonholonomic,
                                                      Formulation::Multipliers,
                                                      resolveParameters(*sys, row.parameters));
  const std::vector<double> x0 = initialState(*eq, 0, row.init);
  const double span = row.step * static_cast<double>(steps);
  const long every = std::max(1L, (steps + kMaxSamples - 1) / kMaxSamples);
  const double dtOut = row.step * static_cast<double>(every);
  SystemRuns out{&row, {}, 0};
  double referenceRate = 0;  // CPU seconds per simulated second of the reference
  Samples samples;
  for (const LongRunIntegrator& integrator : kLongRunIntegrators) {
    IntegratorOptions options;
    options.method = integrator.method;
    options.step = row.step;
    // The adaptive methods are sampled more sparsely: each of their samples is interpolated
    // and projected, work that is not integration.
    const bool adaptive = integrator.work == Work::EqualWork;
    const double sampling = adaptive ? span / kAdaptiveSamples : dtOut;
    if (adaptive) {
      const double shortSpan = std::min(span, std::max(0.02 * span, 200 * row.step));
      options.rtol = options.atol =
          calibrate(eq, x0, integrator.method, shortSpan, sampling, referenceRate);
    }
    RunResult r = timedRun(eq, x0, options, span, sampling, samples);
    r.tolerance = adaptive ? options.rtol : 0;
    evaluate(*eq, samples, r);
    if (integrator.work == Work::Reference) referenceRate = r.cpu / span;
    if (integrator.method == Integrator::Rk4 && r.steps > 0) out.rk4PerStep = r.cpu / r.steps;
    std::printf("  %s %s: %.2f s%s\n", row.name, toString(integrator.method).c_str(), r.cpu,
                r.failure.empty() ? "" : (" — " + r.failure).c_str());
    std::fflush(stdout);
    out.runs.push_back(std::move(r));
  }
  return out;
}

void printTable(const std::vector<SystemRuns>& all) {
  std::printf(
      "\n| system | integrator | step / tolerance | steps | CPU s | max |E − E0|/|E0| | max "
      "constraint residual | drift (last/first tenth) | cost per step / rk4 |\n"
      "|---|---|---|---|---|---|---|---|---|\n");
  for (const SystemRuns& s : all)
    for (size_t i = 0; i < s.runs.size(); ++i) {
      const RunResult& r = s.runs[i];
      const std::string setting = kLongRunIntegrators[i].work == Work::EqualWork
                                      ? "tol " + formatValue(r.tolerance)
                                      : "h " + formatValue(s.system->step);
      const double perStep = r.steps > 0 ? r.cpu / r.steps : 0;
      std::printf("| %s | %s | %s | %ld | %.2f | %.1e | %.1e | %.2f | %.2f |%s\n", s.system->name,
                  toString(kLongRunIntegrators[i].method).c_str(), setting.c_str(), r.steps, r.cpu,
                  r.energyError, r.residual, r.drift,
                  s.rk4PerStep > 0 ? perStep / s.rk4PerStep : 0.0,
                  r.failure.empty() ? "" : " (stopped early)");
    }
}

// The goals, per system: the geometric energy error against the classical ones at equal
// work, and nh-rattle's cost per step against rk4's.
void printGoals(const std::vector<SystemRuns>& all) {
  std::printf("\nGoals:\n");
  for (const SystemRuns& s : all) {
    double classical = INFINITY, rattlePerStep = 0;
    for (size_t i = 0; i < s.runs.size(); ++i) {
      const RunResult& r = s.runs[i];
      if (kLongRunIntegrators[i].work == Work::EqualWork)
        classical = std::min(classical, r.energyError);
      if (kLongRunIntegrators[i].method == Integrator::NhRattle && r.steps > 0)
        rattlePerStep = r.cpu / r.steps;
    }
    // Each geometric method on its own: the best classical error at equal work over its error.
    std::string energy;
    for (size_t i = 0; i < s.runs.size(); ++i) {
      const RunResult& r = s.runs[i];
      if (!kLongRunIntegrators[i].geometric) continue;
      const double ratio = r.energyError > 0 ? classical / r.energyError : INFINITY;
      const std::string verdict = !r.failure.empty() ? "stopped early"
                                  : std::max(classical, r.energyError) <= kRounding
                                      ? "both at rounding: nothing to compare"
                                  : ratio >= 100 ? "met"
                                                 : "not met";
      char part[160];
      std::snprintf(part, sizeof part, "%s%s %.3g (%s)", energy.empty() ? "" : ", ",
                    toString(kLongRunIntegrators[i].method).c_str(), ratio, verdict.c_str());
      energy += part;
    }
    const double cost = s.rk4PerStep > 0 ? rattlePerStep / s.rk4PerStep : 0;
    std::printf(
        "  %s: equal-work classical energy error / geometric (goal ≥ 100): %s; "
        "nh-rattle cost per step = %.2f× rk4 (goal ≤ 3: %s)\n",
        s.system->name, energy.c_str(), cost, cost <= 3 ? "met" : "not met");
  }
}

// DIR/<system>_<integrator>.csv: t and the largest energy error in each of about
// kCsvPoints windows of the run.
void writeCsv(const std::string& dir, const std::vector<SystemRuns>& all) {
  std::filesystem::create_directories(dir);
  for (const SystemRuns& s : all)
    for (size_t i = 0; i < s.runs.size(); ++i) {
      const RunResult& r = s.runs[i];
      std::ofstream out(dir + "/" + s.system->name + "_" + toString(kLongRunIntegrators[i].method) +
                        ".csv");
      out << "t,energy_error\n";
      const size_t window = std::max<size_t>(1, r.t.size() / kCsvPoints);
      for (size_t a = 0; a < r.t.size(); a += window) {
        const size_t b = std::min(r.t.size(), a + window);
        out << formatValue(r.t[b - 1]) << ','
            << formatValue(*std::max_element(r.error.begin() + a, r.error.begin() + b)) << '\n';
      }
    }
}

}  // namespace

int main(int argc, char** argv) {
  long steps = 1'000'000;
  std::string csv;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--steps" && i + 1 < argc)
      steps = std::stol(argv[++i]);
    else if (arg == "--csv" && i + 1 < argc)
      csv = argv[++i];
    else {
      std::fprintf(stderr, "usage: bench_long_runs [--steps N] [--csv DIR]\n");
      return 2;
    }
  }
  if (steps < 1000) {
    std::fprintf(stderr, "bench_long_runs: --steps must be at least 1000\n");
    return 2;
  }
  std::printf(
      "%ld steps per run, no drift control; dopri5 and dop853 at equal work with "
      "nh-rattle (tolerance calibrated on a short run)\n",
      steps);
  std::vector<SystemRuns> all;
  for (const LongRunSystem& row : kSystems) all.push_back(runSystem(row, steps));
  printTable(all);
  printGoals(all);
  if (!csv.empty()) writeCsv(csv, all);
  return 0;
}
// SPDX-License-Identifier: GPL-3.0-or-later
