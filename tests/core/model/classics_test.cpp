// The classics of resources/systems/ that roll a rigid body with a quaternion attitude
// (rattleback, chaplygin_sphere) against an independent derivation and their integrals. The
// reference numbers were printed by tests/core/model/classics_reference.py: the Newton–Euler
// equations of a rigid body touching the plane at a point at rest (Kane & Levinson 1982;
// Garcia & Hubbard 1988), in body axes,
//   (I + m (|r|² 1 − r rᵀ)) ω̇ = −ω × Iω + m r × (−ω × ṙ − ω × (ω × r) + g γ),
// r = contact point − mass centre, γ = up in body axes, and the contact force
// F = m (a_G + g e_z), integrated with scipy DOP853 at rtol = atol = 1e-13. The suite needs
// no python.
//
// Tolerance of the comparisons with the references: 1e-8. The engine runs Dormand–Prince
// 5(4) at rtol 1e-12, atol 1e-14 and differs from the reference by ≤ 5e-10 at t = 3 s (the
// rattleback's rocking, ω1 and ω2 of order 1, is the least accurate); a wrong sign or
// factor in the equations moves these states by ≥ 1e-4.
#include <QtTest>
#include <array>
#include <cmath>
#include <map>

#include "core/model/catalogue.h"
#include "core/model/model_file.h"
#include "core/nh/scenario.h"
#include "core/nh/simulation.h"
#include "tests/core/model/model_test_support.h"

using namespace nh;

namespace {

constexpr double kReferenceTolerance = 1e-8;

using test::bundled;
using test::indexOf;
using test::tight;

// The state order of both systems: x y qw qx qy qz | vx vy w1 w2 w3.
enum { X, Y, QW, QX, QY, QZ, VX, VY, W1, W2, W3 };

void checkStateOrder(const SystemModel& system) {
  const SystemInfo& info = system.info();
  QCOMPARE(info.coordinates, (std::vector<std::string>{"x", "y", "qw", "qx", "qy", "qz"}));
  QCOMPARE(info.velocities, (std::vector<std::string>{"vx", "vy", "w1", "w2", "w3"}));
  QCOMPARE(info.stateOrder, (std::vector<std::string>{"x", "y", "qw", "qx", "qy", "qz", "vx", "vy",
                                                      "w1", "w2", "w3"}));
}

// R (body → space) of a quaternion (w, x, y, z), normalised.
Eigen::Matrix3d rotation(const double* q) {
  return Eigen::Quaterniond(q[0], q[1], q[2], q[3]).normalized().toRotationMatrix();
}

struct Run {
  std::vector<double> times;
  std::vector<std::vector<double>> states;
  std::vector<Observables> observables;
  std::vector<SceneFrame> scenes;
};

Run run(const std::shared_ptr<const SystemModel>& system, double tEnd, double dtOut,
        const std::map<std::string, double>& parameters = {},
        const std::map<std::string, double>& initial = {},
        Formulation formulation = Formulation::Multipliers) {
  Simulation sim(system, DynamicsKind::Nonholonomic, formulation, tight());
  const std::vector<double> p = resolveParameters(*system, parameters);
  sim.setParameters(p);
  const std::vector<double> x0 = initialState(sim.equations(), 0, initial);
  sim.setState(0, x0);
  Run r;
  auto record = [&](double t, const double* x) {
    r.times.push_back(t);
    r.states.emplace_back(x, x + sim.equations().stateSize());
    Observables o;
    sim.equations().observe(sim.workspace(), t, x, o);
    SceneFrame frame;
    system->scene(p.data(), t, x, x + system->n(), o.lambda.data(), frame);
    r.observables.push_back(o);
    r.scenes.push_back(frame);
  };
  record(0, x0.data());
  sim.advance(tEnd, dtOut, record);
  return r;
}

struct Sample {
  double t;
  std::array<double, 11> state;  // x y qw qx qy qz vx vy w1 w2 w3
  std::array<double, 3> force;   // the contact force on the body, space axes
};

const SceneArrow* arrowNamed(const SceneFrame& frame, const std::string& name) {
  for (const SceneArrow& a : frame.arrows)
    if (a.name == name) return &a;
  return nullptr;
}

// The state at the reference times, the multipliers (the horizontal contact force) and the
// scene's contact-force arrow.
void compareWithReference(const Run& r, const std::vector<Sample>& reference) {
  for (const Sample& s : reference) {
    std::size_t i = 0;
    while (i < r.times.size() && std::abs(r.times[i] - s.t) > 1e-9) ++i;
    QVERIFY2(i < r.times.size(), "reference time not among the output times");
    for (int j = 0; j < 11; ++j) {
      const double d = std::abs(r.states[i][j] - s.state[j]);
      QVERIFY2(d < kReferenceTolerance,
               qPrintable(QString("state %1 at t = %2 off by %3").arg(j).arg(s.t).arg(d)));
    }
    QCOMPARE(r.observables[i].lambda.size(), Eigen::Index(2));
    for (int c = 0; c < 2; ++c) {
      const double d = std::abs(r.observables[i].lambda[c] - s.force[c]);
      QVERIFY2(d < kReferenceTolerance,
               qPrintable(QString("lambda_%1 at t = %2 off by %3").arg(c + 1).arg(s.t).arg(d)));
    }
    const SceneArrow* arrow = arrowNamed(r.scenes[i], "contact force");
    QVERIFY(arrow);
    for (int c = 0; c < 3; ++c) {
      const double d = std::abs(arrow->vector[c] - s.force[c]);
      QVERIFY2(d < kReferenceTolerance,
               qPrintable(QString("contact force %1 at t = %2 off by %3").arg(c).arg(s.t).arg(d)));
    }
  }
}

// The vertical component of the angular velocity, ω·γ (γ = up in body axes).
double verticalSpin(const std::vector<double>& x) {
  const Eigen::Vector3d gamma = rotation(&x[QW]).row(2).transpose();
  return gamma.dot(Eigen::Vector3d(x[W1], x[W2], x[W3]));
}

// The first output time at which ω·γ has the opposite sign of its start (−1: never).
double firstReversal(const Run& r) {
  const double start = verticalSpin(r.states.front());
  for (std::size_t i = 0; i < r.times.size(); ++i)
    if (verticalSpin(r.states[i]) * start < 0) return r.times[i];
  return -1;
}

// Kane & Levinson's tilt: 0.01 rad about body x.
const std::map<std::string, double> kTilted = {{"qw", std::cos(0.005)}, {"qx", std::sin(0.005)}};

std::map<std::string, double> spinning(double w3) {
  std::map<std::string, double> init = kTilted;
  init["w3"] = w3;
  return init;
}

}  // namespace

class ClassicsTest : public QObject {
  Q_OBJECT
 private slots:
  // Defaults (Kane & Levinson's body, tilt 0.01 rad about body x, ω = (0, 0, 3)) against the
  // Newton–Euler equations (python: rattleback()). The multipliers are the horizontal
  // contact force; the arrow adds the normal force N = m (g + z̈_G) computed from the state
  // and λ (rattleback.yaml). Energy = kinetic + m g·(height of G) = 0.10576807777296796 at
  // the start (python, from the state), conserved to 1e-9 (rolling without slipping is
  // ideal; measured drift 2e-13 over 20 s).
  void rattlebackMatchesNewtonEuler() {
    const auto system = bundled("rattleback");
    QVERIFY(system);
    checkStateOrder(*system);
    const std::vector<Sample> reference = {
        {1.0,
         {2.0496389016741192e-05, 5.0711157455589646e-05, 0.071218282803672678,
          0.00017324291840648009, -0.0041402509303724916, 0.99745214647301228,
          -0.0012301948457310995, -0.0052179159506725737, 0.026525156317056802,
          -0.06338555466673583, 2.9961298074578573},
         {-0.096620163789809269, -0.054720648937613352, 9.7884755076525423}},
        {3.0,
         {0.00025922104468751461, 0.0003923606126209085, -0.29067824515979718,
          2.9468440501223818e-05, 0.0081416372022337993, -0.95678621993949131,
          -0.0018988490873075407, -0.01924700473119224, 0.82768143698226715, -1.1001582395251277,
          2.6927531906102096},
         {-2.3356177699472558, -2.654579809135043, 11.381558037952669}},
    };
    for (Formulation f : {Formulation::Multipliers, Formulation::GibbsAppell}) {
      const Run r = run(system, 3.0, 0.5, {}, {}, f);
      compareWithReference(r, reference);
      if (QTest::currentTestFailed()) return;
    }
    const Run r = run(system, 20.0, 0.5);
    QVERIFY(std::abs(r.observables.front().energy - 0.10576807777296796) < 1e-12);
    for (const Observables& o : r.observables) {
      QVERIFY(std::abs(o.energy - r.observables.front().energy) < 1e-9);
      QVERIFY(o.phi.cwiseAbs().maxCoeff() < 1e-10);
    }
  }

  // Spin reversal (Garcia & Hubbard 1988). With the defaults (delta < 0) ω·γ = 3 turns
  // negative at t = 5.0812 s (python: the first sign change, located by an event), while
  // ω·γ = −3 keeps its sign until t = 30.446 s. delta → −delta mirrors the body (y → −y),
  // which swaps the two: the same times with the senses exchanged. The output step is 0.01 s.
  void rattlebackReversesOneSenseOfSpin() {
    const auto system = bundled("rattleback");
    QVERIFY(system);
    const double delta = -0.5 * std::atan(0.4 / 14);
    for (double sense : {1.0, -1.0}) {
      const std::map<std::string, double> p = {{"delta", sense * delta}};
      const double reverses = firstReversal(run(system, 20.0, 0.01, p, spinning(3 * sense)));
      const double keeps = firstReversal(run(system, 20.0, 0.01, p, spinning(-3 * sense)));
      QVERIFY2(std::abs(reverses - 5.0812) < 0.011,
               qPrintable(QString("delta %1: reverses at %2").arg(sense * delta).arg(reverses)));
      QVERIFY2(
          keeps < 0,
          qPrintable(
              QString("delta %1: the other sense reverses at %2").arg(sense * delta).arg(keeps)));
    }
  }

  // delta = 0 removes the coupling between rocking and spin. An upright spin is steady:
  // ω = (0, 0, 3) stays exactly so. Tilted by 0.01 rad, the body rocks but keeps its spin
  // (|ω·γ| within 3 ± 0.01 over 20 s; measured 2.9992 … 2.99985, tilt ≤ 0.0112 rad) and the
  // two senses mirror each other exactly. With the defaults the same start reverses (above).
  void rattlebackWithoutMisalignmentKeepsItsSpin() {
    const auto system = bundled("rattleback");
    QVERIFY(system);
    const std::map<std::string, double> aligned = {{"delta", 0}};
    const Run upright = run(system, 10.0, 1.0, aligned, {{"qw", 1}, {"qx", 0}, {"w3", 3}});
    for (const auto& x : upright.states) {
      QVERIFY(std::abs(x[W1]) < 1e-12 && std::abs(x[W2]) < 1e-12);
      QVERIFY(std::abs(x[W3] - 3) < 1e-12);
      QVERIFY(std::abs(x[QX]) < 1e-12 && std::abs(x[QY]) < 1e-12);
    }
    const Run plus = run(system, 20.0, 0.05, aligned, spinning(3));
    const Run minus = run(system, 20.0, 0.05, aligned, spinning(-3));
    QCOMPARE(plus.times.size(), minus.times.size());
    for (std::size_t i = 0; i < plus.times.size(); ++i) {
      const double spin = verticalSpin(plus.states[i]);
      QVERIFY2(std::abs(spin - 3) < 0.01,
               qPrintable(QString("t = %1: ω·γ = %2").arg(plus.times[i]).arg(spin)));
      QVERIFY(std::abs(spin + verticalSpin(minus.states[i])) < 1e-8);
    }
  }

  // Defaults (identity attitude, ω = (0.5, 1, 8)) against the Newton–Euler equations
  // (python: chaplygin_sphere()); the contact force is (λ1, λ2, m g).
  void chaplyginSphereMatchesNewtonEuler() {
    const auto system = bundled("chaplygin_sphere");
    QVERIFY(system);
    checkStateOrder(*system);
    const std::vector<Sample> reference = {
        {1.0,
         {0.094940749331518429, -0.042164896376124937, -0.61582401718725088, -0.017711692409455155,
          -0.12246888921325359, -0.7781056785438949, 0.088756573046564799, -0.036588121593570569,
          -0.22742874084756184, 1.1754064295275333, 8.0293472649338131},
         {-0.064293599321793238, -0.042591049272119763, 9.8100000000000023}},
        {3.0,
         {0.28222716361967126, -0.13021620259239172, 0.90498943182603064, -0.070322215264652863,
          0.051626521278345633, -0.41639358379318658, 0.099606075176395539, -0.033911586225314025,
          -0.81820895200045007, -0.47296640118626926, 8.040838856408417},
         {-0.083037011242226733, 0.051904250438937538, 9.8100000000000058}},
    };
    for (Formulation f : {Formulation::Multipliers, Formulation::GibbsAppell}) {
      const Run r = run(system, 3.0, 0.5, {}, {}, f);
      compareWithReference(r, reference);
      if (QTest::currentTestFailed()) return;
    }
  }

  // Chaplygin's integrals: the angular momentum about the contact point,
  // K = I ω + m r² (ω − (ω·γ) γ) in body axes, is constant in space (R K), and the energy
  // ½ ωᵀ I ω + ½ m |v|² + m g r (= 1.149625 at the start) is conserved, to 1e-9 over 10 s
  // (measured 3e-15 and 5e-15).
  void chaplyginSphereConservesMomentumAboutTheContact() {
    const auto system = bundled("chaplygin_sphere");
    QVERIFY(system);
    const double m = 1, r = 0.1;
    const Eigen::Vector3d I(0.003, 0.004, 0.005);
    const Run run10 = run(system, 10.0, 0.1);
    const Eigen::Vector3d K0 =
        I.cwiseProduct(Eigen::Vector3d(0.5, 1, 8)) + m * r * r * Eigen::Vector3d(0.5, 1, 0);
    for (std::size_t i = 0; i < run10.times.size(); ++i) {
      const std::vector<double>& x = run10.states[i];
      const Eigen::Matrix3d R = rotation(&x[QW]);
      const Eigen::Vector3d w(x[W1], x[W2], x[W3]);
      const Eigen::Vector3d gamma = R.row(2).transpose();
      const Eigen::Vector3d K = I.cwiseProduct(w) + m * r * r * (w - w.dot(gamma) * gamma);
      QVERIFY2(
          (R * K - K0).norm() < 1e-9,
          qPrintable(
              QString("t = %1: |R K − K(0)| = %2").arg(run10.times[i]).arg((R * K - K0).norm())));
      QVERIFY(std::abs(run10.observables[i].energy - 1.149625) < 1e-9);
    }
    // The motion is not trivial: ω in space turns (by more than 0.1 rad/s here).
    const std::vector<double>& last = run10.states.back();
    const Eigen::Vector3d wEnd =
        rotation(&last[QW]) * Eigen::Vector3d(last[W1], last[W2], last[W3]);
    QVERIFY((wEnd - Eigen::Vector3d(0.5, 1, 8)).norm() > 0.1);
  }

  // With I1 = I2 = I3 the ball is balanced: R K = (I + m r²) ω_space − m r² (ω·e_z) e_z is
  // constant with ω·e_z constant, so ω in space is constant (to 1e-10 over 10 s) and the
  // centre moves on a straight line at constant velocity.
  void balancedChaplyginSphereKeepsItsAngularVelocity() {
    const auto system = bundled("chaplygin_sphere");
    QVERIFY(system);
    const Run r = run(system, 10.0, 0.5, {{"I1", 0.004}, {"I2", 0.004}, {"I3", 0.004}});
    for (const auto& x : r.states) {
      const Eigen::Vector3d w = rotation(&x[QW]) * Eigen::Vector3d(x[W1], x[W2], x[W3]);
      QVERIFY2((w - Eigen::Vector3d(0.5, 1, 8)).norm() < 1e-10,
               qPrintable(QString("|ω − ω(0)| = %1").arg((w - Eigen::Vector3d(0.5, 1, 8)).norm())));
      QVERIFY(std::abs(x[VX] - 0.1) < 1e-10 && std::abs(x[VY] + 0.05) < 1e-10);
    }
    QVERIFY(std::abs(r.states.back()[X] - 1.0) < 1e-9);
    QVERIFY(std::abs(r.states.back()[Y] + 0.5) < 1e-9);
  }
};

QTEST_APPLESS_MAIN(ClassicsTest)
#include "classics_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
