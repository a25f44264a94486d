// The Display dock: which arrows, trails and scene helpers the 3D view draws. It shows the
// session's view (its display part) and writes each choice through the session.
#pragma once

#include <QWidget>
#include <string>
#include <vector>

#include "ui/session/view_state.h"

class QCheckBox;
class QDoubleSpinBox;
class QVBoxLayout;

namespace nhui {

class Session;

class DisplayPanel : public QWidget {
  Q_OBJECT

 public:
  explicit DisplayPanel(Session* session, QWidget* parent = nullptr);

  // One check box per trail point (the run's recorded scene points), checked unless hidden.
  void setTrailPoints(const std::vector<std::string>& names);

 private:
  using Flag = bool& (*)(ViewState&);
  QCheckBox* addCheck(const QString& text, Flag flag, const char* name);
  void syncWidgets();                 // the session's display choices shown (after viewChanged)
  void write(const ViewState& view);  // a choice made: through the session

  Session* session_;
  QVBoxLayout* layout_ = nullptr;
  std::vector<std::pair<QCheckBox*, Flag>> checks_;
  QDoubleSpinBox* trailLength_ = nullptr;
  QVBoxLayout* trailChecksLayout_ = nullptr;
  std::vector<std::pair<QCheckBox*, std::string>> trailBoxes_;
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
