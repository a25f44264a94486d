// A run's scenes as the interactive page holds them: the items drawn (bodies, arrows, points)
// each given one slot the first time it is seen, and each sample's numbers laid out slot by
// slot as the scene table says (SampleLayout), in 32-bit floats. The exported page and the
// web engine's live page make their samples here, so both are read by the same script.
#pragma once

#include <cstddef>
#include <vector>

#include "core/nh/arrow_scale.h"
#include "core/nh/scene_table.h"
#include "core/nh/system.h"

namespace nh {

// Everything drawn at some sample: bodies, arrows and points by kind and name (points by
// name and frame), in the order first seen, so that an item that appears later keeps one slot.
struct SceneItems {
  std::vector<SceneBody> bodies;
  std::vector<SceneArrow> arrows;
  std::vector<ScenePoint> points;
  double extent = 0;         // the largest scene extent seen
  bool movingFrame = false;  // the moving frame turns at some sample

  // The slot of each item of `frame`, new ones added; the extent and moving frame noted.
  void take(const SceneFrame& frame);
  int bodySlot(const SceneBody& body);  // added when new
  int arrowSlot(const SceneArrow& arrow);
  int pointSlot(const ScenePoint& point);
  // -1 when the item has no slot.
  int findArrow(const SceneArrow& arrow) const;
  // Removes from `frame` what has no slot (a page drawing a fixed set of items).
  void dropUnknown(SceneFrame& frame) const;
  SampleLayout layout() const { return {bodies.size(), arrows.size(), points.size()}; }
};

// A value for the page: NaN and infinities (a body that left, a diverged run) become NaN,
// which the page reads as "not drawn".
float pageFloat(double v);
void appendVector(std::vector<float>& out, const Eigen::Vector3d& v);
void appendQuaternion(std::vector<float>& out, const Eigen::Quaterniond& q);

// One sample's numbers appended to `out`, laid out as items.layout() says: bodies (position,
// quaternion x y z w), arrows (origin, vector), points (position) and the moving frame
// (quaternion); an item missing at the sample is NaN (not drawn). Items of `frame` without a
// slot are given one (call take() on every frame first to keep the width).
void appendSample(const SceneFrame& frame, SceneItems& items, std::vector<float>& out);
// A sample where nothing is drawn: every slot NaN, the moving frame too.
void appendHidden(const SceneItems& items, std::vector<float>& out);

// Each arrow's scale, stepped sample by sample as the view steps it frame by frame: one
// ArrowScale per arrow slot, a lesson's fixed values kept.
class SampleArrowScales {
 public:
  // `presets`: per arrow slot, a fixed scale (> 0) or 0; `fixed`: the view's Fixed arrow scale.
  SampleArrowScales(std::vector<double> presets, bool fixed);
  // The reference magnitude of each arrow slot of `items` at `frame` (NaN where the arrow is
  // not drawn: missing, or round-off of a zero vector), appended to out[slot].
  void append(const SceneFrame& frame, const SceneItems& items,
              std::vector<std::vector<float>>& out);

 private:
  std::vector<ArrowScale> scales_;
  bool fixed_;
  std::size_t samples_ = 0;  // appended so far
};

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
