// The recorded samples of one run, column by column (t, the state by name, energy,
// residuals, multipliers, the largest residual, the energy error, and the scene's trail
// points), so that plots and trails read contiguous arrays without copying. Owned by the GUI
// thread.
#pragma once

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/nh/dynamics.h"
#include "core/nh/run_record.h"
#include "core/nh/scenario.h"

namespace nhui {

// The record layout and its filling are the core's (core/nh/run_record.h).
using nh::fillRecord;
using nh::makeRecordLayout;
using nh::RecordLayout;

class RunHistory {
 public:
  RunHistory() = default;
  RunHistory(std::shared_ptr<const nh::SystemModel> system, nh::DynamicsKind dynamics,
             RecordLayout layout);

  const RecordLayout& layout() const { return layout_; }
  const nh::SystemModel& system() const { return *system_; }
  nh::DynamicsKind dynamics() const { return dynamics_; }
  size_t size() const { return columns_.empty() ? 0 : columns_[0].size(); }
  bool empty() const { return size() == 0; }

  int columnIndex(const std::string& name) const;  // -1 if absent
  const std::vector<double>& column(int c) const { return columns_[c]; }
  const std::vector<double>& times() const { return columns_[0]; }
  double time(size_t k) const { return columns_[0][k]; }
  double firstTime() const { return empty() ? 0 : columns_[0].front(); }
  double lastTime() const { return empty() ? 0 : columns_[0].back(); }

  // Largest k with time(k) ≤ t (0 if t is before the first sample). Requires !empty().
  size_t indexAtOrBefore(double t) const;
  // First k with time(k) ≥ t.
  size_t indexAtOrAfter(double t) const;

  // count records of layout().stride(); fills their energy error (RecordLayout).
  void append(const double* records, size_t count);
  void truncate(size_t size);  // keeps samples [0, size)
  void dropFront(size_t count);
  void clear();

  // The full state vector recorded at sample k.
  std::vector<double> state(size_t k) const;

  // Parameters in force from sample `start` on (kept sorted by start).
  void setParametersFrom(size_t start, const std::vector<double>& parameters);
  const std::vector<double>& parametersAt(size_t k) const;
  // The parameter segments: where each begins (a sample index) and its values.
  size_t segmentCount() const { return segments_.size(); }
  size_t segmentStart(size_t i) const { return segments_[i].start; }
  const std::vector<double>& segmentParameters(size_t i) const { return segments_[i].parameters; }

  // The scene at time t, interpolated linearly between the neighbouring samples (display
  // only: quaternions are renormalised by the systems' scene functions).
  void sceneAt(double t, nh::SceneFrame& frame) const;

 private:
  std::shared_ptr<const nh::SystemModel> system_;
  nh::DynamicsKind dynamics_ = nh::DynamicsKind::Nonholonomic;
  RecordLayout layout_;
  std::vector<std::vector<double>> columns_;
  struct Segment {
    size_t start;
    std::vector<double> parameters;
    double energy0 = std::nan("");  // E₀: the energy at the segment's first sample
  };
  std::vector<Segment> segments_;
  double energy0_ = std::nan("");  // E₀ while no parameters were set (no segments)
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
