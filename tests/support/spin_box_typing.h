// Typing into a spin box the way a user does: focus, select all, erase, type, Enter.
#pragma once

#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QString>
#include <QtTest>

namespace nhtest {

// Replaces the text of `spin` with `text`; enter: press Return to commit it (else the text is
// left typed but not committed).
inline void typeInto(QDoubleSpinBox* spin, const QString& text, bool enter = true) {
  auto* edit = spin->findChild<QLineEdit*>();
  spin->setFocus();
  edit->selectAll();
  QTest::keyClick(edit, Qt::Key_Backspace);
  QTest::keyClicks(edit, text);
  if (enter) QTest::keyClick(edit, Qt::Key_Return);
}

}  // namespace nhtest
// SPDX-License-Identifier: GPL-3.0-or-later
