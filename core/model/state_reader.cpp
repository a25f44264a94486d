// Reading the state of a model file (model_loader.h): units, initial values, the independent
// velocities, the state's order, quaternions, limits, cyclic and dependent coordinates, the
// checks of the parameters, and the labels of the recorded variables.
#include <algorithm>

#include "core/model/model_loader.h"

namespace nh::model::loader {

void Loader::readInitial() {
  readUnits();
  readInitialValues();
  readIndependent();
  readStateOrder();
  readQuaternions();
  readStateLimits();
  readCoordinateLists();
  readParameterChecks();
}

// The coordinates, then the velocities, for messages (namesOrNone() writes "none" for no
// coordinates, which then runs into the velocities' names).
std::string Loader::stateNames() const {
  return namesOrNone(info_.coordinates) + (info_.coordinates.empty() ? "" : ", ") +
         namesOrNone(info_.velocities);
}

void Loader::readUnits() {
  const YAML::Node units = root_["units"];
  if (!units) return;
  if (!units.IsMap()) fail("units", units, "expected a map state variable → unit");
  for (const auto& kv : units) {
    const std::string name = kv.first.Scalar();
    const std::string key = "units." + name;
    if (coordinateIndex(name) < 0 && velocityIndex(name) < 0)
      fail(key, kv.first,
           "'" + name + "' is neither a coordinate nor a velocity (state: " + stateNames() + ")");
    info_.stateUnits[name] = scalar(kv.second, key, "a unit");
  }
}

void Loader::readInitialValues() {
  info_.defaultCoordinates.assign(info_.coordinates.size(), 0.0);
  info_.defaultVelocities.assign(info_.velocities.size(), 0.0);
  const YAML::Node init = root_["initial"];
  if (!init) return;
  if (!init.IsMap()) fail("initial", init, "expected a map name → number");
  for (const auto& kv : init) {
    const std::string name = kv.first.Scalar();
    const std::string key = "initial." + name;
    const double v = number(kv.second, key);
    if (const int i = coordinateIndex(name); i >= 0)
      info_.defaultCoordinates[i] = v;
    else if (const int a = velocityIndex(name); a >= 0)
      info_.defaultVelocities[a] = v;
    else
      fail(key, kv.first,
           "'" + name + "' is neither a coordinate nor a velocity (state: " + stateNames() + ")");
  }
}

// The velocities kept when completing initial velocities (all of them when not given).
void Loader::readIndependent() {
  const YAML::Node ind = root_["independent"];
  if (!ind) {
    info_.independentVelocities = info_.velocities;
    return;
  }
  sequence(ind, "independent");
  for (size_t i = 0; i < ind.size(); ++i) {
    const std::string v = ind[i].IsScalar() ? ind[i].Scalar() : "";
    if (velocityIndex(v) < 0)
      fail("independent", ind[i],
           "'" + v + "' is not a velocity (velocities: " + namesOrNone(info_.velocities) + ")");
    info_.independentVelocities.push_back(v);
  }
}

void Loader::readStateOrder() {
  std::vector<std::string> all = info_.coordinates;
  all.insert(all.end(), info_.velocities.begin(), info_.velocities.end());
  const YAML::Node order = root_["state_order"];
  if (!order) {
    info_.stateOrder = all;
    return;
  }
  sequence(order, "state_order");
  std::vector<std::string> names;
  for (size_t i = 0; i < order.size(); ++i)
    names.push_back(order[i].IsScalar() ? order[i].Scalar() : "");
  std::vector<std::string> a = names, b = all;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  if (a != b)
    fail("state_order", order,
         "must list every coordinate and velocity once (" + namesOrNone(all) + ")");
  info_.stateOrder = names;
}

void Loader::readQuaternions() {
  const YAML::Node quats = root_["quaternions"];
  if (!quats) return;
  const int n = static_cast<int>(info_.coordinates.size());
  sequence(quats, "quaternions");
  for (size_t i = 0; i < quats.size(); ++i) {
    const int first = coordinateIndex(quats[i].IsScalar() ? quats[i].Scalar() : "");
    if (first < 0 || first + 4 > n)
      fail("quaternions", quats[i],
           "expected a coordinate followed by three more (w, x, y, z of a unit quaternion)");
    info_.quaternions.push_back({first});
  }
}

void Loader::readStateLimits() {
  const YAML::Node limits = root_["state_limits"];
  if (!limits) return;
  sequence(limits, "state_limits");
  for (size_t i = 0; i < limits.size(); ++i) {
    const std::string key = "state_limits[" + std::to_string(i + 1) + "]";
    const YAML::Node l = limits[i];
    checkMap(l, key, {"name", "min", "max", "min_exclusive", "max_exclusive"});
    ParameterInfo p;
    p.name = scalar(l["name"], key + ".name", "a coordinate or velocity");
    if (coordinateIndex(p.name) < 0 && velocityIndex(p.name) < 0)
      fail(key + ".name", l["name"], "'" + p.name + "' is neither a coordinate nor a velocity");
    if (l["min"]) p.min = number(l["min"], key + ".min");
    if (l["max"]) p.max = number(l["max"], key + ".max");
    if (l["min_exclusive"]) p.minExclusive = boolean(l["min_exclusive"], key + ".min_exclusive");
    if (l["max_exclusive"]) p.maxExclusive = boolean(l["max_exclusive"], key + ".max_exclusive");
    info_.stateLimits.push_back(p);
  }
}

// cyclic (coordinates the equations do not read) and dependent (those the holonomic
// constraints are solved for).
void Loader::readCoordinateLists() {
  auto coordinateList = [&](const char* key, std::vector<std::string>& out) {
    const YAML::Node list = root_[key];
    if (!list) return;
    sequence(list, key);
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string c = list[i].IsScalar() ? list[i].Scalar() : "";
      if (coordinateIndex(c) < 0)
        fail(key, list[i],
             "'" + c + "' is not a coordinate (coordinates: " + namesOrNone(info_.coordinates) +
                 ")");
      if (std::find(out.begin(), out.end(), c) != out.end())
        fail(key, list[i], "'" + c + "' is listed twice");
      out.push_back(c);
    }
  };
  coordinateList("cyclic", info_.cyclicCoordinates);
  coordinateList("dependent", info_.dependentCoordinates);
  for (const std::string& c : info_.dependentCoordinates)
    if (std::find(info_.cyclicCoordinates.begin(), info_.cyclicCoordinates.end(), c) !=
        info_.cyclicCoordinates.end())
      fail("dependent", root_["dependent"],
           "'" + c +
               "' is also cyclic: a coordinate the holonomic constraints fix is read by "
               "the equations through them");
  if (!info_.dependentCoordinates.empty() &&
      info_.dependentCoordinates.size() != data_->holonomic.size())
    fail("dependent", root_["dependent"],
         "expected as many coordinates as holonomic constraints (" +
             std::to_string(data_->holonomic.size()) + ")");
}

// parameter_checks: expressions of the parameters that must be positive (or nonnegative).
void Loader::readParameterChecks() {
  const YAML::Node checks = root_["parameter_checks"];
  if (!checks) return;
  sequence(checks, "parameter_checks");
  Scope parametersOnly;
  parametersOnly.time = parametersOnly.coordinates = parametersOnly.velocities = false;
  parametersOnly.definitions = 0;
  for (size_t i = 0; i < checks.size(); ++i) {
    const std::string key = "parameter_checks[" + std::to_string(i + 1) + "]";
    const YAML::Node c = checks[i];
    checkMap(c, key, {"positive", "nonnegative", "message"});
    if (!c["positive"] == !c["nonnegative"])
      fail(key, c, "expected one of 'positive' or 'nonnegative' (an expression of the parameters)");
    ParameterCheck check;
    check.strict = static_cast<bool>(c["positive"]);
    const char* which = check.strict ? "positive" : "nonnegative";
    check.expression = expression(c[which], key + "." + which, parametersOnly);
    if (!c["message"]) fail(key + ".message", c, "missing: a message saying what is allowed");
    check.message = scalar(c["message"], key + ".message", "a message saying what is allowed");
    data_->parameterChecks.push_back(std::move(check));
  }
}
// labels: {lambda_1: {label: friction force x, unit: N}, vx: {unit: m/s}} — optional words
// and units for the recorded variables, shown by the app's plots.
void Loader::readLabels() {
  const YAML::Node labels = root_["labels"];
  if (!labels) return;
  if (!labels.IsMap()) fail("labels", labels, "expected a map of variable names");
  const int multipliers = info_.constraintCount + info_.holonomicCount;
  for (const auto& kv : labels) {
    const std::string name = kv.first.Scalar();
    const std::string key = "labels." + name;
    bool known = coordinateIndex(name) >= 0 || velocityIndex(name) >= 0 || name == "energy" ||
                 name == "energy_frame" ||
                 std::find(info_.outputs.begin(), info_.outputs.end(), name) != info_.outputs.end();
    for (int i = 1; i <= multipliers && !known; ++i) known = name == "lambda_" + std::to_string(i);
    if (!known)
      fail(key, kv.first,
           "'" + name +
               "' is not a coordinate, a velocity, energy, energy_frame or lambda_1 … lambda_" +
               std::to_string(multipliers));
    checkMap(kv.second, key, {"label", "unit"});
    VariableLabel v{name, "", ""};
    if (kv.second["label"]) v.label = scalar(kv.second["label"], key + ".label", "words");
    if (kv.second["unit"]) v.unit = scalar(kv.second["unit"], key + ".unit", "a unit");
    const bool state = coordinateIndex(name) >= 0 || velocityIndex(name) >= 0;
    if (state && !v.unit.empty()) {
      const auto old = info_.stateUnits.find(name);
      if (old != info_.stateUnits.end() && old->second != v.unit)
        fail(key + ".unit", kv.second["unit"],
             "unit '" + v.unit + "' disagrees with 'units." + name + ": " + old->second +
                 "' (give a variable's unit once, in labels)");
      info_.stateUnits[name] = v.unit;
    }
    info_.variableLabels.push_back(std::move(v));
  }
}

// The older key `units: {x: m, vx: m/s}` says what `labels: {x: {unit: m}}` says: a state
// variable it names that labels leave without a unit gets it there too, so that plots and the
// initial-condition fields show the same unit whichever form a file uses.
void Loader::unitsIntoLabels() {
  for (const auto& entry : info_.stateUnits) {
    // (Not a structured binding: clang 14 does not let a lambda capture one.)
    const std::string& name = entry.first;
    const std::string& unit = entry.second;
    auto it = std::find_if(info_.variableLabels.begin(), info_.variableLabels.end(),
                           [&name](const VariableLabel& v) { return v.name == name; });
    if (it == info_.variableLabels.end())
      info_.variableLabels.push_back(VariableLabel{name, "", unit});
    else if (it->unit.empty())
      it->unit = unit;
  }
}
}  // namespace nh::model::loader
// SPDX-License-Identifier: GPL-3.0-or-later
