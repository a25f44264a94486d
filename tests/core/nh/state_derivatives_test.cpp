// The derivatives the integrators with implicit steps read (core/nh/state_derivatives.h):
// ∂f/∂x evaluated in a workspace the caller owns against stateJacobian; the velocity-level
// constraints and their Jacobian against the engine's residuals and central differences of
// them, for every catalogue system; one workspace serving two systems in turn; one compiled
// object serving two workspaces; vakonomic equations refused.
#include "core/nh/state_derivatives.h"

#include <QtTest>
#include <cmath>
#include <random>

#include "core/model/catalogue.h"
#include "core/nh/scenario.h"
#include "tests/core/test_support.h"

using namespace nh;

namespace {

// The largest entry of |a − b| over the largest entry of |a| (at least 1).
double relativeGap(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  const double scale = std::max(1.0, a.cwiseAbs().maxCoeff());
  return (a - b).cwiseAbs().maxCoeff() / scale;
}

// Φ then ġ at (t, x), as the engine observes them.
Eigen::VectorXd enginePhi(const EquationsOfMotion& eq, EquationsWorkspace& ws, double t,
                          const std::vector<double>& x) {
  Observables o;
  eq.observe(ws, t, x.data(), o);
  return Eigen::VectorXd(o.phi);
}

// ∂f/∂x of `name` at its initial state, evaluated in `work`, against stateJacobian.
double jacobianGap(const StateDerivatives& derivatives, StateDerivativesWorkspace& work,
                   const EquationsOfMotion& eq) {
  const std::vector<double> x = initialState(eq, 0.0, {});
  const int size = eq.system().n() + eq.system().m();
  Eigen::MatrixXd J(size, size);
  derivatives.jacobian(work, 0.2, x.data(), J);
  return relativeGap(stateJacobian(eq, 0.2, x.data()), J);
}

}  // namespace

class StateDerivativesTest : public QObject {
  Q_OBJECT

 private slots:
  // For every catalogue system that can be taped, at random consistent states: the Jacobian
  // is stateJacobian's (1e-10: native code against the interpreter), Φ and ġ are the
  // engine's (1e-12), and their Jacobian agrees with central differences of the engine's
  // (1e-6: the differences' own error is ~1e-8).
  void derivativesMatchTheEngine() {
    std::mt19937 rng(11);
    int checked = 0;
    for (const auto& entry : catalogueEntries()) {
      const auto& sys = entry.system;
      if (sys->info().isControlModel()) continue;  // no equations of motion
      const EquationsOfMotion eq(sys, DynamicsKind::Nonholonomic);
      if (!eq.isTaped()) continue;
      const StateDerivatives derivatives(eq);
      StateDerivativesWorkspace work;
      EquationsWorkspace ws(eq);
      const int size = sys->n() + sys->m(), kt = sys->constraintsTotal();
      const QString name = QString::fromStdString(sys->name());
      for (int trial = 0; trial < 2; ++trial) {
        const std::vector<double> x = test::randomState(eq, rng, 0.3);
        Eigen::MatrixXd J(size, size), dphi(kt, size);
        Eigen::VectorXd phi(kt);
        derivatives.jacobian(work, 0.3, x.data(), J);
        derivatives.constraints(work, 0.3, x.data(), phi, dphi);
        const double gapJ = relativeGap(stateJacobian(eq, 0.3, x.data()), J);
        QVERIFY2(gapJ < 1e-10, qPrintable(name + QString(": ∂f/∂x off by %1").arg(gapJ)));
        if (kt == 0) continue;
        const double gapPhi = relativeGap(enginePhi(eq, ws, 0.3, x), phi);
        QVERIFY2(gapPhi < 1e-12, qPrintable(name + QString(": Φ off by %1").arg(gapPhi)));
        Eigen::MatrixXd differences(kt, size);
        for (int j = 0; j < size; ++j) {
          const double h = 1e-6 * std::max(1.0, std::abs(x[j]));
          std::vector<double> xp = x, xm = x;
          xp[j] += h;
          xm[j] -= h;
          differences.col(j) = (enginePhi(eq, ws, 0.3, xp) - enginePhi(eq, ws, 0.3, xm)) / (2 * h);
        }
        const double gapD = relativeGap(differences, dphi);
        QVERIFY2(gapD < 1e-6, qPrintable(name + QString(": ∂Φ/∂x off by %1").arg(gapD)));
      }
      ++checked;
    }
    QVERIFY(checked > 10);
  }

  // A workspace used with another StateDerivatives is sized anew for it: the sleigh's, the
  // particle's (other sizes), then the sleigh's again, each right.
  void oneWorkspaceServesTwoSystemsInTurn() {
    const EquationsOfMotion sleigh(findSystem("chaplygin_sleigh"), DynamicsKind::Nonholonomic);
    const EquationsOfMotion ball(findSystem("ball_on_turntable"), DynamicsKind::Nonholonomic);
    const StateDerivatives ofSleigh(sleigh), ofBall(ball);
    StateDerivativesWorkspace work;
    QVERIFY(jacobianGap(ofSleigh, work, sleigh) < 1e-10);
    QVERIFY(jacobianGap(ofBall, work, ball) < 1e-10);
    QVERIFY(jacobianGap(ofSleigh, work, sleigh) < 1e-10);
  }

  // One compiled object, two workspaces (as two threads would hold): each evaluation reads
  // only its own workspace, so interleaved states do not mix.
  void oneObjectServesTwoWorkspaces() {
    const EquationsOfMotion eq(findSystem("ball_on_turntable"), DynamicsKind::Nonholonomic);
    const StateDerivatives derivatives(eq);
    StateDerivativesWorkspace first, second;
    std::mt19937 rng(3);
    const std::vector<double> a = test::randomState(eq, rng, 0.0);
    const std::vector<double> b = test::randomState(eq, rng, 0.0);
    const int size = eq.system().n() + eq.system().m();
    Eigen::MatrixXd Ja(size, size), Jb(size, size), Ja2(size, size);
    derivatives.jacobian(first, 0.0, a.data(), Ja);
    derivatives.jacobian(second, 0.0, b.data(), Jb);
    derivatives.jacobian(first, 0.0, a.data(), Ja2);
    QVERIFY(relativeGap(stateJacobian(eq, 0.0, a.data()), Ja) < 1e-10);
    QVERIFY(relativeGap(stateJacobian(eq, 0.0, b.data()), Jb) < 1e-10);
    QCOMPARE(relativeGap(Ja, Ja2), 0.0);
  }

  // Vakonomic equations have no such derivatives here: refused in one line.
  void vakonomicEquationsRefused() {
    const EquationsOfMotion eq(findSystem("chaplygin_sleigh"), DynamicsKind::Vakonomic);
    try {
      const StateDerivatives derivatives(eq);
      QFAIL("vakonomic equations accepted");
    } catch (const InputError& e) {
      QCOMPARE(std::string(e.what()),
               std::string("the state's derivatives are available for nonholonomic dynamics only"));
    }
    QVERIFY_EXCEPTION_THROWN(stateJacobian(eq, 0.0, initialState(eq, 0.0, {}).data()), InputError);
  }
};

QTEST_GUILESS_MAIN(StateDerivativesTest)
#include "state_derivatives_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
