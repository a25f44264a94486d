#include "core/nh/system.h"

#include <cmath>
#include <cstdio>

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

SystemModel::SystemModel(SystemInfo info) : info_(std::move(info)) {}

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
