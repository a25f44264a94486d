// The steppers of core/nh/steppers.h (DOP853, odeint's dopri5, rk78 and rk4, and SUNDIALS'
// ARKODE Fehlberg 7(8) and CVODE BDF in sundials_steppers.cpp) on problems with closed-form
// solutions: measured orders of the steps and of the dense output, error against tolerance,
// a stiff system where BDF must take far fewer steps than an explicit method, and the steps of
// rk4 and rk78 ending exactly at their stop times.
#include "core/nh/steppers.h"

#include <QtTest>
#include <boost/math/special_functions/jacobi_elliptic.hpp>
#include <cmath>
#include <functional>
#include <vector>

using namespace nh;

namespace {

using Factory = std::function<std::unique_ptr<Stepper>(double atol, double rtol)>;

// Euler's equations of a free rigid body in Krogh's scaling (Hairer–Nørsett–Wanner I, test
// problem "JACB"): y₁' = y₂y₃, y₂' = −y₁y₃, y₃' = −k²y₁y₂ with y(0) = (0, 1, 1) is solved by
// the Jacobi elliptic functions (sn, cn, dn)(t, k), k² = 0.51. Nonlinear, so all the order
// conditions count (a linear test problem checks only the stability polynomial).
constexpr double kModulusSquared = 0.51;
void jacobiRhs(double, const double* y, double* d) {
  d[0] = y[1] * y[2];
  d[1] = -y[0] * y[2];
  d[2] = -kModulusSquared * y[0] * y[1];
}
std::vector<double> jacobiExact(double t) {
  double cn = 0, dn = 0;
  const double sn = boost::math::jacobi_elliptic(std::sqrt(kModulusSquared), t, &cn, &dn);
  return {sn, cn, dn};
}
double maxDifference(const double* a, const std::vector<double>& b) {
  double worst = 0;
  for (size_t i = 0; i < b.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
  return worst;
}

// Tolerances so loose that every trial step is accepted: the stepper then takes exactly the
// step it is given, and restarting it after each step makes it a fixed-step method.
constexpr double kAcceptAll = 1e6;

// Global error at T of `steps` equal steps of the stepper's own method.
double fixedStepError(const Factory& make, int steps, double T) {
  auto stepper = make(kAcceptAll, kAcceptAll);
  const StepperRhs f = jacobiRhs;
  const double h = T / steps;
  auto x = jacobiExact(0);
  double t = 0;
  for (int i = 0; i < steps; ++i) {
    stepper->initialize(x.data(), 3, t, h);
    const auto [t0, t1] = stepper->doStep(f);
    if (std::abs((t1 - t0) - h) > 1e-14) qFatal("step %g taken instead of %g", t1 - t0, h);
    std::copy(stepper->currentState(), stepper->currentState() + 3, x.begin());
    t = t1;
  }
  return maxDifference(x.data(), jacobiExact(T));
}

// Largest error of the dense output at five points inside one step of length h from the
// exact state at t0 = 0.3: the local error of a continuous extension of order p is O(h^(p+1)).
double denseError(const Factory& make, double h) {
  auto stepper = make(kAcceptAll, kAcceptAll);
  const StepperRhs f = jacobiRhs;
  const double t0 = 0.3;
  const auto x0 = jacobiExact(t0);
  stepper->initialize(x0.data(), 3, t0, h);
  stepper->doStep(f);
  double worst = 0;
  std::vector<double> x(3);
  for (double s : {0.1, 0.3, 0.5, 0.7, 0.9}) {
    stepper->calcState(f, t0 + s * h, x.data());
    worst = std::max(worst, maxDifference(x.data(), jacobiExact(t0 + s * h)));
  }
  return worst;
}

struct AdaptiveRun {
  double error = 0;  // max over the step ends up to T (the dense output is checked apart)
  long steps = 0;
  long rhsCalls = 0;
};
// An adaptive run to T at rtol = atol = tol (the caller's restart-free use of the stepper).
AdaptiveRun adaptive(const Factory& make, double tol, double T) {
  auto stepper = make(tol, tol);
  AdaptiveRun run;
  const StepperRhs f = [&](double t, const double* y, double* d) {
    ++run.rhsCalls;
    jacobiRhs(t, y, d);
  };
  auto x = jacobiExact(0);
  stepper->initialize(x.data(), 3, 0, 1e-3);
  double t1 = 0;
  while (t1 < T) {
    t1 = stepper->doStep(f).second;
    ++run.steps;
    run.error = std::max(run.error, maxDifference(stepper->currentState(), jacobiExact(t1)));
  }
  return run;
}

// Prothero–Robinson components x_i' = −λ_i (x_i − g_i(t)) + g_i'(t), x_i = g_i + (x_i(0) −
// g_i(0)) e^(−λ_i t), rotated by an orthogonal Q so the stiff and slow modes are coupled:
// y = Q x. λ = (1, 1e2, 1e4), g = (cos t, sin 2t, cos 3t), x(0) = g(0) + (1, 1, 1).
struct StiffLinear {
  static constexpr double kLambda[3] = {1, 1e2, 1e4};
  // Rotation about (1, 2, 2)/3 by 1 rad, written out.
  double Q[3][3];
  StiffLinear() {
    const double a[3] = {1 / 3.0, 2 / 3.0, 2 / 3.0}, c = std::cos(1.0), s = std::sin(1.0);
    const double K[3][3] = {{0, -a[2], a[1]}, {a[2], 0, -a[0]}, {-a[1], a[0], 0}};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        double K2 = 0;
        for (int k = 0; k < 3; ++k) K2 += K[i][k] * K[k][j];
        Q[i][j] = (i == j) + s * K[i][j] + (1 - c) * K2;
      }
  }
  static void g(double t, double* v, double* dv) {
    v[0] = std::cos(t), v[1] = std::sin(2 * t), v[2] = std::cos(3 * t);
    dv[0] = -std::sin(t), dv[1] = 2 * std::cos(2 * t), dv[2] = -3 * std::sin(3 * t);
  }
  void rhs(double t, const double* y, double* d) const {
    double x[3] = {0, 0, 0}, v[3], dv[3], dx[3];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) x[i] += Q[j][i] * y[j];  // x = Qᵀ y
    g(t, v, dv);
    for (int i = 0; i < 3; ++i) dx[i] = -kLambda[i] * (x[i] - v[i]) + dv[i];
    for (int i = 0; i < 3; ++i) d[i] = Q[i][0] * dx[0] + Q[i][1] * dx[1] + Q[i][2] * dx[2];
  }
  std::vector<double> exact(double t) const {
    double v[3], dv[3];
    g(t, v, dv);
    double x[3];
    for (int i = 0; i < 3; ++i) x[i] = v[i] + std::exp(-kLambda[i] * t);
    std::vector<double> y(3);
    for (int i = 0; i < 3; ++i) y[i] = Q[i][0] * x[0] + Q[i][1] * x[1] + Q[i][2] * x[2];
    return y;
  }
};

}  // namespace

class SteppersTest : public QObject {
  Q_OBJECT
 private slots:
  // Steps of equal length (restarted each step): the global error falls as h^p with the
  // method's order, 8 for DOP853 and ARKODE's Fehlberg 7(8), 5 for dopri5.
  void stepOrders() {
    const double T = 4;
    auto order = [&](const char* name, const Factory& make, int steps) {
      const double e1 = fixedStepError(make, steps, T), e2 = fixedStepError(make, 2 * steps, T);
      qInfo("%-9s %4d steps: error %.3e, %4d steps: %.3e, order %.2f", name, steps, e1, 2 * steps,
            e2, std::log2(e1 / e2));
      return std::log2(e1 / e2);
    };
    // Step counts keep both errors far above round-off (1e-15) and the pair in the
    // asymptotic range; ±0.3 (±0.5 at order 8) covers the higher-order terms still visible.
    const double p853 = order("dop853", makeDop853, 10);
    const double pArk = order("arkode78", makeArkodeFehlberg78, 10);
    const double p5 = order("dopri5", makeOdeintDopri5, 40);
    const double p78 = order("rk78", makeOdeintFehlberg78, 10);
    const double p4 = order(
        "rk4", [](double, double) { return makeOdeintRk4(); }, 40);
    QVERIFY2(std::abs(p853 - 8) < 0.5, qPrintable(QString::number(p853)));
    QVERIFY2(std::abs(pArk - 8) < 0.5, qPrintable(QString::number(pArk)));
    QVERIFY2(std::abs(p5 - 5) < 0.3, qPrintable(QString::number(p5)));
    QVERIFY2(std::abs(p78 - 8) < 0.5, qPrintable(QString::number(p78)));
    QVERIFY2(std::abs(p4 - 4) < 0.3, qPrintable(QString::number(p4)));
  }

  // rk4 and rk78 have no dense output: a step that would pass the stop time ends exactly on
  // it (0.3 + (0.9 − 0.3) rounds to 0.9000000000000001), the step proposed for the next one
  // stays what it was before that cut, and calcState is the chord between the step's ends.
  void steppersWithoutDenseOutputEndAtTheStopTime() {
    const StepperRhs f = jacobiRhs;
    for (const Factory& make :
         {Factory(makeOdeintFehlberg78), Factory([](double, double) { return makeOdeintRk4(); })}) {
      auto stepper = make(1e-3, 1e-3);
      QVERIFY(!stepper->hasDenseOutput());
      const double t0 = 0.3, stop = 0.9;
      const auto x0 = jacobiExact(t0);
      stepper->initialize(x0.data(), 3, t0, 1.0);
      stepper->setStopTime(stop);
      const auto [u0, u1] = stepper->doStep(f);
      QVERIFY(u0 == t0);
      QVERIFY2(u1 == stop, qPrintable(QString::number(u1, 'g', 17)));
      QVERIFY(stepper->currentTimeStep() == 1.0);
      const std::vector<double> x1(stepper->currentState(), stepper->currentState() + 3);
      QVERIFY(maxDifference(x1.data(), jacobiExact(stop)) < 1e-3);
      std::vector<double> x(3);
      stepper->calcState(f, t0, x.data());
      QCOMPARE(x, x0);
      stepper->calcState(f, stop, x.data());
      QCOMPARE(x, x1);
      stepper->calcState(f, 0.5 * (t0 + stop), x.data());
      for (int i = 0; i < 3; ++i) QVERIFY(std::abs(x[i] - 0.5 * (x0[i] + x1[i])) < 1e-15);
    }
  }

  // The continuous extension inside a step: DOP853's is of order 7 (local error h^8).
  // ARKODE's Hermite interpolant of degree 5 measures as order 4 (local error h^5, from
  // h = 0.4 to 0.1), far below its steps' 8: it is built from f at points the cubic
  // interpolant gives, not from the method's stages.
  void denseOutputOrders() {
    auto exponent = [&](const char* name, const Factory& make, double h) {
      const double e1 = denseError(make, h), e2 = denseError(make, h / 2);
      qInfo("%-9s dense output, h = %g: error %.3e, h/2: %.3e, exponent %.2f", name, h, e1, e2,
            std::log2(e1 / e2));
      return std::log2(e1 / e2);
    };
    const double d853 = exponent("dop853", makeDop853, 0.4);
    const double dArk = exponent("arkode78", makeArkodeFehlberg78, 0.4);
    exponent("arkode78", makeArkodeFehlberg78, 0.2);
    QVERIFY2(std::abs(d853 - 8) < 0.5, qPrintable(QString::number(d853)));
    QVERIFY2(std::abs(dArk - 5) < 0.3, qPrintable(QString::number(dArk)));
  }

  // Adaptive runs to T = 40: the error follows the tolerance, and against the number of
  // steps it falls with the method's order.
  void errorFollowsTolerance() {
    const double T = 40;
    auto study = [&](const char* name, const Factory& make, double tolLoose,
                     double tolTight) -> std::pair<double, double> {
      const AdaptiveRun a = adaptive(make, tolLoose, T), b = adaptive(make, tolTight, T);
      const double slope = std::log(a.error / b.error) / std::log(tolLoose / tolTight);
      const double order = std::log(a.error / b.error) / std::log(double(b.steps) / a.steps);
      qInfo(
          "%-9s tol %.0e: error %.2e in %ld steps (%ld RHS); tol %.0e: error %.2e in %ld "
          "steps (%ld RHS); error ∝ tol^%.2f, ∝ steps^-%.2f",
          name, tolLoose, a.error, a.steps, a.rhsCalls, tolTight, b.error, b.steps, b.rhsCalls,
          slope, order);
      if (!(a.error < 1e3 * tolLoose && b.error < 1e3 * tolTight)) return {0, 0};
      return {slope, order};
    };
    const auto [s853, p853] = study("dop853", makeDop853, 1e-7, 1e-11);
    const auto [sArk, pArk] = study("arkode78", makeArkodeFehlberg78, 1e-7, 1e-11);
    const auto [sBdf, pBdf] = study("bdf", makeCvodeBdf, 1e-5, 1e-9);
    // The error falls with the tolerance (slope near 1); against the step count the explicit
    // methods show their order 8 (±1.5: the controllers' step sequences are not exactly
    // geometric). BDF's count mixes its orders 1–5 and the start-up, so only the slope.
    for (double slope : {s853, sArk, sBdf})
      QVERIFY2(slope > 0.6 && slope < 1.4, qPrintable(QString::number(slope)));
    QVERIFY2(std::abs(p853 - 8) < 1.5, qPrintable(QString::number(p853)));
    QVERIFY2(std::abs(pArk - 8) < 1.5, qPrintable(QString::number(pArk)));
    Q_UNUSED(pBdf);
  }

  // A stiff linear system (eigenvalues −1, −1e2, −1e4, coupled): at rtol 1e-6 the explicit
  // dopri5 is held to steps ~3.3/1e4 by stability, BDF is not. BDF agrees with the closed form
  // and with a tight DOP853 run.
  void stiffSystemFavoursBdf() {
    const StiffLinear problem;
    const double T = 10;
    auto run = [&](const Factory& make, double rtol, double atol, long* steps) {
      auto stepper = make(atol, rtol);
      const StepperRhs f = [&](double t, const double* y, double* d) { problem.rhs(t, y, d); };
      auto y = problem.exact(0);
      stepper->initialize(y.data(), 3, 0, 1e-6);
      double t1 = 0;
      *steps = 0;
      while (t1 < T) {
        t1 = stepper->doStep(f).second;
        ++*steps;
      }
      stepper->calcState(f, T, y.data());
      return y;
    };
    long bdfSteps = 0, dopriSteps = 0, refSteps = 0;
    const auto bdf = run(makeCvodeBdf, 1e-6, 1e-9, &bdfSteps);
    const auto dopri = run(makeOdeintDopri5, 1e-6, 1e-9, &dopriSteps);
    const auto reference = run(makeDop853, 1e-13, 1e-15, &refSteps);
    const auto exact = problem.exact(T);
    const double bdfError = maxDifference(bdf.data(), exact);
    qInfo(
        "steps to T = 10: bdf %ld, dopri5 %ld (%.0f×), dop853 at 1e-13 %ld; bdf error %.2e "
        "(closed form), %.2e (dop853); dop853 error %.2e",
        bdfSteps, dopriSteps, double(dopriSteps) / bdfSteps, refSteps, bdfError,
        maxDifference(bdf.data(), reference), maxDifference(reference.data(), exact));
    // dopri5's stability bound alone needs T·1e4/3.3 ≈ 3e4 steps; BDF needs a few hundred.
    QVERIFY2(dopriSteps > 30 * bdfSteps,
             qPrintable(QString::number(dopriSteps / double(bdfSteps))));
    // Global error of a tolerance-1e-6 run over 10 time units: within 100 × rtol.
    QVERIFY2(bdfError < 1e-4, qPrintable(QString::number(bdfError)));
    QVERIFY(maxDifference(bdf.data(), reference) < 1e-4);
    QVERIFY(maxDifference(dopri.data(), exact) < 1e-4);
  }

  // Retaking a step shorter (rejectLast) starts again from the step's start.
  void rejectLastRetakesTheStep() {
    for (const Factory& make : {Factory(makeArkodeFehlberg78), Factory(makeCvodeBdf)}) {
      auto stepper = make(1e-10, 1e-10);
      const StepperRhs f = jacobiRhs;
      const auto x0 = jacobiExact(0);
      stepper->initialize(x0.data(), 3, 0, 1e-2);
      stepper->doStep(f);
      const auto [t0, t1] = stepper->doStep(f);
      stepper->rejectLast(0.25 * (t1 - t0));
      const auto [u0, u1] = stepper->doStep(f);
      QCOMPARE(u0, t0);
      QVERIFY(u1 - u0 <= 0.25 * (t1 - t0) * (1 + 1e-12));
      QVERIFY(maxDifference(stepper->currentState(), jacobiExact(u1)) < 1e-8);
    }
  }

  // SUNDIALS' failures arrive as exceptions naming the flag, with nothing printed.
  void sundialsErrorsAreExceptions() {
    auto stepper = makeCvodeBdf(1e-8, 1e-8);
    // ẏ = y² from y = 1 blows up at t = 1.
    const StepperRhs f = [](double, const double* y, double* d) { d[0] = y[0] * y[0]; };
    const double y0 = 1;
    stepper->initialize(&y0, 1, 0, 1e-3);
    try {
      for (int i = 0; i < 100000; ++i) stepper->doStep(f);
      QFAIL("expected an exception");
    } catch (const std::runtime_error& e) {
      qInfo("%s", e.what());
      QVERIFY(QString(e.what()).startsWith("CVODE CVode: CV_"));
    }
  }
};

QTEST_APPLESS_MAIN(SteppersTest)
#include "steppers_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
