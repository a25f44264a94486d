// The nonholonomic bracket of affine and time-dependent constraints
// (core/model/affine_bracket.*), on seed 002's Example VI.3, the ball rolling on a table that
// turns with Ω(t):
// - the quantities the example writes out, from its closed forms: ψ¹ = Ω y + p_x/m − r u_y/k²,
//   ψ² = −Ω x + p_y/m + r u_x/k², Z̄_1 = −∂/∂p_x + r ∂/∂u_y, Z̄_2 = −∂/∂p_y − r ∂/∂u_x,
//   𝒞 = diag(−1/m − r²/k², −1/m − r²/k²) and P's coefficient m k²/(k² + m r²) (k² = I);
// - along runs with constant and with time-varying Ω, ḟ = ∂f/∂t + {f, H} + λ̄_a Z̄_a(f) of every
//   coordinate function (q, p) equals the engine's own (q̇, ṗ) at the run's states to 1e-10;
// - the evolution is the bracket of the sections h + f and h (seed 002, Theorem V.8);
// - for linear constraints (the sleigh, the ball on a fixed table) the same evolution is the
//   engine's motion, and the blocks are shown only where the constraints are affine or
//   depend on time.
#include "core/model/affine_bracket.h"

#include <ginac/ginac.h>

#include <QtTest>
#include <cmath>

#include "core/model/catalogue.h"
#include "core/model/derived_equations.h"
#include "core/model/hamiltonian_equations.h"
#include "core/nh/dynamics.h"
#include "core/nh/simulation.h"

namespace {

using GiNaC::ex;
using nh::model::HamiltonianEquations;

std::shared_ptr<const nh::SystemModel> named(const std::string& name) {
  for (const auto& e : nh::catalogueEntries())
    if (e.system->name() == name) return e.system;
  throw std::logic_error("no system " + name);
}

GiNaC::symbol symbolOf(const std::vector<GiNaC::symbol>& symbols, const std::string& name) {
  for (const GiNaC::symbol& s : symbols)
    if (s.get_name() == name) return s;
  throw std::logic_error("no symbol " + name);
}

bool same(const ex& a, const ex& b) { return GiNaC::normal(a - b).is_zero(); }

#define COMPARE_EX(actual, expected)                                 \
  do {                                                               \
    std::ostringstream text;                                         \
    text << GiNaC::dflt << (actual) << "  expected  " << (expected); \
    QVERIFY2(same(actual, expected), text.str().c_str());            \
  } while (false)

double valueAt(const ex& e, const GiNaC::exmap& at) {
  const ex v = GiNaC::evalf(e.subs(at));
  if (!GiNaC::is_a<GiNaC::numeric>(v)) throw std::logic_error("not a number");
  return GiNaC::ex_to<GiNaC::numeric>(v).to_double();
}

// The rates of the bracket against the engine's momentumRhs at every 0.25 s of a 10 s run
// (dop853, rtol 1e-12) with the parameter values `parameters`; the largest difference relative
// to each coordinate's scale of rates over the run.
double largestRateDifference(const std::string& system,
                             const std::vector<std::pair<std::string, double>>& parameters) {
  const auto model = named(system);
  const HamiltonianEquations e = nh::model::deriveHamiltonianSymbolic(*model);
  if (!e.affine.formed) throw std::logic_error("no affine bracket: " + e.affine.notFormedBecause);
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
    for (int I = 0; I < n + m; ++I) at[e.affine.z[I]] = z[I];
    for (int I = 0; I < n + m; ++I) {
      scale[I] = std::max(scale[I], std::abs(dz[I]));
      worst[I] = std::max(worst[I], std::abs(valueAt(e.affine.rates[I], at) - dz[I]));
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
  // Seed 002, Example VI.3: ψ, Z̄, 𝒞 and the projector's coefficient in closed form.
  void ballOnTurntableQuantities() {
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
    const auto velocity = [&](const std::string& name) {
      for (size_t a = 0; a < s.velocityNames.size(); ++a)
        if (s.velocityNames[a] == name) return static_cast<int>(a);
      throw std::logic_error("no velocity " + name);
    };
    COMPARE_EX(b.Z[0][velocity("vx")], -1);
    COMPARE_EX(b.Z[0][velocity("wy")], r);
    COMPARE_EX(b.Z[1][velocity("vy")], -1);
    COMPARE_EX(b.Z[1][velocity("wx")], -r);
    COMPARE_EX(b.Z[0][velocity("wz")] + b.Z[0][velocity("vy")] + b.Z[0][velocity("wx")], 0);
    COMPARE_EX(b.regularity(0, 0), -1 / m - r * r / k2);
    COMPARE_EX(b.regularity(1, 1), -1 / m - r * r / k2);
    COMPARE_EX(b.regularity(0, 1), 0);
    COMPARE_EX(b.regularity(1, 0), 0);
    COMPARE_EX(-b.regularityInverse(0, 0), m * k2 / (k2 + m * r * r));
  }

  // ḟ of every coordinate function from the bracket is the engine's along a run: Ω constant,
  // Ω growing, Ω oscillating with a drift.
  void ballOnTurntableFollowsTheBracket() {
    QVERIFY(largestRateDifference("ball_on_turntable", {}) < 1e-10);
    QVERIFY(largestRateDifference("ball_on_turntable", {{"Omega_rate", 0.3}}) < 1e-10);
    const double varying = largestRateDifference(
        "ball_on_turntable", {{"Omega_rate", -0.2}, {"Omega_amp", 0.7}, {"Omega_freq", 2.0}});
    QVERIFY2(varying < 1e-10, std::to_string(varying).c_str());
  }

  // Linear constraints: ∂ψ/∂t = 0 and the same evolution gives the motion.
  void linearConstraintsFollowTheBracket() {
    for (const char* name : {"chaplygin_sleigh", "ball_on_table", "ball_on_conveyor"}) {
      const double d = largestRateDifference(name, {});
      QVERIFY2(d < 1e-10, (std::string(name) + ": " + std::to_string(d)).c_str());
    }
  }

  // ḟ = {h + f, h}_nh for a function f of every coordinate, and {h', h'} = 0.
  void evolutionIsTheBracketOfSections() {
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
