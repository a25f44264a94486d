#include "app/nhsim/nhsim.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/nhsim/command_line.h"
#include "app/nhsim/equations_command.h"
#include "app/nhsim/linearize_command.h"
#include "app/nhsim/sweep_command.h"
#ifdef NH_HAVE_MPI
#include "app/nhsim/sweep_mpi.h"
#endif
#include "core/io/atomic_output.h"
#include "core/io/csv_writer.h"
#include "core/io/scenario_file.h"
#include "core/model/catalogue.h"
#include "core/nh/errors.h"
#include "core/nh/reconstruction.h"
#include "core/nh/run_checks.h"
#include "core/nh/scenario.h"
#include "core/nh/version.h"

namespace nh::cli {

namespace {

int list() {
  for (const auto& e : catalogueEntries()) {
    const char* origin = e.origin == SystemOrigin::BuiltIn        ? "C++"
                         : e.origin == SystemOrigin::BuiltInModel ? "model"
                                                                  : "user";
    std::printf("%-24s %-6s %s\n", e.system->name().c_str(), origin,
                e.system->info().title.c_str());
  }
  for (const auto& problem : catalogueProblems())
    std::fprintf(stderr, "nhsim: warning: %s\n", problem.c_str());
  return kOk;
}

int info(const CommandLine& line) {
  const bool json = line.json;
  const auto system = findNamedSystem(line.target);
  const SystemInfo& s = system->info();
  const StateLayout nh = stateLayout(*system, DynamicsKind::Nonholonomic);
  const StateLayout vk = stateLayout(*system, DynamicsKind::Vakonomic);
  // Reduction (reconstruction.h): what the adaptive steppers carry instead of stepping.
  std::vector<std::string> reconstructed;
  std::string notReconstructed = "the system cannot be taped";
  {
    const EquationsOfMotion eq(system, DynamicsKind::Nonholonomic);
    if (const ReconstructionPlan* plan = eq.reconstructionPlan()) {
      notReconstructed = plan->reason;
      std::vector<int> indices = plan->entries;
      std::sort(indices.begin(), indices.end());
      for (int i : indices) reconstructed.push_back(s.coordinates[i]);
    }
  }
  if (json) {
    nlohmann::json root;  // keys sorted
    root["name"] = s.name;
    root["title"] = s.title;
    root["description"] = s.description;
    root["source"] = s.source;
    root["equations"] = s.equations;
    root["initialization"] = s.initialization;
    root["parameters"] = nlohmann::json::array();
    for (const auto& p : s.parameters) {
      nlohmann::json o;
      o["name"] = p.name;
      o["unit"] = p.unit;
      o["description"] = p.description;
      o["default"] = p.defaultValue;
      o["range"] = p.rangeText();
      if (std::isfinite(p.min)) o["min"] = p.min;
      if (std::isfinite(p.max)) o["max"] = p.max;
      o["min_exclusive"] = p.minExclusive;
      o["max_exclusive"] = p.maxExclusive;
      root["parameters"].push_back(o);
    }
    root["state"] = nh.names;
    root["state_vakonomic"] = vk.names;
    root["constraints"] = s.constraintCount;
    root["holonomic_constraints"] = s.holonomicCount;
    root["reconstructed"] = reconstructed;
    writeStdout(root.dump(4) + "\n");
    return kOk;
  }
  // Sections a model file leaves empty (description, source, ...) are left out.
  const bool titled = !s.title.empty() && s.title != s.name;
  std::printf("%s%s%s\n", s.name.c_str(), titled ? " — " : "", titled ? s.title.c_str() : "");
  if (!s.description.empty()) std::printf("\n%s\n", s.description.c_str());
  if (!s.source.empty()) std::printf("\nSource: %s\n", s.source.c_str());
  std::string equations = s.equations;
  for (size_t at = equations.find('\n'); at != std::string::npos; at = equations.find('\n', at + 3))
    equations.replace(at, 1, "\n  ");
  if (!equations.empty()) std::printf("\nEquations:\n  %s\n", equations.c_str());
  std::printf("\nParameters (--set NAME=VALUE):\n");
  // printf pads by bytes; units like "rad/s²" need padding by characters.
  auto padded = [](const std::string& text, int width) {
    int characters = 0;  // UTF-8: count the bytes that start a character
    for (const unsigned char c : text) characters += (c & 0xC0) != 0x80;
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
    for (size_t i = nh.names.size(); i < vk.names.size(); ++i)
      std::printf("%s ", vk.names[i].c_str());
    std::printf("(initial multipliers, default 0)");
  }
  for (const auto& limit : s.stateLimits)
    std::printf("\n  %s must be in %s", limit.name.c_str(), limit.rangeText().c_str());
  std::printf("\n");
  if (!s.initialization.empty())
    std::printf("\nInitial velocities: %s\n", s.initialization.c_str());
  std::printf("\nConstraints: %d nonholonomic, %d holonomic\n", s.constraintCount,
              s.holonomicCount);
  if (reconstructed.empty()) {
    std::printf("\nReconstructed: none (%s)\n", notReconstructed.c_str());
  } else {
    std::printf("\nReconstructed over each step (dopri5, dop853; not read by the equations): ");
    for (const auto& coordinate : reconstructed) std::printf("%s ", coordinate.c_str());
    std::printf("\n");
  }
  return kOk;
}

// SIGINT, SIGTERM and SIGHUP during a run: the handler only records the signal; the sample
// callback sees it after writing a whole row and stops the run with RunInterrupted, so the
// file is committed with every row complete. Live temporaries are removed there, in the
// normal control flow, not in the handler: the writer may be in the middle of a row, and a
// temporary unlinked under it would lose the rows that are to be kept.
volatile sig_atomic_t pendingSignal = 0;

void recordSignal(int signal) { pendingSignal = signal; }

struct RunInterrupted {
  double t;
};

void catchStopSignals() {
  struct sigaction action {};
  action.sa_handler = recordSignal;
  sigemptyset(&action.sa_mask);
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(signal, &action, nullptr);
}

// The parameters and the initial values given, by name (for extremeValueHint).
std::vector<std::pair<std::string, double>> givenValues(const SystemModel& system,
                                                        const std::vector<double>& params,
                                                        const Scenario& s) {
  std::vector<std::pair<std::string, double>> values;
  for (size_t i = 0; i < params.size(); ++i)
    values.emplace_back(system.info().parameters[i].name, params[i]);
  for (const auto& entry : s.initial) values.push_back(entry);
  return values;
}

// `message` with `hint` after it ("…; m = 1e-310 is far outside …"), or as it is.
std::string withHint(const std::string& message, const std::string& hint) {
  return hint.empty() ? message : message + "; " + hint;
}

int run(const CommandLine& o) {
  const Scenario& s = o.scenario;
  const auto system = findSystem(s.system);
  Simulation sim(system, s.dynamics, s.formulation, s.integrator);
  const std::vector<double> params = resolveParameters(*system, s.parameters);
  const std::string hint = extremeValueHint(givenValues(*system, params, s));
  const StateLayout layout = stateLayout(*system, s.dynamics);
  Observables obs;
  std::vector<double> row;
  std::vector<std::string> notes;
  std::vector<double> x0;
  // The start is checked before any file is written: a system that cannot be evaluated at
  // t = 0 (not regular, values beyond double precision) is bad input, exit 2 and no file.
  try {
    sim.setParameters(params);  // new equations: eq is taken after this
    const EquationsOfMotion& eq = sim.equations();
    x0 = initialState(eq, 0.0, s.initial, &notes);
    outputRow(eq, sim.workspace(), layout, 0.0, x0.data(), obs, row);
    const std::string entry = nonFiniteEntry(outputColumns(eq), row);
    if (!entry.empty())
      throw InputError("the start of '" + system->name() + "' is not finite: " + entry +
                       " at t = 0 (parameters or initial values beyond double precision, or a "
                       "formula undefined there)");
  } catch (const SingularSystemError& e) {
    throw InputError(withHint(e.what(), hint));
  } catch (const IntegrationError& e) {
    throw InputError(withHint(e.what(), hint));
  } catch (const InputError& e) {
    if (hint.empty()) throw;
    throw InputError(withHint(e.what(), hint));
  }
  for (const auto& note : notes) std::fprintf(stderr, "nhsim: note: %s\n", note.c_str());
  sim.setState(0.0, x0);
  const EquationsOfMotion& eq = sim.equations();
  const std::vector<std::string> columns = outputColumns(eq);
  if (!o.saveScenario.empty()) writeScenarioFile(resolvedScenario(s, params, x0), o.saveScenario);

  std::unique_ptr<CsvWriter> opened;
  try {
    opened = std::make_unique<CsvWriter>(o.out, columns);
  } catch (const Error& e) {  // before any row: a path that cannot be written is bad input
    throw InputError(e.what());
  }
  CsvWriter& csv = *opened;
  EnergyDriftWatch drift;
  ConstraintRankWatch rank;
  long rows = 0;
  double maxResidual = 0, maxLambda = 0, e0 = 0, e1 = 0;
  std::vector<double> last;
  auto onSample = [&](double t, const double* x) {
    outputRow(eq, sim.workspace(), layout, t, x, obs, row);
    checkFiniteRow(system->name(), columns, row, t);  // the rows before it are kept
    csv.write(row);
    drift.add(eq, sim.workspace(), t, x, obs.energy);
    rank.add(t, obs);
    if (rows == 0) e0 = obs.energy;
    e1 = obs.energy;
    ++rows;
    for (int c = 0; c < obs.phi.size(); ++c)
      maxResidual = std::max(maxResidual, std::abs(obs.phi[c]));
    for (int c = 0; c < obs.g.size(); ++c) maxResidual = std::max(maxResidual, std::abs(obs.g[c]));
    for (int c = 0; c < obs.lambda.size(); ++c)
      maxLambda = std::max(maxLambda, std::abs(obs.lambda[c]));
    last = row;
    if (pendingSignal) throw RunInterrupted{t};
  };
  catchStopSignals();
  // A signal also stops an integration that delivers no row for a long time (a motion too
  // fast for the time span): the rows so far are kept as after any interruption.
  sim.setStepCheck([](double t) {
    if (pendingSignal) throw RunInterrupted{t};
  });
  try {
    // A t-end off the output grid still gets its row: the run's final state.
    if (!sim.advance(s.tEnd, s.dtOut, onSample)) onSample(sim.time(), sim.state().data());
  } catch (const RunInterrupted& stop) {
    csv.writeComment("partial: interrupted at t = " + formatValue(stop.t) + " by signal " +
                     std::to_string(pendingSignal) + ", " + std::to_string(rows) + " rows");
    csv.close();                  // the rows written so far are kept, each complete
    nh::removeLiveTemporaries();  // any other output still half-written
    std::fprintf(stderr, "nhsim: interrupted at t = %s (%ld rows kept in %s)\n",
                 formatValue(stop.t).c_str(), rows,
                 o.out == "-" ? "standard output" : o.out.c_str());
    return 128 + pendingSignal;
  } catch (const SingularSystemError& e) {
    // The rows written so far are kept, and the file says it ends early and why.
    csv.writeComment("partial: stopped at t = " + formatValue(e.time()) + ", " +
                     std::to_string(rows) + " rows (not regular or a singular point)");
    csv.close();
    throw SingularSystemError(withHint(e.what(), hint), e.time(), e.conditionNumber());
  } catch (const IntegrationError& e) {
    csv.writeComment("partial: stopped at t = " + formatValue(e.time()) + ", " +
                     std::to_string(rows) + " rows (the integration failed)");
    csv.close();
    throw IntegrationError(withHint(e.what(), hint), e.time());
  } catch (const Error&) {
    csv.writeComment("partial: stopped after " + std::to_string(rows) + " rows");
    csv.close();
    throw;
  }
  csv.close();
  const std::string driftWarning = drift.warning();
  if (!driftWarning.empty()) std::fprintf(stderr, "nhsim: warning: %s\n", driftWarning.c_str());
  const std::string rankWarning = rank.warning();
  if (!rankWarning.empty()) std::fprintf(stderr, "nhsim: warning: %s\n", rankWarning.c_str());
  if (!o.quiet && o.out != "-") {
    std::printf("%s (%s, %s, %s): t = 0 … %s, %ld steps, %ld rows written to %s\n",
                s.system.c_str(), toString(s.dynamics).c_str(), toString(s.formulation).c_str(),
                toString(s.integrator.method).c_str(), formatValue(s.tEnd).c_str(),
                sim.stepsTaken(), rows, o.out.c_str());
    std::printf("  energy %s → %s;  max |constraint residual| %.3g;  max |lambda| %.6g\n",
                formatValue(e0).c_str(), formatValue(e1).c_str(), maxResidual, maxLambda);
    std::printf("  final state:");
    for (size_t i = 0; i < layout.names.size(); ++i)
      std::printf(" %s=%.6g", layout.names[i].c_str(), last[1 + i]);
    std::printf("\n");
  }
  return kOk;
}

// nhsim-export beside this executable (build tree) or in libexec (installed), or "".
std::string exportHelperPath() {
  char self[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return {};
  self[n] = '\0';
  std::string dir(self);
  dir = dir.substr(0, dir.rfind('/'));
  const std::string candidates[] = {
      dir + "/nhsim-export",
      dir + "/../" + NH_LIBEXEC_SUBDIR + "/nhsim-export",
  };
  for (const auto& path : candidates)
    if (::access(path.c_str(), X_OK) == 0) return path;
  return {};
}

// Replaces this process by nhsim-export with the arguments after "export": its exit code,
// messages and signals are those of the command.
int exportCommand(char** argv, int argc) {
  const std::string helper = exportHelperPath();
  if (helper.empty())
    throw UsageError("export is not available: nhsim-export was not found beside nhsim or in " +
                     std::string(NH_LIBEXEC_SUBDIR) + " (it is built with NH_BUILD_GUI=ON)");
  std::vector<char*> helperArgs;
  helperArgs.push_back(const_cast<char*>(helper.c_str()));
  for (int i = 2; i < argc; ++i) helperArgs.push_back(argv[i]);
  helperArgs.push_back(nullptr);
  std::fflush(stdout);
  ::execv(helper.c_str(), helperArgs.data());
  throw Error("cannot run '" + helper + "': " + std::strerror(errno));
}

}  // namespace

int main(int argc, char** argv) {
  // A signal that ends nhsim (SIGUSR1, SIGPIPE...) leaves no hidden temporary behind.
  removeTemporariesOnFatalSignals();
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::fputs(parseArguments(args).helpText.c_str(), stderr);
    return kInputError;
  }
  if (isMpiSweep(args)) {  // every rank parses the same words: one message, from rank 0
#ifdef NH_HAVE_MPI
    return sweepMpiCommand(argc, argv);
#else
    if (launcherRank() <= 0) std::fprintf(stderr, "nhsim: error: %s\n", kNoMpiSupport);
    return kInputError;
#endif
  }
  return reportErrors([&]() -> int {
    const CommandLine words = parseArguments(args);
    switch (words.command) {
      case Command::Help:
        std::fputs(words.helpText.c_str(), stdout);
        return kOk;
      case Command::Version:
        std::printf("nhsim %s\n", kVersion);
        return kOk;
      case Command::Export:  // nhsim-export parses and checks the same words again
        return exportCommand(argv, argc);
      default:
        break;
    }
    const CommandLine line = parseCommandLine(args);
    switch (line.command) {
      case Command::List:
        return list();
      case Command::Info:
        return info(line);
      case Command::Run:
        return run(line);
      case Command::Equations:
        return equationsCommand(line);
      case Command::Sweep:
        return sweepCommand(line, args);
      default:
        return linearizeCommand(line, args);
    }
  });
}

}  // namespace nh::cli
