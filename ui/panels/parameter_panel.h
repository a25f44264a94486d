// Panels generated from a system's descriptors: parameters (slider + spin box each, units,
// ranges and descriptions as tooltips) and initial conditions. Values outside a parameter's
// range are refused in the widget with the reason shown under it. Every edit goes through
// the undo stack.
#pragma once

#include <QDoubleSpinBox>
#include <QWidget>
#include <functional>
#include <vector>

#include "core/nh/system.h"

class QLabel;
class QSlider;
class QUndoStack;
class QGridLayout;
class QVBoxLayout;

namespace nhui {

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

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 signals:
  void refusalChanged(const QString& reason);

 private:
  void onTextEdited(const QString& text);
  std::function<QString(double)> check_;
  QString refusal_;
};

class ParameterPanel : public QWidget {
  Q_OBJECT

 public:
  ParameterPanel(SimulationController* controller, QUndoStack* undo, QWidget* parent = nullptr);
  void rebuild();  // system changed
  void syncValues();

  // For tests: the widgets of a parameter.
  CheckedSpinBox* spinBox(const QString& name) const;
  QSlider* slider(const QString& name) const;
  QLabel* reasonLabel(const QString& name) const;

 private:
  struct Row {
    QString name;
    nh::ParameterInfo info;
    QSlider* slider;
    CheckedSpinBox* spin;
    QLabel* reason;
    double lo, hi;  // slider span
  };
  void sliderMoved(Row& row, int position);
  void spinCommitted(Row& row, double value);

  SimulationController* controller_;
  QUndoStack* undo_;
  QVBoxLayout* layout_;
  QWidget* body_ = nullptr;
  std::vector<Row> rows_;
  long dragSerial_ = 0;
  bool syncing_ = false;
};

class InitialStatePanel : public QWidget {
  Q_OBJECT

 public:
  InitialStatePanel(SimulationController* controller, QUndoStack* undo, QWidget* parent = nullptr);
  void rebuild();
  void syncValues();
  CheckedSpinBox* spinBox(const QString& name) const;

 private:
  SimulationController* controller_;
  QUndoStack* undo_;
  QVBoxLayout* layout_;
  QWidget* body_ = nullptr;
  QLabel* notes_ = nullptr;
  std::vector<std::pair<QString, CheckedSpinBox*>> spins_;
  bool syncing_ = false;
};

}  // namespace nhui
