// The LaTeX subset typeset by MathView, through its layout metrics: fractions stack,
// scripts move off the baseline, lines and matrix rows add height, delimiters grow, letters
// measure as their glyphs, operators get TeX's spacing; malformed or absurdly nested input
// gives finite sizes quickly; painting puts the palette's text colour on the widget.
#include "ui/panels/math_view.h"

#include <QElapsedTimer>
#include <QFontMetricsF>
#include <QImage>
#include <QtTest>
#include <cmath>

using nhui::MathLayoutInfo;
using nhui::MathView;

namespace {

const QFont& font() {
  static const QFont f = MathView::mathFont(12);
  return f;
}
MathLayoutInfo measure(const QString& latex) { return MathView::measure(latex, font()); }
qreal total(const MathLayoutInfo& i) { return i.height + i.depth; }
qreal em() { return QFontMetricsF(font()).horizontalAdvance(QChar(0x2003)); }
qreal advance(const QString& text, bool italic) {
  QFont f = font();
  f.setItalic(italic);
  return QFontMetricsF(f).horizontalAdvance(text);
}

// Pixels of `image` that differ clearly from `background`.
long inkPixels(const QImage& image, QColor background, QRect region = {}) {
  if (region.isNull()) region = image.rect();
  long n = 0;
  for (int y = region.top(); y <= region.bottom(); ++y)
    for (int x = region.left(); x <= region.right(); ++x) {
      const QColor c = image.pixelColor(x, y);
      if (std::abs(c.red() - background.red()) + std::abs(c.green() - background.green()) +
              std::abs(c.blue() - background.blue()) >
          120)
        ++n;
    }
  return n;
}

// How far the ink of `latex` leans right, in pixels at 40 pt: the mean x of the ink in the
// upper half of its rows minus that in the lower half. About 0 for upright symmetric glyphs;
// DejaVu Serif's italics (same advance widths as the upright face) lean about 3 px.
qreal lean(const QString& latex) {
  MathView view(latex);
  view.setFontPointSize(40);
  QPalette palette;
  palette.setColor(QPalette::Window, Qt::white);
  palette.setColor(QPalette::WindowText, Qt::black);
  view.setPalette(palette);
  view.setAutoFillBackground(true);
  view.resize(view.sizeHint());
  const QImage image = view.grab().toImage();
  int top = image.height(), bottom = -1;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x)
      if (qGray(image.pixel(x, y)) < 128) {
        top = std::min(top, y);
        bottom = std::max(bottom, y);
      }
  const qreal middle = (top + bottom) / 2.0;
  qreal sum[2] = {0, 0}, weight[2] = {0, 0};
  for (int y = top; y <= bottom; ++y)
    for (int x = 0; x < image.width(); ++x) {
      const qreal ink = (255 - qGray(image.pixel(x, y))) / 255.0;
      if (y == middle) continue;
      sum[y < middle] += ink * x;
      weight[y < middle] += ink;
    }
  return sum[1] / weight[1] - sum[0] / weight[0];
}

}  // namespace

class MathViewTest : public QObject {
  Q_OBJECT

 private slots:
  void fractionStacksNumeratorOverDenominator() {
    const auto num = measure("a+b"), den = measure("c"), frac = measure("\\frac{a+b}{c}");
    // Stacked: taller than numerator and denominator together, and centred on the axis, so
    // both above and below the baseline.
    QVERIFY(total(frac) > total(num) + total(den));
    QVERIFY(frac.height > num.height && frac.depth > den.height);
    // As wide as the wider part, plus the small overhang of the rule (TeX: 2 × 1.2 pt).
    QVERIFY2(frac.width >= std::max(num.width, den.width) &&
                 frac.width <= std::max(num.width, den.width) + 0.3 * em(),
             qPrintable(QString("%1 vs %2").arg(frac.width).arg(num.width)));
    // A fraction inside a fraction is set smaller (text style → script style).
    QVERIFY(measure("\\frac{\\frac{xxxx}{y}}{z}").width < 0.85 * measure("\\frac{xxxx}{z}").width);
  }

  void scriptsLeaveTheBaseline() {
    const auto x = measure("x"), sup = measure("x^{2}"), sub = measure("x_{1}");
    QVERIFY(sup.height > x.height + 0.2 * em());
    QCOMPARE(sup.depth, x.depth);
    QVERIFY(sub.depth > x.depth + 0.1 * em());
    QVERIFY(sub.height <= x.height + 1e-9);
    // Both on one base: one column, as high as the superscript alone, as deep as the subscript.
    const auto both = measure("x_{1}^{2}");
    QVERIFY(std::abs(both.width - sup.width) < 0.05 * em());
    QVERIFY(both.height >= sup.height - 1e-9 && both.depth >= sub.depth - 1e-9);
    // Single characters need no braces, and only the first one is the script.
    QCOMPARE(measure("x^2").width, sup.width);
    QCOMPARE(measure("x_1").depth, sub.depth);
    QVERIFY(std::abs(measure("x^23").width - measure("x^{2}3").width) < 1e-9);
    // A script is set smaller than the base.
    QVERIFY(measure("x^{xxxx}").width < x.width + 0.85 * measure("xxxx").width);
  }

  void linesAndRows() {
    const qreal line = QFontMetricsF(font()).lineSpacing();
    const auto one = measure("a"), two = measure("a \\\\ b"), three = measure("a \\\\ b \\\\ c");
    QCOMPARE(one.rows, 1);
    QCOMPARE(two.rows, 2);
    QCOMPARE(three.rows, 3);
    // About a line each (TeX: baselineskip 1.2 em plus \jot between lines).
    QVERIFY2(total(two) > 1.6 * line && total(two) < 2.6 * line,
             qPrintable(QString("%1 for a line of %2").arg(total(two)).arg(line)));
    QVERIFY(total(three) > total(two) + 0.8 * line);
    QCOMPARE(measure("a \\\\ b \\\\").rows, 2);  // a trailing \\ starts no line
    QCOMPARE(measure("\\begin{aligned} a &= b \\\\ c &= d \\end{aligned}").rows, 2);
    // Aligned at &: the columns line up, so the block is as wide as the longest left side
    // with the longest right side.
    const auto aligned = measure("a &= bbbb \\\\ cccc &= d");
    QVERIFY2(std::abs(aligned.width - measure("cccc = bbbb").width) < 0.05 * em(),
             qPrintable(QString("%1 vs %2").arg(aligned.width).arg(measure("cccc = bbbb").width)));
  }

  void matricesAndDelimiters() {
    const auto two = measure("\\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix}");
    const auto three =
        measure("\\begin{pmatrix} a & b & c \\\\ d & e & f \\\\ g & h & i \\end{pmatrix}");
    QVERIFY(total(three) > total(two) + 0.8 * em());
    QVERIFY(three.width > two.width);
    // Centred on the axis: about as much above the baseline as below it, shifted up.
    QVERIFY(two.height > two.depth);
    QVERIFY(two.depth > 0.4 * total(two) - 0.3 * em());
    // Columns are aligned: the wide entry widens its column only once.
    const auto wide = measure("\\begin{bmatrix} aaaa & b \\\\ c & d \\end{bmatrix}");
    const auto wider = measure("\\begin{bmatrix} aaaa & b \\\\ aaaa & d \\end{bmatrix}");
    QVERIFY(std::abs(wide.width - wider.width) < 1e-9);
    // GiNaC's matrices: array in \left( \right).
    const auto array = measure("\\left(\\begin{array}{cc}a&b\\\\c&d\\end{array}\\right)");
    QVERIFY(std::abs(total(array) - total(two)) < 0.2 * em());
    // \left( grows around a fraction; around a letter it stays the glyph, like plain ( ).
    const auto frac = measure("\\frac{a}{b}");
    QVERIFY(total(measure("\\left( \\frac{a}{b} \\right)")) >= total(frac));
    QVERIFY(total(measure("( \\frac{a}{b} )")) >= total(frac));
    QCOMPARE(total(measure("\\left( x \\right)")), total(measure("(x)")));
    QCOMPARE(total(measure("\\left. x \\right|")), total(measure("|")));
    // GiNaC's abs and bracketed numbers.
    QCOMPARE(measure("{|x|}").width, measure("|x|").width);
    QVERIFY(std::abs(measure("{(0.001)}").width - advance("(0.001)", false)) < 0.05 * em());
  }

  void symbolsMeasureAsTheirGlyphs() {
    QCOMPARE(measure("\\omega").width, advance(QStringLiteral("ω"), true));   // lower case italic
    QCOMPARE(measure("\\Omega").width, advance(QStringLiteral("Ω"), false));  // capitals upright
    QCOMPARE(measure("\\varphi").width, advance(QStringLiteral("φ"), true));
    QCOMPARE(measure("vx").width, advance("vx", true));         // GiNaC's names: italic
    QCOMPARE(measure("123.5").width, advance("123.5", false));  // digits upright
    QCOMPARE(measure("\\sin").width, advance("sin", false));    // function names upright
    QCOMPARE(measure("\\mathrm{vx}").width, advance("vx", false));
    QCOMPARE(measure("\\text{if }").width, advance("if ", false));
    QCOMPARE(measure("\\mathcal{C}").width, advance(QStringLiteral("𝒞"), false));  // script
    QCOMPARE(measure("\\mathcal{H}").width, advance(QStringLiteral("ℋ"), false));
    QCOMPARE(measure("\\otimes").width, advance(QStringLiteral("⊗"), false));
    QCOMPARE(measure("\\foo").width, advance("\\foo", false));  // unknown: its name
    QCOMPARE(measure("\\").width, advance("\\", false));        // a trailing backslash
    QCOMPARE(measure("").width, 0.0);
  }

  void lettersItalicNamesUpright() {
    // Against the same characters upright (\mathrm, \text): letters, runs of letters and
    // lower-case Greek lean (italic); capitals, digits, function names do not.
    const std::pair<const char*, const char*> italic[] = {{"I", "\\mathrm{I}"},
                                                          {"vx", "\\mathrm{vx}"},
                                                          {"\\omega", "\\text{ω}"},
                                                          {"\\alpha", "\\text{α}"},
                                                          {"\\mathit{I}", "\\mathrm{I}"}};
    for (const auto& [latex, upright] : italic)
      QVERIFY2(lean(latex) - lean(upright) > 1.5,
               qPrintable(QString("%1: %2").arg(latex).arg(lean(latex) - lean(upright))));
    const std::pair<const char*, const char*> straight[] = {{"\\Omega", "\\text{Ω}"},
                                                            {"0", "\\text{0}"},
                                                            {"\\sin", "\\mathrm{sin}"},
                                                            {"\\operatorname{I}", "\\mathrm{I}"},
                                                            {"\\text{I}", "\\mathrm{I}"}};
    for (const auto& [latex, upright] : straight)
      QVERIFY2(std::abs(lean(latex) - lean(upright)) < 0.3,
               qPrintable(QString("%1: %2").arg(latex).arg(lean(latex) - lean(upright))));
  }

  void operatorSpacing() {
    const qreal mu = em() / 18;
    // - is a minus sign (the width of +), a binary operator with 4 mu on each side …
    QVERIFY(std::abs(measure("a-b").width - measure("a+b").width) < 1e-6);
    const qreal binary = measure("a-b").width - measure("a").width - measure("-b").width;
    QVERIFY2(std::abs(binary - 8 * mu) < 0.5,
             qPrintable(QString("%1 vs %2").arg(binary).arg(8 * mu)));
    // … and a unary minus at the start, after a relation or an opening bracket.
    QCOMPARE(measure("-b").width, advance(QStringLiteral("\u2212"), false) + advance("b", true));
    const qreal relation =
        measure("a=b").width - measure("a").width - measure("b").width - advance("=", false);
    QVERIFY(std::abs(relation - 10 * mu) < 0.5);
    QVERIFY(std::abs(measure("a=-b").width - measure("a=b").width -
                     advance(QStringLiteral("\u2212"), false)) < 0.5);
    // Thin space between a function name and its argument, none before a bracket.
    QVERIFY(std::abs(measure("\\sin x").width - advance("sin", false) - advance("x", true) -
                     3 * mu) < 0.5);
    QVERIFY(std::abs(measure("a \\quad b").width - measure("ab").width - em()) < 0.5);
    QVERIFY(std::abs(measure("a \\! b").width - measure("ab").width + 3 * mu) < 0.5);
  }

  void malformedInputGivesFiniteSizes() {
    const QStringList inputs = {
        "{",
        "}",
        "}}}{",
        "\\",
        "x^",
        "x_",
        "^^__",
        "x^a^b",
        "\\frac",
        "\\frac{a}",
        "\\sqrt",
        "\\sqrt[",
        "\\left(",
        "\\right)",
        "\\left",
        "\\begin{pmatrix}",
        "\\end{pmatrix}",
        "\\begin",
        "\\begin{",
        "&&\\\\\\\\",
        "\\text{",
        "\\mathrm",
        "\\dot",
        "a'''''",
        "\\left( \\begin{pmatrix} a & \\right) \\end{pmatrix}",
        "( [ ) ] | ( |",
        "\\big",
        "\\operatorname",
        "%",
        "\\\\[2pt]",
        "\\sqrt[3",
        QString(QChar(0xD800)),
        QString(5000, u'{'),
        QString(5000, u'}'),
        QString(5000, u'('),
        QString(5000, u'|'),
        QString("\\frac").repeated(3000),
        QString("x^{").repeated(3000),
        QString("\\left(").repeated(3000),
        QString("\\sqrt").repeated(3000),
        QString("\\begin{aligned}").repeated(500),
        QString("\\dot").repeated(3000),
        QString("{\\frac{").repeated(2000) + "x" + QString("}{y}}").repeated(2000)};
    QElapsedTimer timer;
    timer.start();
    for (const QString& input : inputs) {
      const auto info = measure(input);
      const QString what = input.left(40);
      QVERIFY2(std::isfinite(info.width) && std::isfinite(info.height) && std::isfinite(info.depth),
               qPrintable(what));
      QVERIFY2(info.width >= 0 && info.height >= 0 && info.depth >= 0, qPrintable(what));
      QVERIFY2(info.width < 1e6 && total(info) < 1e5, qPrintable(what));
    }
    // Deep nesting is cut short and says so.
    QVERIFY(measure(QString(5000, u'{') + "x").elided);
    QVERIFY(measure(QString("\\frac").repeated(3000)).elided);
    QVERIFY(!measure("\\frac{\\frac{a}{b}}{c}").elided);
    // Linear in the input (a debug build on a loaded machine included): far below 10 s.
    QVERIFY2(timer.elapsed() < 10000, qPrintable(QString::number(timer.elapsed())));
  }

  void paintsInThePalettesTextColour() {
    MathView view("\\frac{a}{b} + \\sqrt{x}");
    view.setFontPointSize(16);
    for (const bool dark : {false, true}) {
      QPalette palette;
      palette.setColor(QPalette::Window, dark ? QColor(30, 30, 34) : QColor(250, 250, 250));
      palette.setColor(QPalette::WindowText, dark ? QColor(235, 235, 235) : QColor(20, 20, 20));
      view.setPalette(palette);
      view.setAutoFillBackground(true);
      view.resize(view.sizeHint());
      const QImage image = view.grab().toImage();
      const QColor background = palette.color(QPalette::Window);
      // Ink above and below the middle (numerator and denominator) …
      const int w = image.width(), h = image.height();
      QVERIFY2(inkPixels(image, background, QRect(0, 0, w, h / 2 - 2)) > 20,
               qPrintable(QString("dark %1").arg(dark)));
      QVERIFY2(inkPixels(image, background, QRect(0, h / 2 + 2, w, h / 2 - 2)) > 20,
               qPrintable(QString("dark %1").arg(dark)));
      // … in the text colour: the darkest (light palette) or brightest (dark) pixel is it.
      int extreme = dark ? 0 : 255;
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          const int grey = qGray(image.pixel(x, y));
          extreme = dark ? std::max(extreme, grey) : std::min(extreme, grey);
        }
      QVERIFY2(std::abs(extreme - qGray(palette.color(QPalette::WindowText).rgb())) < 40,
               qPrintable(QString("dark %1: %2").arg(dark).arg(extreme)));
    }
  }

  void sizeHintFollowsTheFont() {
    MathView view("M = \\begin{pmatrix} m & 0 \\\\ 0 & I \\end{pmatrix}");
    view.setFontPointSize(10);
    const QSize small = view.sizeHint();
    view.setFontPointSize(20);
    const QSize large = view.sizeHint();
    QVERIFY2(large.width() > 1.7 * small.width() && large.height() > 1.7 * small.height(),
             qPrintable(QString("%1x%2 → %3x%4")
                            .arg(small.width())
                            .arg(small.height())
                            .arg(large.width())
                            .arg(large.height())));
    const auto info = view.layoutInfo();
    QVERIFY(view.sizeHint().width() >= info.width && view.sizeHint().height() >= total(info));
    view.setLatex("x");
    QVERIFY(view.sizeHint().width() < large.width() / 3);
  }
};

QTEST_MAIN(MathViewTest)
#include "math_view_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
