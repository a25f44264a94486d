// The messages of the file parsers (scenario JSON, model YAML, expressions) for hostile
// input: always one printable line (control characters escaped, a NUL byte does not cut the
// message), echoed input cut to about 60 characters, and duplicate keys refused with their
// line. Cases found by, or guarding what is checked by, the fuzz targets in tests/fuzz/.
#include <QtTest>
#include <string>

#include "core/io/scenario_file.h"
#include "core/model/expression.h"
#include "core/model/model_file.h"
#include "core/nh/errors.h"
#include "core/nh/messages.h"
#include "particle_model.h"

namespace {

using namespace std::string_literals;

const std::string kHead = R"({"format": "nonholonomic-lab-scenario", "version": 2, )";

// The message of the error that parsing throws, or "" if it parses.
std::string scenarioError(const std::string& json) {
  try {
    nh::parseScenarioJson(json, "test.json");
  } catch (const nh::InputError& e) {
    return e.what();
  }
  return {};
}

// The README's particle with the line that starts like `line` replaced (or `line` appended).
const std::string& kModel = nh::test::kParticleModel;
std::string modelWith(const std::string& start, const std::string& line) {
  return nh::test::withLine(kModel, start, line);
}

std::string modelError(const std::string& text) {
  try {
    nh::model::loadModelText(text, "m.yaml");
  } catch (const nh::model::ModelError& e) {
    return e.what();
  }
  return {};
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

}  // namespace

class ParserMessagesTest : public QObject {
  Q_OBJECT

 private slots:
  void helpersEscapeAndCut() {
    QCOMPARE(nh::escapeControl("a\nb\t\0c\x7f"s), std::string("a\\nb\\t\\0c\\x7F"));
    QCOMPARE(nh::echoInput(std::string(100, 'x')), std::string(60, 'x') + "…");
    // Never cut inside a UTF-8 character: 59 ASCII bytes then "é" (2 bytes).
    QCOMPARE(nh::echoInput(std::string(59, 'x') + "éé"), std::string(59, 'x') + "…");
    QVERIFY(nh::isOneLine("ż = y ẋ"));
    QVERIFY(!nh::isOneLine("a\rb"));
  }

  // nlohmann-json keeps the last of two equal keys; a scenario refuses them.
  void duplicateScenarioKeysAreRefusedWithTheirLine() {
    const std::string top = scenarioError(kHead +
                                          "\"system\": \"nh_particle\",\n\"t_end\": 1,\n"
                                          "\"t_end\": 2}");
    QVERIFY2(contains(top, "test.json: duplicate key 't_end' at line 3"), top.c_str());
    const std::string nested =
        scenarioError(kHead + R"("system": "nh_particle", "parameters": {"m": 1, "m": 2}})");
    QVERIFY2(contains(nested, "duplicate key 'm' at line 1"), nested.c_str());
    // The same key in different objects is fine.
    const std::string ok = scenarioError(kHead + R"("system": "nh_particle", "view": {"version": 1},
        "integrator": {"method": "rk4"}, "parameters": {"m": 1}, "initial": {"y": 0.5}})");
    QVERIFY2(ok.empty(), ok.c_str());
  }

  void duplicateModelKeysAreRefusedWithTheirLine() {
    const std::string top = modelError(kModel + "lagrangian: vx^2\n");
    QVERIFY2(contains(top, "m.yaml:12:1: lagrangian: duplicate key 'lagrangian'"), top.c_str());
    const std::string nested = modelError(modelWith("initial:", "initial: {y: 0.5, y: 1}"));
    QVERIFY2(contains(nested, "duplicate key 'y'"), nested.c_str());
  }

  // Control characters of the input reached the message raw.
  void scenarioMessagesAreOneLine() {
    const std::string key = scenarioError(kHead + R"("system": "nh_particle", "a\nb": 1})");
    QVERIFY2(nh::isOneLine(key), key.c_str());
    QVERIFY2(contains(key, "unknown key 'a\\nb'"), key.c_str());
    const std::string system = scenarioError(kHead + R"("system": "nh_\u0001particle"})");
    QVERIFY2(nh::isOneLine(system), system.c_str());
    QVERIFY2(contains(system, "nh_\\x01particle"), system.c_str());
  }

  // A NUL byte in the input cut the message short (what() is a C string).
  void aNulByteDoesNotCutTheMessage() {
    const std::string key = scenarioError(kHead + R"("system": "nh_particle", "a\u0000b": 1})");
    QVERIFY2(contains(key, "unknown key 'a\\0b' in the scenario (allowed:"), key.c_str());
    const std::string parameter =
        scenarioError(kHead + R"("system": "nh_particle", "parameters": {"m\u0000x": 1}})");
    QVERIFY2(contains(parameter, "'parameters' has no name 'm\\0x'"), parameter.c_str());
    const std::string dynamics =
        scenarioError(kHead + R"("system": "nh_particle", "dynamics": "vako\u0000nomic"})");
    QVERIFY2(contains(dynamics, "'dynamics' holds a control character: 'vako\\0nomic'"),
             dynamics.c_str());
    const std::string name = modelError(modelWith("name:", R"(name: "a\0b")"));
    QVERIFY2(contains(name, "'a\\0b' is not a system name (allowed:"), name.c_str());
  }

  void echoedInputIsCut() {
    const std::string key = scenarioError(kHead + "\"system\": \"nh_particle\", \"" +
                                          std::string(5000, 'k') + "\": 1}");
    QVERIFY2(contains(key, "unknown key '" + std::string(60, 'k') + "…'"), key.c_str());
    QVERIFY(key.size() < 400);
    const std::string number =
        modelError(modelWith("initial:", "initial: {y: 1" + std::string(5000, 'x') + "}"));
    QVERIFY2(contains(number, "'1" + std::string(59, 'x') + "…' is not a finite number"),
             number.c_str());
    QVERIFY(number.size() < 400);
  }

  void modelMessagesAreOneLine() {
    const std::string name = modelError(modelWith("name:", R"(name: "a\nb")"));
    QVERIFY2(nh::isOneLine(name), name.c_str());
    QVERIFY2(contains(name, "'a\\nb' is not a system name"), name.c_str());
    const std::string expression = modelError(modelWith("lagrangian:", R"(lagrangian: "vx\x01")"));
    QVERIFY2(nh::isOneLine(expression), expression.c_str());
    QVERIFY2(contains(expression, "unexpected '\\x01'"), expression.c_str());
  }

  // Found by fuzz_scenario: nlohmann-json's out_of_range escaped the parser.
  void aNumberTooLargeIsInvalidJson() {
    const std::string e = scenarioError(kHead + R"("system": "nh_particle", "t_end": 31e308})");
    QVERIFY2(contains(e, "test.json: not valid JSON (number overflow parsing '31e308')"),
             e.c_str());
  }

  // Found by fuzz_expression: a byte outside ASCII tripped Boost.Spirit's assertion.
  void aNonAsciiByteIsRefusedAtItsPlace() {
    const nh::model::NameResolver names{[](const std::string& n) { return n == "x" ? 0 : -1; },
                                        [] { return std::string("x"); }};
    try {
      nh::model::parseExpression("x*\xae", names);
      QFAIL("accepted a byte outside ASCII");
    } catch (const nh::model::ExpressionError& e) {
      QCOMPARE(e.offset(), 2);
    }
  }

  void expressionMessagesAreOneLine() {
    const nh::model::NameResolver names{[](const std::string& n) { return n == "x" ? 0 : -1; },
                                        [] { return std::string("x"); }};
    try {
      nh::model::parseExpression("x + \x02", names);
      QFAIL("accepted a control character");
    } catch (const nh::model::ExpressionError& e) {
      QVERIFY2(nh::isOneLine(e.what()), e.what());
      QCOMPARE(std::string(e.what()), std::string("expected an operand, found '\\x02'"));
    }
  }
};

QTEST_APPLESS_MAIN(ParserMessagesTest)
#include "parser_messages_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
