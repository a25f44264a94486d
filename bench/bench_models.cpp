// Model-file benchmark (not a test): for every system with a C++ definition (core/systems/,
// or tests/support/reference_systems/ when the tests are built) and a model file in
// resources/systems/, right-hand-side evaluations per second of the model file's system
// next to its C++ twin (goal: equal within noise); and for every bundled model file the time
// from its text to the first frame in core terms: parsing and checking the file (GiNaC
// derivations included), recording and compiling the tape, the initial state and one scene
// frame (goal < 0.2 s).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/bench_support.h"
#include "core/model/catalogue.h"
#include "core/model/model_file.h"
#include "core/nh/scenario.h"
#ifdef NH_HAVE_REFERENCE_SYSTEMS
#include "reference_systems.h"
#endif

using namespace nh;
using bench::Clock;
using bench::seconds;

namespace {

// Calls per second of f: the best of three runs of at least `budget` seconds.
template <class F>
double bestRate(F&& f, double budget = 0.3) {
  double best = 0;
  for (int run = 0; run < 3; ++run) best = std::max(best, bench::rate(f, budget));
  return best;
}

double rhsRate(const std::shared_ptr<const SystemModel>& system) {
  const EquationsOfMotion eq(system, DynamicsKind::Nonholonomic);
  EquationsWorkspace ws(eq);
  const std::vector<double> x0 = initialState(eq, 0, {});
  std::vector<double> dx(x0.size());
  return bestRate([&] { eq.rhs(ws, 0.3, x0.data(), dx.data()); });
}

// Text → first frame, the median of five runs, in seconds.
double firstFrame(const std::string& text, const std::string& name) {
  std::vector<double> times;
  for (int i = 0; i < 5; ++i) {
    const auto start = Clock::now();
    const auto system = model::loadModelText(text, name);
    const EquationsOfMotion eq(system, DynamicsKind::Nonholonomic);
    EquationsWorkspace ws(eq);
    const std::vector<double> x = initialState(eq, 0, {});
    Observables obs;
    eq.observe(ws, 0, x.data(), obs);
    SceneFrame frame;
    system->scene(eq.parameters().data(), 0, x.data(), x.data() + system->n(), obs.lambda.data(),
                  frame);
    times.push_back(seconds(start, Clock::now()));
  }
  std::sort(times.begin(), times.end());
  return times[2];
}

}  // namespace

int main() {
  std::printf("RHS evaluations per second, model file next to its C++ twin (goal: equal)\n");
  std::printf("%-20s %14s %14s %8s\n", "system", "C++", "model file", "ratio");
  // C++ definitions: those still in core/systems/ and the references the model files replaced.
  std::vector<std::shared_ptr<const SystemModel>> cppSystems;
  for (const auto& e : catalogueEntries())
    if (e.origin == SystemOrigin::BuiltIn) cppSystems.push_back(e.system);
#ifdef NH_HAVE_REFERENCE_SYSTEMS
  for (const auto& s : referenceSystems()) cppSystems.push_back(s);
#endif
  for (const auto& cpp : cppSystems) {
    const std::string file = cpp->name() + ".yaml";
    for (const auto& [name, text] : bundledModelFiles()) {
      if (name != file) continue;
      const auto twin = model::loadModelText(text, file);
      const double a = rhsRate(cpp), b = rhsRate(twin);
      std::printf("%-20s %14.3g %14.3g %8.2f\n", cpp->name().c_str(), a, b, b / a);
    }
  }
  std::printf(
      "\nModel file text to first frame (load, checks, tape, initial state, scene); "
      "goal < 0.2 s\n");
  std::printf("%-28s %10s\n", "file", "ms");
  for (const auto& [file, text] : bundledModelFiles())
    std::printf("%-28s %10.1f\n", file.c_str(), 1e3 * firstFrame(text, file));
  return 0;
}
// SPDX-License-Identifier: GPL-3.0-or-later
