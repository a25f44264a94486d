// Parameter studies (sweep.h): grid (NAME=FROM:TO:N) and sample axes parsed and written back,
// run i's varied values (seeded, a pure function of i), one run integrated and reduced to its
// measures, and the CSV header, rows and "partial" line.
#include "core/study/sweep.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>

#include "core/model/catalogue.h"
#include "core/nh/errors.h"
#include "core/nh/messages.h"
#include "core/nh/run_checks.h"
#include "core/nh/scenario_run.h"

namespace nh::study {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A finite number, all of `text` (from_chars ignores the locale).
bool readNumber(const std::string& text, double& value) {
  const char* end = text.data() + text.size();
  const auto r = std::from_chars(text.data(), end, value);
  return r.ec == std::errc() && r.ptr == end && std::isfinite(value);
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t at = text.find(separator); at != std::string::npos;
       at = text.find(separator, start)) {
    parts.push_back(text.substr(start, at - start));
    start = at + 1;
  }
  parts.push_back(text.substr(start));
  return parts;
}

// NAME and the rest of "NAME=REST".
std::pair<std::string, std::string> nameAndRest(const std::string& text, const char* option,
                                                const char* form) {
  const size_t equals = text.find('=');
  if (equals == std::string::npos || equals == 0)
    throw InputError(std::string(option) + " takes " + form + ", got '" + echoInput(text) + "'");
  return {text.substr(0, equals), text.substr(equals + 1)};
}

double numberIn(const std::string& part, const char* option, const std::string& whole) {
  double value = 0;
  if (!readNumber(part, value))
    throw InputError(std::string(option) + " '" + echoInput(whole) + "': '" + echoInput(part) +
                     "' is not a finite number");
  return value;
}

// SplitMix64 (Steele, Lea & Flood 2014): a counter-based generator, so that the value of
// (seed, run, axis, draw) needs no state from earlier draws.
std::uint64_t mix(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
// A uniform double in [0, 1) from the 53 high bits.
double uniformAt(std::uint64_t seed, long run, int axis, int draw) {
  const std::uint64_t key =
      mix(mix(mix(seed) ^ static_cast<std::uint64_t>(run)) ^
          ((static_cast<std::uint64_t>(axis) << 1) | static_cast<std::uint64_t>(draw)));
  return static_cast<double>(key >> 11) * 0x1p-53;
}

std::string csvField(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string number(double v) { return std::isnan(v) ? "nan" : formatValue(v); }

std::string oneLineOf(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  return text;
}

}  // namespace

GridAxis parseGridAxis(const std::string& text) {
  const auto [name, rest] = nameAndRest(text, "--vary", "NAME=FROM:TO:N");
  const std::vector<std::string> parts = split(rest, ':');
  if (parts.size() != 3)
    throw InputError("--vary takes NAME=FROM:TO:N, got '" + echoInput(text) + "'");
  GridAxis axis;
  axis.name = name;
  axis.from = numberIn(parts[0], "--vary", text);
  axis.to = numberIn(parts[1], "--vary", text);
  long count = 0;
  const char* end = parts[2].data() + parts[2].size();
  const auto r = std::from_chars(parts[2].data(), end, count);
  if (r.ec != std::errc() || r.ptr != end || count < 1)
    throw InputError("--vary '" + echoInput(text) + "': N must be a whole number >= 1, got '" +
                     echoInput(parts[2]) + "'");
  axis.count = count;
  if (axis.from > axis.to)
    throw InputError("--vary '" + echoInput(text) + "': the range is reversed (FROM > TO)");
  if (axis.from == axis.to && count > 1)
    throw InputError("--vary '" + echoInput(text) + "': the range is empty (FROM = TO) for " +
                     std::to_string(count) + " values");
  return axis;
}

SampleAxis parseSampleAxis(const std::string& text) {
  const auto [name, rest] = nameAndRest(text, "--sample", "NAME=uniform:LO:HI|normal:MU:SIGMA");
  const std::vector<std::string> parts = split(rest, ':');
  if (parts.size() != 3 || (parts[0] != "uniform" && parts[0] != "normal"))
    throw InputError("--sample takes NAME=uniform:LO:HI or NAME=normal:MU:SIGMA, got '" +
                     echoInput(text) + "'");
  SampleAxis axis;
  axis.name = name;
  axis.law = parts[0] == "uniform" ? SampleAxis::Law::Uniform : SampleAxis::Law::Normal;
  axis.a = numberIn(parts[1], "--sample", text);
  axis.b = numberIn(parts[2], "--sample", text);
  if (axis.law == SampleAxis::Law::Uniform && !(axis.a < axis.b))
    throw InputError("--sample '" + echoInput(text) + "': the range is " +
                     (axis.a == axis.b ? "empty (LO = HI)" : "reversed (LO > HI)"));
  if (axis.law == SampleAxis::Law::Normal && !(axis.b > 0))
    throw InputError("--sample '" + echoInput(text) + "': SIGMA must be > 0");
  return axis;
}

std::string toString(const GridAxis& axis) {
  return axis.name + "=" + formatValue(axis.from) + ":" + formatValue(axis.to) + ":" +
         std::to_string(axis.count);
}

std::string toString(const SampleAxis& axis) {
  return axis.name + "=" + (axis.law == SampleAxis::Law::Uniform ? "uniform:" : "normal:") +
         formatValue(axis.a) + ":" + formatValue(axis.b);
}

Study::Study(StudySpec spec) : spec_(std::move(spec)) {
  const bool grid = !spec_.grid.empty(), sample = !spec_.sample.empty();
  if (grid == sample)
    throw InputError(grid ? "give either --vary axes or --sample axes, not both"
                          : "nothing varies: give --vary NAME=FROM:TO:N or --sample NAME=...");
  spec_.base.validate();
  system_ = findSystem(spec_.base.system);
  const SystemInfo& info = system_->info();
  baseParameters_ = resolveParameters(*system_, spec_.base.parameters);
  layout_ = stateLayout(*system_, spec_.base.dynamics);

  std::vector<std::string> names;
  for (const auto& axis : spec_.grid) names.push_back(axis.name);
  for (const auto& axis : spec_.sample) names.push_back(axis.name);
  for (const std::string& name : names) {
    for (const auto& earlier : names_)
      if (earlier == name) throw InputError("'" + echoInput(name) + "' is varied twice");
    int parameter = -1;
    for (size_t p = 0; p < info.parameters.size(); ++p)
      if (info.parameters[p].name == name) parameter = static_cast<int>(p);
    const int state = layout_.find(name);
    if (parameter < 0 && state < 0) {
      std::string parameters, states;
      for (const auto& p : info.parameters) parameters += (parameters.empty() ? "" : ", ") + p.name;
      for (const auto& s : layout_.names) states += (states.empty() ? "" : ", ") + s;
      throw InputError("unknown name '" + echoInput(name) + "' for system '" + info.name +
                       "' (parameters: " + parameters + "; state: " + states + ")");
    }
    names_.push_back(name);
    isParameter_.push_back(parameter >= 0);
    index_.push_back(parameter >= 0 ? parameter : state);
  }
  // A grid's values lie between its ends: both ends in a parameter's range keep every run in
  // it (ranges are intervals). A sample's values are checked run by run (a status).
  for (size_t a = 0; a < spec_.grid.size(); ++a) {
    if (!isParameter_[a]) continue;
    for (const double end : {spec_.grid[a].from, spec_.grid[a].to}) {
      std::map<std::string, double> overrides = spec_.base.parameters;
      overrides[names_[a]] = end;
      resolveParameters(*system_, overrides);
    }
  }
  double runs = 1;
  if (grid) {
    for (const auto& axis : spec_.grid) runs *= static_cast<double>(axis.count);
  } else {
    if (spec_.count < 1)
      throw InputError("--count must be a whole number >= 1, got " + std::to_string(spec_.count));
    runs = static_cast<double>(spec_.count);
  }
  if (runs > kMaxRuns && !spec_.force)
    throw InputError("the study has " + formatValue(runs) + " runs, more than " +
                     formatValue(kMaxRuns) + ": give --force to run it anyway");
  if (runs > 9e18) throw InputError("the study has " + formatValue(runs) + " runs: too many");
  runs_ = static_cast<long>(runs);

  baseEquations_ = std::make_shared<const EquationsOfMotion>(
      system_, spec_.base.dynamics, spec_.base.formulation, baseParameters_);
  std::vector<int> varied;
  for (size_t a = 0; a < names_.size(); ++a)
    if (isParameter_[a]) varied.push_back(index_[a]);
  if (!varied.empty())
    parametricEquations_ =
        std::make_shared<const EquationsOfMotion>(baseEquations_->withFreeParameters(varied));
  outputColumns_ = outputColumns(*baseEquations_);
  measures_ = MeasureSet(spec_.measures, outputColumns_);
}

Study::~Study() = default;

std::vector<std::string> Study::columns() const {
  std::vector<std::string> out = names_;
  for (const auto& name : measures_.names()) out.push_back(name);
  out.push_back("status");
  return out;
}

void Study::variedValues(long i, double* out) const {
  if (!spec_.grid.empty()) {
    // The last axis varies fastest (nested loops in the order given).
    long rest = i;
    for (size_t a = spec_.grid.size(); a-- > 0;) {
      const GridAxis& axis = spec_.grid[a];
      const long k = rest % axis.count;
      rest /= axis.count;
      // The ends exactly; between them from + (to − from)·k/(N − 1).
      out[a] = k == axis.count - 1 && axis.count > 1
                   ? axis.to
                   : axis.from + (axis.to - axis.from) * static_cast<double>(k) /
                                     static_cast<double>(std::max(1L, axis.count - 1));
    }
    return;
  }
  for (size_t a = 0; a < spec_.sample.size(); ++a) {
    const SampleAxis& axis = spec_.sample[a];
    const int slot = static_cast<int>(a);
    const double u = uniformAt(spec_.seed, i, slot, 0);
    if (axis.law == SampleAxis::Law::Uniform) {
      out[a] = axis.a + (axis.b - axis.a) * u;
    } else {
      // Box–Muller; 1 − u is in (0, 1], so the logarithm is finite.
      const double v = uniformAt(spec_.seed, i, slot, 1);
      out[a] =
          axis.a + axis.b * std::sqrt(-2 * std::log(1 - u)) * std::cos(2 * std::numbers::pi * v);
    }
  }
}

// A sample may leave a parameter's range, and a grid's corner the set the system allows (its
// own check of the whole set): each run's values are checked, without the names and maps of
// resolveParameters, which gives the message when they are refused.
bool Study::parametersAllowed(const std::vector<double>& values) const {
  const auto& info = system_->info().parameters;
  for (size_t a = 0; a < names_.size(); ++a) {
    if (!isParameter_[a]) continue;
    const auto i = static_cast<size_t>(index_[a]);
    if (!info[i].allows(values[i])) return false;
  }
  return system_->checkParameters(values.data()).empty();
}

void Study::run(long i, StudyWorker& worker, RunResult& out,
                const std::atomic<bool>* cancel) const {
  out.index = i;
  out.varied.resize(names_.size());
  out.measures.assign(static_cast<size_t>(measures_.size()), kNaN);
  out.energyDrift = 0;
  variedValues(i, out.varied.data());
  bool ok = false;
  try {
    std::vector<double> parameters = baseParameters_;
    std::map<std::string, double> initial = spec_.base.initial;
    bool parametersVary = false;
    for (size_t a = 0; a < names_.size(); ++a) {
      if (isParameter_[a]) {
        parameters[static_cast<size_t>(index_[a])] = out.varied[a];
        parametersVary = true;
      } else {
        initial[names_[a]] = out.varied[a];
      }
    }
    if (parametersVary && !parametersAllowed(parameters)) {
      // resolveParameters says which value is out of its range, or why the set is refused.
      std::map<std::string, double> overrides = spec_.base.parameters;
      for (size_t a = 0; a < names_.size(); ++a)
        if (isParameter_[a]) overrides[names_[a]] = out.varied[a];
      resolveParameters(*system_, overrides);
    }
    // The base equations when only initial values vary; otherwise the equations with the
    // varied parameters as tape inputs, given this run's values (no tape of its own).
    std::shared_ptr<const EquationsOfMotion> equations;
    if (!worker.run_ || parameters != worker.parameters_)
      equations = parameters == baseParameters_
                      ? baseEquations_
                      : std::make_shared<const EquationsOfMotion>(
                            parametricEquations_->withParameters(parameters));
    const std::vector<double> x0 =
        initialState(equations ? *equations : worker.run_->startEquations(), 0.0, initial);
    if (!worker.run_) {
      RunSetup setup{
          system_, spec_.base.dynamics, spec_.base.formulation, spec_.base.integrator, parameters,
          x0};
      worker.run_ = std::make_unique<ScenarioRun>(setup, 0.0, equations);
      worker.run_->setEdits(spec_.base.edits);  // the scenario's timed edits, in every run
    }
    worker.parameters_ = parameters;
    ScenarioRun& run = *worker.run_;
    // Every run starts at its initial state as given (restart sets it, without projecting).
    run.restart(equations, 0.0, x0);
    worker.accumulator_.reset();
    // A run that delivers no sample for long (a motion too fast for its steps) is stopped at
    // its step checks too.
    run.setStopCheck([cancel](double) {
      if (cancel && cancel->load(std::memory_order_relaxed)) throw RunCancelled{};
    });
    // A non-finite energy, state or multiplier ends the run as a blow-up, as in `nhsim run`;
    // a t-end off the output grid still gets its sample.
    run.advance(
        spec_.base.tEnd, spec_.base.dtOut,
        [&worker](const ScenarioRun::Sample& sample) {
          worker.accumulator_.add(sample.t, sample.row.data());
        },
        true);
    const EnergyDriftWatch& drift = run.tally().drift;
    worker.accumulator_.values(out.measures.data());
    out.energyDrift = drift.conservative() ? drift.relativeChange() : 0;
    out.status = "ok";
    ok = true;
  } catch (const SingularSystemError& e) {
    // A singular point of the equations (SystemInfo::singularities: a bicycle falling over)
    // or a system that stops being regular (a singular A M⁻¹ Aᵀ), named as `nhsim run` does.
    const bool point = std::string(e.what()).find("reached a singular point") != std::string::npos;
    out.status = (point ? "singular point at t=" : "non-regular at t=") + formatValue(e.time());
  } catch (const IntegrationError& e) {
    const std::string message = e.what();
    out.status = message.find("blew up") != std::string::npos
                     ? "blow-up at t=" + formatValue(e.time())
                     : "failed at t=" + formatValue(e.time()) + ": " + oneLineOf(message);
  } catch (const RunCancelled&) {
    worker.run_.reset();
    throw;
  } catch (const std::exception& e) {
    out.status = "error: " + oneLineOf(e.what());
  }
  // A failed run leaves its simulation mid-step: the next run starts on a new one.
  if (!ok) worker.run_.reset();
}

std::string Study::headerText(const std::string& commandLine) const {
  const Scenario& s = spec_.base;
  std::string text = "# " + oneLineOf(commandLine) + "\n";
  text += "# system: " + s.system + " (" + nh::toString(s.dynamics) + ", " +
          nh::toString(s.formulation) + ", " + nh::toString(s.integrator.method) + ", rtol " +
          formatValue(s.integrator.rtol) + ", atol " + formatValue(s.integrator.atol) +
          (isFixedStep(s.integrator.method) ? ", step " + formatValue(s.integrator.step) : "") +
          "), t = 0 … " + formatValue(s.tEnd) + ", dt_out " + formatValue(s.dtOut) + "\n";
  for (size_t a = 0; a < names_.size(); ++a) {
    const char* kind = isParameter_[a] ? " (parameter)" : " (initial value)";
    if (!spec_.grid.empty())
      text += "# vary: " + toString(spec_.grid[a]) + kind + "\n";
    else
      text += "# sample: " + toString(spec_.sample[a]) + kind + "\n";
  }
  if (spec_.grid.empty())
    text +=
        "# count " + std::to_string(spec_.count) + ", seed " + std::to_string(spec_.seed) + "\n";
  text += "# runs: " + std::to_string(runs_) + "\n";
  for (int m = 0; m < measures_.size(); ++m)
    text += "# measure: " + oneLineOf(measures_.names()[static_cast<size_t>(m)]) + " = " +
            oneLineOf(measures_.expressions()[static_cast<size_t>(m)]) + "\n";
  const std::vector<std::string> names = columns();
  for (size_t c = 0; c < names.size(); ++c) text += (c ? "," : "") + csvField(oneLineOf(names[c]));
  return text + "\n";
}

std::string Study::rowText(const RunResult& result) const {
  std::string text;
  for (const double v : result.varied) text += number(v) + ",";
  for (const double v : result.measures) text += number(v) + ",";
  return text + csvField(result.status) + "\n";
}

std::string Study::partialText(long written, long total) {
  return "# partial: " + std::to_string(written) + " of " + std::to_string(total) +
         " runs (interrupted)\n";
}

StudyWorker::StudyWorker(const Study& study) : accumulator_(study.measures_) {}

StudyWorker::~StudyWorker() = default;

}  // namespace nh::study
// SPDX-License-Identifier: GPL-3.0-or-later
