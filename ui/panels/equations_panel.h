// The Equations dock: the derived equations of the current system (mass matrix, right-hand
// side, constraints, explicit equations …), each block typeset by MathView with its title and
// a button that copies its LaTeX, notes on how they were derived, "Copy all as LaTeX", a
// plain-text view, and a "Hamiltonian side" toggle that shows H and the nonholonomic bracket
// instead (derived_equations.h, deriveHamiltonianEquations).
#pragma once

#include <QFutureWatcher>
#include <QWidget>
#include <atomic>
#include <memory>
#include <vector>

#include "core/model/derived_equations.h"
#include "core/nh/system.h"

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
  ~EquationsPanel() override;  // a running derivation stops at its next simplification

  // The system whose equations to show (with its parameter values, which a C++ system's
  // equations print). Derived off the GUI thread (GiNaC, milliseconds; seconds for the
  // bicycle) when the panel is shown: at once if it is, else when it next is. One
  // derivation at a time: a newer request cancels the running one and starts when it ends.
  void showSystem(std::shared_ptr<const nh::SystemModel> system, std::vector<double> parameters);
  // Stops a running derivation (the model editor's check waits on GiNaC's lock); it starts
  // again once it has stopped, so typing never stalls on it.
  void pauseDerivation();
  bool deriving() const;

  // The Hamiltonian side (H = p·y − L, the nonholonomic bracket of (q, π) and its Jacobiator)
  // rather than the equations of motion; derived anew when it changes. A control model keeps
  // its Pontryagin equations (the toggle is disabled for it).
  void setHamiltonian(bool on);
  bool hamiltonian() const;

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

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  struct Derived;
  void derive();  // the pending request, if shown and nothing runs
  void onDerived();
  void rebuild();
  void setPlain(bool plain);

  nh::model::DerivedEquations equations_;
  QString message_;
  QLabel* title_ = nullptr;
  QLabel* messageLabel_ = nullptr;
  QToolButton* copyAll_ = nullptr;
  QToolButton* plainToggle_ = nullptr;
  QToolButton* hamiltonianToggle_ = nullptr;
  QStackedWidget* stack_ = nullptr;
  QWidget* blocks_ = nullptr;
  QVBoxLayout* blocksLayout_ = nullptr;
  QLabel* notes_ = nullptr;
  QPlainTextEdit* plain_ = nullptr;
  std::vector<MathView*> views_;
  std::shared_ptr<const nh::SystemModel> system_;  // the request (derived when shown)
  std::vector<double> parameters_;
  bool stale_ = false;
  QFutureWatcher<std::shared_ptr<const Derived>>* job_ = nullptr;
  std::shared_ptr<std::atomic<bool>> cancel_;
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
