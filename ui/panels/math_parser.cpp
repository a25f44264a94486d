// Reading math_view's LaTeX subset (math_parser.h): the symbols and spaces it knows, the
// tokens of the source, and a recursive parser of lists, groups, arguments, scripts,
// commands, \left…\right, environments and rows that builds the formula with MathLayout.
#include "ui/panels/math_parser.h"

#include <QHash>
#include <QRegularExpression>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

namespace nhui::math {

using namespace Qt::StringLiterals;

namespace {

// Nesting of groups and arguments beyond which input is skipped (shown as "…"): the parser
// recurses, and no formula a person reads nests this deep.
constexpr int kMaxDepth = 60;

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
        u"div ÷ b ast ∗ b circ ∘ b otimes ⊗ b oplus ⊕ b wedge ∧ b vee ∨ b cap ∩ b cup ∪ b neq ≠ r "
        u"ne ≠ r le ≤ r "
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

// Capital Latin letters in Unicode's mathematical script (𝒜, ℬ, 𝒞, …), the rest as they are:
// what \mathcal typesets.
QString script(const QString& text) {
  static const QHash<QChar, char32_t> exceptions = {{u'B', U'ℬ'}, {u'E', U'ℰ'}, {u'F', U'ℱ'},
                                                    {u'H', U'ℋ'}, {u'I', U'ℐ'}, {u'L', U'ℒ'},
                                                    {u'M', U'ℳ'}, {u'R', U'ℛ'}};
  QString out;
  for (const QChar c : text) {
    if (c < u'A' || c > u'Z') {
      out += c;
      continue;
    }
    const char32_t code = exceptions.value(c, U'𝒜' + static_cast<char32_t>(c.unicode() - u'A'));
    out += QString::fromUcs4(&code, 1);
  }
  return out;
}

// The delimiter a command names after \left or \right (0: none).
QChar delimiterOf(const QString& command) {
  static const QStringList names = u"{ } lbrace rbrace langle rangle | vert Vert"_s.split(u' ');
  return names.contains(command) ? symbols().value(command).text.at(0) : QChar();
}

class Typesetter {
 public:
  Typesetter(const QString& source, const QFont& font, const QPaintDevice* device)
      : src_(source), layout_(font, device) {}

  Box run() {
    auto rows = parseRows(Style::Display, true);
    size_t columns = 0;
    for (const auto& row : rows) columns = std::max(columns, row.size());
    Box b;
    if (rows.size() == 1 && columns == 1) {
      b = std::move(rows[0][0]);
    } else {
      b = layout_.layoutGrid(
          rows, Style::Display,
          [columns](size_t c) { return columns == 1 || c % 2 == 1 ? 'l' : 'r'; },
          [&](size_t c) { return c % 2 == 0 ? 2 * layout_.font(Style::Display).em : 0; }, 0.3);
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
      atoms.push_back(layout_.ellipsis(style));
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
        sup = layout_.text(u"′"_s, scriptStyle(style), Face::Upright, Atom::Ord);
      } else {
        break;
      }
    }
    if (!sup && !sub) return base;
    return layout_.scripts(std::move(base), std::move(sup), std::move(sub), style);
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
        return t.kind == Token::Number ? layout_.text(c, style, Face::Upright, Atom::Ord)
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
      return layout_.ellipsis(style);
    }
    if (t.kind == Token::Char) {
      next();
      return character(t.text, style);
    }
    return parseAtom(style, false).value_or(Box{});
  }

  Box letters(const QString& s, Style style) {
    const Face face = face_ ? *face_ : Face::Italic;
    return layout_.text(s, style, face, Atom::Ord);
  }

  Box character(const QString& c, Style style) {
    if (c == u"~") return layout_.space(6 * layout_.mu(style));
    if (const auto it = characters().constFind(c); it != characters().cend())
      return layout_.text(it->text, style, it->face, it->atom);
    const bool letter = !c.isEmpty() && c[0].isLetter();
    return letter ? letters(c, style) : layout_.text(c, style, Face::Upright, Atom::Ord);
  }

  // The atom at the current token; nothing for commands that only change state.
  std::optional<Box> parseAtom(Style style, bool rows) {
    const Token t = next();
    switch (t.kind) {
      case Token::Letters:
        return letters(t.text, style);
      case Token::Number:
        return layout_.text(t.text, style, face_ == Face::Bold ? Face::Bold : Face::Upright,
                            Atom::Ord);
      case Token::Open: {
        ++groups_;
        auto atoms = parseList(style, false);
        --groups_;
        if (peek().kind == Token::Close) next();
        Box b = layout_.hpack(atoms, style);
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
        Box body = layout_.hpack(atoms, style);
        if (peek().kind == Token::Char && peek().text == QString(*it)) {
          next();
          return layout_.delimited(t.text[0], std::move(body), *it, style, Atom::Open, Atom::Close,
                                   1.4);
        }
        std::vector<Box> parts;  // never closed: the bracket as a glyph, then the rest
        parts.push_back(character(t.text, style));
        parts.push_back(std::move(body));
        Box b = layout_.hpack(parts, style);
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
    if (const qreal mus = spaceOf(name); !std::isnan(mus))
      return layout_.space(mus * layout_.mu(style));
    if (const auto it = symbols().constFind(name); it != symbols().cend()) {
      Box b = layout_.text(it->text, style, it->face, it->atom);
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
      if (name != u"binom") return layout_.fraction(std::move(num), std::move(den), outer);
      return layout_.delimited(u'(', layout_.fraction(std::move(num), std::move(den), outer, false),
                               u')', outer, Atom::Open, Atom::Close);
    }
    if (name == u"sqrt") {
      if (peek().kind == Token::Char && peek().text == u"[") {  // an index: not drawn
        next();
        parseList(Style::ScriptScript, false, u']');
        if (peek().kind == Token::Char && peek().text == u"]") next();
      }
      return layout_.radical(parseArgument(style), style);
    }
    static const QStringList accents = {"dot", "ddot", "dddot", "bar", "overline"};
    if (accents.contains(name)) return layout_.accent(parseArgument(style), name, style);
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
    if (name == u"mathcal")
      return layout_.text(script(rawArgument()), style, Face::Upright, Atom::Ord);
    if (name == u"text" || name == u"mbox" || name == u"textrm" || name == u"hbox" ||
        name == u"textup" || name == u"mathtt" || name == u"textnormal")
      return layout_.text(rawArgument(), style, Face::Upright, Atom::Ord);
    if (name == u"textit" || name == u"emph")
      return layout_.text(rawArgument(), style, Face::Italic, Atom::Ord);
    if (name == u"textbf") return layout_.text(rawArgument(), style, Face::Bold, Atom::Ord);
    if (name == u"operatorname") {
      if (peek().kind == Token::Char && peek().text == u"*") next();
      Box b = layout_.text(rawArgument(), style, Face::Upright, Atom::Op);
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
      return layout_.delimited(open, layout_.hpack(atoms, style), close, style, Atom::Inner,
                               Atom::Inner);
    }
    if (name == u"right") return layout_.delimiter(readDelimiter(), 0, style, Atom::Close);
    if (name == u"begin") return environment(style);
    if (name == u"end" || name == u"label" || name == u"tag") {  // \end without \begin
      rawArgument();
      return std::nullopt;
    }
    // Unknown: its name, readable but grey; an argument in braces follows as a group.
    return layout_.text(u"\\"_s + name, style, Face::Upright, Atom::Ord, true);
  }

  // Cells up to \end (or the end of the enclosing group); `pairs`: amsmath's aligned, where
  // the right-hand column of each pair starts as after an empty atom ({}=…).
  std::vector<std::vector<Box>> parseRows(Style style, bool pairs) {
    std::vector<std::vector<Box>> rows(1);
    static const QRegularExpression dimension(u"^\\[\\s*-?[0-9.]+\\s*[a-z]{2}\\s*\\]"_s);
    for (;;) {
      auto atoms = parseList(style, true);
      if (pairs && rows.back().size() % 2 == 1) atoms.insert(atoms.begin(), Box{});
      rows.back().push_back(layout_.hpack(atoms, style));
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
    const qreal em = layout_.font(cells).em;
    Box grid = layout_.layoutGrid(
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
                : layout_.delimited(open, std::move(grid), close, style, Atom::Inner, Atom::Inner);
    if (known) return b;
    std::vector<Box> parts;  // unknown environment: its name in grey, then the cells
    parts.push_back(
        layout_.text(u"\\begin{"_s + name + u"}"_s, style, Face::Upright, Atom::Ord, true));
    parts.push_back(std::move(b));
    return layout_.hpack(parts, style);
  }

  QString src_;
  qsizetype pos_ = 0;
  MathLayout layout_;
  std::optional<Face> face_;  // \mathrm and friends
  int depth_ = 0, groups_ = 0, lefts_ = 0, environments_ = 0;
};

}  // namespace

MathBox typeset(const QString& latex, const QFont& font, const QPaintDevice* device) {
  return Typesetter(latex, font, device).run();
}

}  // namespace nhui::math
// SPDX-License-Identifier: GPL-3.0-or-later
