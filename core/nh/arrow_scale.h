// The scale of an arrow in the 3D view, the video's frames and the page: one per arrow, kept
// frame by frame by the rule ArrowScale::step, and the 1-2-5 numbers it takes.
#pragma once

namespace nh {

// The scale of one arrow, as the view keeps it frame by frame: `reference`, the magnitude drawn
// with the reference length (0.35 × the scene extent), a 1-2-5 number. Each arrow has its own
// (a small friction force and the weight are both drawn readably). The page steps the same
// rule over its samples, so that its arrows are drawn as the view's and the video's.
struct ArrowScale {
  double reference = 0;  // 0: none yet
  double largest = 0;    // largest magnitude shown since the system was set or a new run
  int quietFrames = 0;
  bool recheck = false;  // a fixed scale to check against the new run's first vector
  // Takes this frame's magnitude: auto (fixed false), the scale grows to the 1-2-5 number
  // above a vector that outgrows it and shrinks after 120 frames far below it, never under
  // 1 % of the largest; fixed, it keeps `fixedValue` when that is > 0, else the scale it has
  // (once taken). Returns whether the vector is drawn (not round-off of a zero vector).
  bool step(double magnitude, bool fixed, double fixedValue = 0);
};

// Smallest 1-2-5 number ≥ v (1 for v not positive or not finite).
double niceCeil(double v);

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
