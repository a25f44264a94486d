#include "app/nhsim/linearize_command.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "app/nhsim/cli_support.h"
#include "core/model/catalogue.h"
#include "core/nh/linearize.h"
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
  char* end = nullptr;
  errno = 0;
  const long count = std::strtol(countText.c_str(), &end, 10);
  if (countText.empty() || *end != '\0' || errno == ERANGE || count < 1 || count > 1000000)
    throw UsageError("--sweep: N must be a whole number from 1 to 1000000, got " +
                     quote(countText));
  s.count = count;
  return s;
}

std::string number(double v) { return formatValue(v); }

void write(const std::string& text) { writeStdout(text); }

}  // namespace

int linearizeCommand(const CommandLine& command, const std::vector<std::string>& args) {
  const Scenario& scenario = command.scenario;
  const bool json = command.json;
  std::optional<Sweep> sweep;
  if (!command.sweep.empty()) sweep = parseSweep(command.sweep);
  if (scenario.dynamics != DynamicsKind::Nonholonomic)
    throw UsageError("linearize works on the nonholonomic equations (--dynamics nonholonomic)");
  const auto system = findSystem(scenario.system);
  const SystemInfo& info = system->info();
  if (sweep) {
    if (system->parameterIndex(sweep->name) >= 0) {
      sweep->isParameter = true;
    } else {
      const bool independentVelocity =
          std::find(info.independentVelocities.begin(), info.independentVelocities.end(),
                    sweep->name) != info.independentVelocities.end();
      const auto& dependent = info.dependentCoordinates;
      auto isDependent = [&](const std::string& c) {
        return std::find(dependent.begin(), dependent.end(), c) != dependent.end();
      };
      const bool coordinate =
          system->coordinateIndex(sweep->name) >= 0 && !isDependent(sweep->name);
      if (!independentVelocity && !coordinate) {
        std::string known;
        for (const auto& p : info.parameters) known += (known.empty() ? "" : ", ") + p.name;
        for (const auto& c : info.coordinates)
          if (!isDependent(c)) known += (known.empty() ? "" : ", ") + c;
        for (const auto& v : info.independentVelocities) known += (known.empty() ? "" : ", ") + v;
        throw UsageError("--sweep: " + quote(sweep->name) + " is neither a parameter nor an " +
                         "independent state variable of '" + system->name() + "' (" + known + ")");
      }
    }
  }

  struct Point {
    std::vector<double> x;
    Linearization lin;
  };
  // Notes and warnings, written once every point has been linearised: a command that fails
  // part way prints its error line only. Each kind (a note, the cyclic coupling, not an
  // equilibrium) is written once, at its first point, with the number of other points of a
  // sweep that gave it: a sweep of 10^5 points prints a few lines, not 10^5.
  std::vector<std::pair<std::string, std::string>> messages;  // kind, line without "\n"
  auto flushMessages = [&] {
    std::vector<std::string> kinds;
    std::map<std::string, std::pair<std::string, long>> first;  // kind → first line, count
    for (const auto& [kind, line] : messages) {
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
  };
  const StateLayout layout = stateLayout(*system, DynamicsKind::Nonholonomic);
  auto at = [&](const Scenario& s) {
    const std::vector<double> parameters = resolveParameters(*system, s.parameters);
    const EquationsOfMotion equations(system, DynamicsKind::Nonholonomic, s.formulation,
                                      parameters);
    std::vector<std::string> notes;
    Point p;
    p.x = initialState(equations, 0.0, s.initial, &notes);
    for (const auto& note : notes) messages.emplace_back("note", "nhsim: note: " + note);
    p.lin = linearize(equations, 0.0, p.x);
    if (!(p.lin.cyclicCoupling < 1e-9))
      messages.emplace_back("cyclic", "nhsim: warning: the coordinates '" + system->name() +
                                          "' declares cyclic are read by its equations at this "
                                          "state (relative " +
                                          number(p.lin.cyclicCoupling) +
                                          "): the reduction is not exact");
    if (!p.lin.equilibrium) {
      std::string rhs;
      const double largest = p.lin.reducedRhs.cwiseAbs().maxCoeff();
      for (int i = 0; i < p.lin.reducedRhs.size(); ++i)
        if (std::abs(p.lin.reducedRhs[i]) > 1e-9 * largest) {
          if (!rhs.empty()) rhs.append(", ");
          rhs.append("d").append(p.lin.variables[i]).append("/dt = ");
          rhs.append(number(p.lin.reducedRhs[i]));
        }
      messages.emplace_back("equilibrium",
                            "nhsim: warning: this state is not an equilibrium of the reduced "
                            "equations (" +
                                rhs + "); the eigenvalues describe the linearisation there");
    }
    return p;
  };

  if (!sweep) {
    const Point p = at(scenario);
    flushMessages();
    if (json) {
      nlohmann::ordered_json root;
      root["system"] = system->name();
      root["variables"] = p.lin.variables;
      nlohmann::ordered_json point = nlohmann::ordered_json::object();
      for (size_t i = 0; i < layout.names.size(); ++i)
        point[layout.names[i]] = p.x[layout.index[i]];
      root["point"] = point;
      nlohmann::ordered_json list = nlohmann::ordered_json::array();
      for (const auto& e : p.lin.eigenvalues) list.push_back({e.real(), e.imag()});
      root["eigenvalues"] = list;
      write(root.dump() + "\n");
    } else {
      std::string text;
      for (const auto& e : p.lin.eigenvalues) {
        text.append(number(e.real()));
        text.push_back(' ');
        text.append(number(e.imag()));
        text.push_back('\n');
      }
      write(text);
    }
    return kOk;
  }

  nlohmann::ordered_json values = nlohmann::ordered_json::array(),
                         eigenvalues = nlohmann::ordered_json::array();
  std::vector<std::string> variables;
  std::string text;
  for (long i = 0; i < sweep->count; ++i) {
    const double value =
        sweep->count == 1
            ? sweep->from
            : (i == sweep->count - 1
                   ? sweep->to
                   : sweep->from + (sweep->to - sweep->from) * static_cast<double>(i) /
                                       static_cast<double>(sweep->count - 1));
    Scenario s = scenario;
    if (sweep->isParameter)
      s.parameters[sweep->name] = value;
    else
      s.initial[sweep->name] = value;
    const Point p = at(s);
    if (!sweep->isParameter) {  // the constraints may not allow the value (completion moves it)
      const int pos = layout.find(sweep->name);
      const double used = p.x[layout.index[pos]];
      if (!(std::abs(used - value) <= 1e-12 * std::max(1.0, std::abs(value))))
        throw InputError("--sweep: " + sweep->name + " = " + number(value) +
                         " does not satisfy the constraints of '" + system->name() +
                         "' (completion changed it to " + number(used) + ")");
    }
    if (variables.empty()) variables = p.lin.variables;
    if (json) {
      values.push_back(value);
      nlohmann::ordered_json list = nlohmann::ordered_json::array();
      for (const auto& e : p.lin.eigenvalues) list.push_back({e.real(), e.imag()});
      eigenvalues.push_back(list);
    } else {
      std::string line = number(value);
      double maxRe = -std::numeric_limits<double>::infinity();
      for (const auto& e : p.lin.eigenvalues) {
        line.push_back(',');
        line.append(number(e.real()));
        line.push_back(',');
        line.append(number(e.imag()));
        maxRe = std::max(maxRe, e.real());
      }
      line.push_back(',');
      line.append(number(p.lin.eigenvalues.empty() ? std::nan("") : maxRe));
      line.push_back('\n');
      text.append(line);  // written once every value has been linearised
    }
  }
  flushMessages();
  if (!json) {
    // The conventions of `nhsim sweep`: "# " comment lines, one header line, then the rows.
    std::string header = "# " + commandEcho(args) + "\n";
    header += "# system: " + system->name() + " (nonholonomic, " +
              nh::toString(scenario.formulation) + "), linearised at t = 0\n";
    header += "# sweep: " + sweep->name + "=" + number(sweep->from) + ":" + number(sweep->to) +
              ":" + std::to_string(sweep->count) +
              (sweep->isParameter ? " (parameter)" : " (initial value)") + "\n";
    std::string names;
    for (const auto& v : variables) names += (names.empty() ? "" : ", ") + v;
    header += "# variables: " + oneLine(names) + "\n";
    header += "# re_i, im_i: eigenvalue i; max_re: the largest real part (> 0: unstable)\n";
    header += sweep->name;
    const size_t eigenvalueCount = variables.size();
    for (size_t i = 1; i <= eigenvalueCount; ++i)
      header += ",re_" + std::to_string(i) + ",im_" + std::to_string(i);
    write(header + ",max_re\n" + text);
  }
  if (json) {
    nlohmann::ordered_json root;
    root["system"] = system->name();
    root["sweep"] = sweep->name;
    root["values"] = values;
    root["variables"] = variables;
    root["eigenvalues"] = eigenvalues;
    write(root.dump() + "\n");
  }
  return kOk;
}

}  // namespace nh::cli
