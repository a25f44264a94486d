// The viridis colour map (van der Walt, Smith and Firing, 2015: perceptually uniform, readable
// in grey and by the common forms of colour blindness). VTK 9.1's presets (vtkColorSeries) do
// not include it, so the table is here: matplotlib's _viridis_data (CC0), entries 0, 16, …,
// 240 and 255 of its 256, interpolated linearly in between.
#pragma once

#include <QColor>

namespace nhui {

// The colour at u in [0, 1] (clamped): dark blue at 0, yellow at 1.
QColor viridis(double u);

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
