// The Equations dock: one typeset view and one copy button per block, all blocks as a LaTeX
// document fragment, a plain-text view, notes, and a message that replaces the equations; a
// control model's are Pontryagin's equations; the Hamiltonian side shows H and the
// nonholonomic bracket.
#include "ui/panels/equations_panel.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QLabel>
#include <QPlainTextEdit>
#include <QStackedWidget>
#include <QToolButton>
#include <QtTest>

#include "core/model/catalogue.h"
#include "core/model/model_file.h"
#include "ui/panels/math_view.h"

using nhui::EquationsPanel;

namespace {

nh::model::DerivedEquations sample() {
  nh::model::DerivedEquations e;
  e.blocks.push_back({"Mass matrix M", "M = [[m, 0], [0, I + m*r^2]]",
                      "M = \\begin{pmatrix}\n  m & 0 \\\\\n  0 & I + m r^{2}\n\\end{pmatrix}"});
  e.blocks.push_back(
      {"Explicit equations", "dvx/dt = -I*Omega/(I + m*r^2)*dy/dt\ndvy/dt = 0",
       "\\dot{v}_{x} = -\\frac{I \\Omega}{I + m r^{2}} \\dot{y} \\\\\n\\dot{v}_{y} = 0"});
  e.notes.push_back("parameters are numbers because this system is written in C++");
  return e;
}

// Brockett's integrator as a control model.
const char* kBrockett = R"(format: nonholonomic-lab-system
version: 1
name: brockett
coordinates: [x, y, z]
velocities: [vx, vy, vz]
controls: [u1, u2]
control_section: {vx: u1, vy: u2, vz: x*u2 - y*u1}
cost: 0.5*(u1*u1 + u2*u2)
)";

}  // namespace

class EquationsPanelTest : public QObject {
  Q_OBJECT

 private slots:
  void linesOfABlock() {
    // One equation a line, with or without \\, become rows; newlines inside an environment
    // or a group do not.
    QCOMPARE(EquationsPanel::displayLatex("a = b\nc = d"), QString("a = b \\\\ c = d"));
    QCOMPARE(EquationsPanel::displayLatex("a = b \\\\\n\n c = d \\\\"),
             QString("a = b \\\\ c = d"));
    QCOMPARE(
        EquationsPanel::displayLatex("M = \\begin{pmatrix}\na & b \\\\\nc & d\n\\end{pmatrix}"),
        QString("M = \\begin{pmatrix}\na & b \\\\\nc & d\n\\end{pmatrix}"));
    QCOMPARE(EquationsPanel::displayLatex("x = {a\n+ b}"), QString("x = {a\n+ b}"));
    QCOMPARE(nhui::MathView::measure(EquationsPanel::displayLatex("a = b\nc = d"),
                                     nhui::MathView::mathFont(12))
                 .rows,
             2);
  }

  void showsBlocksAndCopiesThem() {
    EquationsPanel panel;
    panel.setEquations(sample());
    QCOMPARE(panel.mathViews().size(), size_t(2));
    QCOMPARE(panel.mathViews()[1]->layoutInfo().rows, 2);
    QVERIFY(panel.mathViews()[0]->latex().contains("\\begin{pmatrix}"));
    const QString all = panel.allLatex();
    QVERIFY(all.contains("% Mass matrix M\n\\begin{gather*}\nM = \\begin{pmatrix}"));
    QVERIFY(
        all.contains("\\dot{v}_{x} = -\\frac{I \\Omega}{I + m r^{2}} \\dot{y} \\\\\n"
                     "\\dot{v}_{y} = 0\n\\end{gather*}"));
    QVERIFY(all.contains("% Note: parameters are numbers"));
    panel.findChild<QToolButton*>("copyAllLatex")->click();
    QCOMPARE(QGuiApplication::clipboard()->text(), all);
    panel.findChild<QToolButton*>("copyLatex1")->click();
    QCOMPARE(QGuiApplication::clipboard()->text(),
             QString::fromStdString(sample().blocks[1].latex));
    // Aligned lines go into align*.
    nh::model::DerivedEquations aligned;
    aligned.blocks.push_back({"b", "", "a &= b \\\\ c &= d"});
    panel.setEquations(aligned);
    QVERIFY(panel.allLatex().contains("\\begin{align*}\na &= b \\\\\nc &= d\n\\end{align*}"));
  }

  void plainTextAndNotes() {
    EquationsPanel panel;
    panel.setEquations(sample());
    auto* notes = panel.findChild<QLabel*>("notes");
    QVERIFY(notes->text().contains("written in C++"));
    auto* plain = panel.findChild<QPlainTextEdit*>("plainTextView");
    auto* stack = panel.findChild<QStackedWidget*>();
    QVERIFY(stack->currentWidget() != plain);
    panel.findChild<QToolButton*>("plainText")->click();
    QCOMPARE(stack->currentWidget(), plain);
    QVERIFY(plain->isReadOnly());
    QVERIFY(plain->toPlainText().contains("Explicit equations\ndvx/dt = -I*Omega"));
    QVERIFY(plain->toPlainText().contains("• parameters are numbers"));
    panel.findChild<QToolButton*>("plainText")->click();
    QVERIFY(stack->currentWidget() != plain);
  }

  // A control model, derived when the panel is shown: the Hamiltonian, (5.6)–(5.8) and
  // u(q, ξ), not the Lagrangian machinery.
  void controlModelShowsPontryaginsEquations() {
    EquationsPanel panel;
    panel.resize(900, 700);
    panel.show();
    panel.showSystem(nh::model::loadModelText(kBrockett, "brockett.yaml"), {});
    QTRY_VERIFY_WITH_TIMEOUT(!panel.mathViews().empty(), 30000);
    const QString plain = panel.plainText();
    QVERIFY2(plain.contains("Hamiltonian H"), qPrintable(plain));
    QVERIFY2(plain.contains(QString::fromUtf8("u1 = ξ_vx - y*ξ_vz")), qPrintable(plain));
    QVERIFY2(!plain.contains("Mass matrix"), qPrintable(plain));
    QVERIFY(panel.allLatex().contains("\\dot{\\xi}_{\\mathrm{vx}} = -\\xi_{\\mathrm{vz}}"));
    for (const nhui::MathView* view : panel.mathViews()) QVERIFY(!view->layoutInfo().elided);
  }

  // The "Hamiltonian side" toggle derives H and the bracket of (q, π) for the shown system,
  // typeset; off again, the equations of motion return. Disabled for a control model.
  void hamiltonianSideShowsTheBracket() {
    EquationsPanel panel;
    panel.resize(900, 700);
    panel.show();
    panel.showSystem(nh::findSystem("chaplygin_sleigh"), {});
    QTRY_VERIFY_WITH_TIMEOUT(!panel.mathViews().empty(), 30000);
    QVERIFY(panel.plainText().contains("Mass matrix"));
    auto* toggle = panel.findChild<QToolButton*>("hamiltonianSide");
    QVERIFY(toggle && toggle->isEnabled());
    toggle->click();
    QVERIFY(panel.hamiltonian());
    QTRY_VERIFY_WITH_TIMEOUT(panel.plainText().contains("Nonholonomic bracket"), 30000);
    const QString plain = panel.plainText();
    QVERIFY2(plain.contains(QString::fromUtf8("{x, π_v} = cos(theta)")), qPrintable(plain));
    QVERIFY2(plain.contains(QString::fromUtf8("J(theta, π_v, π_omega)")), qPrintable(plain));
    QVERIFY(panel.allLatex().contains("\\{x, \\pi_{v}\\} = \\cos(\\theta)"));
    for (const nhui::MathView* view : panel.mathViews()) QVERIFY(!view->layoutInfo().elided);
    QVERIFY2(plain.contains(QString::fromUtf8("nonholonomic: [X_v, X_omega] leaves D")),
             qPrintable(plain));
    // Affine, time-dependent constraints: the bracket of sections and its pieces, typeset.
    panel.showSystem(nh::findSystem("ball_on_turntable"), {});
    QTRY_VERIFY_WITH_TIMEOUT(panel.plainText().contains("Projector P"), 30000);
    QVERIFY(panel.allLatex().contains("\\mathcal{C} = "));
    QVERIFY(panel.allLatex().contains("\\otimes"));
    for (const nhui::MathView* view : panel.mathViews()) QVERIFY(!view->layoutInfo().elided);
    if (qEnvironmentVariableIsSet("NH_PANEL_GRAB")) {
      panel.resize(1100, 9000);
      QTest::qWait(200);
      panel.grab().save(qEnvironmentVariable("NH_PANEL_GRAB"));
    }
    panel.setHamiltonian(false);
    QTRY_VERIFY_WITH_TIMEOUT(panel.plainText().contains("Mass matrix"), 30000);
    panel.showSystem(nh::model::loadModelText(kBrockett, "brockett.yaml"), {});
    QVERIFY(!toggle->isEnabled());
  }

  void messageReplacesTheEquations() {
    EquationsPanel panel;
    panel.setEquations(sample());
    panel.setMessage("Deriving…");
    QVERIFY(panel.mathViews().empty());
    QVERIFY(panel.allLatex().isEmpty());
    QVERIFY(!panel.findChild<QToolButton*>("copyAllLatex")->isEnabled());
    QCOMPARE(panel.findChild<QLabel*>("message")->text(), QString("Deriving…"));
    QVERIFY(!panel.findChild<QLabel*>("message")->isHidden());
    panel.setEquations(sample());
    QVERIFY(panel.findChild<QLabel*>("message")->isHidden());
    QCOMPARE(panel.mathViews().size(), size_t(2));
  }
};

QTEST_MAIN(EquationsPanelTest)
#include "equations_panel_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
