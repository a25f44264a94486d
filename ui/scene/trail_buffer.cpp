// TrailBuffer (trail_buffer.h): a trail's samples thinned by stride, appended to the polyline's
// arrays or dropped as they leave the time window, and rebuilt whole when the run changes.
#include "ui/scene/trail_buffer.h"

#include <vtkCellArray.h>
#include <vtkIdTypeArray.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkUnsignedCharArray.h>

#include <algorithm>
#include <cmath>

#include "ui/scene/scene_renderer.h"

namespace nhui {

namespace {

// Every stride-th sample is drawn, anchored to the absolute sample index so that the drawn
// points do not shimmer as the window slides; the newest sample is always drawn.
std::size_t strideOf(const TrailSpan& s) {
  return std::max<std::size_t>(1, (s.count + kTrailMaxDrawn - 1) / kTrailMaxDrawn);
}

// The first absolute sample index at or after `a` on the stride.
std::size_t onStrideFrom(std::size_t a, std::size_t stride) {
  return (a + stride - 1) / stride * stride;
}

// Grows `array` (keeping its values) so that it holds `tuples` tuples, doubling its capacity
// when it must grow, and sets its number of tuples.
void resizeKeeping(vtkDataArray* array, vtkIdType tuples) {
  const vtkIdType capacity = array->GetSize() / array->GetNumberOfComponents();
  if (tuples > capacity)
    array->Resize(std::max<vtkIdType>(2 * capacity, std::max<vtkIdType>(tuples, 256)));
  array->SetNumberOfTuples(tuples);
}

}  // namespace

TrailBuffer::TrailBuffer()
    : poly_(vtkSmartPointer<vtkPolyData>::New()),
      points_(vtkSmartPointer<vtkPoints>::New()),
      colours_(vtkSmartPointer<vtkUnsignedCharArray>::New()),
      offsets_(vtkSmartPointer<vtkIdTypeArray>::New()),
      connectivity_(vtkSmartPointer<vtkIdTypeArray>::New()) {
  points_->SetDataTypeToFloat();
  colours_->SetNumberOfComponents(4);
  colours_->SetName("Colors");
  offsets_->SetNumberOfValues(2);
  offsets_->SetValue(0, 0);
  offsets_->SetValue(1, 0);
  vtkNew<vtkCellArray> lines;
  lines->SetData(offsets_, connectivity_);
  poly_->SetPoints(points_);
  poly_->SetLines(lines);
  poly_->GetPointData()->SetScalars(colours_);
}

TrailBuffer::~TrailBuffer() = default;

void TrailBuffer::sync(const TrailSpan& s, Rgb c, double lift) {
  const std::size_t stride = strideOf(s);
  const bool sameColour = c.r == colour_.r && c.g == colour_.g && c.b == colour_.b;
  if (s.count == 0 || !continues(s, stride, lift)) {
    rebuild(s, stride, c, lift);
    lastChange_ = Change::Rebuilt;
  } else if (s.first == first_ && s.count == count_) {
    if (!sameColour) writeColours(s, c);
    lastChange_ = sameColour ? Change::None : Change::Appended;
  } else {
    append(s, stride);
    writeColours(s, c);
    lastChange_ = Change::Appended;
  }
  colour_ = c;
  first_ = s.first;
  count_ = s.count;
  if (lastChange_ != Change::None) publish();
}

// The stored points are those span s draws up to the end of the previous span: same thinning
// and lift, a window that only moved forward and still overlaps, and the same samples at both
// ends of what is kept (another run of the same length fails this).
bool TrailBuffer::continues(const TrailSpan& s, std::size_t stride, double lift) const {
  if (sample_.empty() || stride != stride_ || lift != lift_) return false;
  const std::size_t end = s.first + s.count;
  if (s.first < first_ || end < first_ + count_ || s.first >= first_ + count_) return false;
  const std::size_t stable = sample_.size() - (newestExtra_ ? 1 : 0);
  std::size_t keep = start_;
  while (keep < stable && sample_[keep] < s.first) ++keep;
  if (keep >= stable) return false;
  // Compact now and then: dropped points still occupy the arrays.
  if (keep > std::max<std::size_t>(1024, (stable - keep) / 4)) return false;
  const auto* xyz = static_cast<const float*>(points_->GetVoidPointer(0));
  for (const std::size_t i : {keep, stable - 1}) {
    const std::size_t k = sample_[i] - s.first;
    if (xyz[3 * i] != static_cast<float>(s.x[k]) || xyz[3 * i + 1] != static_cast<float>(s.y[k]) ||
        xyz[3 * i + 2] != static_cast<float>(s.z[k] + lift))
      return false;
  }
  return true;
}

void TrailBuffer::rebuild(const TrailSpan& s, std::size_t stride, Rgb c, double lift) {
  stride_ = stride;
  lift_ = lift;
  sample_.clear();
  start_ = 0;
  newestExtra_ = false;
  points_->SetNumberOfPoints(0);
  colours_->SetNumberOfTuples(0);
  connectivity_->SetNumberOfValues(0);
  first_ = s.first;
  count_ = 0;
  if (s.count > 0) append(s, stride);
  writeColours(s, c);
}

// Drops what left the window, then appends the samples after the last stored one.
void TrailBuffer::append(const TrailSpan& s, std::size_t stride) {
  if (newestExtra_) {
    sample_.pop_back();
    newestExtra_ = false;
  }
  dropLeaving(s);
  const std::size_t end = s.first + s.count;
  std::size_t a = onStrideFrom(s.first, stride);
  if (start_ < sample_.size()) a = std::max(a, sample_.back() + stride);
  for (; a < end; a += stride) pushSample(s, a - s.first);
  if (sample_.empty() || sample_.back() != end - 1) {
    pushSample(s, s.count - 1);
    newestExtra_ = true;
  }
}

void TrailBuffer::dropLeaving(const TrailSpan& s) {
  start_ = std::min(start_, sample_.size());
  while (start_ < sample_.size() && sample_[start_] < s.first) ++start_;
  if (start_ == sample_.size()) {
    sample_.clear();
    start_ = 0;
  }
}

// Appends sample k of span s.
void TrailBuffer::pushSample(const TrailSpan& s, std::size_t k) {
  const std::size_t i = sample_.size();
  sample_.push_back(s.first + k);
  resizeKeeping(points_->GetData(), static_cast<vtkIdType>(i + 1));
  auto* xyz = static_cast<float*>(points_->GetVoidPointer(0));
  xyz[3 * i] = static_cast<float>(s.x[k]);
  xyz[3 * i + 1] = static_cast<float>(s.y[k]);
  xyz[3 * i + 2] = static_cast<float>(s.z[k] + lift_);
  resizeKeeping(colours_, static_cast<vtkIdType>(i + 1));  // written by writeColours()
}

// The colour of every drawn point, fading from opaque (the newest sample) to 15 % (the
// oldest of the span).
void TrailBuffer::writeColours(const TrailSpan& s, Rgb c) {
  unsigned char* rgba = colours_->GetPointer(0);
  const double last = static_cast<double>(std::max<std::size_t>(1, s.count - 1));
  for (std::size_t i = start_; i < sample_.size(); ++i) {
    const double age = 1.0 - (sample_[i] - s.first) / last;  // 0 newest, 1 oldest
    unsigned char* p = rgba + 4 * i;
    p[0] = c.r;
    p[1] = c.g;
    p[2] = c.b;
    p[3] = static_cast<unsigned char>(std::lround(255 * (1.0 - 0.85 * age)));
  }
  colours_->Modified();
}

// One polyline through the stored points from start_ on.
void TrailBuffer::publish() {
  const auto n = static_cast<vtkIdType>(sample_.size());
  const auto start = static_cast<vtkIdType>(start_);
  const vtkIdType kept = connectivity_->GetNumberOfValues();
  const bool sameStart = kept > 0 && connectivity_->GetValue(0) == start;
  resizeKeeping(connectivity_, n - start);
  vtkIdType* ids = connectivity_->GetPointer(0);
  for (vtkIdType j = sameStart ? std::min(kept, n - start) : 0; j < n - start; ++j)
    ids[j] = start + j;
  offsets_->SetValue(1, n - start);
  points_->SetNumberOfPoints(n);
  colours_->SetNumberOfTuples(n);
  points_->Modified();
  connectivity_->Modified();
  offsets_->Modified();
  poly_->GetLines()->SetData(offsets_, connectivity_);
  poly_->Modified();
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
