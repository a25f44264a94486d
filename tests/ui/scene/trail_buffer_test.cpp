// The growing trail buffer: appending samples frame by frame, sliding the trail's window and
// thinning long trails give the same polyline (points, colours, one line through them) as
// building it afresh from the span, and only the changes that need it rebuild the arrays.
#include "ui/scene/trail_buffer.h"

#include <vtkCellArray.h>
#include <vtkIdList.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkUnsignedCharArray.h>

#include <QtTest>
#include <cmath>
#include <vector>

#include "ui/scene/scene_renderer.h"

namespace {

using nhui::TrailBuffer;
using nhui::TrailSpan;
using nhui::geometry::Rgb;

// A recorded trail of n samples: a slowly opening spiral.
struct Samples {
  std::vector<double> x, y, z;
  explicit Samples(std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
      const double t = 0.01 * static_cast<double>(i);
      x.push_back((1 + 0.01 * t) * std::cos(t));
      y.push_back((1 + 0.01 * t) * std::sin(t));
      z.push_back(0.1 * std::sin(3 * t));
    }
  }
  // Samples [begin, end) as a span.
  TrailSpan span(std::size_t begin, std::size_t end) const {
    TrailSpan s;
    s.name = "centre";
    s.x = x.data() + begin;
    s.y = y.data() + begin;
    s.z = z.data() + begin;
    s.count = end - begin;
    s.first = begin;
    return s;
  }
};

// The polyline a buffer draws: its points in line order, with their RGBA colours.
struct Drawn {
  std::vector<float> xyz;
  std::vector<unsigned char> rgba;
  bool operator==(const Drawn&) const = default;
};

Drawn drawn(const TrailBuffer& buffer) {
  vtkPolyData* poly = buffer.polyData();
  Drawn d;
  if (poly->GetLines()->GetNumberOfCells() != 1) return d;
  vtkNew<vtkIdList> ids;
  poly->GetLines()->GetCellAtId(0, ids);
  auto* colours = vtkUnsignedCharArray::SafeDownCast(poly->GetPointData()->GetScalars());
  for (vtkIdType j = 0; j < ids->GetNumberOfIds(); ++j) {
    double p[3];
    poly->GetPoint(ids->GetId(j), p);
    for (double v : p) d.xyz.push_back(static_cast<float>(v));
    for (int c = 0; c < 4; ++c) d.rgba.push_back(colours->GetTypedComponent(ids->GetId(j), c));
  }
  return d;
}

Drawn rebuilt(const TrailSpan& s, Rgb c, double lift) {
  TrailBuffer fresh;
  fresh.sync(s, c, lift);
  return drawn(fresh);
}

constexpr Rgb kColour{225, 30, 140};

}  // namespace

class TrailBufferTest : public QObject {
  Q_OBJECT

 private slots:
  // Playback: the run grows by two samples a frame from the start; every frame appends and
  // the polyline holds every sample, the newest opaque and the oldest at 15 %.
  void appendingHoldsEverySample() {
    const Samples samples(2001);
    TrailBuffer buffer;
    buffer.sync(samples.span(0, 2), kColour, 0);
    QCOMPARE(buffer.lastChange(), TrailBuffer::Change::Rebuilt);
    for (std::size_t end = 3; end <= samples.x.size(); end += 2) {
      buffer.sync(samples.span(0, end), kColour, 0);
      QCOMPARE(buffer.lastChange(), TrailBuffer::Change::Appended);
      QCOMPARE(buffer.polyData()->GetNumberOfPoints(), static_cast<vtkIdType>(end));
    }
    const Drawn d = drawn(buffer);
    QCOMPARE(d.xyz.size(), 3 * samples.x.size());
    QVERIFY(d == rebuilt(samples.span(0, samples.x.size()), kColour, 0));
    QCOMPARE(int(d.rgba[3]), 38);  // 15 % of 255, the oldest sample
    QCOMPARE(int(d.rgba.back()), 255);
    QCOMPARE(d.xyz[3], float(samples.x[1]));
  }

  // A trail window of 10 s (1000 samples) slides along a long run, a few samples a frame:
  // the polyline equals the rebuilt one every frame, and the buffer is compacted now and then
  // instead of growing without bound.
  void slidingWindowEqualsRebuild() {
    const Samples samples(6000);
    TrailBuffer buffer;
    int rebuilds = 0;
    for (std::size_t end = 1000; end <= samples.x.size(); end += 3) {
      const TrailSpan s = samples.span(end - 1000, end);
      buffer.sync(s, kColour, 0.003);
      rebuilds += buffer.lastChange() == TrailBuffer::Change::Rebuilt;
      QVERIFY2(drawn(buffer) == rebuilt(s, kColour, 0.003), qPrintable(QString::number(end)));
      QCOMPARE(buffer.drawnCount(), std::size_t(1000));
    }
    QVERIFY(rebuilds >= 2 && rebuilds <= 8);
    QVERIFY(buffer.polyData()->GetNumberOfPoints() <= 2100);
  }

  // Long trails are thinned (anchored to the absolute sample index) and the newest sample is
  // always drawn; appending keeps that, and a coarser thinning as the trail grows rebuilds.
  void thinnedTrailsEqualRebuild() {
    const Samples samples(40000);
    TrailBuffer buffer;
    int rebuilds = 0;
    for (std::size_t end = 7001; end <= samples.x.size(); end += 997) {
      const TrailSpan s = samples.span(0, end);
      buffer.sync(s, kColour, 0);
      rebuilds += buffer.lastChange() == TrailBuffer::Change::Rebuilt;
      QVERIFY2(drawn(buffer) == rebuilt(s, kColour, 0), qPrintable(QString::number(end)));
      QVERIFY(buffer.drawnCount() <= nhui::kTrailMaxDrawn + 1);
    }
    QCOMPARE(rebuilds, 5);  // the first sync, then strides 2, 3, 4 and 5
    // The last span (39 902 samples, stride 5): the samples whose absolute index is a multiple
    // of 5, then the newest one.
    const Drawn d = drawn(buffer);
    QCOMPARE(d.xyz.size(), 3 * std::size_t(39902 / 5 + 2));
    QCOMPARE(d.xyz[3 * 7], float(samples.x[35]));
    QCOMPARE(d.xyz.end()[-3], float(samples.x[39901]));
  }

  // What is not a continuation rebuilds: another run of the same length (a reset), a window
  // that moved back (scrubbing), another lift; a new colour is written without rebuilding;
  // the same span again changes nothing.
  void otherChangesRebuild() {
    const Samples a(3000);
    Samples c(3000);
    for (double& v : c.x) v += 0.5;
    TrailBuffer buffer;
    buffer.sync(a.span(0, 2000), kColour, 0);
    buffer.sync(a.span(0, 2000), kColour, 0);
    QCOMPARE(buffer.lastChange(), TrailBuffer::Change::None);
    buffer.sync(c.span(0, 2002), kColour, 0);
    QCOMPARE(buffer.lastChange(), TrailBuffer::Change::Rebuilt);
    QVERIFY(drawn(buffer) == rebuilt(c.span(0, 2002), kColour, 0));
    buffer.sync(c.span(0, 1500), kColour, 0);
    QCOMPARE(buffer.lastChange(), TrailBuffer::Change::Rebuilt);
    buffer.sync(c.span(0, 1502), kColour, 0.01);
    QCOMPARE(buffer.lastChange(), TrailBuffer::Change::Rebuilt);
    const Rgb other{0, 145, 225};
    buffer.sync(c.span(0, 1502), other, 0.01);
    QCOMPARE(buffer.lastChange(), TrailBuffer::Change::Appended);
    QVERIFY(drawn(buffer) == rebuilt(c.span(0, 1502), other, 0.01));
  }
};

QTEST_GUILESS_MAIN(TrailBufferTest)
#include "trail_buffer_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
