// The live page's data (live_page.h): the engine's scenario, the controls' rows and a typed-in
// model's archive.
#include "ui/export/live_page.h"

#include <QByteArray>
#include <algorithm>
#include <cmath>

#include "core/io/scenario_file.h"
#include "core/model/catalogue.h"
#include "core/model/formula_system.h"
#include "core/model/model_archive.h"
#include "core/nh/errors.h"
#include "core/nh/integrators.h"
#include "core/nh/scenario_run.h"
#include "ui/export/interactive_page.h"
#include "ui/session/scenario_view.h"

namespace nhui {

namespace {

using Json = nlohmann::json;

// The longest a live run goes on (simulated seconds): a day of a lesson left playing.
constexpr double kLiveSeconds = 86400;

// A bound for the page: null where there is none (infinite).
Json bound(double v) { return std::isfinite(v) ? Json(v) : Json(); }

Json parametersJson(const nh::SystemModel& system, const std::vector<double>& values) {
  Json list = Json::array();
  const auto& infos = system.info().parameters;
  for (size_t i = 0; i < infos.size(); ++i) {
    const nh::ParameterInfo& p = infos[i];
    list.push_back({{"name", p.name},
                    {"label", p.label.empty() ? p.name : p.label},
                    {"unit", p.unit},
                    {"description", p.description},
                    {"min", bound(p.min)},
                    {"max", bound(p.max)},
                    {"minExclusive", p.minExclusive},
                    {"maxExclusive", p.maxExclusive},
                    {"default", p.defaultValue},
                    {"value", values[i]}});
  }
  return list;
}

// The state's names and their values at the start (as the run completes them).
Json initialJson(const nh::StateLayout& layout, const std::vector<double>& x0) {
  Json list = Json::array();
  for (size_t i = 0; i < layout.names.size(); ++i)
    list.push_back(
        {{"name", layout.names[i]}, {"value", x0[static_cast<size_t>(layout.index[i])]}});
  return list;
}

}  // namespace

std::string livePageRefusal(const nh::Scenario& scenario) {
  try {
    if (parseScenarioView(scenario.view).plan)
      return "a planned motion is not run live: its page plays the solved plan (write it "
             "without --live)";
  } catch (const nh::Error&) {
    // A view the reader refuses plans nothing.
  }
  const auto system = nh::findSystem(scenario.system);
  if (system->info().isControlModel())
    return "'" + system->name() +
           "' is a control model: its page plays a planned motion (write it without --live)";
  const std::string method = nh::toString(scenario.integrator.method);
  if (method == "arkode78" || method == "bdf")
    return method +
           " needs SUNDIALS, which the page's engine leaves out; choose dop853, dopri5, rk78, "
           "rk4, nh-rattle or discrete-gradient (--integrator), or write the page without "
           "--live";
  return {};
}

Json livePageData(const nh::Scenario& scenario, const PageSettings& settings) {
  if (const std::string refusal = livePageRefusal(scenario); !refusal.empty())
    throw nh::InputError(refusal);
  const auto system = nh::findSystem(scenario.system);
  nh::Scenario live = scenario;
  live.view.clear();
  live.tEnd = kLiveSeconds;
  // A row every sample shown, or every step of a fixed-step method whose step is longer (a
  // scenario may not cut its steps to its rows: the lesson of what a large step does).
  live.dtOut = settings.sampleStep;
  if (nh::isFixedStep(live.integrator.method))
    live.dtOut = std::max(live.dtOut, live.integrator.step);
  Json model;  // a model file's system travels as its archive, found by its name
  if (const auto* formula = nh::model::asFormula(*system);
      formula && nh::isSystemPath(live.system)) {
    const std::string archive = nh::model::archiveModel(*formula);
    model =
        QByteArray(archive.data(), static_cast<qsizetype>(archive.size())).toBase64().toStdString();
    live.system = system->name();
  }
  const nh::ScenarioRun start(system, scenario);
  Json compare;  // the lesson's "compare" part, as the engine reads it (app/web/engine.h)
  const nh::Comparison& c = settings.liveComparison;
  if (c.mode == nh::CompareMode::Vakonomic) compare = {{"mode", "vakonomic"}};
  if (c.mode == nh::CompareMode::Ghost)
    compare = {{"mode", "ghost"}, {"parameter", c.ghostParameter}, {"value", c.ghostValue}};
  if (c.mode == nh::CompareMode::Integrator)
    compare = {{"mode", "integrator"}, {"integrator", nh::toString(c.method)}, {"step", c.step}};
  Json scenarioJson = Json::parse(nh::scenarioToJson(live));
  scenarioJson.erase("exported_as");
  return {{"scenario", scenarioJson},
          {"model", model},
          {"parameters", parametersJson(*system, start.parameters())},
          {"initial", initialJson(start.layout(), start.start().x0)},
          {"arrowScales", settings.arrowScales},
          {"arrowScaleFixed", settings.display.arrowScaleFixed},
          {"recordedEnd", settings.tEnd},
          {"sampleStep", settings.sampleStep},
          {"compare", compare}};
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
