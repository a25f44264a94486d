// A run's scenes as the page holds them (scene_samples.h): slots by item, samples as floats,
// arrow scales stepped per sample.
#include "core/nh/scene_samples.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace nh {

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

auto bodyKey(const SceneBody& b) { return std::make_pair(b.name, b.kind); }
auto arrowKey(const SceneArrow& a) { return std::make_pair(a.name, a.kind); }
auto pointKey(const ScenePoint& p) { return std::make_pair(p.name, p.inMovingFrame); }

template <typename Item, typename Key>
int find(const std::vector<Item>& items, const Item& item, Key key) {
  for (size_t i = 0; i < items.size(); ++i)
    if (key(items[i]) == key(item)) return static_cast<int>(i);
  return -1;
}

template <typename Item, typename Key>
int slotOf(std::vector<Item>& items, const Item& item, Key key) {
  const int found = find(items, item, key);
  if (found >= 0) return found;
  items.push_back(item);
  return static_cast<int>(items.size()) - 1;
}

size_t at(int slot) { return static_cast<size_t>(slot); }

}  // namespace

void SceneItems::take(const SceneFrame& frame) {
  for (const auto& b : frame.bodies) bodySlot(b);
  for (const auto& a : frame.arrows) arrowSlot(a);
  for (const auto& p : frame.points) pointSlot(p);
  if (std::isfinite(frame.extent)) extent = std::max(extent, frame.extent);
  if (!frame.movingFrame.isApprox(Eigen::Quaterniond::Identity())) movingFrame = true;
}

int SceneItems::bodySlot(const SceneBody& body) { return slotOf(bodies, body, bodyKey); }
int SceneItems::arrowSlot(const SceneArrow& arrow) { return slotOf(arrows, arrow, arrowKey); }
int SceneItems::pointSlot(const ScenePoint& point) { return slotOf(points, point, pointKey); }
int SceneItems::findArrow(const SceneArrow& arrow) const { return find(arrows, arrow, arrowKey); }

void SceneItems::dropUnknown(SceneFrame& frame) const {
  std::erase_if(frame.bodies, [&](const SceneBody& b) { return find(bodies, b, bodyKey) < 0; });
  std::erase_if(frame.arrows, [&](const SceneArrow& a) { return find(arrows, a, arrowKey) < 0; });
  std::erase_if(frame.points, [&](const ScenePoint& p) { return find(points, p, pointKey) < 0; });
}

float pageFloat(double v) { return std::isfinite(v) ? static_cast<float>(v) : kNaN; }

void appendVector(std::vector<float>& out, const Eigen::Vector3d& v) {
  for (int i = 0; i < 3; ++i) out.push_back(pageFloat(v[i]));
}

void appendQuaternion(std::vector<float>& out, const Eigen::Quaterniond& q) {
  for (const double c : {q.x(), q.y(), q.z(), q.w()}) out.push_back(pageFloat(c));
}

void appendSample(const SceneFrame& frame, SceneItems& items, std::vector<float>& out) {
  for (const auto& b : frame.bodies) items.bodySlot(b);
  for (const auto& a : frame.arrows) items.arrowSlot(a);
  for (const auto& p : frame.points) items.pointSlot(p);
  const size_t start = out.size();
  const SampleLayout layout = items.layout();
  out.resize(start + layout.width(), kNaN);
  std::vector<float> part;
  auto place = [&](size_t offset) {
    std::copy(part.begin(), part.end(), out.begin() + static_cast<std::ptrdiff_t>(start + offset));
    part.clear();
  };
  for (const auto& b : frame.bodies) {
    const size_t slot = layout.body(at(items.bodySlot(b)));
    appendVector(part, b.position);
    place(slot + kBodyPosition);
    appendQuaternion(part, b.orientation.normalized());
    place(slot + kBodyOrientation);
  }
  for (const auto& a : frame.arrows) {
    const size_t slot = layout.arrow(at(items.arrowSlot(a)));
    appendVector(part, a.origin);
    place(slot + kArrowOrigin);
    appendVector(part, a.vector);
    place(slot + kArrowVector);
  }
  for (const auto& p : frame.points) {
    appendVector(part, p.position);
    place(layout.point(at(items.pointSlot(p))) + kPointPosition);
  }
  appendQuaternion(part, frame.movingFrame.normalized());
  place(layout.frame() + kFrameOrientation);
}

void appendHidden(const SceneItems& items, std::vector<float>& out) {
  out.resize(out.size() + items.layout().width(), kNaN);
}

SampleArrowScales::SampleArrowScales(std::vector<double> presets, bool fixed) : fixed_(fixed) {
  scales_.resize(presets.size());
  for (size_t i = 0; i < presets.size(); ++i)
    if (presets[i] > 0) scales_[i].reference = scales_[i].largest = presets[i];
}

void SampleArrowScales::append(const SceneFrame& frame, const SceneItems& items,
                               std::vector<std::vector<float>>& out) {
  if (scales_.size() < items.arrows.size()) scales_.resize(items.arrows.size());
  if (out.size() < items.arrows.size()) out.resize(items.arrows.size());
  for (size_t i = 0; i < items.arrows.size(); ++i) {
    out[i].resize(samples_, kNaN);  // an arrow first seen now: not drawn before
    const auto it =
        std::find_if(frame.arrows.begin(), frame.arrows.end(),
                     [&](const SceneArrow& a) { return arrowKey(a) == arrowKey(items.arrows[i]); });
    const bool drawn = it != frame.arrows.end() && scales_[i].step(it->vector.norm(), fixed_);
    out[i].push_back(drawn ? pageFloat(scales_[i].reference) : kNaN);
  }
  ++samples_;
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
