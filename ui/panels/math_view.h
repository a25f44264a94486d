// Typeset mathematics in a QWidget. No Debian package typesets LaTeX into a Qt widget (Qt has
// no TeX renderer; MathJax and KaTeX need a web engine; the TeX toolchain writes files), so a
// LaTeX subset is parsed here into boxes, laid out by TeX's rules in simplified form (each box
// has a width, a height above and a depth below its baseline; display, text, script and
// scriptscript styles; TeX's spacing between ordinary symbols, operators, binary operators and
// relations) and painted with QPainter in the palette's text colour.
//
// The subset is what GiNaC's LaTeX printer and the derived-equations wrappers write:
//   \frac \dfrac \tfrac \binom; ^ and _ (x^2, x_1, both on one base, x'); \sqrt{…} (an index
//   [n] is skipped); \left \right with ( ) [ ] \{ \} | \| \langle \rangle and "."; plain
//   ( ) [ ] and |x| grow with a fraction inside;
//   environments pmatrix bmatrix Bmatrix vmatrix Vmatrix matrix array{cc} cases aligned
//   gathered (align, gather, split alike); several lines separated by \\ at the top level,
//   each a row, aligned at & when there is one;
//   Greek letters, \sin \cos … \exp \log \ln (upright), \mbox \text \mathrm \operatorname
//   \mathbf \mathit, \dot \ddot \dddot \bar \overline, \cdot \times \pm \partial \infty
//   \neq \le \ge \to …, spaces \, \: \; \! \quad \qquad; letters and runs of letters
//   (GiNaC's names, "vx") italic, digits upright, - a minus sign with operator spacing.
// Nothing fails: an unknown command shows as its name in grey, missing braces and delimiters
// close at the end, and nesting deeper than a limit shows as a grey "…".
#pragma once

#include <QWidget>
#include <memory>

namespace nhui {

// Metrics of a typeset formula, in logical pixels.
struct MathLayoutInfo {
  qreal width = 0;
  qreal height = 0;     // above the baseline
  qreal depth = 0;      // below the baseline
  int rows = 1;         // lines: of a top-level \\ list or an aligned/gathered environment
  bool elided = false;  // nesting deeper than the limit was shown as "…"
};

struct MathBox;  // the laid-out formula (math_layout.h)

class MathView : public QWidget {
  Q_OBJECT

 public:
  explicit MathView(QWidget* parent = nullptr);
  explicit MathView(const QString& latex, QWidget* parent = nullptr);
  ~MathView() override;

  void setLatex(const QString& latex);
  const QString& latex() const { return latex_; }
  // The size of the formula's normal text; 0 (the default): 1.15 × the widget's font.
  void setFontPointSize(qreal points);
  qreal fontPointSize() const;

  MathLayoutInfo layoutInfo() const;
  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

  // The serif font formulas are set in (DejaVu Serif where installed), at `points`.
  static QFont mathFont(qreal points);
  // Lays out `latex` in `font` without a widget (metrics at the default logical DPI).
  static MathLayoutInfo measure(const QString& latex, const QFont& font);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void changeEvent(QEvent* event) override;

 private:
  const MathBox& box() const;
  qreal margin() const;

  QString latex_;
  qreal fontPointSize_ = 0;
  mutable std::shared_ptr<const MathBox> box_;  // laid out on demand, dropped on changes
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
