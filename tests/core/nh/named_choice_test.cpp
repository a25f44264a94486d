// The tables of named choices (core/nh/named_choice.h): integrators, dynamics and
// formulations. Each name and value once, toString and the parse functions reading the table
// both ways, the "allowed: …" list made from it, and scenario files reading every name the
// table has through the same parse functions.
#include "core/nh/named_choice.h"

#include <QtTest>
#include <set>
#include <string>

#include "core/io/scenario_file.h"
#include "core/nh/dynamics.h"
#include "core/nh/errors.h"
#include "core/nh/messages.h"
#include "core/nh/simulation.h"

namespace {

// Every name and every value of `table` appears once.
template <class Table>
bool eachOnce(const Table& table) {
  std::set<std::string> names;
  std::set<int> values;
  for (const auto& row : table) {
    if (!names.insert(row.name).second || !values.insert(static_cast<int>(row.value)).second)
      return false;
    if (std::string(row.description).empty()) return false;
  }
  return true;
}

// The message `parse` throws for `text`, "" when it does not throw.
template <class Parse>
QString refusal(Parse parse, const std::string& text) {
  try {
    parse(text);
  } catch (const nh::InputError& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

const std::string kHead =
    R"({"format": "nonholonomic-lab-scenario", "version": 2, "system": "nh_particle", )";

}  // namespace

class NamedChoiceTest : public QObject {
  Q_OBJECT

 private slots:
  void joinedSeparatesItems() {
    QCOMPARE(nh::joined({}), std::string());
    QCOMPARE(nh::joined({"a"}), std::string("a"));
    QCOMPARE(nh::joined({"a", "", "c"}), std::string("a, , c"));
    QCOMPARE(nh::joined({"a", "b"}, "|"), std::string("a|b"));
  }

  void eachNameAndValueOnce() {
    QVERIFY(eachOnce(nh::kIntegrators));
    QVERIFY(eachOnce(nh::kDynamicsChoices));
    QVERIFY(eachOnce(nh::kFormulationChoices));
  }

  // toString gives the row's name, the parse function the row's value: both read the table.
  void namesRoundTrip() {
    for (const auto& row : nh::kIntegrators) {
      QCOMPARE(nh::toString(row.value), std::string(row.name));
      QVERIFY(nh::parseIntegrator(row.name) == row.value);
    }
    for (const auto& row : nh::kDynamicsChoices) {
      QCOMPARE(nh::toString(row.value), std::string(row.name));
      QVERIFY(nh::parseDynamics(row.name) == row.value);
    }
    for (const auto& row : nh::kFormulationChoices) {
      QCOMPARE(nh::toString(row.value), std::string(row.name));
      QVERIFY(nh::parseFormulation(row.name) == row.value);
    }
  }

  // The refusal names what is unknown and lists every name of the table, in its order.
  void unknownNamesListTheTable() {
    QCOMPARE(refusal(nh::parseIntegrator, "euler"),
             QString("unknown integrator 'euler' (allowed: dopri5, dop853, rk78, rk4, arkode78, "
                     "bdf, nh-rattle, discrete-gradient)"));
    QCOMPARE(refusal(nh::parseDynamics, "Vakonomic"),
             QString("unknown dynamics 'Vakonomic' (allowed: nonholonomic, vakonomic)"));
    QCOMPARE(refusal(nh::parseFormulation, ""),
             QString("unknown formulation '' (allowed: multipliers, gibbs-appell, hamiltonian)"));
    QCOMPARE(nh::alternatives(nh::kFormulationChoices),
             std::string("multipliers|gibbs-appell|hamiltonian"));
  }

  // A value outside the table (a cast) is named as the first row is.
  void valueOutsideTheTableIsTheFirstRow() {
    QCOMPARE(nh::toString(static_cast<nh::Integrator>(99)), std::string("dopri5"));
  }

  // Scenario files read every name of the tables through the same parse functions, and
  // refuse others with the same list.
  void scenarioFilesReadTheTables() {
    for (const auto& row : nh::kIntegrators) {
      const nh::Scenario s = nh::parseScenarioJson(
          kHead + R"("integrator": {"method": ")" + row.name + R"("}})", "t.json");
      QVERIFY(s.integrator.method == row.value);
    }
    for (const auto& row : nh::kDynamicsChoices)
      QVERIFY(nh::parseScenarioJson(kHead + R"("dynamics": ")" + row.name + R"("})", "t.json")
                  .dynamics == row.value);
    for (const auto& row : nh::kFormulationChoices)
      QVERIFY(nh::parseScenarioJson(kHead + R"("formulation": ")" + row.name + R"("})", "t.json")
                  .formulation == row.value);
    const QString why =
        refusal([](const std::string& json) { nh::parseScenarioJson(json, "t.json"); },
                kHead + R"("integrator": {"method": "euler"}})");
    QVERIFY2(why.contains(QString::fromStdString(
                 "(allowed: " + nh::joined(nh::choiceNames(nh::kIntegrators)) + ")")),
             qPrintable(why));
  }
};

QTEST_GUILESS_MAIN(NamedChoiceTest)
#include "named_choice_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
