#include "ui/session/display_choices.h"

namespace nhui {

bool DisplayChoices::shows(nh::ArrowKind kind) const {
  switch (kind) {
    case nh::ArrowKind::Reaction:
    case nh::ArrowKind::Force:
      return reactionArrows;
    case nh::ArrowKind::Velocity:
      return velocityArrows;
    case nh::ArrowKind::AngularVelocity:
      return angularVelocityArrows;
  }
  return false;
}

namespace {
// Every key of core/io's viewDisplayKeys(), once (the session's suite checks both agree).
constexpr DisplayField kFields[] = {
    {"trails", "trails", &DisplayChoices::trails},
    {"trail_seconds", "trailSeconds", nullptr, &DisplayChoices::trailSeconds},
    {"forces", "forces", &DisplayChoices::reactionArrows},
    {"velocity", "velocity", &DisplayChoices::velocityArrows},
    {"angular_velocity", "angularVelocity", &DisplayChoices::angularVelocityArrows},
    {"grid", "grid", &DisplayChoices::grid},
    {"axes", "axes", &DisplayChoices::axes},
    {"legend", "legend", &DisplayChoices::legend},
    {"keep_in_view", "keepInView", &DisplayChoices::keepInView},
    {"arrow_scale", "arrowScaleFixed", &DisplayChoices::arrowScaleFixed},
};

double valueOf(const DisplayField& f, const DisplayChoices& c) {
  return f.flag ? (c.*f.flag ? 1.0 : 0.0) : c.*f.number;
}

void setValue(const DisplayField& f, double value, DisplayChoices& c) {
  if (f.flag)
    c.*f.flag = value != 0;
  else
    c.*f.number = value;
}

QString settingsKey(const DisplayField& f) {
  return QStringLiteral("display/") + QString::fromLatin1(f.settingsKey);
}
}  // namespace

std::span<const DisplayField> displayFields() { return kFields; }

DisplayValues displayValues(const DisplayChoices& choices) {
  DisplayValues values;
  for (const DisplayField& f : kFields) values[f.viewKey] = valueOf(f, choices);
  return values;
}

void applyDisplayValues(const DisplayValues& values, DisplayChoices& choices) {
  for (const DisplayField& f : kFields)
    if (const auto it = values.find(f.viewKey); it != values.end())
      setValue(f, it->second, choices);
}

void readDisplaySettings(const QSettings& settings, DisplayChoices& choices) {
  for (const DisplayField& f : kFields) {
    const QVariant v = settings.value(settingsKey(f));
    if (!v.isValid()) continue;
    setValue(f, f.flag ? (v.toBool() ? 1.0 : 0.0) : v.toDouble(), choices);
  }
}

void writeDisplaySettings(QSettings& settings, const DisplayChoices& choices) {
  for (const DisplayField& f : kFields) {
    if (f.flag)
      settings.setValue(settingsKey(f), choices.*f.flag);
    else
      settings.setValue(settingsKey(f), choices.*f.number);
  }
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
