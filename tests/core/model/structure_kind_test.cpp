// What kind of algebroid a structure is (core/model/structure_kind.h): general when the
// bracket is not skew, skew when the anchor does not map brackets to brackets or the Jacobi
// identity fails on the basis, Lie otherwise; for model files and C++ systems alike.
#include "core/model/structure_kind.h"

#include <QtTest>
#include <string>

#include "core/model/catalogue.h"
#include "core/model/model_file.h"
#include "tests/core/model/model_test_support.h"

using namespace nh;
using nh::model::classifyStructure;
using nh::model::StructureKind;
using nh::test::bundled;

namespace {

model::StructureClassification ofText(const std::string& text) {
  return classifyStructure(*model::loadModelText(text, "kind.yaml"));
}

// Three velocities on one coordinate that the anchor does not move: only the constant
// bracket `structure` decides.
std::string constantBracket(const std::string& structure) {
  return "format: nonholonomic-lab-system\nversion: 1\nname: kind\ncoordinates: [x]\n"
         "velocities: [v1, v2, v3]\nanchor: {x: 0}\nstructure:\n" +
         structure + "lagrangian: 0.5*(v1^2 + v2^2 + v3^2)\n";
}

}  // namespace

class StructureKindTest : public QObject {
  Q_OBJECT

 private slots:
  // so(3) with the quaternion anchor of left-invariant fields; se(2) with the sleigh's and
  // Suslov's so(3): each declares the structure of the whole velocity space, a Lie algebra's
  // (their constraints are kept apart, as Φ), so each is a Lie algebroid.
  void bundledLieAlgebroids() {
    for (const char* name : {"rigid_body", "chaplygin_sleigh", "suslov", "knife_edge_on_incline"}) {
      const auto c = classifyStructure(*bundled(name));
      QVERIFY2(c.kind == StructureKind::Lie,
               qPrintable(QString(name) + ": " + QString::fromStdString(c.why)));
      QCOMPARE(model::describe(c), std::string("Lie algebroid"));
    }
  }

  // The C++ systems, recorded on the tape: the central force's q-dependent structure
  // (C^2_12 = −2/r, the Hamel symbols of its anchor) and the bicycle's constant anchor.
  void cxxSystems() {
    for (const char* name : {"central_force", "whipple_bicycle"}) {
      const auto c = classifyStructure(*findSystem(name));
      QVERIFY2(c.kind == StructureKind::Lie,
               qPrintable(QString(name) + ": " + QString::fromStdString(c.why)));
    }
  }

  // The bundled ray's bracket is not skew: [e_vx, e_vx] = −a e_vx − b e_vy ≠ 0.
  void generalAlgebroid() {
    const auto c = classifyStructure(*bundled("graded_index_ray"));
    QVERIFY(c.kind == StructureKind::General);
    QCOMPARE(model::describe(c), std::string("general algebroid: [e_vx, e_vx] ≠ 0"));
  }

  // The sleigh's constraint-adapted frame: velocities v (along the blade) and omega only,
  // the columns X_v, X_ω of the anchor. The bracket on them (here 0: the projection of
  // [X_ω, X_v] = X_u onto the allowed velocities) is skew, but the anchor does not map it
  // to [X_ω, X_v] = X_u ∉ span: Jacobi fails for sections f·e_a (theory: general algebroids).
  // The loader refuses such a structure unless the file says `structure_checked: false`.
  void constraintAdaptedFrameIsSkewNotLie() {
    const auto c = ofText(
        "format: nonholonomic-lab-system\nversion: 1\nname: sleigh_on_d\n"
        "coordinates: [x, y, theta]\nvelocities: [v, omega]\n"
        "anchor: {x: v*cos(theta), y: v*sin(theta), theta: omega}\n"
        "structure: []\nstructure_checked: false\nlagrangian: 0.5*(v^2 + omega^2)\n");
    QVERIFY(c.kind == StructureKind::Skew);
    QCOMPARE(model::describe(c), std::string("skew algebroid (the Jacobi identity fails): "
                                             "ρ[e_v, e_omega] ≠ [ρe_v, ρe_omega]"));
  }

  // [e1, e2] = e2, [e1, e3] = e1: [[e1, e2], e3] + [[e2, e3], e1] + [[e3, e1], e2]
  // = [e2, e3] + 0 − [e1, e2] = −e2 ≠ 0.
  void jacobiFailsOnTheBasis() {
    const auto c = classifyStructure(
        *model::loadModelText(constantBracket("  - {bracket: [v1, v2], equals: {v2: 1}}\n"
                                              "  - {bracket: [v1, v3], equals: {v1: 1}}\n"),
                              "kind.yaml"));
    QVERIFY(c.kind == StructureKind::Skew);
    QCOMPARE(c.why, std::string("Σ_cyclic [[e_v1, e_v2], e_v3] ≠ 0"));
    // so(3) on the same bundle: Jacobi holds.
    const auto lie =
        ofText(constantBracket("  - {bracket: [v1, v2], equals: {v3: 1}}\n"
                               "  - {bracket: [v2, v3], equals: {v1: 1}}\n"
                               "  - {bracket: [v3, v1], equals: {v2: 1}}\n"));
    QVERIFY(lie.kind == StructureKind::Lie);
  }

  // Both orders given with `skew: false` but skew after all: a Lie algebroid; one order of a
  // pair given with `skew: false` and not the other: general.
  void nonSkewEntriesThatAreSkew() {
    QVERIFY(ofText(constantBracket("  - {bracket: [v1, v2], equals: {v3: 1}, skew: false}\n"
                                   "  - {bracket: [v2, v1], equals: {v3: -1}, skew: false}\n"))
                .kind == StructureKind::Lie);
    const auto c =
        ofText(constantBracket("  - {bracket: [v1, v2], equals: {v3: 1}, skew: false}\n"));
    QVERIFY(c.kind == StructureKind::General);
    QCOMPARE(c.why, std::string("[e_v1, e_v2] ≠ −[e_v2, e_v1]"));
  }

  // A zero that only a trigonometric identity shows (normal() does not know
  // sin² + cos² = 1): the samples decide that C^3_12 + C^3_21 = sin² x + cos² x − 1 is 0.
  void trigonometricZeros() {
    QVERIFY(ofText(constantBracket(
                       "  - {bracket: [v1, v2], equals: {v3: sin(x)^2}, skew: false}\n"
                       "  - {bracket: [v2, v1], equals: {v3: cos(x)^2 - 1}, skew: false}\n"))
                .kind == StructureKind::Lie);
  }
};

QTEST_GUILESS_MAIN(StructureKindTest)
#include "structure_kind_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
