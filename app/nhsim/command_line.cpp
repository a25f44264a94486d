// The nhsim command line (command_line.h): each command's options declared to CLI11 from the
// option table and bound to its options struct, the words parsed, and each command's checks
// (its scenario resolved, numbers in range, outputs writable and apart from its inputs);
// nothing is run.
#include "app/nhsim/command_line.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <type_traits>

#include "core/io/atomic_output.h"
#include "core/io/scenario_file.h"
#include "core/model/catalogue.h"
#include "core/model/model_file.h"
#include "core/nh/jacobi_fields.h"
#include "core/nh/messages.h"
#include "core/nh/named_choice.h"
#include "core/nh/simulation.h"
#include "core/nh/version.h"

namespace nh::cli {

namespace {

// "list, info, run, …": the commands, as messages name them.
std::string commandNames() {
  std::vector<std::string> names;
  for (const CommandRow& row : kCommands) names.emplace_back(row.name);
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

// "a, b and c".
std::string spokenList(const std::vector<std::string>& words) {
  std::string text;
  for (size_t i = 0; i < words.size(); ++i)
    text += (i == 0 ? "" : i + 1 == words.size() ? " and " : ", ") + words[i];
  return text;
}

// The options of `command` that exclude each other (Usage::OneOf), as a message names them.
std::string oneOfNames(const std::string& command) {
  std::vector<std::string> names;
  for (const OptionRow* row : optionsOf(command))
    if (row->usage == Usage::OneOf) names.emplace_back(row->name);
  return spokenList(names);
}

// ---- The parser

// Declares the options of the command `row` names on `command`, as kOptions has them, each
// bound to the field its options struct binds for it and every value checked by `check`.
// A row whose option the struct keeps nowhere, or in a field of another kind, is a
// programming mistake (std::logic_error), found by the first parse of that command.
void declareOptions(CLI::App& command, const CommandRow& row, const Fields& fields,
                    const CLI::Validator& check) {
  if (*row.target) {
    if (!fields.target()) throw std::logic_error(std::string(row.name) + " keeps no target");
    command.add_option("target", *fields.target(), row.targetHelp)
        ->type_name(row.target)
        ->check(check);
  }
  std::vector<CLI::Option*> oneOf;
  for (const OptionRow* option : optionsOf(row.name)) {
    const Fields::Field* field = fields.find(option->name);
    const std::string what = std::string(row.name) + " " + option->name;
    if (!field) throw std::logic_error(what + ": its options struct keeps it nowhere");
    CLI::Option* declared = nullptr;
    if (auto* const* flag = std::get_if<bool*>(field); flag && option->takes == Takes::Flag)
      declared = command.add_flag(option->name, **flag, helpLine(*option));
    else if (auto* const* value = std::get_if<std::string*>(field);
             value && option->takes == Takes::Value)
      declared = command.add_option(option->name, **value, helpLine(*option));
    else if (auto* const* values = std::get_if<std::vector<std::string>*>(field);
             values && option->takes == Takes::Values)
      declared =
          command.add_option(option->name, **values, helpLine(*option))->allow_extra_args(false);
    if (!declared) throw std::logic_error(what + ": kept in a field of another kind");
    if (option->takes != Takes::Flag) declared->type_name(valueKind(*option))->check(check);
    if (option->usage == Usage::OneOf) {
      for (CLI::Option* other : oneOf) declared->excludes(other);
      oneOf.push_back(declared);
    }
  }
  command.footer(row.footer ? row.footer() : std::string());
}

// The fields `options` binds (none for a command without options).
template <class Options>
Fields fieldsOf(Options& options) {
  Fields fields;
  if constexpr (requires { options.bind(fields); }) options.bind(fields);
  return fields;
}

// Every command of kCommands, each with its options bound to its own struct: parsing fills
// the struct of the command given, and take() hands it over. Only the commands that the words
// name get their options declared (CLI11 enters no other; declaring all of them was most of
// a short command's start-up).
class Parser {
 public:
  CLI::App app{
      "Nonholonomic Lab on the command line: simulate the systems of the catalogue, "
      "or your model files, and write what happens.",
      "nhsim"};

  explicit Parser(const std::vector<std::string>& words) {
    app.set_help_flag("-h,--help", "print this help and exit");
    app.set_version_flag("--version", std::string("nhsim ") + kVersion,
                         "print \"nhsim VERSION\" and exit");
    app.allow_extras();
    app.get_formatter()->column_width(34);
    forEach([&](const CommandRow& row, auto& options, size_t i) {
      commands_[i] = app.add_subcommand(row.name, row.summary);
      commands_[i]->allow_extras();
      commands_[i]->footer("");
      if (std::find(words.begin(), words.end(), row.name) != words.end())
        declareOptions(*commands_[i], row, fieldsOf(options), check_);
    });
    app.footer(usageText());
  }
  Parser(const Parser&) = delete;  // CLI11 holds pointers into the option structs
  Parser& operator=(const Parser&) = delete;

  // The index in kCommands of the command given, or kCommands' size when none was.
  size_t chosen() const {
    const std::vector<CLI::App*> given = app.get_subcommands();
    const auto at =
        std::find(commands_.begin(), commands_.end(), given.empty() ? nullptr : given.front());
    return static_cast<size_t>(at - commands_.begin());
  }
  const CLI::App& commandApp(size_t index) const { return *commands_[index]; }

  // The options of the command `index` as parsed (once: they are moved out).
  CommandLine take(size_t index) {
    CommandLine line;
    forEach([&](const CommandRow&, auto& options, size_t i) {
      if (i == index) line = std::move(options);
    });
    return line;
  }

 private:
  // Calls f(row, options struct, index) for every command of kCommands.
  template <class F>
  void forEach(F&& f) {
    std::apply(
        [&](auto&... options) {
          size_t i = 0;
          ((f(std::remove_reference_t<decltype(options)>::kRow, options, i), ++i), ...);
        },
        structs_);
  }

  CLI::Validator check_ = valueCheck();
  std::array<CLI::App*, std::size(kCommands)> commands_{};
  Commands::Structs structs_;
};

// ---- Syntax errors

// What CLI11 reports, as one line naming the option (CLI11's messages start "NAME: ").
// `command`: the first word, which names the command when one is given.
[[noreturn]] void throwUsage(const CLI::ParseError& e, const std::string& command) {
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
    throw UsageError("give one of " + oneOfNames(command) + ", once");
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
  for (const CommandRow& row : kCommands)
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

void check(InfoOptions& o) { findNamedSystem(o.target); }

void check(EquationsOptions& o) {
  const auto system = findNamedSystem(o.target);
  if (o.hamiltonian && system->info().isControlModel())
    throw UsageError("--hamiltonian: " + quote(o.target) +
                     " is a control model, whose equations (Pontryagin's) already carry a "
                     "Hamiltonian; --hamiltonian takes a Lagrangian system");
  for (const auto& text : o.set) parseAssignment(text, "--set");
}

// --sensitivity's names, split at commas, checked against the run's system and integrator.
void checkSensitivity(RunOptions& o) {
  for (const std::string& list : o.sensitivity) {
    std::size_t from = 0;
    for (std::size_t comma; (comma = list.find(',', from)) != std::string::npos; from = comma + 1)
      o.sensitivityNames.push_back(list.substr(from, comma - from));
    o.sensitivityNames.push_back(list.substr(from));
  }
  if (o.sensitivityNames.empty()) return;
  RunSensitivities::check(*findNamedSystem(o.scenario.resolved.system), o.scenario.resolved,
                          o.sensitivityNames);
}

void check(RunOptions& o) {
  resolveScenario(o.scenario, &o.time, &o.integrator);
  checkSensitivity(o);
  std::vector<NamedFile> outputs;
  addOutput(outputs, "--out", o.output.out);
  addOutput(outputs, "--save-scenario", o.saveScenario);
  checkOutputFiles(outputs, inputsOf(o.scenario));
  checkWritable(outputs);
}

// `export --lessons DIR`: the bundled lessons as they are, so no target and none of the
// options that change or frame one run; --live and --quiet apply.
void checkLessonSite(ExportOptions& o) {
  if (namesStandardOutput(o.lessons))
    throw UsageError("--lessons: standard output is not supported for this output; give a folder");
  if (!o.scenario.target.empty())
    throw UsageError("--lessons writes every bundled lesson; it takes no system or scenario (" +
                     quote(oneLine(o.scenario.target.substr(0, 60))) + " given)");
  const Fields fields = fieldsOf(o);
  for (const OptionRow* row : optionsOf(o.kRow.name)) {
    const std::string name = row->name;
    if (name == "--lessons" || name == "--live" || name == "--quiet") continue;
    const Fields::Field* field = fields.find(name);
    const bool given = std::visit(
        [](auto* value) {
          if constexpr (std::is_same_v<decltype(value), bool*>)
            return *value;
          else
            return !value->empty();
        },
        *field);
    if (given)
      throw UsageError(name +
                       " does not apply to --lessons, which writes each lesson as it is set up; "
                       "it takes --live and --quiet");
  }
}

void check(ExportOptions& o) {
  if (!o.lessons.empty()) return checkLessonSite(o);
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
  // --json prints to standard output (kRules refuses --out - with it): the CSV goes to a file
  // given with --out, or nowhere.
  if (o.output.out.empty() && !o.json) o.output.out = "-";
  resolveScenario(o.scenario, nullptr, nullptr);
  std::vector<NamedFile> outputs;
  addOutput(outputs, "--out", o.output.out);
  checkOutputFiles(outputs, inputsOf(o.scenario));
  checkWritable(outputs);
}

void check(LyapunovOptions& o) {
  const double tEnd = parseNumber(o.time.tEnd, "--t-end");
  if (!(tEnd > 0) || !std::isfinite(tEnd))
    throw UsageError("--t-end must be a positive number, got " + quote(o.time.tEnd));
  if (!o.count.empty()) o.countValue = static_cast<int>(wholeNumber(o.count, "--count", 1, 1000));
  resolveScenario(o.scenario, &o.time, &o.integrator);
  const Scenario& s = o.scenario.resolved;
  const std::string refusal = variationalRefusal("lyapunov", s.integrator.method, s.dynamics);
  if (!refusal.empty()) throw UsageError(refusal);
}

// The long names of `options` (a positional target has none), each with its value's kind.
std::vector<DeclaredOption> declaredOptions(const std::vector<const CLI::Option*>& options) {
  std::vector<DeclaredOption> declared;
  for (const CLI::Option* option : options)
    for (const std::string& name : option->get_lnames())
      declared.push_back({"--" + name, option->get_expected_max() > 0, option->get_type_name()});
  return declared;
}

// ---- The rules of the option table

// Whether `field` is given, or given as standard output.
bool matches(const Fields::Field& field, When when) {
  if (const auto* value = std::get_if<std::string*>(&field))
    return when == When::StandardOutput ? namesStandardOutput(**value) : !(*value)->empty();
  if (when == When::StandardOutput) return false;
  if (const auto* values = std::get_if<std::vector<std::string>*>(&field))
    return !(*values)->empty();
  return *std::get<bool*>(field);
}

// The options `command` needs (Usage::Needed) and the combinations kRules refuses, each in
// one line.
void checkRules(const std::string& command, const Fields& fields) {
  for (const OptionRow* row : optionsOf(command)) {
    if (row->usage != Usage::Needed) continue;
    const Fields::Field* field = fields.find(row->name);
    if (field && !matches(*field, When::Given))
      throw UsageError(command + " needs " + (row->takes == Takes::Values ? "at least one " : "") +
                       row->name + " " + valueKind(*row) + ", " + row->needed);
  }
  for (const OptionRule& rule : kRules) {
    if (!names(rule.commands, command)) continue;
    const Fields::Field* option = fields.find(rule.option);
    const Fields::Field* other = fields.find(rule.other);
    if (!option || !other)
      throw std::logic_error(command + ": a rule names an option it keeps nowhere");
    const bool both = matches(*other, rule.otherWhen);
    if (matches(*option, rule.when) && (rule.kind == OptionRule::Excludes ? both : !both))
      throw UsageError(rule.message);
  }
}

}  // namespace

const Fields::Field* Fields::find(const std::string& option) const {
  for (const auto& [name, field] : fields_)
    if (name == option) return &field;
  return nullptr;
}

void ExportOptions::bind(Fields& f) {
  scenario.bind(f);
  integrator.bind(f);
  for (auto [name, field] : {std::pair{"--video", &video},
                             {"--frames", &frames},
                             {"--html", &html},
                             {"--lessons", &lessons},
                             {"--width", &width},
                             {"--height", &height},
                             {"--fps", &fps},
                             {"--t-start", &tStart},
                             {"--t-end", &tEnd},
                             {"--speed", &speed},
                             {"--trail", &trail},
                             {"--plot-path", &plotPath},
                             {"--plot", &plot},
                             {"--theme", &theme},
                             {"--csv", &csv}})
    f(name, *field);
  for (auto [name, flag] : {std::pair{"--no-trails", &noTrails},
                            {"--no-forces", &noForces},
                            {"--velocities", &velocities},
                            {"--no-overlay", &noOverlay},
                            {"--plots", &plots},
                            {"--no-scenario", &noScenario},
                            {"--live", &live},
                            {"--force", &force},
                            {"--quiet", &quiet}})
    f(name, *flag);
}

void SweepOptions::bind(Fields& f) {
  scenario.bind(f);
  time.bind(f);
  integrator.bind(f);
  output.bind(f);
  f("--vary", vary);
  f("--sample", sample);
  f("--measure", measure);
  f("--count", count);
  f("--seed", seed);
  f("--jobs", jobs);
  f("--format", format);
  f("--mpi", mpi);
  f("--force", force);
}

void OptimizeOptions::bind(Fields& f) {
  scenario.bind(f);
  output.bind(f);
  f("--target", targets);
  for (auto [name, field] : {std::pair{"--t-end", &tEnd},
                             {"--dt-out", &dtOut},
                             {"--starts", &starts},
                             {"--seed", &seed},
                             {"--tol", &tol},
                             {"--max-iterations", &maxIterations}})
    f(name, *field);
  f("--json", json);
}

std::string usageText() {
  std::string text;
  for (const CommandRow& row : kCommands) {
    std::string usage = usageOf(row);
    // Every line under "usage: ", the first one's after it.
    for (size_t at = 0; at < usage.size(); at = usage.find('\n', at) + 1)
      usage.insert(at, text.empty() && at == 0 ? "usage: " : "       ");
    text += usage;
  }
  return text;
}

namespace {

// `nhsim export --lessons DIR --html --live`: with --lessons, a bare --html (no value of its
// own) only says that the lessons are written as pages, which they always are.
std::vector<std::string> withoutBareHtml(std::vector<std::string> words) {
  if (words.empty() || words[0] != ExportOptions::kRow.name) return words;
  if (std::find(words.begin(), words.end(), "--lessons") == words.end()) return words;
  for (auto at = words.begin(); at != words.end(); ++at) {
    const auto next = at + 1;
    if (*at == "--html" && (next == words.end() || next->rfind("--", 0) == 0)) {
      words.erase(at);
      break;
    }
  }
  return words;
}

}  // namespace

CommandLine parseArguments(const std::vector<std::string>& given) {
  const std::vector<std::string> args = withoutBareHtml(given);
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
    throwUsage(e, args[0]);
  }
  const size_t chosen = parser.chosen();
  if (chosen == std::size(kCommands)) {
    refuseExtras(parser.app, "", "takes a command");
    throw UsageError("a command is needed (commands: " + commandNames() + "; see --help)");
  }
  const CommandRow& row = kCommands[chosen];
  refuseExtras(parser.app, "", "takes one command");
  refuseExtras(parser.commandApp(chosen), row.name, row.takes);
  CommandLine line = parser.take(chosen);
  // export --lessons DIR writes the bundled lessons: the one command line without a target.
  const auto* exportLine = std::get_if<ExportOptions>(&line);
  const bool lessonSite = exportLine && !exportLine->lessons.empty();
  if (*row.missingTarget && targetOf(line).empty() && !lessonSite)
    throw UsageError(row.missingTarget);
  return line;
}

void checkCommandLine(CommandLine& line) {
  std::visit(
      [](auto& options) {
        if constexpr (requires { options.kRow; }) checkRules(options.kRow.name, fieldsOf(options));
        if constexpr (requires { check(options); }) check(options);
      },
      line);
}

DeclaredCommandLine declaredCommandLine() {
  std::vector<std::string> words;
  for (const CommandRow& row : kCommands) words.emplace_back(row.name);
  const Parser parser(words);  // every command named: every command's options declared
  DeclaredCommandLine line{declaredOptions(parser.app.get_options()), {}};
  for (size_t i = 0; i < std::size(kCommands); ++i) {
    const CLI::App& command = parser.commandApp(i);
    DeclaredCommand declared{kCommands[i].name, "", declaredOptions(command.get_options())};
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
