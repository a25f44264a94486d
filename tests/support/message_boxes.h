// Answering the modal message boxes a window opens while a test drives it.
#pragma once

#include <QAbstractButton>
#include <QApplication>
#include <QMessageBox>
#include <QTimer>

namespace nhtest {

// Clicks `button` on the next message box that opens (they are modal: exec() waits).
inline void answerNextMessageBox(QMessageBox::StandardButton button) {
  QTimer::singleShot(0, [button] {
    for (QWidget* w : QApplication::topLevelWidgets())
      if (auto* box = qobject_cast<QMessageBox*>(w); box && box->isVisible()) {
        box->button(button)->click();
        return;
      }
    answerNextMessageBox(button);  // not shown yet
  });
}

}  // namespace nhtest
// SPDX-License-Identifier: GPL-3.0-or-later
