// `nhsim lyapunov` (lyapunov_command.h): the estimate of the core's lyapunovExponents written
// as a table (index, at T/2, at T) or as one JSON object.
#include "app/nhsim/lyapunov_command.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "app/nhsim/cli_support.h"
#include "core/model/catalogue.h"
#include "core/nh/jacobi_fields.h"
#include "core/nh/scenario.h"

namespace nh::cli {

namespace {

void writeText(const Scenario& s, const LyapunovEstimate& e) {
  std::string text = "Lyapunov exponents of " + s.system + " (" + toString(s.integrator.method) +
                     ", estimated every " + formatValue(s.dtOut) +
                     " s) on its constraint manifold of dimension " + std::to_string(e.dimension) +
                     ":\n";
  char line[160];
  std::snprintf(line, sizeof line, "  %3s  %22s  %22s\n", "i",
                ("t = " + formatValue(e.tHalf)).c_str(), ("t = " + formatValue(e.tEnd)).c_str());
  text += line;
  for (std::size_t i = 0; i < e.end.size(); ++i) {
    std::snprintf(line, sizeof line, "  %3zu  %22.12g  %22.12g\n", i + 1,
                  i < e.half.size() ? e.half[i] : e.end[i], e.end[i]);
    text += line;
  }
  writeStdout(text);
}

void writeJson(const Scenario& s, const LyapunovEstimate& e) {
  nlohmann::ordered_json root;
  root["system"] = s.system;
  root["integrator"] = toString(s.integrator.method);
  root["dimension"] = e.dimension;
  root["dt_out"] = s.dtOut;
  root["t_half"] = e.tHalf;
  root["t_end"] = e.tEnd;
  root["exponents_half"] = e.half;
  root["exponents"] = e.end;
  root["steps"] = e.steps;
  writeStdout(root.dump() + "\n");
}

}  // namespace

int lyapunovCommand(const LyapunovOptions& command) {
  const Scenario& scenario = command.scenario.resolved;
  const LyapunovEstimate estimate =
      lyapunovExponents(findSystem(scenario.system), scenario, command.countValue);
  if (command.json)
    writeJson(scenario, estimate);
  else
    writeText(scenario, estimate);
  return kOk;
}

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
