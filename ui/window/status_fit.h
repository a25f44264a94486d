// Keeps the status bar's temporary message readable: QStatusBar draws it clipped, without an
// ellipsis, up to its permanent widgets, so a long message ran into the time label ("…(Ctrl+Z"
// then "t = 4.21 s": "Ctrl+Zt = 4.21 s"). While a message needs the room, the permanent widgets
// given as `yielding` (least important first) step aside; they come back when it goes.
#pragma once

#include <QList>
#include <QObject>
#include <QPointer>

class QStatusBar;
class QWidget;

namespace nhui {

class StatusMessageFit : public QObject {
  Q_OBJECT

 public:
  StatusMessageFit(QStatusBar* bar, QList<QWidget*> yielding);
  // Width the current message needs and has, in pixels (for tests).
  int messageWidth() const;
  int roomForMessage() const;

 private:
  void fit(const QString& message);
  QStatusBar* bar_;
  QList<QPointer<QWidget>> yielding_;
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
