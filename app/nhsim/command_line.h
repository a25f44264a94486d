// The nhsim command line, parsed with CLI11: the commands, their options and their help, in
// one place shared by nhsim and nhsim-export. Parsing runs nothing and writes no file.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "app/nhsim/cli_support.h"
#include "core/nh/scenario.h"

namespace nh::cli {

enum class Command { Help, Version, List, Info, Run, Export, Equations, Linearize, Sweep };

// The words of a command line as given (values not yet converted), per command.
struct CommandLine {
  Command command = Command::Help;
  std::string helpText;         // Command::Help: the help asked for (stdout, exit 0)
  std::string target;           // a system name, a model file or a scenario file
  std::set<std::string> given;  // the long names of the options given ("--t-end")

  bool json = false;   // info, linearize
  bool latex = false;  // equations
  // --set and --init in order, --dynamics, --formulation: run, export, linearize, equations
  // (--set only).
  std::vector<std::string> set, init;
  std::string dynamics, formulation;

  // run, sweep
  std::string tEnd, dtOut, integrator, rtol, atol, step, maxSteps;  // --max-steps: run, export
  bool noProjection = false, noReconstruction = false;
  std::string out = "-", saveScenario;
  bool quiet = false;  // run, export

  std::string sweep;  // linearize

  // sweep (with the run options above, --out, --quiet and --force)
  std::vector<std::string> vary, sample, measure;
  std::string count, seed, jobs;
  std::string format;  // "csv", "hdf5" or "" (by the --out extension)
  bool mpi = false;    // run under mpirun: ranks share the runs (app/nhsim/sweep_mpi.h)

  // export (--t-end above)
  std::string video, frames, width, height, fps, tStart, speed, trail, plotPath, plot, csv;
  bool noTrails = false, noForces = false, velocities = false, noOverlay = false, plots = false,
       noScenario = false, force = false;

  // Filled by parseCommandLine for run, export, linearize and sweep: the scenario to run, and
  // whether the target was a scenario file (which brings its own t_end).
  Scenario scenario;
  bool scenarioFromFile = false;

  bool has(const std::string& option) const { return given.count(option) != 0; }
};

// The usage of every command (nhsim without arguments prints it on stderr).
std::string usageText();

// The syntax of `args` (the arguments after the program's name): one command, its options
// known, each single-valued option once, each value present and not an option itself
// ("-" and negative numbers are values), no extra arguments. Throws UsageError naming the
// option otherwise. --help and --version give Command::Help and Command::Version.
CommandLine parseArguments(const std::vector<std::string>& args);

// The scenario of a run, export, linearize or sweep command line: its target loaded, the
// shared scenario options applied and, for run and sweep, the run options; validated. *fromFile
// tells whether the target was a scenario file. Throws InputError / UsageError.
Scenario scenarioOf(const CommandLine& line, bool* fromFile = nullptr);

// parseArguments, then every check that needs no simulation and writes nothing: targets
// and system names exist, values are numbers in range, the scenario validates, and no output
// (run's --out and --save-scenario, sweep's --out, export's --video, --frames, --csv and the
// scenario beside the video) is the same file as an input (the target model or scenario, the
// model a scenario names: "… would replace the input …") or as another output. What nhsim would
// run, or an exception (the fuzz target tests/fuzz/fuzz_command_line.cpp calls it with arbitrary
// words).
CommandLine parseCommandLine(const std::vector<std::string>& args);

}  // namespace nh::cli
