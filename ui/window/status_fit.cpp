// StatusMessageFit (status_fit.h): the width a message needs and the room it has, and the
// yielding widgets hidden while it needs theirs.
#include "ui/window/status_fit.h"

#include <QFontMetrics>
#include <QStatusBar>
#include <algorithm>

namespace nhui {

namespace {
constexpr int kGap = 16;  // at each end of the message
}

StatusMessageFit::StatusMessageFit(QStatusBar* bar, QList<QWidget*> yielding)
    : QObject(bar), bar_(bar) {
  for (QWidget* w : yielding) yielding_ << w;
  connect(bar_, &QStatusBar::messageChanged, this, &StatusMessageFit::fit);
}

int StatusMessageFit::messageWidth() const {
  return QFontMetrics(bar_->font()).horizontalAdvance(bar_->currentMessage());
}

// The bar's width less the widgets shown in it (permanent widgets, the size grip): what the
// temporary message may use.
int StatusMessageFit::roomForMessage() const {
  int room = bar_->width() - 2 * kGap;
  for (QWidget* w : bar_->findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly))
    if (w->isVisibleTo(bar_)) room -= std::max(w->width(), w->sizeHint().width()) + 4;
  return room;
}

void StatusMessageFit::fit(const QString& message) {
  for (const auto& w : yielding_)
    if (w) w->setVisible(true);
  if (message.isEmpty()) return;
  const int needed = QFontMetrics(bar_->font()).horizontalAdvance(message);
  int room = roomForMessage();
  for (const auto& w : yielding_) {
    if (needed <= room || !w) break;
    room += std::max(w->width(), w->sizeHint().width()) + 4;
    w->setVisible(false);
  }
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
