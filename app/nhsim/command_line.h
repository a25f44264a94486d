// The nhsim command line, parsed with CLI11, shared by nhsim, nhsim-export, nhsim-sweep and
// the Python module: the commands (kCommands, one row each, held by its options struct) and
// the parser that declares each command's options as the option table has them (kOptions,
// app/nhsim/command_table.h). Each command has its own options struct, built from small
// groups that several commands share (the scenario, the integrator, the output), which binds
// its fields to option names. Option values are kept as the words given ("" when an option is
// not given) and converted by the command; parsing runs nothing and writes no file.
#pragma once

#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "app/nhsim/cli_support.h"
#include "app/nhsim/command_footers.h"
#include "app/nhsim/command_table.h"
#include "core/nh/scenario.h"

namespace nh::cli {

// Where a command's options struct keeps what the parser reads for each option, by the
// option's name (its options are the rows of kOptions that name the command). A struct binds
// its fields in `bind(Fields&)`; a group of options shared by several commands binds its own,
// and a field bound for an option the command does not take is left alone.
class Fields {
 public:
  using Field = std::variant<std::string*, std::vector<std::string>*, bool*>;

  void target(std::string& target) { target_ = &target; }
  void operator()(const char* option, std::string& value) { fields_.emplace_back(option, &value); }
  void operator()(const char* option, std::vector<std::string>& values) {
    fields_.emplace_back(option, &values);
  }
  void operator()(const char* option, bool& flag) { fields_.emplace_back(option, &flag); }

  std::string* target() const { return target_; }
  // The field bound for `option`, null when none is.
  const Field* find(const std::string& option) const;

 private:
  std::string* target_ = nullptr;
  std::vector<std::pair<std::string, Field>> fields_;
};

// ---- Option groups shared by several commands

// The system or scenario a command works on and the options that change it: run, export,
// linearize, sweep and optimize.
struct ScenarioOptions {
  std::string target;                  // a system name, a model file or a scenario file
  std::vector<std::string> set, init;  // --set, --init NAME=VALUE, in order
  std::string dynamics, formulation;
  // Filled by parseCommandLine: the scenario the command runs, validated, and whether the
  // target was a scenario file (which brings its own t_end).
  Scenario resolved;
  bool fromFile = false;

  void bind(Fields& f) {
    f.target(target);
    f("--set", set);
    f("--init", init);
    f("--dynamics", dynamics);
    f("--formulation", formulation);
  }
};

// The time span of run and sweep: --t-end and --dt-out.
struct TimeOptions {
  std::string tEnd, dtOut;

  void bind(Fields& f) {
    f("--t-end", tEnd);
    f("--dt-out", dtOut);
  }
};

// The integrator and its accuracy: run and sweep take all of them, export --max-steps only.
struct IntegratorWords {
  std::string method, rtol, atol, step, maxSteps;
  bool noProjection = false, noReconstruction = false;

  void bind(Fields& f) {
    f("--integrator", method);
    f("--rtol", rtol);
    f("--atol", atol);
    f("--step", step);
    f("--max-steps", maxSteps);
    f("--no-projection", noProjection);
    f("--no-reconstruction", noReconstruction);
  }
};

// Where run, sweep and optimize write their rows, and whether they report.
struct OutputOptions {
  std::string out = "-";  // "-": standard output
  bool quiet = false;

  void bind(Fields& f) {
    f("--out", out);
    f("--quiet", quiet);
  }
};

// ---- One struct per command, holding its row of kCommands

struct HelpRequest {
  std::string text;  // the help asked for (stdout, exit 0)
};
struct VersionRequest {};

struct ListOptions {
  static constexpr CommandRow kRow{"list", "list the known systems (name, origin, title)",
                                   "takes no arguments", ""};
};

struct InfoOptions {
  static constexpr CommandRow kRow{"info",
                                   "describe a system: parameters, state, constraints",
                                   "takes one system name",
                                   "info needs a system name (see 'nhsim list')",
                                   "SYSTEM|MODEL.yaml",
                                   "a system name (see 'nhsim list') or a model file"};
  std::string target;
  bool json = false;
  bool constraints = false;

  void bind(Fields& f) {
    f.target(target);
    f("--json", json);
    f("--constraints", constraints);
  }
};

// The target of the commands that run a system: its kind and help.
inline constexpr const char* kRunTarget = "SYSTEM|MODEL.yaml|SCENARIO.json";
inline constexpr const char* kRunTargetHelp =
    "a system name, a model file or a scenario file (*.json)";

struct RunOptions {
  static constexpr CommandRow kRow{"run",
                                   "simulate and write the trajectory as CSV",
                                   "takes one system or scenario",
                                   "run needs a system name or a scenario file",
                                   kRunTarget,
                                   kRunTargetHelp,
                                   runFooter};
  ScenarioOptions scenario;
  TimeOptions time;
  IntegratorWords integrator;
  OutputOptions output;
  std::string saveScenario;
  std::vector<std::string> sensitivity;  // --sensitivity NAME[,NAME]..., in order
  // Filled by parseCommandLine: the names, the lists split at commas.
  std::vector<std::string> sensitivityNames;

  void bind(Fields& f) {
    scenario.bind(f);
    time.bind(f);
    integrator.bind(f);
    output.bind(f);
    f("--save-scenario", saveScenario);
    f("--sensitivity", sensitivity);
  }
};

struct ExportOptions {
  static constexpr CommandRow kRow{
      "export",
      "render the 3D view to a video or PNG frames",
      "takes one system or scenario",
      "export needs a system name or a scenario file (see 'nhsim export --help')",
      kRunTarget,
      kRunTargetHelp,
      exportFooter};
  ScenarioOptions scenario;
  std::string video, frames, html, lessons;  // one of them
  std::string width, height, fps, tStart, tEnd, speed, trail, plotPath, plot, csv, theme;
  IntegratorWords integrator;  // --max-steps
  bool noTrails = false, noForces = false, velocities = false, noOverlay = false, plots = false,
       noScenario = false, force = false, quiet = false, live = false;

  void bind(Fields& f);
};

struct EquationsOptions {
  static constexpr CommandRow kRow{
      "equations",         "print the derived equations of motion",
      "takes one system",  "equations needs a system name or a model file (see 'nhsim list')",
      "SYSTEM|MODEL.yaml", "a system name or a model file"};
  std::string target;
  std::vector<std::string> set;
  bool latex = false;
  bool hamiltonian = false;  // H and the nonholonomic bracket instead of M ẏ − Aᵀλ = F
  bool gibbsAppell = false;  // the Gibbs–Appell function G_L and its equations instead

  void bind(Fields& f) {
    f.target(target);
    f("--set", set);
    f("--latex", latex);
    f("--hamiltonian", hamiltonian);
    f("--gibbs-appell", gibbsAppell);
  }
};

struct LinearizeOptions {
  static constexpr CommandRow kRow{"linearize",
                                   "eigenvalues of the linearised equations",
                                   "takes one system or scenario",
                                   "linearize needs a system name, a model file or a scenario file",
                                   kRunTarget,
                                   kRunTargetHelp};
  ScenarioOptions scenario;
  std::string sweep;  // NAME=FROM:TO:N
  bool json = false;

  void bind(Fields& f) {
    scenario.bind(f);
    f("--sweep", sweep);
    f("--json", json);
  }
};

struct LyapunovOptions {
  static constexpr CommandRow kRow{"lyapunov",
                                   "finite-time Lyapunov exponents along a run",
                                   "takes one system or scenario",
                                   "lyapunov needs a system name, a model file or a scenario file",
                                   kRunTarget,
                                   kRunTargetHelp,
                                   lyapunovFooter};
  ScenarioOptions scenario;
  TimeOptions time;
  IntegratorWords integrator;
  std::string count;
  bool json = false;
  int countValue = 1;  // filled by parseCommandLine

  void bind(Fields& f) {
    scenario.bind(f);
    time.bind(f);
    integrator.bind(f);
    f("--count", count);
    f("--json", json);
  }
};

struct SweepOptions {
  static constexpr CommandRow kRow{"sweep",
                                   "a parameter study: many runs, measures per run, CSV",
                                   "takes one system or scenario",
                                   "sweep needs a system name, a model file or a scenario file",
                                   kRunTarget,
                                   kRunTargetHelp,
                                   sweepFooter};
  ScenarioOptions scenario;
  TimeOptions time;
  IntegratorWords integrator;
  OutputOptions output;
  std::vector<std::string> vary, sample, measure;
  std::string count, seed, jobs;
  std::string format;  // "csv", "hdf5" or "" (by the --out extension)
  bool mpi = false;    // run under mpirun: ranks share the runs (app/nhsim/sweep_mpi.h)
  bool force = false;  // more than 10^7 runs

  void bind(Fields& f);
};

struct OptimizeOptions {
  static constexpr CommandRow kRow{
      "optimize",
      "an optimal motion from the start to targets at T (Pontryagin / vakonomic)",
      "takes one system or scenario",
      "optimize needs a system name, a model file or a scenario file",
      kRunTarget,
      kRunTargetHelp,
      optimizeFooter};
  ScenarioOptions scenario;          // --set, --init (the start)
  std::vector<std::string> targets;  // --target NAME=VALUE
  std::string tEnd, dtOut, starts, seed, tol, maxIterations;
  // "" until given: --json with --out - is told apart from --json alone
  OutputOptions output{.out = ""};
  bool json = false;
  // Filled by parseCommandLine: the problem, checked.
  double tEndValue = 0, dtOutValue = 0, tolValue = 1e-10;
  int startsValue = 8, maxIterationsValue = 60;
  unsigned seedValue = 1;
  std::map<std::string, double> targetValues;

  void bind(Fields& f);
};

// ---- The command table: every command, in the order of the help. A command is its options
// struct (with its row and its `bind`), a `check` where it needs one (command_line.cpp) and
// its place in this list; nhsim runs it (app/nhsim/nhsim.cpp).

template <class... Options>
struct CommandTable {
  using Line = std::variant<HelpRequest, VersionRequest, Options...>;
  using Structs = std::tuple<Options...>;
  static constexpr CommandRow rows[] = {Options::kRow...};
};
using Commands = CommandTable<ListOptions, InfoOptions, RunOptions, ExportOptions, EquationsOptions,
                              LinearizeOptions, LyapunovOptions, SweepOptions, OptimizeOptions>;

inline constexpr const auto& kCommands = Commands::rows;

// What a command line asks for: help, the version, or one command with its options.
using CommandLine = Commands::Line;

// ---- The commands and options as the parser declares them (nhsim's bash completion is
// generated from them: app/nhsim/completion.h)

// One option: its long name ("--out"), whether it takes a value, and the value's kind as the
// help shows it ("FILE|-", "dopri5|dop853|…"; "" for a flag).
struct DeclaredOption {
  std::string name;
  bool takesValue = false;
  std::string type;
};

// One command of kCommands: its word, the kind of its target as the help shows it
// ("SYSTEM|MODEL.yaml"; "" when it takes none) and its options.
struct DeclaredCommand {
  std::string name;
  std::string target;
  std::vector<DeclaredOption> options;
};

// nhsim's own options (--help, --version) and every command with every option it accepts, in
// the order of their help.
struct DeclaredCommandLine {
  std::vector<DeclaredOption> options;
  std::vector<DeclaredCommand> commands;
};
DeclaredCommandLine declaredCommandLine();

// The usage of every command (nhsim without arguments prints it on stderr).
std::string usageText();

// The syntax of `args` (the arguments after the program's name): one command, its options
// known, each single-valued option once, each value present and not an option itself
// ("-" and negative numbers are values), no extra arguments. Throws UsageError naming the
// option otherwise. --help gives a HelpRequest, --version a VersionRequest.
CommandLine parseArguments(const std::vector<std::string>& args);

// parseArguments, then every check that needs no simulation and writes nothing: the needed
// options given and no combination that kRules refuses, targets and system names exist, values are
// numbers in range, the scenario validates (filling ScenarioOptions::resolved), and no output
// (run's --out and --save-scenario, sweep's --out, export's --video, --frames, --csv and the
// scenario beside the video) is the same file as an input (the target model or scenario, the model
// a scenario names: "… would replace the input …") or as another output. What nhsim would run, or
// an exception (the fuzz target tests/fuzz/fuzz_command_line.cpp calls it with arbitrary words).
CommandLine parseCommandLine(const std::vector<std::string>& args);

// The checks of parseCommandLine on words that parseArguments has read already.
void checkCommandLine(CommandLine& line);

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
