// The model-file key `outputs` (docs/model-format.md): named quantities computed from
// expressions, recorded as output columns after the multipliers (SystemInfo::outputs,
// SystemModel::outputs), labelled like any variable; names that clash are refused in one line.
#include <QtTest>

#include "core/model/model_file.h"
#include "core/nh/scenario.h"
#include "core/nh/simulation.h"

namespace {

const std::string kParticle = R"(format: nonholonomic-lab-system
version: 1
name: particle
parameters:
  - {name: m, default: 2.0, unit: kg}
coordinates: [x, y, z]
velocities: [vx, vy, vz]
definitions:
  speed2: vx*vx + vy*vy + vz*vz
lagrangian: 0.5*m*speed2
constraints:
  - vz - y*vx
initial: {x: 0.25, y: 0.5, vx: 1, vy: 0.5}
)";

}  // namespace

class ModelOutputsTest : public QObject {
  Q_OBJECT

 private slots:
  // Two outputs (one reading a definition and a parameter, one the time and a coordinate) are
  // columns after lambda_1 with their values at every sample; a label may name them.
  void outputsAreRecordedColumns() {
    const auto system = nh::model::loadModelText(
        kParticle +
            "outputs:\n  kinetic: 0.5*m*speed2\n  drift: x - t\nlabels:\n  kinetic: {label: "
            "kinetic energy, unit: J}\n",
        "particle.yaml");
    QCOMPARE(system->info().outputs, (std::vector<std::string>{"kinetic", "drift"}));
    QVERIFY(nh::findVariableLabel(system->info(), "kinetic"));
    nh::Simulation sim(system, nh::DynamicsKind::Nonholonomic);
    sim.setState(0, nh::initialState(sim.equations(), 0, {}));
    const std::vector<std::string> columns = nh::outputColumns(sim.equations());
    // t, the state, energy, energy_frame, phi_1, lambda_1, the two outputs
    QCOMPARE(columns.size(), std::size_t(1 + 6 + 2 + 1 + 1 + 2));
    QCOMPARE(columns[columns.size() - 3], std::string("lambda_1"));
    QCOMPARE(columns[columns.size() - 2], std::string("kinetic"));
    QCOMPARE(columns.back(), std::string("drift"));
    const nh::StateLayout layout = nh::stateLayout(*system, nh::DynamicsKind::Nonholonomic);
    nh::Observables obs;
    std::vector<double> row;
    int samples = 0;
    sim.advance(1.0, 0.25, [&](double t, const double* x) {
      nh::outputRow(sim.equations(), sim.workspace(), layout, t, x, obs, row);
      QCOMPARE(row.size(), columns.size());
      const double speed2 = x[3] * x[3] + x[4] * x[4] + x[5] * x[5];
      QVERIFY(std::abs(row[row.size() - 2] - speed2) < 1e-14);  // m = 2
      QVERIFY(std::abs(row[row.size() - 2] - obs.energy) < 1e-12);
      QVERIFY(std::abs(row.back() - (x[0] - t)) < 1e-15);
      ++samples;
    });
    QCOMPARE(samples, 5);
  }

  // A file without the key has no outputs and its columns end with the multipliers.
  void noOutputsWithoutTheKey() {
    const auto system = nh::model::loadModelText(kParticle, "particle.yaml");
    QVERIFY(system->info().outputs.empty());
    nh::Simulation sim(system, nh::DynamicsKind::Nonholonomic);
    QCOMPARE(nh::outputColumns(sim.equations()).back(), std::string("lambda_1"));
  }

  void clashesAreRefused_data() {
    QTest::addColumn<QString>("outputs");
    QTest::addColumn<QString>("says");
    QTest::newRow("a coordinate") << "outputs:\n  x: y\n"
                                  << "the name 'x' is defined twice";
    QTest::newRow("a definition") << "outputs:\n  speed2: y\n"
                                  << "the name 'speed2' is defined twice";
    QTest::newRow("energy") << "outputs:\n  energy: y\n"
                            << "'energy' is the name of a recorded column";
    QTest::newRow("a multiplier") << "outputs:\n  lambda_1: y\n"
                                  << "'lambda_1' is reserved";
    QTest::newRow("a momentum") << "outputs:\n  p_vx: y\n"
                                << "'p_vx' is the name of a recorded column";
    QTest::newRow("not a map") << "outputs: [y]\n"
                               << "expected a map name → expression";
    QTest::newRow("unknown name") << "outputs:\n  h: w\n"
                                  << "'w'";
  }
  void clashesAreRefused() {
    QFETCH(QString, outputs);
    QFETCH(QString, says);
    try {
      nh::model::loadModelText(kParticle + outputs.toStdString(), "particle.yaml");
      QFAIL("accepted");
    } catch (const nh::model::ModelError& e) {
      QVERIFY2(QString::fromUtf8(e.what()).contains(says), e.what());
      QVERIFY(!QString::fromUtf8(e.what()).contains('\n'));
    }
  }
};

QTEST_APPLESS_MAIN(ModelOutputsTest)
#include "model_outputs_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
