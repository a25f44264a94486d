#include "ui/window/display_panel.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <algorithm>

namespace nhui {

DisplayPanel::DisplayPanel(QWidget* parent) : QWidget(parent) {
  layout_ = new QVBoxLayout(this);
  layout_->addWidget(new QLabel(tr("<b>Arrows</b>")));
  addCheck(tr("Constraint && applied forces"), &SceneDisplayOptions::reactionArrows, "forceArrows");
  addCheck(tr("Velocity"), &SceneDisplayOptions::velocityArrows, "velocityArrows");
  addCheck(tr("Angular velocity"), &SceneDisplayOptions::angularVelocityArrows, "angularArrows");
  addCheck(tr("Scale legend"), &SceneDisplayOptions::legend, "legend");
  addCheck(tr("Fixed arrow scale"), &SceneDisplayOptions::arrowScaleFixed, "arrowScaleFixed")
      ->setToolTip(tr("Keep the arrows' scales as they are now, so that a faster motion "
                      "shows a longer arrow"));
  layout_->addWidget(new QLabel(tr("<b>Trails</b>")));
  addCheck(tr("Show trails"), &SceneDisplayOptions::trails, "trails");
  auto* lengthRow = new QHBoxLayout;
  trailLength_ = new QDoubleSpinBox;
  trailLength_->setObjectName("trailLength");
  trailLength_->setRange(0.1, 100000);
  trailLength_->setDecimals(1);
  trailLength_->setSuffix(" s");
  trailLength_->setValue(options_.trailSeconds);
  trailLength_->setToolTip(tr("Length of the trails in simulated seconds"));
  connect(trailLength_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
    options_.trailSeconds = v;
    emit optionsChanged(options_);
  });
  lengthRow->addWidget(new QLabel(tr("length")));
  lengthRow->addWidget(trailLength_, 1);
  layout_->addLayout(lengthRow);
  auto* trailChecks = new QWidget;
  trailChecksLayout_ = new QVBoxLayout(trailChecks);
  trailChecksLayout_->setContentsMargins(12, 0, 0, 0);
  layout_->addWidget(trailChecks);
  layout_->addWidget(new QLabel(tr("<b>Scene</b>")));
  addCheck(tr("Keep bodies in view"), &SceneDisplayOptions::keepInView, "keepInView")
      ->setToolTip(tr("Move the camera along when the moving bodies near the edge of the view "
                      "(Follow locks it on the body instead)"));
  addCheck(tr("Ground grid"), &SceneDisplayOptions::grid, "grid");
  addCheck(tr("Axes"), &SceneDisplayOptions::axes, "axes");
  addCheck(tr("Time overlay"), &SceneDisplayOptions::overlayText, "timeOverlay");
  layout_->addStretch(1);
}

QCheckBox* DisplayPanel::addCheck(const QString& text, bool SceneDisplayOptions::*member,
                                  const char* name) {
  auto* box = new QCheckBox(text);
  box->setObjectName(name);
  box->setChecked(options_.*member);
  connect(box, &QCheckBox::toggled, this, [this, member](bool on) {
    options_.*member = on;
    emit optionsChanged(options_);
  });
  layout_->addWidget(box);
  checks_.emplace_back(box, member);
  return box;
}

void DisplayPanel::setOptions(const SceneDisplayOptions& options) {
  options_ = options;
  syncWidgets();
  setTrailPoints(trailPoints_);
}

void DisplayPanel::syncWidgets() {
  for (auto& [box, member] : checks_) {
    QSignalBlocker block(box);
    box->setChecked(options_.*member);
  }
  QSignalBlocker block(trailLength_);
  trailLength_->setValue(options_.trailSeconds);
}

void DisplayPanel::setTrailPoints(const std::vector<std::string>& names) {
  trailPoints_ = names;
  while (QLayoutItem* item = trailChecksLayout_->takeAt(0)) {
    delete item->widget();
    delete item;
  }
  for (const std::string& name : names) {
    auto* box = new QCheckBox(QString::fromStdString(name));
    const auto& hiddenNow = options_.hiddenTrails;
    box->setChecked(std::find(hiddenNow.begin(), hiddenNow.end(), name) == hiddenNow.end());
    connect(box, &QCheckBox::toggled, this, [this, name](bool on) {
      auto& hidden = options_.hiddenTrails;
      hidden.erase(std::remove(hidden.begin(), hidden.end(), name), hidden.end());
      if (!on) hidden.push_back(name);
      emit optionsChanged(options_);
    });
    trailChecksLayout_->addWidget(box);
  }
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
