// The reference frame of a model file against its constraints (core/model/frame_check.cpp):
// a declared frame that satisfies them loads, shown exactly or at the sample states; one
// that does not is refused at `reference_frame`, naming the constraint and the residual,
// whether GiNaC shows it or the samples find it; without a declared frame, linear constraints
// have Γ = 0 and affine ones none.
#include <QtTest>
#include <string>

#include "core/model/model_file.h"
#include "particle_model.h"

namespace {

using nh::test::withLine;
const std::string& kGood = nh::test::kParticleModel;  // ż = y ẋ, a linear constraint
// The same constraint made affine, ż = y ẋ + 2.
std::string affine() { return withLine(kGood, "  - vz - y*vx", "  - vz - y*vx - 2"); }

}  // namespace

class FrameCheckTest : public QObject {
  Q_OBJECT

 private slots:
  // A declared reference frame that satisfies the constraints loads; without one, linear
  // constraints have Γ = 0 and affine ones none.
  void referenceFramesLoad() {
    const auto linear = nh::model::loadModelText(kGood, "particle.yaml");
    QVERIFY(linear->hasReferenceFrame());
    QVERIFY(!nh::model::loadModelText(affine(), "particle.yaml")->hasReferenceFrame());
    const auto framed = nh::model::loadModelText(
        affine() + "reference_frame: {vx: t, vz: 2 + y*t}\n", "particle.yaml");
    QVERIFY(framed->hasReferenceFrame());
    // An identity GiNaC's normal form does not know (sin² + cos² = 1) passes at the samples.
    QVERIFY(nh::model::loadModelText(
                kGood + "reference_frame: {vx: \"sin(t)^2 + cos(t)^2\", vz: y}\n", "particle.yaml")
                ->hasReferenceFrame());
    const double p[] = {1.0}, q[] = {0.1, 0.5, 0.2};
    double gamma[3];
    framed->referenceFrame(p, 3.0, q, gamma);
    QCOMPARE(gamma[0], 3.0);
    QCOMPARE(gamma[1], 0.0);
    QCOMPARE(gamma[2], 3.5);
  }

  void framesRefused_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("says");
    auto row = [](const char* name, const std::string& text, const char* says) {
      QTest::newRow(name) << QString::fromStdString(text) << says;
    };
    // A reference frame must be a velocity the constraints allow: Φ(t, q, Γ) = 0.
    row("violating a constraint", kGood + "reference_frame: {vx: 1}\n",
        "the frame does not satisfy constraints[1] at every t and q: Φ(t, q, Γ) = -y ≠ 0");
    // A frame valid near the initial state only (vz − y vx − 1 = 10 (y − 0.5)^12 at it) is
    // refused as GiNaC shows: the frame must satisfy the constraint at every t and q.
    row("valid near the start only",
        withLine(kGood, "  - vz - y*vx", "  - vz - y*vx - 1") +
            "reference_frame: {vz: \"1 + 10*(y - 0.5)^12\"}\n",
        "the frame does not satisfy constraints[1] at every t and q: Φ(t, q, Γ) = ");
    // Where GiNaC cannot decide (sin¹²), at states moved by up to 5 from the initial one:
    // 0.001 sin(x)^12 is below 1e-9 within 0.1 of x = 0 and 3e-8 at x = 0.5 sin(2.1).
    row("wrong away from the start, with functions",
        kGood + "reference_frame: {vx: 1, vz: \"y + 0.001*sin(x)^12\"}\n",
        "the frame does not satisfy constraints[1]: Φ(t, q, Γ) = ");
    // With an affine constraint, Γ = 0 is no frame: a declared one must carry the 2.
    row("affine constraint, frame without its constant", affine() + "reference_frame: {vx: 0}\n",
        "the frame does not satisfy constraints[1] at every t and q: Φ(t, q, Γ) = -2 ≠ 0");
  }
  // Each refused at the key reference_frame, line 12, column 18 (its value), in one line.
  void framesRefused() {
    QFETCH(QString, text);
    QFETCH(QString, says);
    try {
      nh::model::loadModelText(text.toStdString(), "bad.yaml");
      QFAIL("loaded a frame the constraints do not allow");
    } catch (const nh::model::ModelError& e) {
      const QString what = QString::fromUtf8(e.what());
      QVERIFY2(what.startsWith("bad.yaml:12:18: reference_frame: " + says), qPrintable(what));
      QCOMPARE(QString::fromStdString(e.key()), QString("reference_frame"));
      QVERIFY(!what.contains('\n'));
    }
  }
};

QTEST_GUILESS_MAIN(FrameCheckTest)
#include "frame_check_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
