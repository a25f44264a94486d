// Model files with mistakes: each is refused with one message naming the file, the key, the
// line and column where it can be placed, and what is allowed (docs/model-format.md).
#include <QElapsedTimer>
#include <QtTest>
#include <cmath>
#include <string>

#include "core/model/model_data.h"
#include "core/model/model_file.h"
#include "particle_model.h"
#include "veselova_model.h"

namespace {

using nh::test::withLine;
const std::string& kGood = nh::test::kParticleModel;  // cases below edit one line of it

}  // namespace

class ModelErrorsTest : public QObject {
  Q_OBJECT

 private slots:
  void theGoodModelLoads() {
    const auto s = nh::model::loadModelText(kGood, "particle.yaml");
    QCOMPARE(s->name(), std::string("particle"));
    QCOMPARE(s->n(), 3);
    QCOMPARE(s->k(), 1);
  }

  // A parameter check refuses values that fail it, with its message; the defaults pass.
  void parameterChecksRefuseValues() {
    const auto s = nh::model::loadModelText(
        kGood + "parameter_checks:\n  - {positive: 3 - m, message: m must be below 3}\n",
        "particle.yaml");
    const double fine = 2.5, tooBig = 3.0;
    QCOMPARE(s->checkParameters(&fine), std::string());
    QCOMPARE(s->checkParameters(&tooBig), std::string("m must be below 3"));
  }

  // The loader's exact derivations do not expand a large anchor: with its structure given,
  // a file whose anchor expands to hundreds of thousands of terms loads at once.
  void largeAnchorsLoad() {
    QElapsedTimer timer;
    timer.start();
    const auto s = nh::model::loadModelText(
        kGood +
            "anchor: {x: vx*(1 + (x + y + z)^2)^20, y: vy, z: vz}\nstructure:\n"
            // [X_vx, X_vy] = −∂_y f ∂_x = −(∂_y f / f) X_vx for f = (1 + s²)^20, s = x + y + z,
            // likewise [X_vx, X_vz]: compatible, checked at samples (too large to expand).
            "  - {bracket: [vx, vy], equals: {vx: -40*(x + y + z)/(1 + (x + y + z)^2)}}\n"
            "  - {bracket: [vx, vz], equals: {vx: -40*(x + y + z)/(1 + (x + y + z)^2)}}\n",
        "particle.yaml");
    QCOMPARE(s->n(), 3);
    QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
  }

  // A skew structure the anchor contradicts loads only when the file says so, and then
  // carries one warning; the bundled so(3) structure of the Veselova system is the
  // anchor's (q̇ = ½ q ⊗ ω), and flipping one of its brackets is refused at that entry.
  void structureMustAgreeWithTheAnchor() {
    const std::string wrong = kGood +
                              "anchor: {x: vx, y: vy, z: vz}\nstructure:\n"
                              "  - {bracket: [vx, vy], equals: {vz: 1}}\n";
    QVERIFY_THROWS_EXCEPTION(nh::model::ModelError, nh::model::loadModelText(wrong, "p.yaml"));
    const auto kept = nh::model::loadModelText(wrong + "structure_checked: false\n", "p.yaml");
    QCOMPARE(kept->data().loadWarnings.size(), size_t(1));
    const std::string& warning = kept->data().loadWarnings[0];
    QVERIFY2(warning.find("p.yaml: the structure contradicts the anchor: ρ[e_vx, e_vy] ≠ "
                          "[ρe_vx, ρe_vy] in q̇ of 'z'") == 0,
             warning.c_str());
    QVERIFY(nh::model::loadModelText(kGood, "p.yaml")->data().loadWarnings.empty());
    const auto veselova = nh::model::loadModelText(nh::test::kVeselovaModel, "veselova.yaml");
    QVERIFY(veselova->data().loadWarnings.empty());
    try {
      nh::model::loadModelText(withLine(nh::test::kVeselovaModel, "  - {bracket: [w3, w1]",
                                        "  - {bracket: [w3, w1], equals: {w2: -1}}"),
                               "veselova.yaml");
      QFAIL("loaded a structure the anchor contradicts");
    } catch (const nh::model::ModelError& e) {
      QCOMPARE(e.key(), std::string("structure[3].bracket"));
      QCOMPARE(e.line(), 23);
      QCOMPARE(e.column(), 15);
      QVERIFY2(std::string(e.what()).find("ρ[e_w1, e_w3] ≠ [ρe_w1, ρe_w3]") != std::string::npos,
               e.what());
    }
  }

  // Bytes that are not UTF-8 (here in the title) are refused at load with their byte offset:
  // "format: …\n" (32 bytes), "version: 1\n" (11), "name: particle\n" (15) and "title: A "
  // (9) put the first at offset 67, line 4, column 10. (Not rows of `errors`: its QString
  // columns would turn the bytes into U+FFFD.)
  void invalidUtf8IsRefused() {
    const std::pair<const char*, const char*> cases[] = {
        {"\xff\xfe\xc3", "0xFF"},  // not UTF-8 at all
        {"\xc3", "0xC3"},          // a character cut short
        {"\xc0\xaf", "0xC0"},      // an overlong '/'
        {"\xed\xa0\x80", "0xED"},  // a UTF-16 surrogate
    };
    for (const auto& [bytes, first] : cases) {
      try {
        nh::model::loadModelText(
            withLine(kGood, "name:", std::string("name: particle\ntitle: A ") + bytes), "bad.yaml");
        QFAIL("loaded a file that is not UTF-8");
      } catch (const nh::model::ModelError& e) {
        QCOMPARE(std::string(e.what()),
                 std::string("bad.yaml:4:10: the file is not valid UTF-8: byte ") + first +
                     " at byte offset 67 (a model file is UTF-8 text)");
        QCOMPARE(e.line(), 4);
        QCOMPARE(e.column(), 10);
      }
    }
    // Valid UTF-8 of every length still loads: "Ω € 😀".
    QVERIFY(nh::model::loadModelText(
        withLine(kGood, "name:", "name: particle\ntitle: \xce\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
        "good.yaml"));
  }

  // The controls are bounded (5000 took minutes and gigabytes and produced nothing): 24
  // load, 25 are refused at the list in one line, at once.
  void controlsAreCapped() {
    const auto model = [](int count) {
      std::string controls;
      for (int k = 1; k <= count; ++k) controls += (k > 1 ? ", u" : "u") + std::to_string(k);
      return "format: nonholonomic-lab-system\nversion: 1\nname: many\ncoordinates: [x]\n"
             "velocities: [vx]\ncontrols: [" +
             controls + "]\ncontrol_section: {vx: u1}\ncost: 0.5*u1*u1\n";
    };
    QCOMPARE(nh::model::loadModelText(model(24), "many.yaml")->info().controls.size(), size_t(24));
    try {
      nh::model::loadModelText(model(25), "many.yaml");
      QFAIL("25 controls loaded");
    } catch (const nh::model::ModelError& e) {
      QCOMPARE(QString::fromStdString(e.key()), QString("controls"));
      QVERIFY2(QString(e.what()).contains("25 controls; at most 24 are supported"), e.what());
    }
  }

  void errors_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("key");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("says");
    auto row = [](const char* name, const std::string& text, const char* key, int line, int column,
                  const char* says) {
      QTest::newRow(name) << QString::fromStdString(text) << key << line << column << says;
    };
    row("syntax", withLine(kGood, "lagrangian:", "lagrangian: 0.5*m*(vx^2 + * vy^2)"), "lagrangian",
        8, 27, "expected an operand, found '*'");
    row("unclosed parenthesis", withLine(kGood, "lagrangian:", "lagrangian: 0.5*m*(vx^2"),
        "lagrangian", 8, 24, "expected ')', found the end of the expression");
    row("unknown name", withLine(kGood, "lagrangian:", "lagrangian: 0.5*m*vw^2"), "lagrangian", 8,
        19, "unknown name 'vw' (known: t, m, x, y, z, vx, vy, vz, pi)");
    row("unknown function", withLine(kGood, "lagrangian:", "lagrangian: 0.5*m*sec(vx)"),
        "lagrangian", 8, 19, "unknown function 'sec' (allowed: sin cos tan asin acos atan");
    row("wrong argument count",
        withLine(kGood, "lagrangian:", "lagrangian: 0.5*m*vx^2 + atan2(vy)"), "lagrangian", 8, 26,
        "atan2 takes 2 arguments, not 1");
    row("position in quoted text", withLine(kGood, "lagrangian:", "lagrangian: \"0.5*m*vx^2 + q\""),
        "lagrangian", 8, 27, "unknown name 'q'");
    row("position in a block",
        withLine(kGood, "lagrangian:", "lagrangian: |\n  0.5*m*vx^2\n    + qq"), "lagrangian", 10,
        7, "unknown name 'qq'");
    // A title is one line the app lays out (a 100 KB one stalled it for half a minute).
    row("title too long",
        withLine(kGood, "name:", "name: particle\ntitle: " + std::string(201, 'T')), "title", 4, 8,
        "the title is not one line of 1 to 200 bytes (201 given)");
    row("name defined twice", withLine(kGood, "coordinates:", "coordinates: [x, y, x]"),
        "coordinates[3]", 6, 21, "the name 'x' is defined twice");
    row("definition named like a coordinate",
        withLine(kGood, "initial:", "definitions: {x: 2*m}\ninitial: {y: 0.5}"), "definitions.x",
        11, 15, "the name 'x' is defined twice");
    row("definition used before it is defined",
        withLine(kGood, "initial:", "definitions: {a: 2*b, b: m}\ninitial: {y: 0.5}"),
        "definitions.a", 11, 20, "'b' is defined later");
    row("non-numeric number", withLine(kGood, "  - {name: m", "  - {name: m, default: abc}"),
        "parameters[1].default", 5, 24, "'abc' is not a finite number");
    row("default out of range",
        withLine(kGood, "  - {name: m", "  - {name: m, default: -1, min: 0}"),
        "parameters[1].default", 5, 24, "outside the allowed range [0, inf)");
    row("reserved name", withLine(kGood, "coordinates:", "coordinates: [x, y, t]"),
        "coordinates[3]", 6, 21, "'t' is reserved");
    row("anchor entry for an unknown coordinate", kGood + "anchor: {x: vx, y: vy, z: vz, w: vx}\n",
        "anchor.w", 12, 31, "'w' is not a coordinate (coordinates: x, y, z)");
    row("anchor missing a coordinate", kGood + "anchor: {x: vx, y: vy}\n", "anchor", 12, 9,
        "no entry for the coordinate 'z'");
    row("anchor not linear in the velocities", kGood + "anchor: {x: vx^2, y: vy, z: vz}\n",
        "anchor.x", 12, 13, "not linear in the velocities");
    row("anchor with a constant part", kGood + "anchor: {x: vx + 1, y: vy, z: vz}\n", "anchor.x",
        12, 13, "has a part without velocities");
    row("more constraints than velocities",
        withLine(kGood, "  - vz - y*vx", "  - vz - y*vx\n  - vx\n  - vy\n  - vz"), "constraints",
        10, 3, "4 constraints on 3 velocities");
    row("singular mass matrix", withLine(kGood, "lagrangian:", "lagrangian: 0.5*m*(vx^2 + vy^2)"),
        "lagrangian", 8, 13, "the mass matrix ∂²L/∂y² is singular at the initial state");
    row("dependent constraints",
        withLine(kGood, "  - vz - y*vx", "  - vz - y*vx\n  - 2*vz - 2*y*vx"), "constraints", 10, 3,
        "A M⁻¹ Aᵀ is singular at the initial state");
    row("velocity in a holonomic constraint", kGood + "holonomic: [x + vx]\n", "holonomic[1]", 12,
        17, "'vx' cannot be used here");
    row("wrong format", withLine(kGood, "format:", "format: something-else"), "format", 1, 9,
        "is not a model file format (expected nonholonomic-lab-system)");
    row("wrong version", withLine(kGood, "version:", "version: 2"), "version", 2, 10,
        "version 2 is not supported (this program reads version 1)");
    row("truncated file", kGood.substr(0, kGood.find("lagrangian")), "lagrangian", 1, 1,
        "missing key 'lagrangian'");
    row("truncated inside a list", kGood.substr(0, kGood.find("y, z]")), "", 6, 1,
        "not valid YAML");
    row("unknown key", kGood + "lagrangain: 1\n", "lagrangain", 12, 1,
        "unknown key 'lagrangain' (allowed: format, version, name");
    row("bad system name", withLine(kGood, "name:", "name: Particle"), "name", 3, 7,
        "is not a system name (allowed: [a-z][a-z0-9_]*)");
    row("empty file", "", "", 1, 1, "the file is empty");
    row("unknown shape",
        kGood +
            "scene:\n  bodies:\n    - {name: p, shape: cube, position: [x, y, z], size: [1, 1, "
            "1]}\n",
        "scene.bodies[1].shape", 14, 24, "unknown shape 'cube' (allowed: sphere, box");
    row("cyclic names a velocity", kGood + "cyclic: [x, vx]\n", "cyclic", 12, 13,
        "'vx' is not a coordinate (coordinates: x, y, z)");
    row("dependent without as many holonomic constraints", kGood + "dependent: [z]\n", "dependent",
        12, 12, "expected as many coordinates as holonomic constraints (0)");
    row("parameter check failing at the defaults",
        kGood + "parameter_checks:\n  - {positive: m - 2, message: m must exceed 2}\n",
        "parameter_checks", 13, 3, "the default parameters fail: m must exceed 2");
    row("parameter check reading a coordinate",
        kGood + "parameter_checks:\n  - {positive: m - x, message: no}\n",
        "parameter_checks[1].positive", 13, 20, "'x' cannot be used here");
    row("parameter check without a message", kGood + "parameter_checks:\n  - {positive: m}\n",
        "parameter_checks[1].message", 13, 5, "missing");
    row("unknown name in a singular expression",
        kGood + "singular:\n  - {expression: vx^2 + vw^2, message: stops}\n",
        "singular[1].expression", 13, 25, "unknown name 'vw'");
    row("unknown key in a singular entry",
        kGood + "singular:\n  - {expression: vx^2, mesage: stops}\n", "singular[1].mesage", 13, 24,
        "unknown key 'mesage' (allowed: expression, message)");
    row("multiplier outside the scene's arrows",
        withLine(kGood, "  - vz - y*vx", "  - vz - y*vx*lambda_1"), "constraints[1]", 10, 15,
        "'lambda_1' cannot be used here");
    row("keeps_continuous naming no definition",
        withLine(kGood, "  - {name: m,",
                 "  - {name: m, default: 1, keeps_continuous: angle}\n  - {name: k, default: 1}"),
        "parameters[1].keeps_continuous", 5, 45,
        "'angle' is not a definition (keeps_continuous names the definition");
    row("unit of an unknown variable", kGood + "units: {x: m, w: rad/s}\n", "units.w", 12, 15,
        "'w' is neither a coordinate nor a velocity");
    row("NUL byte", withLine(kGood, "name:", std::string("name: part\0icle", 15)), "", 3, 11,
        "the file contains a NUL byte (a model file is UTF-8 text)");
    // A key without its ':' runs into the next line, where the YAML reader stops: the line
    // that lacks the ':' is named.
    row("key without a colon", withLine(kGood, "name:", "name particle"), "", 3, 1,
        "not valid YAML: this line has no ':' after its key");
    row("key without a colon before a list",
        withLine(kGood, "lagrangian:", "lagrangian 0.5*m*(vx^2 + vy^2 + vz^2)"), "", 8, 1,
        "not valid YAML: this line has no ':' after its key");
    row("nested key without a colon", kGood + "anchor:\n  x vx\n  y: vy\n  z: vz\n", "", 13, 3,
        "not valid YAML: this line has no ':' after its key");
    row("power written **",
        withLine(kGood, "lagrangian:", "lagrangian: 0.5*m*(vx**2 + vy^2 + vz^2)"), "lagrangian", 8,
        23, "expected an operand, found '*' (powers are written ^: x^2, not x**2)");
    row("lists nested deeper than the format allows",
        kGood + "scene: " + std::string(70, '[') + std::string(70, ']') + "\n", "", 12, 72,
        "lists and maps nested deeper than 64 levels (a model file needs a few)");
    row("lists nested deeper than the YAML reader allows",
        kGood + "scene: " + std::string(3000, '[') + std::string(3000, ']') + "\n", "", 12, 6008,
        "lists and maps nested deeper than 64 levels (a model file needs a few)");
    row("anchor too large for its structure functions",
        kGood + "anchor: {x: vx*(1 + (x + y + z)^2)^20, y: vy, z: vz}\n", "structure", 1, 1,
        "the anchor is too large to derive the structure functions symbolically");
    // Brackets: a skew entry implies the other order; `skew: false` gives one order only.
    auto brackets = [](const char* first, const char* second) {
      return kGood + "structure:\n  - " + first + "\n  - " + second + "\n";
    };
    row("skew bracket given in both orders",
        brackets("{bracket: [vx, vy], equals: {vz: 1}}", "{bracket: [vy, vx], equals: {vz: -1}}"),
        "structure[2].bracket", 14, 15, "this bracket is given twice (skew-symmetry is implied)");
    row("non-skew bracket given twice",
        brackets("{bracket: [vx, vy], equals: {vz: 1}, skew: false}",
                 "{bracket: [vx, vy], equals: {vz: 2}, skew: false}"),
        "structure[2].bracket", 14, 15,
        "the bracket [vx, vy] is given twice (with `skew: false` each order is given once)");
    row("a pair declared skew and not skew",
        brackets("{bracket: [vx, vy], equals: {vz: 1}}",
                 "{bracket: [vy, vx], equals: {vz: 2}, skew: false}"),
        "structure[2].bracket", 14, 15,
        "the pair [vy, vx] is given both as a skew bracket and with `skew: false`");
    row("a pair declared not skew, then skew",
        brackets("{bracket: [vx, vy], equals: {vz: 1}, skew: false}",
                 "{bracket: [vy, vx], equals: {vz: 2}}"),
        "structure[2].bracket", 14, 15,
        "the pair [vy, vx] is given both as a skew bracket and with `skew: false`");
    row("[e_a, e_a] of a skew bracket",
        kGood + "structure:\n  - {bracket: [vx, vx], equals: {vz: 1}}\n", "structure[1].bracket",
        13, 15, "[e_a, e_a] is zero for a skew bracket");
    row("structure contradicting the anchor",
        kGood +
            "anchor: {x: vx, y: vy, z: vz}\nstructure:\n  - {bracket: [vx, vy], equals: {vz: 1}}\n",
        "structure[1].bracket", 14, 15,
        "the anchor does not map this bracket to the bracket of its columns: ρ[e_vx, e_vy] ≠ "
        "[ρe_vx, ρe_vy] in q̇ of 'z'");
    row("structure missing a bracket the anchor has",
        kGood + "anchor: {x: vx, y: vy, z: vz + x*vy}\nstructure: []\n", "structure", 13, 12,
        "[vx, vy] is not given (0), but ρ[e_vx, e_vy] ≠ [ρe_vx, ρe_vy] in q̇ of 'z'");
    row("structure_checked neither true nor false", kGood + "structure_checked: maybe\n",
        "structure_checked", 12, 20, "'maybe' is not true or false");
    row("skew neither true nor false",
        kGood + "structure:\n  - {bracket: [vx, vy], equals: {vz: 1}, skew: no}\n",
        "structure[1].skew", 13, 48, "'no' is not true or false");
    row("reference frame of an unknown velocity", kGood + "reference_frame: {w: 1}\n",
        "reference_frame.w", 12, 19, "'w' is not a velocity (velocities: vx, vy, vz)");
    row("reference frame reading a velocity", kGood + "reference_frame: {vx: vy}\n",
        "reference_frame.vx", 12, 23, "'vy' cannot be used here");
    row("number out of range",
        withLine(kGood, "lagrangian:", "lagrangian: 0.5*m*(vx^2 + vy^2 + vz^2) + 1e999*x"),
        "lagrangian", 8, 42, "number out of range: 1e999 (at most about 1.8e308)");
  }
  // A phase parameter and state units load; the phase's definition is evaluated by
  // continuousValue (and only for it).
  void keepsContinuousAndUnitsLoad() {
    const auto s = nh::model::loadModelText(
        withLine(kGood, "  - {name: m,",
                 "  - {name: m, default: 1, unit: kg, min: 0, min_exclusive: true}\n"
                 "  - {name: phase0, default: 0.5, keeps_continuous: angle}") +
            "definitions:\n  angle: phase0 + 2*t\nunits: {x: m, vx: m/s}\n",
        "particle.yaml");
    QCOMPARE(s->info().keptContinuousBy("phase0"), std::string("angle"));
    QCOMPARE(s->info().keptContinuousBy("m"), std::string());
    QCOMPARE(s->info().stateUnits.at("x"), std::string("m"));
    QCOMPARE(s->info().stateUnits.at("vx"), std::string("m/s"));
    const double p[] = {1.0, 0.5}, q[] = {0, 0, 0}, y[] = {0, 0, 0};
    QCOMPARE(s->continuousValue(1, p, 3.0, q, y), 6.5);
    QVERIFY(std::isnan(s->continuousValue(0, p, 3.0, q, y)));
  }
  void errors() {
    QFETCH(QString, text);
    QFETCH(QString, key);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(QString, says);
    try {
      nh::model::loadModelText(text.toStdString(), "bad.yaml");
      QFAIL("loaded a model with a mistake");
    } catch (const nh::model::ModelError& e) {
      const QString what = QString::fromUtf8(e.what());
      QVERIFY2(what.contains(says), qPrintable(what));
      QCOMPARE(QString::fromStdString(e.file()), QString("bad.yaml"));
      QCOMPARE(QString::fromStdString(e.key()), key);
      QCOMPARE(e.line(), line);
      QCOMPARE(e.column(), column);
      QVERIFY2(what.startsWith(line > 0 ? QString("bad.yaml:%1:%2: ").arg(line).arg(column)
                                        : QString("bad.yaml: ")),
               qPrintable(what));
      QVERIFY(!what.contains('\n'));
    }
  }
};

QTEST_GUILESS_MAIN(ModelErrorsTest)
#include "model_errors_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
