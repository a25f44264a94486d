// The model-only systems of resources/systems/ against independent references: closed
// forms, and the classical (non-algebroid) equations integrated with scipy. The numbers
// below were printed by tests/core/model/formula_systems_reference.py (numpy, scipy, sympy;
// DOP853 with rtol = atol = 1e-12, or the closed form, which the script checks against such
// an integration to 1e-10); the derivations are summarised next to them. The suites need
// no python.
//
// Tolerance of the comparisons with the references: the engine runs Dormand–Prince 5(4) at
// rtol 1e-12, atol 1e-14 here and scipy DOP853 at 1e-12, so each is accurate to ~1e-11
// over these few seconds; 1e-9 leaves a margin of a hundred and still catches any change of
// the equations (a wrong sign or factor moves these states by ≥ 1e-3).
#include <QtTest>
#include <array>
#include <cmath>
#include <map>
#include <random>

#include "core/model/catalogue.h"
#include "core/model/model_data.h"
#include "core/model/model_file.h"
#include "core/nh/scenario.h"
#include "core/nh/simulation.h"
#include "tests/core/model/model_test_support.h"

using namespace nh;

namespace {

constexpr double kReferenceTolerance = 1e-9;

using test::bundled;
using test::indexOf;
using test::tight;

struct Sample {
  double t;
  std::vector<double> values;  // of the names listed with the reference
  std::vector<double> lambda;
};

struct Run {
  std::vector<double> times;
  std::vector<std::vector<double>> states;
  std::vector<Observables> observables;
};

Run run(const std::shared_ptr<const SystemModel>& system, double tEnd, double dtOut,
        DynamicsKind kind = DynamicsKind::Nonholonomic,
        Formulation formulation = Formulation::Multipliers,
        const std::map<std::string, double>& initial = {}) {
  Simulation sim(system, kind, formulation, tight());
  const std::vector<double> x0 = initialState(sim.equations(), 0, initial);
  sim.setState(0, x0);
  Run r;
  auto record = [&](double t, const double* x) {
    r.times.push_back(t);
    r.states.emplace_back(x, x + sim.equations().stateSize());
    Observables o;
    sim.equations().observe(sim.workspace(), t, x, o);
    r.observables.push_back(o);
  };
  record(0, x0.data());
  sim.advance(tEnd, dtOut, record);
  return r;
}

// Compares a run with reference samples at their times (which must be output times).
void compareWithReference(const SystemModel& system, const Run& r,
                          const std::vector<std::string>& names,
                          const std::vector<Sample>& reference) {
  for (const Sample& s : reference) {
    std::size_t i = 0;
    while (i < r.times.size() && std::abs(r.times[i] - s.t) > 1e-9) ++i;
    QVERIFY2(i < r.times.size(), "reference time not among the output times");
    for (std::size_t j = 0; j < names.size(); ++j) {
      const int at = indexOf(system, names[j]);
      QVERIFY(at >= 0);
      const double d = std::abs(r.states[i][at] - s.values[j]);
      QVERIFY2(d < kReferenceTolerance, qPrintable(QString("%1 at t = %2 off by %3")
                                                       .arg(QString::fromStdString(names[j]))
                                                       .arg(s.t)
                                                       .arg(d, 0, 'g', 3)));
    }
    QCOMPARE(std::size_t(r.observables[i].lambda.size()), s.lambda.size());
    for (std::size_t c = 0; c < s.lambda.size(); ++c) {
      const double d = std::abs(r.observables[i].lambda[c] - s.lambda[c]);
      QVERIFY2(d < kReferenceTolerance,
               qPrintable(
                   QString("lambda_%1 at t = %2 off by %3").arg(c + 1).arg(s.t).arg(d, 0, 'g', 3)));
    }
  }
}

double largestResidual(const Run& r) {
  double worst = 0;
  for (const Observables& o : r.observables) {
    if (o.phi.size()) worst = std::max(worst, o.phi.cwiseAbs().maxCoeff());
    if (o.g.size()) worst = std::max(worst, o.g.cwiseAbs().maxCoeff());
  }
  return worst;
}

}  // namespace

class FormulaSystemsTest : public QObject {
  Q_OBJECT
 private slots:
  // 1. A nonlinear constraint, |v| = v0, under gravity (m = 1, g = 9.81, v0 = 2.5; start at
  // the origin with v = (1.2, 0.9, 2.0)). Chetaev: m v̇ = −m g e_z + 2 λ v, and d/dt|v|² = 0
  // gives λ = m g vz / (2 v0²). The direction u = v/v0 keeps its horizontal heading h and
  //   u_z = −tanh τ,  τ = g t / v0 + τ0,  τ0 = −atanh(u_z(0)),
  //   z = −(v0²/g)(ln cosh τ − ln cosh τ0),  s = (v0²/g)(atan sinh τ − atan sinh τ0),
  // with s the horizontal distance along h (python: constant_speed()).
  void constantSpeedParticleFollowsTheClosedForm() {
    const auto system = bundled("constant_speed_particle");
    QVERIFY(system);
    QCOMPARE(system->k(), 1);
    const std::vector<Sample> reference = {
        {0.2,
         {0.3152447762721553, 0.23643358220411648, 0.2945808496172484, 1.9054070463015937,
          1.4290552847261955, 0.75975323697919728},
         {0.59625434038127401}},
        {0.5,
         {0.86640906126259598, 0.64980679594694701, 0.11269648787623503, 1.4321974801519997,
          1.0741481101139998, -1.7449974829164612},
         {-1.369474024592839}},
        {1.0,
         {1.2128740250066459, 0.9096555187549844, -1.0352469003797899, 0.2363120791960642,
          0.17723405939704817, -2.4824876010598071},
         {-1.9482562693117367}},
    };
    for (Formulation f : {Formulation::Multipliers, Formulation::GibbsAppell}) {
      const Run r = run(system, 1.0, 0.1, DynamicsKind::Nonholonomic, f);
      compareWithReference(*system, r, {"x", "y", "z", "vx", "vy", "vz"}, reference);
      if (QTest::currentTestFailed()) return;
      // The speed stays v0 and the reaction only turns the velocity: E = ½ m v0² + m g z.
      QVERIFY(largestResidual(r) < 1e-10);
      for (std::size_t i = 0; i < r.times.size(); ++i)
        QVERIFY(std::abs(r.observables[i].energy - (0.5 * 2.5 * 2.5 + 9.81 * r.states[i][2])) <
                1e-10);
    }
  }

  // 2. A time-dependent affine constraint: a ball (m = 1, r = 0.1, I = 0.4 m r²) rolling on
  // a belt with speed u(t) = U0 + A sin(f t) (U0 = 0.5, A = 0.3, f = 2) rising at slope 0.1,
  // vx − r ωy = u(t), vy + r ωx = 0; starting at the origin with v = (0.5, 0.2), ωz = 1.
  // Newton–Euler with the friction (λ1, λ2): m ẍ = −m g sin(slope) + λ1, I ω̇y = −r λ1,
  // so λ1 = m κ (u̇ + g sin(slope)), κ = I/(I + m r²), λ2 = 0 and
  //   vx = vx0 + κ (u − u(0)) − (1 − κ) g sin(slope) t,
  //   x = vx0 t + κ (U0 t + A (1 − cos f t)/f − u(0) t) − ½ (1 − κ) g sin(slope) t²
  // (python: conveyor(), which also integrates the Newton–Euler equations).
  void ballOnConveyorFollowsTheClosedForm() {
    const auto system = bundled("ball_on_conveyor");
    QVERIFY(system);
    const std::vector<Sample> reference = {
        {1.0,
         {0.21091850110009752, 0.2, -0.12160723291878739, 0.2, -2, -8.943964609664917, 1},
         {0.20847934725059974, 0}},
        {2.0,
         {-0.32822358382782268, 0.4, -0.96396281003408557, 0.2, -2, -12.36922061441707, 1},
         {0.16776561279634783, 0}},
        {3.0,
         {-1.6462545679094649, 0.6, -1.6225909369285885, 0.2, -2, -20.387662874689106, 1},
         {0.44441942551302976, 0}},
    };
    for (Formulation f : {Formulation::Multipliers, Formulation::GibbsAppell}) {
      const Run r = run(system, 3.0, 0.5, DynamicsKind::Nonholonomic, f);
      compareWithReference(*system, r, {"x", "y", "vx", "vy", "wx", "wy", "wz"}, reference);
      if (QTest::currentTestFailed()) return;
      QVERIFY(largestResidual(r) < 1e-10);
    }
    // It is the belt's changes of speed that move the ball: on a level belt at constant
    // speed (A = 0) the ball rolls on at its own velocity, faster than the belt here.
    Simulation sim(system, DynamicsKind::Nonholonomic, Formulation::Multipliers, tight());
    sim.setParameters(resolveParameters(*system, {{"A", 0}, {"slope", 0}}));
    sim.setState(0, initialState(sim.equations(), 0, {{"vx", 1.0}}));
    sim.advance(1.0, 0.5, [](double, const double*) {});
    QVERIFY(std::abs(sim.state()[indexOf(*system, "vx")] - 1.0) < 1e-12);
    QVERIFY(std::abs(sim.state()[indexOf(*system, "x")] - 1.0) < 1e-12);
  }

  // Seed 000's Example 1(c), the ball on a table without friction: no constraint, so the
  // centre moves with the constant acceleration −g sin(tilt) along x, ω stays as it was and
  // the attitude turns uniformly about it, q(t) = (cos(|ω| t/2), sin(|ω| t/2) ω/|ω|) ⊗ q0 (ω
  // in the space frame).
  void slidingBallMovesFreely() {
    const auto system = bundled("sliding_ball");
    QVERIFY(system);
    const double tilt = 0.2, g = 9.81, w[3] = {3.0, -1.0, 2.0};
    Simulation sim(system, DynamicsKind::Nonholonomic, Formulation::Multipliers, tight());
    sim.setParameters(resolveParameters(*system, {{"tilt", tilt}}));
    const std::map<std::string, double> start = {{"x", 0.6},   {"y", -0.1},  {"vx", 0.5},
                                                 {"vy", 0.2},  {"wx", w[0]}, {"wy", w[1]},
                                                 {"wz", w[2]}, {"qw", 0.8},  {"qx", 0.6}};
    sim.setState(0, initialState(sim.equations(), 0, start));
    const double speed = std::sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    sim.advance(3.0, 1.0, [&](double t, const double* x) {
      const auto at = [&](const char* name) { return x[indexOf(*system, name)]; };
      QVERIFY(std::abs(at("x") - (0.6 + 0.5 * t - 0.5 * g * std::sin(tilt) * t * t)) < 1e-9);
      QVERIFY(std::abs(at("y") - (-0.1 + 0.2 * t)) < 1e-9);
      QVERIFY(std::abs(at("wx") - w[0]) + std::abs(at("wy") - w[1]) + std::abs(at("wz") - w[2]) <
              1e-9);
      const double c = std::cos(speed * t / 2), s = std::sin(speed * t / 2) / speed;
      // (c, s ω) ⊗ (0.8, 0.6, 0, 0)
      const double expected[4] = {0.8 * c - 0.6 * s * w[0], 0.6 * c + 0.8 * s * w[0],
                                  0.8 * s * w[1] + 0.6 * s * w[2], 0.8 * s * w[2] - 0.6 * s * w[1]};
      const char* names[4] = {"qw", "qx", "qy", "qz"};
      for (int k = 0; k < 4; ++k) QVERIFY2(std::abs(at(names[k]) - expected[k]) < 1e-9, names[k]);
    });
  }

  // 3. A Lie algebra with its structure constants given, the attitude carried along: the
  // Suslov problem. I = [[2, 0, 0.5], [0, 3, 0.3], [0.5, 0.3, 4]], ω(0) = (1, 0, 0), identity
  // attitude. sympy solves I ω̇ = (I ω) × ω + λ e3, ω3 = 0 for ω̇1, ω̇2, λ; scipy integrates
  // them with Ṙ = R [ω]× (python: suslov()). Energy ½ ωᵀ I ω = 1 is conserved.
  void suslovFollowsEulersEquations() {
    const auto system = bundled("suslov");
    QVERIFY(system);
    QCOMPARE(system->n(), 4);
    QCOMPARE(system->m(), 3);
    // The structure constants as given: C^k_ij = ε_ijk, C[γ + m(α + mβ)] = C^γ_αβ.
    const model::ModelData& data = model::asFormula(*system)->data();
    QVERIFY(data.structureGiven);
    QVERIFY(system->info().constantStructure);
    std::array<double, 27> C;
    const std::vector<double> p = system->defaultParameters();
    const double attitude[4] = {0.3, -0.5, 0.1, 0.8};  // constant: any will do
    system->structure(p.data(), attitude, C.data());
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b)
        for (int c = 0; c < 3; ++c) {
          const double epsilon = (a - b) * (b - c) * (c - a) / 2.0;  // ε_abc
          QCOMPARE(C[c + 3 * (a + 3 * b)], epsilon);
        }
    const std::vector<Sample> reference = {
        {1.0,
         {0.97738232902998767, 0.17267268245617151, 0, 0.8784798522408408, 0.47596399063702466,
          0.041007267974385718, 0.0070592346470814389},
         {0.19826196353768433}},
        {2.0,
         {0.90560926246775042, 0.34628684038199026, 0, 0.5536728229394744, 0.81816194326881586,
          0.14554792909934708, 0.053602612376890353},
         {0.31582132958590126}},
        {3.0,
         {0.78767944886759611, 0.5030315336912391, 0, 0.12721300582702283, 0.94397500408413604,
          0.25890908659425238, 0.16029387914578261},
         {0.37062987052178387}},
    };
    for (Formulation f : {Formulation::Multipliers, Formulation::GibbsAppell}) {
      const Run r = run(system, 3.0, 0.5, DynamicsKind::Nonholonomic, f);
      compareWithReference(*system, r, {"w1", "w2", "w3", "qw", "qx", "qy", "qz"}, reference);
      if (QTest::currentTestFailed()) return;
      for (const Observables& o : r.observables) QVERIFY(std::abs(o.energy - 1.0) < 1e-10);
    }
    // In the long run ω settles on a steady rotation, I13 ω1 + I23 ω2 = 0 (the reference is
    // at 2.0e-4 from it at t = 40: python, integrated further), on the same energy ellipse.
    const Run longRun = run(system, 40.0, 10.0);
    const double* w = longRun.states.back().data() + system->n();
    QVERIFY(std::abs(0.5 * w[0] + 0.3 * w[1]) < 3e-4);
    QVERIFY(std::abs(w[0] - -0.43961718826018786) < 1e-8);
    QVERIFY(std::abs(w[1] - 0.73336517860539585) < 1e-8);
    QVERIFY(std::abs(longRun.observables.back().energy - 1.0) < 1e-9);
  }

  // 4. Hamel symbols derived from the anchor: a knife edge on an incline (alpha = 0.3, m = 1,
  // ω = 2, starting at rest at the origin, blade along x, x downhill) in body-frame
  // velocities (v, u, ω). By hand (and by sympy in python: knife_edge()), with
  // X_v = cos θ ∂x + sin θ ∂y, X_u = −sin θ ∂x + cos θ ∂y, X_ω = ∂θ:
  //   [X_v, X_u] = 0,  [X_v, X_ω] = −X_u,  [X_u, X_ω] = X_v.
  // Closed form (Bloch, ch. 1): θ = ω t, x = g sin(alpha)/(2ω²) sin²(ω t),
  // y = g sin(alpha)/(2ω²)(ω t − ½ sin 2ω t), v = g sin(alpha)/ω sin(ω t), and the blade's
  // sideways force λ = m g sin(alpha) sin θ + m ω v = 2 m g sin(alpha) sin(ω t).
  void knifeEdgeStructureIsDerivedAndMotionFollowsTheClosedForm() {
    const auto system = bundled("knife_edge_on_incline");
    QVERIFY(system);
    const model::ModelData& data = model::asFormula(*system)->data();
    QVERIFY(!data.structureGiven);
    QVERIFY(system->hasStructure());
    const int v = 0, u = 1, w = 2;  // velocities (v, u, omega)
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> angle(-4, 4);
    const std::vector<double> p = system->defaultParameters();
    for (int trial = 0; trial < 10; ++trial) {
      const double q[3] = {angle(rng), angle(rng), angle(rng)};
      std::array<double, 27> C;
      C.fill(7.0);
      system->structure(p.data(), q, C.data());
      std::array<double, 27> expected{};
      auto at = [](std::array<double, 27>& c, int g, int a, int b) -> double& {
        return c[g + 3 * (a + 3 * b)];
      };
      at(expected, u, v, w) = -1;  // [X_v, X_ω] = −X_u
      at(expected, u, w, v) = 1;
      at(expected, v, u, w) = 1;  // [X_u, X_ω] = X_v
      at(expected, v, w, u) = -1;
      for (int i = 0; i < 27; ++i) QVERIFY(std::abs(C[i] - expected[i]) < 1e-14);
    }
    const std::vector<Sample> reference = {
        {1.0,
         {0.29962505474672868, 0.86188897661739006, 2, 1.3180508199289946, 0},
         {5.2722032797159786}},
        {2.0,
         {0.20755409812123812, 1.2702639750565823, 4, -1.097005358243637, 0},
         {-4.3880214329745479}},
        {3.0,
         {0.028292230304633913, 2.2715120111130909, 6, -0.40502020091228669, 0},
         {-1.6200808036491468}},
    };
    for (Formulation f : {Formulation::Multipliers, Formulation::GibbsAppell}) {
      const Run r = run(system, 3.0, 0.5, DynamicsKind::Nonholonomic, f);
      compareWithReference(*system, r, {"x", "y", "theta", "v", "u"}, reference);
      if (QTest::currentTestFailed()) return;
      // Energy ½ m v² + ½ I ω² − m g sin(alpha) x is conserved (fixed plane, linear Φ).
      for (const Observables& o : r.observables)
        QVERIFY(std::abs(o.energy - r.observables.front().energy) < 1e-10);
    }
  }

  // 5. A holonomic constraint: the spherical pendulum in Cartesian coordinates (m = l = 1,
  // g = 9.81, start (0.6, 0, −0.8) with velocity (0, 1, 0)). Reference: the Euler–Lagrange
  // equations of L = ½ m l² (θ̇² + sin²θ φ̇²) + m g l cos θ (sympy), integrated by scipy in
  // spherical coordinates and mapped to Cartesian (python: pendulum()); the tension from
  // d/dt (x·v) = 0: λ = m (g z − |v|²)/(2 l²).
  void sphericalPendulumMatchesSphericalCoordinates() {
    const auto system = bundled("spherical_pendulum");
    QVERIFY(system);
    QCOMPARE(system->h(), 1);
    QCOMPARE(system->k(), 0);
    const std::vector<Sample> reference = {
        {1.0,
         {-0.58745333066190175, -0.11110040991379083, -0.8015954610719962, 0.0640800593274264,
          -1.0092387738686794, 0.092918187307579184},
         {-4.4474772096660855}},
        {2.0,
         {0.55080565594087316, 0.21554370875399431, -0.80632130010320191, -0.1382312333138227,
          1.0352201745855538, 0.18230530515735785},
         {-4.5170179310166665}},
        {3.0,
         {-0.49294519031343359, -0.30726804203435937, -0.81399716811007639, 0.23160630641855601,
          -1.0728064581938033, 0.26470598859208977},
         {-4.6299683287357718}},
    };
    for (Formulation f : {Formulation::Multipliers, Formulation::GibbsAppell}) {
      const Run r = run(system, 3.0, 0.5, DynamicsKind::Nonholonomic, f);
      compareWithReference(*system, r, {"x", "y", "z", "vx", "vy", "vz"}, reference);
      if (QTest::currentTestFailed()) return;
      QVERIFY(largestResidual(r) < 1e-10);
      // Energy and the angular momentum about the vertical, m (x vy − y vx), are conserved.
      for (std::size_t i = 0; i < r.times.size(); ++i) {
        const double* x = r.states[i].data();
        QVERIFY(std::abs(r.observables[i].energy - r.observables[0].energy) < 1e-10);
        QVERIFY(std::abs((x[0] * x[4] - x[1] * x[3]) - 0.6) < 1e-10);
      }
    }
    // A holonomic constraint: vakonomic and nonholonomic motions coincide (theory §3).
    const Run nonholonomic = run(system, 3.0, 0.5);
    const Run vakonomic = run(system, 3.0, 0.5, DynamicsKind::Vakonomic);
    for (std::size_t i = 0; i < nonholonomic.times.size(); ++i)
      for (int c = 0; c < 6; ++c)
        QVERIFY(std::abs(nonholonomic.states[i][c] - vakonomic.states[i][c]) < 1e-9);
  }
};

QTEST_APPLESS_MAIN(FormulaSystemsTest)
#include "formula_systems_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
