// Reduction benchmark (not a test): steps, right-hand-side evaluations and wall
// time of the ball on the turntable with and without reconstruction (reconstruction.h),
//  1. Ω(t) = 1 + 0.2 sin t, 200 s at rtol = atol = 1e-10 (scripts/bench-reduced-scipy.py
//     gives scipy's DOP853 on the reduced state, the anchor);
//  2. a table tilted by 0.1 rad at Ω = 1: 20 revolutions of the ball's circle (period 7π)
//     at rtol = atol = 1e-12, where the ball drifts sideways at 5 g sin β/(2Ω) to where
//     the table moves at 1 km/s and the ball spins at 10⁴ rad/s. The drift after the run is
//     compared with the closed form.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <numbers>
#include <string>

#include "bench/bench_support.h"
#include "core/model/catalogue.h"
#include "core/nh/errors.h"
#include "core/nh/scenario.h"
#include "core/nh/simulation.h"

using namespace nh;
using nh::bench::Clock;
using nh::bench::seconds;

namespace {

struct Outcome {
  long steps = 0, rejections = 0;
  double wall = 0;
  std::vector<double> x;
  std::string error;
};

// One run through Simulation (projection on); steps and wall time are what is compared
// (bench_core --integrators counts right-hand-side evaluations).
Outcome run(const std::map<std::string, double>& params, Integrator method, bool reconstruct,
            double tol, double tEnd) {
  const auto ball = findSystem("ball_on_turntable");
  IntegratorOptions options;
  options.method = method;
  options.rtol = options.atol = tol;
  options.reconstruction = reconstruct;
  Simulation sim(std::make_shared<const EquationsOfMotion>(ball, DynamicsKind::Nonholonomic,
                                                           Formulation::Multipliers,
                                                           resolveParameters(*ball, params)),
                 options);
  sim.setState(0, initialState(sim.equations(), 0, {}));
  Outcome out;
  const auto start = Clock::now();
  try {
    sim.advance(tEnd, tEnd / 10, nullptr);
  } catch (const Error& e) {
    out.error = e.what();
  }
  out.wall = seconds(start, Clock::now());
  out.steps = sim.stepsTaken();
  out.rejections = sim.reconstructionRejections();
  out.x = sim.state();
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  // "tilted-only": just the reconstructed DOP853 run on the tilted table (for profiling).
  const bool tiltedOnly = argc > 1 && std::string(argv[1]) == "tilted-only";
  if (!tiltedOnly) {
    std::printf("Ball on the turntable, Ω(t) = 1 + 0.2 sin t, 200 s, rtol = atol = 1e-10\n");
    std::printf("%-10s %-16s %10s %10s %12s\n", "method", "reconstruction", "steps", "wall s",
                "x(200)");
    const std::map<std::string, double> wobble = {{"Omega_amp", 0.2}};
    for (Integrator m : {Integrator::Dopri5, Integrator::Dop853, Integrator::Rk78})
      for (bool rec : {false, true}) {
        if (m == Integrator::Rk78 && rec) continue;  // no dense output: never reduced
        const Outcome o = run(wobble, m, rec, 1e-10, 200);
        std::printf("%-10s %-16s %10ld %10.3f %12.9f %s\n", toString(m).c_str(), rec ? "on" : "off",
                    o.steps, o.wall, o.x[0], o.error.c_str());
      }
  }

  const double beta = 0.1, omega = 1, g = 9.81;
  const double period = 7 * std::numbers::pi / 2 / omega * 2;  // 2π/(2Ω/7)
  const double tEnd = 20 * period;
  std::printf(
      "\nTilted table (β = 0.1, Ω = 1), 20 revolutions (%.1f s), rtol = atol = 1e-12; "
      "drift 5 g sin β/(2Ω)·t along y\n",
      tEnd);
  std::printf("%-10s %-16s %10s %10s %14s %12s\n", "method", "reconstruction", "steps", "wall s",
              "drift error", "rejections");
  const std::map<std::string, double> tilted = {{"tilt", beta}};
  for (Integrator m : {Integrator::Dopri5, Integrator::Dop853})
    for (bool rec : {false, true}) {
      if (tiltedOnly && (m != Integrator::Dop853 || !rec)) continue;
      const Outcome o = run(tilted, m, rec, 1e-12, tEnd);
      const double drift = 5 * g * std::sin(beta) / (2 * omega) * tEnd;
      std::printf("%-10s %-16s %10ld %10.3f %14.3e %12ld %s\n", toString(m).c_str(),
                  rec ? "on" : "off", o.steps, o.wall,
                  o.error.empty() ? std::abs(std::abs(o.x[1]) - drift) / drift : NAN, o.rejections,
                  o.error.substr(0, 60).c_str());
    }
  return 0;
}
// SPDX-License-Identifier: GPL-3.0-or-later
