// The model-file key `labels` (docs/model-format.md): words and units for the recorded
// variables, read into SystemInfo::variableLabels; the bundled systems that carry them; a
// wrong name or key is refused with where and why; files without it load as before.
#include <QtTest>

#include "core/model/catalogue.h"
#include "core/model/model_file.h"

namespace {

const std::string kParticle = R"(format: nonholonomic-lab-system
version: 1
name: particle
parameters:
  - {name: m, default: 1.0, unit: kg}
coordinates: [x, y, z]
velocities: [vx, vy, vz]
lagrangian: 0.5*m*(vx*vx + vy*vy + vz*vz)
constraints:
  - vz - y*vx
initial: {y: 0.5, vx: 1}
)";

// The unit SystemInfo::stateUnits gives `name` (the initial-condition fields' unit); "" if none.
std::string stateUnit(const nh::SystemModel& system, const std::string& name) {
  const auto it = system.info().stateUnits.find(name);
  return it == system.info().stateUnits.end() ? std::string() : it->second;
}

}  // namespace

class VariableLabelsTest : public QObject {
  Q_OBJECT

 private slots:
  void labelsAreRead() {
    const auto s = nh::model::loadModelText(
        kParticle +
            "labels:\n  vx: {label: velocity x, unit: m/s}\n  lambda_1: {label: reaction, unit: "
            "N}\n  energy: {unit: J}\n",
        "particle.yaml");
    const nh::VariableLabel* vx = nh::findVariableLabel(s->info(), "vx");
    QVERIFY(vx);
    QCOMPARE(vx->label, std::string("velocity x"));
    QCOMPARE(vx->unit, std::string("m/s"));
    QCOMPARE(nh::findVariableLabel(s->info(), "lambda_1")->label, std::string("reaction"));
    QCOMPARE(nh::findVariableLabel(s->info(), "energy")->label, std::string());
    QCOMPARE(nh::findVariableLabel(s->info(), "energy")->unit, std::string("J"));
    QVERIFY(!nh::findVariableLabel(s->info(), "x"));
  }

  void withoutLabelsNothingChanges() {
    const auto s = nh::model::loadModelText(kParticle, "particle.yaml");
    QVERIFY(s->info().variableLabels.empty());
  }

  void bundledSystemsCarryLabels() {
    const auto ball = nh::findSystem("ball_on_turntable");
    const nh::VariableLabel* f = nh::findVariableLabel(ball->info(), "lambda_1");
    QVERIFY(f);
    QCOMPARE(f->label, std::string("friction force x"));
    QCOMPARE(f->unit, std::string("N"));
    for (const char* name : {"chaplygin_sleigh", "nh_particle", "rolling_disk"}) {
      const auto s = nh::findSystem(name);
      QVERIFY2(nh::findVariableLabel(s->info(), "lambda_1"), name);
      QVERIFY2(nh::findVariableLabel(s->info(), "energy"), name);
    }
  }

  // A unit in labels is the state variable's unit everywhere (the initial-condition fields
  // read SystemInfo::stateUnits); the older `units:` key still loads and reaches the plots'
  // labels; the same unit in both is no conflict.
  void oneUnitWhicheverKeyGivesIt() {
    const auto labelled = nh::model::loadModelText(
        kParticle + "labels:\n  x: {label: position x, unit: m}\n  energy: {unit: J}\n",
        "particle.yaml");
    QCOMPARE(stateUnit(*labelled, "x"), std::string("m"));
    QVERIFY(!labelled->info().stateUnits.count("energy"));  // not a state variable

    const auto old = nh::model::loadModelText(
        kParticle + "units: {x: m, vx: m/s}\nlabels:\n  vx: {label: velocity x}\n", "old.yaml");
    QCOMPARE(stateUnit(*old, "vx"), std::string("m/s"));
    const nh::VariableLabel* x = nh::findVariableLabel(old->info(), "x");
    const nh::VariableLabel* vx = nh::findVariableLabel(old->info(), "vx");
    QVERIFY(x && vx);
    QCOMPARE(x->unit, std::string("m"));
    QCOMPARE(vx->unit, std::string("m/s"));
    QCOMPARE(vx->label, std::string("velocity x"));

    const auto both = nh::model::loadModelText(
        kParticle + "units: {vx: m/s}\nlabels:\n  vx: {unit: m/s}\n", "both.yaml");
    QCOMPARE(stateUnit(*both, "vx"), std::string("m/s"));
    // The bundled ball gives its units in labels only.
    const auto ball = nh::findSystem("ball_on_turntable");
    QCOMPARE(stateUnit(*ball, "wz"), std::string("rad/s"));
    QVERIFY(!ball->info().stateUnits.count("qw"));
  }

  // A parameter may give the name to show (`label`); without one its label is its name. The
  // bundled systems label their Greek-named parameters.
  void parameterLabels() {
    std::string text = kParticle;
    const std::string plain = "  - {name: m, default: 1.0, unit: kg}\n";
    text.replace(text.find(plain), plain.size(),
                 plain + "  - {name: Omega0, label: \"Ω₀\", default: 2.0, unit: rad/s}\n");
    const auto s = nh::model::loadModelText(text, "particle.yaml");
    QCOMPARE(s->info().parameters.at(0).label, std::string("m"));
    QCOMPARE(s->info().parameters.at(1).name, std::string("Omega0"));
    QCOMPARE(s->info().parameters.at(1).label, std::string("Ω₀"));
    for (const auto& [file, model] : nh::bundledModelFiles()) {
      const auto bundled = nh::model::loadModelText(model, file);
      for (const nh::ParameterInfo& p : bundled->info().parameters) {
        const bool greek = p.name.rfind("Omega", 0) == 0 || p.name == "alpha" || p.name == "delta";
        QVERIFY2(greek ? p.label != p.name : !p.label.empty(),
                 qPrintable(QString::fromStdString(file + ": " + p.name)));
      }
    }
    for (const std::string& bad :
         {std::string("\"\""), std::string("\"a\\nb\""), std::string(65, 'w')}) {
      std::string wrong = kParticle;
      wrong.replace(wrong.find("unit: kg}"), 9, "unit: kg, label: " + bad + "}");
      try {
        nh::model::loadModelText(wrong, "bad.yaml");
        QFAIL("loaded a parameter label that is empty, several lines or too long");
      } catch (const nh::model::ModelError& e) {
        QCOMPARE(QString::fromStdString(e.key()), QString("parameters[1].label"));
        QVERIFY2(QString(e.what()).contains("is not a label (one line of 1 to 64 bytes"), e.what());
        QVERIFY(!QString(e.what()).contains('\n'));
      }
    }
  }

  void mistakesAreRefused_data() {
    QTest::addColumn<QString>("labels");
    QTest::addColumn<QString>("says");
    QTest::newRow("unknown variable")
        << "labels:\n  vw: {unit: m/s}\n"
        << "'vw' is not a coordinate, a velocity, energy, energy_frame or "
           "lambda_1 … lambda_1";
    QTest::newRow("multiplier beyond the constraints") << "labels:\n  lambda_2: {unit: N}\n"
                                                       << "'lambda_2' is not";
    QTest::newRow("unknown key") << "labels:\n  vx: {units: m/s}\n"
                                 << "unknown key 'units' (allowed: label, unit)";
    QTest::newRow("not a map") << "labels: [vx]\n"
                               << "expected a map of variable names";
    // The older `units:` and `labels` giving one variable two different units.
    QTest::newRow("units disagree")
        << "units: {x: m, vx: m/s}\nlabels:\n  vx: {label: speed, unit: km/h}\n"
        << "labels.vx.unit: unit 'km/h' disagrees with 'units.vx: m/s' (give a variable's "
           "unit once, in labels)";
  }
  void mistakesAreRefused() {
    QFETCH(QString, labels);
    QFETCH(QString, says);
    try {
      nh::model::loadModelText(kParticle + labels.toStdString(), "bad.yaml");
      QFAIL("loaded a model with a mistake in its labels");
    } catch (const nh::model::ModelError& e) {
      const QString what = QString::fromUtf8(e.what());
      QVERIFY2(what.contains(says), qPrintable(what));
      QVERIFY2(QString::fromStdString(e.key()).startsWith("labels"), qPrintable(what));
      QVERIFY(e.line() > 10);
    }
  }
};

QTEST_GUILESS_MAIN(VariableLabelsTest)
#include "variable_labels_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
