// The comparison run beside a scenario's (comparison.h): its dynamics (nonholonomic ↔
// vakonomic), its parameters (a ghost's one changed value) and its RunSetup from the primary's.
#include "core/nh/comparison.h"

#include <algorithm>

#include "core/nh/errors.h"
#include "core/nh/scenario.h"

namespace nh {

DynamicsKind comparisonDynamics(DynamicsKind primary, CompareMode mode) {
  if (mode != CompareMode::Vakonomic) return primary;
  return primary == DynamicsKind::Nonholonomic ? DynamicsKind::Vakonomic
                                               : DynamicsKind::Nonholonomic;
}

std::vector<double> comparisonParameters(const SystemModel& system,
                                         const std::vector<double>& primary,
                                         const Comparison& comparison) {
  std::vector<double> p = primary;
  if (comparison.mode != CompareMode::Ghost) return p;
  const int i = system.parameterIndex(comparison.ghostParameter);
  if (i < 0)
    throw InputError("the ghost run's parameter '" + comparison.ghostParameter.substr(0, 60) +
                     "' is not a parameter of " + system.name());
  const ParameterInfo& info = system.info().parameters[static_cast<size_t>(i)];
  if (!info.allows(comparison.ghostValue))
    throw InputError("ghost value of '" + comparison.ghostParameter + "' must be in " +
                     info.rangeText() + ", got " + formatValue(comparison.ghostValue));
  p[static_cast<size_t>(i)] = comparison.ghostValue;
  return p;
}

RunSetup comparisonSetup(const RunSetup& primary, const Comparison& comparison) {
  RunSetup c = primary;
  c.dynamics = comparisonDynamics(primary.dynamics, comparison.mode);
  c.formulation = formulationFor(c.dynamics, primary.formulation);
  c.parameters = comparisonParameters(*primary.system, primary.parameters, comparison);
  if (comparison.mode == CompareMode::Integrator) {
    c.options.method = comparison.method;
    c.options.step = comparison.step;
  }
  return c;
}

std::shared_ptr<const EquationsOfMotion> equationsFor(
    const RunSetup& setup, std::shared_ptr<const EquationsOfMotion>& last) {
  if (!last || last->systemPtr() != setup.system || last->dynamics() != setup.dynamics ||
      last->formulation() != setup.formulation) {
    last = std::make_shared<const EquationsOfMotion>(setup.system, setup.dynamics,
                                                     setup.formulation, setup.parameters);
    return last;
  }
  if (last->parameters() == setup.parameters) return last;
  std::vector<int> free = last->freeParameters();
  bool allFree = true;
  for (size_t i = 0; i < setup.parameters.size() && i < last->parameters().size(); ++i) {
    if (setup.parameters[i] == last->parameters()[i]) continue;
    if (std::find(free.begin(), free.end(), static_cast<int>(i)) == free.end()) {
      free.push_back(static_cast<int>(i));
      allFree = false;
    }
  }
  std::shared_ptr<const EquationsOfMotion> base = last;
  if (!allFree) base = std::make_shared<const EquationsOfMotion>(last->withFreeParameters(free));
  last = std::make_shared<const EquationsOfMotion>(base->withParameters(setup.parameters));
  return last;
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
