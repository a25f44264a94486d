// The boxes a typeset formula is made of and TeX's rules for building them, shared by
// math_view's parser and layout (not for callers): TeX's atom classes, styles and faces;
// MathItem and MathBox; a style's fonts with TeX's font parameters; and MathLayout, which
// builds the boxes of text, spaces, lists, fractions, scripts, accents, radicals, delimiters
// and grids in one base font.
#pragma once

#include <QFont>
#include <QFontMetricsF>
#include <QPainterPath>
#include <QPointF>
#include <QString>
#include <algorithm>
#include <array>
#include <functional>
#include <optional>
#include <vector>

class QPaintDevice;

namespace nhui {

namespace math {

// TeX's atom classes (The TeXbook, ch. 17) decide the spacing between neighbours.
enum class Atom { Ord, Op, Bin, Rel, Open, Close, Punct, Inner };
enum class Style { Display, Text, Script, ScriptScript };
enum class Face { Upright, Italic, Bold };

inline Style scriptStyle(Style s) { return s <= Style::Text ? Style::Script : Style::ScriptScript; }
inline Style fractionStyle(Style s) { return s == Style::ScriptScript ? s : Style(int(s) + 1); }

}  // namespace math

// One thing to paint, relative to its box's baseline origin (y grows downwards).
struct MathItem {
  QPointF at;  // text: the baseline origin
  QString text;
  QFont font;
  QPainterPath shape;  // filled (rules, radicals, grown delimiters, dots) when text is empty
  bool dim = false;    // unknown input, shown in grey

  void shift(QPointF d) {
    at += d;
    if (!shape.isEmpty()) shape.translate(d);
  }
};

struct MathBox {
  qreal width = 0, height = 0, depth = 0;
  qreal italic = 0;  // italic correction: how far the ink leans past the width
  math::Atom left = math::Atom::Ord, right = math::Atom::Ord;
  bool glyph = false;    // one run of characters (scripts then sit at fixed heights)
  bool slanted = false;  // italic: accents sit right of the middle
  bool glue = false;     // a space: no atom for the spacing rules
  int rows = 1;
  bool elided = false;
  std::vector<MathItem> items;

  void place(MathBox&& child, qreal dx, qreal dy) {  // dy > 0: below the baseline
    for (MathItem& item : child.items) {
      item.shift({dx, dy});
      items.push_back(std::move(item));
    }
    rows = std::max(rows, child.rows);
    elided = elided || child.elided;
  }
};

namespace math {

using Box = MathBox;

// Fonts and TeX's font parameters of one style.
struct StyleFont {
  std::array<QFont, 3> fonts;
  std::vector<QFontMetricsF> metrics;
  qreal em = 0, xHeight = 0, axis = 0, rule = 0;

  StyleFont(const QFont& base, qreal scale, const QPaintDevice* device);
};

// Builds boxes by TeX's rules (simplified) in the fonts of one base font, measured on one
// paint device (nullptr: the default logical DPI); the fonts of a style are made when first
// used. Each rule is described at its definition (math_layout.cpp).
class MathLayout {
 public:
  MathLayout(const QFont& font, const QPaintDevice* device) : base_(font), device_(device) {}

  const StyleFont& font(Style s);
  qreal mu(Style s);  // 1/18 em

  Box text(const QString& s, Style style, Face face, Atom atom, bool dim = false);
  Box space(qreal width);
  Box ellipsis(Style style);
  Box hpack(std::vector<Box>& atoms, Style style);
  Box fraction(Box num, Box den, Style style, bool withRule = true);
  Box scripts(Box base, std::optional<Box> sup, std::optional<Box> sub, Style style);
  Box accent(Box base, const QString& kind, Style style);
  Box radical(Box body, Style style);
  Box delimiter(QChar c, qreal need, Style style, Atom atom, qreal tolerance = 1.1);
  Box delimited(QChar open, Box body, QChar close, Style style, Atom left, Atom right,
                qreal tolerance = 1.1);
  Box layoutGrid(std::vector<std::vector<Box>>& rows, Style style,
                 const std::function<char(size_t)>& align, const std::function<qreal(size_t)>& gap,
                 qreal jot);

 private:
  QFont base_;
  const QPaintDevice* device_;
  std::array<std::optional<StyleFont>, 4> fonts_;
};

}  // namespace math

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
