#include "app/nhsim/command_line.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "app/nhsim/export_usage.h"
#include "core/io/atomic_output.h"
#include "core/io/scenario_file.h"
#include "core/model/catalogue.h"
#include "core/model/model_file.h"
#include "core/nh/messages.h"
#include "core/nh/named_choice.h"
#include "core/nh/simulation.h"
#include "core/nh/version.h"

namespace nh::cli {

namespace {

// ---- Usage and help texts

std::string runUsage() {
  return "usage: nhsim list\n"
         "       nhsim info SYSTEM|MODEL.yaml [--json]\n"
         "       nhsim run SYSTEM|MODEL.yaml|SCENARIO.json [--set NAME=VALUE]... [--init "
         "NAME=VALUE]...\n"
         "                 [--t-end T] [--dt-out H]\n"
         "                 [--integrator " +
         alternatives(kIntegrators) +
         "] [--rtol R]\n"
         "                 [--atol A] [--step H] [--max-steps N]\n"
         "                 [--dynamics " +
         alternatives(kDynamicsChoices) +
         "]\n"
         "                 [--formulation " +
         alternatives(kFormulationChoices) +
         "] [--no-projection]\n"
         "                 [--no-reconstruction]\n"
         "                 [--out FILE|-] [--save-scenario FILE] [--quiet]\n";
}

// The integrators named from their rows (core/nh/integrators.h).
std::string runHelp() {
  const std::string fixedStep = joined(integratorNames(&IntegratorRow::fixedStep));
  return "\nrtol must be below 0.1 and atol below 1; the step of a fixed-step integrator (" +
         fixedStep +
         ")\n"
         "may not exceed dt-out.\n"
         "A run whose equations conserve energy but whose energy changed by more than 1 % gets a\n"
         "warning on standard error (tighten the tolerance). A non-finite state, energy or\n"
         "multiplier stops the run (exit 3, the column named); at t = 0 it is refused (exit 2, no\n"
         "file). The integrators that step the whole state (" +
         joined(integratorNames(&IntegratorRow::wholeState)) +
         ") stop (exit 3, with the\n"
         "time) where their Newton iteration fails; those that keep the energy (" +
         joined(integratorNames(&IntegratorRow::conservesEnergy)) +
         ")\n"
         "refuse (exit 2) what they cannot conserve it on.\n"
         "SIGINT, SIGTERM or SIGHUP keep the rows written so far, each complete, end the file "
         "with\n"
         "'# partial: interrupted at t = T …' and exit 130, 143 or 129.\n";
}

const char* kEquationsUsage =
    "       nhsim equations SYSTEM|MODEL.yaml [--latex] [--hamiltonian] [--set NAME=VALUE]...\n";

const char* kLinearizeUsage =
    "       nhsim linearize SYSTEM|MODEL.yaml|SCENARIO.json [--set NAME=VALUE]...\n"
    "                 [--init NAME=VALUE]... [--sweep NAME=FROM:TO:N] [--json]\n";

const char* kSweepUsage =
    "       nhsim sweep SYSTEM|MODEL.yaml|SCENARIO.json [options of run]\n"
    "                 (--vary NAME=FROM:TO:N... | --sample NAME=uniform:LO:HI|normal:MU:SIGMA...\n"
    "                  --count N [--seed S]) --measure [NAME=]EXPR... [--out FILE|-]\n"
    "                 [--format csv|hdf5] [--jobs J] [--mpi] [--force] [--quiet]\n";

const char* kSweepHelp =
    "\nEach run integrates as 'nhsim run' does; its row holds the varied values, the measures\n"
    "and a status (ok, blow-up at t=T, singular point at t=T, non-regular at t=T,\n"
    "failed at t=T: ..., error: ...). A non-finite state, energy or multiplier is a blow-up.\n"
    "A failing run is a row, never the end of the sweep.\n"
    "\n"
    "--vary axes form a grid (their product; the first axis varies slowest), N values from\n"
    "FROM to TO (FROM < TO; N = 1 takes FROM). --sample draws each run's values from a\n"
    "generator keyed by (seed, run, axis): run i gets the same values whatever --jobs is.\n"
    "NAME is a parameter, else a state variable (its initial value; see 'nhsim info').\n"
    "\n"
    "A measure is an expression in the model-file syntax over final(E), initial(E), min(E),\n"
    "max(E), mean(E) (time average, trapezoid) and first_crossing(E) (first time E changes\n"
    "sign, interpolated; nan if never), E an expression of the columns 'nhsim run' writes:\n"
    "  --measure 'reversal=first_crossing(w3)' --measure 'max(abs(lambda_1))'\n"
    "\n"
    "Output: CSV with '#' comment lines (command, system, axes, measures), a header, one\n"
    "row per run in run order: the same bytes for any --jobs. More than 10^7 runs need\n"
    "--force. Ctrl+C keeps the finished rows and ends the file with '# partial: N of M runs'.\n"
    "Progress (runs done, runs/s, time left) goes to standard error unless --quiet.\n"
    "\n"
    "HDF5 (--out FILE.h5 or --format hdf5; a regular file, not - or a device): a 2-D\n"
    "dataset 'values' (one row per run: the varied values, the measures), 'columns' (their\n"
    "names), 'status', and the comment lines as attributes.\n"
    "\n"
    "--mpi: 'mpirun -n P nhsim sweep ... --mpi' shares the runs among P ranks (rank 0 too)\n"
    "in chunks handed out on request, each rank on --jobs threads (default 1 per rank);\n"
    "rank 0 writes the same bytes as without --mpi.\n";

const char* kOptimizeUsage =
    "       nhsim optimize SYSTEM|MODEL.yaml|SCENARIO.json --t-end T --target NAME=VALUE...\n"
    "                 [--init NAME=VALUE]... [--set NAME=VALUE]... [--starts N] [--seed S]\n"
    "                 [--tol TOL] [--max-iterations K] [--dt-out H] [--out FILE|-] [--json]\n"
    "                 [--quiet]\n";

const char* kOptimizeHelp =
    "\nExtremals of the action ∫₀ᵀ L dt from the start (--init, else the model's) to the\n"
    "targets at T. A control model (controls, control_section, cost) gives Pontryagin's\n"
    "equations on its algebroid; any other system the vakonomic problem (admissible curves,\n"
    "Φ = 0), whose unknowns are the free initial velocities and μ(0). Coordinates not\n"
    "targeted are free at T (transversality); a quaternion is targeted by its four\n"
    "components. Multiple shooting, Newton on exact sensitivities; --starts N tries the\n"
    "plain start and N-1 random costates (--seed); distinct extremals are kept.\n"
    "\n"
    "Output: the lowest-cost extremal as CSV ('#' lines, then t, coordinates, velocities,\n"
    "controls and costates xi_<velocity>, or mu_<i> when vakonomic, and the running cost).\n"
    "--json prints every extremal, by cost, as JSON on standard output; with --out FILE the\n"
    "CSV is written too (--json with --out - is refused: both would be standard output).\n"
    "An extremal that is no minimum (Legendre's condition fails: a cost concave in the\n"
    "controls) gets a warning. Exit 0 when an extremal meets --tol (default 1e-10), 3 when\n"
    "none does (no output file), 2 for bad input (a cost not finite at the start, an\n"
    "output that cannot be written: checked before the solve). SIGINT, SIGTERM or SIGHUP\n"
    "end it at once with no output file and exit 130, 143 or 129.\n";

// "list, info, run, …": the commands, as messages name them.
std::string commandNames() {
  std::vector<std::string> names;
  for (const CommandRow& row : kCommandRows) names.emplace_back(row.name);
  return joined(names);
}

// ---- Option values

// A word that would be taken for an option: "--x", "-x"; not "-" (standard output) and not a
// negative number ("-1", "-0.5", "-1e-3", "-inf").
bool looksLikeOption(const std::string& text) {
  if (text.size() < 2 || text[0] != '-') return false;
  if (text[1] == '-') return true;
  if (std::isdigit(static_cast<unsigned char>(text[1])) || text[1] == '.') return false;
  char* end = nullptr;
  std::strtod(text.c_str(), &end);
  return end != text.c_str() + text.size();
}

// Checks every option value: present, not empty and not an option (CLI11 takes the word after
// an option as its value whatever it is: `--out --quiet` would name a file "--quiet").
// An option not given therefore keeps its empty default: "" means "not given".
CLI::Validator valueCheck() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        if (value.empty()) return "needs a value, got an empty one";
        if (looksLikeOption(value))
          return "needs a value, got the option " + quote(value) +
                 " (a file of that name: write ./" + oneLine(value.substr(0, 60)) + ")";
        return {};
      },
      "");
}

// Declares the options of one command, every value checked by valueCheck().
class OptionAdder {
 public:
  OptionAdder(CLI::App& command, const CLI::Validator& check) : command_(command), check_(check) {}

  // The command's one positional argument, the system or file it works on.
  void target(std::string& target, const std::string& type, const std::string& description) {
    command_.add_option("target", target, description)->type_name(type)->check(check_);
  }
  CLI::Option* value(const std::string& name, std::string& target, const std::string& type,
                     const std::string& description) {
    return command_.add_option(name, target, description)->type_name(type)->check(check_);
  }
  // Repeatable: one value per occurrence, kept in order.
  void repeated(const std::string& name, std::vector<std::string>& target, const std::string& type,
                const std::string& description) {
    command_.add_option(name, target, description)
        ->type_name(type)
        ->allow_extra_args(false)
        ->check(check_);
  }
  void flag(const std::string& name, bool& target, const std::string& description) {
    command_.add_flag(name, target, description);
  }
  void footer(const std::string& text) { command_.footer(text); }

 private:
  CLI::App& command_;
  const CLI::Validator& check_;
};

// ---- The option groups several commands share

const char* kRunTarget = "SYSTEM|MODEL.yaml|SCENARIO.json";
const char* kRunTargetHelp = "a system name, a model file or a scenario file (*.json)";

// --set, --init, --dynamics and --formulation (the target is declared apart: export's comes
// before its own options).
void scenarioOptions(OptionAdder& add, ScenarioOptions& o) {
  add.repeated("--set", o.set, "NAME=VALUE",
               "set a parameter (repeatable; see 'nhsim info SYSTEM')");
  add.repeated("--init", o.init, "NAME=VALUE",
               "set an initial state value (repeatable; the others are completed)");
  add.value("--dynamics", o.dynamics, alternatives(kDynamicsChoices),
            "the equations of motion (default " + toString(Scenario{}.dynamics) + ")");
  add.value("--formulation", o.formulation, alternatives(kFormulationChoices),
            "how they are formed (default " + toString(Scenario{}.formulation) + ")");
}

// The integrator and its accuracy, as run and sweep take them; `budget` explains --max-steps.
void integratorOptions(OptionAdder& add, IntegratorWords& o, const std::string& budget) {
  add.value("--integrator", o.method, alternatives(kIntegrators),
            "the integrator (default " + toString(IntegratorOptions{}.method) + ")");
  add.value("--rtol", o.rtol, "R", "relative tolerance of the adaptive integrators");
  add.value("--atol", o.atol, "A", "absolute tolerance of the adaptive integrators");
  add.value(
      "--step", o.step, "H",
      "step of the fixed-step integrators " + joined(integratorNames(&IntegratorRow::fixedStep)));
  add.value("--max-steps", o.maxSteps, "N", budget);
  add.flag("--no-projection", o.noProjection, "do not project the state back onto the constraints");
  add.flag("--no-reconstruction", o.noReconstruction,
           "step every coordinate (no reconstruction over each step)");
}

// ---- The options of each command

void declare(OptionAdder& add, InfoOptions& o) {
  add.target(o.target, "SYSTEM|MODEL.yaml", "a system name (see 'nhsim list') or a model file");
  add.flag("--json", o.json, "print the description as JSON");
}

void declare(OptionAdder& add, RunOptions& o) {
  add.target(o.scenario.target, kRunTarget, kRunTargetHelp);
  scenarioOptions(add, o.scenario);
  add.value("--t-end", o.time.tEnd, "T", "simulate t = 0 … T seconds (default 10)");
  add.value("--dt-out", o.time.dtOut, "H", "write a row every H seconds (default 0.01)");
  integratorOptions(
      add, o.integrator,
      "step budget of the run (default 20000000); a run needing more is refused or stops");
  add.value("--out", o.output.out, "FILE|-", "the CSV file, or - for standard output (default)");
  add.value("--save-scenario", o.saveScenario, "FILE",
            "also write the resolved scenario (JSON) to FILE");
  add.flag("--quiet", o.output.quiet, "no summary on standard output");
  add.footer(runHelp());
}

// What export draws, and the plots beside it.
void drawingOptions(OptionAdder& add, ExportOptions& o) {
  add.value("--trail", o.trail, "SECONDS", "length of the trails (default 10 s)");
  add.flag("--no-trails", o.noTrails, "draw no trails");
  add.flag("--no-forces", o.noForces, "draw no force arrows");
  add.flag("--velocities", o.velocities, "draw velocity arrows");
  add.flag("--no-overlay", o.noOverlay, "no time/parameter overlay");
  add.flag("--plots", o.plots, "show plots beside the 3D view");
  add.value("--plot-path", o.plotPath, "X,Y|none", "the path plot's variables (implies --plots)");
  add.value("--plot", o.plot, "VAR[,VAR]...", "variables plotted over time (implies --plots)");
}

void declare(OptionAdder& add, ExportOptions& o) {
  add.target(o.scenario.target, kRunTarget, kRunTargetHelp);
  auto* video = add.value("--video", o.video, "OUT.mp4|OUT.webm|OUT.gif",
                          "write a video (the format from the ending)");
  auto* frames = add.value("--frames", o.frames, "DIR", "write PNG frames to DIR");
  auto* html = add.value("--html", o.html, "OUT.html",
                         "write an interactive page (one self-contained HTML file)");
  video->excludes(frames);
  html->excludes(video);
  html->excludes(frames);
  add.value("--width", o.width, "W", "width in pixels (default 1280)");
  add.value("--height", o.height, "H", "height in pixels (default 720)");
  add.value("--fps", o.fps, "F", "frames per second (default 30)");
  add.value("--t-start", o.tStart, "T0", "first simulated time shown (default 0)");
  add.value("--t-end", o.tEnd, "T", "last simulated time (default: the scenario's)");
  add.value("--speed", o.speed, "S", "simulated seconds per video second (default 1)");
  scenarioOptions(add, o.scenario);
  drawingOptions(add, o);
  add.value("--csv", o.csv, "FILE", "also write the recorded run as CSV");
  add.value("--max-steps", o.integrator.maxSteps, "N", "step budget of the run (default 20000000)");
  add.flag("--force", o.force,
           "replace an existing scenario file beside the output not written by an export to that "
           "output");
  add.flag("--no-scenario", o.noScenario, "do not write the scenario next to the output");
  add.flag("--quiet", o.quiet, "no summary on standard output");
  add.footer(kExportHelp);
}

void declare(OptionAdder& add, EquationsOptions& o) {
  add.target(o.target, "SYSTEM|MODEL.yaml", "a system name or a model file");
  add.flag("--latex", o.latex, "print LaTeX instead of plain text");
  add.flag("--hamiltonian", o.hamiltonian,
           "the Hamiltonian side: H = p·y − L, the nonholonomic bracket of (q, π) on the "
           "constraint and its Jacobiator (not for a control model)");
  add.repeated("--set", o.set, "NAME=VALUE", "set a parameter of a built-in system (repeatable)");
}

void declare(OptionAdder& add, LinearizeOptions& o) {
  add.target(o.scenario.target, kRunTarget, kRunTargetHelp);
  scenarioOptions(add, o.scenario);
  add.value("--sweep", o.sweep, "NAME=FROM:TO:N",
            "N points from FROM to TO of a parameter or independent state variable");
  add.flag("--json", o.json, "print JSON instead of text");
}

// The study: its axes and measures.
void studyOptions(OptionAdder& add, SweepOptions& o) {
  add.repeated("--vary", o.vary, "NAME=FROM:TO:N",
               "a grid axis: N values of a parameter or initial value (repeatable)");
  add.repeated("--sample", o.sample, "NAME=uniform:LO:HI|normal:MU:SIGMA",
               "a random axis (repeatable; with --count)");
  add.value("--count", o.count, "N", "the number of sampled runs");
  add.value("--seed", o.seed, "S", "the sample's seed, 0 … 2^64-1 (default 0)");
  add.repeated("--measure", o.measure, "[NAME=]EXPR",
               "a column computed from each run (repeatable; see below)");
}

void declare(OptionAdder& add, SweepOptions& o) {
  add.target(o.scenario.target, kRunTarget, kRunTargetHelp);
  scenarioOptions(add, o.scenario);
  add.value("--t-end", o.time.tEnd, "T", "simulate each run t = 0 … T seconds (default 10)");
  add.value("--dt-out", o.time.dtOut, "H", "sample every H seconds for the measures");
  integratorOptions(add, o.integrator, "step budget of each run (default 20000000)");
  studyOptions(add, o);
  add.value("--out", o.output.out, "FILE|-",
            "the CSV file (HDF5 for *.h5, *.hdf5), or - for standard output (default)");
  add.value("--format", o.format, "csv|hdf5", "the output format (default: by --out)");
  add.value("--jobs", o.jobs, "J",
            "worker threads (default: all hardware threads; with --mpi, 1 per rank)");
  add.flag("--mpi", o.mpi, "under mpirun/srun: every rank computes runs, rank 0 writes the output");
  add.flag("--force", o.force, "run more than 10^7 runs");
  add.flag("--quiet", o.output.quiet, "no progress and no summary");
  add.footer(kSweepHelp);
}

void declare(OptionAdder& add, OptimizeOptions& o) {
  add.target(o.scenario.target, kRunTarget, kRunTargetHelp);
  add.repeated("--set", o.scenario.set, "NAME=VALUE",
               "set a parameter (repeatable; see 'nhsim info SYSTEM')");
  add.repeated("--init", o.scenario.init, "NAME=VALUE",
               "set a start coordinate (repeatable; the others are the model's)");
  add.repeated("--target", o.targets, "NAME=VALUE", "a coordinate's value at T (repeatable)");
  add.value("--t-end", o.tEnd, "T", "the time T of the motion (needed)");
  add.value("--starts", o.starts, "N", "Newton starts: the plain one and N-1 random (default 8)");
  add.value("--seed", o.seed, "S", "seed of the random starts (default 1)");
  add.value("--tol", o.tol, "TOL", "tolerance on the end conditions (default 1e-10)");
  add.value("--max-iterations", o.maxIterations, "K", "Newton iterations per start (default 60)");
  add.value("--dt-out", o.dtOut, "H", "write a row every H seconds (default T/200)");
  o.output.out.clear();  // "" until given: --json with --out - is told apart from --json alone
  add.value("--out", o.output.out, "FILE|-",
            "the CSV file, or - for standard output (default unless --json)");
  add.flag("--json", o.json,
           "print every extremal found as JSON on standard output (the CSV only with --out FILE)");
  add.flag("--quiet", o.output.quiet, "no summary on standard error");
  add.footer(kOptimizeHelp);
}

// Every command of kCommandRows, each with its options bound to its own struct: parsing fills
// the struct of the command given, and take() hands it over. Only the commands that the words
// name get their options declared (CLI11 enters no other; declaring all of them was most of
// a short command's start-up).
class Parser {
 public:
  CLI::App app{
      "Nonholonomic Lab on the command line: simulate the systems of the catalogue, "
      "or your model files, and write what happens.",
      "nhsim"};

  explicit Parser(const std::vector<std::string>& words) : words_(words) {
    app.set_help_flag("-h,--help", "print this help and exit");
    app.set_version_flag("--version", std::string("nhsim ") + kVersion,
                         "print \"nhsim VERSION\" and exit");
    app.allow_extras();
    app.get_formatter()->column_width(34);
    for (size_t i = 0; i < std::size(kCommandRows); ++i) {
      commands_[i] = app.add_subcommand(kCommandRows[i].name, kCommandRows[i].summary);
      commands_[i]->allow_extras();
      commands_[i]->footer("");
    }
    declareOn(Command::Info, info_);
    declareOn(Command::Run, run_);
    declareOn(Command::Export, export_);
    declareOn(Command::Equations, equations_);
    declareOn(Command::Linearize, linearize_);
    declareOn(Command::Sweep, sweep_);
    declareOn(Command::Optimize, optimize_);
    app.footer(usageText());
  }
  Parser(const Parser&) = delete;  // CLI11 holds pointers into the option structs
  Parser& operator=(const Parser&) = delete;

  // The row of the command given, null when none was.
  const CommandRow* chosen() const {
    const std::vector<CLI::App*> given = app.get_subcommands();
    if (given.empty()) return nullptr;
    for (size_t i = 0; i < std::size(kCommandRows); ++i)
      if (commands_[i] == given.front()) return &kCommandRows[i];
    return nullptr;
  }
  const CLI::App& commandApp(const CommandRow& row) const {
    return *commands_[indexOf(row.command)];
  }

  // The options of `command` as parsed (once: they are moved out).
  CommandLine take(Command command) {
    switch (command) {
      case Command::List:
        return ListOptions{};
      case Command::Info:
        return std::move(info_);
      case Command::Run:
        return std::move(run_);
      case Command::Export:
        return std::move(export_);
      case Command::Equations:
        return std::move(equations_);
      case Command::Linearize:
        return std::move(linearize_);
      case Command::Sweep:
        return std::move(sweep_);
      case Command::Optimize:
        return std::move(optimize_);
    }
    return ListOptions{};  // not reached: every command is a case above
  }

 private:
  static size_t indexOf(Command command) {
    for (size_t i = 0; i < std::size(kCommandRows); ++i)
      if (kCommandRows[i].command == command) return i;
    return 0;
  }
  template <class Struct>
  void declareOn(Command command, Struct& options) {
    if (std::find(words_.begin(), words_.end(), commandName(command)) == words_.end()) return;
    OptionAdder add(*commands_[indexOf(command)], check_);
    declare(add, options);
  }

  const std::vector<std::string>& words_;

  CLI::Validator check_ = valueCheck();
  std::array<CLI::App*, std::size(kCommandRows)> commands_{};
  InfoOptions info_;
  RunOptions run_;
  ExportOptions export_;
  EquationsOptions equations_;
  LinearizeOptions linearize_;
  SweepOptions sweep_;
  OptimizeOptions optimize_;
};

// ---- Syntax errors

// What CLI11 reports, as one line naming the option (CLI11's messages start "NAME: ").
[[noreturn]] void throwUsage(const CLI::ParseError& e) {
  const std::string what = e.what();
  const size_t colon = what.find(": ");
  const std::string option = colon == std::string::npos ? "" : what.substr(0, colon);
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e)) {
    if (what.find("At Most") != std::string::npos)
      throw UsageError("option " + option + " may be given once");
    throw UsageError("option " + option + " needs a value");
  }
  if (dynamic_cast<const CLI::ValidationError*>(&e))
    throw UsageError("option " + option + oneLine(what.substr(colon + 1)));
  if (dynamic_cast<const CLI::ExcludesError*>(&e))
    throw UsageError("give one of --video, --frames and --html, once");
  throw UsageError(oneLine(what));
}

// The first word no option took: an unknown option or an extra argument.
void refuseExtras(const CLI::App& command, const std::string& name, const std::string& takes) {
  const std::vector<std::string> extras = command.remaining();
  if (extras.empty()) return;
  const std::string& first = extras.front();
  const std::string help = name.empty() ? "'nhsim --help'" : "'nhsim " + name + " --help'";
  if (first.size() > 1 && first[0] == '-' && looksLikeOption(first))
    throw UsageError("unknown option " + quote(first) + (name.empty() ? "" : " for " + name) +
                     " (see " + help + ")");
  throw UsageError((name.empty() ? "nhsim" : name) + " " + takes + ", got also " + quote(first) +
                   " (see " + help + ")");
}

// A first word that is neither an option nor a command.
void refuseUnknownCommand(const std::string& first) {
  if (!first.empty() && first[0] == '-') return;
  for (const CommandRow& row : kCommandRows)
    if (first == row.name) return;
  throw UsageError("unknown command " + quote(first) + " (commands: " + commandNames() +
                   "; see --help)");
}

// The target a command names ("" for list).
std::string targetOf(const CommandLine& line) {
  return std::visit(
      [](const auto& o) -> std::string {
        if constexpr (requires { o.scenario.target; })
          return o.scenario.target;
        else if constexpr (requires { o.target; })
          return o.target;
        else
          return {};
      },
      line);
}

// ---- Inputs and outputs

bool namesStandardOutput(const std::string& path) { return path == "-" || path == "/dev/stdout"; }

// Whether two output paths end in the same place ("-" is standard output).
bool sameOutput(const std::string& a, const std::string& b) {
  namespace fs = std::filesystem;
  if (namesStandardOutput(a) && namesStandardOutput(b)) return true;
  const fs::path pa = a == "-" ? fs::path("/dev/stdout") : fs::path(a);
  const fs::path pb = b == "-" ? fs::path("/dev/stdout") : fs::path(b);
  std::error_code ec;
  if (fs::equivalent(pa, pb, ec) && !ec) return true;
  std::error_code eca, ecb;
  const fs::path ca = fs::weakly_canonical(pa, eca), cb = fs::weakly_canonical(pb, ecb);
  return !eca && !ecb && ca == cb;
}

// A file the command reads or writes, with the words that name it in a message.
struct NamedFile {
  std::string path;
  std::string role;  // "the input scenario 'in.json'", "--out"
};

// Whether `output` is (a link to, another name of) the existing file `input`.
bool sameExistingFile(const std::string& output, const std::string& input) {
  namespace fs = std::filesystem;
  if (output.empty() || input.empty() || namesStandardOutput(output)) return false;
  std::error_code ec;
  if (fs::equivalent(output, input, ec) && !ec) return true;
  std::error_code eco, eci;
  const fs::path co = fs::weakly_canonical(output, eco), ci = fs::weakly_canonical(input, eci);
  return !eco && !eci && co == ci;
}

// The files a command reads: the target (a model or scenario file) and the model file a
// scenario names.
std::vector<NamedFile> inputsOf(const ScenarioOptions& o) {
  std::vector<NamedFile> inputs;
  std::error_code ec;
  if (std::filesystem::is_regular_file(o.target, ec))
    inputs.push_back({o.target, std::string("the input ") +
                                    (model::isModelFilePath(o.target) ? "model " : "scenario ") +
                                    quote(o.target)});
  const std::string& system = o.resolved.system;
  if (o.fromFile && isSystemPath(system))
    inputs.push_back({system, "the model " + quote(system) + " that the scenario " +
                                  quote(o.target) + " names"});
  return inputs;
}

// Adds the output `path` named by `option` unless it is empty (not given) or standard output.
void addOutput(std::vector<NamedFile>& outputs, const std::string& option,
               const std::string& path) {
  if (!path.empty() && !namesStandardOutput(path)) outputs.push_back({path, option});
}

// The files export writes: the video or frames, the resolved scenario beside them
// (clip.mp4.json, DIR.json) and the CSV.
std::vector<NamedFile> exportOutputs(const ExportOptions& o) {
  std::vector<NamedFile> outputs;
  addOutput(outputs, "--video", o.video);
  addOutput(outputs, "--frames", o.frames);
  addOutput(outputs, "--html", o.html);
  const std::string output = !o.video.empty() ? o.video : !o.frames.empty() ? o.frames : o.html;
  if (!o.noScenario && !output.empty()) {
    std::filesystem::path sidecar(output);
    if (!sidecar.has_filename()) sidecar = sidecar.parent_path();
    sidecar += ".json";
    outputs.push_back({sidecar.string(), "the scenario written beside the export"});
  }
  addOutput(outputs, "--csv", o.csv);
  return outputs;
}

// Every output against every input and against the other outputs, before any file is
// opened: an output never replaces what the command reads, and two outputs never share a file.
void checkOutputFiles(const std::vector<NamedFile>& outputs, const std::vector<NamedFile>& inputs) {
  for (const NamedFile& out : outputs)
    for (const NamedFile& in : inputs)
      if (sameExistingFile(out.path, in.path)) {
        const bool option = out.role.rfind("--", 0) == 0;
        throw UsageError(out.role + " " + quote(out.path) + " would replace " + in.role +
                         (option ? "; give another file name"
                                 : "; choose another output name or give --no-scenario"));
      }
  for (size_t i = 0; i < outputs.size(); ++i)
    for (size_t j = i + 1; j < outputs.size(); ++j)
      if (sameOutput(outputs[i].path, outputs[j].path))
        throw UsageError(outputs[i].role + " and " + outputs[j].role + " name the same file " +
                         quote(outputs[j].path) + ": give two files");
}

// An output that cannot be written, found before any work (run's own check, for every
// command): a folder, a path in a folder that does not exist or cannot be written. A FIFO's
// reader is waited for where the command opens it (optimize and run: before their work).
void checkWritable(const std::vector<NamedFile>& outputs) {
  for (const NamedFile& out : outputs) {
    OutputTarget target;
    try {
      target = outputTargetFor(out.path);
    } catch (const Error& e) {
      throw UsageError(out.role + ": " + e.what());
    }
    if (target.kind != OutputTarget::Kind::Replace) continue;
    const std::filesystem::path folder = std::filesystem::path(target.path).parent_path();
    const std::string shown = folder.empty() ? "." : folder.string();
    if (::access(shown.c_str(), W_OK | X_OK) != 0)
      throw UsageError(out.role + ": cannot write " + quote(out.path) + ": " +
                       std::strerror(errno) + " (the folder " + quote(shown) + ")");
  }
}

// ---- The scenario

double numberOr(const std::string& text, const std::string& option, double fallback) {
  return text.empty() ? fallback : parseNumber(text, option);
}

void applyTime(const TimeOptions& o, Scenario& s) {
  s.tEnd = numberOr(o.tEnd, "--t-end", s.tEnd);
  s.dtOut = numberOr(o.dtOut, "--dt-out", s.dtOut);
}

// `fromFile`: the scenario came from a file, which carries its own step.
void applyIntegrator(const IntegratorWords& o, Scenario& s, bool fromFile) {
  if (!o.method.empty()) {
    try {
      s.integrator.method = parseIntegrator(o.method);
    } catch (const InputError& e) {
      rethrowQuoting(e, {o.method});
    }
    // The step is all a fixed-step method's accuracy: it is chosen, not defaulted.
    if (isFixedStep(s.integrator.method) && o.step.empty() && !fromFile)
      throw UsageError(o.method +
                       " is a fixed-step integrator: give its step with --step H (H > 0, "
                       "at most --dt-out; for example --step 0.001)");
  }
  s.integrator.rtol = numberOr(o.rtol, "--rtol", s.integrator.rtol);
  s.integrator.atol = numberOr(o.atol, "--atol", s.integrator.atol);
  s.integrator.step = numberOr(o.step, "--step", s.integrator.step);
  if (!o.maxSteps.empty()) s.integrator.maxSteps = parseStepBudget(o.maxSteps);
  if (o.noProjection) s.integrator.projection = false;
  if (o.noReconstruction) s.integrator.reconstruction = false;
}

// The scenario's system, parameters and initial values checked against each other.
void validateScenario(const ScenarioOptions& o, const Scenario& s) {
  std::vector<std::string> names;  // echoed by the core's messages
  for (const auto* list : {&o.set, &o.init})
    for (const auto& assignment : *list)
      names.push_back(assignment.substr(0, assignment.find('=')));
  names.push_back(s.system);
  const auto system = findNamedSystem(s.system);  // a scenario file names it
  try {
    s.validate();
    resolveParameters(*system, s.parameters);
    const StateLayout layout = stateLayout(*system, s.dynamics);
    for (const auto& [name, value] : s.initial)
      if (layout.find(name) < 0)
        throw InputError("unknown state variable '" + name + "' for system '" + system->name() +
                         "' (state: " + joined(layout.names) + ")");
    // The view's ghost, comparison and plan, against this system and this run's t-end.
    checkScenarioViewFor(s);
  } catch (const InputError& e) {
    rethrowQuoting(e, names);
  }
}

// Fills o.resolved and o.fromFile: the target loaded, the scenario options applied, then the
// time span and the integrator options when the command takes them; validated.
void resolveScenario(ScenarioOptions& o, const TimeOptions* time,
                     const IntegratorWords* integrator) {
  Scenario s = loadTarget(o.target, &o.fromFile);
  applyScenarioOptions(o.set, o.init, o.dynamics, o.formulation, s);
  if (time) applyTime(*time, s);
  if (integrator) applyIntegrator(*integrator, s, o.fromFile);
  validateScenario(o, s);
  o.resolved = std::move(s);
}

// ---- The checks of each command (parseCommandLine)

void check(HelpRequest&) {}
void check(VersionRequest&) {}
void check(ListOptions&) {}
void check(InfoOptions& o) { findNamedSystem(o.target); }

void check(EquationsOptions& o) {
  const auto system = findNamedSystem(o.target);
  if (o.hamiltonian && system->info().isControlModel())
    throw UsageError("--hamiltonian: " + quote(o.target) +
                     " is a control model, whose equations (Pontryagin's) already carry a "
                     "Hamiltonian; --hamiltonian takes a Lagrangian system");
  for (const auto& text : o.set) parseAssignment(text, "--set");
}

void check(RunOptions& o) {
  const std::string& out = o.output.out;
  if (!o.saveScenario.empty() && sameOutput(out, o.saveScenario)) {
    if (namesStandardOutput(out) || namesStandardOutput(o.saveScenario))
      throw UsageError(
          "--out and --save-scenario both write to standard output: give a file to one of them");
    throw UsageError("--out and --save-scenario name the same file " + quote(o.saveScenario) +
                     ": give two files");
  }
  resolveScenario(o.scenario, &o.time, &o.integrator);
  std::vector<NamedFile> outputs;
  addOutput(outputs, "--out", out);
  addOutput(outputs, "--save-scenario", o.saveScenario);
  checkOutputFiles(outputs, inputsOf(o.scenario));
  checkWritable(outputs);
}

void check(ExportOptions& o) {
  auto refuseStandardOutput = [](const std::string& option, const std::string& path) {
    if (namesStandardOutput(path))
      throw UsageError(option + ": standard output is not supported for this output; give a " +
                       (option == "--frames" ? "folder" : "file name"));
  };
  refuseStandardOutput("--video", o.video);
  refuseStandardOutput("--frames", o.frames);
  refuseStandardOutput("--html", o.html);
  // --t-end is the run's t-end (the comparison's step budget counts over it).
  const TimeOptions time{o.tEnd, ""};
  resolveScenario(o.scenario, &time, &o.integrator);
  checkOutputFiles(exportOutputs(o), inputsOf(o.scenario));
  // The video, frames and page (and the scenario beside them) are checked by the export as it
  // starts, before its run; the CSV, written last, here.
  std::vector<NamedFile> csv;
  addOutput(csv, "--csv", o.csv);
  checkWritable(csv);
}

void check(LinearizeOptions& o) { resolveScenario(o.scenario, nullptr, nullptr); }

void check(SweepOptions& o) {
  resolveScenario(o.scenario, &o.time, &o.integrator);
  std::vector<NamedFile> outputs;
  addOutput(outputs, "--out", o.output.out);
  checkOutputFiles(outputs, inputsOf(o.scenario));
  checkWritable(outputs);
}

// A whole number in [lo, hi] given as `text` for `option`.
long wholeNumber(const std::string& text, const std::string& option, long lo, long hi) {
  const double v = parseNumber(text, option);
  if (!(v >= lo && v <= hi) || v != std::floor(v))
    throw UsageError(option + " must be a whole number from " + std::to_string(lo) + " to " +
                     std::to_string(hi) + ", got " + quote(text));
  return static_cast<long>(v);
}

void check(OptimizeOptions& o) {
  if (o.tEnd.empty()) throw UsageError("optimize needs --t-end T, the time of the motion");
  if (o.targets.empty())
    throw UsageError("optimize needs at least one --target NAME=VALUE (a coordinate at T)");
  o.tEndValue = parseNumber(o.tEnd, "--t-end");
  if (!(o.tEndValue > 0) || !std::isfinite(o.tEndValue))
    throw UsageError("--t-end must be a positive number, got " + quote(o.tEnd));
  if (!o.dtOut.empty()) {
    o.dtOutValue = parseNumber(o.dtOut, "--dt-out");
    if (!(o.dtOutValue > 0) || o.tEndValue / o.dtOutValue > 1e7)
      throw UsageError("--dt-out must be positive and give at most 10^7 rows, got " +
                       quote(o.dtOut));
  }
  if (!o.tol.empty()) {
    o.tolValue = parseNumber(o.tol, "--tol");
    if (!(o.tolValue >= 1e-14 && o.tolValue <= 1e-2))
      throw UsageError("--tol must be from 1e-14 to 1e-2, got " + quote(o.tol));
  }
  if (!o.starts.empty())
    o.startsValue = static_cast<int>(wholeNumber(o.starts, "--starts", 1, 10000));
  if (!o.seed.empty())
    o.seedValue = static_cast<unsigned>(wholeNumber(o.seed, "--seed", 0, 4294967295L));
  if (!o.maxIterations.empty())
    o.maxIterationsValue =
        static_cast<int>(wholeNumber(o.maxIterations, "--max-iterations", 1, 10000));
  for (const std::string& t : o.targets) {
    const auto [name, value] = parseAssignment(t, "--target");
    if (!o.targetValues.emplace(name, value).second)
      throw UsageError("--target " + quote(name) + " is given twice");
  }
  // --json prints to standard output: the CSV goes to a file given with --out, or nowhere.
  if (o.json && namesStandardOutput(o.output.out))
    throw UsageError(
        "--json and --out - both write to standard output: give --out a file for the CSV, or "
        "leave --out out for the JSON alone");
  if (o.output.out.empty() && !o.json) o.output.out = "-";
  resolveScenario(o.scenario, nullptr, nullptr);
  std::vector<NamedFile> outputs;
  addOutput(outputs, "--out", o.output.out);
  checkOutputFiles(outputs, inputsOf(o.scenario));
  checkWritable(outputs);
}

// The long names of `options` (a positional target has none), each with its value's kind.
std::vector<DeclaredOption> declaredOptions(const std::vector<const CLI::Option*>& options) {
  std::vector<DeclaredOption> declared;
  for (const CLI::Option* option : options)
    for (const std::string& name : option->get_lnames())
      declared.push_back({"--" + name, option->get_expected_max() > 0, option->get_type_name()});
  return declared;
}

}  // namespace

std::string usageText() {
  return runUsage() + exportUsage() + kEquationsUsage + kLinearizeUsage + kSweepUsage +
         kOptimizeUsage;
}

CommandLine parseArguments(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "help") return HelpRequest{Parser({}).app.help()};
  // What CLI11 answers to these words, without building the parser (nhsim --version starts
  // in about the time of a program that prints a line).
  if (args.size() == 1 && args[0] == "--version") return VersionRequest{};
  refuseUnknownCommand(args[0]);
  Parser parser(args);
  // CLI11 reads the words back to front.
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    parser.app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    return HelpRequest{parser.app.help()};
  } catch (const CLI::CallForAllHelp&) {
    return HelpRequest{parser.app.help("", CLI::AppFormatMode::All)};
  } catch (const CLI::CallForVersion&) {
    return VersionRequest{};
  } catch (const CLI::ParseError& e) {
    throwUsage(e);
  }
  const CommandRow* row = parser.chosen();
  if (!row) {
    refuseExtras(parser.app, "", "takes a command");
    throw UsageError("a command is needed (commands: " + commandNames() + "; see --help)");
  }
  refuseExtras(parser.app, "", "takes one command");
  refuseExtras(parser.commandApp(*row), row->name, row->takes);
  CommandLine line = parser.take(row->command);
  if (*row->missingTarget && targetOf(line).empty()) throw UsageError(row->missingTarget);
  return line;
}

void checkCommandLine(CommandLine& line) {
  std::visit([](auto& options) { check(options); }, line);
}

DeclaredCommandLine declaredCommandLine() {
  std::vector<std::string> words;
  for (const CommandRow& row : kCommandRows) words.emplace_back(row.name);
  const Parser parser(words);  // every command named: every command's options declared
  DeclaredCommandLine line{declaredOptions(parser.app.get_options()), {}};
  for (const CommandRow& row : kCommandRows) {
    const CLI::App& command = parser.commandApp(row);
    DeclaredCommand declared{row.name, "", declaredOptions(command.get_options())};
    for (const CLI::Option* option : command.get_options())
      if (option->get_positional()) declared.target = option->get_type_name();
    line.commands.push_back(std::move(declared));
  }
  return line;
}

CommandLine parseCommandLine(const std::vector<std::string>& args) {
  CommandLine line = parseArguments(args);
  checkCommandLine(line);
  return line;
}

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
