// MathView (math_view.h): the widget that shows a formula — its source parsed (math_parser.h)
// and laid out (math_layout.h) once per change of text, size or palette, then painted.
#include "ui/panels/math_view.h"

#include <QEvent>
#include <QFontMetricsF>
#include <QPainter>
#include <cmath>

#include "ui/panels/math_parser.h"

namespace nhui {

namespace {

MathLayoutInfo infoOf(const MathBox& b) { return {b.width, b.height, b.depth, b.rows, b.elided}; }

}  // namespace

MathView::MathView(QWidget* parent) : MathView(QString(), parent) {}

MathView::MathView(const QString& latex, QWidget* parent) : QWidget(parent), latex_(latex) {
  setSizePolicy(QSizePolicy::Minimum, QSizePolicy::Fixed);
}

MathView::~MathView() = default;

void MathView::setLatex(const QString& latex) {
  if (latex == latex_) return;
  latex_ = latex;
  box_.reset();
  updateGeometry();
  update();
}

void MathView::setFontPointSize(qreal points) {
  fontPointSize_ = points;
  box_.reset();
  updateGeometry();
  update();
}

qreal MathView::fontPointSize() const {
  if (fontPointSize_ > 0) return fontPointSize_;
  return font().pointSizeF() > 0 ? 1.15 * font().pointSizeF() : 11.0;
}

QFont MathView::mathFont(qreal points) {
  QFont f;
  f.setFamilies({"DejaVu Serif", "Latin Modern Roman", "Liberation Serif", "Times"});
  f.setStyleHint(QFont::Serif);
  f.setPointSizeF(points);
  return f;
}

MathLayoutInfo MathView::measure(const QString& latex, const QFont& font) {
  return infoOf(math::typeset(latex, font, nullptr));
}

const MathBox& MathView::box() const {
  if (!box_)
    box_ = std::make_shared<const MathBox>(math::typeset(latex_, mathFont(fontPointSize()), this));
  return *box_;
}

MathLayoutInfo MathView::layoutInfo() const { return infoOf(box()); }

qreal MathView::margin() const {
  return 0.25 * QFontMetricsF(mathFont(fontPointSize()), this).height();
}

QSize MathView::sizeHint() const {
  const MathBox& b = box();
  const qreal m = margin();
  return QSize(int(std::ceil(b.width + 2 * m)), int(std::ceil(b.height + b.depth + 2 * m)));
}

QSize MathView::minimumSizeHint() const { return sizeHint(); }

void MathView::paintEvent(QPaintEvent*) {
  const MathBox& b = box();
  QPainter painter(this);
  painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
  const QColor ink = palette().color(QPalette::WindowText);
  const QColor background = palette().color(QPalette::Window);
  // Grey that stays readable on light and dark palettes.
  const QColor dim = QColor::fromRgbF(0.55f * ink.redF() + 0.45f * background.redF(),
                                      0.55f * ink.greenF() + 0.45f * background.greenF(),
                                      0.55f * ink.blueF() + 0.45f * background.blueF());
  const qreal m = margin();
  const qreal spare = height() - (b.height + b.depth + 2 * m);
  painter.translate(m, m + b.height + std::max(0.0, spare / 2));
  for (const MathItem& item : b.items) {
    const QColor& colour = item.dim ? dim : ink;
    if (item.text.isEmpty()) {
      painter.fillPath(item.shape, colour);
    } else {
      painter.setPen(colour);
      painter.setFont(item.font);
      painter.drawText(item.at, item.text);
    }
  }
}

void MathView::changeEvent(QEvent* event) {
  if (event->type() == QEvent::FontChange) {
    box_.reset();
    updateGeometry();
  }
  QWidget::changeEvent(event);
}

}  // namespace nhui
   // SPDX-License-Identifier: GPL-3.0-or-later