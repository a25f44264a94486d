// The option table (kOptions), the rules that refuse combinations (kRules), and the usage
// lines and Python keyword arguments written from them.
#include "app/nhsim/command_table.h"

#include <cstring>

#include "core/nh/dynamics.h"
#include "core/nh/integrators.h"
#include "core/nh/named_choice.h"
#include "core/nh/scenario.h"
#include "core/nh/simulation.h"

namespace nh::cli {

namespace {

// The commands that take the system or scenario options, and those that run a simulation.
#define NH_SCENARIO_COMMANDS "run export linearize sweep lyapunov"

std::string integrators() { return alternatives(kIntegrators); }
std::string stepHelp() {
  return "step of the fixed-step integrators " + joined(integratorNames(&IntegratorRow::fixedStep));
}
std::string defaultIntegrator() { return toString(IntegratorOptions{}.method); }
std::string dynamicsKinds() { return alternatives(kDynamicsChoices); }
std::string defaultDynamics() { return toString(Scenario{}.dynamics); }
std::string formulations() { return alternatives(kFormulationChoices); }
std::string defaultFormulation() { return toString(Scenario{}.formulation); }
std::string themes() { return "dark|light"; }

using enum Takes;
using enum PythonWord;

constexpr OptionRow kOptionRows[] = {
    // export: what it writes, and how the clip is timed
    {.name = "--video",
     .commands = "export",
     .type = "OUT.mp4|OUT.webm|OUT.gif",
     .help = "write a video (the format from the ending)",
     .usage = Usage::OneOf},
    {.name = "--frames",
     .commands = "export",
     .type = "DIR",
     .help = "write PNG frames to DIR",
     .usage = Usage::OneOf},
    {.name = "--html",
     .commands = "export",
     .type = "OUT.html",
     .help = "write an interactive page (one self-contained HTML file)",
     .usage = Usage::OneOf},
    {.name = "--lessons",
     .commands = "export",
     .type = "DIR",
     .help = "write every bundled lesson as a page into DIR, with an index.html listing them "
             "(no system or scenario; --live makes the pages live)",
     .usage = Usage::OneOf},
    {.name = "--width",
     .commands = "export",
     .type = "W",
     .help = "width in pixels (default 1280)"},
    {.name = "--height",
     .commands = "export",
     .type = "H",
     .help = "height in pixels (default 720)"},
    {.name = "--fps", .commands = "export", .type = "F", .help = "frames per second (default 30)"},
    {.name = "--t-start",
     .commands = "export",
     .type = "T0",
     .help = "first simulated time shown (default 0)"},
    {.name = "--t-end",
     .commands = "export",
     .type = "T",
     .help = "last simulated time (default: the scenario's)"},
    {.name = "--speed",
     .commands = "export",
     .type = "S",
     .help = "simulated seconds per video second (default 1)"},
    // the system or scenario
    {.name = "--set",
     .commands = NH_SCENARIO_COMMANDS " optimize",
     .takes = Values,
     .type = "NAME=VALUE",
     .help = "set a parameter (repeatable; see 'nhsim info SYSTEM')",
     .python = "set",
     .pythonWord = Assignments},
    {.name = "--set",
     .commands = "equations",
     .takes = Values,
     .type = "NAME=VALUE",
     .help = "set a parameter of a built-in system (repeatable)",
     .python = "set",
     .pythonWord = Assignments},
    {.name = "--init",
     .commands = NH_SCENARIO_COMMANDS,
     .takes = Values,
     .type = "NAME=VALUE",
     .help = "set an initial state value (repeatable; the others are completed)",
     .python = "init",
     .pythonWord = Assignments},
    {.name = "--init",
     .commands = "optimize",
     .takes = Values,
     .type = "NAME=VALUE",
     .help = "set a start coordinate (repeatable; the others are the model's)"},
    {.name = "--dynamics",
     .commands = NH_SCENARIO_COMMANDS,
     .choices = dynamicsKinds,
     .help = "the equations of motion",
     .fallback = defaultDynamics,
     .python = "dynamics",
     .pythonWord = Word},
    {.name = "--formulation",
     .commands = NH_SCENARIO_COMMANDS,
     .choices = formulations,
     .help = "how they are formed",
     .fallback = defaultFormulation,
     .python = "formulation",
     .pythonWord = Word},
    // the time span
    {.name = "--target",
     .commands = "optimize",
     .takes = Values,
     .type = "NAME=VALUE",
     .help = "a coordinate's value at T (repeatable)",
     .usage = Usage::Needed,
     .needed = "a coordinate at T"},
    {.name = "--t-end",
     .commands = "run",
     .type = "T",
     .help = "simulate t = 0 … T seconds (default 10)",
     .python = "t_end",
     .pythonWord = Word},
    {.name = "--t-end",
     .commands = "sweep",
     .type = "T",
     .help = "simulate each run t = 0 … T seconds (default 10)",
     .python = "t_end",
     .pythonWord = Word},
    {.name = "--t-end",
     .commands = "lyapunov",
     .type = "T",
     .help = "estimate over t = 0 … T (printed at T/2 and at T)",
     .usage = Usage::Needed,
     .needed = "the time of the estimate"},
    {.name = "--t-end",
     .commands = "optimize",
     .type = "T",
     .help = "the time T of the motion",
     .usage = Usage::Needed,
     .needed = "the time of the motion"},
    {.name = "--dt-out",
     .commands = "run",
     .type = "H",
     .help = "write a row every H seconds (default 0.01)",
     .python = "dt_out",
     .pythonWord = Word},
    {.name = "--dt-out",
     .commands = "lyapunov",
     .type = "H",
     .help = "estimate (a QR factorisation of the fields) every H seconds (default 0.01)"},
    {.name = "--dt-out",
     .commands = "sweep",
     .type = "H",
     .help = "sample every H seconds for the measures",
     .python = "dt_out",
     .pythonWord = Word},
    // the integrator
    {.name = "--integrator",
     .commands = "run sweep lyapunov",
     .choices = integrators,
     .help = "the integrator",
     .fallback = defaultIntegrator,
     .python = "integrator",
     .pythonWord = Word},
    {.name = "--rtol",
     .commands = "run sweep lyapunov",
     .type = "R",
     .help = "relative tolerance of the adaptive integrators",
     .python = "rtol",
     .pythonWord = Word},
    {.name = "--atol",
     .commands = "run sweep lyapunov",
     .type = "A",
     .help = "absolute tolerance of the adaptive integrators",
     .python = "atol",
     .pythonWord = Word},
    {.name = "--step",
     .commands = "run sweep lyapunov",
     .type = "H",
     .helpFrom = stepHelp,
     .python = "step",
     .pythonWord = Word},
    {.name = "--max-steps",
     .commands = "run",
     .type = "N",
     .help = "step budget of the run (default 20000000); a run needing more is refused or stops",
     .python = "max_steps",
     .pythonWord = Word},
    {.name = "--max-steps",
     .commands = "lyapunov",
     .type = "N",
     .help = "step budget of the run (default 20000000)"},
    {.name = "--max-steps",
     .commands = "sweep",
     .type = "N",
     .help = "step budget of each run (default 20000000)",
     .python = "max_steps",
     .pythonWord = Word},
    {.name = "--no-projection",
     .commands = "run sweep lyapunov",
     .takes = Flag,
     .help = "do not project the state back onto the constraints",
     .python = "projection",
     .pythonWord = IfFalse},
    {.name = "--no-reconstruction",
     .commands = "run sweep lyapunov",
     .takes = Flag,
     .help = "step every coordinate (no reconstruction over each step)",
     .python = "reconstruction",
     .pythonWord = IfFalse},
    // export: what it draws, the plots beside it, the run
    {.name = "--trail",
     .commands = "export",
     .type = "SECONDS",
     .help = "length of the trails (default 10 s)"},
    {.name = "--no-trails", .commands = "export", .takes = Flag, .help = "draw no trails"},
    {.name = "--no-forces", .commands = "export", .takes = Flag, .help = "draw no force arrows"},
    {.name = "--velocities", .commands = "export", .takes = Flag, .help = "draw velocity arrows"},
    {.name = "--no-overlay",
     .commands = "export",
     .takes = Flag,
     .help = "no time/parameter overlay"},
    {.name = "--theme",
     .commands = "export",
     .choices = themes,
     .help = "the scene's, plots' and page's theme (default: the scenario view's, else dark)"},
    {.name = "--plots",
     .commands = "export",
     .takes = Flag,
     .help = "show plots beside the 3D view"},
    {.name = "--plot-path",
     .commands = "export",
     .type = "X,Y|none",
     .help = "the path plot's variables (implies --plots)"},
    {.name = "--plot",
     .commands = "export",
     .type = "VAR[,VAR]...",
     .help = "variables plotted over time (implies --plots)"},
    {.name = "--csv",
     .commands = "export",
     .type = "FILE",
     .help = "also write the recorded run as CSV"},
    {.name = "--max-steps",
     .commands = "export",
     .type = "N",
     .help = "step budget of the run (default 20000000)"},
    // sweep: the study
    {.name = "--vary",
     .commands = "sweep",
     .takes = Values,
     .type = "NAME=FROM:TO:N",
     .help = "a grid axis: N values of a parameter or initial value (repeatable)",
     .python = "vary",
     .pythonWord = Axes},
    {.name = "--sample",
     .commands = "sweep",
     .takes = Values,
     .type = "NAME=uniform:LO:HI|normal:MU:SIGMA",
     .help = "a random axis (repeatable; with --count)",
     .python = "sample",
     .pythonWord = Axes},
    {.name = "--count",
     .commands = "sweep",
     .type = "N",
     .help = "the number of sampled runs",
     .python = "count",
     .pythonWord = Word},
    {.name = "--seed",
     .commands = "sweep",
     .type = "S",
     .help = "the sample's seed, 0 … 2^64-1 (default 0)",
     .python = "seed",
     .pythonWord = Word},
    {.name = "--measure",
     .commands = "sweep",
     .takes = Values,
     .type = "[NAME=]EXPR",
     .help = "a column computed from each run (repeatable; see below)",
     .python = "measures",
     .pythonWord = Texts},
    // optimize: the solve
    {.name = "--starts",
     .commands = "optimize",
     .type = "N",
     .help = "Newton starts: the plain one and N-1 random (default 8)"},
    {.name = "--seed",
     .commands = "optimize",
     .type = "S",
     .help = "seed of the random starts (default 1)"},
    {.name = "--tol",
     .commands = "optimize",
     .type = "TOL",
     .help = "tolerance on the end conditions (default 1e-10)"},
    {.name = "--max-iterations",
     .commands = "optimize",
     .type = "K",
     .help = "Newton iterations per start (default 60)"},
    {.name = "--dt-out",
     .commands = "optimize",
     .type = "H",
     .help = "write a row every H seconds (default T/200)"},
    // linearize and equations
    {.name = "--sweep",
     .commands = "linearize",
     .type = "NAME=FROM:TO:N",
     .help = "N points from FROM to TO of a parameter or independent state variable"},
    {.name = "--latex",
     .commands = "equations",
     .takes = Flag,
     .help = "print LaTeX instead of plain text",
     .python = "latex",
     .pythonWord = IfTrue},
    {.name = "--hamiltonian",
     .commands = "equations",
     .takes = Flag,
     .help = "the Hamiltonian side: H = p·y − L, the nonholonomic bracket of (q, π) on the "
             "constraint and its Jacobiator (not for a control model)",
     .python = "hamiltonian",
     .pythonWord = IfTrue},
    {.name = "--gibbs-appell",
     .commands = "equations",
     .takes = Flag,
     .help = "the Gibbs–Appell function G_L = ½ (ẏ − a)ᵀ M (ẏ − a), G_L on the constraint and "
             "its equations ∂G_L/∂ẇ = Υ with their solution (L quadratic in y; not for a "
             "control model)",
     .python = "gibbs_appell",
     .pythonWord = IfTrue},
    // Jacobi fields: sensitivities and Lyapunov exponents
    {.name = "--sensitivity",
     .commands = "run",
     .takes = Values,
     .type = "NAME[,NAME]...",
     .help = "add the columns d<state column>/d<NAME> for the initial value or parameter "
             "NAME (repeatable; integrated with the run from the exact Jacobian)",
     .python = "sensitivity",
     .pythonWord = Texts},
    {.name = "--count",
     .commands = "lyapunov",
     .type = "K",
     .help = "the number of exponents, the largest first (default 1)"},
    {.name = "--json", .commands = "lyapunov", .takes = Flag, .help = "print JSON instead of text"},
    // where the output goes
    {.name = "--out",
     .commands = "run",
     .type = "FILE|-",
     .help = "the CSV file, or - for standard output (default)"},
    {.name = "--out",
     .commands = "sweep",
     .type = "FILE|-",
     .help = "the CSV file (HDF5 for *.h5, *.hdf5), or - for standard output (default)"},
    {.name = "--out",
     .commands = "optimize",
     .type = "FILE|-",
     .help = "the CSV file, or - for standard output (default unless --json)"},
    {.name = "--save-scenario",
     .commands = "run",
     .type = "FILE",
     .help = "also write the resolved scenario (JSON) to FILE"},
    {.name = "--format",
     .commands = "sweep",
     .type = "csv|hdf5",
     .help = "the output format (default: by --out)"},
    {.name = "--jobs",
     .commands = "sweep",
     .type = "J",
     .help = "worker threads (default: all hardware threads; with --mpi, 1 per rank)",
     .python = "jobs",
     .pythonWord = Word},
    {.name = "--mpi",
     .commands = "sweep",
     .takes = Flag,
     .help = "under mpirun/srun: every rank computes runs, rank 0 writes the output"},
    {.name = "--force",
     .commands = "export",
     .takes = Flag,
     .help = "replace an existing scenario file beside the output not written by an export to "
             "that output"},
    {.name = "--force",
     .commands = "sweep",
     .takes = Flag,
     .help = "run more than 10^7 runs",
     .python = "force",
     .pythonWord = IfTrue},
    {.name = "--no-scenario",
     .commands = "export",
     .takes = Flag,
     .help = "do not write the scenario next to the output"},
    {.name = "--live",
     .commands = "export",
     .takes = Flag,
     .help = "with --html: the page runs the motion itself (the web engine inside it): "
             "parameters and initial values as sliders, edits while it plays, undo, the setup "
             "in its link"},
    {.name = "--json", .commands = "info", .takes = Flag, .help = "print the description as JSON"},
    {.name = "--constraints",
     .commands = "info",
     .takes = Flag,
     .help = "derive the algebroid of the constraints (their distribution D, its anchor and "
             "projected bracket) and say whether they are holonomic, with the bracket that "
             "leaves D when they are not"},
    {.name = "--json",
     .commands = "linearize",
     .takes = Flag,
     .help = "print JSON instead of text"},
    {.name = "--json",
     .commands = "optimize",
     .takes = Flag,
     .help = "print every extremal found as JSON on standard output (the CSV only with --out "
             "FILE)"},
    {.name = "--quiet",
     .commands = "run export",
     .takes = Flag,
     .help = "no summary on standard output"},
    {.name = "--quiet", .commands = "sweep", .takes = Flag, .help = "no progress and no summary"},
    {.name = "--quiet",
     .commands = "optimize",
     .takes = Flag,
     .help = "no summary on standard error"},
};

#undef NH_SCENARIO_COMMANDS

using When::Given;
using When::StandardOutput;

constexpr OptionRule kRuleRows[] = {
    {"run", "--save-scenario", StandardOutput, OptionRule::Excludes, "--out", StandardOutput,
     "--out and --save-scenario both write to standard output: give a file to one of them"},
    {"optimize", "--json", Given, OptionRule::Excludes, "--out", StandardOutput,
     "--json and --out - both write to standard output: give --out a file for the CSV, or "
     "leave --out out for the JSON alone"},
    {"export", "--width", Given, OptionRule::Excludes, "--html", Given,
     "--width does not apply to a page (--html): leave it out"},
    {"export", "--height", Given, OptionRule::Excludes, "--html", Given,
     "--height does not apply to a page (--html): leave it out"},
    {"export", "--no-overlay", Given, OptionRule::Excludes, "--html", Given,
     "--no-overlay does not apply to a page (--html): leave it out"},
    {"equations", "--gibbs-appell", Given, OptionRule::Excludes, "--hamiltonian", Given,
     "give either --hamiltonian or --gibbs-appell, not both"},
    {"sweep", "--vary", Given, OptionRule::Excludes, "--sample", Given,
     "give either --vary axes or --sample axes, not both"},
    {"sweep", "--sample", Given, OptionRule::Needs, "--count", Given, "--sample needs --count N"},
    {"sweep", "--count", Given, OptionRule::Needs, "--sample", Given,
     "--count goes with --sample, not with --vary"},
    {"sweep", "--seed", Given, OptionRule::Needs, "--sample", Given,
     "--seed goes with --sample, not with --vary"},
};

// One token of a usage line: "[--t-end T]", "--target NAME=VALUE...", "[--json]". (Built by
// appending: GCC 12 warns of an overlap, wrongly, in "[" + std::string at -O3.)
std::string usageToken(const OptionRow& row) {
  const bool needed = row.usage == Usage::Needed;
  std::string token;
  if (!needed) token += '[';
  token += row.name;
  if (row.takes != Flag) token.append(" ").append(valueKind(row));
  if (!needed) token += ']';
  if (row.takes == Values) token += "...";
  return token;
}

}  // namespace

const std::span<const OptionRow> kOptions(kOptionRows);
const std::span<const OptionRule> kRules(kRuleRows);

bool names(const char* commands, const std::string& command) {
  const size_t length = command.size();
  for (const char* at = commands; (at = std::strstr(at, command.c_str())) != nullptr;
       at += length) {
    const bool starts = at == commands || at[-1] == ' ';
    const bool ends = at[length] == '\0' || at[length] == ' ';
    if (starts && ends && length > 0) return true;
  }
  return false;
}

std::vector<const OptionRow*> optionsOf(const std::string& command) {
  std::vector<const OptionRow*> rows;
  for (const OptionRow& row : kOptions)
    if (names(row.commands, command)) rows.push_back(&row);
  return rows;
}

std::string valueKind(const OptionRow& row) { return row.choices ? row.choices() : row.type; }

std::string helpLine(const OptionRow& row) {
  std::string help = row.helpFrom ? row.helpFrom() : row.help;
  if (row.fallback) help.append(" (default ").append(row.fallback()).append(")");
  if (row.usage == Usage::Needed) help += " (needed)";
  return help;
}

std::string usageOf(const CommandRow& command) {
  std::vector<std::string> tokens;
  if (*command.target) tokens.emplace_back(command.target);
  // The options that exclude each other as one group, "(--a A | --b B)", each alternative a
  // token of its own so that a long group may break between them.
  std::vector<std::string> oneOf;
  auto endGroup = [&] {
    if (oneOf.empty()) return;
    oneOf.front() = std::string("(").append(oneOf.front());
    oneOf.back().append(")");
    tokens.insert(tokens.end(), oneOf.begin(), oneOf.end());
    oneOf.clear();
  };
  for (const OptionRow* row : optionsOf(command.name)) {
    if (row->usage == Usage::OneOf) {
      std::string alternative(oneOf.empty() ? "" : "| ");
      alternative.append(row->name).append(" ").append(valueKind(*row));
      oneOf.push_back(std::move(alternative));
      continue;
    }
    endGroup();
    tokens.push_back(usageToken(*row));
  }
  endGroup();
  // Lines of at most 96 columns after the 7 of "usage: ", continuations under the target.
  const std::string indent(10, ' ');
  constexpr size_t kWidth = 89;
  std::string text = "nhsim ";
  text += command.name;
  std::string line = text;
  for (const std::string& token : tokens) {
    if (line.size() + 1 + token.size() > kWidth && line != indent) {
      text += "\n" + indent;
      line = indent;
    } else {
      text += " ";
      line += " ";
    }
    text += token;
    line += token;
  }
  return text + "\n";
}

std::vector<PythonArgument> pythonArguments(const std::string& command) {
  std::vector<PythonArgument> arguments;
  for (const OptionRow* row : optionsOf(command))
    if (row->pythonWord != PythonWord::None)
      arguments.push_back({row->python, row->name, row->pythonWord, helpLine(*row)});
  return arguments;
}

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
