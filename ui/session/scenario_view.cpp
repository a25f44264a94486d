// The view part of a scenario file (scenario_view.h): each entry read with its key, type and
// range checked and a one-line message naming its place (display, plots, plan, comparison,
// study), and the view written back as JSON.
#include "ui/session/scenario_view.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cmath>

#include "core/io/scenario_file.h"
#include "core/nh/errors.h"

namespace nhui {

namespace {

[[noreturn]] void fail(const QString& message) {
  throw nh::InputError(("view: " + message).toStdString());
}

void checkKeys(const QJsonObject& o, const QStringList& allowed, const QString& where) {
  for (auto it = o.begin(); it != o.end(); ++it)
    if (!allowed.contains(it.key()))
      fail(QStringLiteral("unknown key '%1' in %2 (allowed: %3)")
               .arg(it.key().left(60), where, allowed.join(", ")));
}

std::optional<bool> flag(const QJsonObject& o, const QString& key, const QString& where) {
  if (!o.contains(key)) return std::nullopt;
  if (!o.value(key).isBool()) fail(QStringLiteral("'%1.%2' must be true or false").arg(where, key));
  return o.value(key).toBool();
}

std::optional<double> number(const QJsonObject& o, const QString& key, const QString& where,
                             double lo, double hi) {
  if (!o.contains(key)) return std::nullopt;
  const double v = o.value(key).toDouble(std::nan(""));
  if (!o.value(key).isDouble() || !(v >= lo && v <= hi))
    fail(QStringLiteral("'%1%2' must be a number from %3 to %4")
             .arg(where.isEmpty() ? QString() : where + ".", key)
             .arg(lo)
             .arg(hi));
  return v;
}

QStringList names(const QJsonValue& v, const QString& where, int minCount, int maxCount) {
  QStringList list;
  if (v.isArray())
    for (const QJsonValue& e : v.toArray()) {
      if (!e.isString()) {
        list.clear();
        break;
      }
      list << e.toString();
    }
  if (list.size() < minCount || list.size() > maxCount || list.size() != v.toArray().size())
    fail(minCount == maxCount
             ? QStringLiteral("'%1' must be a list of %2 variable names").arg(where).arg(minCount)
             : QStringLiteral("'%1' must be a list of %2 to %3 variable names")
                   .arg(where)
                   .arg(minCount)
                   .arg(maxCount));
  return list;
}

// The "display" part, already checked by core/io (checkScenarioView): each key by its kind.
DisplayValues displayPart(const QJsonObject& d) {
  DisplayValues values;
  for (const nh::ViewDisplayKey& k : nh::viewDisplayKeys()) {
    const QJsonValue v = d.value(QLatin1String(k.key));
    if (v.isUndefined()) continue;
    switch (k.kind) {
      case nh::ViewDisplayKey::Kind::Flag:
        values[k.key] = v.toBool() ? 1 : 0;
        break;
      case nh::ViewDisplayKey::Kind::Number:
        values[k.key] = v.toDouble();
        break;
      case nh::ViewDisplayKey::Kind::Choice:
        values[k.key] = v.toString() == QLatin1String(k.on) ? 1 : 0;
        break;
    }
  }
  return values;
}

QJsonObject displayJson(const DisplayValues& values) {
  QJsonObject d;
  for (const auto& [key, value] : values) {
    const nh::ViewDisplayKey* k = nh::findViewDisplayKey(key);
    if (!k) continue;
    const QString name = QString::fromStdString(key);
    switch (k->kind) {
      case nh::ViewDisplayKey::Kind::Flag:
        d[name] = value != 0;
        break;
      case nh::ViewDisplayKey::Kind::Number:
        d[name] = value;
        break;
      case nh::ViewDisplayKey::Kind::Choice:
        d[name] = QLatin1String(value != 0 ? k->on : k->off);
        break;
    }
  }
  return d;
}

// The plan part, checked by nh::checkScenarioView already.
PlanSettings planPart(const QJsonObject& p) {
  PlanSettings plan;
  plan.tEnd = p.value("t_end").toDouble();
  const QJsonObject targets = p.value("targets").toObject();
  for (auto it = targets.begin(); it != targets.end(); ++it)
    plan.targets[it.key().toStdString()] = it.value().toDouble();
  plan.starts = p.value("starts").toInt(plan.starts);
  plan.played = p.value("played").toInt(1) - 1;  // 1 for the first extremal
  return plan;
}

// A point or direction of the camera part, checked by nh::checkScenarioView already.
std::array<double, 3> vectorOf(const QJsonValue& v) {
  const QJsonArray a = v.toArray();
  return {a.at(0).toDouble(), a.at(1).toDouble(), a.at(2).toDouble()};
}
QJsonArray vectorJson(const std::array<double, 3>& v) { return QJsonArray{v[0], v[1], v[2]}; }

// "camera": the mode (follow, table_frame) and the pose (position and target, up, view_angle).
void readCamera(const QJsonObject& c, ScenarioView& view) {
  view.follow = flag(c, "follow", "camera");
  view.tableFrame = flag(c, "table_frame", "camera");
  if (!c.contains("position")) return;
  CameraPose pose;
  pose.position = vectorOf(c.value("position"));
  pose.focalPoint = vectorOf(c.value("target"));
  if (c.contains("up")) pose.viewUp = vectorOf(c.value("up"));
  pose.viewAngle = c.value("view_angle").toDouble(pose.viewAngle);
  view.camera = pose;
}

QJsonObject cameraJson(const ScenarioView& view) {
  QJsonObject camera;
  if (view.follow) camera["follow"] = *view.follow;
  if (view.tableFrame) camera["table_frame"] = *view.tableFrame;
  if (const std::optional<CameraPose>& pose = view.camera) {
    camera["position"] = vectorJson(pose->position);
    camera["target"] = vectorJson(pose->focalPoint);
    camera["up"] = vectorJson(pose->viewUp);
    camera["view_angle"] = pose->viewAngle;
  }
  return camera;
}

// compare.integrator (a name of kIntegrators) and compare.step (seconds, > 0; optional).
void readOtherIntegrator(const QJsonObject& c, nh::Comparison& comparison, ScenarioView& view) {
  if (!c.value("integrator").isString())
    fail(QStringLiteral("a comparison with another integrator needs 'integrator' (one of %1)")
             .arg(QString::fromStdString(nh::joined(nh::choiceNames(nh::kIntegrators)))));
  try {
    comparison.method = nh::parseIntegrator(c.value("integrator").toString().toStdString());
  } catch (const nh::InputError& e) {
    fail(QStringLiteral("'compare.integrator': ") + QString::fromUtf8(e.what()));
  }
  view.otherStepGiven = c.contains("step");
  if (!view.otherStepGiven) return;
  const double step = c.value("step").toDouble(-1);
  if (!c.value("step").isDouble() || !std::isfinite(step) || step <= 0)
    fail(QStringLiteral("'compare.step' must be a positive number of seconds"));
  comparison.step = step;
}

// compare: {mode: off | vakonomic | ghost (parameter, value) | integrator (integrator, step?)}.
void readCompare(const QJsonValue& value, ScenarioView& view) {
  if (!value.isObject()) fail("'compare' must be an object");
  const QJsonObject c = value.toObject();
  checkKeys(c, {"mode", "parameter", "value", "integrator", "step"}, "'compare'");
  const QString mode = c.value("mode").toString();
  nh::Comparison comparison;
  if (mode == "off") {
    comparison.mode = CompareMode::None;
  } else if (mode == "vakonomic") {
    comparison.mode = CompareMode::Vakonomic;
  } else if (mode == "ghost") {
    comparison.mode = CompareMode::Ghost;
    if (!c.value("parameter").isString() || !c.value("value").isDouble())
      fail("a ghost comparison needs 'parameter' (a name) and 'value' (a number)");
    comparison.ghostParameter = c.value("parameter").toString().toStdString();
    comparison.ghostValue = c.value("value").toDouble();
  } else if (mode == "integrator") {
    comparison.mode = CompareMode::Integrator;
    readOtherIntegrator(c, comparison, view);
  } else {
    fail("'compare.mode' must be \"off\", \"vakonomic\", \"ghost\" or \"integrator\"");
  }
  view.comparison = comparison;
}

}  // namespace

ScenarioView parseScenarioView(const std::string& json) {
  ScenarioView view;
  if (json.empty()) return view;
  nh::checkScenarioView(json);  // the one set of rules, shared with nhsim (core/io)
  QJsonParseError error;
  const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(json), &error);
  if (doc.isNull() || !doc.isObject()) fail("not a JSON object");
  const QJsonObject o = doc.object();
  checkKeys(o,
            {"version", "title", "note", "energy_drift_expected", "speed", "step", "camera",
             "display", "plots", "compare", "study", "plan", "arrow_scales", "theme"},
            "the view");
  const QJsonValue version = o.value("version");
  if (!version.isDouble() || version.toDouble() != std::floor(version.toDouble()) ||
      version.toInt() < 1)
    fail("'version' must be a positive whole number");
  if (version.toInt() > kScenarioViewVersion)
    fail(QStringLiteral("version %1 is newer than this program reads (%2)")
             .arg(version.toInt())
             .arg(kScenarioViewVersion));
  view.title = o.value("title").toString();
  view.note = o.value("note").toString();
  view.energyDriftExpected = o.value("energy_drift_expected").toBool();
  view.speed = number(o, "speed", "", 0.01, 1000);
  view.step = number(o, "step", "", 1e-4, 10);

  if (o.contains("camera")) {
    if (!o.value("camera").isObject()) fail("'camera' must be an object");
    readCamera(o.value("camera").toObject(), view);  // its keys checked by core/io
  }
  if (o.contains("theme")) view.dark = o.value("theme").toString() == "dark";
  if (o.contains("display")) view.display = displayPart(o.value("display").toObject());
  if (o.contains("plots")) {
    if (!o.value("plots").isObject()) fail("'plots' must be an object");
    const QJsonObject p = o.value("plots").toObject();
    checkKeys(p, {"phase", "time_series"}, "'plots'");
    if (p.contains("phase")) view.phase = names(p.value("phase"), "plots.phase", 2, 2);
    if (p.contains("time_series"))
      view.timeSeries = names(p.value("time_series"), "plots.time_series", 0, 12);
  }
  if (o.contains("compare")) readCompare(o.value("compare"), view);
  if (o.contains("plan")) view.plan = planPart(o.value("plan").toObject());
  // Checked by nh::checkScenarioView already (positive numbers).
  const QJsonObject scales = o.value("arrow_scales").toObject();
  for (auto it = scales.begin(); it != scales.end(); ++it)
    view.arrowScales[it.key().toStdString()] = it.value().toDouble();
  if (o.contains("study")) {
    if (!o.value("study").isObject()) fail("'study' must be an object");
    const QJsonObject st = o.value("study").toObject();
    checkKeys(st, {"vary", "measure", "t_end"}, "'study'");
    StudySettings study;
    const QJsonArray vary = st.value("vary").toArray();
    if (!st.value("vary").isArray() || vary.size() < 1 || vary.size() > 2)
      fail("'study.vary' must be a list of one or two axes {name, from, to, count}");
    for (const QJsonValue& v : vary) {
      if (!v.isObject())
        fail("'study.vary' must be a list of one or two axes {name, from, to, count}");
      const QJsonObject a = v.toObject();
      checkKeys(a, {"name", "from", "to", "count"}, "an axis of 'study.vary'");
      if (!a.value("name").isString() || a.value("name").toString().isEmpty())
        fail("an axis of 'study.vary' needs a 'name' (a parameter or a state variable)");
      if (!a.contains("from") || !a.contains("to") || !a.contains("count"))
        fail("an axis of 'study.vary' needs 'name', 'from', 'to' and 'count'");
      StudySettings::Axis axis;
      axis.name = a.value("name").toString();
      axis.from = *number(a, "from", "study.vary", -1e300, 1e300);
      axis.to = *number(a, "to", "study.vary", -1e300, 1e300);
      const double count = *number(a, "count", "study.vary", 1, 100000);
      if (count != std::floor(count))
        fail("'study.vary.count' must be a whole number from 1 to 100000");
      axis.count = static_cast<int>(count);
      study.axes.push_back(axis);
    }
    if (st.contains("measure") && !st.value("measure").isString())
      fail("'study.measure' must be text");
    study.measure = st.value("measure").toString();
    study.tEnd = number(st, "t_end", "study", 1e-9, 1e9).value_or(10);
    view.study = study;
  }
  return view;
}

std::string scenarioViewToJson(const ScenarioView& view) {
  QJsonObject o;
  o["version"] = kScenarioViewVersion;
  if (!view.title.isEmpty()) o["title"] = view.title;
  if (!view.note.isEmpty()) o["note"] = view.note;
  if (view.energyDriftExpected) o["energy_drift_expected"] = true;
  if (view.speed) o["speed"] = *view.speed;
  if (view.step) o["step"] = *view.step;
  const QJsonObject camera = cameraJson(view);
  if (!camera.isEmpty()) o["camera"] = camera;
  if (view.dark) o["theme"] = *view.dark ? "dark" : "light";
  const QJsonObject display = displayJson(view.display);
  if (!display.isEmpty()) o["display"] = display;
  QJsonObject plots;
  if (view.phase) plots["phase"] = QJsonArray::fromStringList(*view.phase);
  if (view.timeSeries) plots["time_series"] = QJsonArray::fromStringList(*view.timeSeries);
  if (!plots.isEmpty()) o["plots"] = plots;
  if (view.comparison) {
    const nh::Comparison& comparison = *view.comparison;
    QJsonObject c;
    switch (comparison.mode) {
      case CompareMode::None:
        c["mode"] = "off";
        break;
      case CompareMode::Vakonomic:
        c["mode"] = "vakonomic";
        break;
      case CompareMode::Ghost:
        c["mode"] = "ghost";
        c["parameter"] = QString::fromStdString(comparison.ghostParameter);
        c["value"] = comparison.ghostValue;
        break;
      case CompareMode::Integrator:
        c["mode"] = "integrator";
        c["integrator"] = QString::fromStdString(nh::toString(comparison.method));
        c["step"] = comparison.step;
        break;
    }
    o["compare"] = c;
  }
  if (view.study) {
    QJsonObject st;
    QJsonArray vary;
    for (const StudySettings::Axis& a : view.study->axes)
      vary.append(
          QJsonObject{{"name", a.name}, {"from", a.from}, {"to", a.to}, {"count", a.count}});
    st["vary"] = vary;
    if (!view.study->measure.isEmpty()) st["measure"] = view.study->measure;
    st["t_end"] = view.study->tEnd;
    o["study"] = st;
  }
  if (view.plan) {
    QJsonObject targets;
    for (const auto& [name, value] : view.plan->targets)
      targets[QString::fromStdString(name)] = value;
    QJsonObject plan{
        {"t_end", view.plan->tEnd}, {"targets", targets}, {"starts", view.plan->starts}};
    if (view.plan->played > 0) plan["played"] = view.plan->played + 1;
    o["plan"] = plan;
  }
  if (!view.arrowScales.empty()) {
    QJsonObject scales;
    for (const auto& [name, value] : view.arrowScales)
      if (value > 0 && std::isfinite(value)) scales[QString::fromStdString(name)] = value;
    if (!scales.isEmpty()) o["arrow_scales"] = scales;
  }
  return QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString();
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
