#include "app/nhsim/optimize_command.h"

#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "app/nhsim/cli_support.h"
#include "core/io/csv_writer.h"
#include "core/model/catalogue.h"
#include "core/nh/optimal_control.h"
#include "core/nh/scenario.h"

namespace nh::cli {

namespace {

OptimalControlOptions problemOf(const OptimizeOptions& line,
                                const std::shared_ptr<const SystemModel>& system) {
  OptimalControlOptions o;
  startFromScenario(system, line.scenario.resolved, o);
  o.tEnd = line.tEndValue;
  o.dtOut = line.dtOutValue;
  o.tolerance = line.tolValue;
  o.starts = line.startsValue;
  o.seed = line.seedValue;
  o.maxIterations = line.maxIterationsValue;
  o.targets = line.targetValues;
  return o;
}

std::string json(const SystemModel& system, const OptimalControlOptions& o,
                 const OptimalControlResult& r, double seconds) {
  nlohmann::ordered_json root;
  root["system"] = system.name();
  root["problem"] = r.vakonomic ? "vakonomic" : "optimal control";
  root["t_end"] = o.tEnd;
  root["converged"] = !r.extremals.empty();
  root["starts"] = r.startsTried;
  root["solve_seconds"] = seconds;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const Extremal& e : r.extremals) {
    nlohmann::ordered_json x;
    x["cost"] = e.cost;
    x["residual"] = e.residual;
    x["iterations"] = e.iterations;
    nlohmann::ordered_json c;
    for (size_t i = 0; i < e.unknowns.size(); ++i) c[e.unknownNames[i]] = e.unknowns[i];
    x["costate0"] = c;
    list.push_back(x);
  }
  root["extremals"] = list;
  if (r.extremals.empty()) root["best_residual"] = r.bestResidual;
  return root.dump() + "\n";
}

void writeCsv(const OptimizeOptions& line, const std::vector<std::string>& args,
              const SystemModel& system, const OptimalControlResult& r) {
  const Extremal& best = r.extremals.front();
  std::vector<std::string> columns{"t"};
  columns.insert(columns.end(), r.columns.begin(), r.columns.end());
  std::string start;
  for (size_t i = 0; i < best.unknowns.size(); ++i)
    start += (i ? ", " : "") + best.unknownNames[i] + " = " + formatValue(best.unknowns[i]);
  const std::vector<std::string> comments{
      commandEcho(args),
      "system: " + system.name() + " (" + (r.vakonomic ? "vakonomic" : "optimal control") + ")",
      "cost: " + formatValue(best.cost) + ", residual " + formatValue(best.residual) + ", " +
          std::to_string(best.iterations) + " Newton iterations; " +
          std::to_string(r.extremals.size()) +
          (r.extremals.size() == 1 ? " extremal" : " distinct extremals") + " found",
      "at t = 0: " + start};
  CsvWriter csv(line.output.out, columns, comments);
  std::vector<double> row;
  for (size_t k = 0; k < best.times.size(); ++k) {
    row.assign(1, best.times[k]);
    row.insert(row.end(), best.rows[k].begin(), best.rows[k].end());
    csv.write(row);
  }
  csv.close();
}

}  // namespace

int optimizeCommand(const OptimizeOptions& line, const std::vector<std::string>& args) {
  const auto system = findSystem(line.scenario.resolved.system);
  const OptimalControlOptions o = problemOf(line, system);
  const auto began = std::chrono::steady_clock::now();
  const OptimalControlResult r = solveOptimalControl(system, o);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  if (r.extremals.empty()) {
    std::fprintf(stderr,
                 "nhsim: error: no extremal met the tolerance %s in %d starts: the best residual "
                 "was %s (%s); %s\n",
                 formatValue(o.tolerance).c_str(), r.startsTried,
                 formatValue(r.bestResidual).c_str(), oneLine(r.failure).c_str(), r.advice.c_str());
    return kSimulationError;
  }
  if (!r.note.empty()) std::fprintf(stderr, "nhsim: warning: %s\n", r.note.c_str());
  if (line.json) {
    writeStdout(json(*system, o, r, seconds));
    return kOk;
  }
  writeCsv(line, args, *system, r);
  if (!line.output.quiet) {
    const Extremal& best = r.extremals.front();
    std::fprintf(stderr, "nhsim: %zu extremal%s; the lowest cost %s (residual %s) in %.3g s\n",
                 r.extremals.size(), r.extremals.size() == 1 ? "" : "s",
                 formatValue(best.cost).c_str(), formatValue(best.residual).c_str(), seconds);
  }
  return kOk;
}

}  // namespace nh::cli
