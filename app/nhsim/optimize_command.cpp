// `nhsim optimize` (optimize_command.h): the optimal-control problem from a scenario and the
// options, the search run, and the best extremal written as CSV or every extremal as JSON,
// with notes on the start and a warning where the Legendre condition fails.
#include "app/nhsim/optimize_command.h"

#include <Eigen/Eigenvalues>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "app/nhsim/cli_support.h"
#include "core/io/atomic_output.h"
#include "core/io/csv_writer.h"
#include "core/model/catalogue.h"
#include "core/nh/optimal_control.h"
#include "core/nh/pontryagin.h"
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

// The start as run reports it: a line for every start value that the constraints moved
// (a coordinate put back on g = 0, a velocity completed).
void printStartNotes(const std::shared_ptr<const SystemModel>& system, const Scenario& scenario,
                     const std::vector<double>& parameters) {
  if (system->info().isControlModel()) return;  // its start coordinates are taken as given
  const EquationsOfMotion equations(system, DynamicsKind::Nonholonomic, Formulation::Multipliers,
                                    parameters);
  std::vector<std::string> notes;
  initialState(equations, 0, scenario.initial, &notes);
  for (const auto& note : notes) std::fprintf(stderr, "nhsim: note: %s\n", note.c_str());
}

// The problem's functions at the start, before the solve: a running cost (or motion) that is
// not finite there is bad input, not a failed solve.
void refuseNonFiniteStart(const PontryaginSystem& P, const OptimalControlOptions& o) {
  const int n = P.n(), m = P.m(), c = P.unknownsW();
  std::vector<double> z(P.N(), 0.0), zdot(P.N());
  std::copy(o.startCoordinates.begin(), o.startCoordinates.end(), z.begin());
  Eigen::VectorXd w = Eigen::VectorXd::Zero(c);
  if (P.vakonomic())
    for (int a = 0; a < m && a < static_cast<int>(o.startVelocities.size()); ++a)
      w[a] = o.startVelocities[a];
  PontryaginSystem::Workspace ws = P.makeWorkspace();
  P.resetW(ws, w);
  double cost = 0;
  try {
    cost = P.rates(ws, 0, z.data(), zdot.data(), false);
  } catch (const SingularControl&) {
    return;  // the solve reports it, with what the starts found
  }
  bool finite = std::isfinite(cost);
  for (int i = 0; i < n; ++i) finite = finite && std::isfinite(zdot[i]);
  if (finite) return;
  std::string start;
  const SystemInfo& info = P.system().info();
  for (int i = 0; i < n; ++i)
    start += (i ? ", " : "") + info.coordinates[i] + " = " + formatValue(z[i]);
  throw InputError("the running cost or the motion of '" + P.system().name() +
                   "' is not finite at the start (t = 0" + (start.empty() ? "" : ", ") + start +
                   "): give a start where it is defined (--init)");
}

// Legendre's condition along a control model's extremal: H = ξ·f − L is at a maximum in the
// controls (∂²H/∂u² negative semidefinite) where the path is a minimum of the cost. Where
// ∂²H/∂u² has a positive direction the extremal is no minimum: nearby controls cost less (a
// concave cost such as −u²/2 has no lowest value at all). "" when the condition holds.
std::string legendreWarning(const PontryaginSystem& P, const Extremal& best) {
  if (P.vakonomic()) return {};  // its unknowns hold multipliers: a saddle by construction
  const int n = P.n(), m = P.m(), c = P.unknownsW();
  PontryaginSystem::Workspace ws = P.makeWorkspace();
  std::vector<double> z(P.N()), zdot(P.N());
  const size_t stride = std::max<size_t>(1, best.times.size() / 200);
  for (size_t k = 0; k < best.times.size(); k += stride) {
    const std::vector<double>& row = best.rows[k];
    if (row.size() < static_cast<size_t>(n + 2 * m + c)) return {};
    std::copy(row.begin(), row.begin() + n, z.begin());
    std::copy(row.begin() + n + m + c, row.begin() + n + 2 * m + c, z.begin() + n);
    P.resetW(ws, Eigen::Map<const Eigen::VectorXd>(row.data() + n + m, c));
    try {
      P.rates(ws, best.times[k], z.data(), zdot.data(), false);
    } catch (const SingularControl&) {
      continue;
    }
    const Eigen::MatrixXd hessian = 0.5 * (ws.Gw + ws.Gw.transpose());
    const double largest =
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(hessian, Eigen::EigenvaluesOnly)
            .eigenvalues()
            .maxCoeff();
    if (largest > 1e-9 * std::max(1.0, hessian.cwiseAbs().maxCoeff()))
      return "the extremal is no minimum: at t = " + formatValue(best.times[k]) +
             " the running cost is concave in the controls along it (Legendre's condition "
             "fails), so nearby controls cost less; a cost like -u^2/2 has no lowest value";
  }
  return {};
}

std::string json(const SystemModel& system, const OptimalControlOptions& o,
                 const OptimalControlResult& r, double seconds, const std::string& warning) {
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
  if (!warning.empty()) root["warning"] = warning;
  return root.dump() + "\n";
}

void writeCsv(std::unique_ptr<AtomicOutput> out, const std::vector<std::string>& args,
              const SystemModel& system, const OptimalControlResult& r,
              const std::string& warning) {
  const Extremal& best = r.extremals.front();
  std::vector<std::string> columns{"t"};
  columns.insert(columns.end(), r.columns.begin(), r.columns.end());
  std::string start;
  for (size_t i = 0; i < best.unknowns.size(); ++i)
    start += (i ? ", " : "") + best.unknownNames[i] + " = " + formatValue(best.unknowns[i]);
  std::vector<std::string> comments{
      commandEcho(args),
      "system: " + system.name() + " (" + (r.vakonomic ? "vakonomic" : "optimal control") + ")",
      "cost: " + formatValue(best.cost) + ", residual " + formatValue(best.residual) + ", " +
          std::to_string(best.iterations) + " Newton iterations; " +
          std::to_string(r.extremals.size()) +
          (r.extremals.size() == 1 ? " extremal" : " distinct extremals") + " found",
      "at t = 0: " + start};
  if (!warning.empty()) comments.push_back("warning: " + warning);
  CsvWriter csv(std::move(out), columns, comments);
  std::vector<double> row;
  for (size_t k = 0; k < best.times.size(); ++k) {
    row.assign(1, best.times[k]);
    row.insert(row.end(), best.rows[k].begin(), best.rows[k].end());
    csv.write(row);
  }
  csv.close();
}

// The CSV's file, opened before any work as run opens its own: a folder, a missing folder or
// a FIFO without a reader is bad input (exit 2) at once, not after the solve.
std::unique_ptr<AtomicOutput> openOutput(const std::string& path) {
  try {
    return std::make_unique<AtomicOutput>(path);
  } catch (const InputError&) {
    throw;
  } catch (const Error& e) {
    throw InputError(e.what());
  }
}

}  // namespace

int optimizeCommand(const OptimizeOptions& line, const std::vector<std::string>& args) {
  // "": --json alone (no CSV); checkCommandLine refused --json with --out -.
  const std::string& csvPath = line.output.out;
  endOnStopSignals(csvPath);
  const auto system = findSystem(line.scenario.resolved.system);
  const OptimalControlOptions o = problemOf(line, system);
  printStartNotes(system, line.scenario.resolved, o.parameters);
  const PontryaginSystem problem(system, o.parameters);
  refuseNonFiniteStart(problem, o);
  std::unique_ptr<AtomicOutput> out = csvPath.empty() ? nullptr : openOutput(csvPath);
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
  const std::string warning = legendreWarning(problem, r.extremals.front());
  if (!warning.empty()) std::fprintf(stderr, "nhsim: warning: %s\n", warning.c_str());
  if (out) writeCsv(std::move(out), args, *system, r, warning);
  if (line.json) writeStdout(json(*system, o, r, seconds, warning));
  if (!line.output.quiet && !line.json) {
    const Extremal& best = r.extremals.front();
    std::fprintf(stderr, "nhsim: %zu extremal%s; the %s cost %s (residual %s) in %.3g s\n",
                 r.extremals.size(), r.extremals.size() == 1 ? "" : "s",
                 warning.empty() ? "lowest" : "lowest stationary", formatValue(best.cost).c_str(),
                 formatValue(best.residual).c_str(), seconds);
  }
  return kOk;
}

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
