// `nhsim linearize` (linearize_command.h): the eigenvalues at one point as text or JSON, or a
// row per value of a swept parameter or state variable (NAME=FROM:TO:N) as CSV.
#include "app/nhsim/linearize_command.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "app/nhsim/cli_support.h"
#include "app/nhsim/linearize_point.h"
#include "core/model/catalogue.h"
#include "core/nh/linearize.h"
#include "core/nh/messages.h"
#include "core/nh/scenario.h"

namespace nh::cli {

namespace {
struct Sweep {
  std::string name;
  double from = 0, to = 0;
  long count = 0;
  bool isParameter = false;
};

// NAME=FROM:TO:N
Sweep parseSweep(const std::string& text) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw UsageError("--sweep expects NAME=FROM:TO:N, got " + quote(text));
  Sweep s;
  s.name = text.substr(0, eq);
  const std::string rest = text.substr(eq + 1);
  const size_t c1 = rest.find(':');
  const size_t c2 = c1 == std::string::npos ? c1 : rest.find(':', c1 + 1);
  if (c2 == std::string::npos || rest.find(':', c2 + 1) != std::string::npos)
    throw UsageError("--sweep expects NAME=FROM:TO:N, got " + quote(text));
  s.from = parseNumber(rest.substr(0, c1), "--sweep FROM");
  s.to = parseNumber(rest.substr(c1 + 1, c2 - c1 - 1), "--sweep TO");
  const std::string countText = rest.substr(c2 + 1);
  long count = 0;
  const char* end = countText.data() + countText.size();
  const auto read = std::from_chars(countText.data(), end, count);
  if (read.ptr != end || read.ec != std::errc() || count < 1 || count > 1000000)
    throw UsageError("--sweep: N must be a whole number from 1 to 1000000, got " +
                     quote(countText));
  s.count = count;
  return s;
}

// Sets sweep.isParameter, or checks that the swept name is an independent state variable (an
// independent velocity, or a coordinate that is not dependent) of `system`.
void classifySweep(Sweep& sweep, const SystemModel& system) {
  if (system.parameterIndex(sweep.name) >= 0) {
    sweep.isParameter = true;
    return;
  }
  const SystemInfo& info = system.info();
  const bool independentVelocity =
      std::find(info.independentVelocities.begin(), info.independentVelocities.end(), sweep.name) !=
      info.independentVelocities.end();
  const auto& dependent = info.dependentCoordinates;
  auto isDependent = [&](const std::string& c) {
    return std::find(dependent.begin(), dependent.end(), c) != dependent.end();
  };
  const bool coordinate = system.coordinateIndex(sweep.name) >= 0 && !isDependent(sweep.name);
  if (independentVelocity || coordinate) return;
  std::vector<std::string> known;
  for (const auto& p : info.parameters) known.push_back(p.name);
  for (const auto& c : info.coordinates)
    if (!isDependent(c)) known.push_back(c);
  known.insert(known.end(), info.independentVelocities.begin(), info.independentVelocities.end());
  throw UsageError("--sweep: " + quote(sweep.name) + " is neither a parameter nor an " +
                   "independent state variable of '" + system.name() + "' (" + joined(known) + ")");
}

// The value of point i of the sweep: FROM, TO and the points evenly between them.
double sweepValue(const Sweep& sweep, long i) {
  if (sweep.count == 1) return sweep.from;
  if (i == sweep.count - 1) return sweep.to;
  return sweep.from +
         (sweep.to - sweep.from) * static_cast<double>(i) / static_cast<double>(sweep.count - 1);
}

// Notes and warnings, written once every point has been linearised: a command that fails
// part way prints its error line only. Each kind (a note, the cyclic coupling, not an
// equilibrium) is written once, at its first point, with the number of other points of a
// sweep that gave it: a sweep of 10^5 points prints a few lines, not 10^5.
class Messages {
 public:
  // `text` as linearizeAt gives it: a note ("note") or a warning (any other kind).
  void add(const std::string& kind, const std::string& text) {
    messages_.emplace_back(kind, (kind == "note" ? "nhsim: note: " : "nhsim: warning: ") + text);
  }
  LinearizeMessages sink() {
    return [this](const std::string& kind, const std::string& text) { add(kind, text); };
  }
  void flush() const {
    std::vector<std::string> kinds;
    std::map<std::string, std::pair<std::string, long>> first;  // kind → first line, count
    for (const auto& [kind, line] : messages_) {
      auto [it, inserted] = first.try_emplace(kind, line, 0);
      if (inserted) kinds.push_back(kind);
      ++it->second.second;
    }
    for (const auto& kind : kinds) {
      const auto& [line, count] = first[kind];
      std::string text = line;
      if (count > 1)
        text += " (and at " + std::to_string(count - 1) + " more point" + (count > 2 ? "s" : "") +
                " of the sweep)";
      std::fputs((text + "\n").c_str(), stderr);
    }
  }

 private:
  std::vector<std::pair<std::string, std::string>> messages_;  // kind, line without "\n"
};

nlohmann::ordered_json eigenvaluesJson(const Linearization& lin) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& e : lin.eigenvalues) list.push_back({e.real(), e.imag()});
  return list;
}

// One point: its eigenvalues, "RE IM" a line, or as JSON with the state.
int writePoint(const std::shared_ptr<const SystemModel>& system, const Scenario& scenario,
               bool json) {
  Messages messages;
  const Point p = linearizeAt(system, scenario, messages.sink());
  messages.flush();
  if (!json) {
    std::string text;
    for (const auto& e : p.lin.eigenvalues)
      text.append(formatValue(e.real())).append(" ").append(formatValue(e.imag())).append("\n");
    writeStdout(text);
    return kOk;
  }
  const StateLayout layout = stateLayout(*system, DynamicsKind::Nonholonomic);
  nlohmann::ordered_json root;
  root["system"] = system->name();
  root["variables"] = p.lin.variables;
  nlohmann::ordered_json point = nlohmann::ordered_json::object();
  for (size_t i = 0; i < layout.names.size(); ++i) point[layout.names[i]] = p.x[layout.index[i]];
  root["point"] = point;
  root["eigenvalues"] = eigenvaluesJson(p.lin);
  writeStdout(root.dump() + "\n");
  return kOk;
}

// The CSV row of one sweep point: the value, each eigenvalue's real and imaginary parts and
// the largest real part.
std::string sweepRow(double value, const Linearization& lin) {
  std::string line = formatValue(value);
  double maxRe = -std::numeric_limits<double>::infinity();
  for (const auto& e : lin.eigenvalues) {
    line.append(",").append(formatValue(e.real())).append(",").append(formatValue(e.imag()));
    maxRe = std::max(maxRe, e.real());
  }
  return line.append(",").append(formatValue(lin.eigenvalues.empty() ? std::nan("") : maxRe)) +
         "\n";
}

// The sweep's CSV header, with the conventions of `nhsim sweep`: "# " comment lines, then
// one header line.
std::string sweepHeader(const std::vector<std::string>& args, const SystemModel& system,
                        const Scenario& scenario, const Sweep& sweep,
                        const std::vector<std::string>& variables) {
  std::string header = "# " + commandEcho(args) + "\n";
  header += "# system: " + system.name() + " (" + toString(DynamicsKind::Nonholonomic) + ", " +
            toString(scenario.formulation) + "), linearised at t = 0\n";
  header += "# sweep: " + sweep.name + "=" + formatValue(sweep.from) + ":" + formatValue(sweep.to) +
            ":" + std::to_string(sweep.count) +
            (sweep.isParameter ? " (parameter)" : " (initial value)") + "\n";
  header += "# variables: " + oneLine(joined(variables)) + "\n";
  header += "# re_i, im_i: eigenvalue i; max_re: the largest real part (> 0: unstable)\n";
  header += sweep.name;
  for (size_t i = 1; i <= variables.size(); ++i)
    header += ",re_" + std::to_string(i) + ",im_" + std::to_string(i);
  return header + ",max_re\n";
}

// The eigenvalues over the sweep, as CSV (sweepHeader, then a row a point) or JSON; written
// once every point has been linearised.
int writeSweep(const std::shared_ptr<const SystemModel>& system, const Scenario& scenario,
               const Sweep& sweep, bool json, const std::vector<std::string>& args) {
  Messages messages;
  const StateLayout layout = stateLayout(*system, DynamicsKind::Nonholonomic);
  nlohmann::ordered_json values = nlohmann::ordered_json::array(),
                         eigenvalues = nlohmann::ordered_json::array();
  std::vector<std::string> variables;
  std::string rows;
  for (long i = 0; i < sweep.count; ++i) {
    const double value = sweepValue(sweep, i);
    Scenario s = scenario;
    (sweep.isParameter ? s.parameters : s.initial)[sweep.name] = value;
    const Point p = linearizeAt(system, s, messages.sink());
    if (!sweep.isParameter) {  // the constraints may not allow the value (completion moves it)
      const double used = p.x[layout.index[layout.find(sweep.name)]];
      if (!(std::abs(used - value) <= 1e-12 * std::max(1.0, std::abs(value))))
        throw InputError("--sweep: " + sweep.name + " = " + formatValue(value) +
                         " does not satisfy the constraints of '" + system->name() +
                         "' (completion changed it to " + formatValue(used) + ")");
    }
    if (variables.empty()) variables = p.lin.variables;
    if (json) {
      values.push_back(value);
      eigenvalues.push_back(eigenvaluesJson(p.lin));
    } else {
      rows += sweepRow(value, p.lin);
    }
  }
  messages.flush();
  if (!json) {
    writeStdout(sweepHeader(args, *system, scenario, sweep, variables) + rows);
    return kOk;
  }
  nlohmann::ordered_json root;
  root["system"] = system->name();
  root["sweep"] = sweep.name;
  root["values"] = values;
  root["variables"] = variables;
  root["eigenvalues"] = eigenvalues;
  writeStdout(root.dump() + "\n");
  return kOk;
}

}  // namespace

int linearizeCommand(const LinearizeOptions& command, const std::vector<std::string>& args) {
  const Scenario& scenario = command.scenario.resolved;
  std::optional<Sweep> sweep;
  if (!command.sweep.empty()) sweep = parseSweep(command.sweep);
  requireNonholonomic(scenario);
  const auto system = findSystem(scenario.system);
  if (!sweep) return writePoint(system, scenario, command.json);
  classifySweep(*sweep, *system);
  return writeSweep(system, scenario, *sweep, command.json, args);
}

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
