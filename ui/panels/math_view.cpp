// MathView (math_view.h): the LaTeX subset parsed into boxes (symbols, fractions, scripts,
// matrices, delimiters), laid out with TeX's styles and spacing, and painted with QPainter.
#include "ui/panels/math_view.h"

#include <QEvent>
#include <QFontMetricsF>
#include <QHash>
#include <QPainter>
#include <QPainterPath>
#include <QPainterPathStroker>
#include <QRegularExpression>
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <vector>

namespace nhui {

using namespace Qt::StringLiterals;

namespace {

// TeX's atom classes (The TeXbook, ch. 17) decide the spacing between neighbours.
enum class Atom { Ord, Op, Bin, Rel, Open, Close, Punct, Inner };
enum class Style { Display, Text, Script, ScriptScript };
enum class Face { Upright, Italic, Bold };

Style scriptStyle(Style s) { return s <= Style::Text ? Style::Script : Style::ScriptScript; }
Style fractionStyle(Style s) { return s == Style::ScriptScript ? s : Style(int(s) + 1); }

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

// Nesting of groups and arguments beyond which input is skipped (shown as "…"): the parser
// recurses, and no formula a person reads nests this deep.
constexpr int kMaxDepth = 60;

}  // namespace

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
  Atom left = Atom::Ord, right = Atom::Ord;
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

namespace {

using Box = MathBox;

// Fonts and TeX's font parameters of one style.
struct StyleFont {
  std::array<QFont, 3> fonts;
  std::vector<QFontMetricsF> metrics;
  qreal em = 0, xHeight = 0, axis = 0, rule = 0;

  StyleFont(const QFont& base, qreal scale, const QPaintDevice* device) {
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
};

bool isAsciiLetter(QChar c) {
  return (c >= QLatin1Char('a') && c <= QLatin1Char('z')) ||
         (c >= QLatin1Char('A') && c <= QLatin1Char('Z'));
}

struct Symbol {
  QString text;
  Atom atom;
  Face face;
};

// Symbols listed as name, character and class (o ordinary, O ordinary in italics, b binary
// operator, r relation, p large operator, ( opening, ) closing, , punctuation, i inner).
QHash<QString, Symbol> symbolTable(const char16_t* list) {
  static const QString classes = u"opbr(),i"_s;  // in Atom order
  QHash<QString, Symbol> table;
  const QStringList words = QString::fromUtf16(list).split(u' ', Qt::SkipEmptyParts);
  for (qsizetype i = 0; i + 2 < words.size(); i += 3) {
    const QChar c = words[i + 2][0];
    const auto atom = std::max<qsizetype>(0, classes.indexOf(c.toLower()));
    table.insert(words[i], {words[i + 1], Atom(atom), c == u'O' ? Face::Italic : Face::Upright});
  }
  return table;
}

const QHash<QString, Symbol>& symbols() {  // commands
  static const QHash<QString, Symbol> table = [] {
    auto t = symbolTable(
        u"alpha α O beta β O gamma γ O delta δ O epsilon ϵ O varepsilon ε O zeta ζ O eta η O "
        u"theta θ O vartheta ϑ O iota ι O kappa κ O lambda λ O mu μ O nu ν O xi ξ O pi π O "
        u"varpi ϖ O rho ρ O varrho ϱ O sigma σ O varsigma ς O tau τ O upsilon υ O phi ϕ O "
        u"varphi φ O chi χ O psi ψ O omega ω O partial ∂ O hbar ℏ O Gamma Γ o Delta Δ o "
        u"Theta Θ o Lambda Λ o Xi Ξ o Pi Π o Sigma Σ o Upsilon Υ o Phi Φ o Psi Ψ o Omega Ω o "
        u"infty ∞ o nabla ∇ o ell ℓ o prime ′ o vdots ⋮ o cdot ⋅ b times × b pm ± b mp ∓ b "
        u"div ÷ b ast ∗ b circ ∘ b wedge ∧ b vee ∨ b cap ∩ b cup ∪ b neq ≠ r ne ≠ r le ≤ r "
        u"leq ≤ r ge ≥ r geq ≥ r ll ≪ r gg ≫ r approx ≈ r equiv ≡ r sim ∼ r simeq ≃ r "
        u"propto ∝ r to → r rightarrow → r leftarrow ← r Rightarrow ⇒ r Leftrightarrow ⇔ r "
        u"mapsto ↦ r in ∈ r subset ⊂ r perp ⊥ r parallel ∥ r ldots … i dots … i cdots ⋯ i "
        u"sum ∑ p prod ∏ p int ∫ p langle ⟨ ( rangle ⟩ ) lbrace { ( rbrace } ) { { ( } } ) "
        u"| ‖ o vert | o Vert ‖ o _ _ o % % o & & o # # o $ $ o backslash \\ o");
    for (const QString& f :
         u"sin cos tan cot sec csc arcsin arccos arctan sinh cosh tanh coth "
         u"exp log ln lg det dim min max sup inf lim arg deg gcd Pr ker"_s.split(u' '))
      t.insert(f, {f, Atom::Op, Face::Upright});
    return t;
  }();
  return table;
}

const QHash<QString, Symbol>& characters() {  // typed as themselves; - is the minus sign
  static const QHash<QString, Symbol> table = symbolTable(
      u"+ + b - − b * ∗ b = = r < < r > > r : : r , , , ; ; , ( ( ( [ [ ( ) ) ) "
      u"] ] ) ! ! ) ? ? ) ' ′ o | | o");
  return table;
}

// Spaces in mu (1/18 em); NaN for other commands. "\ " is a word space.
qreal spaceOf(const QString& command) {
  static const QHash<QString, qreal> table = [] {
    QHash<QString, qreal> t = {{" ", 6}};
    const QStringList words =
        u", 3 : 4 > 4 ; 5 ! -3 quad 18 qquad 36 enspace 9 thinspace 3 "
        u"medspace 4 thickspace 5 negthinspace -3"_s.split(u' ');
    for (qsizetype i = 0; i + 1 < words.size(); i += 2) t.insert(words[i], words[i + 1].toDouble());
    return t;
  }();
  return table.value(command, qQNaN());
}

// The delimiter a command names after \left or \right (0: none).
QChar delimiterOf(const QString& command) {
  static const QStringList names = u"{ } lbrace rbrace langle rangle | vert Vert"_s.split(u' ');
  return names.contains(command) ? symbols().value(command).text.at(0) : QChar();
}

class Typesetter {
 public:
  Typesetter(const QString& source, const QFont& font, const QPaintDevice* device)
      : src_(source), base_(font), device_(device) {}

  Box run() {
    auto rows = parseRows(Style::Display, true);
    size_t columns = 0;
    for (const auto& row : rows) columns = std::max(columns, row.size());
    Box b;
    if (rows.size() == 1 && columns == 1) {
      b = std::move(rows[0][0]);
    } else {
      b = layoutGrid(
          rows, Style::Display,
          [columns](size_t c) { return columns == 1 || c % 2 == 1 ? 'l' : 'r'; },
          [&](size_t c) { return c % 2 == 0 ? 2 * font(Style::Display).em : 0; }, 0.3);
      b.rows = int(rows.size());
    }
    b.width = std::max(b.width, 0.0);  // \! alone
    return b;
  }

 private:
  struct Token {
    enum Kind { End, Command, Open, Close, Sup, Sub, Align, Letters, Number, Char } kind = End;
    QString text;
    int length = 0;
  };

  // ---- Tokens --------------------------------------------------------------------------

  Token peek() {
    while (pos_ < src_.size()) {  // spaces and % comments
      if (src_[pos_].isSpace()) {
        ++pos_;
      } else if (src_[pos_] == u'%') {
        while (pos_ < src_.size() && src_[pos_] != u'\n') ++pos_;
      } else {
        break;
      }
    }
    const qsizetype n = src_.size();
    if (pos_ >= n) return {};
    const QChar c = src_[pos_];
    if (c == u'\\') {
      if (pos_ + 1 >= n) return {Token::Command, QString(), 1};
      qsizetype e = pos_ + 1;
      if (!isAsciiLetter(src_[e])) return {Token::Command, QString(src_[e]), 2};
      while (e < n && isAsciiLetter(src_[e])) ++e;
      return {Token::Command, src_.mid(pos_ + 1, e - pos_ - 1), int(e - pos_)};
    }
    auto single = [&](Token::Kind kind) { return Token{kind, QString(c), 1}; };
    switch (c.unicode()) {
      case u'{':
        return single(Token::Open);
      case u'}':
        return single(Token::Close);
      case u'^':
        return single(Token::Sup);
      case u'_':
        return single(Token::Sub);
      case u'&':
        return single(Token::Align);
    }
    qsizetype e = pos_;
    if (isAsciiLetter(c)) {
      while (e < n && isAsciiLetter(src_[e])) ++e;
      return {Token::Letters, src_.mid(pos_, e - pos_), int(e - pos_)};
    }
    if (c.isDigit() || (c == u'.' && pos_ + 1 < n && src_[pos_ + 1].isDigit())) {
      while (e < n && (src_[e].isDigit() || src_[e] == u'.')) ++e;
      return {Token::Number, src_.mid(pos_, e - pos_), int(e - pos_)};
    }
    const int length = c.isHighSurrogate() && pos_ + 1 < n ? 2 : 1;
    return {Token::Char, src_.mid(pos_, length), length};
  }
  Token next() {
    Token t = peek();
    pos_ += t.length;
    return t;
  }
  bool atCommand(const char* name) {
    const Token t = peek();
    return t.kind == Token::Command && t.text == QLatin1String(name);
  }
  // The raw text of a {…} argument (braces inside kept balanced, dropped), or of the next
  // character when there is no brace.
  QString rawArgument() {
    peek();
    if (pos_ >= src_.size()) return {};
    if (src_[pos_] == u'}') return {};
    if (src_[pos_] != u'{') return src_.mid(pos_++, 1);
    QString out;
    int level = 0;
    for (++pos_; pos_ < src_.size(); ++pos_) {
      const QChar c = src_[pos_];
      if (c == u'\\' && pos_ + 1 < src_.size() && !isAsciiLetter(src_[pos_ + 1])) {
        out += src_[++pos_];
      } else if (c == u'{') {
        ++level;
      } else if (c == u'}') {
        if (level-- == 0) {
          ++pos_;
          break;
        }
      } else {
        out += c;
      }
    }
    return out;
  }
  // Skips to the end of the innermost open group (its } is left for the caller).
  void skipGroup() {
    int level = 0;
    for (Token t = peek(); t.kind != Token::End; t = peek()) {
      if (t.kind == Token::Close && level-- == 0) return;
      if (t.kind == Token::Open) ++level;
      next();
    }
  }

  // ---- Boxes ---------------------------------------------------------------------------

  const StyleFont& font(Style s) {
    auto& slot = fonts_[int(s)];
    static constexpr qreal kScale[] = {1.0, 1.0, 0.7, 0.5};
    if (!slot) slot.emplace(base_, kScale[int(s)], device_);
    return *slot;
  }
  qreal mu(Style s) { return font(s).em / 18; }

  Box text(const QString& s, Style style, Face face, Atom atom, bool dim = false) {
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
  Box space(qreal width) {
    Box b;
    b.width = width;
    b.glue = true;
    return b;
  }
  Box ellipsis(Style style) {
    Box b = text(u"…"_s, style, Face::Upright, Atom::Ord, true);
    b.elided = true;
    return b;
  }

  // A horizontal list with TeX's spacing; binary operators without operands become
  // ordinary (the unary minus).
  Box hpack(std::vector<Box>& atoms, Style style) {
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

  Box fraction(Box num, Box den, Style style, bool withRule = true) {
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

  Box scripts(Box base, std::optional<Box> sup, std::optional<Box> sub, Style style) {
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
  Box accent(Box base, const QString& kind, Style style) {
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
      mark.addRect(inset + (base.slanted ? 0.2 * top : 0), -top - 4 * f.rule,
                   base.width - 2 * inset, f.rule);
      b.height = top + 4 * f.rule;
    }
    b.items.push_back({{}, {}, {}, mark});
    b.height = std::max(b.height, base.height);
    b.place(std::move(base), 0, 0);
    return b;
  }

  // A radical sign (a short rise, a thick down-stroke, a thin up-stroke) with a bar over `body`.
  Box radical(Box body, Style style) {
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
  Box delimiter(QChar c, qreal need, Style style, Atom atom, qreal tolerance = 1.1) {
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

  Box delimited(QChar open, Box body, QChar close, Style style, Atom left, Atom right,
                qreal tolerance = 1.1) {
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
  template <typename Align, typename Gap>
  Box layoutGrid(std::vector<std::vector<Box>>& rows, Style style, Align align, Gap gap,
                 qreal jot) {
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

  // ---- Parsing -------------------------------------------------------------------------

  struct Nest {  // counts recursion depth
    explicit Nest(int& depth) : count(depth) { ++count; }
    ~Nest() { --count; }
    int& count;
  };

  // Atoms up to the end of the current group, environment, \left…\right or, when `rows`,
  // the next & or \\; up to `closer` when given (plain brackets).
  std::vector<Box> parseList(Style style, bool rows, QChar closer = {}) {
    Nest nest(depth_);
    std::vector<Box> atoms;
    if (depth_ > kMaxDepth) {
      skipGroup();
      atoms.push_back(ellipsis(style));
      return atoms;
    }
    for (;;) {
      const Token t = peek();
      if (t.kind == Token::End) break;
      if (t.kind == Token::Close) {
        if (groups_ > 0) break;
        next();  // a stray }
        continue;
      }
      if (t.kind == Token::Align || (t.kind == Token::Command && t.text == u"\\")) {
        if (rows) break;
        next();
        continue;
      }
      if (t.kind == Token::Command && t.text == u"right" && lefts_ > 0) break;
      if (t.kind == Token::Command && t.text == u"end" && environments_ > 0) break;
      if (t.kind == Token::Char && !closer.isNull() && t.text == QString(closer)) break;
      if (t.kind == Token::Command && styleSwitch(t.text, style)) {
        next();
        continue;
      }
      std::optional<Box> atom;
      if (t.kind == Token::Sup || t.kind == Token::Sub) {
        atom = Box{};
      } else {
        atom = parseAtom(style, rows);
        if (!atom) continue;
      }
      atoms.push_back(withScripts(std::move(*atom), style));
    }
    return atoms;
  }

  static bool styleSwitch(const QString& command, Style& style) {
    static const QHash<QString, Style> styles = {{"displaystyle", Style::Display},
                                                 {"textstyle", Style::Text},
                                                 {"scriptstyle", Style::Script},
                                                 {"scriptscriptstyle", Style::ScriptScript}};
    static const QStringList ignored = {"limits", "nolimits",      "nonumber",  "notag",
                                        "relax",  "displaylimits", "mathstrut", "strut"};
    if (styles.contains(command)) {
      style = styles.value(command);
      return true;
    }
    return ignored.contains(command);
  }

  Box withScripts(Box base, Style style) {
    std::optional<Box> sup, sub;
    for (;;) {
      const Token t = peek();
      if (t.kind == Token::Sup || t.kind == Token::Sub) {
        auto& slot = t.kind == Token::Sup ? sup : sub;
        if (slot) break;  // a double script goes to a new, empty base
        next();
        slot = parseArgument(scriptStyle(style));
      } else if (t.kind == Token::Char && t.text == u"'" && !sup) {
        next();
        sup = text(u"′"_s, scriptStyle(style), Face::Upright, Atom::Ord);
      } else {
        break;
      }
    }
    if (!sup && !sub) return base;
    return scripts(std::move(base), std::move(sup), std::move(sub), style);
  }

  // One argument: a {group} or a single token.
  Box parseArgument(Style style) {
    Nest nest(depth_);
    const Token t = peek();
    switch (t.kind) {
      case Token::End:
      case Token::Close:
      case Token::Sup:
      case Token::Sub:
      case Token::Align:
        return {};
      case Token::Letters:
      case Token::Number: {
        const int length = src_[pos_].isHighSurrogate() ? 2 : 1;
        const QString c = src_.mid(pos_, length);
        pos_ += length;
        return t.kind == Token::Number ? text(c, style, Face::Upright, Atom::Ord)
                                       : letters(c, style);
      }
      default:
        break;
    }
    if (t.kind == Token::Command && (t.text == u"\\" || t.text == u"right" || t.text == u"end"))
      return {};
    if (depth_ > kMaxDepth) {
      if (t.kind == Token::Open) {
        next();
        skipGroup();
        if (peek().kind == Token::Close) next();
      } else {
        next();
      }
      return ellipsis(style);
    }
    if (t.kind == Token::Char) {
      next();
      return character(t.text, style);
    }
    return parseAtom(style, false).value_or(Box{});
  }

  Box letters(const QString& s, Style style) {
    const Face face = face_ ? *face_ : Face::Italic;
    return text(s, style, face, Atom::Ord);
  }

  Box character(const QString& c, Style style) {
    if (c == u"~") return space(6 * mu(style));
    if (const auto it = characters().constFind(c); it != characters().cend())
      return text(it->text, style, it->face, it->atom);
    const bool letter = !c.isEmpty() && c[0].isLetter();
    return letter ? letters(c, style) : text(c, style, Face::Upright, Atom::Ord);
  }

  // The atom at the current token; nothing for commands that only change state.
  std::optional<Box> parseAtom(Style style, bool rows) {
    const Token t = next();
    switch (t.kind) {
      case Token::Letters:
        return letters(t.text, style);
      case Token::Number:
        return text(t.text, style, face_ == Face::Bold ? Face::Bold : Face::Upright, Atom::Ord);
      case Token::Open: {
        ++groups_;
        auto atoms = parseList(style, false);
        --groups_;
        if (peek().kind == Token::Close) next();
        Box b = hpack(atoms, style);
        b.left = b.right = Atom::Ord;  // TeX: a {group} is an ordinary atom
        return b;
      }
      case Token::Char: {
        // Plain brackets and |x| grow with what they enclose when they are closed in the
        // same list.
        static const QHash<QString, QChar> closers = {{"(", u')'}, {"[", u']'}, {"|", u'|'}};
        const auto it = closers.constFind(t.text);
        if (it == closers.cend()) return character(t.text, style);
        auto atoms = parseList(style, rows, *it);
        Box body = hpack(atoms, style);
        if (peek().kind == Token::Char && peek().text == QString(*it)) {
          next();
          return delimited(t.text[0], std::move(body), *it, style, Atom::Open, Atom::Close, 1.4);
        }
        std::vector<Box> parts;  // never closed: the bracket as a glyph, then the rest
        parts.push_back(character(t.text, style));
        parts.push_back(std::move(body));
        Box b = hpack(parts, style);
        b.glyph = false;
        return b;
      }
      case Token::Command:
        return command(t.text, style);
      default:  // }, &, ^, _ are handled by the callers; the end is never consumed
        return std::nullopt;
    }
  }

  QChar readDelimiter() {
    const Token t = peek();
    if (t.kind == Token::Char) {
      next();
      return t.text[0];
    }
    if (t.kind == Token::Command && !delimiterOf(t.text).isNull()) {
      next();
      return delimiterOf(t.text);
    }
    return u'.';
  }

  std::optional<Box> command(const QString& name, Style style) {
    if (const qreal mus = spaceOf(name); !std::isnan(mus)) return space(mus * mu(style));
    if (const auto it = symbols().constFind(name); it != symbols().cend()) {
      Box b = text(it->text, style, it->face, it->atom);
      if (it->atom == Atom::Op) b.glyph = false;  // \sin^2: scripts as on a word
      return b;
    }
    if (name == u"frac" || name == u"dfrac" || name == u"tfrac" || name == u"cfrac" ||
        name == u"binom") {
      const Style outer = name == u"dfrac"   ? Style::Display
                          : name == u"tfrac" ? Style::Text
                                             : style;
      Box num = parseArgument(fractionStyle(outer));
      Box den = parseArgument(fractionStyle(outer));
      if (name != u"binom") return fraction(std::move(num), std::move(den), outer);
      return delimited(u'(', fraction(std::move(num), std::move(den), outer, false), u')', outer,
                       Atom::Open, Atom::Close);
    }
    if (name == u"sqrt") {
      if (peek().kind == Token::Char && peek().text == u"[") {  // an index: not drawn
        next();
        parseList(Style::ScriptScript, false, u']');
        if (peek().kind == Token::Char && peek().text == u"]") next();
      }
      return radical(parseArgument(style), style);
    }
    static const QStringList accents = {"dot", "ddot", "dddot", "bar", "overline"};
    if (accents.contains(name)) return accent(parseArgument(style), name, style);
    static const QHash<QString, Face> faces = {
        {"mathrm", Face::Upright},  {"mathit", Face::Italic},  {"mathbf", Face::Bold},
        {"boldsymbol", Face::Bold}, {"mathsf", Face::Upright}, {"mathnormal", Face::Italic}};
    if (faces.contains(name)) {
      const std::optional<Face> saved = face_;
      face_ = faces.value(name);
      Box b = parseArgument(style);
      face_ = saved;
      return b;
    }
    if (name == u"text" || name == u"mbox" || name == u"textrm" || name == u"hbox" ||
        name == u"textup" || name == u"mathtt" || name == u"textnormal")
      return text(rawArgument(), style, Face::Upright, Atom::Ord);
    if (name == u"textit" || name == u"emph")
      return text(rawArgument(), style, Face::Italic, Atom::Ord);
    if (name == u"textbf") return text(rawArgument(), style, Face::Bold, Atom::Ord);
    if (name == u"operatorname") {
      if (peek().kind == Token::Char && peek().text == u"*") next();
      Box b = text(rawArgument(), style, Face::Upright, Atom::Op);
      b.glyph = false;
      return b;
    }
    if (name == u"left") {
      const QChar open = readDelimiter();
      ++lefts_;
      auto atoms = parseList(style, false);
      --lefts_;
      QChar close = u'.';
      if (atCommand("right")) {
        next();
        close = readDelimiter();
      }
      return delimited(open, hpack(atoms, style), close, style, Atom::Inner, Atom::Inner);
    }
    if (name == u"right") return delimiter(readDelimiter(), 0, style, Atom::Close);
    if (name == u"begin") return environment(style);
    if (name == u"end" || name == u"label" || name == u"tag") {  // \end without \begin
      rawArgument();
      return std::nullopt;
    }
    // Unknown: its name, readable but grey; an argument in braces follows as a group.
    return text(u"\\"_s + name, style, Face::Upright, Atom::Ord, true);
  }

  // Cells up to \end (or the end of the enclosing group); `pairs`: amsmath's aligned, where
  // the right-hand column of each pair starts as after an empty atom ({}=…).
  std::vector<std::vector<Box>> parseRows(Style style, bool pairs) {
    std::vector<std::vector<Box>> rows(1);
    static const QRegularExpression dimension(u"^\\[\\s*-?[0-9.]+\\s*[a-z]{2}\\s*\\]"_s);
    for (;;) {
      auto atoms = parseList(style, true);
      if (pairs && rows.back().size() % 2 == 1) atoms.insert(atoms.begin(), Box{});
      rows.back().push_back(hpack(atoms, style));
      const Token t = peek();
      if (t.kind == Token::Align) {
        next();
      } else if (t.kind == Token::Command && t.text == u"\\") {
        next();
        const auto skip = dimension.match(src_.mid(pos_, 40));  // \\[2pt]
        if (skip.hasMatch()) pos_ += skip.capturedLength();
        rows.emplace_back();
      } else {
        break;
      }
    }
    // A \\ after the last line starts no new one.
    if (rows.size() > 1 && rows.back().size() == 1 && rows.back()[0].items.empty()) rows.pop_back();
    return rows;
  }

  Box environment(Style style) {
    const QString name = rawArgument();
    QString alignments;
    if (name == u"array") alignments = rawArgument();
    if (name.startsWith(u"alignat") || name == u"alignedat") rawArgument();
    const bool aligned =
        name.startsWith(u"align") || name == u"split" || name.startsWith(u"eqnarray");
    const bool gathered =
        name.startsWith(u"gather") || name.startsWith(u"equation") || name.startsWith(u"multline");
    static const QHash<QString, std::pair<QChar, QChar>> fences = {
        {"matrix", {u'.', u'.'}},
        {"smallmatrix", {u'.', u'.'}},
        {"pmatrix", {u'(', u')'}},
        {"bmatrix", {u'[', u']'}},
        {"Bmatrix", {u'{', u'}'}},
        {"vmatrix", {u'|', u'|'}},
        {"Vmatrix", {QChar(0x2016), QChar(0x2016)}},
        {"cases", {u'{', u'.'}},
        {"array", {u'.', u'.'}}};
    const bool known = aligned || gathered || fences.contains(name);
    const Style cells = aligned || gathered      ? style
                        : name == u"smallmatrix" ? Style::Script
                                                 : std::max(style, Style::Text);
    ++environments_;
    auto rows = parseRows(cells, aligned);
    --environments_;
    if (atCommand("end")) {
      next();
      rawArgument();
    }
    QString columns;  // l, c or r per column
    for (QChar c : alignments)
      if (c == u'l' || c == u'c' || c == u'r') columns += c;
    const qreal em = font(cells).em;
    Box grid = layoutGrid(
        rows, style,
        [&](size_t c) -> char {
          if (aligned) return c % 2 == 0 ? 'r' : 'l';
          if (name == u"cases") return 'l';
          return c < size_t(columns.size()) ? char(columns[c].unicode()) : 'c';
        },
        [&](size_t c) { return aligned ? (c % 2 == 1 ? 0 : 2 * em) : em; },
        aligned || gathered ? 0.3 : 0.1);
    if (aligned || gathered) grid.rows = int(rows.size());
    const auto [open, close] = fences.value(name, {u'.', u'.'});
    Box b = open == u'.' && close == u'.'
                ? std::move(grid)
                : delimited(open, std::move(grid), close, style, Atom::Inner, Atom::Inner);
    if (known) return b;
    std::vector<Box> parts;  // unknown environment: its name in grey, then the cells
    parts.push_back(text(u"\\begin{"_s + name + u"}"_s, style, Face::Upright, Atom::Ord, true));
    parts.push_back(std::move(b));
    return hpack(parts, style);
  }

  QString src_;
  qsizetype pos_ = 0;
  QFont base_;
  const QPaintDevice* device_;
  std::array<std::optional<StyleFont>, 4> fonts_;
  std::optional<Face> face_;  // \mathrm and friends
  int depth_ = 0, groups_ = 0, lefts_ = 0, environments_ = 0;
};

MathLayoutInfo infoOf(const Box& b) { return {b.width, b.height, b.depth, b.rows, b.elided}; }

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
  return infoOf(Typesetter(latex, font, nullptr).run());
}

const MathBox& MathView::box() const {
  if (!box_)
    box_ =
        std::make_shared<const MathBox>(Typesetter(latex_, mathFont(fontPointSize()), this).run());
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
