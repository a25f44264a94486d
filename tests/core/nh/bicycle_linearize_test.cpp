// `nhsim linearize` on the benchmark bicycle against Meijaard, Papadopoulos, Ruina & Schwab
// 2007 (Proc. R. Soc. A 463:1955): the full nonlinear whipple_bicycle, linearised exactly on
// its constraint manifold at upright straight running, reproduces the paper's linear model.
// Reference values: tests/core/nh/mprs_reference.py (mpmath, 40 digits, from the
// paper's Appendix A formulas; they agree with the paper's §5 matrices to every printed
// digit and with its Table 2 to ≤ 9e-14, 6e-13 for the castor root at 7 m/s).
#include <QtTest>
#include <algorithm>
#include <complex>

#include "core/model/catalogue.h"
#include "core/nh/linearize.h"
#include "core/nh/scenario.h"

using namespace nh;

namespace {

using C = std::complex<double>;

struct Row {
  double v;
  std::array<C, 4> eigenvalues;  // sorted by real part, then imaginary part
};

// mprs_reference.py: Table 2, eigenvalues of M s² + v C1 s + g K0 + v² K2 for v = 0…10 m/s.
const Row kTable2[] = {
    {0.0,
     {{{-5.530943717653934, 0},
       {-3.1316432479065557, 0},
       {3.1316432479065557, 0},
       {5.530943717653934, 0}}}},
    {1.0,
     {{{-7.110080146374408, 0},
       {-3.1342312506657843, 0},
       {3.5269617099006942, -0.80774027519931},
       {3.5269617099006942, 0.80774027519931}}}},
    {2.0,
     {{{-8.673879848317371, 0},
       {-3.0715864564151425, 0},
       {2.6823451751274536, -1.6806629659067578},
       {2.6823451751274536, 1.6806629659067578}}}},
    {3.0,
     {{{-10.351014672459229, 0},
       {-2.633661372536653, 0},
       {1.706756056639735, -2.3158244738432434},
       {1.706756056639735, 2.3158244738432434}}}},
    {4.0,
     {{{-12.15861426576444, 0},
       {-1.4294442736132575, 0},
       {0.4132533152112413, -3.0791081860320535},
       {0.4132533152112413, 3.0791081860320535}}}},
    {5.0,
     {{{-14.078389692798247, 0},
       {-0.7753418821958419, -4.464867713788225},
       {-0.7753418821958419, 4.464867713788225},
       {-0.3228664290040871, 0}}}},
    {6.0,
     {{{-16.085371230980282, 0},
       {-1.5264448658414171, -5.876730605987084},
       {-1.5264448658414171, 5.876730605987084},
       {-0.004066900769703363, 0}}}},
    {7.0,
     {{{-18.15788466125202, 0},
       {-2.138756442583634, -7.195259133298043},
       {-2.138756442583634, 7.195259133298043},
       {0.10268170574766416, 0}}}},
    {8.0,
     {{{-20.27940894394566, 0},
       {-2.6934868358109476, -8.460379713969337},
       {-2.6934868358109476, 8.460379713969337},
       {0.1432787976571295, 0}}}},
    {9.0,
     {{{-22.43788559040859, 0},
       {-3.2167540225249076, -9.693773515317822},
       {-3.2167540225249076, 9.693773515317822},
       {0.15790184030917298, 0}}}},
    {10.0,
     {{{-24.624596350174, 0},
       {-3.7201684043728758, -10.906811394762881},
       {-3.7201684043728758, 10.906811394762881},
       {0.16105338653171555, 0}}}},
};
// The weave speed (the oscillatory pair's real part crosses 0) and the capsize speed (a real
// eigenvalue crosses 0), 40-digit values; the paper prints 4.29238253634111, 6.02426201538837.
constexpr double kWeaveSpeed = 4.292382536341104;
constexpr double kCapsizeSpeed = 6.024262015388359;

// The paper's §5 matrices (printed digits, which the script reproduces).
const Eigen::Matrix2d kM{{80.81722, 2.31941332208709}, {2.31941332208709, 0.29784188199686}};
const Eigen::Matrix2d kC1{{0, 33.86641391492494}, {-0.85035641456978, 1.68540397397560}};
const Eigen::Matrix2d kK0{{-80.95, -2.59951685249872}, {-2.59951685249872, -0.80329488458618}};
const Eigen::Matrix2d kK2{{0, 76.59734589573222}, {0, 2.65431523794604}};

Linearization uprightAt(double v) {
  const auto sys = findSystem("whipple_bicycle");
  const EquationsOfMotion eq(sys, DynamicsKind::Nonholonomic);
  const std::vector<double> x = initialState(
      eq, 0.0, {{"v", v}, {"lean", 0.0}, {"steer", 0.0}, {"lean_rate", 0.0}, {"steer_rate", 0.0}});
  return linearize(eq, 0.0, x);
}

// The four eigenvalues of the lean-steer dynamics: the reduced system's five minus the zero
// one belonging to v (the smallest in modulus; the nearest other is 0.004 at 6 m/s).
std::vector<C> fourOf(const Linearization& lin) {
  std::vector<C> e = lin.eigenvalues;
  const auto zero =
      std::min_element(e.begin(), e.end(), [](C a, C b) { return std::abs(a) < std::abs(b); });
  const double zeroModulus = std::abs(*zero);
  if (!(zeroModulus < 1e-12)) qWarning("the eigenvalue of v is %g, not 0", zeroModulus);
  e.erase(zero);
  return e;
}

// The real part of the weave pair (the complex pair) and the largest real eigenvalue.
double weaveReal(const std::vector<C>& e) {
  for (const C& c : e)
    if (std::abs(c.imag()) > 1e-9) return c.real();
  return std::nan("");
}
double capsizeEigenvalue(const std::vector<C>& e) {
  double best = -HUGE_VAL;
  for (const C& c : e)
    if (std::abs(c.imag()) < 1e-12 && std::abs(c.real()) < 1) best = std::max(best, c.real());
  return best;
}

// Bisection on v for a sign change of f(eigenvalues), to 1e-13 in v.
template <class F>
double bisect(double lo, double hi, F f) {
  double flo = f(fourOf(uprightAt(lo)));
  for (int i = 0; i < 60 && hi - lo > 1e-13; ++i) {
    const double mid = 0.5 * (lo + hi);
    const double fm = f(fourOf(uprightAt(mid)));
    if ((fm < 0) == (flo < 0)) {
      lo = mid;
      flo = fm;
    } else {
      hi = mid;
    }
  }
  return 0.5 * (lo + hi);
}

}  // namespace

class BicycleLinearizeTest : public QObject {
  Q_OBJECT

 private slots:
  void variablesAreTheIssues() {
    const Linearization lin = uprightAt(5.0);
    QCOMPARE(lin.variables,
             (std::vector<std::string>{"lean", "steer", "v", "lean_rate", "steer_rate"}));
    QVERIFY(lin.equilibrium);
    QVERIFY(lin.cyclicCoupling < 1e-12);
    QCOMPARE(static_cast<int>(lin.eigenvalues.size()), 5);
  }

  // Every Table 2 eigenvalue for v = 0…10 m/s, to 1e-10.
  void table2() {
    double worst = 0;
    for (const Row& row : kTable2) {
      const std::vector<C> e = fourOf(uprightAt(row.v));
      QCOMPARE(static_cast<int>(e.size()), 4);
      for (int i = 0; i < 4; ++i) {
        const double d = std::abs(e[i] - row.eigenvalues[i]);
        worst = std::max(worst, d);
        if (!(d < 1e-10))
          QFAIL(qPrintable(QString("v = %1: eigenvalue %2 is %3%4%5i, Table 2 %6%7%8i")
                               .arg(row.v)
                               .arg(i + 1)
                               .arg(e[i].real(), 0, 'g', 15)
                               .arg(e[i].imag() < 0 ? "" : "+")
                               .arg(e[i].imag(), 0, 'g', 15)
                               .arg(row.eigenvalues[i].real(), 0, 'g', 15)
                               .arg(row.eigenvalues[i].imag() < 0 ? "" : "+")
                               .arg(row.eigenvalues[i].imag(), 0, 'g', 15)));
      }
    }
    qInfo("largest difference from Table 2: %.2e", worst);
  }

  // §5: the lean and steer rows of the exact Jacobian are −M⁻¹(g K0 + v² K2) (lean, steer
  // columns) and −M⁻¹ v C1 (lean_rate, steer_rate columns), relative 1e-10.
  void section5Matrices() {
    const double g = 9.81;
    for (const double v : {0.0, 2.0, 4.6, 8.0}) {
      const Eigen::MatrixXd J = uprightAt(v).jacobian;  // lean steer v lean_rate steer_rate
      const Eigen::Matrix2d stiffness = -kM.inverse() * (g * kK0 + v * v * kK2);
      const Eigen::Matrix2d damping = -kM.inverse() * (v * kC1);
      const Eigen::Matrix2d Jq = J.block(3, 0, 2, 2), Jqd = J.block(3, 3, 2, 2);
      QVERIFY2((Jq - stiffness).cwiseAbs().maxCoeff() < 1e-10 * stiffness.cwiseAbs().maxCoeff(),
               qPrintable(QString("v = %1: stiffness off by %2")
                              .arg(v)
                              .arg((Jq - stiffness).cwiseAbs().maxCoeff())));
      QVERIFY((Jqd - damping).cwiseAbs().maxCoeff() <
              1e-10 * std::max(1.0, damping.cwiseAbs().maxCoeff()));
      // Lean and steer rates are the derivatives of lean and steer; nothing depends on v.
      QVERIFY(std::abs(J(0, 3) - 1) < 1e-14 && std::abs(J(1, 4) - 1) < 1e-14);
      QVERIFY(J.col(2).cwiseAbs().maxCoeff() < 1e-12);
    }
  }

  // The weave and capsize speeds, found by bisection on the linearisation, to 1e-10.
  void weaveAndCapsizeSpeeds() {
    const double weave = bisect(4.0, 4.6, weaveReal);
    const double capsize = bisect(5.5, 6.5, capsizeEigenvalue);
    qInfo("weave %.15f (paper 4.29238253634111), capsize %.15f (paper 6.02426201538837)", weave,
          capsize);
    QVERIFY(std::abs(weave - kWeaveSpeed) < 1e-10);
    QVERIFY(std::abs(capsize - kCapsizeSpeed) < 1e-10);
  }
};

QTEST_APPLESS_MAIN(BicycleLinearizeTest)
#include "bicycle_linearize_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
