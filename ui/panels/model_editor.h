// The model editor (docs/model-format.md): a model file's text with line numbers and syntax
// highlighting, checked with nh::model::loadModelText ~300 ms after the last keystroke. An
// error is marked where the loader places it (wavy underline from its column to the end of
// the token, a gutter marker, the message as tooltip and in the status line); Apply hands
// the loaded system to whoever runs it. Save writes atomically and refuses anything but a
// regular file.
#pragma once

#include <QElapsedTimer>
#include <QPlainTextEdit>
#include <QSyntaxHighlighter>
#include <QTimer>
#include <QWidget>
#include <memory>
#include <optional>

#include "core/model/model_file.h"

class QAction;
class QLabel;

namespace nhui {

// Highlights a model file: keys, comments, quoted text, numbers, the expression functions
// and operators.
class ModelHighlighter : public QSyntaxHighlighter {
  Q_OBJECT

 public:
  explicit ModelHighlighter(QTextDocument* document, bool darkBackground = false);
  // Colours that read on a dark base (presentation mode) or a light one.
  void setDarkBackground(bool dark);

 protected:
  void highlightBlock(const QString& text) override;

 private:
  QTextCharFormat key_, comment_, quoted_, number_, function_, operator_, punctuation_;
};

// A plain-text editor with a gutter of line numbers and a marker on the line of an error.
class ModelTextEdit : public QPlainTextEdit {
  Q_OBJECT

 public:
  explicit ModelTextEdit(QWidget* parent = nullptr);
  // Marks [from, to) of `line` (1-based; character positions within the line) with a red
  // wavy underline and the line with a gutter marker; `message` is their tooltip.
  void setErrorMark(int line, int from, int to, const QString& message);
  void clearErrorMark();
  int errorLine() const { return errorLine_; }  // 0: none
  QList<QTextEdit::ExtraSelection> errorSelections() const { return extraSelections(); }

  int gutterWidth() const;
  void paintGutter(QPaintEvent* event);
  bool gutterToolTip(const QPoint& position);  // true if the gutter shows one

 protected:
  void resizeEvent(QResizeEvent* event) override;
  void changeEvent(QEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  bool viewportEvent(QEvent* event) override;

 private:
  void updateGutter(const QRect& rect, int dy);

  QWidget* gutter_;
  int errorLine_ = 0;
  QString errorMessage_;
  QTextCursor errorRange_;
};

class ModelEditor : public QWidget {
  Q_OBJECT

 public:
  explicit ModelEditor(QWidget* parent = nullptr);

  // A small valid model (a particle in a plane with one constraint, named my_system).
  static QString templateText();

  // Shows `text`, from the file `path` ("" : not saved yet), as unmodified, and checks it.
  void setDocument(const QString& text, const QString& path);
  QString text() const;
  const QString& path() const { return path_; }
  // The text differs from the one opened or last saved.
  bool isModified() const;
  // The file's name, or for text not saved yet NAME.yaml after its `name:`.
  QString documentName() const;

  // The model text of the system that runs: Apply is enabled while the text loads and
  // differs from it.
  void setRunningText(const QString& text);
  // Shows a problem that came up when the loaded system was started (not in the text).
  void showRunError(const QString& message);
  // Shows a problem about the file (not in the text) in the status line.
  void showNote(const QString& message);

  // Checks the text now instead of after the pause in typing.
  void checkNow();
  // The system the text loaded as at the last check; null if it did not load or the text
  // changed since.
  std::shared_ptr<const nh::model::FormulaSystem> system() const { return system_; }
  // The loader's error at the last check, if any.
  struct Problem {
    int line = 0, column = 0;  // 1-based, 0: unknown (as ModelError)
    QString message;           // "KEY: PROBLEM"
  };
  const std::optional<Problem>& problem() const { return problem_; }
  double lastCheckMilliseconds() const { return lastCheckMs_; }

  // Writes the text to `path` (atomically; an existing non-regular file such as a FIFO or a
  // device is refused); false and the reason in the status line on failure.
  bool saveTo(const QString& path);
  // To path(), or asks for a file (Save As) if there is none; false if not saved.
  bool save();
  // Asks for a file, in the user's model folder by default (created if missing).
  bool saveAs();
  // Back to the file's text on disk (or the text as opened); undoable in the editor.
  void revert();

  ModelTextEdit* textEdit() const { return edit_; }
  QLabel* statusLabel() const { return status_; }
  QAction* applyAction() const { return applyAction_; }
  QAction* saveAction() const { return saveAction_; }
  QAction* saveAsAction() const { return saveAsAction_; }
  QAction* revertAction() const { return revertAction_; }

  static constexpr int kCheckDelayMs = 300;

 protected:
  void changeEvent(QEvent* event) override;

 signals:
  void applyRequested(std::shared_ptr<const nh::model::FormulaSystem> system);
  void saved(const QString& path);
  void documentChanged();  // path or modified state changed (for titles)
  // Emitted (directly) before each check of the text: the check takes GiNaC's lock, which a
  // derivation running elsewhere (the Equations dock's) should give up first.
  void aboutToCheck();

 private:
  void onTextChanged();
  void check();
  void showProblem(const Problem& problem);
  void setStatus(const QString& text, bool error);
  void updateActions();
  QString suggestedFileName() const;

  ModelTextEdit* edit_;
  ModelHighlighter* highlighter_;
  QLabel* fileLabel_;
  QLabel* status_;
  QAction* applyAction_;
  QAction* saveAction_;
  QAction* saveAsAction_;
  QAction* revertAction_;
  QTimer checkTimer_;

  QString path_;
  QString savedText_;    // as opened or last saved
  QString runningText_;  // of the system that runs
  std::shared_ptr<const nh::model::FormulaSystem> system_;
  std::optional<Problem> problem_;
  double lastCheckMs_ = 0;
  bool wasModified_ = false;
};

// Position in a QString (UTF-16) of `column` (1-based, counted in characters, i.e. Unicode
// code points, as the loader counts them) of `line`; clamped to the line's length.
int utf16Column(const QString& line, int column);

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
