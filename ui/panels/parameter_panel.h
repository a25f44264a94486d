// Panels generated from a system's descriptors: parameters (slider + spin box each, units,
// ranges and descriptions as tooltips) and initial conditions. Values outside a parameter's
// range are refused in the widget (red border) with the reason in the panel's message line at
// its top, whose height is reserved so that no row moves; the message clears when a value is
// accepted. Every edit goes through the undo stack; Ctrl+Z in a spin box commits what was
// typed and then undoes through the stack. After Enter, the playback keys (Space, ← →, R, C)
// reach the window until the field is typed into or clicked again.
#pragma once

#include <QDoubleSpinBox>
#include <QWidget>
#include <functional>
#include <memory>
#include <vector>

#include "core/nh/system.h"

class QLabel;
class QSlider;

class QGridLayout;
class QVBoxLayout;

namespace nhui {

class Session;

class SimulationController;

// A spin box that checks typed values against a predicate instead of clamping them.
class CheckedSpinBox : public QDoubleSpinBox {
  Q_OBJECT

 public:
  // check(v) returns an empty string if v is allowed, else the reason.
  explicit CheckedSpinBox(std::function<QString(double)> check, QWidget* parent = nullptr);
  QValidator::State validate(QString& text, int& pos) const override;
  QString textFromValue(double value) const override;
  double valueFromText(const QString& text) const override;
  void fixup(QString& text) const override;
  // Why the last typed text was refused (empty if it was not).
  const QString& refusal() const { return refusal_; }
  // Forgets the refusal (a value was accepted since): border and refusalChanged("").
  void clearRefusal();

 protected:
  bool event(QEvent* event) override;
  bool eventFilter(QObject* watched, QEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;

 signals:
  void refusalChanged(const QString& reason);

 private:
  void onTextEdited(const QString& text);
  void markRefused(bool refused);
  QString reasonFor(double v) const;  // "" if v is allowed
  bool letsShortcutThrough(QEvent* event);
  std::function<QString(double)> check_;
  QString refusal_;
  bool committed_ = false;  // Enter pressed and nothing typed or clicked since
};

// What the parameter and initial-condition panels share: the session they edit through, the
// message line at their top (its height reserved) and the rows made for one system object.
// follow() builds the rows and keeps them current: `valuesChanged` refreshes the values,
// another system object (an applied edit of a model keeps its name) gets new rows.
class SystemFieldsPanel : public QWidget {
  Q_OBJECT

 public:
  virtual void rebuild() = 0;     // the rows of the running system
  virtual void syncValues() = 0;  // their values from the controller

 protected:
  SystemFieldsPanel(Session* session, QWidget* parent);
  void follow(void (SimulationController::*valuesChanged)());

  Session* session_;
  SimulationController* controller_;
  std::shared_ptr<const nh::SystemModel> builtFor_;  // the system the rows show
  QVBoxLayout* layout_;
  QLabel* message_;
  QWidget* body_ = nullptr;
  bool syncing_ = false;
};

class ParameterPanel : public SystemFieldsPanel {
  Q_OBJECT

 public:
  explicit ParameterPanel(Session* session, QWidget* parent = nullptr);
  void rebuild() override;  // system changed
  void syncValues() override;

  // For tests: the widgets of a parameter. reasonLabel: the panel's message line, where a
  // refusal of any parameter's value is shown.
  CheckedSpinBox* spinBox(const QString& name) const;
  QSlider* slider(const QString& name) const;
  QLabel* reasonLabel(const QString& name = {}) const;

 private:
  struct Row {
    QString name;
    nh::ParameterInfo info;
    QSlider* slider;
    CheckedSpinBox* spin;
    double lo, hi;  // slider span
  };
  void sliderMoved(Row& row, int position);
  void spinCommitted(Row& row, double value);
  void showRefusal(const QString& message);
  void clearRefusals();

  std::vector<Row> rows_;
  long dragSerial_ = 0;
};

class InitialStatePanel : public SystemFieldsPanel {
  Q_OBJECT

 public:
  explicit InitialStatePanel(Session* session, QWidget* parent = nullptr);
  void rebuild() override;
  void syncValues() override;
  CheckedSpinBox* spinBox(const QString& name) const;
  QLabel* messageLabel() const { return message_; }  // refusals (reserved height)
  QLabel* label(const QString& name) const;          // "name [unit]"

 private:
  std::vector<QLabel*> labels_;
  QLabel* notes_ = nullptr;
  std::vector<std::pair<QString, CheckedSpinBox*>> spins_;
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
