// TeX's layout rules for math_view's formulas (math_layout.h): the fonts of each style with
// their parameters, and the boxes of text, spaces, lists with TeX's spacing between atom
// classes, fractions, scripts, accents, radicals, grown delimiters and aligned grids.
#include "ui/panels/math_layout.h"

#include <QPainterPathStroker>
#include <QTransform>
#include <algorithm>
#include <cmath>

namespace nhui::math {

using namespace Qt::StringLiterals;

namespace {

// Spacing between atom classes in mu (1/18 em): TeXbook p. 170. Negative: only in display
// and text style.
constexpr int kSpacing[8][8] = {
    // Ord Op  Bin Rel Open Close Punct Inner
    {0, 3, -4, -5, 0, 0, 0, -3},      // Ord
    {3, 3, 0, -5, 0, 0, 0, -3},       // Op
    {-4, -4, 0, 0, -4, 0, 0, -4},     // Bin
    {-5, -5, 0, 0, -5, 0, 0, -5},     // Rel
    {0, 0, 0, 0, 0, 0, 0, 0},         // Open
    {0, 3, -4, -5, 0, 0, 0, -3},      // Close
    {-3, -3, 0, -3, -3, -3, -3, -3},  // Punct
    {-3, 3, -4, -5, -3, 0, -3, -3},   // Inner
};

}  // namespace

StyleFont::StyleFont(const QFont& base, qreal scale, const QPaintDevice* device) {
  for (int i = 0; i < 3; ++i) {
    QFont f = base;
    if (base.pointSizeF() > 0)
      f.setPointSizeF(std::max(2.0, base.pointSizeF() * scale));
    else
      f.setPixelSize(std::max(3, int(std::lround(base.pixelSize() * scale))));
    f.setItalic(i == int(Face::Italic));
    f.setWeight(i == int(Face::Bold) ? QFont::Bold : QFont::Normal);
    fonts[i] = f;
    metrics.emplace_back(f, device);
  }
  const QFontMetricsF& m = metrics[0];
  em = m.horizontalAdvance(QChar(0x2003));  // an em space is one em wide
  if (!(em > 0)) em = m.height() / 1.2;
  xHeight = m.xHeight() > 0 ? m.xHeight() : 0.45 * em;
  // The axis (where fraction bars and the minus sign sit) and the rule thickness, from
  // the minus sign of the font.
  const QRectF minus = m.tightBoundingRect(QString(QChar(0x2212)));
  axis = minus.isEmpty() ? 0.25 * em : -minus.center().y();
  rule = std::clamp(minus.isEmpty() ? 0.0 : minus.height(), 0.04 * em, 0.09 * em);
}

const StyleFont& MathLayout::font(Style s) {
  auto& slot = fonts_[int(s)];
  static constexpr qreal kScale[] = {1.0, 1.0, 0.7, 0.5};
  if (!slot) slot.emplace(base_, kScale[int(s)], device_);
  return *slot;
}

qreal MathLayout::mu(Style s) { return font(s).em / 18; }

Box MathLayout::text(const QString& s, Style style, Face face, Atom atom, bool dim) {
  const StyleFont& f = font(style);
  const QFontMetricsF& m = f.metrics[int(face)];
  Box b;
  b.width = m.horizontalAdvance(s);
  const QRectF ink = m.tightBoundingRect(s);
  b.height = std::max(0.0, -ink.top());
  b.depth = std::max(0.0, ink.bottom());
  if (face == Face::Italic) b.italic = std::max(0.0, ink.right() - b.width);
  b.slanted = face == Face::Italic;
  b.left = b.right = atom;
  b.glyph = true;
  if (!s.isEmpty()) b.items.push_back({{0, 0}, s, f.fonts[int(face)], {}, dim});
  return b;
}
Box MathLayout::space(qreal width) {
  Box b;
  b.width = width;
  b.glue = true;
  return b;
}
Box MathLayout::ellipsis(Style style) {
  Box b = text(u"…"_s, style, Face::Upright, Atom::Ord, true);
  b.elided = true;
  return b;
}

// A horizontal list with TeX's spacing; binary operators without operands become
// ordinary (the unary minus).
Box MathLayout::hpack(std::vector<Box>& atoms, Style style) {
  const Atom none = Atom::Open;  // list start: as after an opening delimiter
  Atom previous = none;
  for (size_t i = 0; i < atoms.size(); ++i) {
    Box& a = atoms[i];
    if (a.glue) continue;
    if (a.left == Atom::Bin &&
        (previous == Atom::Bin || previous == Atom::Op || previous == Atom::Rel ||
         previous == Atom::Open || previous == Atom::Punct))
      a.left = a.right = Atom::Ord;
    previous = a.right;
  }
  for (size_t i = atoms.size(); i-- > 0;) {
    Box& a = atoms[i];
    if (a.glue || a.right != Atom::Bin) continue;
    size_t j = i + 1;
    while (j < atoms.size() && atoms[j].glue) ++j;
    if (j == atoms.size() || atoms[j].left == Atom::Rel || atoms[j].left == Atom::Close ||
        atoms[j].left == Atom::Punct)
      a.left = a.right = Atom::Ord;
  }
  Box out;
  const bool small = style >= Style::Script;
  const Box* last = nullptr;
  for (Box& a : atoms) {
    qreal x = out.width;
    if (!a.glue && last) {
      const int s = kSpacing[int(last->right)][int(a.left)];
      if (s > 0 || !small) x += std::abs(s) * mu(style);
    }
    out.height = std::max(out.height, a.height);
    out.depth = std::max(out.depth, a.depth);
    out.width = x + a.width;
    if (!a.glue) {
      if (!last) out.left = a.left;
      out.right = a.right;
      out.italic = a.italic;
      last = &a;
    }
    out.glyph = atoms.size() == 1 && a.glyph;
    out.place(std::move(a), x, 0);
  }
  return out;
}

Box MathLayout::fraction(Box num, Box den, Style style, bool withRule) {
  const StyleFont& f = font(style);
  const bool display = style == Style::Display;
  const qreal t = withRule ? f.rule : 0, gap = display ? 3 * f.rule : f.rule;
  qreal up = (display ? 0.677 : 0.394) * f.em, down = (display ? 0.686 : 0.345) * f.em;
  up = std::max(up, f.axis + t / 2 + gap + num.depth);
  down = std::max(down, den.height + gap + t / 2 - f.axis);
  const qreal pad = 0.12 * f.em, inner = std::max(num.width, den.width);
  Box b;
  b.width = inner + 2 * pad;
  b.height = up + num.height;
  b.depth = down + den.depth;
  b.left = b.right = Atom::Inner;
  const qreal numX = (b.width - num.width) / 2, denX = (b.width - den.width) / 2;
  b.place(std::move(num), numX, -up);
  b.place(std::move(den), denX, down);
  if (withRule) {
    QPainterPath bar;
    bar.addRect(pad / 2, -f.axis - t / 2, inner + pad, t);
    b.items.push_back({{}, {}, {}, bar});
  }
  return b;
}

Box MathLayout::scripts(Box base, std::optional<Box> sup, std::optional<Box> sub, Style style) {
  const StyleFont& f = font(style);
  const qreal scriptEm = font(scriptStyle(style)).em;
  qreal up = base.glyph ? 0 : base.height - 0.386 * scriptEm;
  qreal down = base.glyph ? 0 : base.depth + 0.05 * scriptEm;
  if (sup)
    up = std::max(
        {up, (style == Style::Display ? 0.413 : 0.363) * f.em, sup->depth + f.xHeight / 4});
  if (sub && !sup) down = std::max({down, 0.15 * f.em, sub->height - 0.8 * f.xHeight});
  if (sub && sup) {
    down = std::max(down, 0.247 * f.em);
    const qreal clearance = (up - sup->depth) - (sub->height - down);
    if (clearance < 4 * f.rule) down += 4 * f.rule - clearance;
    const qreal lift = 0.8 * f.xHeight - (up - sup->depth);
    if (lift > 0) {
      up += lift;
      down -= lift;
    }
  }
  Box b;
  b.left = base.left;
  b.right = base.right;
  const qreal x = base.width, italic = base.italic;
  b.width = x;
  b.height = base.height;
  b.depth = base.depth;
  b.place(std::move(base), 0, 0);
  if (sup) {
    b.width = std::max(b.width, x + italic + sup->width);
    b.height = std::max(b.height, up + sup->height);
    b.depth = std::max(b.depth, sup->depth - up);
    b.place(std::move(*sup), x + italic, -up);
  }
  if (sub) {
    b.width = std::max(b.width, x + sub->width);
    b.height = std::max(b.height, sub->height - down);
    b.depth = std::max(b.depth, down + sub->depth);
    b.place(std::move(*sub), x, down);
  }
  b.width += 0.05 * f.em;  // \scriptspace
  return b;
}

// Dots or a bar above `base`, centred on its ink (italics lean right).
Box MathLayout::accent(Box base, const QString& kind, Style style) {
  const StyleFont& f = font(style);
  const qreal top = std::max(base.height, f.xHeight);
  Box b;
  b.width = base.width;
  b.depth = base.depth;
  b.italic = base.italic;
  b.left = base.left;
  b.right = base.right;
  QPainterPath mark;
  if (kind.endsWith(u"dot")) {
    const int n = kind == u"dot" ? 1 : kind == u"ddot" ? 2 : 3;
    const qreal r = 0.062 * f.em, step = 0.2 * f.em, y = top + 0.14 * f.em + r;
    const qreal centre = base.width / 2 + (base.slanted ? 0.1 * top : 0);
    for (int i = 0; i < n; ++i)
      mark.addEllipse(QPointF(centre + (i - (n - 1) / 2.0) * step, -y), r, r);
    b.height = y + r;
  } else {  // \bar, \overline
    const qreal inset = kind == u"bar" ? 0.1 * base.width : 0;
    mark.addRect(inset + (base.slanted ? 0.2 * top : 0), -top - 4 * f.rule, base.width - 2 * inset,
                 f.rule);
    b.height = top + 4 * f.rule;
  }
  b.items.push_back({{}, {}, {}, mark});
  b.height = std::max(b.height, base.height);
  b.place(std::move(base), 0, 0);
  return b;
}

// A radical sign (a short rise, a thick down-stroke, a thin up-stroke) with a bar over `body`.
Box MathLayout::radical(Box body, Style style) {
  const StyleFont& f = font(style);
  const qreal t = f.rule, gap = t + (style == Style::Display ? f.xHeight / 4 : t / 2);
  const qreal top = body.height + gap + t, bottom = std::max(body.depth, 0.0) + 0.05 * f.em;
  const qreal span = top + bottom;
  const qreal w = std::min(0.56 * f.em + 0.06 * span, 1.0 * f.em);
  const qreal mid = bottom - 0.42 * std::min(span, 1.1 * f.em);
  QPainterPath thin, thick;
  thin.moveTo(0, mid + 0.06 * f.em);
  thin.lineTo(0.2 * w, mid);
  thick.moveTo(0.2 * w, mid);
  thick.lineTo(0.5 * w, bottom - t);
  thin.moveTo(0.5 * w, bottom - t);
  thin.lineTo(w, -top + t / 2);
  thin.lineTo(w + body.width + 0.1 * f.em, -top + t / 2);
  QPainterPathStroker pen;
  pen.setCapStyle(Qt::FlatCap);
  pen.setJoinStyle(Qt::MiterJoin);
  pen.setWidth(t);
  QPainterPath sign = pen.createStroke(thin);
  pen.setCapStyle(Qt::RoundCap);
  pen.setWidth(2.2 * t);
  Box b;
  b.items.push_back({{}, {}, {}, sign.united(pen.createStroke(thick))});
  b.width = w + body.width + 0.1 * f.em;
  b.height = top;
  b.depth = std::max(body.depth, bottom);
  b.place(std::move(body), w, 0);
  return b;
}

// A delimiter at least `need` tall, centred on the axis: the font's glyph when that is
// nearly tall enough (within `tolerance`; plain brackets, which TeX never grows, tolerate
// more), else drawn at least 1.2 times the glyph's size.
Box MathLayout::delimiter(QChar c, qreal need, Style style, Atom atom, qreal tolerance) {
  const StyleFont& f = font(style);
  if (c.isNull() || c == u'.') {
    Box b = space(0.12 * f.em);
    b.glue = false;
    b.left = b.right = atom;
    return b;
  }
  Box glyph = text(QString(c), style, Face::Upright, atom);
  static const QString drawn = u"()[]{}|‖⟨⟩"_s;
  const qreal glyphSize = glyph.height + glyph.depth;
  if (need <= tolerance * std::max(glyphSize, f.em) || !drawn.contains(c)) return glyph;
  const qreal h = std::max(need, 1.2 * glyphSize), yTop = -f.axis - h / 2,
              yBottom = -f.axis + h / 2;
  const qreal side = 0.08 * f.em, thick = 0.085 * f.em + 0.008 * h;
  const bool opening = c == u'(' || c == u'[' || c == u'{' || c == QChar(0x27E8);
  QPainterPath path;
  qreal width = 0;
  if (c == u'(' || c == u')') {
    const qreal bulge = std::clamp(0.1 * h, 0.2 * f.em, 0.5 * f.em);
    const qreal xr = side + bulge + thick;
    const qreal outer = (side - 0.25 * xr) / 0.75, inner = (side + thick - 0.25 * xr) / 0.75;
    path.moveTo(xr, yTop);
    path.cubicTo(outer, yTop + 0.3 * h, outer, yBottom - 0.3 * h, xr, yBottom);
    path.cubicTo(inner, yBottom - 0.3 * h, inner, yTop + 0.3 * h, xr, yTop);
    width = xr + side;
  } else if (c == u'[' || c == u']') {
    const qreal arm = 0.25 * f.em + 0.02 * h;
    path.addRect(side, yTop, thick, h);
    path.addRect(side, yTop, arm, f.rule * 1.2);
    path.addRect(side, yBottom - f.rule * 1.2, arm, f.rule * 1.2);
    width = 2 * side + arm;
  } else if (c == u'|' || c == QChar(0x2016)) {
    const int bars = c == u'|' ? 1 : 2;
    for (int i = 0; i < bars; ++i) path.addRect(side + i * 0.15 * f.em, yTop, f.rule * 1.2, h);
    width = 2 * side + (bars - 1) * 0.15 * f.em + f.rule * 1.2;
  } else {  // braces and angles: stroked centre lines
    QPainterPath line;
    const qreal w = std::min(0.3 * f.em + 0.05 * h, 0.7 * f.em), mid = (yTop + yBottom) / 2;
    const qreal xl = side, xr = side + w, xm = (xl + xr) / 2, r = std::min(0.2 * f.em, h / 8);
    if (c == u'{' || c == u'}') {
      line.moveTo(xr, yTop);
      line.quadTo(xm, yTop, xm, yTop + r);
      line.lineTo(xm, mid - r);
      line.quadTo(xm, mid, xl, mid);
      line.quadTo(xm, mid, xm, mid + r);
      line.lineTo(xm, yBottom - r);
      line.quadTo(xm, yBottom, xr, yBottom);
    } else {
      line.moveTo(xr, yTop);
      line.lineTo(xl, mid);
      line.lineTo(xr, yBottom);
    }
    QPainterPathStroker pen;
    pen.setWidth(0.9 * thick);
    pen.setCapStyle(Qt::RoundCap);
    path = pen.createStroke(line);
    width = xr + side;
  }
  path.setFillRule(Qt::WindingFill);  // overlapping parts stay filled
  if (!opening) path = QTransform(-1, 0, 0, 1, width, 0).map(path);
  Box b;
  b.width = width;
  b.height = -yTop;
  b.depth = yBottom;
  b.left = b.right = atom;
  b.items.push_back({{}, {}, {}, path});
  return b;
}

Box MathLayout::delimited(QChar open, Box body, QChar close, Style style, Atom left, Atom right,
                          qreal tolerance) {
  const StyleFont& f = font(style);
  // TeX: \delimiterfactor 901, \delimitershortfall 5pt.
  const qreal half = std::max(body.height - f.axis, body.depth + f.axis);
  const qreal need = std::max(2 * half * 0.901, 2 * half - 0.5 * f.em);
  std::vector<Box> parts;
  parts.push_back(delimiter(open, need, style, Atom::Open, tolerance));
  body.left = body.right = Atom::Ord;
  const bool elided = body.elided;
  parts.push_back(std::move(body));
  parts.push_back(delimiter(close, need, style, Atom::Close, tolerance));
  Box b = hpack(parts, style);
  b.left = left;
  b.right = right;
  b.glyph = false;
  b.elided = elided;
  return b;
}

// Rows of cells, each cell aligned in its column by align(column) ('l', 'c' or 'r'),
// `gap(column)` before each column; centred on the axis. As TeX: baselines at least
// \baselineskip (1.2 em) apart, else the rows' boxes \lineskip apart; plus `jot` ems.
Box MathLayout::layoutGrid(std::vector<std::vector<Box>>& rows, Style style,
                           const std::function<char(size_t)>& align,
                           const std::function<qreal(size_t)>& gap, qreal jot) {
  const StyleFont& f = font(style);
  const qreal strutHeight = 0.84 * f.em, strutDepth = 0.36 * f.em, lineskip = 0.25 * f.em;
  std::vector<qreal> widths;
  for (const auto& row : rows) {
    if (widths.size() < row.size()) widths.resize(row.size(), 0);
    for (size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].width);
  }
  std::vector<qreal> columnX(widths.size(), 0);
  qreal x = 0;
  for (size_t c = 0; c < widths.size(); ++c) {
    if (c > 0) x += gap(c);
    columnX[c] = x;
    x += widths[c];
  }
  Box b;
  b.width = x;
  qreal y = 0, depth = 0;  // baseline and depth of the current row, from the top
  for (size_t r = 0; r < rows.size(); ++r) {
    qreal height = 0;
    for (const Box& cell : rows[r]) height = std::max(height, cell.height);
    y = r == 0 ? std::max(height, strutHeight)
               : y + std::max(strutHeight + strutDepth, depth + height + lineskip) + jot * f.em;
    depth = 0;
    for (size_t c = 0; c < rows[r].size(); ++c) {
      Box& cell = rows[r][c];
      depth = std::max(depth, cell.depth);
      const char a = align(c);
      const qreal slack = widths[c] - cell.width;
      const qreal cx = columnX[c] + (a == 'l' ? 0 : a == 'r' ? slack : slack / 2);
      b.place(std::move(cell), cx, y);
    }
  }
  y += std::max(depth, strutDepth);
  // Centre on the axis.
  const qreal shift = -y / 2 - f.axis;
  for (MathItem& item : b.items) item.shift({0, shift});
  b.height = y / 2 + f.axis;
  b.depth = y / 2 - f.axis;
  b.rows = 1;
  return b;
}

}  // namespace nhui::math
// SPDX-License-Identifier: GPL-3.0-or-later
