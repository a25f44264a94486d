// The nonholonomic bracket of affine and time-dependent constraints
// (core/model/affine_bracket.*), on seed 002's Example VI.3, the ball rolling on a table that
// turns with Ω(t):
// - the quantities the example writes out, from its closed forms: ψ¹ = Ω y + p_x/m − r u_y/k²,
//   ψ² = −Ω x + p_y/m + r u_x/k², Z̄_1 = −∂/∂p_x + r ∂/∂u_y, Z̄_2 = −∂/∂p_y − r ∂/∂u_x (every
//   entry), 𝒞 = diag(−1/m − r²/k², −1/m − r²/k²) and 𝒞⁻¹ = −diag(m k²/(k² + m r²)) (k² = I);
// - along runs with constant and with time-varying Ω, ḟ = ∂f/∂t + {f, H} + λ̄_a Z̄_a(f) of every
//   coordinate function (q, p) equals the engine's own (q̇, ṗ) at the run's states to 1e-10;
//   likewise for the conveyor (affine and time-dependent), for the sleigh and the turntable
//   with damping forces (the Q terms), and for the linear constraints of the sleigh and the
//   ball on a fixed table;
// - the evolution is the bracket of the sections h + f and h (seed 002, Theorem V.8); at
//   states on B̄ the constraints are Casimirs, {h + f, h + ψ^a} = {h + f, h} + {h, h + ψ^a}
//   (this needs the 𝒞𝒞{ψ, ψ} term), and the bracket sees H' only on B̄ (H' + g ψ¹ gives the
//   same);
// - the blocks are shown only where the constraints are affine or depend on time.
#include "core/model/affine_bracket.h"

#include <ginac/ginac.h>

#include <QtTest>
#include <cmath>
#include <mutex>
#include <random>

#include "core/model/catalogue.h"
#include "core/model/derived_equations.h"
#include "core/model/hamiltonian_equations.h"
#include "core/model/model_file.h"
#include "core/model/symbolic_model.h"
#include "core/nh/dynamics.h"
#include "core/nh/simulation.h"
#include "tests/core/model/model_test_support.h"
#include "tests/core/model/symbolic_test_support.h"

namespace {

using GiNaC::ex;
using nh::model::HamiltonianEquations;
using nh::test::named;
using nh::test::same;
using nh::test::symbolOf;
using nh::test::valueAt;
using nh::test::withForces;

// The rates of the bracket against the engine's momentumRhs at every 0.25 s of a 10 s run
// (dop853, rtol 1e-12) of `model` with the parameter values `parameters`; the largest difference
// relative to each coordinate's scale of rates over the run.
double largestRateDifference(const std::shared_ptr<const nh::SystemModel>& model,
                             const std::vector<std::pair<std::string, double>>& parameters) {
  std::lock_guard lock(nh::model::ginacMutex());
  const HamiltonianEquations e = nh::model::deriveHamiltonianSymbolic(*model);
  const nh::model::AffineBracket b = nh::model::affineBracketOf(e);
  if (!b.formed) throw std::logic_error("no affine bracket: " + b.notFormedBecause);
  const auto& s = e.lagrangian;
  std::vector<double> values = model->defaultParameters();
  for (const auto& [name, value] : parameters)
    for (size_t j = 0; j < s.parameterNames.size(); ++j)
      if (s.parameterNames[j] == name) values[j] = value;
  auto eq = std::make_shared<const nh::EquationsOfMotion>(model, nh::DynamicsKind::Nonholonomic,
                                                          nh::Formulation::Multipliers, values);
  nh::IntegratorOptions options;
  options.method = nh::Integrator::Dop853;
  options.rtol = 1e-12;
  options.atol = 1e-14;
  nh::Simulation simulation(eq, options);
  std::vector<double> x = model->info().defaultCoordinates;
  x.insert(x.end(), model->info().defaultVelocities.begin(), model->info().defaultVelocities.end());
  eq->completeVelocities(simulation.workspace(), 0.0, x.data(), {});
  simulation.setState(0.0, x);
  const int n = static_cast<int>(s.q.size()), m = static_cast<int>(s.y.size());
  std::vector<double> scale(n + m, 1e-300), worst(n + m, 0);
  simulation.advance(10.0, 0.25, [&](double t, const double* state) {
    std::vector<double> z(n + m), dz(n + m);
    eq->toMomenta(simulation.workspace(), t, state, z.data());
    eq->momentumRhs(simulation.workspace(), t, z.data(), dz.data());
    GiNaC::exmap at{{s.t, t}};
    for (size_t j = 0; j < s.parameters.size(); ++j) at[s.parameters[j]] = values[j];
    for (int I = 0; I < n + m; ++I) at[b.z[I]] = z[I];
    for (int I = 0; I < n + m; ++I) {
      scale[I] = std::max(scale[I], std::abs(dz[I]));
      worst[I] = std::max(worst[I], std::abs(valueAt(b.rates[I], at) - dz[I]));
    }
  });
  double largest = 0;
  for (int I = 0; I < n + m; ++I) largest = std::max(largest, worst[I] / std::max(scale[I], 1.0));
  return largest;
}

}  // namespace

class AffineBracketTest : public QObject {
  Q_OBJECT

 private slots:
  // Seed 002, Example VI.3: ψ, Z̄, 𝒞 and 𝒞⁻¹ in closed form.
  void ballOnTurntableQuantities() {
    std::lock_guard lock(nh::model::ginacMutex());
    const HamiltonianEquations e =
        nh::model::deriveHamiltonianSymbolic(*named("ball_on_turntable"));
    const auto& b = e.affine;
    QVERIFY2(b.formed, b.notFormedBecause.c_str());
    QVERIFY(b.affine && b.timeDependent);
    const auto& s = e.lagrangian;
    const ex m = symbolOf(s.parameters, "m"), r = symbolOf(s.parameters, "r");
    const ex k2 = symbolOf(s.parameters, "inertia_ratio") * m * r * r, t = s.t;
    const ex Omega =
        symbolOf(s.parameters, "Omega0") + symbolOf(s.parameters, "Omega_rate") * t +
        symbolOf(s.parameters, "Omega_amp") * GiNaC::sin(symbolOf(s.parameters, "Omega_freq") * t);
    const ex x = symbolOf(s.q, "x"), y = symbolOf(s.q, "y");
    const ex px = symbolOf(e.p, "p_vx"), py = symbolOf(e.p, "p_vy");
    const ex ux = symbolOf(e.p, "p_wx"), uy = symbolOf(e.p, "p_wy");
    QCOMPARE(b.psi.size(), size_t{2});
    COMPARE_EX(b.psi[0], Omega * y + px / m - r / k2 * uy);
    COMPARE_EX(b.psi[1], -Omega * x + py / m + r / k2 * ux);
    // Z̄ in the velocities' order (vx, vy, wx, wy, wz): every entry.
    const std::vector<std::vector<ex>> Z = {{-1, 0, 0, r, 0}, {0, -1, -r, 0, 0}};
    QCOMPARE(s.velocityNames, (std::vector<std::string>{"vx", "vy", "wx", "wy", "wz"}));
    for (int a = 0; a < 2; ++a)
      for (int al = 0; al < 5; ++al) COMPARE_EX(b.Z[a][al], Z[a][al]);
    for (int a = 0; a < 2; ++a)
      for (int c = 0; c < 2; ++c) {
        COMPARE_EX(b.regularity(a, c), a == c ? -1 / m - r * r / k2 : ex(0));
        COMPARE_EX(b.regularityInverse(a, c), a == c ? -m * k2 / (k2 + m * r * r) : ex(0));
      }
  }

  // ḟ of every coordinate function from the bracket is the engine's along a run: Ω constant,
  // Ω growing, Ω oscillating with a drift; the conveyor's belt changing speed.
  void affineConstraintsFollowTheBracket() {
    const auto turntable = named("ball_on_turntable");
    QVERIFY(largestRateDifference(turntable, {}) < 1e-10);
    QVERIFY(largestRateDifference(turntable, {{"Omega_rate", 0.3}}) < 1e-10);
    const double varying = largestRateDifference(
        turntable, {{"Omega_rate", -0.2}, {"Omega_amp", 0.7}, {"Omega_freq", 2.0}});
    QVERIFY2(varying < 1e-10, std::to_string(varying).c_str());
    const double conveyor = largestRateDifference(named("ball_on_conveyor"), {});
    QVERIFY2(conveyor < 1e-10, std::to_string(conveyor).c_str());
  }

  // Forces enter ḟ and λ̄ (Q·∂f/∂p): a damped sleigh, a turntable with a damped spin.
  void forcesFollowTheBracket() {
    const double sleigh =
        largestRateDifference(withForces("chaplygin_sleigh", "{v: -0.3*v, omega: -0.2*omega}"), {});
    QVERIFY2(sleigh < 1e-10, std::to_string(sleigh).c_str());
    const double turntable = largestRateDifference(
        withForces("ball_on_turntable", "{wz: -0.4*wz, vx: -0.1*vx}"), {{"Omega_rate", 0.2}});
    QVERIFY2(turntable < 1e-10, std::to_string(turntable).c_str());
  }

  // Linear constraints: ∂ψ/∂t = 0 and the same evolution gives the motion.
  void linearConstraintsFollowTheBracket() {
    for (const char* name : {"chaplygin_sleigh", "ball_on_table"}) {
      const double d = largestRateDifference(named(name), {});
      QVERIFY2(d < 1e-10, (std::string(name) + ": " + std::to_string(d)).c_str());
    }
  }

  // ḟ = {h + f, h}_nh for a function f of every coordinate, and {h', h'} = 0.
  void evolutionIsTheBracketOfSections() {
    std::lock_guard lock(nh::model::ginacMutex());
    const HamiltonianEquations e =
        nh::model::deriveHamiltonianSymbolic(*named("ball_on_turntable"));
    const auto& b = e.affine;
    const ex& H = e.hamiltonian;
    ex f = e.lagrangian.t;
    for (size_t I = 0; I < b.z.size(); ++I) f += static_cast<int>(I + 1) * b.z[I] * b.z[I];
    COMPARE_EX(nh::model::sectionBracket(b, e.lagrangian.t, H, H + f, H),
               nh::model::evolution(b, e.lagrangian.t, H, f));
    COMPARE_EX(nh::model::sectionBracket(b, e.lagrangian.t, H, H + f, H + f), 0);
  }

  // At random states on B̄ (p = p(t, q, π)): the constraints are Casimirs of the bracket's
  // bilinear part, and H' matters only on B̄. Both need the 𝒞𝒞{ψ, ψ} term.
  void constraintsAreCasimirsOnTheConstraint() {
    std::lock_guard lock(nh::model::ginacMutex());
    const auto model = named("ball_on_turntable");
    const HamiltonianEquations e = nh::model::deriveHamiltonianSymbolic(*model);
    const auto& b = e.affine;
    const auto& s = e.lagrangian;
    const ex& H = e.hamiltonian;
    const auto bracket = [&](const ex& H1, const ex& H2) {
      return nh::model::sectionBracket(b, s.t, H, H1, H2);
    };
    const ex x = symbolOf(s.q, "x"), y = symbolOf(s.q, "y"), qw = symbolOf(s.q, "qw");
    const ex px = symbolOf(e.p, "p_vx"), uz = symbolOf(e.p, "p_wz"), uy = symbolOf(e.p, "p_wy");
    const ex f = x * px + y * y * uz + qw * uy + s.t * x;
    const ex g = 1 + x * x + uz;
    const ex other = y * px * px + qw * x;
    std::vector<ex> checks;
    for (const ex& psi : b.psi)
      checks.push_back(bracket(H + f, H + psi) - bracket(H + f, H) - bracket(H, H + psi));
    checks.push_back(bracket(H + f + g * b.psi[0], H + other) - bracket(H + f, H + other));
    checks.push_back(bracket(H + other, H + f + g * b.psi[1]) - bracket(H + other, H + f));
    std::mt19937 random(20261130);
    std::uniform_real_distribution<double> offset(-0.4, 0.4);
    const std::vector<double> parameters = {1.3, 0.2, 0.4, 0.9, 0.3, 0.5, 1.7, 0.1, 9.81, 0.0};
    for (int sample = 0; sample < 3; ++sample) {
      GiNaC::exmap at{{s.t, 0.7 + sample}};
      for (size_t j = 0; j < s.parameters.size(); ++j) at[s.parameters[j]] = parameters[j];
      for (size_t i = 0; i < s.q.size(); ++i)
        at[s.q[i]] = model->info().defaultCoordinates[i] + offset(random);
      for (const auto& pi : e.pi) at[pi] = offset(random);
      for (size_t a = 0; a < e.p.size(); ++a) at[e.p[a]] = valueAt(e.momentumOnConstraint[a], at);
      for (const ex& psi : b.psi) QVERIFY(std::abs(valueAt(psi, at)) < 1e-12);
      const double size = std::abs(valueAt(bracket(H + f, H + other), at)) + 1;
      for (const ex& check : checks) {
        const double v = valueAt(check, at);
        QVERIFY2(std::abs(v) < 1e-10 * size, qPrintable(QString::number(v)));
      }
    }
  }

  // `nhsim equations --hamiltonian` shows the blocks for the turntable, not for the sleigh.
  void blocksShownForAffineConstraints() {
    const auto titles = [](const std::string& name) {
      std::string all;
      for (const auto& block : nh::model::deriveHamiltonianEquations(*named(name)).blocks)
        all += block.title + "\n" + block.plain + "\n";
      return all;
    };
    const std::string turntable = titles("ball_on_turntable");
    QVERIFY((turntable.find("Projector P") != std::string::npos));
    QVERIFY((turntable.find("{h', h''}_nh = ") != std::string::npos));
    QVERIFY((turntable.find("ψ¹ = ") != std::string::npos));
    QVERIFY((turntable.find("𝒞") != std::string::npos));
    QVERIFY((titles("chaplygin_sleigh").find("Projector P") == std::string::npos));
  }
};

QTEST_GUILESS_MAIN(AffineBracketTest)
#include "affine_bracket_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
