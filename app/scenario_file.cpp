#include "scenario_file.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QSet>

#include "nh/catalogue.h"
#include "nh/errors.h"

namespace nh {

namespace {

const char* kFormatName = "nonholonomic-lab-scenario";

[[noreturn]] void fail(const QString& origin, const QString& what) {
  throw InputError((origin + ": " + what).toStdString());
}

void checkKeys(const QJsonObject& obj, const QStringList& allowed, const QString& where,
               const QString& origin) {
  for (const QString& key : obj.keys())
    if (!allowed.contains(key))
      fail(origin, "unknown key '" + key + "' in " + where + " (allowed: " + allowed.join(", ") + ")");
}

QString text(const QJsonValue& v, const QString& key, const QString& origin) {
  if (!v.isString()) fail(origin, "'" + key + "' must be a string");
  return v.toString();
}

double number(const QJsonValue& v, const QString& key, const QString& origin) {
  if (!v.isDouble()) fail(origin, "'" + key + "' must be a number");
  return v.toDouble();
}

std::map<std::string, double> numberMap(const QJsonValue& v, const QString& key,
                                        const QString& origin) {
  if (!v.isObject()) fail(origin, "'" + key + "' must be an object of name: number");
  std::map<std::string, double> out;
  const QJsonObject obj = v.toObject();
  for (auto it = obj.begin(); it != obj.end(); ++it)
    out[it.key().toStdString()] = number(it.value(), key + "." + it.key(), origin);
  return out;
}

QJsonObject toObject(const std::map<std::string, double>& values) {
  QJsonObject obj;
  for (const auto& [name, value] : values) obj.insert(QString::fromStdString(name), value);
  return obj;
}

}  // namespace

Scenario parseScenarioJson(const QByteArray& json, const QString& origin) {
  QJsonParseError error;
  const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
  if (error.error != QJsonParseError::NoError)
    fail(origin, "not valid JSON (" + error.errorString() + " at offset " +
                     QString::number(error.offset) + ")");
  if (!doc.isObject()) fail(origin, "a scenario must be a JSON object");
  const QJsonObject root = doc.object();
  checkKeys(root,
            {"format", "version", "system", "parameters", "initial", "t_end", "dt_out",
             "integrator", "dynamics", "formulation"},
            "the scenario", origin);
  if (root.value("format").toString() != kFormatName)
    fail(origin, QString("'format' must be \"") + kFormatName + "\"");
  if (!root.contains("version")) fail(origin, "missing 'version'");
  const double version = number(root.value("version"), "version", origin);
  if (version != kScenarioFormatVersion)
    fail(origin, "unsupported scenario version " + QString::fromStdString(formatValue(version)) +
                     " (this program reads version " + QString::number(kScenarioFormatVersion) + ")");
  if (!root.value("system").isString()) fail(origin, "'system' must be a string naming a system");

  Scenario s;
  s.system = root.value("system").toString().toStdString();
  findSystem(s.system);  // unknown systems fail here, with the list of known ones
  if (root.contains("parameters")) s.parameters = numberMap(root.value("parameters"), "parameters", origin);
  if (root.contains("initial")) s.initial = numberMap(root.value("initial"), "initial", origin);
  if (root.contains("t_end")) s.tEnd = number(root.value("t_end"), "t_end", origin);
  if (root.contains("dt_out")) s.dtOut = number(root.value("dt_out"), "dt_out", origin);
  // Named values: parse errors carry the file name like every other message here.
  try {
    if (root.contains("dynamics"))
      s.dynamics = parseDynamics(text(root.value("dynamics"), "dynamics", origin).toStdString());
    if (root.contains("formulation"))
      s.formulation =
          parseFormulation(text(root.value("formulation"), "formulation", origin).toStdString());
  } catch (const InputError& e) {
    if (QString(e.what()).startsWith(origin)) throw;
    fail(origin, e.what());
  }
  if (root.contains("integrator")) {
    if (!root.value("integrator").isObject()) fail(origin, "'integrator' must be an object");
    const QJsonObject in = root.value("integrator").toObject();
    checkKeys(in, {"method", "rtol", "atol", "step", "projection"}, "'integrator'", origin);
    if (in.contains("method")) {
      try {
        s.integrator.method =
            parseIntegrator(text(in.value("method"), "integrator.method", origin).toStdString());
      } catch (const InputError& e) {
        if (QString(e.what()).startsWith(origin)) throw;
        fail(origin, e.what());
      }
    }
    if (in.contains("rtol")) s.integrator.rtol = number(in.value("rtol"), "integrator.rtol", origin);
    if (in.contains("atol")) s.integrator.atol = number(in.value("atol"), "integrator.atol", origin);
    if (in.contains("step")) s.integrator.step = number(in.value("step"), "integrator.step", origin);
    if (in.contains("projection")) {
      if (!in.value("projection").isBool()) fail(origin, "'integrator.projection' must be true or false");
      s.integrator.projection = in.value("projection").toBool();
    }
  }
  try {
    s.validate();
  } catch (const InputError& e) {
    fail(origin, e.what());
  }
  return s;
}

Scenario readScenarioFile(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly))
    throw InputError(("cannot read scenario file '" + path + "': " + file.errorString()).toStdString());
  return parseScenarioJson(file.readAll(), path);
}

QByteArray scenarioToJson(const Scenario& s) {
  QJsonObject root;
  root.insert("format", kFormatName);
  root.insert("version", kScenarioFormatVersion);
  root.insert("system", QString::fromStdString(s.system));
  root.insert("parameters", toObject(s.parameters));
  root.insert("initial", toObject(s.initial));
  root.insert("t_end", s.tEnd);
  root.insert("dt_out", s.dtOut);
  QJsonObject in;
  in.insert("method", QString::fromStdString(toString(s.integrator.method)));
  in.insert("rtol", s.integrator.rtol);
  in.insert("atol", s.integrator.atol);
  in.insert("step", s.integrator.step);
  in.insert("projection", s.integrator.projection);
  root.insert("integrator", in);
  root.insert("dynamics", QString::fromStdString(toString(s.dynamics)));
  root.insert("formulation", QString::fromStdString(toString(s.formulation)));
  return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

void writeScenarioFile(const Scenario& scenario, const QString& path) {
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly))
    throw Error(("cannot write scenario file '" + path + "': " + file.errorString()).toStdString());
  file.write(scenarioToJson(scenario));
  if (!file.commit())
    throw Error(("cannot write scenario file '" + path + "': " + file.errorString()).toStdString());
}

Scenario resolvedScenario(const Scenario& scenario, const std::vector<double>& parameters,
                          const std::vector<double>& initialState) {
  Scenario s = scenario;
  const auto system = findSystem(s.system);
  s.parameters.clear();
  for (size_t i = 0; i < parameters.size(); ++i)
    s.parameters[system->info().parameters[i].name] = parameters[i];
  s.initial.clear();
  const StateLayout layout = stateLayout(*system, s.dynamics);
  for (size_t i = 0; i < layout.names.size(); ++i)
    s.initial[layout.names[i]] = initialState[layout.index[i]];
  return s;
}

}  // namespace nh
