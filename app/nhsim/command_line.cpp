#include "app/nhsim/command_line.h"

#include <CLI/CLI.hpp>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "app/nhsim/export_usage.h"
#include "core/io/scenario_file.h"
#include "core/model/catalogue.h"
#include "core/model/model_file.h"
#include "core/nh/version.h"

namespace nh::cli {

namespace {

const char* kCommands = "list, info, run, export, equations, linearize, sweep";

const char* kRunUsage =
    "usage: nhsim list\n"
    "       nhsim info SYSTEM|MODEL.yaml [--json]\n"
    "       nhsim run SYSTEM|MODEL.yaml|SCENARIO.json [--set NAME=VALUE]... [--init "
    "NAME=VALUE]...\n"
    "                 [--t-end T] [--dt-out H]\n"
    "                 [--integrator dopri5|dop853|rk78|rk4|arkode78|bdf] [--rtol R]\n"
    "                 [--atol A] [--step H] [--max-steps N]\n"
    "                 [--dynamics nonholonomic|vakonomic]\n"
    "                 [--formulation multipliers|gibbs-appell] [--no-projection]\n"
    "                 [--no-reconstruction]\n"
    "                 [--out FILE|-] [--save-scenario FILE] [--quiet]\n";

const char* kRunHelp =
    "\nrtol must be below 0.1 and atol below 1; an rk4 step may not exceed dt-out. A run whose\n"
    "equations conserve energy but whose energy changed by more than 1 % gets a warning on\n"
    "standard error (tighten the tolerance). A non-finite state, energy or multiplier stops\n"
    "the run (exit 3, the column named); at t = 0 it is refused (exit 2, no file).\n"
    "SIGINT, SIGTERM or SIGHUP keep the rows written so far, each complete, end the file with\n"
    "'# partial: interrupted at t = T …' and exit 130, 143 or 129.\n";

const char* kEquationsUsage =
    "       nhsim equations SYSTEM|MODEL.yaml [--latex] [--set NAME=VALUE]...\n";

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

struct Parser {
  CLI::App app{
      "Nonholonomic Lab on the command line: simulate the systems of the catalogue, "
      "or your model files, and write what happens.",
      "nhsim"};
  CLI::App* list = nullptr;
  CLI::App* info = nullptr;
  CLI::App* run = nullptr;
  CLI::App* exporter = nullptr;
  CLI::App* equations = nullptr;
  CLI::App* linearize = nullptr;
  CLI::App* sweep = nullptr;
  CLI::Validator check = valueCheck();

  CLI::Option* value(CLI::App* command, const std::string& name, std::string& target,
                     const std::string& type, const std::string& description) {
    return command->add_option(name, target, description)->type_name(type)->check(check);
  }
  // Repeatable: one value per occurrence, kept in order.
  CLI::Option* repeated(CLI::App* command, const std::string& name,
                        std::vector<std::string>& target, const std::string& type,
                        const std::string& description) {
    return command->add_option(name, target, description)
        ->type_name(type)
        ->allow_extra_args(false)
        ->check(check);
  }
  void scenarioOptions(CLI::App* command, CommandLine& line) {
    repeated(command, "--set", line.set, "NAME=VALUE",
             "set a parameter (repeatable; see 'nhsim info SYSTEM')");
    repeated(command, "--init", line.init, "NAME=VALUE",
             "set an initial state value (repeatable; the others are completed)");
    value(command, "--dynamics", line.dynamics, "nonholonomic|vakonomic",
          "the equations of motion (default nonholonomic)");
    value(command, "--formulation", line.formulation, "multipliers|gibbs-appell",
          "how they are formed (default multipliers)");
  }

  // The integrator and its accuracy, as run and sweep take them.
  void integratorOptions(CLI::App* command, CommandLine& line, const std::string& budget) {
    value(command, "--integrator", line.integrator, "dopri5|dop853|rk78|rk4|arkode78|bdf",
          "the integrator (default dopri5)");
    value(command, "--rtol", line.rtol, "R", "relative tolerance of the adaptive integrators");
    value(command, "--atol", line.atol, "A", "absolute tolerance of the adaptive integrators");
    value(command, "--step", line.step, "H", "step of the fixed-step integrator rk4");
    value(command, "--max-steps", line.maxSteps, "N", budget);
    command->add_flag("--no-projection", line.noProjection,
                      "do not project the state back onto the constraints");
    command->add_flag("--no-reconstruction", line.noReconstruction,
                      "step every coordinate (no reconstruction over each step)");
  }

  explicit Parser(CommandLine& line) {
    app.set_help_flag("-h,--help", "print this help and exit");
    app.set_version_flag("--version", std::string("nhsim ") + kVersion,
                         "print \"nhsim VERSION\" and exit");
    app.allow_extras();
    app.get_formatter()->column_width(34);

    list = app.add_subcommand("list", "list the known systems (name, origin, title)");
    info = app.add_subcommand("info", "describe a system: parameters, state, constraints");
    run = app.add_subcommand("run", "simulate and write the trajectory as CSV");
    exporter = app.add_subcommand("export", "render the 3D view to a video or PNG frames");
    equations = app.add_subcommand("equations", "print the derived equations of motion");
    linearize = app.add_subcommand("linearize", "eigenvalues of the linearised equations");
    sweep = app.add_subcommand("sweep", "a parameter study: many runs, measures per run, CSV");
    for (CLI::App* command : {list, info, run, exporter, equations, linearize, sweep}) {
      command->allow_extras();
      command->footer("");
    }

    info->add_option("target", line.target, "a system name (see 'nhsim list') or a model file")
        ->type_name("SYSTEM|MODEL.yaml")
        ->check(check);
    info->add_flag("--json", line.json, "print the description as JSON");

    run->add_option("target", line.target,
                    "a system name, a model file or a scenario file (*.json)")
        ->type_name("SYSTEM|MODEL.yaml|SCENARIO.json")
        ->check(check);
    scenarioOptions(run, line);
    value(run, "--t-end", line.tEnd, "T", "simulate t = 0 … T seconds (default 10)");
    value(run, "--dt-out", line.dtOut, "H", "write a row every H seconds (default 0.01)");
    integratorOptions(
        run, line,
        "step budget of the run (default 20000000); a run needing more is refused or stops");
    value(run, "--out", line.out, "FILE|-", "the CSV file, or - for standard output (default)");
    value(run, "--save-scenario", line.saveScenario, "FILE",
          "also write the resolved scenario (JSON) to FILE");
    run->add_flag("--quiet", line.quiet, "no summary on standard output");
    run->footer(kRunHelp);

    exporter
        ->add_option("target", line.target,
                     "a system name, a model file or a scenario file (*.json)")
        ->type_name("SYSTEM|MODEL.yaml|SCENARIO.json")
        ->check(check);
    auto* video = value(exporter, "--video", line.video, "OUT.mp4|OUT.webm|OUT.gif",
                        "write a video (the format from the ending)");
    auto* frames = value(exporter, "--frames", line.frames, "DIR", "write PNG frames to DIR");
    video->excludes(frames);
    value(exporter, "--width", line.width, "W", "width in pixels (default 1280)");
    value(exporter, "--height", line.height, "H", "height in pixels (default 720)");
    value(exporter, "--fps", line.fps, "F", "frames per second (default 30)");
    value(exporter, "--t-start", line.tStart, "T0", "first simulated time shown (default 0)");
    value(exporter, "--t-end", line.tEnd, "T", "last simulated time (default: the scenario's)");
    value(exporter, "--speed", line.speed, "S", "simulated seconds per video second (default 1)");
    scenarioOptions(exporter, line);
    value(exporter, "--trail", line.trail, "SECONDS", "length of the trails (default 10 s)");
    exporter->add_flag("--no-trails", line.noTrails, "draw no trails");
    exporter->add_flag("--no-forces", line.noForces, "draw no force arrows");
    exporter->add_flag("--velocities", line.velocities, "draw velocity arrows");
    exporter->add_flag("--no-overlay", line.noOverlay, "no time/parameter overlay");
    exporter->add_flag("--plots", line.plots, "show plots beside the 3D view");
    value(exporter, "--plot-path", line.plotPath, "X,Y|none",
          "the path plot's variables (implies --plots)");
    value(exporter, "--plot", line.plot, "VAR[,VAR]...",
          "variables plotted over time (implies --plots)");
    value(exporter, "--csv", line.csv, "FILE", "also write the recorded run as CSV");
    value(exporter, "--max-steps", line.maxSteps, "N", "step budget of the run (default 20000000)");
    exporter->add_flag("--force", line.force,
                       "replace an existing scenario file beside the output not written by an "
                       "export to that output");
    exporter->add_flag("--no-scenario", line.noScenario,
                       "do not write the scenario next to the output");
    exporter->add_flag("--quiet", line.quiet, "no summary on standard output");
    exporter->footer(kExportHelp);

    equations->add_option("target", line.target, "a system name or a model file")
        ->type_name("SYSTEM|MODEL.yaml")
        ->check(check);
    equations->add_flag("--latex", line.latex, "print LaTeX instead of plain text");
    repeated(equations, "--set", line.set, "NAME=VALUE",
             "set a parameter of a built-in system (repeatable)");

    linearize
        ->add_option("target", line.target,
                     "a system name, a model file or a scenario file (*.json)")
        ->type_name("SYSTEM|MODEL.yaml|SCENARIO.json")
        ->check(check);
    scenarioOptions(linearize, line);
    value(linearize, "--sweep", line.sweep, "NAME=FROM:TO:N",
          "N points from FROM to TO of a parameter or independent state variable");
    linearize->add_flag("--json", line.json, "print JSON instead of text");

    sweep
        ->add_option("target", line.target,
                     "a system name, a model file or a scenario file (*.json)")
        ->type_name("SYSTEM|MODEL.yaml|SCENARIO.json")
        ->check(check);
    scenarioOptions(sweep, line);
    value(sweep, "--t-end", line.tEnd, "T", "simulate each run t = 0 … T seconds (default 10)");
    value(sweep, "--dt-out", line.dtOut, "H", "sample every H seconds for the measures");
    integratorOptions(sweep, line, "step budget of each run (default 20000000)");
    repeated(sweep, "--vary", line.vary, "NAME=FROM:TO:N",
             "a grid axis: N values of a parameter or initial value (repeatable)");
    repeated(sweep, "--sample", line.sample, "NAME=uniform:LO:HI|normal:MU:SIGMA",
             "a random axis (repeatable; with --count)");
    value(sweep, "--count", line.count, "N", "the number of sampled runs");
    value(sweep, "--seed", line.seed, "S", "the sample's seed, 0 … 2^64-1 (default 0)");
    repeated(sweep, "--measure", line.measure, "[NAME=]EXPR",
             "a column computed from each run (repeatable; see below)");
    value(sweep, "--out", line.out, "FILE|-",
          "the CSV file (HDF5 for *.h5, *.hdf5), or - for standard output (default)");
    value(sweep, "--format", line.format, "csv|hdf5", "the output format (default: by --out)");
    value(sweep, "--jobs", line.jobs, "J",
          "worker threads (default: all hardware threads; with --mpi, 1 per rank)");
    sweep->add_flag("--mpi", line.mpi,
                    "under mpirun/srun: every rank computes runs, rank 0 writes the output");
    sweep->add_flag("--force", line.force, "run more than 10^7 runs");
    sweep->add_flag("--quiet", line.quiet, "no progress and no summary");
    sweep->footer(kSweepHelp);

    app.footer(usageText());
  }
};

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
    throw UsageError("give one of --video and --frames, once");
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
std::vector<NamedFile> inputsOf(const CommandLine& line) {
  std::vector<NamedFile> inputs;
  std::error_code ec;
  const bool targetIsFile = std::filesystem::is_regular_file(line.target, ec);
  if (targetIsFile)
    inputs.push_back(
        {line.target, std::string("the input ") +
                          (model::isModelFilePath(line.target) ? "model " : "scenario ") +
                          quote(line.target)});
  const std::string& system = line.scenario.system;
  if (line.scenarioFromFile && isSystemPath(system))
    inputs.push_back({system, "the model " + quote(system) + " that the scenario " +
                                  quote(line.target) + " names"});
  return inputs;
}

// The files a command writes, by the option that names them (standard output left out).
std::vector<NamedFile> outputsOf(const CommandLine& line) {
  std::vector<NamedFile> outputs;
  auto add = [&](const std::string& option, const std::string& path) {
    if (line.has(option) && !path.empty() && !namesStandardOutput(path))
      outputs.push_back({path, option});
  };
  switch (line.command) {
    case Command::Run:
      add("--out", line.out);
      add("--save-scenario", line.saveScenario);
      break;
    case Command::Sweep:
      add("--out", line.out);
      break;
    case Command::Export: {
      add("--video", line.video);
      add("--frames", line.frames);
      // The resolved scenario written beside the video (clip.mp4.json) or frames (DIR.json).
      const std::string output = line.has("--video") ? line.video : line.frames;
      if (!line.noScenario && !output.empty()) {
        std::filesystem::path sidecar(output);
        if (!sidecar.has_filename()) sidecar = sidecar.parent_path();
        sidecar += ".json";
        outputs.push_back({sidecar.string(), "the scenario written beside the export"});
      }
      add("--csv", line.csv);
      break;
    }
    default:
      break;  // info, list, equations and linearize write standard output only
  }
  return outputs;
}

// Every output against every input and against the other outputs, before any file is
// opened: an output never replaces what the command reads, and two outputs never share a file.
void checkOutputFiles(const CommandLine& line) {
  const std::vector<NamedFile> outputs = outputsOf(line);
  const std::vector<NamedFile> inputs = inputsOf(line);
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

double numberOr(const std::string& text, const std::string& option, double fallback) {
  return text.empty() ? fallback : parseNumber(text, option);
}

}  // namespace

std::string usageText() {
  return std::string(kRunUsage) + kExportUsage + kEquationsUsage + kLinearizeUsage + kSweepUsage;
}

CommandLine parseArguments(const std::vector<std::string>& args) {
  CommandLine line;
  if (args.empty() || args[0] == "help") {
    line.helpText = Parser(line).app.help();
    return line;
  }
  const std::string& first = args[0];
  const std::vector<std::string> known = {"list",      "info",      "run",  "export",
                                          "equations", "linearize", "sweep"};
  if (first.empty() || first[0] != '-') {
    bool isCommand = false;
    for (const auto& k : known) isCommand = isCommand || first == k;
    if (!isCommand)
      throw UsageError("unknown command " + quote(first) + " (commands: " + kCommands +
                       "; see --help)");
  }
  Parser parser(line);
  // CLI11 reads the words back to front.
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    parser.app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    line.command = Command::Help;
    line.helpText = parser.app.help();
    return line;
  } catch (const CLI::CallForAllHelp&) {
    line.command = Command::Help;
    line.helpText = parser.app.help("", CLI::AppFormatMode::All);
    return line;
  } catch (const CLI::CallForVersion&) {
    line.command = Command::Version;
    return line;
  } catch (const CLI::ParseError& e) {
    throwUsage(e);
  }
  const std::vector<CLI::App*> chosen = parser.app.get_subcommands();
  if (chosen.empty()) {
    refuseExtras(parser.app, "", "takes a command");
    throw UsageError(std::string("a command is needed (commands: ") + kCommands + "; see --help)");
  }
  CLI::App* command = chosen.front();
  for (const CLI::Option* option : command->get_options())
    if (option->count() > 0 && !option->get_lnames().empty())
      line.given.insert("--" + option->get_lnames().front());
  refuseExtras(parser.app, "", "takes one command");
  if (command == parser.list) {
    line.command = Command::List;
    refuseExtras(*command, "list", "takes no arguments");
  } else if (command == parser.info) {
    line.command = Command::Info;
    refuseExtras(*command, "info", "takes one system name");
    if (line.target.empty()) throw UsageError("info needs a system name (see 'nhsim list')");
  } else if (command == parser.run) {
    line.command = Command::Run;
    refuseExtras(*command, "run", "takes one system or scenario");
    if (line.target.empty()) throw UsageError("run needs a system name or a scenario file");
  } else if (command == parser.exporter) {
    line.command = Command::Export;
    refuseExtras(*command, "export", "takes one system or scenario");
    if (line.target.empty())
      throw UsageError("export needs a system name or a scenario file (see 'nhsim export --help')");
  } else if (command == parser.equations) {
    line.command = Command::Equations;
    refuseExtras(*command, "equations", "takes one system");
    if (line.target.empty())
      throw UsageError("equations needs a system name or a model file (see 'nhsim list')");
  } else if (command == parser.sweep) {
    line.command = Command::Sweep;
    refuseExtras(*command, "sweep", "takes one system or scenario");
    if (line.target.empty())
      throw UsageError("sweep needs a system name, a model file or a scenario file");
  } else {
    line.command = Command::Linearize;
    refuseExtras(*command, "linearize", "takes one system or scenario");
    if (line.target.empty())
      throw UsageError("linearize needs a system name, a model file or a scenario file");
  }
  return line;
}

Scenario scenarioOf(const CommandLine& line, bool* fromFile) {
  Scenario s = loadTarget(line.target, fromFile);
  applyScenarioOptions(line.set, line.init, line.dynamics, line.formulation, s);
  const bool runs = line.command == Command::Run || line.command == Command::Sweep;
  if (runs) {
    s.tEnd = numberOr(line.tEnd, "--t-end", s.tEnd);
    s.dtOut = numberOr(line.dtOut, "--dt-out", s.dtOut);
    if (!line.integrator.empty()) {
      try {
        s.integrator.method = parseIntegrator(line.integrator);
      } catch (const InputError& e) {
        rethrowQuoting(e, {line.integrator});
      }
    }
    s.integrator.rtol = numberOr(line.rtol, "--rtol", s.integrator.rtol);
    s.integrator.atol = numberOr(line.atol, "--atol", s.integrator.atol);
    s.integrator.step = numberOr(line.step, "--step", s.integrator.step);
  }
  if (runs || line.command == Command::Export) {
    if (line.has("--max-steps")) s.integrator.maxSteps = parseStepBudget(line.maxSteps);
    if (line.noProjection) s.integrator.projection = false;
    if (line.noReconstruction) s.integrator.reconstruction = false;
  }
  std::vector<std::string> names;  // echoed by the core's messages
  for (const auto* list : {&line.set, &line.init})
    for (const auto& assignment : *list)
      names.push_back(assignment.substr(0, assignment.find('=')));
  names.push_back(s.system);
  const auto system = findNamedSystem(s.system);  // a scenario file names it
  try {
    s.validate();
    resolveParameters(*system, s.parameters);
    const StateLayout layout = stateLayout(*system, s.dynamics);
    for (const auto& [name, value] : s.initial) {
      if (layout.find(name) >= 0) continue;
      std::string state;
      for (const auto& known : layout.names) state += (state.empty() ? "" : ", ") + known;
      throw InputError("unknown state variable '" + name + "' for system '" + system->name() +
                       "' (state: " + state + ")");
    }
  } catch (const InputError& e) {
    rethrowQuoting(e, names);
  }
  return s;
}

CommandLine parseCommandLine(const std::vector<std::string>& args) {
  CommandLine line = parseArguments(args);
  switch (line.command) {
    case Command::Help:
    case Command::Version:
    case Command::List:
      break;
    case Command::Info:
      findNamedSystem(line.target);
      break;
    case Command::Equations:
      findNamedSystem(line.target);
      for (const auto& text : line.set) parseAssignment(text, "--set");
      break;
    case Command::Run:
      if (line.has("--save-scenario") && sameOutput(line.out, line.saveScenario)) {
        if (namesStandardOutput(line.out) || namesStandardOutput(line.saveScenario))
          throw UsageError(
              "--out and --save-scenario both write to standard output: give a file to one "
              "of them");
        throw UsageError("--out and --save-scenario name the same file " +
                         quote(line.saveScenario) + ": give two files");
      }
      line.scenario = scenarioOf(line, &line.scenarioFromFile);
      checkOutputFiles(line);
      break;
    case Command::Export:
    case Command::Linearize:
    case Command::Sweep:
      line.scenario = scenarioOf(line, &line.scenarioFromFile);
      checkOutputFiles(line);
      break;
  }
  return line;
}

}  // namespace nh::cli
