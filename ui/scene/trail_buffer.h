// One trail of the 3D view as one VTK polyline that grows: while playback appends samples to
// the run, sync() appends the new points to the point, colour and connectivity arrays
// (preallocated, grown by doubling) and drops the points that left the trail's time window
// from the polyline, instead of building new arrays every frame. Anything else (another run,
// a jump in the history, a coarser thinning as the trail lengthens, a new lift) rebuilds.
#pragma once

#include <vtkSmartPointer.h>

#include <cstddef>
#include <vector>

#include "ui/scene/scene_geometry.h"

class vtkPolyData;
class vtkPoints;
class vtkUnsignedCharArray;
class vtkIdTypeArray;

namespace nhui {

struct TrailSpan;
using geometry::Rgb;

// Long trails are thinned to at most about this many drawn points (sub-pixel spacing).
inline constexpr std::size_t kTrailMaxDrawn = 8000;

class TrailBuffer {
 public:
  TrailBuffer();
  ~TrailBuffer();
  TrailBuffer(const TrailBuffer&) = delete;
  TrailBuffer& operator=(const TrailBuffer&) = delete;

  vtkPolyData* polyData() const { return poly_; }

  // Brings the polyline to span s: its thinned samples, lifted by `lift` along z, in colour c,
  // fading from opaque (newest) to 15 % (oldest).
  void sync(const TrailSpan& s, Rgb c, double lift);

  // What the last sync() did (tests, benchmarks).
  enum class Change { None, Appended, Rebuilt };
  Change lastChange() const { return lastChange_; }
  // Points the polyline draws (those before it in the arrays have left the window).
  std::size_t drawnCount() const { return sample_.size() - start_; }

 private:
  bool continues(const TrailSpan& s, std::size_t stride, double lift) const;
  void rebuild(const TrailSpan& s, std::size_t stride, Rgb c, double lift);
  void append(const TrailSpan& s, std::size_t stride);
  void pushSample(const TrailSpan& s, std::size_t k);
  void dropLeaving(const TrailSpan& s);
  void writeColours(const TrailSpan& s, Rgb c);
  void publish();

  vtkSmartPointer<vtkPolyData> poly_;
  vtkSmartPointer<vtkPoints> points_;
  vtkSmartPointer<vtkUnsignedCharArray> colours_;
  vtkSmartPointer<vtkIdTypeArray> offsets_;
  vtkSmartPointer<vtkIdTypeArray> connectivity_;
  std::vector<std::size_t> sample_;  // absolute sample index of each stored point
  std::size_t start_ = 0;            // first stored point the polyline draws
  bool newestExtra_ = false;         // the last point is the newest sample, off the stride
  std::size_t first_ = 0;            // the span of the last sync()
  std::size_t count_ = 0;
  std::size_t stride_ = 0;
  double lift_ = 0;
  Rgb colour_{0, 0, 0};
  Change lastChange_ = Change::None;
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
