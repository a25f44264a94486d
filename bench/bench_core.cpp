// Core benchmark (not a test): right-hand-side evaluations per second and integration steps
// per second for every catalogue system, and for ball_on_turntable the same with a
// hand-written closed-form right-hand side of the same equations (same state layout, same
// stepper), printing the ratio generic / hand-written. The tape's programs run as native
// code unless NH_JIT=0; the native-code section compares them with the interpreter
// (ball, whipple_bicycle) and times their compilation per catalogue system.
#include <algorithm>
#include <boost/numeric/odeint.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <thread>

#include "bench/bench_support.h"
#include "core/model/catalogue.h"
#include "core/nh/scenario.h"
#include "core/nh/steppers.h"
#include "core/nh/symbolic.h"

using namespace nh;
using nh::bench::Clock;
using nh::bench::rate;
using nh::bench::seconds;
using State = std::vector<double>;

namespace {

// The ball on the turntable written out by hand (theory §5 with the tilt, Ω(t) of the
// catalogue), in the engine's state layout q = (x, y, qw, qx, qy, qz), y = (vx, vy, ω).
struct HandWrittenBall {
  double m, r, ratio, W0, rate, amp, freq, tilt, g;
  void operator()(const State& s, State& d, double t) const {
    const double W = W0 + rate * t + amp * std::sin(freq * t);
    const double Wd = rate + amp * freq * std::cos(freq * t);
    const double kappa = ratio / (ratio + 1);
    const double I = ratio * m * r * r;
    const double x = s[0], y = s[1], qw = s[2], qx = s[3], qy = s[4], qz = s[5];
    const double vx = s[6], vy = s[7], wx = s[8], wy = s[9], wz = s[10];
    const double Fx = -m * g * std::sin(tilt);
    const double ax = (1 - kappa) * Fx / m - kappa * (Wd * y + W * vy);
    const double ay = kappa * (Wd * x + W * vx);
    d.resize(11);
    d[0] = vx;
    d[1] = vy;
    d[2] = -0.5 * (wx * qx + wy * qy + wz * qz);
    d[3] = 0.5 * (qw * wx + wy * qz - wz * qy);
    d[4] = 0.5 * (qw * wy + wz * qx - wx * qz);
    d[5] = 0.5 * (qw * wz + wx * qy - wy * qx);
    d[6] = ax;
    d[7] = ay;
    d[8] = r * m * ay / I;          // I ω̇x = r f_y, f = m a − F
    d[9] = -r * (m * ax - Fx) / I;  // I ω̇y = −r f_x
    d[10] = 0;
  }
};

// Steps per second of odeint's dense-output Dormand–Prince on `system` (no projection).
template <class System>
double denseSteps(System system, State x, double rtol, double atol, long* stepsOut = nullptr) {
  auto stepper = boost::numeric::odeint::make_dense_output(
      atol, rtol, boost::numeric::odeint::runge_kutta_dopri5<State>());
  stepper.initialize(x, 0.0, 1e-3);
  long steps = 0;
  const auto start = Clock::now();
  while (seconds(start, Clock::now()) < 1.0) {
    for (int i = 0; i < 100; ++i) stepper.do_step(system);
    steps += 100;
  }
  if (stepsOut) *stepsOut = steps;
  return steps / seconds(start, Clock::now());
}

// The integrators on one run through Simulation: steps and wall time.
struct SimulationRun {
  long steps = 0;
  double seconds = 0;
  double error = 0;  // max |x − reference| at the end, when a reference is given
};
SimulationRun runSimulation(const std::shared_ptr<const EquationsOfMotion>& eq, const State& x0,
                            IntegratorOptions o, double tEnd, const State* reference = nullptr) {
  Simulation sim(eq, o);
  sim.setState(0, x0);
  const auto start = Clock::now();
  sim.advance(tEnd, tEnd, {});
  SimulationRun run{sim.stepsTaken(), seconds(start, Clock::now())};
  if (reference)
    for (size_t i = 0; i < x0.size(); ++i)
      run.error = std::max(run.error, std::abs(sim.state()[i] - (*reference)[i]));
  return run;
}

// The same stepper driven directly on the full state (no projection, no reconstruction),
// counting RHS evaluations.
struct DirectRun {
  long steps = 0, rhs = 0;
  double seconds = 0;
};
DirectRun runDirect(const EquationsOfMotion& eq, const State& x0, Integrator method, double tol,
                    double tEnd) {
  EquationsWorkspace ws(eq);
  DirectRun run;
  const auto start = Clock::now();
  if (method == Integrator::Rk78) {
    namespace odeint = boost::numeric::odeint;
    State x = x0;
    auto f = [&](const State& s, State& d, double t) {
      ++run.rhs;
      d.resize(s.size());
      eq.rhs(ws, t, s.data(), d.data());
    };
    run.steps = static_cast<long>(odeint::integrate_adaptive(
        odeint::make_controlled(tol, tol, odeint::runge_kutta_fehlberg78<State>()), f, x, 0.0, tEnd,
        1e-3));
  } else {
    auto stepper = method == Integrator::Dopri5     ? makeOdeintDopri5(tol, tol)
                   : method == Integrator::Dop853   ? makeDop853(tol, tol)
                   : method == Integrator::BdfCvode ? makeCvodeBdf(tol, tol)
                                                    : makeArkodeFehlberg78(tol, tol);
    const StepperRhs f = [&](double t, const double* x, double* d) {
      ++run.rhs;
      eq.rhs(ws, t, x, d);
    };
    stepper->initialize(x0.data(), static_cast<int>(x0.size()), 0, 1e-3);
    double t1 = 0;
    while (t1 < tEnd) {
      t1 = stepper->doStep(f).second;
      ++run.steps;
    }
  }
  run.seconds = seconds(start, Clock::now());
  return run;
}

// Integrators: the ball with Ω(t) = 1 + 0.2 sin t, 200 s at rtol = atol = 1e-10, every
// integrator with and without reconstruction; and the table at Ω0 = 100 for BDF.
void integratorTable() {
  const auto ball = findSystem("ball_on_turntable");
  auto equations = [&](const std::map<std::string, double>& values) {
    return std::make_shared<const EquationsOfMotion>(ball, DynamicsKind::Nonholonomic,
                                                     Formulation::Multipliers,
                                                     resolveParameters(*ball, values));
  };
  const auto eq = equations({{"Omega_amp", 0.2}});
  const State x0 = initialState(*eq, 0, {});
  const double tol = 1e-10, tEnd = 200;
  std::printf("\nball_on_turntable, Ω(t) = 1 + 0.2 sin t, %g s at rtol = atol = %g\n", tEnd, tol);
  std::printf("%-10s %12s %10s %12s %10s | direct, full state, no projection: %9s %10s %8s\n",
              "method", "steps recon", "s recon", "steps full", "s full", "steps", "RHS", "s");
  for (Integrator method :
       {Integrator::Dopri5, Integrator::Dop853, Integrator::Fehlberg78Arkode, Integrator::Rk78}) {
    IntegratorOptions o;
    o.method = method;
    o.rtol = o.atol = tol;
    o.reconstruction = true;
    const SimulationRun withReconstruction = runSimulation(eq, x0, o, tEnd);
    o.reconstruction = false;
    const SimulationRun full = runSimulation(eq, x0, o, tEnd);
    const DirectRun direct = runDirect(*eq, x0, method, tol, tEnd);
    std::printf("%-10s %12ld %10.3f %12ld %10.3f | %44ld %10ld %8.3f\n", toString(method).c_str(),
                withReconstruction.steps, withReconstruction.seconds, full.steps, full.seconds,
                direct.steps, direct.rhs, direct.seconds);
  }

  // The fast table: Ω0 = 100 (the parameter's upper bound), 1 s at rtol = 1e-6, atol = 1e-9,
  // against a dop853 run at 1e-12. BDF with and without projection (Simulation restarts the
  // stepper after each projection, and CVODE restarts at order 1).
  const auto fast = equations({{"Omega0", 100.0}});
  const State y0 = initialState(*fast, 0, {});
  const double tFast = 1;
  IntegratorOptions ref;
  ref.method = Integrator::Dop853;
  ref.rtol = ref.atol = 1e-12;
  ref.reconstruction = false;
  Simulation refSim(fast, ref);
  refSim.setState(0, y0);
  refSim.advance(tFast, tFast, {});
  const State reference = refSim.state();
  std::printf(
      "\nball_on_turntable at Ω0 = 100, %g s, rtol 1e-6, atol 1e-9 (reference: dop853 at "
      "1e-12, %ld steps)\n",
      tFast, refSim.stepsTaken());
  std::printf("%-28s %10s %10s %12s %10s\n", "method", "steps", "s", "max |error|", "RHS direct");
  for (auto [method, projection] : {std::pair{Integrator::Dopri5, true},
                                    {Integrator::Dop853, true},
                                    {Integrator::BdfCvode, false},
                                    {Integrator::BdfCvode, true}}) {
    IntegratorOptions o;
    o.method = method;
    o.rtol = 1e-6;
    o.atol = 1e-9;
    o.projection = projection;
    const SimulationRun run = runSimulation(fast, y0, o, tFast, &reference);
    const DirectRun direct = runDirect(*fast, y0, method, 1e-6, tFast);
    const std::string name = toString(method) + (projection ? "" : " (no projection)");
    std::printf("%-28s %10ld %10.3f %12.2e %10ld\n", name.c_str(), run.steps, run.seconds,
                run.error, direct.rhs);
  }
}

// Native code against the interpreter: RHS evaluations/s of the largest catalogue system
// and of every system, and the compile time of every system's programs (what a parameter
// edit adds to re-taping).
void nativeCode() {
  if (!nativeCodeAvailable()) {
    std::printf("\nNative code: not available in this build\n");
    return;
  }
  const bool native = nativeCodeEnabled();
  setNativeCodeEnabled(true);
  const auto bicycle = findSystem("whipple_bicycle");
  const EquationsOfMotion eq(bicycle, DynamicsKind::Nonholonomic);
  setNativeCodeEnabled(false);
  const EquationsOfMotion interpreted(bicycle, DynamicsKind::Nonholonomic);
  setNativeCodeEnabled(native);
  EquationsWorkspace ws(eq), wsInterpreted(interpreted);
  const State x0 = initialState(eq, 0, {});
  State dx(x0.size());
  const double nativeRhs = rate([&] { eq.rhs(ws, 0.3, x0.data(), dx.data()); }, 1.0);
  const double interpretedRhs =
      rate([&] { interpreted.rhs(wsInterpreted, 0.3, x0.data(), dx.data()); }, 1.0);
  int instructions = 0;
  for (const SymProgram* p : eq.compiledPrograms()) instructions += p->instructionCount();
  std::printf(
      "\nwhipple_bicycle (%d tape instructions), RHS evals/s: interpreted %.3g, native %.3g, "
      "ratio %.2f×\n",
      instructions, interpretedRhs, nativeRhs, nativeRhs / interpretedRhs);

  // Per system: compile time, each program compiled anew, the fastest of 20 compilations,
  // summed over the system's programs; next to it the time to tape and compile the
  // equations without native code (fastest of 5), which a parameter edit costs as well;
  // then RHS evaluations/s interpreted and native at the default state.
  std::printf("\n%-24s %12s %11s %11s %14s %14s %7s\n", "native code", "instructions", "compile µs",
              "taping µs", "RHS/s interp.", "RHS/s native", "ratio");
  for (const auto& system : catalogue()) {
    if (system->info().isControlModel()) continue;  // no dynamics of its own
    setNativeCodeEnabled(true);
    const EquationsOfMotion equations(system, DynamicsKind::Nonholonomic);
    double compileSeconds = 0;
    int count = 0;
    for (const SymProgram* p : equations.compiledPrograms()) {
      double best = 1e9;
      for (int k = 0; k < 20; ++k) {
        const auto start = Clock::now();
        const SymProgram compiled = p->withExecution(SymProgram::Execution::Native);
        best = std::min(best, seconds(start, Clock::now()));
      }
      compileSeconds += best;
      count += p->instructionCount();
    }
    setNativeCodeEnabled(false);
    double taping = 1e9;
    for (int k = 0; k < 5; ++k) {
      const auto start = Clock::now();
      const EquationsOfMotion again(system, DynamicsKind::Nonholonomic);
      taping = std::min(taping, seconds(start, Clock::now()));
    }
    const EquationsOfMotion plain(system, DynamicsKind::Nonholonomic);
    setNativeCodeEnabled(native);
    EquationsWorkspace wsNative(equations), wsPlain(plain);
    const State x = initialState(equations, 0, {});
    State d(x.size());
    const double rateNative = rate([&] { equations.rhs(wsNative, 0.3, x.data(), d.data()); });
    const double ratePlain = rate([&] { plain.rhs(wsPlain, 0.3, x.data(), d.data()); });
    std::printf("%-24s %12d %11.0f %11.0f %14.3g %14.3g %6.2f×\n", system->name().c_str(), count,
                compileSeconds * 1e6, taping * 1e6, ratePlain, rateNative, rateNative / ratePlain);
  }
}

// Parameters as inputs of the tape: the time to apply an edit of a parameter (free already,
// as after the first edit of it in the app: withParameters and a workspace prepared for the
// result) against taping the equations anew with the value folded in; and the RHS rate with
// every parameter free, and with the last one free, as ratios to the folded equations',
// measured alternately (best of three each) so that load on the machine hits all alike.
void parameterInputs() {
  std::printf("\n%-26s %8s %11s %13s %9s %9s\n", "parameters", "edit µs", "re-tape µs",
              "RHS/s folded", "all free", "last free");
  for (const auto& system : catalogue()) {
    if (system->info().isControlModel() || system->info().parameters.empty()) continue;
    const EquationsOfMotion folded(system, DynamicsKind::Nonholonomic);
    if (!folded.isTaped()) continue;
    const int np = static_cast<int>(system->info().parameters.size());
    std::vector<int> all(np);
    for (int j = 0; j < np; ++j) all[j] = j;
    const EquationsOfMotion free = folded.withFreeParameters(all);
    std::vector<double> values = folded.parameters();
    const int j = np - 1;
    const double base = values[j], other = base == 0 ? 1e-3 : base * (1 + 1e-3);
    EquationsWorkspace editWs;
    long edits = 0;
    const auto start = Clock::now();
    while (seconds(start, Clock::now()) < 0.3) {
      values[j] = (edits++ % 2) ? base : other;
      const EquationsOfMotion edited = free.withParameters(values);
      editWs = EquationsWorkspace(edited);
    }
    const double editSeconds = seconds(start, Clock::now()) / edits;
    double retape = 1e9;
    for (int k = 0; k < 5; ++k) {
      const auto t0 = Clock::now();
      values[j] = (k % 2) ? base : other;
      const EquationsOfMotion again(system, DynamicsKind::Nonholonomic, Formulation::Multipliers,
                                    values);
      retape = std::min(retape, seconds(t0, Clock::now()));
    }
    values[j] = base;
    const EquationsOfMotion freeAtBase = free.withParameters(values);
    const EquationsOfMotion oneFree = folded.withFreeParameters({j});
    EquationsWorkspace wsFolded(folded), wsFree(freeAtBase), wsOne(oneFree);
    const State x0 = initialState(folded, 0, {});
    State d(x0.size());
    double rateFolded = 0, rateFree = 0, rateOne = 0;
    for (int round = 0; round < 3; ++round) {
      rateFolded =
          std::max(rateFolded, rate([&] { folded.rhs(wsFolded, 0.3, x0.data(), d.data()); }, 0.2));
      rateFree =
          std::max(rateFree, rate([&] { freeAtBase.rhs(wsFree, 0.3, x0.data(), d.data()); }, 0.2));
      rateOne = std::max(rateOne, rate([&] { oneFree.rhs(wsOne, 0.3, x0.data(), d.data()); }, 0.2));
    }
    std::printf("%-26s %8.1f %11.0f %13.3g %8.3f× %8.3f×\n", system->name().c_str(),
                editSeconds * 1e6, retape * 1e6, rateFolded, rateFree / rateFolded,
                rateOne / rateFolded);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "--integrators") {
    integratorTable();
    return 0;
  }
  if (argc > 1 && std::string(argv[1]) == "--parameters") {
    parameterInputs();
    return 0;
  }
  std::printf("Nonholonomic Lab core benchmark (%u hardware threads)\n\n",
              std::thread::hardware_concurrency());
  std::printf("%-18s %14s %14s %16s\n", "system", "RHS evals/s", "steps/s", "steps/s (no proj)");
  for (const auto& system : catalogue()) {
    if (system->info().isControlModel()) continue;  // no dynamics of its own
    Simulation sim(system, DynamicsKind::Nonholonomic);
    const State x0 = initialState(sim.equations(), 0, {});
    State dx(x0.size());
    const EquationsOfMotion& eq = sim.equations();
    EquationsWorkspace& ws = sim.workspace();
    const double rhsRate = rate([&] { eq.rhs(ws, 0.3, x0.data(), dx.data()); });
    auto stepsPerSecond = [&](bool projection) {
      IntegratorOptions o;
      o.projection = projection;
      sim.setOptions(o);
      sim.setState(0, x0);
      const auto start = Clock::now();
      double t = 0;
      while (seconds(start, Clock::now()) < 1.0) {
        t += 1.0;
        sim.advance(t, 1.0, {});
      }
      return sim.stepsTaken() / seconds(start, Clock::now());
    };
    std::printf("%-18s %14.3g %14.3g %16.3g\n", system->name().c_str(), rhsRate,
                stepsPerSecond(true), stepsPerSecond(false));
  }

  // Generic engine against the hand-written closed form, same state, same stepper.
  const auto ball = findSystem("ball_on_turntable");
  const std::map<std::string, double> params = {
      {"Omega_rate", 0.01}, {"Omega_amp", 0.2}, {"tilt", 0.05}};
  const bool native = nativeCodeEnabled();
  setNativeCodeEnabled(false);
  const EquationsOfMotion interpreted(ball, DynamicsKind::Nonholonomic, Formulation::Multipliers,
                                      resolveParameters(*ball, params));
  setNativeCodeEnabled(native);
  const EquationsOfMotion eq(ball, DynamicsKind::Nonholonomic, Formulation::Multipliers,
                             resolveParameters(*ball, params));
  EquationsWorkspace ws(eq), wsInterpreted(interpreted);
  const State x0 = initialState(eq, 0, {});
  const auto& p = eq.parameters();
  auto at = [&](const char* name) { return p[ball->parameterIndex(name)]; };
  const HandWrittenBall hand{at("m"),          at("r"),          at("inertia_ratio"),
                             at("Omega0"),     at("Omega_rate"), at("Omega_amp"),
                             at("Omega_freq"), at("tilt"),       at("g")};
  State d1(x0.size()), d2(x0.size());
  eq.rhs(ws, 0.7, x0.data(), d1.data());
  hand(x0, d2, 0.7);
  double maxDiff = 0;
  for (size_t i = 0; i < d1.size(); ++i) maxDiff = std::max(maxDiff, std::abs(d1[i] - d2[i]));
  // t is read from a volatile at every call: with a constant t, g++ computed the hand-written
  // version's sin and cos of Ω(t) once, before the timing loop (in a copy of this comparison:
  // one sincos call before the loop in the disassembly, 6.6e7 against 2.6e7 evaluations/s),
  // which the earlier published figures compared against.
  volatile double time = 0.7;
  const double genericRhs = rate([&] { eq.rhs(ws, time, x0.data(), d1.data()); }, 1.0);
  const double interpretedRhs =
      rate([&] { interpreted.rhs(wsInterpreted, time, x0.data(), d1.data()); }, 1.0);
  const double handRhs = rate([&] { hand(x0, d2, time); }, 1.0);
  auto generic = [&](const State& s, State& d, double t) {
    d.resize(s.size());
    eq.rhs(ws, t, s.data(), d.data());
  };
  const double genericSteps = denseSteps(generic, x0, 1e-10, 1e-12);
  const double handSteps = denseSteps(hand, x0, 1e-10, 1e-12);
  std::printf(
      "\nball_on_turntable, generic engine vs hand-written closed form "
      "(max |difference| of the RHS: %.1e)\n",
      maxDiff);
  std::printf("  RHS evals/s:  generic %s %.3g, hand-written %.3g, ratio %.2f×\n",
              eq.compiledPrograms().back()->isNative() ? "native" : "interpreted", genericRhs,
              handRhs, handRhs / genericRhs);
  std::printf(
      "                generic interpreted %.3g, ratio %.2f× (native / interpreted %.2f×)\n",
      interpretedRhs, handRhs / interpretedRhs, genericRhs / interpretedRhs);
  std::printf(
      "  dopri5 steps/s (rtol 1e-10, no projection): generic %.3g, hand-written %.3g, ratio "
      "%.1f×\n",
      genericSteps, handSteps, handSteps / genericSteps);
  integratorTable();
  nativeCode();
  return 0;
}
// SPDX-License-Identifier: GPL-3.0-or-later
