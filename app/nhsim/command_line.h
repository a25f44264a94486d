// The nhsim command line, parsed with CLI11: the commands, their options and their help, in
// one place shared by nhsim and nhsim-export. Each command has its own options struct, built
// from small groups that several commands share (the scenario, the integrator, the output).
// Option values are kept as the words given ("" when an option is not given) and converted
// by the command; parsing runs nothing and writes no file.
#pragma once

#include <map>
#include <string>
#include <variant>
#include <vector>

#include "app/nhsim/cli_support.h"
#include "core/nh/scenario.h"

namespace nh::cli {

enum class Command { List, Info, Run, Export, Equations, Linearize, Sweep, Optimize };

// One row per command: its word, its line in `nhsim --help`, what it takes when more is given
// ("run takes one system or scenario, got also 'x'") and the message when its target is
// missing ("" for none needed). The parser, the help and "unknown command" read it.
struct CommandRow {
  Command command;
  const char* name;
  const char* summary;
  const char* takes;
  const char* missingTarget;
};

inline constexpr CommandRow kCommandRows[] = {
    {Command::List, "list", "list the known systems (name, origin, title)", "takes no arguments",
     ""},
    {Command::Info, "info", "describe a system: parameters, state, constraints",
     "takes one system name", "info needs a system name (see 'nhsim list')"},
    {Command::Run, "run", "simulate and write the trajectory as CSV",
     "takes one system or scenario", "run needs a system name or a scenario file"},
    {Command::Export, "export", "render the 3D view to a video or PNG frames",
     "takes one system or scenario",
     "export needs a system name or a scenario file (see 'nhsim export --help')"},
    {Command::Equations, "equations", "print the derived equations of motion", "takes one system",
     "equations needs a system name or a model file (see 'nhsim list')"},
    {Command::Linearize, "linearize", "eigenvalues of the linearised equations",
     "takes one system or scenario",
     "linearize needs a system name, a model file or a scenario file"},
    {Command::Sweep, "sweep", "a parameter study: many runs, measures per run, CSV",
     "takes one system or scenario", "sweep needs a system name, a model file or a scenario file"},
    {Command::Optimize, "optimize",
     "an optimal motion from the start to targets at T (Pontryagin / vakonomic)",
     "takes one system or scenario",
     "optimize needs a system name, a model file or a scenario file"},
};

// The word of `command` in kCommandRows.
constexpr const char* commandName(Command command) {
  for (const CommandRow& row : kCommandRows)
    if (row.command == command) return row.name;
  return "";
}

// ---- Option groups shared by several commands

// The system or scenario a command works on and the options that change it: run, export,
// linearize and sweep.
struct ScenarioOptions {
  std::string target;                  // a system name, a model file or a scenario file
  std::vector<std::string> set, init;  // --set, --init NAME=VALUE, in order
  std::string dynamics, formulation;
  // Filled by parseCommandLine: the scenario the command runs, validated, and whether the
  // target was a scenario file (which brings its own t_end).
  Scenario resolved;
  bool fromFile = false;
};

// The time span of run and sweep: --t-end and --dt-out.
struct TimeOptions {
  std::string tEnd, dtOut;
};

// The integrator and its accuracy: run and sweep take all of them, export --max-steps only.
struct IntegratorWords {
  std::string method, rtol, atol, step, maxSteps;
  bool noProjection = false, noReconstruction = false;
};

// Where run and sweep write their rows, and whether they report.
struct OutputOptions {
  std::string out = "-";  // "-": standard output
  bool quiet = false;
};

// ---- One struct per command

struct HelpRequest {
  std::string text;  // the help asked for (stdout, exit 0)
};
struct VersionRequest {};

struct ListOptions {};

struct InfoOptions {
  std::string target;
  bool json = false;
};

struct RunOptions {
  ScenarioOptions scenario;
  TimeOptions time;
  IntegratorWords integrator;
  OutputOptions output;
  std::string saveScenario;
};

struct ExportOptions {
  ScenarioOptions scenario;
  std::string video, frames, html;  // one of them
  std::string width, height, fps, tStart, tEnd, speed, trail, plotPath, plot, csv;
  IntegratorWords integrator;  // --max-steps
  bool noTrails = false, noForces = false, velocities = false, noOverlay = false, plots = false,
       noScenario = false, force = false, quiet = false;
};

struct EquationsOptions {
  std::string target;
  std::vector<std::string> set;
  bool latex = false;
  bool hamiltonian = false;  // H and the nonholonomic bracket instead of M ẏ − Aᵀλ = F
};

struct LinearizeOptions {
  ScenarioOptions scenario;
  std::string sweep;  // NAME=FROM:TO:N
  bool json = false;
};

struct SweepOptions {
  ScenarioOptions scenario;
  TimeOptions time;
  IntegratorWords integrator;
  OutputOptions output;
  std::vector<std::string> vary, sample, measure;
  std::string count, seed, jobs;
  std::string format;  // "csv", "hdf5" or "" (by the --out extension)
  bool mpi = false;    // run under mpirun: ranks share the runs (app/nhsim/sweep_mpi.h)
  bool force = false;  // more than 10^7 runs
};

struct OptimizeOptions {
  ScenarioOptions scenario;  // --set, --init (the start); --dynamics and --formulation unused
  std::vector<std::string> targets;  // --target NAME=VALUE
  std::string tEnd, dtOut, starts, seed, tol, maxIterations;
  OutputOptions output;
  bool json = false;
  // Filled by parseCommandLine: the problem, checked.
  double tEndValue = 0, dtOutValue = 0, tolValue = 1e-10;
  int startsValue = 8, maxIterationsValue = 60;
  unsigned seedValue = 1;
  std::map<std::string, double> targetValues;
};

// What a command line asks for: help, the version, or one command with its options.
using CommandLine =
    std::variant<HelpRequest, VersionRequest, ListOptions, InfoOptions, RunOptions, ExportOptions,
                 EquationsOptions, LinearizeOptions, SweepOptions, OptimizeOptions>;

// ---- The commands and options as the parser declares them (nhsim's bash completion is
// generated from them: app/nhsim/completion.h)

// One option: its long name ("--out"), whether it takes a value, and the value's kind as the
// help shows it ("FILE|-", "dopri5|dop853|…"; "" for a flag).
struct DeclaredOption {
  std::string name;
  bool takesValue = false;
  std::string type;
};

// One command of kCommandRows: its word, the kind of its target as the help shows it
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

// parseArguments, then every check that needs no simulation and writes nothing: targets
// and system names exist, values are numbers in range, the scenario validates (filling
// ScenarioOptions::resolved), and no output (run's --out and --save-scenario, sweep's --out,
// export's --video, --frames, --csv and the scenario beside the video) is the same file as an
// input (the target model or scenario, the model a scenario names: "… would replace the input
// …") or as another output. What nhsim would run, or an exception (the fuzz target
// tests/fuzz/fuzz_command_line.cpp calls it with arbitrary words).
CommandLine parseCommandLine(const std::vector<std::string>& args);

// The checks of parseCommandLine on words that parseArguments has read already.
void checkCommandLine(CommandLine& line);

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
