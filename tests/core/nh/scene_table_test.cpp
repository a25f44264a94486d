// The scene table (core/nh/scene_table.h): one row per body kind with unique names and
// model-file words, every size component said, the colours each kind's drawing asks for, the
// bounding radius by each kind's rule against closed forms (a disk and a cylinder: the length
// of radius and half-height, not the largest component), sizes that take another component's
// value, the model loader reading every word the table has, and the sample layout's offsets.
#include "core/nh/scene_table.h"

#include <QtTest>
#include <cmath>
#include <set>
#include <string>

#include "core/model/formula_system.h"
#include "core/model/model_data.h"
#include "core/model/model_file.h"
#include "core/nh/errors.h"
#include "core/nh/system.h"
#include "particle_model.h"

namespace {

constexpr nh::ShapeKind kAllKinds[] = {
    nh::ShapeKind::Sphere,   nh::ShapeKind::Table, nh::ShapeKind::Disk,  nh::ShapeKind::Sleigh,
    nh::ShapeKind::Particle, nh::ShapeKind::Body,  nh::ShapeKind::Guide, nh::ShapeKind::Cylinder};

bool same(nh::Rgb a, nh::Rgb b) { return a.r == b.r && a.g == b.g && a.b == b.b; }

// The particle model with one body of shape `word`.
std::string modelWithShape(const std::string& word) {
  return nh::test::kParticleModel + "scene:\n  bodies:\n    - {name: b, shape: " + word +
         ", position: [x, y, z], size: [0.3, 0.1, 0.3]}\n";
}

}  // namespace

class SceneTableTest : public QObject {
  Q_OBJECT

 private slots:
  // Each kind has one row; names and model-file words are unique; each size component says
  // what it is.
  void eachKindOnce() {
    QCOMPARE(nh::kShapeTable.size(), std::size(kAllKinds));
    std::set<std::string> names, words;
    for (const nh::ShapeKind kind : kAllKinds) {
      const nh::ShapeRow& row = nh::shapeRow(kind);
      QVERIFY(row.kind == kind);
      QVERIFY(names.insert(row.name).second);
      QVERIFY(words.insert(row.modelName).second);
      QVERIFY(!std::string(row.geometry).empty());
      for (const char* meaning : row.size) QVERIFY(meaning && *meaning);
    }
  }

  // The roles each kind's drawing reads are in its row (the app's and the page's meshes).
  void coloursTheDrawingsRead() {
    using K = nh::ShapeKind;
    for (const char* role : {"a", "b"}) {
      nh::shapeColour(K::Sphere, role);
      nh::shapeColour(K::Disk, role);
    }
    for (const char* role : {"side", "stripe"}) nh::shapeColour(K::Cylinder, role);
    for (const char* role : {"light", "dark", "marker", "rim"}) nh::shapeColour(K::Table, role);
    for (const char* role : {"top", "side", "stripe"}) nh::shapeColour(K::Sleigh, role);
    nh::shapeColour(K::Particle, "body");
    nh::shapeColour(K::Guide, "plane");
    QVERIFY(same(nh::faceColours(K::Body)[0], nh::shapeColour(K::Body, "+x")));
    QVERIFY(same(nh::faceColours(K::Guide)[5], nh::shapeColour(K::Guide, "-z")));
    QVERIFY_THROWS_EXCEPTION(std::logic_error, nh::shapeColour(K::Disk, "plane"));
    // The comparison run's trails are told from the primary run's.
    QVERIFY(!same(nh::kRunColours[0].trails[0], nh::kRunColours[1].trails[0]));
  }

  // Bounding radii against closed forms: a disk or cylinder of radius r and half-height h is
  // held by sqrt(r² + h²) (its rim's corner), not by max(r, h).
  void boundsByEachKindsRule() {
    using K = nh::ShapeKind;
    const Eigen::Vector3d disk(0.3, 0.04, 0.3);
    QCOMPARE(nh::boundingRadius(K::Disk, disk), std::hypot(0.3, 0.04));
    QCOMPARE(nh::boundingRadius(K::Cylinder, Eigen::Vector3d(0.02, 0.5, 0.02)),
             std::hypot(0.02, 0.5));
    QCOMPARE(nh::boundingRadius(K::Table, Eigen::Vector3d(2, 0, 0.05)), std::hypot(2, 0.05));
    QCOMPARE(nh::boundingRadius(K::Sphere, Eigen::Vector3d(0.2, 0.5, 0.1)), 0.5);
    QCOMPARE(nh::boundingRadius(K::Particle, Eigen::Vector3d(0.05, 0, 0)), 0.05);
    const Eigen::Vector3d box(0.3, -0.2, 0.1);
    for (const K kind : {K::Body, K::Sleigh, K::Guide})
      QVERIFY(std::abs(nh::boundingRadius(kind, box) - box.norm()) <= 1e-15);
    nh::SceneBody body;
    body.kind = K::Disk;
    body.size = disk;
    QCOMPARE(nh::boundingRadius(body), nh::boundingRadius(K::Disk, disk));
  }

  // An ellipsoid's y or z at or below zero take its x; other kinds keep their sizes.
  void drawnSizeFillsComponents() {
    const Eigen::Vector3d given(0.4, 0, -1);
    QVERIFY(nh::drawnSize(nh::ShapeKind::Sphere, given) == Eigen::Vector3d(0.4, 0.4, 0.4));
    QVERIFY(nh::drawnSize(nh::ShapeKind::Sphere, Eigen::Vector3d(0.4, 0.2, 0.1)) ==
            Eigen::Vector3d(0.4, 0.2, 0.1));
    QVERIFY(nh::drawnSize(nh::ShapeKind::Guide, given) == given);
  }

  // Scenery: tables and guides, nothing else.
  void sceneryIsTablesAndGuides() {
    for (const nh::ShapeKind kind : kAllKinds)
      QCOMPARE(nh::shapeRow(kind).scenery,
               kind == nh::ShapeKind::Table || kind == nh::ShapeKind::Guide);
  }

  // The model loader reads every word of the table as its kind, and refuses another word
  // listing the table's words in its order.
  void modelFilesReadTheTablesWords() {
    for (const nh::ShapeRow& row : nh::kShapeTable) {
      const auto model = nh::model::loadModelText(modelWithShape(row.modelName), "shaped.yaml");
      const nh::ShapeKind kind = model->data().scene.bodies.at(0).kind;
      QVERIFY2(kind == row.kind, row.modelName);
    }
    try {
      nh::model::loadModelText(modelWithShape("cone"), "shaped.yaml");
      QFAIL("a cone was accepted");
    } catch (const nh::Error& e) {
      const std::string message = e.what();
      QVERIFY2(message.find("unknown shape 'cone' (allowed: sphere, box, disk, cylinder, plane, "
                            "point, sleigh, guide)") != std::string::npos,
               e.what());
    }
  }

  // A sample: bodies' records, then arrows', points' and the moving frame's.
  void sampleLayoutOffsets() {
    const nh::SampleLayout layout{2, 3, 4};
    QCOMPARE(layout.body(1), std::size_t(7));
    QCOMPARE(layout.arrow(0), std::size_t(14));
    QCOMPARE(layout.arrow(2), std::size_t(26));
    QCOMPARE(layout.point(0), std::size_t(32));
    QCOMPARE(layout.frame(), std::size_t(44));
    QCOMPARE(layout.width(), std::size_t(48));
    const nh::SampleLayout empty{};
    QCOMPARE(empty.width(), std::size_t(nh::kFrameRecord));
  }
};

QTEST_GUILESS_MAIN(SceneTableTest)
#include "scene_table_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
