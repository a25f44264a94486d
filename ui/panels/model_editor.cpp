// The model editor (model_editor.h): the syntax highlighter, the text edit with its line-number
// gutter and error mark, and the ModelEditor around them (template, delayed check, status
// line, Apply, Save, Save As, Revert).
#include "ui/panels/model_editor.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QPainter>
#include <QRegularExpression>
#include <QTextBlock>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>

#include "core/io/atomic_file.h"
#include "core/model/catalogue.h"
#include "core/nh/errors.h"

namespace nhui {

// ---- Highlighter --------------------------------------------------------------------------

namespace {

QTextCharFormat charFormat(const QColor& colour, bool bold = false, bool italic = false) {
  QTextCharFormat f;
  f.setForeground(colour);
  if (bold) f.setFontWeight(QFont::DemiBold);
  f.setFontItalic(italic);
  return f;
}

// docs/model-format.md, "Expressions".
const QRegularExpression& functionPattern() {
  static const QRegularExpression re(
      "\\b(?:atan2|asin|acos|atan|sinh|cosh|tanh|sin|cos|tan|exp|log|sqrt|abs)\\b");
  return re;
}
const QRegularExpression& numberPattern() {
  static const QRegularExpression re(
      "(?<![\\w.])(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?(?!\\w)");
  return re;
}
const QRegularExpression& keyPattern() {
  // A mapping key: a plain word followed by ':' and a space or the line's end.
  static const QRegularExpression re("(?<![\\w\"'])[A-Za-z_][\\w]*(?=\\s*:(?:\\s|$))");
  return re;
}

enum BlockState { Plain = -1, InDoubleQuote = 1, InSingleQuote = 2 };

}  // namespace

ModelHighlighter::ModelHighlighter(QTextDocument* document, bool dark)
    : QSyntaxHighlighter(document) {
  setDarkBackground(dark);
}

void ModelHighlighter::setDarkBackground(bool dark) {
  key_ = charFormat(dark ? QColor(120, 170, 255) : QColor(25, 70, 150), true);
  comment_ = charFormat(dark ? QColor(140, 150, 140) : QColor(110, 115, 110), false, true);
  quoted_ = charFormat(dark ? QColor(140, 210, 140) : QColor(35, 110, 45));
  number_ = charFormat(dark ? QColor(240, 170, 90) : QColor(170, 80, 0));
  function_ = charFormat(dark ? QColor(210, 150, 255) : QColor(125, 40, 160), true);
  operator_ = charFormat(dark ? QColor(90, 210, 200) : QColor(0, 120, 115), true);
  punctuation_ = charFormat(dark ? QColor(170, 170, 170) : QColor(120, 120, 120));
  rehighlight();
}

void ModelHighlighter::highlightBlock(const QString& text) {
  // One pass for what decides everything else: quoted spans (which may continue from the
  // previous line) and where a comment starts (a '#' outside quotes, at the line's start or
  // after a space).
  const int length = static_cast<int>(text.size());
  std::vector<bool> inQuotes(length, false);
  int commentStart = length;
  QChar quote = previousBlockState() == InDoubleQuote   ? QChar('"')
                : previousBlockState() == InSingleQuote ? QChar('\'')
                                                        : QChar();
  for (int i = 0; i < length; ++i) {
    const QChar c = text[i];
    if (!quote.isNull()) {
      inQuotes[i] = true;
      if (quote == '"' && c == '\\') {
        if (i + 1 < length) inQuotes[++i] = true;
      } else if (c == quote) {
        if (quote == '\'' && i + 1 < length && text[i + 1] == '\'')
          inQuotes[++i] = true;  // '' inside single quotes
        else
          quote = QChar();
      }
    } else if (c == '"' || c == '\'') {
      quote = c;
      inQuotes[i] = true;
    } else if (c == '#' && (i == 0 || text[i - 1].isSpace())) {
      commentStart = i;
      break;
    }
  }
  setCurrentBlockState(quote == '"' ? InDoubleQuote : quote == '\'' ? InSingleQuote : Plain);

  for (int i = 0; i < commentStart; ++i)
    if (inQuotes[i]) setFormat(i, 1, quoted_);
  auto apply = [&](const QRegularExpression& re, const QTextCharFormat& f, bool insideQuotes) {
    for (auto it = re.globalMatch(text); it.hasNext();) {
      const QRegularExpressionMatch m = it.next();
      const int start = static_cast<int>(m.capturedStart());
      if (start >= commentStart) break;
      if (!insideQuotes && inQuotes[start]) continue;
      setFormat(start,
                static_cast<int>(std::min<qsizetype>(m.capturedLength(), commentStart - start)), f);
    }
  };
  apply(keyPattern(), key_, false);
  apply(functionPattern(), function_, true);
  std::vector<bool> inNumber(length, false);
  for (auto it = numberPattern().globalMatch(text); it.hasNext();) {
    const QRegularExpressionMatch m = it.next();
    const int start = static_cast<int>(m.capturedStart());
    const int end = std::min(static_cast<int>(m.capturedEnd()), commentStart);
    for (int i = start; i < end; ++i) inNumber[i] = true;
    if (end > start) setFormat(start, end - start, number_);
  }
  // Operators, except a list's leading "- " and YAML's own punctuation.
  static const QRegularExpression listDash("^\\s*-(?=\\s|$)");
  const QRegularExpressionMatch dash = listDash.match(text);
  const int dashAt = dash.hasMatch() ? static_cast<int>(dash.capturedEnd()) - 1 : -1;
  for (int i = 0; i < commentStart; ++i) {
    const QChar c = text[i];
    if (inNumber[i]) continue;  // the sign of an exponent
    if (QStringLiteral("+-*/^()").contains(c) && i != dashAt)
      setFormat(i, 1, operator_);
    else if (QStringLiteral("[]{},:").contains(c) && !inQuotes[i])
      setFormat(i, 1, punctuation_);
    else if (i == dashAt)
      setFormat(i, 1, punctuation_);
  }
  if (commentStart < length) setFormat(commentStart, length - commentStart, comment_);
}

// ---- Text edit with a gutter --------------------------------------------------------------

namespace {

class Gutter : public QWidget {
 public:
  explicit Gutter(ModelTextEdit* edit) : QWidget(edit), edit_(edit) {}
  QSize sizeHint() const override { return {edit_->gutterWidth(), 0}; }

 protected:
  void paintEvent(QPaintEvent* event) override { edit_->paintGutter(event); }
  bool event(QEvent* event) override {
    if (event->type() == QEvent::ToolTip) {
      if (!edit_->gutterToolTip(static_cast<QHelpEvent*>(event)->pos())) QToolTip::hideText();
      return true;
    }
    return QWidget::event(event);
  }

 private:
  ModelTextEdit* edit_;
};

// A path that gives way to the buttons beside it: elided in the middle, whole as tooltip.
class PathLabel : public QLabel {
 public:
  PathLabel() {
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
  }
  void setPath(const QString& path) {
    path_ = path;
    setToolTip(path);
    elide();
  }

 protected:
  void resizeEvent(QResizeEvent* event) override {
    QLabel::resizeEvent(event);
    elide();
  }

 private:
  void elide() { setText(fontMetrics().elidedText(path_, Qt::ElideMiddle, width())); }
  QString path_;
};

}  // namespace

ModelTextEdit::ModelTextEdit(QWidget* parent) : QPlainTextEdit(parent), gutter_(new Gutter(this)) {
  setObjectName("modelText");
  QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  setFont(mono);
  // Wrapped, so that a mark far to the right of a long line is still in view.
  setLineWrapMode(QPlainTextEdit::WidgetWidth);
  setTabStopDistance(QFontMetricsF(mono).horizontalAdvance(' ') * 2);
  connect(this, &QPlainTextEdit::blockCountChanged, this,
          [this] { setViewportMargins(gutterWidth(), 0, 0, 0); });
  connect(this, &QPlainTextEdit::updateRequest, this, &ModelTextEdit::updateGutter);
  setViewportMargins(gutterWidth(), 0, 0, 0);
}

int ModelTextEdit::gutterWidth() const {
  int digits = 1;
  for (int max = std::max(1, blockCount()); max >= 10; max /= 10) ++digits;
  const int marker = fontMetrics().height();  // room for the error dot
  return 8 + marker + fontMetrics().horizontalAdvance(QLatin1Char('9')) * std::max(2, digits);
}

void ModelTextEdit::updateGutter(const QRect& rect, int dy) {
  if (dy)
    gutter_->scroll(0, dy);
  else
    gutter_->update(0, rect.y(), gutter_->width(), rect.height());
}

void ModelTextEdit::changeEvent(QEvent* event) {
  QPlainTextEdit::changeEvent(event);
  if (event->type() == QEvent::FontChange) {
    setViewportMargins(gutterWidth(), 0, 0, 0);
    const QRect r = contentsRect();
    gutter_->setGeometry(QRect(r.left(), r.top(), gutterWidth(), r.height()));
  }
}

void ModelTextEdit::resizeEvent(QResizeEvent* event) {
  QPlainTextEdit::resizeEvent(event);
  const QRect r = contentsRect();
  gutter_->setGeometry(QRect(r.left(), r.top(), gutterWidth(), r.height()));
}

void ModelTextEdit::paintGutter(QPaintEvent* event) {
  QPainter painter(gutter_);
  const QPalette& pal = palette();
  painter.fillRect(event->rect(), pal.color(QPalette::Window));
  const int w = gutter_->width();
  const int marker = fontMetrics().height();
  QTextBlock block = firstVisibleBlock();
  int number = block.blockNumber() + 1;
  int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
  int bottom = top + qRound(blockBoundingRect(block).height());
  while (block.isValid() && top <= event->rect().bottom()) {
    if (block.isVisible() && bottom >= event->rect().top()) {
      const bool error = number == errorLine_;
      if (error) {
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setPen(Qt::NoPen);
        painter.setBrush(QColor(205, 40, 40));
        const int d = marker * 6 / 10;
        painter.drawEllipse(QRect(4 + (marker - d) / 2, top + (marker - d) / 2, d, d));
      }
      QColor subdued = pal.color(QPalette::Text);
      subdued.setAlpha(120);  // on light and dark palettes alike
      painter.setPen(error ? QColor(225, 45, 45) : subdued);
      painter.drawText(0, top, w - 4, fontMetrics().height(), Qt::AlignRight,
                       QString::number(number));
    }
    block = block.next();
    top = bottom;
    bottom = top + qRound(blockBoundingRect(block).height());
    ++number;
  }
}

bool ModelTextEdit::gutterToolTip(const QPoint& position) {
  if (errorLine_ <= 0) return false;
  const QTextBlock block = document()->findBlockByNumber(errorLine_ - 1);
  if (!block.isValid()) return false;
  const QRectF r = blockBoundingGeometry(block).translated(contentOffset());
  if (position.y() < r.top() || position.y() > r.bottom()) return false;
  QToolTip::showText(gutter_->mapToGlobal(position), errorMessage_, gutter_);
  return true;
}

void ModelTextEdit::keyPressEvent(QKeyEvent* event) {
  // YAML forbids tabs for indentation: the Tab key indents by two spaces.
  if (event->key() == Qt::Key_Tab && event->modifiers() == Qt::NoModifier) {
    insertPlainText(QStringLiteral("  "));
    return;
  }
  QPlainTextEdit::keyPressEvent(event);
}

bool ModelTextEdit::viewportEvent(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const QTextCursor at = cursorForPosition(help->pos());
    if (errorLine_ > 0 && at.blockNumber() == errorLine_ - 1) {
      QToolTip::showText(help->globalPos(), errorMessage_, viewport());
    } else {
      QToolTip::hideText();
    }
    return true;
  }
  return QPlainTextEdit::viewportEvent(event);
}

void ModelTextEdit::setErrorMark(int line, int from, int to, const QString& message) {
  errorLine_ = line;
  errorMessage_ = message;
  QList<QTextEdit::ExtraSelection> marks;
  const QTextBlock block = document()->findBlockByNumber(line - 1);
  if (block.isValid()) {
    QTextEdit::ExtraSelection lineMark;
    // Translucent, so that light and dark palettes (presentation mode) both keep the text.
    lineMark.format.setBackground(QColor(255, 40, 40, 38));
    lineMark.format.setProperty(QTextFormat::FullWidthSelection, true);
    lineMark.cursor = QTextCursor(block);
    marks.append(lineMark);
    if (to > from) {
      QTextEdit::ExtraSelection token;
      token.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
      token.format.setUnderlineColor(QColor(220, 0, 0));
      token.format.setBackground(QColor(255, 40, 40, 70));
      token.format.setToolTip(message);
      token.cursor = QTextCursor(block);
      token.cursor.setPosition(block.position() + from);
      token.cursor.setPosition(block.position() + to, QTextCursor::KeepAnchor);
      marks.append(token);
    }
  }
  setExtraSelections(marks);
  gutter_->update();
}

void ModelTextEdit::clearErrorMark() {
  errorLine_ = 0;
  errorMessage_.clear();
  setExtraSelections({});
  gutter_->update();
}

int utf16Column(const QString& line, int column) {
  int index = 0;
  for (int c = 1; c < column && index < line.size(); ++c)
    index += line[index].isHighSurrogate() && index + 1 < line.size() ? 2 : 1;
  return std::min<int>(index, static_cast<int>(line.size()));
}

// ---- The editor ---------------------------------------------------------------------------

ModelEditor::ModelEditor(QWidget* parent) : QWidget(parent), edit_(new ModelTextEdit) {
  setObjectName("modelEditor");
  highlighter_ =
      new ModelHighlighter(edit_->document(), palette().color(QPalette::Base).lightness() < 128);
  fileLabel_ = new PathLabel;
  fileLabel_->setObjectName("modelFile");
  status_ = new QLabel;
  status_->setObjectName("modelStatus");
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  status_->setMargin(4);

  auto makeAction = [this](const QString& text, const QString& tip) {
    auto* action = new QAction(text, this);
    action->setToolTip(tip);
    return action;
  };
  applyAction_ = makeAction(tr("Apply"), tr("Run this model, keeping the start and parameters "
                                            "you changed by name (Ctrl+Return; undo returns to "
                                            "the previous system)"));
  applyAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
  applyAction_->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  addAction(applyAction_);
  saveAction_ = makeAction(tr("Save"), tr("Save the model file"));
  saveAsAction_ = makeAction(tr("Save As…"),
                             tr("Save the model to another file (your model folder by default)"));
  revertAction_ = makeAction(tr("Revert"), tr("Back to the saved text (undoable with Ctrl+Z)"));

  // A row of text buttons, as in a dialog: what each does is its word.
  auto* header = new QHBoxLayout;
  header->setContentsMargins(4, 2, 4, 0);
  header->setSpacing(2);
  for (QAction* action : {applyAction_, saveAction_, saveAsAction_, revertAction_}) {
    auto* button = new QToolButton;
    button->setDefaultAction(action);
    button->setAutoRaise(true);
    header->addWidget(button);
    if (action == applyAction_) {
      // Apply stands out: it is what the editing is for.
      button->setObjectName("applyButton");
      button->setStyleSheet("QToolButton { font-weight: bold; }");
      header->addSpacing(8);
    }
  }
  header->addWidget(fileLabel_, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  layout->addLayout(header);
  layout->addWidget(edit_, 1);
  layout->addWidget(status_);

  checkTimer_.setSingleShot(true);
  checkTimer_.setInterval(kCheckDelayMs);
  connect(&checkTimer_, &QTimer::timeout, this, &ModelEditor::check);
  connect(edit_, &QPlainTextEdit::textChanged, this, &ModelEditor::onTextChanged);
  connect(applyAction_, &QAction::triggered, this, [this] {
    checkNow();
    if (system_ && text() != runningText_) emit applyRequested(system_);
  });
  connect(saveAction_, &QAction::triggered, this, &ModelEditor::save);
  connect(saveAsAction_, &QAction::triggered, this, &ModelEditor::saveAs);
  connect(revertAction_, &QAction::triggered, this, &ModelEditor::revert);
  updateActions();
}

QString ModelEditor::templateText() {
  return QStringLiteral(
      R"(# A model file (docs/model-format.md).
# Edit it, then Apply (Ctrl+Return) to run it.
format: nonholonomic-lab-system
version: 1
name: my_system
title: My system
description: >
  A particle in a plane, pulled to the origin
  by a spring, that may only move along
  (cos kx, sin kx).
parameters:
  - {name: m, default: 1, unit: kg, min: 0, min_exclusive: true}
  - {name: c, default: 4, unit: N/m, min: 0}
  - {name: k, default: 2, unit: 1/m}
coordinates: [x, y]
velocities: [vx, vy]
lagrangian: m/2*(vx^2 + vy^2) - c/2*(x^2 + y^2)
constraints:
  - sin(k*x)*vx - cos(k*x)*vy
initial: {y: 0.3, vx: 1}
scene:
  extent: 1
  bodies:
    - {name: particle, shape: point, position: [x, y, 0], size: [0.04, 0, 0]}
  arrows:
    - name: reaction
      kind: reaction
      origin: [x, y, 0]
      vector: [lambda_1*sin(k*x), -lambda_1*cos(k*x), 0]
  points:
    - {name: particle, position: [x, y, 0]}
)");
}

void ModelEditor::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::PaletteChange)
    highlighter_->setDarkBackground(palette().color(QPalette::Base).lightness() < 128);
  if (event->type() == QEvent::FontChange) {
    // The text keeps its fixed-width family at the size of the rest (presentation mode).
    QFont mono = edit_->font();
    mono.setPointSizeF(font().pointSizeF());
    edit_->setFont(mono);
  }
}

void ModelEditor::setDocument(const QString& text, const QString& path) {
  path_ = path;
  savedText_ = text;
  edit_->setPlainText(text);  // clears the editor's undo history: a new document
  checkNow();
  if (problem_ && problem_->line > 0) {
    // A file opened with an error: show where it is.
    const QTextBlock block = edit_->document()->findBlockByNumber(problem_->line - 1);
    if (block.isValid()) {
      QTextCursor at(block);
      at.setPosition(block.position() + utf16Column(block.text(), problem_->column));
      edit_->setTextCursor(at);
      // Once the editor has its size (it may be shown only now).
      QTimer::singleShot(0, edit_, [edit = edit_] { edit->centerCursor(); });
    }
  }
  emit documentChanged();
}

QString ModelEditor::text() const { return edit_->toPlainText(); }

bool ModelEditor::isModified() const { return text() != savedText_; }

void ModelEditor::setRunningText(const QString& text) {
  runningText_ = text;
  updateActions();
}

void ModelEditor::onTextChanged() {
  // Until the next check the last result describes other text: Apply waits for it.
  system_.reset();
  checkTimer_.start();
  updateActions();
  if (isModified() != wasModified_) emit documentChanged();
  wasModified_ = isModified();
}

void ModelEditor::checkNow() {
  checkTimer_.stop();
  check();
}

void ModelEditor::check() {
  emit aboutToCheck();
  const std::string text = edit_->toPlainText().toStdString();
  const std::string fileName =
      path_.isEmpty() ? "untitled.yaml" : QFileInfo(path_).fileName().toStdString();
  QElapsedTimer timer;
  timer.start();
  system_.reset();
  problem_.reset();
  try {
    system_ = nh::model::loadModelText(text, fileName, path_.toStdString());
  } catch (const nh::model::ModelError& e) {
    const std::string& key = e.key();
    problem_ =
        Problem{e.line(), e.column(),
                QString::fromStdString(key.empty() ? e.problem() : key + ": " + e.problem())};
  } catch (const std::exception& e) {
    // Anything else the loader lets through (a derivation that gives up, say): not placed.
    problem_ = Problem{0, 0, QString::fromUtf8(e.what())};
  }
  lastCheckMs_ = timer.nsecsElapsed() * 1e-6;
  if (system_) {
    edit_->clearErrorMark();
    const nh::SystemModel& s = *system_;
    auto counted = [](int n, const QString& one, const QString& many) {
      return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? one : many);
    };
    QString summary = tr("OK — %1, %2, %3")
                          .arg(counted(s.n(), tr("coordinate"), tr("coordinates")),
                               counted(s.m(), tr("velocity"), tr("velocities")),
                               counted(s.k(), tr("constraint"), tr("constraints")));
    if (s.h() > 0) summary += tr(", %1 holonomic").arg(s.h());
    setStatus(summary, false);
  } else {
    showProblem(*problem_);
  }
  wasModified_ = isModified();
  updateActions();
  emit documentChanged();  // the name may have changed
}

void ModelEditor::showProblem(const Problem& p) {
  const QTextBlock block = edit_->document()->findBlockByNumber(p.line - 1);
  if (p.line > 0 && block.isValid()) {
    const QString line = block.text();
    const int length = static_cast<int>(line.size());
    int from = p.column > 0 ? utf16Column(line, p.column) : 0;
    int to = from;
    if (p.column <= 0) {
      to = length;  // the whole line
    } else if (from < length &&
               (line[from].isLetterOrNumber() || line[from] == '_' || line[from] == '.')) {
      // A name or a number: to its end.
      while (to < length && (line[to].isLetterOrNumber() || line[to] == '_' || line[to] == '.'))
        ++to;
    } else if (from < length) {
      to = from + 1;  // an operator, a bracket, a quote
    }
    if (from >= length && length > 0) {
      // At the end of the line (an expression that ended too soon): its last character.
      from = length - 1;
      to = length;
    }
    // Leading spaces are no token: start at the first character that is not one.
    while (from < to - 1 && line[from].isSpace()) ++from;
    edit_->setErrorMark(p.line, from, to, p.message);
    setStatus(p.column > 0 ? tr("Line %1, column %2: %3").arg(p.line).arg(p.column).arg(p.message)
                           : tr("Line %1: %2").arg(p.line).arg(p.message),
              true);
  } else {
    edit_->clearErrorMark();
    setStatus(p.message, true);
  }
}

void ModelEditor::showRunError(const QString& message) {
  setStatus(tr("Not applied: %1 The last good system keeps running.").arg(message), true);
}

void ModelEditor::showNote(const QString& message) { setStatus(message, true); }

void ModelEditor::setStatus(const QString& text, bool error) {
  status_->setText(text);
  status_->setToolTip(text);
  status_->setStyleSheet(error ? "QLabel { background: #7a1f1a; color: white; }"
                               : "QLabel { background: #1f5a2a; color: white; }");
}

void ModelEditor::updateActions() {
  applyAction_->setEnabled(system_ != nullptr && text() != runningText_);
  revertAction_->setEnabled(isModified());
  // The dock's title names the file; this is where it is.
  static_cast<PathLabel*>(fileLabel_)->setPath(QDir::toNativeSeparators(path_));
}

QString ModelEditor::documentName() const {
  if (!path_.isEmpty()) return QFileInfo(path_).fileName();
  static const QRegularExpression nameLine("^name:\\s*[\"']?([A-Za-z0-9_]+)",
                                           QRegularExpression::MultilineOption);
  const QRegularExpressionMatch m = nameLine.match(text());
  return (m.hasMatch() ? m.captured(1) : QStringLiteral("my_system")) + ".yaml";
}

QString ModelEditor::suggestedFileName() const {
  if (!path_.isEmpty()) return path_;
  const QString folder = QString::fromStdString(nh::userModelFolder());
  QDir().mkpath(folder);
  return QDir(folder).filePath(documentName());
}

bool ModelEditor::saveTo(const QString& path) {
  const QFileInfo target(path);
  // writeFileAtomically writes devices and FIFOs in place (and a FIFO without a reader
  // would block here): a model belongs in a regular file.
  if (target.exists() && !target.isFile()) {
    setStatus(tr("Not saved: %1 is not a regular file (a FIFO, device or folder); choose a file.")
                  .arg(QDir::toNativeSeparators(path)),
              true);
    return false;
  }
  try {
    nh::writeFileAtomically(path.toStdString(), text().toStdString());
  } catch (const std::exception& e) {
    setStatus(tr("Not saved: %1").arg(QString::fromUtf8(e.what())), true);
    return false;
  }
  path_ = path;
  savedText_ = text();
  wasModified_ = false;
  updateActions();
  if (system_) check();  // the status line shows the model's state again, now with its file name
  setStatus(status_->text() + tr(" — saved to %1").arg(QDir::toNativeSeparators(path)),
            system_ == nullptr);
  emit saved(path);
  emit documentChanged();
  return true;
}

bool ModelEditor::save() { return path_.isEmpty() ? saveAs() : saveTo(path_); }

bool ModelEditor::saveAs() {
  QString path = QFileDialog::getSaveFileName(this, tr("Save model file"), suggestedFileName(),
                                              tr("Model files (*.yaml *.yml)"));
  if (path.isEmpty()) return false;
  if (QFileInfo(path).suffix().isEmpty()) path += ".yaml";
  return saveTo(path);
}

void ModelEditor::revert() {
  QString original = savedText_;
  if (!path_.isEmpty()) {
    try {
      original = QString::fromStdString(nh::readRegularFile(path_.toStdString(), "model file"));
    } catch (const nh::Error& e) {
      setStatus(tr("Not reverted: %1").arg(QString::fromUtf8(e.what())), true);
      return;
    }
    savedText_ = original;
  }
  QTextCursor cursor(edit_->document());
  cursor.beginEditBlock();
  cursor.select(QTextCursor::Document);
  cursor.insertText(original);
  cursor.endEditBlock();
  checkNow();
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
