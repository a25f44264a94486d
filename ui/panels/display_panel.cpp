// The Display dock (display_panel.h): a check box per display flag of the session's view,
// the trail points, and each change written back through the session.
#include "ui/panels/display_panel.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/session/session.h"

namespace nhui {

namespace {
#define NH_DISPLAY_FLAG(member) [](ViewState& v) -> bool& { return v.display.member; }
}  // namespace

DisplayPanel::DisplayPanel(Session* session, QWidget* parent) : QWidget(parent), session_(session) {
  layout_ = new QVBoxLayout(this);
  layout_->addWidget(new QLabel(tr("<b>Arrows</b>")));
  addCheck(tr("Constraint && applied forces"), NH_DISPLAY_FLAG(reactionArrows), "forceArrows");
  addCheck(tr("Velocity"), NH_DISPLAY_FLAG(velocityArrows), "velocityArrows");
  addCheck(tr("Angular velocity"), NH_DISPLAY_FLAG(angularVelocityArrows), "angularArrows");
  addCheck(tr("Scale legend"), NH_DISPLAY_FLAG(legend), "legend");
  addCheck(tr("Fixed arrow scale"), NH_DISPLAY_FLAG(arrowScaleFixed), "arrowScaleFixed")
      ->setToolTip(tr("Keep the arrows' scales as they are now, so that a faster motion "
                      "shows a longer arrow"));
  layout_->addWidget(new QLabel(tr("<b>Trails</b>")));
  addCheck(tr("Show trails"), NH_DISPLAY_FLAG(trails), "trails");
  auto* lengthRow = new QHBoxLayout;
  trailLength_ = new QDoubleSpinBox;
  trailLength_->setObjectName("trailLength");
  trailLength_->setRange(0.1, 100000);
  trailLength_->setDecimals(1);
  trailLength_->setSuffix(" s");
  trailLength_->setValue(session_->view().display.trailSeconds);
  trailLength_->setToolTip(tr("Length of the trails in simulated seconds"));
  connect(trailLength_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
    ViewState view = session_->view();
    view.display.trailSeconds = v;
    write(view);
  });
  lengthRow->addWidget(new QLabel(tr("length")));
  lengthRow->addWidget(trailLength_, 1);
  layout_->addLayout(lengthRow);
  auto* trailChecks = new QWidget;
  trailChecksLayout_ = new QVBoxLayout(trailChecks);
  trailChecksLayout_->setContentsMargins(12, 0, 0, 0);
  layout_->addWidget(trailChecks);
  layout_->addWidget(new QLabel(tr("<b>Scene</b>")));
  addCheck(tr("Keep bodies in view"), NH_DISPLAY_FLAG(keepInView), "keepInView")
      ->setToolTip(tr("Move the camera along when the moving bodies near the edge of the view "
                      "(Follow locks it on the body instead)"));
  addCheck(tr("Ground grid"), NH_DISPLAY_FLAG(grid), "grid");
  addCheck(tr("Axes"), NH_DISPLAY_FLAG(axes), "axes");
  addCheck(
      tr("Time overlay"), [](ViewState& v) -> bool& { return v.overlayText; }, "timeOverlay");
  layout_->addStretch(1);
  connect(session_, &Session::viewChanged, this, [this](ViewParts parts) {
    if (parts & kViewDisplay) syncWidgets();
  });
}
#undef NH_DISPLAY_FLAG

void DisplayPanel::write(const ViewState& view) { session_->setView(view, kViewDisplay); }

QCheckBox* DisplayPanel::addCheck(const QString& text, Flag flag, const char* name) {
  auto* box = new QCheckBox(text);
  box->setObjectName(name);
  ViewState shown = session_->view();
  box->setChecked(flag(shown));
  connect(box, &QCheckBox::toggled, this, [this, flag](bool on) {
    ViewState view = session_->view();
    flag(view) = on;
    write(view);
  });
  layout_->addWidget(box);
  checks_.emplace_back(box, flag);
  return box;
}

void DisplayPanel::syncWidgets() {
  ViewState view = session_->view();
  for (auto& [box, flag] : checks_) {
    QSignalBlocker block(box);
    box->setChecked(flag(view));
  }
  QSignalBlocker block(trailLength_);
  trailLength_->setValue(view.display.trailSeconds);
  const auto& hidden = view.hiddenTrails;
  for (auto& [box, name] : trailBoxes_) {
    QSignalBlocker blockBox(box);
    box->setChecked(std::find(hidden.begin(), hidden.end(), name) == hidden.end());
  }
}

void DisplayPanel::setTrailPoints(const std::vector<std::string>& names) {
  trailBoxes_.clear();
  while (QLayoutItem* item = trailChecksLayout_->takeAt(0)) {
    delete item->widget();
    delete item;
  }
  for (const std::string& name : names) {
    auto* box = new QCheckBox(QString::fromStdString(name));
    const auto& hiddenNow = session_->view().hiddenTrails;
    box->setChecked(std::find(hiddenNow.begin(), hiddenNow.end(), name) == hiddenNow.end());
    connect(box, &QCheckBox::toggled, this, [this, name](bool on) {
      ViewState view = session_->view();
      auto& hidden = view.hiddenTrails;
      hidden.erase(std::remove(hidden.begin(), hidden.end(), name), hidden.end());
      if (!on) hidden.push_back(name);
      write(view);
    });
    trailChecksLayout_->addWidget(box);
    trailBoxes_.emplace_back(box, name);
  }
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
