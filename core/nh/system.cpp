// SystemModel's shared parts (system.h): a parameter's allowed range and its text, the
// coordinates' labels and indices checked at construction (cyclic, dependent), default
// parameters, and the refusals of a system without controls.
#include "core/nh/system.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "core/nh/errors.h"

namespace nh {

namespace {
std::string bound(double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}
}  // namespace

bool ParameterInfo::allows(double v) const {
  if (!std::isfinite(v)) return false;
  if (minExclusive ? !(v > min) : !(v >= min)) return false;
  if (maxExclusive ? !(v < max) : !(v <= max)) return false;
  return true;
}

std::string ParameterInfo::rangeText() const {
  std::string text(minExclusive || std::isinf(min) ? "(" : "[");
  text += bound(min);
  text += ", ";
  text += bound(max);
  text += maxExclusive || std::isinf(max) ? ")" : "]";
  return text;
}

const VariableLabel* findVariableLabel(const SystemInfo& info, const std::string& name) {
  for (const VariableLabel& v : info.variableLabels)
    if (v.name == name) return &v;
  return nullptr;
}

SystemModel::SystemModel(SystemInfo info) : info_(std::move(info)) {
  auto indices = [&](const std::vector<std::string>& names, const char* what) {
    std::vector<int> out;
    for (const std::string& name : names) {
      const int i = coordinateIndex(name);
      if (i < 0)
        throw std::logic_error("system '" + info_.name + "' declares " + what + " coordinate '" +
                               name + "', which it does not have");
      out.push_back(i);
    }
    return out;
  };
  cyclic_ = indices(info_.cyclicCoordinates, "the cyclic");
  dependent_ = indices(info_.dependentCoordinates, "the dependent");
  for (int i : dependent_)
    if (std::find(cyclic_.begin(), cyclic_.end(), i) != cyclic_.end())
      throw std::logic_error("system '" + info_.name + "' declares '" + info_.coordinates[i] +
                             "' both cyclic and dependent");
  if (!dependent_.empty() && static_cast<int>(dependent_.size()) != info_.holonomicCount)
    throw std::logic_error("system '" + info_.name +
                           "' must declare as many dependent coordinates as holonomic "
                           "constraints");
}

int SystemModel::coordinateIndex(const std::string& name) const {
  for (size_t i = 0; i < info_.coordinates.size(); ++i)
    if (info_.coordinates[i] == name) return static_cast<int>(i);
  return -1;
}

std::vector<double> SystemModel::defaultParameters() const {
  std::vector<double> values;
  for (const ParameterInfo& p : info_.parameters) values.push_back(p.defaultValue);
  return values;
}

int SystemModel::parameterIndex(const std::string& name) const {
  for (size_t i = 0; i < info_.parameters.size(); ++i)
    if (info_.parameters[i].name == name) return static_cast<int>(i);
  return -1;
}

}  // namespace nh

namespace nh {

void SystemModel::controlSection(const double* /*p*/, const Sym& /*t*/, const Sym* /*q*/,
                                 const Sym* /*u*/, Sym* /*f*/) const {
  throw InputError("'" + name() + "' has no controls (it is not a control model)");
}

Sym SystemModel::cost(const double* /*p*/, const Sym& /*t*/, const Sym* /*q*/,
                      const Sym* /*u*/) const {
  throw InputError("'" + name() + "' has no controls (it is not a control model)");
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
