// The view's one field table, and the settings and scenario view read and written through it.
#include "ui/session/view_state.h"

#include <cstring>

namespace nhui {

namespace {
// Accessors of a switch or a number, for the table's rows.
template <auto Member>
double flagOf(const ViewState& v) {
  return v.*Member ? 1.0 : 0.0;
}
template <auto Member>
void setFlag(ViewState& v, double value) {
  v.*Member = value != 0;
}
template <auto Member>
double numberOf(const ViewState& v) {
  return v.*Member;
}
template <auto Member>
void setNumber(ViewState& v, double value) {
  v.*Member = value;
}
template <auto Member>
double displayFlagOf(const ViewState& v) {
  return v.display.*Member ? 1.0 : 0.0;
}
template <auto Member>
void setDisplayFlag(ViewState& v, double value) {
  v.display.*Member = value != 0;
}
template <auto Member>
double displayNumberOf(const ViewState& v) {
  return v.display.*Member;
}
template <auto Member>
void setDisplayNumber(ViewState& v, double value) {
  v.display.*Member = value;
}

#define NH_DISPLAY_FLAG(key, settings, def, uses, member)                                 \
  ViewField {                                                                             \
    "display." key, "display/" settings, "switch", def, kViewDisplay, uses,               \
        &displayFlagOf<&DisplayChoices::member>, &setDisplayFlag<&DisplayChoices::member> \
  }

constexpr unsigned kEverywhere = kUseFile | kUseSettings | kUseVideo | kUsePage;
constexpr unsigned kInApp = kUseFile | kUseSettings;

// The one table. The "display." rows are core/io's viewDisplayKeys() (the session's suite
// checks both agree); the video export draws trails, arrows and their scale, the page trails
// and arrows.
const ViewField kFields[] = {
    {"speed", "simulation/speed", "number (0.01 … 1000)", "1", kViewSpeed, kInApp | kUsePage,
     &numberOf<&ViewState::speed>, &setNumber<&ViewState::speed>},
    NH_DISPLAY_FLAG("trails", "trails", "true", kEverywhere, trails),
    {"display.trail_seconds", "display/trailSeconds", "number (s)", "30", kViewDisplay, kEverywhere,
     &displayNumberOf<&DisplayChoices::trailSeconds>,
     &setDisplayNumber<&DisplayChoices::trailSeconds>},
    NH_DISPLAY_FLAG("forces", "forces", "true", kEverywhere, reactionArrows),
    NH_DISPLAY_FLAG("velocity", "velocity", "true", kEverywhere, velocityArrows),
    NH_DISPLAY_FLAG("angular_velocity", "angularVelocity", "false", kEverywhere,
                    angularVelocityArrows),
    NH_DISPLAY_FLAG("grid", "grid", "true", kInApp, grid),
    NH_DISPLAY_FLAG("axes", "axes", "true", kInApp, axes),
    NH_DISPLAY_FLAG("legend", "legend", "true", kInApp, legend),
    NH_DISPLAY_FLAG("keep_in_view", "keepInView", "true", kInApp | kUseVideo, keepInView),
    {"display.arrow_scale", "display/arrowScaleFixed", "choice (fixed, auto)", "auto", kViewDisplay,
     kEverywhere, &displayFlagOf<&DisplayChoices::arrowScaleFixed>,
     &setDisplayFlag<&DisplayChoices::arrowScaleFixed>, "fixed", "auto"},
    {"overlay", nullptr, "switch", "true", kViewDisplay, kUseVideo,
     &flagOf<&ViewState::overlayText>, &setFlag<&ViewState::overlayText>},
    {"arrow_scales", nullptr, "{arrow: magnitude}", "none", kViewArrowScales, kUseFile | kUseVideo},
    {"camera.follow", nullptr, "switch", "false", kViewCamera, kUseFile | kUseVideo | kUsePage,
     &flagOf<&ViewState::follow>, &setFlag<&ViewState::follow>},
    {"camera.table_frame", nullptr, "switch", "false", kViewCamera, kUseFile,
     &flagOf<&ViewState::tableFrame>, &setFlag<&ViewState::tableFrame>},
    {"camera.position", nullptr, "pose (position, target, up, view_angle)", "the 3/4 view",
     kViewCameraPose, kUseFile | kUseVideo},
    {"plots.phase", nullptr, "two names", "the system's drag pair", kViewPlots,
     kUseFile | kUseVideo | kUsePage},
    {"plots.time_series", nullptr, "names (0 … 12)", "energy", kViewPlots,
     kUseFile | kUseVideo | kUsePage},
    {"compare", nullptr, "comparison", "off", kViewComparison, kUseFile | kUseVideo | kUsePage},
    {"study", nullptr, "study", "none", kViewStudy, kUseFile},
    // A scenario file keeps the theme it was saved in for its exports; opening it leaves the
    // app's theme as the settings have it (applyScenarioView).
    {"theme", "view/theme", "choice (dark, light)", "light", kViewTheme, kEverywhere,
     &displayFlagOf<&DisplayChoices::dark>, &setDisplayFlag<&DisplayChoices::dark>, "dark",
     "light"},
};
#undef NH_DISPLAY_FLAG

constexpr const char* kDisplayPrefix = "display.";

// The key of a "display." row in a scenario's "display" part ("trails"); nullptr: not one.
const char* displayKey(const ViewField& f) {
  const size_t n = std::strlen(kDisplayPrefix);
  return std::strncmp(f.key, kDisplayPrefix, n) == 0 ? f.key + n : nullptr;
}
}  // namespace

std::span<const ViewField> viewFields() { return kFields; }

const ViewField* findViewField(const std::string& key) {
  for (const ViewField& f : kFields)
    if (key == f.key) return &f;
  return nullptr;
}

namespace {
// Visits the fields of one part of two views (the same visitor for copying and comparing).
template <typename F>
void visitPart(ViewPart part, F&& f) {
  switch (part) {
    case kViewSpeed:
      return f(&ViewState::speed);
    case kViewDisplay:
      f(&ViewState::display);
      f(&ViewState::hiddenTrails);
      return f(&ViewState::overlayText);
    case kViewArrowScales:
      return f(&ViewState::arrowScales);
    case kViewCamera:
      f(&ViewState::follow);
      return f(&ViewState::tableFrame);
    case kViewPlots:
      f(&ViewState::phaseX);
      f(&ViewState::phaseY);
      return f(&ViewState::timeSeries);
    case kViewComparison:
      return f(&ViewState::comparison);
    case kViewStudy:
      return f(&ViewState::study);
    case kViewCameraPose:
      return f(&ViewState::camera);
    case kViewTheme:  // display.dark: copied and compared apart (copyViewParts)
    case kViewAll:
      return;
  }
}
constexpr ViewPart kParts[] = {kViewSpeed,  kViewDisplay, kViewArrowScales,
                               kViewCamera, kViewPlots,   kViewComparison,
                               kViewStudy,  kViewTheme,   kViewCameraPose};
}  // namespace

nh::Comparison comparisonInForce(const SimulationController& controller) {
  const IntegratorChoice& other = controller.otherIntegrator();
  return {controller.compareMode(), controller.ghostParameter(), controller.ghostValue(),
          other.method, other.step};
}

// The theme lives in the display choices but is a part of its own: the display part copies
// and compares the choices with the theme left as it is.
void copyViewParts(const ViewState& from, ViewParts parts, ViewState& to) {
  const bool dark = parts & kViewTheme ? from.display.dark : to.display.dark;
  for (ViewPart part : kParts)
    if (parts & part) visitPart(part, [&](auto member) { to.*member = from.*member; });
  to.display.dark = dark;
}

ViewParts differingViewParts(const ViewState& a, const ViewState& b) {
  ViewParts differ = a.display.dark != b.display.dark ? ViewParts{kViewTheme} : 0u;
  ViewState sameTheme = b;
  sameTheme.display.dark = a.display.dark;
  for (ViewPart part : kParts)
    visitPart(part, [&](auto member) {
      if (!(a.*member == sameTheme.*member)) differ |= part;
    });
  return differ;
}

void readViewSettings(const QSettings& settings, ViewState& view) {
  for (const ViewField& f : kFields) {
    if (!f.settingsKey || !f.set) continue;
    const QVariant v = settings.value(QString::fromLatin1(f.settingsKey));
    if (!v.isValid()) continue;
    if (f.on)
      f.set(view, v.toString() == QLatin1String(f.on) ? 1 : 0);
    else if (std::strcmp(f.type, "switch") == 0)
      f.set(view, v.toBool() ? 1 : 0);
    else
      f.set(view, v.toDouble());
  }
}

void writeViewSettings(QSettings& settings, const ViewState& view) {
  for (const ViewField& f : kFields) {
    if (!f.settingsKey || !f.get) continue;
    const QString key = QString::fromLatin1(f.settingsKey);
    const double value = f.get(view);
    if (f.on)
      settings.setValue(key, QLatin1String(value != 0 ? f.on : f.off));
    else if (std::strcmp(f.type, "switch") == 0)
      settings.setValue(key, value != 0);
    else
      settings.setValue(key, value);
  }
}

DisplayValues displayValues(const ViewState& view) {
  DisplayValues values;
  for (const ViewField& f : kFields)
    if (const char* key = displayKey(f)) values[key] = f.get(view);
  return values;
}

void applyDisplayValues(const DisplayValues& values, ViewState& view) {
  for (const ViewField& f : kFields)
    if (const char* key = displayKey(f))
      if (const auto it = values.find(key); it != values.end()) f.set(view, it->second);
}

ViewParts applyScenarioView(const ScenarioView& file, ViewState& view) {
  ViewParts given = kViewArrowScales;  // none given: none preset
  view.arrowScales = file.arrowScales;
  if (file.speed) {
    view.speed = *file.speed;
    given |= kViewSpeed;
  }
  if (file.follow) view.follow = *file.follow;
  if (file.tableFrame) view.tableFrame = *file.tableFrame;
  if (file.follow || file.tableFrame) given |= kViewCamera;
  if (file.camera) {
    view.camera = file.camera;
    given |= kViewCameraPose;
  }
  // The file's theme is for its exports: the app keeps the settings' theme.
  if (!file.display.empty()) {
    applyDisplayValues(file.display, view);
    given |= kViewDisplay;
  }
  if (file.phase && file.phase->size() == 2) {
    view.phaseX = file.phase->at(0);
    view.phaseY = file.phase->at(1);
    given |= kViewPlots;
  }
  if (file.timeSeries) {
    view.timeSeries = *file.timeSeries;
    given |= kViewPlots;
  }
  if (file.comparison) {
    view.comparison = *file.comparison;
    given |= kViewComparison;
  }
  if (file.study) {
    view.study = file.study;
    given |= kViewStudy;
  }
  return given;
}

ScenarioView scenarioViewOf(const ViewState& view, bool hasMovingFrame) {
  ScenarioView v;
  v.speed = view.speed;
  v.follow = view.follow;
  if (hasMovingFrame) v.tableFrame = view.tableFrame;
  v.camera = view.camera;
  v.display = displayValues(view);
  v.dark = view.display.dark;
  if (view.display.arrowScaleFixed)
    for (const auto& [name, value] : view.arrowScales)
      if (value > 0) v.arrowScales[name] = value;
  v.phase = QStringList{view.phaseX, view.phaseY};
  v.timeSeries = view.timeSeries;
  v.comparison = view.comparison;
  v.otherStepGiven = true;
  v.study = view.study;
  return v;
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
