#include "nhsim.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "csv_writer.h"
#include "nh/catalogue.h"
#include "nh/errors.h"
#include "nh/scenario.h"
#include "scenario_file.h"
#ifdef NH_HAVE_EXPORT
#include "nhsim_export.h"
#endif

namespace nh::cli {

namespace {

const char* kUsage =
    "usage: nhsim list\n"
    "       nhsim info SYSTEM [--json]\n"
    "       nhsim run SYSTEM|SCENARIO.json [--set NAME=VALUE]... [--init NAME=VALUE]...\n"
    "                 [--t-end T] [--dt-out H] [--integrator dopri5|rk78|rk4] [--rtol R]\n"
    "                 [--atol A] [--step H] [--dynamics nonholonomic|vakonomic]\n"
    "                 [--formulation multipliers|gibbs-appell] [--no-projection]\n"
    "                 [--out FILE|-] [--save-scenario FILE] [--quiet]\n";

int list() {
  for (const auto& s : catalogue())
    std::printf("%-18s %s\n", s->name().c_str(), s->info().title.c_str());
  return kOk;
}

int info(const std::vector<std::string>& args) {
  if (args.empty()) throw UsageError("info needs a system name (see 'nhsim list')");
  bool json = false;
  std::string name;
  for (const auto& a : args) {
    if (a == "--json") json = true;
    else if (a.rfind("--", 0) == 0) throw UsageError("unknown option '" + a + "' for info");
    else if (name.empty()) name = a;
    else throw UsageError("info takes one system name, got also '" + a + "'");
  }
  const auto system = findSystem(name);
  const SystemInfo& s = system->info();
  const StateLayout nh = stateLayout(*system, DynamicsKind::Nonholonomic);
  const StateLayout vk = stateLayout(*system, DynamicsKind::Vakonomic);
  if (json) {
    QJsonObject root;
    root.insert("name", QString::fromStdString(s.name));
    root.insert("title", QString::fromStdString(s.title));
    root.insert("description", QString::fromStdString(s.description));
    root.insert("source", QString::fromStdString(s.source));
    root.insert("equations", QString::fromStdString(s.equations));
    root.insert("initialization", QString::fromStdString(s.initialization));
    QJsonArray params;
    for (const auto& p : s.parameters) {
      QJsonObject o;
      o.insert("name", QString::fromStdString(p.name));
      o.insert("unit", QString::fromStdString(p.unit));
      o.insert("description", QString::fromStdString(p.description));
      o.insert("default", p.defaultValue);
      o.insert("range", QString::fromStdString(p.rangeText()));
      if (std::isfinite(p.min)) o.insert("min", p.min);
      if (std::isfinite(p.max)) o.insert("max", p.max);
      o.insert("min_exclusive", p.minExclusive);
      o.insert("max_exclusive", p.maxExclusive);
      params.append(o);
    }
    root.insert("parameters", params);
    QJsonArray state, vstate;
    for (const auto& n : nh.names) state.append(QString::fromStdString(n));
    for (const auto& n : vk.names) vstate.append(QString::fromStdString(n));
    root.insert("state", state);
    root.insert("state_vakonomic", vstate);
    root.insert("constraints", s.constraintCount);
    root.insert("holonomic_constraints", s.holonomicCount);
    std::fputs(QJsonDocument(root).toJson(QJsonDocument::Indented).constData(), stdout);
    return kOk;
  }
  std::printf("%s — %s\n\n%s\n\nSource: %s\n\nEquations:\n", s.name.c_str(), s.title.c_str(),
              s.description.c_str(), s.source.c_str());
  std::printf("  %s\n", QString::fromStdString(s.equations).replace("\n", "\n  ").toStdString().c_str());
  std::printf("\nParameters (--set NAME=VALUE):\n");
  // printf pads by bytes; units like "rad/s²" need padding by characters.
  auto padded = [](const std::string& text, int width) {
    const int characters = QString::fromStdString(text).size();
    return text + std::string(std::max(0, width - characters), ' ');
  };
  for (const auto& p : s.parameters)
    std::printf("  %s %s default %s range %s %s\n", padded(p.name, 14).c_str(),
                padded(p.unit.empty() ? "-" : p.unit, 8).c_str(),
                padded(formatValue(p.defaultValue), 8).c_str(), padded(p.rangeText(), 14).c_str(),
                p.description.c_str());
  std::printf("\nState (--init NAME=VALUE):\n  ");
  for (const auto& n : nh.names) std::printf("%s ", n.c_str());
  if (vk.names.size() > nh.names.size()) {
    std::printf("\n  vakonomic adds: ");
    for (size_t i = nh.names.size(); i < vk.names.size(); ++i) std::printf("%s ", vk.names[i].c_str());
    std::printf("(initial multipliers, default 0)");
  }
  for (const auto& limit : s.stateLimits)
    std::printf("\n  %s must be in %s", limit.name.c_str(), limit.rangeText().c_str());
  std::printf("\n\nInitial velocities: %s\n", s.initialization.c_str());
  std::printf("\nConstraints: %d nonholonomic, %d holonomic\n", s.constraintCount, s.holonomicCount);
  return kOk;
}

struct RunOptions {
  Scenario scenario;
  std::string out = "-";
  std::string saveScenario;
  bool quiet = false;
};

RunOptions parseRun(const std::vector<std::string>& args) {
  if (args.empty()) throw UsageError("run needs a system name or a scenario file");
  RunOptions o;
  o.scenario = loadTarget(args[0]);
  Scenario& s = o.scenario;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) throw UsageError("option " + a + " needs a value");
      return args[++i];
    };
    if (parseScenarioOption(args, i, s)) continue;
    if (a == "--t-end") s.tEnd = parseNumber(value(), "--t-end");
    else if (a == "--dt-out") s.dtOut = parseNumber(value(), "--dt-out");
    else if (a == "--integrator") s.integrator.method = parseIntegrator(value());
    else if (a == "--rtol") s.integrator.rtol = parseNumber(value(), "--rtol");
    else if (a == "--atol") s.integrator.atol = parseNumber(value(), "--atol");
    else if (a == "--step") s.integrator.step = parseNumber(value(), "--step");
    else if (a == "--no-projection") s.integrator.projection = false;
    else if (a == "--out") o.out = value();
    else if (a == "--save-scenario") o.saveScenario = value();
    else if (a == "--quiet") o.quiet = true;
    else throw UsageError("unknown option '" + a + "' for run");
  }
  s.validate();
  return o;
}

int run(const std::vector<std::string>& args) {
  const RunOptions o = parseRun(args);
  const Scenario& s = o.scenario;
  const auto system = findSystem(s.system);
  Simulation sim(system, s.dynamics, s.formulation, s.integrator);
  const std::vector<double> params = resolveParameters(*system, s.parameters);
  sim.setParameters(params);
  std::vector<std::string> notes;
  const std::vector<double> x0 = initialState(sim.equations(), 0.0, s.initial, &notes);
  for (const auto& note : notes) std::fprintf(stderr, "nhsim: note: %s\n", note.c_str());
  sim.setState(0.0, x0);
  if (!o.saveScenario.empty())
    writeScenarioFile(resolvedScenario(s, params, x0), QString::fromStdString(o.saveScenario));

  const EquationsOfMotion& eq = sim.equations();
  const StateLayout layout = stateLayout(*system, s.dynamics);
  CsvWriter csv(o.out, outputColumns(eq));
  Observables obs;
  std::vector<double> row;
  long rows = 0;
  double maxResidual = 0, maxLambda = 0, e0 = 0, e1 = 0;
  std::vector<double> last;
  auto onSample = [&](double t, const double* x) {
    outputRow(eq, layout, t, x, obs, row);
    csv.write(row);
    if (rows == 0) e0 = obs.energy;
    e1 = obs.energy;
    ++rows;
    for (int c = 0; c < obs.phi.size(); ++c) maxResidual = std::max(maxResidual, std::abs(obs.phi[c]));
    for (int c = 0; c < obs.g.size(); ++c) maxResidual = std::max(maxResidual, std::abs(obs.g[c]));
    for (int c = 0; c < obs.lambda.size(); ++c) maxLambda = std::max(maxLambda, std::abs(obs.lambda[c]));
    last = row;
  };
  try {
    sim.advance(s.tEnd, s.dtOut, onSample);
    // A t-end off the output grid still gets its row: the run's final state.
    if (last.empty() || last[0] < s.tEnd - 1e-12 * std::max(1.0, s.tEnd))
      onSample(sim.time(), sim.state().data());
  } catch (const Error&) {
    csv.flush();  // the rows written so far are kept
    csv.close();
    throw;
  }
  csv.close();
  if (!o.quiet && o.out != "-") {
    std::printf("%s (%s, %s, %s): t = 0 … %s, %ld steps, %ld rows written to %s\n", s.system.c_str(),
                toString(s.dynamics).c_str(), toString(s.formulation).c_str(),
                toString(s.integrator.method).c_str(), formatValue(s.tEnd).c_str(), sim.stepsTaken(),
                rows, o.out.c_str());
    std::printf("  energy %s → %s;  max |constraint residual| %.3g;  max |lambda| %.6g\n",
                formatValue(e0).c_str(), formatValue(e1).c_str(), maxResidual, maxLambda);
    std::printf("  final state:");
    for (size_t i = 0; i < layout.names.size(); ++i)
      std::printf(" %s=%.6g", layout.names[i].c_str(), last[1 + i]);
    std::printf("\n");
  }
  return kOk;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  return reportErrors([&]() -> int {
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
      std::FILE* out = args.empty() ? stderr : stdout;
      std::fputs(kUsage, out);
#ifdef NH_HAVE_EXPORT
      std::fputs(kExportUsage, out);
#endif
      return args.empty() ? kInputError : kOk;
    }
    const std::string command = args[0];
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (command == "list") return list();
    if (command == "info") return info(rest);
    if (command == "run") return run(rest);
#ifdef NH_HAVE_EXPORT
    if (command == "export") return exportCommand(rest);
    throw UsageError("unknown command '" + command + "' (commands: list, info, run, export; see --help)");
#else
    throw UsageError("unknown command '" + command +
                     "' (commands: list, info, run; export needs a build with NH_BUILD_GUI=ON)");
#endif
  });
}

}  // namespace nh::cli
