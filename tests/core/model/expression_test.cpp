// The expression parser (core/model/expression.cpp) at its limits: nesting is bounded with a
// message at the place it passes the bound, and what is accepted — the deepest nesting, a sum
// of 100,000 terms — goes through every later pass without exhausting the stack: evaluation,
// the GiNaC conversion, a model file's load, its taped equations and its derived equations.
#include "core/model/expression.h"

#include <QElapsedTimer>
#include <QtTest>
#include <string>
#include <vector>

#include "core/model/derived_equations.h"
#include "core/model/model_data.h"
#include "core/model/model_file.h"
#include "core/model/symbolic_model.h"
#include "core/nh/dynamics.h"

namespace {

using nh::model::kMaxExpressionNesting;

nh::model::NameResolver names() {
  nh::model::NameResolver r;
  r.slotOf = [](const std::string& n) { return n == "x" ? 0 : n == "y" ? 1 : -1; };
  r.known = [] { return std::string("x, y"); };
  return r;
}

// a + b by an append (GCC 12's -Wrestrict misfires on a literal + std::string).
std::string cat(std::string a, const std::string& b) {
  a += b;
  return a;
}

std::string repeated(const std::string& piece, int count) {
  std::string s;
  s.reserve(piece.size() * count);
  for (int i = 0; i < count; ++i) s += piece;
  return s;
}

// An expression nesting `levels` deep of one kind, around x.
std::string nestedExpression(const std::string& kind, int levels) {
  if (kind == "parentheses") return repeated("(", levels - 1) + "x" + repeated(")", levels - 1);
  if (kind == "calls") return repeated("sin(", levels - 1) + "x" + repeated(")", levels - 1);
  if (kind == "signs") return repeated("-", levels - 1) + "x";
  return repeated("x^", levels - 1) + "x";  // a chain of powers
}

double value(const nh::model::Expression& e, double x, double y) {
  const double env[] = {x, y};
  std::vector<double> scratch(e.nodes.size());
  return nh::model::evaluate(e, env, scratch.data());
}

// A model whose Lagrangian adds `extra` to the particle's kinetic energy.
std::string model(const std::string& extra, const std::string& more = "") {
  return "format: nonholonomic-lab-system\nversion: 1\nname: deep\nparameters:\n"
         "  - {name: m, default: 1}\ncoordinates: [x, y]\nvelocities: [vx, vy]\n" +
         more + "lagrangian: \"0.5*m*(vx^2 + vy^2) + " + extra +
         "\"\ninitial: {x: 0.25, y: 0.5, vx: 1, vy: 0.5}\n";
}

// Loads a model and takes it through every later pass: the taped equations of motion at
// its initial state and the derived equations in plain text and LaTeX.
void everyPass(const std::string& text) {
  const auto system = nh::model::loadModelText(text, "deep.yaml");
  const nh::EquationsOfMotion eq(system, nh::DynamicsKind::Nonholonomic);
  nh::EquationsWorkspace ws(eq);
  std::vector<double> x(eq.stateSize(), 0.25), dx(x.size());
  eq.rhs(ws, 0.0, x.data(), dx.data());
  for (double d : dx) QVERIFY(std::isfinite(d));
  const nh::model::DerivedEquations derived = nh::model::deriveEquations(*system);
  QVERIFY(!nh::model::toPlainText(derived).empty());
  QVERIFY(!nh::model::toLatex(derived).empty());
}

}  // namespace

class ExpressionTest : public QObject {
  Q_OBJECT

 private slots:
  void nesting_data() {
    QTest::addColumn<QString>("kind");
    for (const char* kind : {"parentheses", "calls", "signs", "powers"})
      QTest::newRow(kind) << QString(kind);
  }
  // The deepest nesting allowed parses and evaluates; one level more is refused at the
  // place where it starts, saying what the limit is.
  void nesting() {
    QFETCH(QString, kind);
    const std::string deepest = nestedExpression(kind.toStdString(), kMaxExpressionNesting);
    const nh::model::Expression e = nh::model::parseExpression(deepest, names());
    QVERIFY(std::isfinite(value(e, 0.5, 0)));
    const std::string tooDeep = nestedExpression(kind.toStdString(), kMaxExpressionNesting + 1);
    try {
      nh::model::parseExpression(tooDeep, names());
      QFAIL("accepted an expression nested past the limit");
    } catch (const nh::model::ExpressionError& err) {
      const QString what = QString::fromUtf8(err.what());
      QVERIFY2(what.startsWith(
                   QString("expression nested deeper than %1 levels").arg(kMaxExpressionNesting)),
               qPrintable(what));
      QVERIFY(err.offset() > 0 && err.offset() < static_cast<int>(tooDeep.size()));
    }
  }

  // Far past the limit (the sizes of the field reports) the refusal is the same message,
  // not a stack overflow.
  void farTooDeepIsRefused() {
    for (const std::string& text :
         {nestedExpression("calls", 5000), nestedExpression("parentheses", 10000),
          nestedExpression("signs", 20000), nestedExpression("powers", 20000)}) {
      try {
        nh::model::parseExpression(text, names());
        QFAIL("accepted a deep expression");
      } catch (const nh::model::ExpressionError& err) {
        QVERIFY2(QString(err.what()).contains("nested deeper than"), err.what());
      }
    }
  }

  // A sum of 100,000 terms is flat: it parses, evaluates and converts to GiNaC in linear
  // time (one sum, not 100,000 nested ones).
  void longSumsAreFlat() {
    const std::string text = cat("x", repeated(" + x - y", 50000));
    QElapsedTimer clock;
    clock.start();
    const nh::model::Expression e = nh::model::parseExpression(text, names());
    QCOMPARE(value(e, 0.5, 0.25), 0.5 + 50000 * 0.25);
    nh::model::SymbolTable table;
    table.bySlot = {GiNaC::symbol("x"), GiNaC::symbol("y")};
    table.firstDefinition = 2;
    const GiNaC::ex g = nh::model::toGinac(e, table);
    QVERIFY(g.is_equal(50001 * table.bySlot[0] - 50000 * table.bySlot[1]));
    const std::string product = cat("x", repeated("*y/x", 30000));
    QVERIFY(nh::model::toGinac(nh::model::parseExpression(product, names()), table)
                .is_equal(GiNaC::pow(table.bySlot[1], 30000) / GiNaC::pow(table.bySlot[0], 29999)));
    QVERIFY2(clock.elapsed() < 20000, qPrintable(QString::number(clock.elapsed())));
  }

  void numbersOutOfRange() {
    QCOMPARE(value(nh::model::parseExpression("1.5e308 + x", names()), 0, 0), 1.5e308);
    try {
      nh::model::parseExpression("2*x + 1e999", names());
      QFAIL("accepted 1e999");
    } catch (const nh::model::ExpressionError& err) {
      QCOMPARE(QString::fromUtf8(err.what()),
               QString("number out of range: 1e999 (at most about 1.8e308)"));
      QCOMPARE(err.offset(), 6);
    }
  }

  // A power written x**2 (Python, Fortran) is refused at the second '*' with the hint that
  // powers are written ^; a lone '*' where an operand belongs gets no such hint.
  void doubleStarHintsAtPowers() {
    try {
      nh::model::parseExpression("2*x**2", names());
      QFAIL("accepted x**2");
    } catch (const nh::model::ExpressionError& err) {
      QCOMPARE(QString::fromUtf8(err.what()),
               QString("expected an operand, found '*' (powers are written ^: x^2, not x**2)"));
      QCOMPARE(err.offset(), 4);
    }
    try {
      nh::model::parseExpression("x + * y", names());
      QFAIL("accepted x + * y");
    } catch (const nh::model::ExpressionError& err) {
      QCOMPARE(QString::fromUtf8(err.what()), QString("expected an operand, found '*'"));
    }
  }

  // The deepest accepted expressions and the longest in a model file: loaded, taped and
  // derived; past the limit the file's line and column are named.
  void deepestAndLongestModelsGoThroughEveryPass() {
    everyPass(model(nestedExpression("calls", kMaxExpressionNesting - 1)));
    everyPass(model(cat("0.01*", nestedExpression("powers", kMaxExpressionNesting - 1))));
    everyPass(model(nestedExpression("signs", kMaxExpressionNesting - 1)));
    everyPass(model(cat("0.001*x", repeated(" + 0.001*x*y", 100000))));
    try {
      nh::model::loadModelText(model(nestedExpression("calls", 5000)), "deep.yaml");
      QFAIL("loaded a deep expression");
    } catch (const nh::model::ModelError& err) {
      QCOMPARE(err.line(), 8);
      // After `lagrangian: "`, the kinetic energy and 100 calls: the 101st level.
      QCOMPARE(err.column(), 14 + 22 + 4 * kMaxExpressionNesting);
      QVERIFY2(QString(err.what()).contains("lagrangian: expression nested deeper than"),
               err.what());
    }
  }

  // Definitions are written out in the symbolic derivations: a chain of them nests as deep
  // as their sum, which is bounded too (the deepest allowed goes through every pass).
  void definitionChainsAreBounded() {
    auto chain = [](int count) {
      std::string defs = "definitions:\n  d0: " + nestedExpression("calls", 50) + "\n";
      for (int k = 1; k < count; ++k) {
        std::string previous = "d";
        previous += std::to_string(k - 1);
        defs += "  d";
        defs += std::to_string(k);
        defs += ": ";
        defs += nestedExpression("calls", 50).replace(49 * 4, 1, previous);
        defs += "\n";
      }
      return defs;
    };
    everyPass(model("0.01*d9", chain(10)));  // 50 + 9 × 49 levels in d9: near the limit
    try {
      nh::model::loadModelText(model("0.01*d10", chain(11)), "deep.yaml");
      QFAIL("loaded definitions nesting too deeply");
    } catch (const nh::model::ModelError& err) {
      QVERIFY2(QString(err.what())
                   .contains("definitions.d10: with its definitions written out, "
                             "the expression nests deeper than 500 levels"),
               err.what());
    }
  }
};

QTEST_GUILESS_MAIN(ExpressionTest)
#include "expression_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
