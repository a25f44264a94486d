// RunHistory (run_history.h): samples appended column by column, found by time, truncated or
// dropped from the front, the parameters in force from each sample on, and the scene frame at
// a time.
#include "ui/sim/run_history.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace nhui {

RunHistory::RunHistory(std::shared_ptr<const nh::SystemModel> system, nh::DynamicsKind dynamics,
                       RecordLayout layout)
    : system_(std::move(system)), dynamics_(dynamics), layout_(std::move(layout)) {
  columns_.resize(layout_.columns.size());
}

int RunHistory::columnIndex(const std::string& name) const {
  for (size_t c = 0; c < layout_.columns.size(); ++c)
    if (layout_.columns[c] == name) return static_cast<int>(c);
  return -1;
}

size_t RunHistory::indexAtOrBefore(double t) const {
  const auto& ts = columns_[0];
  auto it = std::upper_bound(ts.begin(), ts.end(), t);
  if (it == ts.begin()) return 0;
  return static_cast<size_t>(it - ts.begin()) - 1;
}

size_t RunHistory::indexAtOrAfter(double t) const {
  const auto& ts = columns_[0];
  return static_cast<size_t>(std::lower_bound(ts.begin(), ts.end(), t) - ts.begin());
}

void RunHistory::append(const double* records, size_t count) {
  const int stride = layout_.stride();
  const size_t first = size();
  for (int c = 0; c < stride; ++c) {
    auto& col = columns_[c];
    if (col.capacity() < col.size() + count)
      col.reserve(std::max(2 * col.capacity(), col.size() + count + 1024));
    for (size_t r = 0; r < count; ++r) col.push_back(records[r * stride + c]);
  }
  if (layout_.energyColumn < 0) return;  // a plan: no energy (plan_run.h)
  const std::vector<double>& energy = columns_[layout_.energyColumn];
  std::vector<double>& error = columns_[layout_.energyErrorColumn];
  for (size_t k = first; k < first + count; ++k) {
    double* e0 = &energy0_;
    for (size_t i = segments_.size(); i-- > 0;)
      if (segments_[i].start <= k) {
        e0 = &segments_[i].energy0;
        break;
      }
    if (std::isnan(*e0)) *e0 = energy[k];
    error[k] = *e0 != 0 ? (energy[k] - *e0) / std::abs(*e0) : energy[k] - *e0;
  }
}

void RunHistory::truncate(size_t n) {
  for (auto& col : columns_)
    if (col.size() > n) col.resize(n);
  while (segments_.size() > 1 && segments_.back().start >= std::max<size_t>(n, 1))
    segments_.pop_back();
  // The first sample of what remains was dropped: E₀ is taken again from the next one.
  if (n == 0) {
    energy0_ = std::nan("");
    for (Segment& s : segments_) s.energy0 = std::nan("");
  }
}

void RunHistory::dropFront(size_t count) {
  count = std::min(count, size());
  for (auto& col : columns_) col.erase(col.begin(), col.begin() + static_cast<long>(count));
  // Keep the segment in force at the new first sample.
  std::vector<Segment> kept;
  for (size_t i = 0; i < segments_.size(); ++i) {
    const bool nextStartsBefore = i + 1 < segments_.size() && segments_[i + 1].start <= count;
    if (nextStartsBefore) continue;
    Segment s = segments_[i];
    s.start = s.start > count ? s.start - count : 0;
    kept.push_back(std::move(s));
  }
  segments_ = std::move(kept);
}

void RunHistory::clear() {
  for (auto& col : columns_) col.clear();
  segments_.clear();
  energy0_ = std::nan("");
}

std::vector<double> RunHistory::state(size_t k) const {
  std::vector<double> x(layout_.stateSize, 0.0);
  for (size_t i = 0; i < layout_.state.index.size(); ++i)
    x[layout_.state.index[i]] = columns_[layout_.firstState + i][k];
  return x;
}

void RunHistory::setParametersFrom(size_t start, const std::vector<double>& parameters) {
  while (!segments_.empty() && segments_.back().start >= start) segments_.pop_back();
  segments_.push_back({start, parameters, std::nan("")});
  // Samples already recorded from `start` on (the first segment set after the first
  // samples): E₀ from the first of them, as when they are appended.
  if (start < size() && layout_.energyColumn >= 0)
    segments_.back().energy0 = columns_[layout_.energyColumn][start];
}

const std::vector<double>& RunHistory::parametersAt(size_t k) const {
  assert(!segments_.empty());
  for (size_t i = segments_.size(); i-- > 0;)
    if (segments_[i].start <= k) return segments_[i].parameters;
  return segments_.front().parameters;
}

void RunHistory::sceneAt(double t, nh::SceneFrame& frame) const {
  if (empty()) {
    frame = nh::SceneFrame{};
    return;
  }
  const size_t k0 = indexAtOrBefore(t);
  const size_t k1 = std::min(k0 + 1, size() - 1);
  double w = 0;
  if (k1 != k0) {
    const double t0 = time(k0), t1 = time(k1);
    w = std::clamp((t - t0) / (t1 - t0), 0.0, 1.0);
  }
  // A parameter change between the two samples: no blending across it.
  if (&parametersAt(k0) != &parametersAt(k1)) w = 0;
  const double tt = w == 0 ? time(k0) : (1 - w) * time(k0) + w * time(k1);
  std::vector<double> x0 = state(k0);
  if (w > 0) {
    const std::vector<double> x1 = state(k1);
    for (size_t i = 0; i < x0.size(); ++i) x0[i] = (1 - w) * x0[i] + w * x1[i];
  }
  std::vector<double> lambda(std::max(1, layout_.lambdaCount), 0.0);
  for (int c = 0; c < layout_.lambdaCount; ++c) {
    const auto& col = columns_[layout_.firstLambda + c];
    lambda[c] = (1 - w) * col[k0] + w * col[k1];
  }
  const int n = system_->n();
  system_->scene(parametersAt(k0).data(), tt, x0.data(), x0.data() + n, lambda.data(), frame);
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
