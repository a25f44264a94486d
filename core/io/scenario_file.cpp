// Scenario files read and written (scenario_file.h): the JSON parsed without duplicate keys,
// every key and number checked with a one-line message naming its place, the app's view
// section checked against the scenario, and a scenario written back as JSON.
#include "core/io/scenario_file.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

#include "core/io/atomic_file.h"
#include "core/model/catalogue.h"
#include "core/model/model_file.h"
#include "core/nh/errors.h"
#include "core/nh/integrators.h"
#include "core/nh/messages.h"

namespace nh {

namespace fs = std::filesystem;

namespace {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

const char* kFormatName = "nonholonomic-lab-scenario";

// Every message is one line: control characters that came from the file are escaped.
[[noreturn]] void fail(const std::string& origin, const std::string& what) {
  throw InputError(escapeControl(origin + ": " + what));
}

// Reads the JSON text through a pointer that remembers how far the parser has read, so that
// a duplicate key can be placed on its line.
class CountingIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;
  CountingIterator(const char* at, const char** furthest) : at_(at), furthest_(furthest) {}
  reference operator*() const { return *at_; }
  CountingIterator& operator++() {
    ++at_;
    if (at_ > *furthest_) *furthest_ = at_;
    return *this;
  }
  CountingIterator operator++(int) {
    CountingIterator old = *this;
    ++*this;
    return old;
  }
  bool operator==(const CountingIterator& other) const { return at_ == other.at_; }
  bool operator!=(const CountingIterator& other) const { return at_ != other.at_; }

 private:
  const char* at_;
  const char** furthest_;
};

struct DuplicateKey {
  std::string key;
  size_t offset;  // how far the parser had read when it met the key's second occurrence
};

// Parses `json`, refusing an object that names a key twice (nlohmann-json keeps the last).
Json parseWithoutDuplicates(const std::string& json) {
  const char* furthest = json.data();
  std::vector<std::set<std::string>> objects;  // the keys seen in each open object
  Json::parser_callback_t onEvent = [&](int, Json::parse_event_t event, Json& parsed) {
    if (event == Json::parse_event_t::object_start) {
      objects.emplace_back();
    } else if (event == Json::parse_event_t::object_end) {
      if (!objects.empty()) objects.pop_back();
    } else if (event == Json::parse_event_t::key && !objects.empty()) {
      const std::string& key = parsed.get_ref<const std::string&>();
      if (!objects.back().insert(key).second)
        throw DuplicateKey{key, static_cast<size_t>(furthest - json.data())};
    }
    return true;
  };
  return Json::parse(CountingIterator(json.data(), &furthest),
                     CountingIterator(json.data() + json.size(), &furthest), onEvent);
}

// The 1-based line of byte `offset` of `text`.
size_t lineAt(const std::string& text, size_t offset) {
  offset = std::min(offset, text.size());
  return 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + offset, '\n'));
}

void checkKeys(const Json& obj, const std::vector<std::string>& allowed, const std::string& where,
               const std::string& origin) {
  for (const auto& [key, value] : obj.items()) {
    bool known = false;
    for (const auto& a : allowed) known = known || a == key;
    if (!known)
      fail(origin, "unknown key '" + echoInput(key) + "' in " + where +
                       " (allowed: " + joined(allowed) + ")");
  }
}

// A string that names something (a system, a method): never holds a control character, so
// one that does is refused here, before a message could echo it.
std::string text(const Json& v, const std::string& key, const std::string& origin) {
  if (!v.is_string()) fail(origin, "'" + key + "' must be a string");
  const std::string s = v.get<std::string>();
  if (!isOneLine(s))
    fail(origin, "'" + key + "' holds a control character: '" + echoInput(s) + "'");
  return s;
}

double number(const Json& v, const std::string& key, const std::string& origin) {
  if (!v.is_number()) fail(origin, "'" + key + "' must be a number");
  return v.get<double>();
}

// integrator.max_steps: the rule of --max-steps, a whole number in [1, 10^12] written as
// one (2000000, not 2e6 or 2000000.0).
std::int64_t stepBudget(const Json& v, const std::string& origin) {
  if (v.is_number_unsigned()) {  // nlohmann-json reads every integer ≥ 0 as unsigned
    const auto n = v.get<unsigned long long>();
    if (n >= 1 && n <= static_cast<unsigned long long>(kMaxStepBudget))
      return static_cast<std::int64_t>(n);
  }
  fail(origin,
       "'integrator.max_steps' must be a whole number in [1, 10^12], got " + echoInput(v.dump()));
}

std::map<std::string, double> numberMap(const Json& v, const std::string& key,
                                        const std::string& origin) {
  if (!v.is_object()) fail(origin, "'" + key + "' must be an object of name: number");
  std::map<std::string, double> out;
  for (const auto& [name, value] : v.items()) {
    if (!isOneLine(name) || name.size() > 60)
      fail(origin, "'" + key + "' has no name '" + echoInput(name) + "'");
    out[name] = number(value, key + "." + name, origin);
  }
  return out;
}

// Runs `parse`, prefixing its InputError with the file name unless it already names it.
template <typename F>
auto withOrigin(const std::string& origin, F&& parse) {
  try {
    return parse();
  } catch (const InputError& e) {
    if (std::string(e.what()).rfind(origin, 0) == 0) throw InputError(escapeControl(e.what()));
    fail(origin, e.what());
  }
}

// ---- The "view" part ----------------------------------------------------------------------

[[noreturn]] void failView(const std::string& what) { throw InputError("view: " + what); }

std::string formatRange(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

void checkViewKeys(const Json& o, const std::vector<std::string>& allowed,
                   const std::string& where) {
  for (const auto& [key, value] : o.items())
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      failView("unknown key '" + echoInput(key) + "' in " + where +
               " (allowed: " + joined(allowed) + ")");
}

void checkViewFlag(const Json& o, const std::string& key, const std::string& where) {
  if (o.contains(key) && !o[key].is_boolean())
    failView("'" + where + "." + key + "' must be true or false");
}

void checkViewNumber(const Json& o, const std::string& key, const std::string& where, double lo,
                     double hi) {
  if (!o.contains(key)) return;
  const Json& v = o[key];
  const double x = v.is_number() ? v.get<double>() : std::nan("");
  if (!(x >= lo && x <= hi)) {
    std::string name = where.empty() ? key : where;  // appends: GCC 12's -Wrestrict misfires
    if (!where.empty()) name.append(".").append(key);
    failView("'" + name + "' must be a number from " + formatRange(lo) + " to " + formatRange(hi));
  }
}

void checkViewNames(const Json& v, const std::string& where, size_t minCount, size_t maxCount) {
  bool ok = v.is_array() && v.size() >= minCount && v.size() <= maxCount;
  if (ok)
    for (const Json& e : v) ok = ok && e.is_string();
  if (!ok)
    failView(minCount == maxCount
                 ? "'" + where + "' must be a list of " + std::to_string(minCount) +
                       " variable names"
                 : "'" + where + "' must be a list of " + std::to_string(minCount) + " to " +
                       std::to_string(maxCount) + " variable names");
}

// "plan": {"t_end": T, "targets": {NAME: VALUE, …}, "starts": N, "played": K}; the names
// are checked against the system when the plan is solved; K (1 = the lowest cost) is the
// extremal shown, the first when the solve finds fewer.
void checkViewPlan(const Json& p) {
  if (!p.is_object()) failView("'plan' must be an object");
  checkViewKeys(p, {"t_end", "targets", "starts", "played"}, "'plan'");
  if (!p.contains("t_end") || !p.contains("targets"))
    failView("'plan' needs 't_end' (the time T) and 'targets' (coordinate: value at T)");
  checkViewNumber(p, "t_end", "plan", kViewPlanTimeMin, kViewPlanTimeMax);
  const Json& targets = p["targets"];
  if (!targets.is_object()) failView("'plan.targets' must be an object of coordinate: value");
  for (const auto& [name, value] : targets.items())
    if (!value.is_number() || !std::isfinite(value.get<double>()))
      failView("'plan.targets." + echoInput(name) + "' must be a number");
  if (p.contains("starts") &&
      !(p["starts"].is_number_integer() && p["starts"].get<long long>() >= 1 &&
        p["starts"].get<long long>() <= kViewPlanStartsMax))
    failView("'plan.starts' must be a whole number from 1 to " +
             std::to_string(kViewPlanStartsMax));
  if (p.contains("played") &&
      !(p["played"].is_number_integer() && p["played"].get<long long>() >= 1 &&
        p["played"].get<long long>() <= kViewPlanStartsMax))
    failView("'plan.played' must be a whole number from 1 to " +
             std::to_string(kViewPlanStartsMax) + " (the extremal shown, 1 = the lowest cost)");
}

// "arrow_scales": {ARROW NAME: the magnitude drawn at the reference length, …}, the fixed
// scales a view was saved with (the names are matched against the system's arrows when drawn).
void checkViewArrowScales(const Json& a) {
  if (!a.is_object()) failView("'arrow_scales' must be an object of arrow name: scale");
  if (a.size() > static_cast<size_t>(kViewArrowScalesMax))
    failView("'arrow_scales' has " + std::to_string(a.size()) + " entries; at most " +
             std::to_string(kViewArrowScalesMax) + " are allowed");
  for (const auto& [name, value] : a.items())
    if (!value.is_number() || !std::isfinite(value.get<double>()) || !(value.get<double>() > 0))
      failView("'arrow_scales." + echoInput(name) + "' must be a positive number");
}

// A camera point or direction: a list of three finite numbers.
bool isViewVector(const Json& v) {
  if (!v.is_array() || v.size() != 3) return false;
  for (const Json& e : v)
    if (!e.is_number() || !std::isfinite(e.get<double>())) return false;
  return true;
}

// "camera": {"follow", "table_frame", and the pose: "position", "target" (together), "up",
// "view_angle"}.
void checkViewCamera(const Json& c) {
  if (!c.is_object()) failView("'camera' must be an object");
  checkViewKeys(c, {"follow", "table_frame", "position", "target", "up", "view_angle"}, "'camera'");
  checkViewFlag(c, "follow", "camera");
  checkViewFlag(c, "table_frame", "camera");
  for (const char* key : {"position", "target", "up"})
    if (c.contains(key) && !isViewVector(c[key]))
      failView(std::string("'camera.") + key + "' must be a list of three finite numbers");
  if (c.contains("position") != c.contains("target"))
    failView(
        "'camera' needs both 'position' and 'target' (where the camera is and where it looks)");
  if (c.contains("position") && c["position"] == c["target"])
    failView("'camera.position' and 'camera.target' must be different points");
  if (c.contains("up")) {
    double norm = 0;
    for (const Json& e : c["up"]) norm += e.get<double>() * e.get<double>();
    if (!(norm > 0)) failView("'camera.up' must not be zero");
  }
  checkViewNumber(c, "view_angle", "camera", kViewAngleMin, kViewAngleMax);
}

constexpr ViewDisplayKey kViewDisplayKeys[] = {
    {"trails", ViewDisplayKey::Kind::Flag},
    {"trail_seconds", ViewDisplayKey::Kind::Number, kViewTrailSecondsMin, kViewTrailSecondsMax},
    {"forces", ViewDisplayKey::Kind::Flag},
    {"velocity", ViewDisplayKey::Kind::Flag},
    {"angular_velocity", ViewDisplayKey::Kind::Flag},
    {"grid", ViewDisplayKey::Kind::Flag},
    {"axes", ViewDisplayKey::Kind::Flag},
    {"legend", ViewDisplayKey::Kind::Flag},
    {"keep_in_view", ViewDisplayKey::Kind::Flag},
    {"arrow_scale", ViewDisplayKey::Kind::Choice, 0, 0, "fixed", "auto"},
};

void checkViewDisplay(const Json& d) {
  if (!d.is_object()) failView("'display' must be an object");
  std::vector<std::string> keys;
  for (const ViewDisplayKey& k : kViewDisplayKeys) keys.emplace_back(k.key);
  checkViewKeys(d, keys, "'display'");
  for (const ViewDisplayKey& k : kViewDisplayKeys) {
    if (!d.contains(k.key)) continue;
    switch (k.kind) {
      case ViewDisplayKey::Kind::Flag:
        checkViewFlag(d, k.key, "display");
        break;
      case ViewDisplayKey::Kind::Number:
        checkViewNumber(d, k.key, "display", k.lo, k.hi);
        break;
      case ViewDisplayKey::Kind::Choice:
        if (d[k.key] != k.on && d[k.key] != k.off)
          failView(std::string("'display.") + k.key + "' must be \"" + k.on + "\" or \"" + k.off +
                   "\"");
        break;
    }
  }
}

}  // namespace

std::span<const ViewDisplayKey> viewDisplayKeys() { return kViewDisplayKeys; }

const ViewDisplayKey* findViewDisplayKey(const std::string& key) {
  for (const ViewDisplayKey& k : kViewDisplayKeys)
    if (key == k.key) return &k;
  return nullptr;
}

namespace {

// compare: {mode: off | vakonomic | ghost (parameter, value) | integrator (integrator, step?)}.
void checkViewCompare(const Json& c) {
  if (!c.is_object()) failView("'compare' must be an object");
  checkViewKeys(c, {"mode", "parameter", "value", "integrator", "step"}, "'compare'");
  const std::string mode = c.contains("mode") && c["mode"].is_string() ? c["mode"] : Json("");
  if (mode == "ghost") {
    if (!c.contains("parameter") || !c["parameter"].is_string() || !c.contains("value") ||
        !c["value"].is_number())
      failView("a ghost comparison needs 'parameter' (a name) and 'value' (a number)");
  } else if (mode == "integrator") {
    if (!c.contains("integrator") || !c["integrator"].is_string())
      failView("a comparison with another integrator needs 'integrator' (one of " +
               joined(choiceNames(kIntegrators)) + ")");
    try {
      parseIntegrator(c["integrator"].get<std::string>());
    } catch (const InputError& e) {
      failView(std::string("'compare.integrator': ") + e.what());
    }
    if (c.contains("step") && (!c["step"].is_number() || !std::isfinite(c["step"].get<double>()) ||
                               c["step"].get<double>() <= 0))
      failView("'compare.step' must be a positive number of seconds");
  } else if (mode != "off" && mode != "vakonomic") {
    failView("'compare.mode' must be \"off\", \"vakonomic\", \"ghost\" or \"integrator\"");
  }
}

}  // namespace

void checkScenarioView(const std::string& json) {
  if (json.empty()) return;
  Json o;
  try {
    o = Json::parse(json);
  } catch (const Json::exception&) {
    failView("not a JSON object");
  }
  if (!o.is_object()) failView("not a JSON object");
  checkViewKeys(o,
                {"version", "title", "note", "energy_drift_expected", "speed", "step", "camera",
                 "display", "plots", "compare", "study", "plan", "arrow_scales", "theme"},
                "the view");
  if (o.contains("energy_drift_expected") && !o["energy_drift_expected"].is_boolean())
    failView("'energy_drift_expected' must be true or false");
  const Json& version = o.contains("version") ? o["version"] : Json();
  if (!version.is_number_integer() || version.get<long long>() < 1)
    failView("'version' must be a positive whole number");
  if (version.get<long long>() > kScenarioViewVersion)
    failView("version " + std::to_string(version.get<long long>()) +
             " is newer than this program reads (" + std::to_string(kScenarioViewVersion) + ")");
  for (const auto& [key, limit] :
       {std::pair{"title", kViewTitleMax}, std::pair{"note", kViewNoteMax}}) {
    if (!o.contains(key)) continue;
    if (!o[key].is_string()) failView(std::string("'") + key + "' must be text");
    long characters = 0;  // UTF-8: the bytes that start a character
    for (const unsigned char c : o[key].get_ref<const std::string&>())
      characters += (c & 0xC0) != 0x80;
    if (characters > limit)
      failView(std::string("'") + key + "' is " + std::to_string(characters) +
               " characters long; at most " + std::to_string(limit) + " are allowed");
  }
  if (o.contains("study") && !o["study"].is_object()) failView("'study' must be an object");
  if (o.contains("plan")) checkViewPlan(o["plan"]);
  if (o.contains("arrow_scales")) checkViewArrowScales(o["arrow_scales"]);
  checkViewNumber(o, "speed", "", kViewSpeedMin, kViewSpeedMax);
  checkViewNumber(o, "step", "", kViewStepMin, kViewStepMax);
  if (o.contains("camera")) checkViewCamera(o["camera"]);
  if (o.contains("theme") && o["theme"] != "dark" && o["theme"] != "light")
    failView("'theme' must be \"dark\" or \"light\"");
  if (o.contains("display")) checkViewDisplay(o["display"]);
  if (o.contains("plots")) {
    const Json& p = o["plots"];
    if (!p.is_object()) failView("'plots' must be an object");
    checkViewKeys(p, {"phase", "time_series"}, "'plots'");
    if (p.contains("phase")) checkViewNames(p["phase"], "plots.phase", 2, 2);
    if (p.contains("time_series"))
      checkViewNames(p["time_series"], "plots.time_series", 0, kViewTimeSeriesMax);
  }
  if (o.contains("compare")) checkViewCompare(o["compare"]);
}

std::vector<std::string> distinctTimeSeries(const std::vector<std::string>& names,
                                            const std::string& where) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const std::string& name : names)
    if (seen.insert(name).second) out.push_back(name);
  if (out.size() > kViewTimeSeriesMax)
    throw InputError(where + " names " + std::to_string(out.size()) +
                     " different variables; at most " + std::to_string(kViewTimeSeriesMax) +
                     " are plotted over time");
  return out;
}

namespace {

void checkGhostFor(const Json& c, const Scenario& scenario, const SystemModel& system) {
  const std::string name = c["parameter"].get<std::string>();
  std::vector<std::string> names;
  for (const auto& p : system.info().parameters) names.push_back(p.name);
  if (system.parameterIndex(name) < 0)
    failView("the ghost's parameter '" + echoInput(name) + "' is not a parameter of '" +
             system.name() + "' (parameters: " + joined(names) + ")");
  std::map<std::string, double> ghost = scenario.parameters;
  ghost[name] = c["value"].get<double>();
  try {
    resolveParameters(system, ghost);
  } catch (const InputError& e) {
    failView(std::string("the ghost's value: ") + e.what());
  }
}

// The comparison integrator as the run beside it would take it (the same scenario with the
// other method and step).
void checkComparisonIntegratorFor(const Json& c, const Scenario& scenario,
                                  const std::shared_ptr<const SystemModel>& system) {
  Scenario other = scenario;
  other.integrator.method = parseIntegrator(c["integrator"].get<std::string>());
  if (c.contains("step")) {
    other.integrator.step = c["step"].get<double>();
  } else {
    other.integrator.step = scenario.dtOut;
    if (isFixedStep(scenario.integrator.method))
      other.integrator.step = std::min(other.integrator.step, scenario.integrator.step);
  }
  try {
    other.validate();
    // A method that steps the whole state checks the system too (the tape, and what
    // discrete-gradient needs to conserve energy).
    if (integratorRow(other.integrator.method).wholeState) {
      const EquationsOfMotion equations(system, other.dynamics, other.formulation,
                                        resolveParameters(*system, other.parameters));
      checkIntegratorApplies(other.integrator.method, equations);
    }
  } catch (const InputError& e) {
    failView(std::string("the comparison integrator: ") + e.what());
  }
}

}  // namespace

void checkScenarioViewFor(const Scenario& scenario) {
  if (scenario.view.empty()) return;
  checkScenarioView(scenario.view);
  const Json o = Json::parse(scenario.view);
  const std::shared_ptr<const SystemModel> system = findSystem(scenario.system);
  if (o.contains("compare")) {
    const Json& c = o["compare"];
    const std::string mode = c.contains("mode") && c["mode"].is_string() ? c["mode"] : Json("");
    if (mode == "ghost") checkGhostFor(c, scenario, *system);
    if (mode == "integrator") checkComparisonIntegratorFor(c, scenario, system);
  }
  if (o.contains("plan"))
    for (const auto& [name, value] : o["plan"]["targets"].items())
      if (system->coordinateIndex(name) < 0)
        failView("'plan.targets." + echoInput(name) + "' is not a coordinate of '" +
                 system->name() + "' (coordinates: " + joined(system->info().coordinates) + ")");
}

namespace {

// The JSON of a scenario: each key once, valid JSON, an object.
Json parseScenarioRoot(const std::string& json, const std::string& origin) {
  Json root;
  try {
    root = parseWithoutDuplicates(json);
  } catch (const DuplicateKey& d) {
    fail(origin, "duplicate key '" + echoInput(d.key) + "' at line " +
                     std::to_string(lineAt(json, d.offset)) + " (each key may appear once)");
  } catch (const Json::exception& e) {
    // A syntax error or a number too large for a double (out_of_range.406); e.what() is
    // "[json.exception.parse_error.101] parse error at line 1, column 5: ...".
    std::string reason = e.what();
    const auto bracket = reason.find("] ");
    if (bracket != std::string::npos) reason = reason.substr(bracket + 2);
    fail(origin, "not valid JSON (" + reason + ")");
  }
  if (!root.is_object()) fail(origin, "a scenario must be a JSON object");
  return root;
}

// The known keys, the format and its version, and the view's rules.
void checkScenarioHeader(const Json& root, const std::string& origin) {
  checkKeys(root,
            {"format", "version", "system", "parameters", "initial", "t_end", "dt_out",
             "integrator", "dynamics", "formulation", "edits", "view", "exported_as"},
            "the scenario", origin);
  if (!root.contains("format") || !root["format"].is_string() || root["format"] != kFormatName)
    fail(origin, std::string("'format' must be \"") + kFormatName + "\"");
  if (!root.contains("version")) fail(origin, "missing 'version'");
  const double version = number(root["version"], "version", origin);
  if (version != 1 && version != kScenarioFormatVersion)
    fail(origin, "unsupported scenario version " + formatValue(version) +
                     " (this program reads versions 1 to " +
                     std::to_string(kScenarioFormatVersion) + ")");
  if (root.contains("view")) {
    if (version < 2) fail(origin, "'view' needs scenario version 2 (this file says 1)");
    const Json& view = root["view"];
    if (!view.is_object()) fail(origin, "'view' must be an object");
    if (!view.contains("version") || !view["version"].is_number_integer())
      fail(origin, "'view' must state its version (\"version\": 1)");
    withOrigin(origin, [&] {  // the rules nhlab applies when it shows the view
      checkScenarioView(view.dump());
      return 0;
    });
  }
}

// The system: a name, or a model file found relative to the scenario's folder (held as its
// absolute path; written back relative by writeScenarioFile). Checked to exist.
std::string scenarioSystem(const Json& root, const std::string& origin) {
  if (!root.contains("system") || !root["system"].is_string())
    fail(origin, "'system' must be a string naming a system");
  std::string system = text(root["system"], "system", origin);
  if (isSystemPath(system)) {
    fs::path p(system);
    if (p.is_relative()) p = fs::absolute(fs::path(origin).parent_path() / p).lexically_normal();
    system = p.string();
  }
  try {
    findSystem(system);  // lists the known systems
  } catch (const model::ModelError&) {
    throw;                         // names the model file, its key, line and column
  } catch (const InputError& e) {  // echoes the system's name
    fail(origin, e.what());
  }
  return system;
}

void readIntegrator(const Json& in, const std::string& origin, IntegratorOptions& options) {
  if (!in.is_object()) fail(origin, "'integrator' must be an object");
  checkKeys(in, {"method", "rtol", "atol", "step", "max_steps", "projection", "reconstruction"},
            "'integrator'", origin);
  if (in.contains("method"))
    options.method = withOrigin(
        origin, [&] { return parseIntegrator(text(in["method"], "integrator.method", origin)); });
  if (in.contains("rtol")) options.rtol = number(in["rtol"], "integrator.rtol", origin);
  if (in.contains("atol")) options.atol = number(in["atol"], "integrator.atol", origin);
  if (in.contains("step")) options.step = number(in["step"], "integrator.step", origin);
  if (in.contains("max_steps")) options.maxSteps = stepBudget(in["max_steps"], origin);
  if (in.contains("projection")) {
    if (!in["projection"].is_boolean())
      fail(origin, "'integrator.projection' must be true or false");
    options.projection = in["projection"].get<bool>();
  }
  if (in.contains("reconstruction")) {
    if (!in["reconstruction"].is_boolean())
      fail(origin, "'integrator.reconstruction' must be true or false");
    options.reconstruction = in["reconstruction"].get<bool>();
  }
}

// "edits": [{"t": 25, "set": {"Omega0": 3}, "label": "Ω₀ = 3"}, …]: parameter values from a
// time on, in time order (checked by Scenario::validate and, against the system, checkEdits).
std::vector<TimedEdit> readEdits(const Json& in, const std::string& origin) {
  if (!in.is_array())
    fail(origin, "'edits' must be a list of {\"t\": time, \"set\": {parameter: value}}");
  std::vector<TimedEdit> edits;
  for (const Json& item : in) {
    if (!item.is_object() || !item.contains("t") || !item.contains("set"))
      fail(origin, "each of 'edits' must be {\"t\": time, \"set\": {parameter: value}}");
    checkKeys(item, {"t", "set", "label"}, "an edit", origin);
    TimedEdit edit;
    edit.t = number(item["t"], "edits.t", origin);
    edit.parameters = numberMap(item["set"], "edits.set", origin);
    if (edit.parameters.empty()) fail(origin, "an edit's 'set' names no parameter");
    if (item.contains("label")) edit.label = text(item["label"], "edits.label", origin);
    edits.push_back(std::move(edit));
  }
  return edits;
}

}  // namespace

Scenario parseScenarioJson(const std::string& json, const std::string& origin) {
  const Json root = parseScenarioRoot(json, origin);
  checkScenarioHeader(root, origin);
  Scenario s;
  s.system = scenarioSystem(root, origin);
  if (root.contains("parameters"))
    s.parameters = numberMap(root["parameters"], "parameters", origin);
  if (root.contains("initial")) s.initial = numberMap(root["initial"], "initial", origin);
  if (root.contains("t_end")) s.tEnd = number(root["t_end"], "t_end", origin);
  if (root.contains("dt_out")) s.dtOut = number(root["dt_out"], "dt_out", origin);
  // Named values: parse errors carry the file name like every other message here.
  if (root.contains("dynamics"))
    s.dynamics = withOrigin(
        origin, [&] { return parseDynamics(text(root["dynamics"], "dynamics", origin)); });
  if (root.contains("formulation"))
    s.formulation = withOrigin(
        origin, [&] { return parseFormulation(text(root["formulation"], "formulation", origin)); });
  if (root.contains("integrator")) readIntegrator(root["integrator"], origin, s.integrator);
  if (root.contains("view")) s.view = root["view"].dump();
  if (root.contains("edits")) s.edits = readEdits(root["edits"], origin);
  withOrigin(origin, [&] {
    s.validate();
    if (!s.edits.empty()) checkEdits(*findSystem(s.system), s);
    return 0;
  });
  return s;
}

Scenario readScenarioFile(const std::string& path) {
  return parseScenarioJson(readRegularFile(path, "scenario file"), path);
}

bool isSystemPath(const std::string& system) {
  return system.find('/') != std::string::npos || model::isModelFilePath(system);
}

std::string scenarioToJson(const Scenario& s, const std::string& path) {
  OrderedJson root;
  root["format"] = kFormatName;
  root["version"] = kScenarioFormatVersion;
  std::string system = s.system;
  if (!path.empty() && isSystemPath(system) && fs::path(system).is_absolute()) {
    // Relative to the scenario's own folder, so the two can move together.
    const fs::path folder = fs::absolute(fs::path(path)).parent_path();
    const fs::path relative = fs::path(system).lexically_relative(folder);
    if (!relative.empty()) system = relative.string();
  }
  root["system"] = system;
  root["parameters"] = OrderedJson::object();
  for (const auto& [name, value] : s.parameters) root["parameters"][name] = value;
  root["initial"] = OrderedJson::object();
  for (const auto& [name, value] : s.initial) root["initial"][name] = value;
  root["t_end"] = s.tEnd;
  root["dt_out"] = s.dtOut;
  root["integrator"] = {{"method", toString(s.integrator.method)},
                        {"rtol", s.integrator.rtol},
                        {"atol", s.integrator.atol},
                        {"step", s.integrator.step},
                        {"max_steps", s.integrator.maxSteps},
                        {"projection", s.integrator.projection},
                        {"reconstruction", s.integrator.reconstruction}};
  root["dynamics"] = toString(s.dynamics);
  root["formulation"] = toString(s.formulation);
  if (!s.edits.empty()) {
    root["edits"] = OrderedJson::array();
    for (const TimedEdit& edit : s.edits) {
      OrderedJson item;
      item["t"] = edit.t;
      item["set"] = OrderedJson::object();
      for (const auto& [name, value] : edit.parameters) item["set"][name] = value;
      if (!edit.label.empty()) item["label"] = edit.label;
      root["edits"].push_back(std::move(item));
    }
  }
  if (!s.view.empty()) root["view"] = OrderedJson::parse(s.view);
  return root.dump(4) + "\n";
}

std::string exportedAsOf(const std::string& path) {
  try {
    const Json root = Json::parse(readRegularFile(path, "scenario file"));
    if (root.is_object() && root.contains("exported_as") && root["exported_as"].is_string())
      return root["exported_as"].get<std::string>();
  } catch (const std::exception&) {
    // Unreadable or not JSON: not a sidecar this program wrote.
  }
  return {};
}

void writeScenarioFile(const Scenario& scenario, const std::string& path,
                       const std::string& exportedAs) {
  try {
    std::string json = scenarioToJson(scenario, path);
    if (!exportedAs.empty()) {
      OrderedJson root = OrderedJson::parse(json);
      root["exported_as"] = exportedAs;
      json = root.dump(4) + "\n";
    }
    writeFileAtomically(path, json);
  } catch (const Error& e) {
    throw Error(std::string("scenario file: ") + e.what());
  }
}

Scenario resolvedScenario(const Scenario& scenario, const std::vector<double>& parameters,
                          const std::vector<double>& initialState) {
  Scenario s = scenario;
  const auto system = findSystem(s.system);
  s.parameters.clear();
  for (size_t i = 0; i < parameters.size(); ++i)
    s.parameters[system->info().parameters[i].name] = parameters[i];
  s.initial.clear();
  const StateLayout layout = stateLayout(*system, s.dynamics);
  for (size_t i = 0; i < layout.names.size(); ++i)
    s.initial[layout.names[i]] = initialState[layout.index[i]];
  return s;
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
