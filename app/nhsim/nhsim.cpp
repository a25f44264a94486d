// nhsim's commands (nhsim.h) and its main: list, info, run, equations, linearize and optimize
// run here; sweep and export are handed whole to the nhsim-sweep and nhsim-export helpers
// found beside nhsim or in its libexec folder.
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
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "app/nhsim/command_line.h"
#include "app/nhsim/equations_command.h"
#include "app/nhsim/linearize_command.h"
#include "app/nhsim/lyapunov_command.h"
#include "app/nhsim/optimize_command.h"
#include "app/nhsim/system_facts.h"
#include "core/io/atomic_output.h"
#include "core/io/csv_writer.h"
#include "core/io/scenario_file.h"
#include "core/model/catalogue.h"
#include "core/model/constrained_algebroid.h"
#include "core/model/formula_system.h"
#include "core/model/model_data.h"
#include "core/model/structure_kind.h"
#include "core/nh/discrete_gradient.h"
#include "core/nh/errors.h"
#include "core/nh/jacobi_fields.h"
#include "core/nh/reconstruction.h"
#include "core/nh/run_checks.h"
#include "core/nh/run_start.h"
#include "core/nh/scenario.h"
#include "core/nh/scenario_run.h"
#include "core/nh/version.h"

namespace nh::cli {

namespace {

int list() {
  for (const auto& e : catalogueListing()) {
    const char* origin = e.origin == SystemOrigin::BuiltIn        ? "C++"
                         : e.origin == SystemOrigin::BuiltInModel ? "model"
                                                                  : "user";
    std::printf("%-24s %-6s %s\n", e.name.c_str(), origin, e.title.c_str());
  }
  for (const auto& problem : catalogueProblems())
    std::fprintf(stderr, "nhsim: warning: %s\n", problem.c_str());
  return kOk;
}

// `text` followed by spaces up to `width` characters (printf pads by bytes; units like
// "rad/s²" need padding by characters).
std::string padded(const std::string& text, int width) {
  int characters = 0;  // UTF-8: count the bytes that start a character
  for (const unsigned char c : text) characters += (c & 0xC0) != 0x80;
  return text + std::string(std::max(0, width - characters), ' ');
}

// The title, description, source and equations; sections a model file leaves empty are left
// out.
void printInfoHeading(const SystemInfo& s) {
  const bool titled = !s.title.empty() && s.title != s.name;
  std::printf("%s%s%s\n", s.name.c_str(), titled ? " — " : "", titled ? s.title.c_str() : "");
  if (!s.description.empty()) std::printf("\n%s\n", s.description.c_str());
  if (!s.source.empty()) std::printf("\nSource: %s\n", s.source.c_str());
  std::string equations = s.equations;
  for (size_t at = equations.find('\n'); at != std::string::npos; at = equations.find('\n', at + 3))
    equations.replace(at, 1, "\n  ");
  if (!equations.empty()) std::printf("\nEquations:\n  %s\n", equations.c_str());
}

void printInfoText(const SystemInfo& s, const SystemFacts& facts) {
  printInfoHeading(s);
  std::printf("\nParameters (--set NAME=VALUE):\n");
  for (const auto& p : s.parameters)
    std::printf("  %s %s default %s range %s %s\n", padded(p.name, 14).c_str(),
                padded(p.unit.empty() ? "-" : p.unit, 8).c_str(),
                padded(formatValue(p.defaultValue), 8).c_str(), padded(p.rangeText(), 14).c_str(),
                p.description.c_str());
  const std::vector<std::string>& nh = facts.nonholonomic.names;
  const std::vector<std::string>& vk = facts.vakonomic.names;
  std::printf("\nState (--init NAME=VALUE):\n  ");
  for (const auto& n : nh) std::printf("%s ", n.c_str());
  if (vk.size() > nh.size()) {
    std::printf("\n  vakonomic adds: ");
    for (size_t i = nh.size(); i < vk.size(); ++i) std::printf("%s ", vk[i].c_str());
    std::printf("(initial multipliers, default 0)");
  }
  for (const auto& limit : s.stateLimits)
    std::printf("\n  %s must be in %s", limit.name.c_str(), limit.rangeText().c_str());
  std::printf("\n");
  if (!s.initialization.empty())
    std::printf("\nInitial velocities: %s\n", s.initialization.c_str());
  if (s.isControlModel()) {
    std::printf("\nControls: %s\n", joined(s.controls).c_str());
    if (!facts.cost.empty()) std::printf("Cost: L = %s\n", facts.cost.c_str());
  }
  std::printf("\nConstraints: %d nonholonomic, %d holonomic\n", s.constraintCount,
              s.holonomicCount);
  std::printf("\nStructure: %s\n", model::describe(facts.structure).c_str());
  if (facts.reconstructed.empty()) {
    std::printf("\nReconstructed: none (%s)\n", facts.notReconstructed.c_str());
  } else {
    std::printf("\nReconstructed over each step (%s; not read by the equations): ",
                joined(integratorNames(&IntegratorRow::reconstructs)).c_str());
    for (const auto& coordinate : facts.reconstructed) std::printf("%s ", coordinate.c_str());
    std::printf("\n");
  }
  if (!facts.discreteGradient.empty()) std::printf("\n%s\n", facts.discreteGradient.c_str());
}

int info(const InfoOptions& o) {
  const auto system = findNamedSystem(o.target);
  const SystemFacts facts = factsOf(system);
  // Derived before anything is printed: a control model is refused with nothing on stdout.
  std::optional<model::DerivedEquations> algebroid;
  if (o.constraints && !o.json) algebroid = model::constrainedAlgebroidEquations(*system);
  if (o.json) {
    nlohmann::json out = infoJson(system->info(), facts);
    if (o.constraints) out["constraint_algebroid"] = constraintAlgebroidJson(*system);
    writeStdout(out.dump(4) + "\n");
  } else {
    printInfoText(system->info(), facts);
    if (algebroid)
      std::printf("\nThe constraints' algebroid: %s\n\n%s", algebroid->summary.c_str(),
                  model::toPlainText(*algebroid).c_str());
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

// One `nhsim run`: the start checked, the rows written as CSV, then the warnings and the
// summary. The run itself is the core's ScenarioRun.
class RunJob {
 public:
  explicit RunJob(const RunOptions& o)
      : o_(o), s_(o.scenario.resolved), run_(findSystem(s_.system), s_) {
    if (!o.sensitivityNames.empty())
      sensitivities_ = std::make_unique<RunSensitivities>(run_, s_, o.sensitivityNames);
  }

  int run() {
    // The start was checked when run_ was made (bad input is exit 2 and no file).
    for (const auto& note : run_.start().notes)
      std::fprintf(stderr, "nhsim: note: %s\n", note.c_str());
    if (!o_.saveScenario.empty())
      writeScenarioFile(resolvedScenario(s_, run_.parameters(), run_.start().x0), o_.saveScenario);
    openOutput();
    const int code = integrate();
    if (code != kOk) return code;
    for (const auto& warning : run_.tally().warnings())
      std::fprintf(stderr, "nhsim: warning: %s\n", warning.c_str());
    if (!o_.output.quiet && o_.output.out != "-") printSummary();
    return kOk;
  }

 private:
  void openOutput() {
    try {
      std::vector<std::string> columns = run_.columns();
      if (sensitivities_)
        columns.insert(columns.end(), sensitivities_->columns().begin(),
                       sensitivities_->columns().end());
      csv_ = std::make_unique<CsvWriter>(o_.output.out, columns);
    } catch (const Error& e) {  // before any row: a path that cannot be written is bad input
      throw InputError(e.what());
    }
  }

  // Integrates to t-end, a row every dt-out and one at t-end. A stop signal, a singular point
  // or a failed integration keep the rows written so far, each complete, and end the file with
  // a "# partial" line saying why: an interruption returns 128 + the signal, the others are
  // rethrown. kOk when the run completed.
  int integrate() {
    CsvWriter& csv = *csv_;
    catchStopSignals();
    // Checked after every row and at the integration's step checks, so that a signal also
    // stops a run that delivers no row for a long time (a motion too fast for the time span).
    run_.setStopCheck([](double t) {
      if (pendingSignal) throw RunInterrupted{t};
    });
    std::vector<double> row;  // the output row with the sensitivities after it
    try {
      run_.advance(
          s_.tEnd, s_.dtOut,
          [&](const ScenarioRun::Sample& sample) {
            if (!sensitivities_) return csv.write(sample.row);
            row = sample.row;
            sensitivities_->sample(run_, sample.t, sample.x, row);
            csv.write(row);
          },
          true);
    } catch (const RunInterrupted& stop) {
      const long rows = run_.tally().rows;
      csv.writeComment(interruptedLine(stop.t, pendingSignal, rows));
      csv.close();                  // the rows written so far are kept, each complete
      nh::removeLiveTemporaries();  // any other output still half-written
      std::fprintf(stderr, "nhsim: interrupted at t = %s (%ld rows kept in %s)\n",
                   formatValue(stop.t).c_str(), rows,
                   o_.output.out == "-" ? "standard output" : o_.output.out.c_str());
      return 128 + pendingSignal;
    } catch (const Error& e) {
      // The rows written so far are kept, and the file says it ends early and why.
      csv.writeComment(partialLine(e, run_.tally().rows));
      csv.close();
      throw;
    }
    csv.close();
    return kOk;
  }

  void printSummary() const {
    const RunTally& r = run_.tally();
    const StateLayout& layout = run_.layout();
    std::printf("%s (%s, %s, %s): t = 0 … %s, %ld steps, %ld rows written to %s\n",
                s_.system.c_str(), toString(s_.dynamics).c_str(), toString(s_.formulation).c_str(),
                toString(s_.integrator.method).c_str(), formatValue(s_.tEnd).c_str(),
                run_.simulation().stepsTaken(), r.rows, o_.output.out.c_str());
    std::printf("  energy %s → %s;  max |constraint residual| %.3g;  max |lambda| %.6g\n",
                formatValue(r.e0).c_str(), formatValue(r.e1).c_str(), r.maxResidual, r.maxLambda);
    if (!run_.start().fit.conserved.empty()) printConserved();
    std::printf("  final state:");
    for (size_t i = 0; i < layout.names.size(); ++i)
      std::printf(" %s=%.6g", layout.names[i].c_str(), r.last[1 + i]);
    std::printf("\n");
  }

  // The quantity the integrator conserves, from the first row to the last.
  void printConserved() const {
    const RunTally& r = run_.tally();
    const std::vector<std::string>& columns = run_.columns();
    const std::string& column = run_.start().fit.conserved;
    const auto at = std::find(columns.begin(), columns.end(), column) - columns.begin();
    if (at >= static_cast<long>(r.first.size()) || r.last.empty()) return;
    std::printf("  %s: %s %s → %s\n", run_.start().fit.summary.c_str(), column.c_str(),
                formatValue(r.first[at]).c_str(), formatValue(r.last[at]).c_str());
  }

  const RunOptions& o_;
  const Scenario& s_;
  ScenarioRun run_;
  std::unique_ptr<RunSensitivities> sensitivities_;  // with --sensitivity
  std::unique_ptr<CsvWriter> csv_;
};

// A helper executable `name` beside this one (build tree) or in libexec (installed), or "".
std::string helperPath(const std::string& name) {
  char self[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return {};
  self[n] = '\0';
  std::string dir(self);
  dir = dir.substr(0, dir.rfind('/'));
  const std::string candidates[] = {
      dir + "/" + name,
      dir + "/../" + NH_LIBEXEC_SUBDIR + "/" + name,
  };
  for (const auto& path : candidates)
    if (::access(path.c_str(), X_OK) == 0) return path;
  return {};
}

// Replaces this process by the helper `name` with argv[first …]: its exit code, messages and
// signals are those of the command. `note` says when it is built.
int runHelper(const std::string& name, char** argv, int argc, int first, const char* note) {
  const std::string helper = helperPath(name);
  if (helper.empty())
    throw UsageError(std::string(argv[1]) + " is not available: " + name +
                     " was not found beside nhsim or in " + NH_LIBEXEC_SUBDIR + note);
  std::vector<char*> helperArgs;
  helperArgs.push_back(const_cast<char*>(helper.c_str()));
  for (int i = first; i < argc; ++i) helperArgs.push_back(argv[i]);
  helperArgs.push_back(nullptr);
  std::fflush(stdout);
  ::execv(helper.c_str(), helperArgs.data());
  throw Error("cannot run '" + helper + "': " + std::strerror(errno));
}

// Runs the command a checked command line names; `args` are the words after "nhsim".
struct Perform {
  const std::vector<std::string>& args;
  int operator()(const ListOptions&) const { return list(); }
  int operator()(const InfoOptions& o) const { return info(o); }
  int operator()(const RunOptions& o) const { return RunJob(o).run(); }
  int operator()(const EquationsOptions& o) const { return equationsCommand(o); }
  int operator()(const LinearizeOptions& o) const { return linearizeCommand(o, args); }
  int operator()(const LyapunovOptions& o) const { return lyapunovCommand(o); }
  // Answered by nhsim-sweep (main below).
  int operator()(const SweepOptions&) const { return kOk; }
  int operator()(const OptimizeOptions& o) const { return optimizeCommand(o, args); }
  // Answered before the checks (main below).
  int operator()(const HelpRequest&) const { return kOk; }
  int operator()(const VersionRequest&) const { return kOk; }
  int operator()(const ExportOptions&) const { return kOk; }
};

}  // namespace

int main(int argc, char** argv) {
  // A signal that ends nhsim (SIGUSR1, SIGPIPE...) leaves no hidden temporary behind.
  removeTemporariesOnFatalSignals();
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::fputs(std::get<HelpRequest>(parseArguments(args)).text.c_str(), stderr);
    return kInputError;
  }
  return reportErrors([&]() -> int {
    // sweep (with MPI and HDF5, which no other command loads) is nhsim-sweep's, whole: it
    // parses the same words, under mpirun on every rank.
    if (args[0] == SweepOptions::kRow.name) return runHelper("nhsim-sweep", argv, argc, 1, "");
    CommandLine words = parseArguments(args);
    if (const auto* help = std::get_if<HelpRequest>(&words)) {
      writeStdout(help->text);  // longer than stdio's buffer: its error is the first write's
      return kOk;
    }
    if (std::holds_alternative<VersionRequest>(words)) {
      std::printf("nhsim %s\n", kVersion);
      return kOk;
    }
    // nhsim-export parses and checks the same words again
    if (std::holds_alternative<ExportOptions>(words))
      return runHelper("nhsim-export", argv, argc, 2, " (it is built with NH_BUILD_GUI=ON)");
    // Until a command installs its own (run keeps its rows, optimize names its output):
    // SIGINT, SIGTERM and SIGHUP end it with a message and 128 + N, leaving no temporary.
    endOnStopSignals();
    checkCommandLine(words);
    return std::visit(Perform{args}, words);
  });
}

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
