// Reading a formula for math_view (not for callers): typeset() parses the LaTeX subset that
// math_view.h lists and lays it out by math_layout.h's rules.
#pragma once

#include <QFont>
#include <QString>

#include "ui/panels/math_layout.h"

namespace nhui::math {

// The laid-out formula of `latex` in `font`, measured on `device` (nullptr: the default
// logical DPI). Never fails: what it cannot read is shown in grey (math_view.h).
MathBox typeset(const QString& latex, const QFont& font, const QPaintDevice* device);

}  // namespace nhui::math
// SPDX-License-Identifier: GPL-3.0-or-later
