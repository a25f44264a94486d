#include "ui/sim/run_style.h"

#include "core/nh/scenario.h"
#include "core/nh/system.h"
#include "ui/sim/simulation_controller.h"

namespace nhui {

QString runLabel(const SimulationController& c, int run) {
  if (run != 0 && !c.comparison()) return {};
  if (c.compareMode() == CompareMode::Integrator) {
    // Each run by its integrator, and by its fixed step when the two runs' steps differ.
    const nh::IntegratorOptions options = c.runIntegrator(run), other = c.runIntegrator(1 - run);
    std::string text = nh::toString(options.method);
    if (nh::isFixedStep(options.method) && options.step != other.step)
      text += ", h = " + nh::formatValue(options.step);
    return QString::fromStdString(text);
  }
  if (c.compareMode() != CompareMode::Ghost) {
    const RunHistory* h = run == 0 ? &c.primary() : c.comparison();
    return QString::fromStdString(nh::toString(h->dynamics()));
  }
  const std::string& name = c.ghostParameter();
  const int i = c.system().parameterIndex(name);
  const double value = run == 0 && i >= 0 ? c.parameters()[i] : c.ghostValue();
  const std::string shown = i >= 0 ? displayName(c.system().info().parameters[i]) : name;
  return QString::fromStdString(ghostLabel(shown, value));
}

std::string displayName(const nh::ParameterInfo& parameter) {
  return parameter.label.empty() ? parameter.name : parameter.label;
}

std::string ghostLabel(const std::string& parameter, double value) {
  return parameter + " = " + nh::formatValue(value);
}

std::string comparisonLegendLine(const std::string& primaryLabel, const std::string& otherLabel) {
  return std::string(kRunStyles[0].colourName) + ": " + primaryLabel + "   " +
         kRunStyles[1].colourName + ": " + otherLabel;
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
