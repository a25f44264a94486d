// The Gibbs–Appell function and equations (core/model/gibbs_appell_equations.*):
// - seed 003's Example 7.2, the ball on a fixed table: on the constraint
//   G_L = ½ m (1 + ι)(v̇x² + v̇y²) + ½ m r² ι ẇz² (k² = ι r², unit mass in the paper) and
//   ẇ = 0;
// - solving (17) gives the explicit equations of the multipliers, ẏ = X ẇ + ẏ_p equal to the
//   derivation's ẏ in normal form, for systems with linear, affine, holonomic and no
//   constraints;
// - Gauss's principle of least constraint (seed 004, Prop. 2): at random states the engine's
//   accelerations are admissible (ẏ = X ẇ + ẏ_p) and minimise G_L − Q·ẏ among the admissible
//   ones (zero gradient in ẇ, larger at every perturbed ẇ);
// - the blocks, and a control model refused.
#include "core/model/gibbs_appell_equations.h"

#include <ginac/ginac.h>

#include <QtTest>
#include <random>

#include "core/model/catalogue.h"
#include "core/model/symbolic_model.h"
#include "core/nh/dynamics.h"
#include "tests/core/model/model_test_support.h"
#include "tests/core/model/symbolic_test_support.h"

namespace {

using GiNaC::ex;
using nh::test::named;
using nh::test::same;
using nh::test::symbolOf;
using nh::test::valueAt;

const char* const kSystems[] = {"chaplygin_sleigh",  "nh_particle",           "ball_on_table",
                                "ball_on_turntable", "ball_on_conveyor",      "spherical_pendulum",
                                "rigid_body",        "knife_edge_on_incline", "suslov"};

// The systems, and the sleigh with a damping force (Q enters a, Υ and Gauss's principle).
std::vector<std::shared_ptr<const nh::SystemModel>> systems() {
  std::vector<std::shared_ptr<const nh::SystemModel>> out;
  for (const char* name : kSystems) out.push_back(named(name));
  out.push_back(nh::test::withForces("chaplygin_sleigh", "{v: -0.3*v, omega: -0.2*omega + 0.1}"));
  return out;
}

}  // namespace

class GibbsAppellEquationsTest : public QObject {
  Q_OBJECT

 private slots:
  void ballOnTableAsSeed003Example72() {
    std::lock_guard lock(nh::model::ginacMutex());
    const auto g = nh::model::deriveGibbsAppellSymbolic(*named("ball_on_table"));
    QVERIFY2(g.formed, g.notFormedBecause.c_str());
    const auto& s = g.lagrangian;
    const ex m = symbolOf(s.parameters, "m"), r = symbolOf(s.parameters, "r");
    const ex iota = symbolOf(s.parameters, "inertia_ratio");
    const ex vx = symbolOf(g.accelerations, "v\u0307x");
    const ex vy = symbolOf(g.accelerations, "v\u0307y");
    const ex wz = symbolOf(g.accelerations, "w\u0307z");  // combining dot, as printed
    const ex flat = g.constrainedFunction.subs(symbolOf(s.parameters, "tilt") == 0);
    QVERIFY(same(flat, m * (1 + iota) * (vx * vx + vy * vy) / 2 + m * r * r * iota * wz * wz / 2));
  }

  void solutionIsTheExplicitEquations() {
    for (const auto& system : systems()) {
      const char* name = system->name().c_str();
      std::lock_guard lock(nh::model::ginacMutex());
      const auto g = nh::model::deriveGibbsAppellSymbolic(*system);
      QVERIFY2(g.formed, (std::string(name) + ": " + g.notFormedBecause).c_str());
      QVERIFY2(g.lagrangian.solved, name);
      GiNaC::exmap at;
      for (size_t I = 0; I < g.independent.size(); ++I)
        at[g.accelerations[g.independent[I]]] = g.solution[I];
      for (size_t a = 0; a < g.accelerations.size(); ++a)
        QVERIFY2(same(g.onConstraint[a].subs(at), g.lagrangian.ydot(a, 0)),
                 (std::string(name) + ": " + g.accelerations[a].get_name()).c_str());
    }
  }

  void engineFollowsGausssPrinciple() {
    std::mt19937 random(20261130);
    std::uniform_real_distribution<double> offset(-0.3, 0.3), speed(-1.0, 1.0);
    for (const auto& system : systems()) {
      const char* name = system->name().c_str();
      std::lock_guard lock(nh::model::ginacMutex());
      const auto g = nh::model::deriveGibbsAppellSymbolic(*system);
      const auto& s = g.lagrangian;
      const nh::EquationsOfMotion eq(system, nh::DynamicsKind::Nonholonomic);
      nh::EquationsWorkspace ws(eq);
      const int n = static_cast<int>(s.q.size()), m = static_cast<int>(s.y.size());
      const std::vector<double> parameters = system->defaultParameters();
      for (int sample = 0; sample < 4; ++sample) {
        std::vector<double> x(n + m), dx(n + m);
        for (int i = 0; i < n; ++i) x[i] = system->info().defaultCoordinates[i] + offset(random);
        for (int a = 0; a < m; ++a) x[n + a] = speed(random);
        eq.project(ws, 0.4, x.data());
        eq.rhs(ws, 0.4, x.data(), dx.data());
        GiNaC::exmap at{{s.t, 0.4}};
        for (size_t j = 0; j < s.parameters.size(); ++j) at[s.parameters[j]] = parameters[j];
        for (int i = 0; i < n; ++i) at[s.q[i]] = x[i];
        for (int a = 0; a < m; ++a) at[s.y[a]] = x[n + a];
        ex constraint = g.constrainedFunction;  // G_L − Q·ẏ on the constraint, of ẇ
        for (int a = 0; a < m; ++a) constraint -= s.forces[a] * g.onConstraint[a];
        std::vector<double> w;
        for (int I : g.independent) {
          w.push_back(dx[n + I]);
          at[g.accelerations[I]] = dx[n + I];
        }
        double scale = 1;
        for (int a = 0; a < m; ++a) scale = std::max(scale, std::abs(dx[n + a]));
        for (int a = 0; a < m; ++a)  // admissible
          QVERIFY2(std::abs(valueAt(g.onConstraint[a], at) - dx[n + a]) < 1e-9 * scale, name);
        const double least = valueAt(constraint, at);
        for (size_t I = 0; I < w.size(); ++I) {
          const auto& wI = g.accelerations[g.independent[I]];
          QVERIFY2(std::abs(valueAt(constraint.diff(wI), at)) < 1e-9 * scale * scale, name);
          for (const double step : {-1e-3, 1e-3}) {
            GiNaC::exmap moved = at;
            moved[wI] = w[I] + step;
            QVERIFY2(valueAt(constraint, moved) > least, name);
          }
        }
      }
    }
  }

  void blocksAndRefusals() {
    const auto d = nh::model::gibbsAppellEquations(*named("chaplygin_sleigh"));
    std::string all;
    for (const auto& block : d.blocks) all += block.title + "\n" + block.plain + "\n";
    QVERIFY2(all.find("omega' = -m*a*v*omega/(m*a^2 + I)") != std::string::npos, all.c_str());
    QVERIFY(all.find("G_L = ") != std::string::npos);
    QVERIFY_THROWS_EXCEPTION(nh::InputError,
                             nh::model::gibbsAppellEquations(*named("rigid_body_control")));
    const auto appell = nh::model::gibbsAppellEquations(*named("appell_hamel"));
    QVERIFY(appell.blocks.empty());
    QVERIFY(!appell.notes.empty() && appell.notes.back().starts_with("G_L not shown: "));
  }
};

QTEST_GUILESS_MAIN(GibbsAppellEquationsTest)
#include "gibbs_appell_equations_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
