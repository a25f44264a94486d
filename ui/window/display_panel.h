// The Display dock: which arrows, trails and scene helpers the 3D view draws. It owns the
// display options the user picks; the window adds presentation settings and hands them on.
#pragma once

#include <QWidget>
#include <string>
#include <vector>

#include "ui/scene/scene_renderer.h"

class QCheckBox;
class QDoubleSpinBox;
class QVBoxLayout;

namespace nhui {

class DisplayPanel : public QWidget {
  Q_OBJECT

 public:
  explicit DisplayPanel(QWidget* parent = nullptr);

  const SceneDisplayOptions& options() const { return options_; }
  // Shows `options` in the widgets (e.g. restored settings) without emitting optionsChanged.
  void setOptions(const SceneDisplayOptions& options);
  // One check box per trail point (the run's recorded scene points), checked unless hidden.
  void setTrailPoints(const std::vector<std::string>& names);

 signals:
  void optionsChanged(const SceneDisplayOptions& options);

 private:
  QCheckBox* addCheck(const QString& text, bool SceneDisplayOptions::*member, const char* name);
  void syncWidgets();

  SceneDisplayOptions options_;
  QVBoxLayout* layout_ = nullptr;
  std::vector<std::pair<QCheckBox*, bool SceneDisplayOptions::*>> checks_;
  QDoubleSpinBox* trailLength_ = nullptr;
  QVBoxLayout* trailChecksLayout_ = nullptr;
  std::vector<std::string> trailPoints_;
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
