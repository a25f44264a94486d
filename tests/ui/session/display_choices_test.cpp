// The display choices' one table: every key a scenario file's "display" part may hold (core/io,
// which nhsim also checks) maps to one choice and back, each choice is kept in the settings
// and in a scenario's view, and a view part round-trips through its JSON.
#include "ui/session/display_choices.h"

#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>
#include <set>

#include "core/io/scenario_file.h"
#include "core/nh/errors.h"
#include "ui/session/scenario_view.h"

using nhui::DisplayChoices;

namespace {
// Every choice the other way from its default.
DisplayChoices flipped() {
  DisplayChoices c;
  for (const nhui::DisplayField& f : nhui::displayFields()) {
    if (f.flag) c.*f.flag = !(c.*f.flag);
    if (f.number) c.*f.number = 7.5;
  }
  return c;
}

bool same(const DisplayChoices& a, const DisplayChoices& b) {
  for (const nhui::DisplayField& f : nhui::displayFields()) {
    if (f.flag && a.*f.flag != b.*f.flag) return false;
    if (f.number && a.*f.number != b.*f.number) return false;
  }
  return true;
}
}  // namespace

class DisplayChoicesTest : public QObject {
  Q_OBJECT

 private slots:
  void theTableCoversTheFileFormatsKeysOnce() {
    std::set<std::string> fileKeys, tableKeys, settingsKeys;
    for (const nh::ViewDisplayKey& k : nh::viewDisplayKeys()) fileKeys.insert(k.key);
    for (const nhui::DisplayField& f : nhui::displayFields()) {
      QVERIFY2(tableKeys.insert(f.viewKey).second, f.viewKey);
      QVERIFY2(settingsKeys.insert(f.settingsKey).second, f.settingsKey);
      QVERIFY2((f.flag != nullptr) != (f.number != nullptr), f.viewKey);
      const nh::ViewDisplayKey* k = nh::findViewDisplayKey(f.viewKey);
      QVERIFY2(k, f.viewKey);
      QCOMPARE(k->kind == nh::ViewDisplayKey::Kind::Number, f.number != nullptr);
    }
    QVERIFY(fileKeys == tableKeys);
    // Ten choices, among them the two once kept in only one place.
    QVERIFY(tableKeys.count("keep_in_view") && tableKeys.count("arrow_scale"));
    QCOMPARE(tableKeys.size(), size_t(10));
  }

  void everyChoiceSurvivesTheSettings() {
    QTemporaryDir dir;
    const DisplayChoices want = flipped();
    QVERIFY(!same(want, DisplayChoices{}));
    {
      QSettings settings(dir.filePath("s.ini"), QSettings::IniFormat);
      nhui::writeDisplaySettings(settings, want);
    }
    QSettings settings(dir.filePath("s.ini"), QSettings::IniFormat);
    DisplayChoices got;
    nhui::readDisplaySettings(settings, got);
    QVERIFY(same(got, want));
    QCOMPARE(settings.value("display/keepInView").toBool(), want.keepInView);
    QCOMPARE(settings.value("display/arrowScaleFixed").toBool(), want.arrowScaleFixed);
  }

  void everyChoiceSurvivesAScenarioView() {
    const DisplayChoices want = flipped();
    nhui::ScenarioView view;
    view.display = nhui::displayValues(want);
    const std::string json = nhui::scenarioViewToJson(view);
    nh::checkScenarioView(json);  // what nhsim accepts too
    QVERIFY2(json.find("\"arrow_scale\":\"fixed\"") != std::string::npos, json.c_str());
    QVERIFY2(json.find("\"keep_in_view\":false") != std::string::npos, json.c_str());
    DisplayChoices got;
    nhui::applyDisplayValues(nhui::parseScenarioView(json).display, got);
    QVERIFY(same(got, want));
    // Keys a view leaves out keep the current choice.
    DisplayChoices kept = want;
    nhui::applyDisplayValues(
        nhui::parseScenarioView(R"({"version":1,"display":{"grid":true}})").display, kept);
    QCOMPARE(kept.grid, true);
    QCOMPARE(kept.keepInView, want.keepInView);
  }

  void aWrongValueIsRefusedWithTheKey() {
    QVERIFY_THROWS_EXCEPTION(
        nh::InputError,
        nhui::parseScenarioView(R"({"version":1,"display":{"keep_in_view":"yes"}})"));
    try {
      nhui::parseScenarioView(R"({"version":1,"display":{"arrow_scale":"big"}})");
      QFAIL("accepted");
    } catch (const nh::InputError& e) {
      QCOMPARE(QString(e.what()),
               QStringLiteral("view: 'display.arrow_scale' must be \"fixed\" or \"auto\""));
    }
  }
};

QTEST_GUILESS_MAIN(DisplayChoicesTest)
#include "display_choices_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
