// The web engine's entry points (engine.h): each run a scenario, its ScenarioRun and the rows
// it delivered, kept by handle; every exception caught at the boundary and kept as one line.
#include "app/web/engine.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/scenario_file.h"
#include "core/model/catalogue.h"
#include "core/model/model_archive.h"
#include "core/nh/comparison.h"
#include "core/nh/errors.h"
#include "core/nh/integrators.h"
#include "core/nh/scenario_run.h"
#include "core/nh/scene_samples.h"

namespace {

// The page's scene at each row: its items' slots, the arrows' scales, the samples held.
struct WebScene {
  nh::SceneItems items;
  std::unique_ptr<nh::SampleArrowScales> scales;
  std::vector<float> samples;
  std::vector<std::vector<float>> references;  // per arrow, one per row held
  nh::SceneFrame frame;
};

struct WebRun {
  nh::Scenario scenario;
  std::shared_ptr<const nh::SystemModel> system;
  std::unique_ptr<nh::ScenarioRun> run;
  std::vector<double> rows;
  int rowCount = 0;
  bool stopped = false;
  std::string stopReason;  // why, when an edit stopped it (a comparison that cannot take one)
  std::unique_ptr<WebScene> scene;
  int comparisonOf = 0;  // the primary run's handle, for a comparison run
  nh::Comparison comparison;
  // The rows' grid: they come at origin + i·step (core/nh/simulation.h), origin the time of
  // the first row after each (re)start: the first, and the one delivered again at an edit.
  double origin = 0;
  double lastRowTime = -INFINITY;

  // A row delivered: kept, and its scene sample made when the page draws one.
  void take(const nh::ScenarioRun::Sample& s) {
    if (!(s.t > lastRowTime)) origin = s.t;
    lastRowTime = s.t;
    rows.insert(rows.end(), s.row.begin(), s.row.end());
    ++rowCount;
    if (!scene) return;
    const int n = system->n();
    double noLambda = 0;
    const double* lambda = s.observed.lambda.size() > 0 ? s.observed.lambda.data() : &noLambda;
    system->scene(run->parameters().data(), s.t, s.x, s.x + n, lambda, scene->frame);
    scene->items.dropUnknown(scene->frame);
    nh::appendSample(scene->frame, scene->items, scene->samples);
    scene->scales->append(scene->frame, scene->items, scene->references);
  }
};

// The page's items (engine.h, nhweb_record_scene) as slots, in the page's order.
std::unique_ptr<WebScene> sceneOf(const std::string& text) {
  const auto json = nlohmann::json::parse(text, nullptr, false);
  if (!json.is_object()) throw nh::InputError("the page's scene items are not a JSON object");
  auto scene = std::make_unique<WebScene>();
  auto named = [](const nlohmann::json& item) { return item.value("name", std::string()); };
  for (const auto& b : json.value("bodies", nlohmann::json::array())) {
    nh::SceneBody body;
    body.name = named(b);
    const std::string kind = b.value("kind", std::string());
    bool known = false;
    for (const nh::ShapeRow& row : nh::kShapeTable)
      if (kind == row.name) body.kind = row.kind, known = true;
    if (!known) throw nh::InputError("unknown body kind '" + kind + "' in the page's scene");
    scene->items.bodySlot(body);
  }
  for (const auto& a : json.value("arrows", nlohmann::json::array())) {
    nh::SceneArrow arrow;
    arrow.name = named(a);
    const std::string kind = a.value("kind", std::string());
    bool known = false;
    for (const nh::ArrowColour& colour : nh::kArrowColours)
      if (kind == colour.name) arrow.kind = colour.kind, known = true;
    if (!known) throw nh::InputError("unknown arrow kind '" + kind + "' in the page's scene");
    scene->items.arrowSlot(arrow);
  }
  for (const auto& p : json.value("points", nlohmann::json::array())) {
    nh::ScenePoint point;
    point.name = named(p);
    point.inMovingFrame = p.value("moving", false);
    scene->items.pointSlot(point);
  }
  std::vector<double> presets = json.value("arrowPresets", std::vector<double>());
  presets.resize(scene->items.arrows.size(), 0.0);
  scene->scales =
      std::make_unique<nh::SampleArrowScales>(presets, json.value("arrowScaleFixed", false));
  return scene;
}

// A lesson's "compare" part (nhweb_open_comparison), checked: what the app's reader refuses
// is refused in one line.
nh::Comparison comparisonOf(const std::string& text) {
  const auto json = nlohmann::json::parse(text, nullptr, false);
  if (!json.is_object()) throw nh::InputError("the comparison is not a JSON object");
  const std::string mode = json.value("mode", std::string());
  nh::Comparison comparison;
  if (mode == "vakonomic") {
    comparison.mode = nh::CompareMode::Vakonomic;
  } else if (mode == "ghost") {
    if (!json.contains("parameter") || !json["parameter"].is_string() || !json.contains("value") ||
        !json["value"].is_number())
      throw nh::InputError("a ghost comparison needs 'parameter' (a name) and 'value' (a number)");
    comparison.mode = nh::CompareMode::Ghost;
    comparison.ghostParameter = json["parameter"].get<std::string>();
    comparison.ghostValue = json["value"].get<double>();
  } else if (mode == "integrator") {
    comparison.mode = nh::CompareMode::Integrator;
    comparison.method = nh::parseIntegrator(json.value("integrator", std::string()));
    comparison.step = json.value("step", comparison.step);
  } else {
    throw nh::InputError(
        "the comparison's mode must be \"vakonomic\", \"ghost\" or "
        "\"integrator\", got '" +
        mode.substr(0, 40) + "'");
  }
  return comparison;
}

// The time between a run's rows: the scenario's dt-out, or a fixed-step method's own step
// where that is longer, so that every row is the end of one of its steps (a step shortened to
// meet a row would not be the method's run: the lessons that show what a large step does).
double rowStep(const nh::Scenario& s) {
  const bool ownSteps = nh::isFixedStep(s.integrator.method) && s.integrator.step > s.dtOut;
  return ownSteps ? s.integrator.step : s.dtOut;
}

std::map<int, WebRun>& runs() {
  static std::map<int, WebRun> all;
  return all;
}

std::string& lastError() {
  static std::string error;
  return error;
}

std::string& lastText() {  // what a const char* result points into until the next call
  static std::string text;
  return text;
}

WebRun* find(int handle) {
  const auto it = runs().find(handle);
  if (it != runs().end()) return &it->second;
  lastError() = "no open run " + std::to_string(handle);
  return nullptr;
}

// Runs `body`, keeping an exception's message as the error; `failed` when it threw.
template <typename Body, typename Result>
Result guarded(Body body, Result failed) {
  lastError().clear();
  try {
    return body();
  } catch (const std::exception& e) {
    lastError() = e.what();
  } catch (...) {
    lastError() = "the engine stopped with an unknown error";
  }
  return failed;
}

}  // namespace

extern "C" {

int nhweb_open(const char* scenarioJson) {
  return guarded(
      [&] {
        nh::Scenario s = nh::parseScenarioJson(scenarioJson ? scenarioJson : "", "the scenario");
        s.validate();
        auto system = nh::findSystem(s.system);
        if (system->info().isControlModel())
          throw nh::InputError("'" + s.system +
                               "' is a control model: it has no dynamics to run; open its plan "
                               "in nhlab or nhsim optimize");
        WebRun web;
        web.system = system;
        web.run = std::make_unique<nh::ScenarioRun>(std::move(system), s);
        web.scenario = std::move(s);
        const int handle = runs().empty() ? 1 : runs().rbegin()->first + 1;
        runs().emplace(handle, std::move(web));
        return handle;
      },
      0);
}

int nhweb_open_comparison(int primary, const char* compareJson) {
  const WebRun* first = find(primary);
  if (!first) return 0;
  return guarded(
      [&] {
        const nh::Comparison comparison = comparisonOf(compareJson ? compareJson : "");
        const nh::Scenario& s = first->scenario;
        const nh::RunSetup start{first->system,
                                 s.dynamics,
                                 s.formulation,
                                 s.integrator,
                                 nh::resolveParameters(*first->system, s.parameters),
                                 first->run->start().x0};
        const nh::RunSetup setup = nh::comparisonSetup(start, comparison);
        WebRun web;
        web.system = first->system;
        web.run = std::make_unique<nh::ScenarioRun>(setup, 0.0);
        web.run->setEdits(s.edits, comparison);
        web.scenario = s;
        web.scenario.dynamics = setup.dynamics;
        web.scenario.formulation = setup.formulation;
        web.scenario.integrator = setup.options;
        web.comparisonOf = primary;
        web.comparison = comparison;
        const int handle = runs().rbegin()->first + 1;
        runs().emplace(handle, std::move(web));
        return handle;
      },
      0);
}

void nhweb_close(int run) {
  runs().erase(run);
  std::erase_if(runs(), [run](const auto& entry) { return entry.second.comparisonOf == run; });
}

const char* nhweb_error() { return lastError().c_str(); }

int nhweb_column_count(int run) {
  const WebRun* web = find(run);
  return web ? static_cast<int>(web->run->columns().size()) : 0;
}

const char* nhweb_column(int run, int index) {
  const WebRun* web = find(run);
  if (!web || index < 0 || index >= nhweb_column_count(run)) return "";
  return web->run->columns()[static_cast<size_t>(index)].c_str();
}

int nhweb_advance(int run, double tEnd) {
  WebRun* web = find(run);
  if (!web) return -1;
  if (web->stopped) {
    lastError() = web->stopReason.empty() ? "the run has stopped; open it again" : web->stopReason;
    return -1;
  }
  const int held = guarded(
      [&] {
        double to = std::min(tEnd, web->scenario.tEnd);
        // A fixed-step method goes on by whole rows only: the page's slices end on a row, and
        // no step is cut short to meet a slice's end (the run stays the method's).
        const double dt = rowStep(web->scenario);
        if (nh::isFixedStep(web->scenario.integrator.method) && to < web->scenario.tEnd &&
            web->run->tally().rows > 0)
          to = web->origin + std::floor((to - web->origin) / dt + 1e-9) * dt;
        if (to > web->run->simulation().time() || web->run->tally().rows == 0)
          web->run->advance(
              to, dt, [web](const nh::ScenarioRun::Sample& s) { web->take(s); },
              to >= web->scenario.tEnd);
        return web->rowCount;
      },
      -1);
  if (held < 0) {
    web->stopped = true;
    web->stopReason = lastError();
  }
  return held;
}

int nhweb_row_count(int run) {
  const WebRun* web = find(run);
  return web ? web->rowCount : 0;
}

const double* nhweb_rows(int run) {
  const WebRun* web = find(run);
  return web ? web->rows.data() : nullptr;
}

void nhweb_clear_rows(int run) {
  if (WebRun* web = find(run)) {
    web->rows.clear();
    web->rowCount = 0;
    if (web->scene) {
      web->scene->samples.clear();
      for (auto& arrow : web->scene->references) arrow.clear();
    }
  }
}

int nhweb_record_scene(int run, const char* itemsJson) {
  WebRun* web = find(run);
  if (!web) return 0;
  return guarded(
      [&] {
        web->scene = sceneOf(itemsJson ? itemsJson : "");
        return 1;
      },
      0);
}

int nhweb_scene_width(int run) {
  const WebRun* web = find(run);
  return web && web->scene ? static_cast<int>(web->scene->items.layout().width()) : 0;
}

const float* nhweb_scene_samples(int run) {
  const WebRun* web = find(run);
  return web && web->scene ? web->scene->samples.data() : nullptr;
}

const float* nhweb_arrow_scales(int run, int arrow) {
  const WebRun* web = find(run);
  if (!web || !web->scene || arrow < 0 || arrow >= static_cast<int>(web->scene->references.size()))
    return nullptr;
  return web->scene->references[static_cast<size_t>(arrow)].data();
}

double nhweb_time(int run) {
  const WebRun* web = find(run);
  return web ? web->run->simulation().time() : std::nan("");
}

int nhweb_edit(int run, const char* name, double value) {
  WebRun* web = find(run);
  if (!web) return 0;
  return guarded(
      [&] {
        std::vector<nh::TimedEdit> edits = web->run->edits();
        nh::TimedEdit edit;
        edit.t = web->run->simulation().time();
        edit.parameters[name ? name : ""] = value;
        edits.push_back(std::move(edit));
        web->run->setEdits(edits);  // checks the edit: a refused one changes nothing
        // The comparisons take it as the app's do; one that cannot (a ghost's own value out
        // of the edited bounds, say) stops there, saying why, and the primary goes on.
        for (auto& [handle, other] : runs()) {
          if (other.comparisonOf != run || other.stopped) continue;
          try {
            other.run->setEdits(edits, other.comparison);
            other.scenario.edits = edits;
          } catch (const std::exception& e) {
            other.stopped = true;
            other.stopReason = e.what();
          }
        }
        web->scenario.edits = std::move(edits);
        return 1;
      },
      0);
}

const char* nhweb_scenario(int run) {
  const WebRun* web = find(run);
  lastText() = web ? nh::scenarioToJson(web->scenario) : "";
  return lastText().c_str();
}

int nhweb_add_model(const unsigned char* bytes, int size) {
  return guarded(
      [&] {
        const std::string_view archive(reinterpret_cast<const char*>(bytes),
                                       static_cast<size_t>(std::max(size, 0)));
        nh::registerSessionSystem(nh::model::unarchiveModel(archive));
        return 1;
      },
      0);
}

const char* nhweb_systems() {
  std::string names;
  for (const auto& system : nh::catalogue())
    if (!system->info().isControlModel()) names += system->name() + "\n";
  lastText() = names;
  return lastText().c_str();
}

}  // extern "C"
// SPDX-License-Identifier: GPL-3.0-or-later
