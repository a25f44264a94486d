// The view's one field table: every key a scenario file's "display" part may hold (core/io,
// which nhsim also checks) maps to one row and back, each row kept in the settings is kept
// there, each display choice survives a scenario's view, and the whole record (plots,
// comparison, study, camera) goes through a saved view part and back; a part that changes
// is named, one that does not is not.
#include "ui/session/view_state.h"

#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>
#include <cstring>
#include <set>

#include "core/io/scenario_file.h"
#include "core/nh/errors.h"
#include "ui/session/scenario_view.h"

using nhui::ViewState;

namespace {
constexpr const char* kDisplay = "display.";

bool isDisplayRow(const nhui::ViewField& f) {
  return std::strncmp(f.key, kDisplay, std::strlen(kDisplay)) == 0;
}

// Every switch and number of the table the other way from its default.
ViewState flipped() {
  ViewState v;
  for (const nhui::ViewField& f : nhui::viewFields()) {
    if (!f.get) continue;
    f.set(v, std::strcmp(f.type, "switch") == 0 || f.on ? 1 - f.get(v) : 7.5);
  }
  return v;
}
}  // namespace

class ViewStateTest : public QObject {
  Q_OBJECT

 private slots:
  void theTableCoversTheFileFormatsDisplayKeysOnce() {
    std::set<std::string> fileKeys, tableKeys, keys, settingsKeys;
    for (const nh::ViewDisplayKey& k : nh::viewDisplayKeys()) fileKeys.insert(k.key);
    for (const nhui::ViewField& f : nhui::viewFields()) {
      QVERIFY2(keys.insert(f.key).second, f.key);
      if (f.settingsKey) QVERIFY2(settingsKeys.insert(f.settingsKey).second, f.settingsKey);
      QVERIFY2((f.get != nullptr) == (f.set != nullptr), f.key);
      QCOMPARE(nhui::findViewField(f.key), &f);
      if (!isDisplayRow(f)) continue;
      const std::string key = f.key + std::strlen(kDisplay);
      tableKeys.insert(key);
      const nh::ViewDisplayKey* k = nh::findViewDisplayKey(key);
      QVERIFY2(k, f.key);
      QVERIFY2(f.get, f.key);
      QCOMPARE(k->kind == nh::ViewDisplayKey::Kind::Number,
               std::strcmp(f.type, "switch") != 0 && f.on == nullptr);
    }
    QVERIFY(fileKeys == tableKeys);
    // Ten choices, among them the two once kept in only one place.
    QVERIFY(tableKeys.count("keep_in_view") && tableKeys.count("arrow_scale"));
    QCOMPARE(tableKeys.size(), size_t(10));
  }

  void everySettingSurvivesTheSettings() {
    QTemporaryDir dir;
    const ViewState want = flipped();
    {
      QSettings settings(dir.filePath("s.ini"), QSettings::IniFormat);
      nhui::writeViewSettings(settings, want);
    }
    QSettings settings(dir.filePath("s.ini"), QSettings::IniFormat);
    ViewState got;
    nhui::readViewSettings(settings, got);
    for (const nhui::ViewField& f : nhui::viewFields())
      if (f.settingsKey) QVERIFY2(f.get(got) == f.get(want), f.key);
    QCOMPARE(settings.value("display/keepInView").toBool(), want.display.keepInView);
    QCOMPARE(settings.value("display/arrowScaleFixed").toBool(), want.display.arrowScaleFixed);
    // The keys the app wrote before the table held them: speed and theme as they were.
    QCOMPARE(settings.value("simulation/speed").toDouble(), want.speed);
    QCOMPARE(settings.value("view/theme").toString(), QStringLiteral("dark"));
  }

  void everyDisplayChoiceSurvivesAScenarioView() {
    const ViewState want = flipped();
    nhui::ScenarioView view;
    view.display = nhui::displayValues(want);
    const std::string json = nhui::scenarioViewToJson(view);
    nh::checkScenarioView(json);  // what nhsim accepts too
    QVERIFY2(json.find("\"arrow_scale\":\"fixed\"") != std::string::npos, json.c_str());
    QVERIFY2(json.find("\"keep_in_view\":false") != std::string::npos, json.c_str());
    ViewState got;
    nhui::applyDisplayValues(nhui::parseScenarioView(json).display, got);
    got.display.dark = want.display.dark;  // the theme is no key of the "display" part
    QVERIFY(got.display == want.display);
    // Keys a view leaves out keep the current choice.
    ViewState kept = want;
    nhui::applyDisplayValues(
        nhui::parseScenarioView(R"({"version":1,"display":{"grid":true}})").display, kept);
    QCOMPARE(kept.display.grid, true);
    QCOMPARE(kept.display.keepInView, want.display.keepInView);
  }

  // The record a saved scenario keeps comes back whole from its view part.
  void theWholeViewSurvivesASavedViewPart() {
    ViewState want = flipped();
    want.phaseX = "theta";
    want.phaseY = "omega";
    want.timeSeries = {"energy_error", "x"};
    want.follow = true;
    want.tableFrame = true;
    want.comparison.mode = nhui::CompareMode::Ghost;
    want.comparison.ghostParameter =
        std::string(1, 'm');  // not from a literal: GCC 12's -Wrestrict
    want.comparison.ghostValue = 2.5;
    want.display.arrowScaleFixed = true;
    want.arrowScales = {{"velocity", 1.5}};
    nhui::StudySettings study;
    study.axes.push_back({"m", 1, 3, 5});
    study.measure = "energy";
    want.study = study;
    nhui::CameraPose pose;
    pose.position = {0.5, -1.75, 0.9};
    pose.focalPoint = {0.25, 0, 0.1};
    pose.viewAngle = 22;
    want.camera = pose;
    const std::string json = nhui::scenarioViewToJson(nhui::scenarioViewOf(want, true));
    nh::checkScenarioView(json);
    ViewState got;
    const nhui::ViewParts given = nhui::applyScenarioView(nhui::parseScenarioView(json), got);
    for (nhui::ViewPart part :
         {nhui::kViewSpeed, nhui::kViewDisplay, nhui::kViewArrowScales, nhui::kViewCamera,
          nhui::kViewPlots, nhui::kViewComparison, nhui::kViewStudy, nhui::kViewCameraPose})
      QVERIFY(given & part);
    QVERIFY(got.camera && *got.camera == pose);
    // The theme is kept for the file's exports, and the app keeps the settings' theme.
    QVERIFY(!(given & nhui::kViewTheme));
    QVERIFY(want.display.dark && !got.display.dark);
    QCOMPARE(nhui::parseScenarioView(json).dark, std::optional<bool>(true));
    got.display.dark = want.display.dark;
    QCOMPARE(got.phaseX, want.phaseX);
    QCOMPARE(got.timeSeries, want.timeSeries);
    QCOMPARE(got.comparison.mode, want.comparison.mode);
    QCOMPARE(got.comparison.ghostParameter, want.comparison.ghostParameter);
    QCOMPARE(got.comparison.ghostValue, want.comparison.ghostValue);
    QVERIFY(got.study == want.study);
    QVERIFY(got.arrowScales == want.arrowScales);
    QVERIFY(got.display == want.display);
    QCOMPARE(got.speed, want.speed);
    QVERIFY(got.follow && got.tableFrame);
    // Without a moving frame the view part says nothing of it.
    QVERIFY(!nhui::scenarioViewOf(want, false).tableFrame);
  }

  void aChangedPartIsNamedAndOnlyIt() {
    const ViewState a;
    ViewState b = a;
    QCOMPARE(nhui::differingViewParts(a, b), 0u);
    b.display.grid = !b.display.grid;
    b.timeSeries << "x";
    QCOMPARE(nhui::differingViewParts(a, b), unsigned(nhui::kViewDisplay | nhui::kViewPlots));
    ViewState c = a;
    nhui::copyViewParts(b, nhui::kViewPlots, c);
    QCOMPARE(c.timeSeries, b.timeSeries);
    QCOMPARE(c.display.grid, a.display.grid);  // a part not copied stays
    // The theme lives among the display choices and is a part of its own: the display part
    // copies and compares the choices without it.
    ViewState dark = a;
    dark.display.dark = true;
    QCOMPARE(nhui::differingViewParts(a, dark), unsigned(nhui::kViewTheme));
    ViewState d = a;
    nhui::copyViewParts(dark, nhui::kViewDisplay, d);
    QVERIFY(!d.display.dark);
    nhui::copyViewParts(dark, nhui::kViewTheme, d);
    QVERIFY(d.display.dark);
    ViewState grid = dark;
    grid.display.grid = !grid.display.grid;
    nhui::copyViewParts(grid, nhui::kViewDisplay, c);
    QVERIFY(!c.display.dark && c.display.grid == grid.display.grid);
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

QTEST_GUILESS_MAIN(ViewStateTest)
#include "view_state_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
