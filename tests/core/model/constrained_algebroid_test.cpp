// The algebroid of a system's constraints and the holonomy verdict
// (core/model/constrained_algebroid.*; seed 000 Example 2 and Theorem 7):
// - the Chaplygin sleigh, the rolling disks, the balls on a fixed and on a turning table and
//   the particle ż = y ẋ are nonholonomic, each with a bracket that leaves D;
// - the particle's projected bracket in closed form: X_vx = e_vx + y e_vz, X_vy = e_vy,
//   [X_vx, X_vy]_E = −e_vz, A of it −1, and its M-orthogonal projection onto D
//   −y/(1 + y²) X_vx;
// - models whose constraint is the derivative of a holonomic one are found holonomic: a
//   particle kept on a sphere (x ẋ + y ẏ + z ż = 0), a wheel-like angle tied to a coordinate
//   (θ̇ = ẋ), and an affine one, the sphere whose radius grows (x ẋ + y ẏ + z ż = 1/2, a Lie
//   affgebroid); changing the last one's right-hand side to depend on x makes it nonholonomic.
#include "core/model/constrained_algebroid.h"

#include <ginac/ginac.h>

#include <QtTest>

#include "core/model/catalogue.h"
#include "core/model/model_file.h"
#include "core/model/symbolic_model.h"
#include "tests/core/model/model_test_support.h"
#include "tests/core/model/symbolic_test_support.h"

namespace {

using GiNaC::ex;
using nh::test::named;
using nh::test::same;
using nh::test::symbolOf;
using nh::test::valueAt;

// A point mass in (x, y, z) or (x, y, th) with one constraint `constraint`.
std::shared_ptr<const nh::SystemModel> particle(const std::string& constraint,
                                                const std::string& third = "z") {
  const std::string v = "v" + third;
  const std::string text =
      "format: nonholonomic-lab-system\nversion: 1\nname: constrained\n"
      "title: a constrained particle\nparameters: []\n"
      "coordinates: [x, y, " +
      third + "]\nvelocities: [vx, vy, " + v + "]\nanchor: {x: vx, y: vy, " + third + ": " + v +
      "}\nlagrangian: 0.5*(vx*vx + vy*vy + " + v + "*" + v + ")\nconstraints:\n  - " + constraint +
      "\ninitial: {x: 0.6, y: 0.3, " + third + ": 0.2}\n";
  return nh::model::loadModelText(text, "constrained.yaml");
}

}  // namespace

class ConstrainedAlgebroidTest : public QObject {
  Q_OBJECT

 private slots:
  void rollingAndSkatingAreNonholonomic() {
    std::lock_guard lock(nh::model::ginacMutex());
    for (const char* name : {"chaplygin_sleigh", "rolling_disk", "rolling_disk_3d", "ball_on_table",
                             "ball_on_turntable", "nh_particle"}) {
      const auto g = nh::model::deriveConstrainedAlgebroid(*named(name));
      QVERIFY2(g.formed, (std::string(name) + ": " + g.notFormedBecause).c_str());
      QVERIFY2(!g.holonomic, name);
      QVERIFY2(g.verdict.starts_with("nonholonomic: ["), (name + (": " + g.verdict)).c_str());
      bool leaves = false;
      for (const auto& b : g.brackets) leaves = leaves || !b.inD;
      QVERIFY(leaves);
    }
  }

  void particleBracketInClosedForm() {
    std::lock_guard lock(nh::model::ginacMutex());
    const auto g = nh::model::deriveConstrainedAlgebroid(*named("nh_particle"));
    const auto& s = g.lagrangian;
    QCOMPARE(g.X.size(), size_t{2});
    QCOMPARE(g.brackets.size(), size_t{1});
    const ex y = s.q[1];
    QVERIFY(same(g.X[0][2], y) && same(g.X[0][0], 1) && same(g.X[1][1], 1));
    const auto& b = g.brackets[0];
    QVERIFY(same(b.value[0], 0) && same(b.value[1], 0) && same(b.value[2], -1));
    QVERIFY(same(b.outside[0], -1));
    QVERIFY(same(b.projected[0], -y / (1 + y * y)));
    QVERIFY(same(b.projected[1], 0));
  }

  void derivativesOfHolonomicConstraintsAreHolonomic() {
    std::lock_guard lock(nh::model::ginacMutex());
    const auto sphere = nh::model::deriveConstrainedAlgebroid(*particle("x*vx + y*vy + z*vz"));
    QVERIFY2(sphere.formed && sphere.holonomic, sphere.verdict.c_str());
    QVERIFY(sphere.verdict.find("subalgebroid") != std::string::npos);
    const auto wheel = nh::model::deriveConstrainedAlgebroid(*particle("vth - vx", "th"));
    QVERIFY2(wheel.formed && wheel.holonomic, wheel.verdict.c_str());
    const auto twisted = nh::model::deriveConstrainedAlgebroid(*particle("vth - x*vy", "th"));
    QVERIFY2(twisted.formed && !twisted.holonomic, twisted.verdict.c_str());
  }

  void affineHolonomicConstraintIsALieAffgebroid() {
    std::lock_guard lock(nh::model::ginacMutex());
    const auto growing =
        nh::model::deriveConstrainedAlgebroid(*particle("x*vx + y*vy + z*vz - 0.5"));
    QVERIFY2(growing.formed && growing.affine && growing.holonomic, growing.verdict.c_str());
    QVERIFY(growing.verdict.find("Lie affgebroid") != std::string::npos);
    const auto timed = nh::model::deriveConstrainedAlgebroid(*particle("vz - cos(t)"));
    QVERIFY2(timed.formed && timed.timeDependent && timed.holonomic, timed.verdict.c_str());
    // e0 = ∂/∂t + y0 with y0 = x e_vz: [e0, X_vx] = −e_vz leaves D.
    const auto skewed = nh::model::deriveConstrainedAlgebroid(*particle("vz - x"));
    QVERIFY2(skewed.formed && !skewed.holonomic, skewed.verdict.c_str());
    QVERIFY(skewed.verdict.starts_with("nonholonomic: [e0, "));
  }

  // Theorem 7 needs a skew bracket: the constrained ray on a general algebroid gets no verdict.
  void generalAlgebroidGetsNoVerdict() {
    std::lock_guard lock(nh::model::ginacMutex());
    const auto ray = nh::test::edited(
        "graded_index_ray", {{"lagrangian: 0.5*(vx*vx + vy*vy)",
                              "lagrangian: 0.5*(vx*vx + vy*vy)\nconstraints:\n  - vy - 0.6*vx"},
                             {"independent: [vx, vy]", "independent: [vx]"}});
    const auto g = nh::model::deriveConstrainedAlgebroid(*ray);
    QVERIFY(!g.formed);
    QVERIFY2(g.notFormedBecause.find("not skew") != std::string::npos, g.notFormedBecause.c_str());
    const auto d = nh::model::constrainedAlgebroidEquations(*named("central_force"));
    QVERIFY2(d.summary == "not formed: the system has no constraints", d.summary.c_str());
  }

  void blocksForInfo() {
    const auto d = nh::model::constrainedAlgebroidEquations(*named("chaplygin_sleigh"));
    QVERIFY(d.summary.starts_with("nonholonomic"));
    std::string all;
    for (const auto& block : d.blocks) all += block.title + "\n" + block.plain + "\n";
    QVERIFY2(all.find("Brackets that leave D") != std::string::npos, all.c_str());
    QVERIFY(all.find("Projected bracket") != std::string::npos);
    QVERIFY_THROWS_EXCEPTION(
        nh::InputError, nh::model::constrainedAlgebroidEquations(*named("rigid_body_control")));
  }
};

QTEST_GUILESS_MAIN(ConstrainedAlgebroidTest)
#include "constrained_algebroid_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
