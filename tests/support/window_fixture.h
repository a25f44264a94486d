// The nhlab window as the GUI suites drive it: shown at a fixed size, exposed and active, so
// that typed keys and shortcuts reach it.
#pragma once

#include <QWidget>
#include <QtTest>

namespace nhtest {

// Shows `window` at 1400×900 and waits until it is exposed and active; false if it never is.
inline bool showActive(QWidget& window) {
  window.resize(1400, 900);
  window.show();
  if (!QTest::qWaitForWindowExposed(&window)) return false;
  window.activateWindow();
  return QTest::qWaitForWindowActive(&window);
}

}  // namespace nhtest
// SPDX-License-Identifier: GPL-3.0-or-later
