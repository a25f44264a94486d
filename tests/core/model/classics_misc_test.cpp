// Three classics of the catalogue as model files against closed forms and
// sympy's equations: suslov (the polar angle of J^½ ω obeys θ̇ = k cos(θ − θ₀)),
// rolling_disk_3d (sympy.physics.mechanics' rolling disc, its Kane equations and steady
// circular rolling) and appell_hamel (a nonlinear constraint: straight line, linear speed
// law, and the stop where √(vx² + vy²) reaches 0 and the constraint is not differentiable).
//
// Tolerances: the engine runs Dormand–Prince 5(4) at rtol 1e-12, atol 1e-14, accurate to
// ~1e-11 over these spans; 1e-9 leaves a margin of a hundred and still catches any change of
// the equations (a wrong sign or factor moves these states by ≥ 1e-3).
#include <Eigen/Dense>
#include <QtTest>
#include <cmath>
#include <map>
#include <random>

#include "core/model/catalogue.h"
#include "core/model/model_file.h"
#include "core/nh/errors.h"
#include "core/nh/scenario.h"
#include "core/nh/simulation.h"
#include "tests/core/model/model_test_support.h"

using namespace nh;

namespace {

using test::bundled;
using test::indexOf;
using test::tight;

struct Run {
  std::vector<double> times;
  std::vector<std::vector<double>> states;
  std::vector<Observables> observables;
};

// Runs from the defaults with `initial` set (completed) and `parameters` changed.
Run run(const std::shared_ptr<const SystemModel>& system, double tEnd, double dtOut,
        const std::map<std::string, double>& parameters = {},
        const std::map<std::string, double>& initial = {}, IntegratorOptions options = tight(),
        DynamicsKind kind = DynamicsKind::Nonholonomic,
        Formulation formulation = Formulation::Multipliers) {
  Simulation sim(system, kind, formulation, options);
  sim.setParameters(resolveParameters(*system, parameters));
  const std::vector<double> x0 = initialState(sim.equations(), 0, initial);
  sim.setState(0, x0);
  Run r;
  sim.advance(tEnd, dtOut, [&](double t, const double* x) {
    r.times.push_back(t);
    r.states.emplace_back(x, x + sim.equations().stateSize());
    Observables o;
    sim.equations().observe(sim.workspace(), t, x, o);
    r.observables.push_back(o);
  });
  return r;
}

// ---- suslov ------------------------------------------------------------------------------
// J ω̇ = (b·ω) R₉₀ ω for ω = (ω1, ω2) (the first two rows of I ω̇ = (I ω) × ω + λ e3, ω3 = 0),
// with J the upper-left 2×2 block of I and b = (I13, I23). For z = J^½ ω: ż = (b·ω) J^-½ R₉₀
// J^-½ z = (b·ω)/√det J · R₉₀ z (Sᵀ R₉₀ S = det S · R₉₀), so |z|² = ωᵀ J ω = 2E is constant and
// its polar angle turns at θ̇ = b·ω/√det J. With ω = |z| J^-½ (cos θ, sin θ) and c = J^-½ b:
// b·ω = |z| |c| cos(θ − θ₀), θ₀ = arg c, so θ̇ = k cos(θ − θ₀), k = |z| |c|/√det J, and
// sin(θ − θ₀) = tanh(k t + atanh sin(θ(0) − θ₀)) while |θ − θ₀| < π/2 (otherwise turn θ₀ by π
// and k to −k). The end θ₀ + sign(k) π/2 attracts, θ₀ − sign(k) π/2 repels: b·ω → 0.
struct SuslovClosedForm {
  Eigen::Matrix2d rootJ, inverseRootJ;
  double radius = 0, k = 0, theta0 = 0, offset = 0;

  SuslovClosedForm(const std::vector<double>& p, Eigen::Vector2d w0) {
    // parameters in the file's order: I11, I22, I33, I12, I13, I23
    Eigen::Matrix2d J;
    J << p[0], p[3], p[3], p[1];
    const Eigen::Vector2d b(p[4], p[5]);
    Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> eigen(J);
    rootJ = eigen.operatorSqrt();
    inverseRootJ = eigen.operatorInverseSqrt();
    const Eigen::Vector2d z0 = rootJ * w0, c = inverseRootJ * b;
    radius = z0.norm();
    k = radius * c.norm() / std::sqrt(J.determinant());
    theta0 = std::atan2(c.y(), c.x());
    double phi0 = std::remainder(std::atan2(z0.y(), z0.x()) - theta0, 2 * M_PI);
    if (std::cos(phi0) < 0) {
      theta0 += M_PI;
      k = -k;
      phi0 = std::remainder(phi0 - M_PI, 2 * M_PI);
    }
    offset = std::atanh(std::sin(phi0));
  }
  Eigen::Vector2d omega(double t) const {
    const double theta = theta0 + std::asin(std::tanh(k * t + offset));
    return inverseRootJ * (radius * Eigen::Vector2d(std::cos(theta), std::sin(theta)));
  }
  Eigen::Vector2d end(int sign) const {  // sign +1: attracting, −1: repelling
    const double theta = theta0 + sign * (k > 0 ? 1 : -1) * M_PI / 2;
    return inverseRootJ * (radius * Eigen::Vector2d(std::cos(theta), std::sin(theta)));
  }
};

// ---- rolling_disk_3d -----------------------------------------------------------------------
// sympy's rolling disc (KanesMethod) in u = (lean_rate, yaw_rate sin lean + spin_rate,
// yaw_rate cos lean), checked against sympy.physics.mechanics by hand (python, 2026):
double steadyCondition(double r, double g, double lean, double u2, double u3) {
  return 6 * r * u2 * u3 - r * u3 * u3 * std::tan(lean) + 4 * g * std::sin(lean);
}
Eigen::Vector3d sympyRates(double r, double g, double lean, const Eigen::Vector3d& u) {
  return {steadyCondition(r, g, lean, u[1], u[2]) / (5 * r), -2 * u[0] * u[2] / 3,
          u[0] * (-2 * u[1] + u[2] * std::tan(lean))};
}

}  // namespace

class ClassicsMiscTest : public QObject {
  Q_OBJECT
 private slots:
  // suslov: ω against the closed form above at every 0.5 s up to 20 s, for the defaults
  // (I12 = 0, ω(0) = (1, 0)) and for a coupled block (I12 = 0.4) started on the far side
  // (ω(0) = (−0.3, −1.2), the k < 0 branch); |z|² = 2E and ω3 = 0 throughout; the attitude
  // stays a unit quaternion. Then ω tends to the attracting steady rotation (b·ω = 0), and a
  // start next to the repelling one leaves it for the attracting one.
  void suslovFollowsTheClosedForm() {
    const auto system = bundled("suslov");
    QVERIFY(system);
    const int w1 = indexOf(*system, "w1"), w3 = indexOf(*system, "w3"), qw = indexOf(*system, "qw");
    struct Case {
      std::map<std::string, double> parameters, initial;
    };
    const std::vector<Case> cases = {{{}, {}}, {{{"I12", 0.4}}, {{"w1", -0.3}, {"w2", -1.2}}}};
    for (const Case& c : cases) {
      const std::vector<double> p = resolveParameters(*system, c.parameters);
      const Eigen::Vector2d w0(c.initial.count("w1") ? c.initial.at("w1") : 1.0,
                               c.initial.count("w2") ? c.initial.at("w2") : 0.0);
      const SuslovClosedForm closed(p, w0);
      QVERIFY(std::abs(closed.k) > 0.1);  // the motion is not trivial
      const Run r = run(system, 20.0, 0.5, c.parameters, c.initial);
      QCOMPARE(r.times.size(), std::size_t(41));
      for (std::size_t i = 0; i < r.times.size(); ++i) {
        const Eigen::Vector2d w(r.states[i][w1], r.states[i][w1 + 1]);
        const double d = (w - closed.omega(r.times[i])).norm();
        QVERIFY2(d < 1e-9, qPrintable(QString("ω off by %1 at t = %2").arg(d).arg(r.times[i])));
        QVERIFY(std::abs((closed.rootJ * w).squaredNorm() - 2 * r.observables[i].energy) < 1e-10);
        QVERIFY(std::abs((closed.rootJ * w).norm() - closed.radius) < 1e-10);
        QVERIFY(std::abs(r.states[i][w3]) < 1e-12);
        const Eigen::Vector4d q(r.states[i][qw], r.states[i][qw + 1], r.states[i][qw + 2],
                                r.states[i][qw + 3]);
        QVERIFY(std::abs(q.norm() - 1) < 1e-12);
      }
      // Late on, b·ω = |z||c| sech(k t + ·) is down to ~1e-8 (t = 80, k ≈ 0.23 and ≈ 0.25).
      const Run late = run(system, 80.0, 80.0, c.parameters, c.initial);
      const Eigen::Vector2d w(late.states.back()[w1], late.states.back()[w1 + 1]);
      QVERIFY(std::abs(p[4] * w[0] + p[5] * w[1]) < 1e-6);
      QVERIFY((w - closed.end(+1)).norm() < 1e-6);
    }
    // Next to the repelling end (0.01 rad off on the energy ellipse) ω leaves for the
    // attracting one.
    const std::vector<double> p = system->defaultParameters();
    const SuslovClosedForm defaults(p, Eigen::Vector2d(1, 0));
    const Eigen::Vector2d start = SuslovClosedForm(p, defaults.end(-1)).inverseRootJ *
                                  Eigen::Rotation2Dd(0.01 * (defaults.k > 0 ? 1 : -1)) *
                                  (defaults.rootJ * defaults.end(-1));
    const Run away = run(system, 80.0, 80.0, {}, {{"w1", start[0]}, {"w2", start[1]}});
    const Eigen::Vector2d w(away.states.back()[w1], away.states.back()[w1 + 1]);
    QVERIFY((defaults.end(-1) - start).norm() < 0.02);
    QVERIFY2((w - defaults.end(+1)).norm() < 1e-3,
             qPrintable(QString("%1 %2").arg(w[0]).arg(w[1])));
  }

  // rolling_disk_3d: the engine's accelerations, converted to u̇ (u̇1 = lean'', u̇2 =
  // yaw'' sin lean + yaw' cos lean lean' + spin'', u̇3 = yaw'' cos lean − yaw' sin lean lean'),
  // equal sympy's Kane equations at random states, for both formulations and other
  // parameters (m = 2.5, r = 0.3, g = 3.7) too; relative 1e-9 (round-off of a 5×5 solve).
  void rollingDiskMatchesSympysEquations() {
    const auto system = bundled("rolling_disk_3d");
    QVERIFY(system);
    const int yaw = indexOf(*system, "yaw"), lean = indexOf(*system, "lean"),
              vx = indexOf(*system, "vx"), vy = indexOf(*system, "vy"),
              yawRate = indexOf(*system, "yaw_rate"), leanRate = indexOf(*system, "lean_rate"),
              spinRate = indexOf(*system, "spin_rate");
    QVERIFY(yaw >= 0 && lean >= 0 && vx >= 0 && vy >= 0 && yawRate >= 0 && leanRate >= 0 &&
            spinRate >= 0);
    const int n = system->n();
    std::mt19937 rng(9);
    std::uniform_real_distribution<double> angle(-1.3, 1.3), rate(-15, 15), place(-3, 3);
    for (const std::map<std::string, double>& values :
         {std::map<std::string, double>{},
          std::map<std::string, double>{{"m", 2.5}, {"r", 0.3}, {"g", 3.7}}}) {
      const std::vector<double> p = resolveParameters(*system, values);
      const double r = p[system->parameterIndex("r")], g = p[system->parameterIndex("g")];
      for (Formulation f : {Formulation::Multipliers, Formulation::GibbsAppell}) {
        const EquationsOfMotion eq(system, DynamicsKind::Nonholonomic, f, p);
        EquationsWorkspace ws(eq);
        for (int trial = 0; trial < 20; ++trial) {
          std::vector<double> x(eq.stateSize());
          for (int i = 0; i < n; ++i) x[i] = place(rng);
          x[lean] = angle(rng);
          x[yawRate] = rate(rng);
          x[leanRate] = rate(rng);
          x[spinRate] = rate(rng);
          x[vx] = r * x[spinRate] * std::cos(x[yaw]);
          x[vy] = r * x[spinRate] * std::sin(x[yaw]);
          Observables o;
          eq.observe(ws, 0.0, x.data(), o);
          QVERIFY(o.phi.cwiseAbs().maxCoeff() < 1e-12);
          const double s = std::sin(x[lean]), c = std::cos(x[lean]);
          const double yawAcc = o.ydot[yawRate - n], leanAcc = o.ydot[leanRate - n],
                       spinAcc = o.ydot[spinRate - n];
          const Eigen::Vector3d u(x[leanRate], x[yawRate] * s + x[spinRate], x[yawRate] * c);
          const Eigen::Vector3d engine(leanAcc, yawAcc * s + x[yawRate] * c * x[leanRate] + spinAcc,
                                       yawAcc * c - x[yawRate] * s * x[leanRate]);
          const Eigen::Vector3d sympy = sympyRates(r, g, x[lean], u);
          QVERIFY2((engine - sympy).norm() < 1e-9 * (1 + sympy.norm()),
                   qPrintable(QString("trial %1: engine (%2, %3, %4), sympy (%5, %6, %7)")
                                  .arg(trial)
                                  .arg(engine[0])
                                  .arg(engine[1])
                                  .arg(engine[2])
                                  .arg(sympy[0])
                                  .arg(sympy[1])
                                  .arg(sympy[2])));
        }
      }
    }
  }

  // rolling_disk_3d: steady circular rolling. yaw_rate = 2, spin_rate = 20, lean_rate = 0 and
  // the lean solving 6 r u2 u3 − r u3² tan lean + 4 g sin lean = 0 (−0.530, leaning into the
  // turn): for 5 s lean, the rates and the energy stay put (1e-8: the motion is only
  // neutrally stable, round-off drifts slowly) and the contact point runs on the circle of
  // radius r·spin_rate/yaw_rate = 1 m about (0, 1): x = R sin(yaw_rate t), y = R (1 − cos).
  void rollingDiskRollsSteadilyOnACircle() {
    const auto system = bundled("rolling_disk_3d");
    QVERIFY(system);
    const double r = 0.1, g = 9.81, yawRate = 2, spinRate = 20;
    auto condition = [&](double lean) {
      return steadyCondition(r, g, lean, yawRate * std::sin(lean) + spinRate,
                             yawRate * std::cos(lean));
    };
    double lo = -1.2, hi = 0;  // condition(lo) < 0 < condition(hi)
    QVERIFY(condition(lo) < 0 && condition(hi) > 0);
    for (int i = 0; i < 200; ++i) (condition(0.5 * (lo + hi)) < 0 ? lo : hi) = 0.5 * (lo + hi);
    const double lean = 0.5 * (lo + hi);
    const Run run5 =
        run(system, 5.0, 0.5, {}, {{"lean", lean}, {"yaw_rate", yawRate}, {"spin_rate", spinRate}});
    const double radius = r * spinRate / yawRate;
    const int x = indexOf(*system, "x"), y = indexOf(*system, "y"), yaw = indexOf(*system, "yaw"),
              leanAt = indexOf(*system, "lean"), leanRate = indexOf(*system, "lean_rate"),
              yawRateAt = indexOf(*system, "yaw_rate"), spinRateAt = indexOf(*system, "spin_rate");
    for (std::size_t i = 0; i < run5.times.size(); ++i) {
      const double t = run5.times[i];
      const std::vector<double>& s = run5.states[i];
      QVERIFY2(std::abs(s[leanAt] - lean) < 1e-8, qPrintable(QString::number(s[leanAt] - lean)));
      QVERIFY(std::abs(s[leanRate]) < 1e-8);
      QVERIFY(std::abs(s[yawRateAt] - yawRate) < 1e-8);
      QVERIFY(std::abs(s[spinRateAt] - spinRate) < 1e-8);
      QVERIFY(std::abs(s[yaw] - yawRate * t) < 1e-8);
      QVERIFY2(
          std::abs(s[x] - radius * std::sin(yawRate * t)) < 1e-8,
          qPrintable(
              QString("x off by %1 at t = %2").arg(s[x] - radius * std::sin(yawRate * t)).arg(t)));
      QVERIFY(std::abs(s[y] - radius * (1 - std::cos(yawRate * t))) < 1e-8);
      QVERIFY(std::abs(std::hypot(s[x], s[y] - radius) - radius) < 1e-8);
      QVERIFY(std::abs(run5.observables[i].energy - run5.observables[0].energy) < 1e-10);
    }
  }

  // rolling_disk_3d from its defaults (lean 0.2, spin_rate 20): rolling is ideal, the
  // energy ½ m |v_G|² + ½ ωᵀ I ω + m g r cos(lean) is conserved (1e-10 of ~2.5 J), the disk
  // stays up (|lean| < 0.5) and it does turn (yaw moves).
  void rollingDiskConservesEnergy() {
    const auto system = bundled("rolling_disk_3d");
    QVERIFY(system);
    const Run r = run(system, 5.0, 0.1);
    const double e0 = r.observables.front().energy;
    // ½ m r² (½ 20²) + ... at rest otherwise: v_G = r·spin·heading, ½ m (2)² + ½ · ½ m r² 20²
    // + m g r cos 0.2
    QVERIFY(std::abs(e0 - (0.5 * 4 + 0.25 * 0.01 * 400 + 9.81 * 0.1 * std::cos(0.2))) < 1e-12);
    const int lean = indexOf(*system, "lean"), yaw = indexOf(*system, "yaw");
    for (std::size_t i = 0; i < r.times.size(); ++i) {
      QVERIFY(std::abs(r.observables[i].energy - e0) < 1e-10);
      QVERIFY(std::abs(r.states[i][lean]) < 0.5);
    }
    QVERIFY(std::abs(r.states.back()[yaw]) > 0.1);
  }

  // appell_hamel, k = 0: with Φ = vz − a s, s = √(vx² + vy²), Chetaev gives m v̇_h = −a λ v_h/s,
  // m v̇z = −m g + λ, so ṡ = −a λ/m, and vz = a s forces λ = m g/(1 + a²) (positive: the engine
  // reports λ with M ẏ = F + Aᵀλ, here a pull up on the weight). Hence a straight horizontal
  // line along v_h(0), s = s0 − a g t/(1 + a²), distance d = s0 t − ½ a g t²/(1 + a²), z = a d,
  // vz = a s, and the energy is constant (Φ is homogeneous of degree 1). For a = −0.2 and
  // a = 0.5 (before its stop at t* = s0 (1 + a²)/(a g) = 0.51 s), m = 2, v_h(0) = (1.2, 1.6),
  // both formulations, to 1e-9.
  void appellHamelFollowsTheClosedForm() {
    const auto system = bundled("appell_hamel");
    QVERIFY(system);
    const double m = 2, g = 9.81, s0 = 2;
    const Eigen::Vector2d heading(0.6, 0.8);
    for (double a : {-0.2, 0.5}) {
      for (Formulation f : {Formulation::Multipliers, Formulation::GibbsAppell}) {
        const double tEnd = a > 0 ? 0.45 : 3.0;
        const Run r = run(system, tEnd, 0.05, {{"a", a}, {"m", m}}, {{"vx", 1.2}, {"vy", 1.6}},
                          tight(), DynamicsKind::Nonholonomic, f);
        QCOMPARE(r.times.size(), std::size_t(std::lround(tEnd / 0.05) + 1));
        const double e0 = 0.5 * m * s0 * s0 * (1 + a * a);
        for (std::size_t i = 0; i < r.times.size(); ++i) {
          const double t = r.times[i];
          const double s = s0 - a * g * t / (1 + a * a);
          const double d = s0 * t - 0.5 * a * g * t * t / (1 + a * a);
          const std::vector<double> expected = {d * heading[0], d * heading[1], a * d,
                                                s * heading[0], s * heading[1], a * s};
          for (int c = 0; c < 6; ++c)
            QVERIFY2(std::abs(r.states[i][c] - expected[c]) < 1e-9,
                     qPrintable(QString("a = %1, state %2 off by %3 at t = %4")
                                    .arg(a)
                                    .arg(c)
                                    .arg(r.states[i][c] - expected[c])
                                    .arg(t)));
          QVERIFY(std::abs(r.observables[i].lambda[0] - m * g / (1 + a * a)) < 1e-9);
          QVERIFY(std::abs(r.observables[i].energy - e0) < 1e-9);
        }
      }
    }
  }

  // appell_hamel, a = 0.2 (wound up), from (2, 0): the speed falls to 0 at t* = s0 (1 + a²)/
  // (a g) = 1.06014... where Φ is not differentiable. The run to 2 s stops there with a
  // SingularSystemError naming t* (1e-6: the zero is located on the step's interpolant to
  // round-off, the step itself lands within the integrator's tolerance of t*), the samples
  // up to the last accepted step delivered and none after; with the default tolerances, with vy ≠
  // 0, and with the rk78 and rk4 steppers (no dense output: the chord of the step) too. Without the
  // `singular` entry (the same file with it removed) the run would go on past t*.
  void appellHamelStopsWhereTheConstraintIsNotDifferentiable() {
    const auto system = bundled("appell_hamel");
    QVERIFY(system);
    QCOMPARE(system->info().singularities.size(), std::size_t(1));
    const double a = 0.2, g = 9.81;
    IntegratorOptions loose;
    IntegratorOptions rk78 = tight();
    rk78.method = Integrator::Rk78;
    IntegratorOptions rk4;
    rk4.method = Integrator::Rk4;
    rk4.step = 1e-3;
    struct Case {
      IntegratorOptions options;
      std::map<std::string, double> initial;
      double tolerance;
    };
    const std::vector<Case> cases = {{tight(), {}, 1e-6},
                                     {loose, {}, 1e-6},
                                     {tight(), {{"vx", 1.2}, {"vy", 1.6}}, 1e-6},
                                     {rk78, {}, 1e-6},
                                     {rk4, {}, 1e-3}};
    for (const Case& c : cases) {
      const double tStar = 2 * (1 + a * a) / (a * g);
      Simulation sim(system, DynamicsKind::Nonholonomic, Formulation::Multipliers, c.options);
      sim.setParameters(resolveParameters(*system, {{"a", a}}));
      sim.setState(0, initialState(sim.equations(), 0, c.initial));
      std::vector<double> times;
      bool stopped = false;
      try {
        sim.advance(2.0, 0.01, [&](double t, const double*) { times.push_back(t); });
      } catch (const SingularSystemError& e) {
        stopped = true;
        QVERIFY2(
            std::abs(e.time() - tStar) < c.tolerance,
            qPrintable(QString("stopped at %1, t* = %2").arg(e.time(), 0, 'g', 15).arg(tStar)));
        const std::string what = e.what();
        QVERIFY(what.find("t = 1.06") != std::string::npos);
        QVERIFY(what.find("not differentiable") != std::string::npos);
        QVERIFY(what.find('\n') == std::string::npos);
      }
      QVERIFY(stopped);
      // The samples before t*: t = 0, 0.01, …, 1.06 (dopri5 steps up to just short of t*; the
      // other steppers stop at the start of the step that would reach it, maybe 1.06).
      QVERIFY2(
          times.size() == 107 || (c.options.method != Integrator::Dopri5 && times.size() == 106),
          qPrintable(QString::number(times.size())));
      QVERIFY(times.back() < tStar);
      QVERIFY(sim.time() <= tStar);
      // Whatever the state left, the run does not go on past t*.
      bool again = false;
      try {
        sim.advance(2.0, 0.01, {});
      } catch (const SingularSystemError& e) {
        again = std::abs(e.time() - tStar) < c.tolerance;
      }
      QVERIFY(again);
    }
  }

  // appell_hamel: vakonomic dynamics runs (the state gains μ) and keeps Φ = 0.
  void appellHamelRunsVakonomic() {
    const auto system = bundled("appell_hamel");
    QVERIFY(system);
    const Run vak = run(system, 2.0, 0.5, {}, {}, tight(), DynamicsKind::Vakonomic);
    QCOMPARE(vak.states.front().size(), std::size_t(7));
    for (const Observables& o : vak.observables) QVERIFY(std::abs(o.phi[0]) < 1e-10);
    QVERIFY(std::isfinite(vak.states.back()[0]));
  }
};

QTEST_APPLESS_MAIN(ClassicsMiscTest)
#include "classics_misc_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
