// The Equations dock: the derived equations of the current system (mass matrix, right-hand
// side, constraints, explicit equations …), each block typeset by MathView with its title and
// a button that copies its LaTeX, notes on how they were derived, "Copy all as LaTeX", and a
// plain-text view.
#pragma once

#include <QWidget>
#include <vector>

#include "core/model/derived_equations.h"

class QLabel;
class QPlainTextEdit;
class QStackedWidget;
class QToolButton;
class QVBoxLayout;

namespace nhui {

class MathView;

class EquationsPanel : public QWidget {
  Q_OBJECT

 public:
  explicit EquationsPanel(QWidget* parent = nullptr);

  void setTitle(const QString& title);  // e.g. the system's name
  // Shows the blocks and notes; clears any message.
  void setEquations(const nh::model::DerivedEquations& equations);
  // Shows `message` (e.g. "Deriving…" or an error) instead of any equations.
  void setMessage(const QString& message);

  // Every block as LaTeX (amsmath), each under a comment with its title; empty without
  // equations.
  QString allLatex() const;
  QString plainText() const;  // what the plain-text view shows

  // A block's LaTeX as MathView shows it: its lines (one equation a line, by the contract of
  // EquationBlock) joined by \\ where they are not already.
  static QString displayLatex(const std::string& latex);

  // For tests: the views of the blocks, in order.
  const std::vector<MathView*>& mathViews() const { return views_; }

 private:
  void rebuild();
  void setPlain(bool plain);

  nh::model::DerivedEquations equations_;
  QString message_;
  QLabel* title_ = nullptr;
  QLabel* messageLabel_ = nullptr;
  QToolButton* copyAll_ = nullptr;
  QToolButton* plainToggle_ = nullptr;
  QStackedWidget* stack_ = nullptr;
  QWidget* blocks_ = nullptr;
  QVBoxLayout* blocksLayout_ = nullptr;
  QLabel* notes_ = nullptr;
  QPlainTextEdit* plain_ = nullptr;
  std::vector<MathView*> views_;
};

}  // namespace nhui
