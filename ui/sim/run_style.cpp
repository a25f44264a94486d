// The words for the two runs of a comparison (run_style.h): each run's label, a parameter's
// display name, unit and value, the ghost's label, and the legend's and the scene's lines.
#include "ui/sim/run_style.h"

#include <cstdio>

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
  return QString::fromStdString(i >= 0 ? displayValue(c.system().info().parameters[i], value)
                                       : ghostLabel(name, value));
}

std::string displayName(const nh::ParameterInfo& parameter) {
  return parameter.label.empty() ? parameter.name : parameter.label;
}

std::string displayUnit(const nh::ParameterInfo& parameter) {
  return parameter.unit == "-" ? std::string() : parameter.unit;
}

std::string displayHeading(const nh::ParameterInfo& parameter) {
  const std::string unit = displayUnit(parameter);
  return unit.empty() ? displayName(parameter) : displayName(parameter) + " [" + unit + "]";
}

std::string displayValue(const nh::ParameterInfo& parameter, double value) {
  const std::string unit = displayUnit(parameter);
  std::string text = displayName(parameter) + " = " + nh::formatValue(value);
  if (!unit.empty()) {
    text += ' ';
    text += unit;
  }
  return text;
}

std::string ghostLabel(const std::string& parameter, double value) {
  return parameter + " = " + nh::formatValue(value);
}

std::string leftSceneLine(const std::string& otherLabel, double leftAt, double extents) {
  char t[64], n[32];
  std::snprintf(t, sizeof t, "%.2f", leftAt);
  std::snprintf(n, sizeof n, "%g", extents);
  std::string line = std::string(kRunStyles[1].colourName) + " run";
  if (!otherLabel.empty()) line += " (" + otherLabel + ")";
  line += " left the scene at t = ";
  line += t;
  line += " s: over ";
  line += n;
  line += " scene sizes from the ";
  line += kRunStyles[0].colourName;
  line += " run, it is no longer drawn; the plots show it on";
  return line;
}

std::string comparisonLegendLine(const std::string& primaryLabel, const std::string& otherLabel) {
  return std::string(kRunStyles[0].colourName) + ": " + primaryLabel + "   " +
         kRunStyles[1].colourName + ": " + otherLabel;
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
