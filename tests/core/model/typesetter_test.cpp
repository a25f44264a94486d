// The printing of derived expressions (core/model/typesetter.h): the order of terms and
// factors, fractions and powers in plain text and LaTeX, expressions too large to show, dotted
// names, super- and subscripts, the width a terminal shows, and matrices aligned or listed.
#include "core/model/typesetter.h"

#include <QtTest>
#include <string>

using namespace nh::model;
using namespace nh::model::typeset;

namespace {

// Two coordinates x, y, two velocities vx, vy, time t and a parameter m.
SymbolicEquations fewSymbols() {
  SymbolicEquations s;
  s.t = GiNaC::symbol("t");
  s.q = {GiNaC::symbol("x"), GiNaC::symbol("y")};
  s.y = {GiNaC::symbol("vx"), GiNaC::symbol("vy")};
  s.parameters = {GiNaC::symbol("m")};
  return s;
}

}  // namespace

class TypesetterTest : public QObject {
  Q_OBJECT

 private slots:
  // A sum by velocities, then coordinates, then time; a product by numbers, parameters,
  // coordinates, velocities, functions — whatever order GiNaC keeps them in.
  void termsAndFactorsInReadableOrder() {
    const SymbolicEquations s = fewSymbols();
    const Printer pr(s);
    const GiNaC::ex &t = s.t, &x = s.q[0], &y = s.q[1], &vx = s.y[0], &vy = s.y[1];
    const GiNaC::ex& m = s.parameters[0];
    QCOMPARE(pr.plain(t + m * x + vx), std::string("vx + m*x + t"));
    QCOMPARE(pr.plain(vy * GiNaC::cos(x) * m * y), std::string("m*y*vy*cos(x)"));
    QCOMPARE(pr.plain(vx - vy), std::string("vx - vy"));
  }

  // Rational coefficients, denominators, powers and square roots, in both forms.
  void fractionsAndPowers() {
    const SymbolicEquations s = fewSymbols();
    const Printer pr(s);
    const GiNaC::ex &x = s.q[0], &vx = s.y[0];
    const GiNaC::ex& m = s.parameters[0];
    QCOMPARE(pr.plain(GiNaC::numeric(1, 2) * m * GiNaC::pow(vx, 2)), std::string("1/2*m*vx^2"));
    QCOMPARE(pr.latex(GiNaC::numeric(1, 2) * x), std::string("\\frac{x}{2}"));
    QCOMPARE(pr.plain(2 * vx / (1 + GiNaC::pow(x, 2))), std::string("2*vx/(x^2 + 1)"));
    QCOMPARE(pr.plain(GiNaC::sqrt(x)), std::string("sqrt(x)"));
    QCOMPARE(pr.latex(GiNaC::sqrt(x)), std::string("\\sqrt{x}"));
    QCOMPARE(pr.latex(GiNaC::sin(x)), std::string("\\sin(x)"));
  }

  // An expression of more nodes than kShowLimit is not printed.
  void tooLargeExpressionsAreNotShown() {
    const SymbolicEquations s = fewSymbols();
    const Printer pr(s);
    GiNaC::ex big = 0;
    for (int i = 1; i <= kShowLimit; ++i) big += GiNaC::sin(i * s.q[0]);
    QVERIFY(tooLarge(big));
    QCOMPARE(pr.plain(big), std::string(kTooLarge));
    QCOMPARE(pr.latex(big), std::string(kTooLargeLatex));
  }

  // A dot over a one-letter name (with at most a subscript after it), a prime after a word.
  void dottedNames() {
    QCOMPARE(dotPlain("x"), std::string("x\u0307"));
    QCOMPARE(dotPlain("vx"), std::string("v\u0307x"));
    QCOMPARE(dotPlain("w1"), std::string("w\u03071"));
    QCOMPARE(dotPlain("w_z"), std::string("w\u0307_z"));
    QCOMPARE(dotPlain("yaw"), std::string("yaw'"));
    QCOMPARE(dotLatex("v_{x}"), std::string("\\dot{v}_{x}"));
    QCOMPARE(dotLatex("\\omega"), std::string("\\dot{\\omega}"));
  }

  // Digits as super- and subscripts; the width a terminal shows counts characters, not bytes
  // or combining marks.
  void indicesAndWidths() {
    QCOMPARE(superscript(120), std::string("¹²⁰"));
    QCOMPARE(subscript(37), std::string("₃₇"));
    QCOMPARE(displayWidth("v\u0307x"), 2);
    QCOMPARE(displayWidth("⎛ab⎞"), 4);
    QCOMPARE(padded("ẋ", 3), std::string("ẋ  "));
  }

  // A small matrix aligned between ⎛⎜⎝ ⎞⎟⎠; one too wide for a terminal as its nonzero entries.
  void matricesAlignedOrListed() {
    const SymbolicEquations s = fewSymbols();
    const Printer pr(s);
    GiNaC::matrix A(2, 2);
    A(0, 0) = s.parameters[0];
    A(1, 1) = 2 * s.parameters[0];
    const std::vector<std::string> lines =
        plainMatrix(pr, "M", A, 2, 2, {"vx", "vy"}, {"vx", "vy"});
    QCOMPARE(lines, (std::vector<std::string>{"M = ⎛m  0  ⎞", "    ⎝0  2*m⎠"}));
    QCOMPARE(latexMatrix(pr, A, 2, 2),
             std::string("\\begin{pmatrix}m & 0 \\\\ 0 & 2 \\, m\\end{pmatrix}"));
    GiNaC::matrix wide(1, 2);
    GiNaC::ex long_ = 0;
    for (int i = 1; i <= 12; ++i) long_ += GiNaC::sin(i * s.q[0]);
    wide(0, 0) = long_;
    const std::vector<std::string> listed = plainMatrix(pr, "A", wide, 1, 2, {"1"}, {"vx", "vy"});
    QCOMPARE(static_cast<int>(listed.size()), 2);
    QVERIFY(QString::fromStdString(listed[0]).startsWith("A[1, vx] = "));
    QCOMPARE(listed[1], std::string("(other entries of A are 0)"));
  }
};

QTEST_GUILESS_MAIN(TypesetterTest)
#include "typesetter_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
