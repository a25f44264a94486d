// viridis(u) (viridis.h): u clamped to [0, 1] (NaN to 0) and the colour interpolated between
// the 17 entries of the table.
#include "ui/study/viridis.h"

#include <algorithm>
#include <cmath>

namespace nhui {

namespace {
// matplotlib _cm_listed.py _viridis_data[16 k] for k = 0 … 15, then [255].
constexpr double kNodes[17][3] = {
    {0.267004, 0.004874, 0.329415}, {0.282327, 0.094955, 0.417331}, {0.278826, 0.175490, 0.483397},
    {0.258965, 0.251537, 0.524736}, {0.229739, 0.322361, 0.545706}, {0.199430, 0.387607, 0.554642},
    {0.172719, 0.448791, 0.557885}, {0.149039, 0.508051, 0.557250}, {0.127568, 0.566949, 0.550556},
    {0.120638, 0.625828, 0.533488}, {0.157851, 0.683765, 0.501686}, {0.246070, 0.738910, 0.452024},
    {0.369214, 0.788888, 0.382914}, {0.515992, 0.831158, 0.294279}, {0.678489, 0.863742, 0.189503},
    {0.845561, 0.887322, 0.099702}, {0.993248, 0.906157, 0.143936}};
}  // namespace

QColor viridis(double u) {
  if (!(u > 0)) u = 0;  // NaN too
  if (u > 1) u = 1;
  const double entry = u * 255;  // position in the 256-entry table
  int node = std::min(15, static_cast<int>(entry / 16));
  const double lo = node * 16.0, hi = node == 15 ? 255.0 : node * 16.0 + 16;
  const double f = (entry - lo) / (hi - lo);
  double rgb[3];
  for (int c = 0; c < 3; ++c)
    rgb[c] = kNodes[node][c] + f * (kNodes[node + 1][c] - kNodes[node][c]);
  return QColor::fromRgbF(static_cast<float>(rgb[0]), static_cast<float>(rgb[1]),
                          static_cast<float>(rgb[2]));
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
