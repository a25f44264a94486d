// The interactive page (interactive_page.h): the run's samples, scene items, arrow scales, plots
// (both runs, the app's titles) and comparison packed as JSON and base64 floats into the bundled
// template with three.js, made safe inside its script tag, and written through AtomicOutput.
#include "ui/export/interactive_page.h"

#include <QByteArray>
#include <QFile>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <string_view>

#include "core/io/atomic_output.h"
#include "core/model/catalogue.h"
#include "core/nh/errors.h"
#include "core/nh/scene_samples.h"
#include "core/nh/scene_table.h"
#include "core/nh/system.h"
#include "ui/export/animation_exporter.h"
#include "ui/export/live_page.h"
#include "ui/export/media/video_encoder.h"
#include "ui/export/page_template.h"
#include "ui/export/plan_source.h"
#include "ui/export/web_engine.h"
#include "ui/plot/plot_panels.h"
#include "ui/scene/scene_renderer.h"
#include "ui/session/scenario_view.h"
#include "ui/sim/run_history.h"

namespace nhui {

namespace {

using Json = nlohmann::json;

// The bundled files (resources/CMakeLists.txt): the page's template, script and style, and
// three.js with its orbit controls.
constexpr const char* kTemplate = ":/page/html/page.html";
constexpr const char* kScript = ":/page/html/page.js";
constexpr const char* kStyle = ":/page/html/page.css";
constexpr const char* kThree = ":/page/three/three.min.js";
constexpr const char* kOrbit = ":/page/three/OrbitControls.js";
constexpr const char* kLiveScript = ":/page/html/live.js";
constexpr const char* kPako = ":/page/pako/pako_inflate.min.js";

Json rgbJson(nh::Rgb c) { return Json::array({c.r, c.g, c.b}); }

template <size_t N>
Json rgbListJson(const std::array<nh::Rgb, N>& colours) {
  Json list = Json::array();
  for (const nh::Rgb c : colours) list.push_back(rgbJson(c));
  return list;
}

// A kind's row of the scene table for the page: how it is drawn, what its sizes mean, the
// rule of its bound, whether it is scenery, its colours by role.
Json shapeRowJson(const nh::ShapeRow& row) {
  Json colours = Json::object();
  for (const nh::ShapeColour& c : row.colours)
    if (c.role) colours[c.role] = rgbJson(c.rgb);
  return {{"geometry", row.geometry},
          {"size", row.size},
          {"orComponent", row.orComponent},
          {"bound",
           {{"combine", row.bound.combine == nh::BoundRule::Largest ? "largest" : "length"},
            {"of", row.bound.of}}},
          {"scenery", row.scenery},
          {"colours", colours}};
}

// The scene table (core/nh/scene_table.h) as the page reads it (resources/html/page.js): body
// kinds by name, the other colours, the page's stage and the layout of a sample.
Json sceneTableJson() {
  Json kinds = Json::object(), arrows = Json::object(), runs = Json::array();
  for (const nh::ShapeRow& row : nh::kShapeTable) kinds[row.name] = shapeRowJson(row);
  for (const nh::ArrowColour& a : nh::kArrowColours) arrows[a.name] = a.rgb;
  for (const nh::RunColours& r : nh::kRunColours)
    runs.push_back({{"name", r.colourName},
                    {"onDark", rgbJson(r.onDark)},
                    {"onLight", rgbJson(r.onLight)},
                    {"trails", rgbListJson(r.trails)}});
  const nh::PageStage& stage = nh::kPageStage;
  return {
      {"kinds", kinds},
      {"shade", rgbJson(nh::kShadeTone)},
      {"capShade", nh::kCapShade},
      {"flatGuideOpacity", nh::kFlatGuideOpacity},
      {"arrows", arrows},
      {"legendOnLight", nh::kLegendOnLight},
      {"trails", rgbListJson(nh::kTrailColours)},
      {"runs", runs},
      {"comparisonOpacity", nh::kComparisonOpacity},
      {"ghostOpacity", nh::kGhostOpacity},
      {"stage",
       {{"ambient", rgbJson(stage.ambient)},
        {"sky", rgbJson(stage.sky)},
        {"ground", rgbJson(stage.ground)},
        {"headlight", rgbJson(stage.headlight)},
        {"specular", rgbJson(stage.specular)},
        {"grid", rgbJson(stage.grid)}}},
      {"record",
       {{"order", {"body", "arrow", "point", "frame"}},
        {"body",
         {{"width", nh::kBodyRecord},
          {"position", nh::kBodyPosition},
          {"orientation", nh::kBodyOrientation}}},
        {"arrow",
         {{"width", nh::kArrowRecord}, {"origin", nh::kArrowOrigin}, {"vector", nh::kArrowVector}}},
        {"point", {{"width", nh::kPointRecord}, {"position", nh::kPointPosition}}},
        {"frame", {{"width", nh::kFrameRecord}, {"orientation", nh::kFrameOrientation}}}}}};
}

// 32-bit floats, little-endian, in base64: what the page decodes into a Float32Array.
std::string base64Floats(const std::vector<float>& values) {
  const QByteArray raw(reinterpret_cast<const char*>(values.data()),
                       static_cast<qsizetype>(values.size() * sizeof(float)));
  const QByteArray encoded = raw.toBase64();
  return std::string(encoded.constData(), static_cast<size_t>(encoded.size()));
}

// The times of the embedded samples: the grid from tStart to tEnd with the settings' step,
// made coarser until it holds at most kMaxPageSamples, clipped to what the run recorded.
std::vector<double> sampleTimes(const RunHistory& run, const PageSettings& s) {
  const double from = std::max(s.tStart, run.firstTime());
  const double to = std::min(s.tEnd, run.lastTime());
  if (run.empty() || !(to >= from))
    throw nh::InputError("the run has no samples between t = " + nh::formatValue(s.tStart) +
                         " and " + nh::formatValue(s.tEnd) + " s to put on the page");
  const double span = to - from;
  const double step = std::max(s.sampleStep, span / (kMaxPageSamples - 1));
  const int count = std::max(1, static_cast<int>(std::floor(span / step + 1e-9)) + 1);
  std::vector<double> times(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) times[static_cast<size_t>(i)] = from + i * step;
  if (times.back() < to - 1e-9 * std::max(1.0, std::abs(to))) times.push_back(to);
  return times;
}

// The scene at every sample time, and the union of what it draws.
std::vector<nh::SceneFrame> scenesAt(const RunHistory& run, const std::vector<double>& times,
                                     const PageSettings& s, nh::SceneItems& items) {
  std::vector<nh::SceneFrame> frames(times.size());
  for (size_t k = 0; k < times.size(); ++k) {
    nh::SceneFrame& f = frames[k];
    run.sceneAt(times[k], f);
    f.arrows.erase(
        std::remove_if(f.arrows.begin(), f.arrows.end(),
                       [&](const nh::SceneArrow& a) { return !s.display.shows(a.kind); }),
        f.arrows.end());
    items.take(f);
  }
  if (!(items.extent > 0)) items.extent = 1;
  return frames;
}

Json vectorJson(const Eigen::Vector3d& v) { return Json::array({v.x(), v.y(), v.z()}); }

Json itemsJson(const nh::SceneItems& items) {
  Json bodies = Json::array(), arrows = Json::array(), points = Json::array();
  for (const auto& b : items.bodies) {
    const bool solid = b.colour.minCoeff() >= 0;
    bodies.push_back({{"kind", nh::shapeRow(b.kind).name},
                      {"name", b.name},
                      {"size", vectorJson(b.size)},
                      {"bound", nh::boundingRadius(b)},  // the app's, for the page's self-test
                      {"colour", solid ? vectorJson(b.colour.cwiseMin(1.0)) : Json()}});
  }
  for (const auto& a : items.arrows)
    arrows.push_back(
        {{"kind", nh::arrowColour(a.kind).name}, {"name", a.name}, {"unit", arrowUnit(a)}});
  for (const auto& p : items.points)
    points.push_back({{"name", p.name}, {"moving", p.inMovingFrame}});
  return {{"bodies", bodies},
          {"arrows", arrows},
          {"points", points},
          {"extent", items.extent},
          {"movingFrame", items.movingFrame}};
}

// A recorded column of `run` at the sample times (the sample at or before each; NaN past its
// end: a comparison run that failed), in base64 floats.
std::string columnValues(const RunHistory& run, int c, const std::vector<double>& times) {
  std::vector<float> values;
  values.reserve(times.size());
  const double last = run.lastTime() + 1e-9 * std::max(1.0, std::abs(run.lastTime()));
  for (const double t : times)
    values.push_back(t > last ? std::numeric_limits<float>::quiet_NaN()
                              : nh::pageFloat(run.column(c)[run.indexAtOrBefore(t)]));
  return base64Floats(values);
}

// A plotted column: its name, the app's title for it ("friction force x [N]"), the primary
// run's values and the comparison run's ("comparison"; absent where it records no such column).
Json columnJson(const RunHistory& run, const RunHistory* other, const std::string& name,
                const std::vector<double>& times) {
  const QString label =
      columnDisplayName(run.layout(), run.system().info(), QString::fromStdString(name));
  Json column = {{"name", name},
                 {"label", label.toStdString()},
                 {"values", columnValues(run, run.columnIndex(name), times)}};
  if (other && !other->empty() && other->columnIndex(name) >= 0)
    column["comparison"] = columnValues(*other, other->columnIndex(name), times);
  return column;
}

// The path plot (drawn with equal scales when both axes are lengths, as the app draws it) and
// the time series, leaving out variables the run does not record; beside a comparison, each
// run's name for the plots' legend.
Json plotsJson(const RunHistory& run, const RunHistory* other, const PageSettings& s,
               const std::vector<double>& times) {
  Json plots = {{"path", Json()}, {"series", Json::array()}, {"runs", Json()}};
  if (!s.pathX.empty() && run.columnIndex(s.pathX) >= 0 && run.columnIndex(s.pathY) >= 0)
    plots["path"] = {
        {"x", columnJson(run, other, s.pathX, times)},
        {"y", columnJson(run, other, s.pathY, times)},
        {"equal", equalPathScales(run.layout(), run.system().info(), s.pathX, s.pathY)}};
  for (const auto& name : s.timeSeries)
    if (run.columnIndex(name) >= 0) plots["series"].push_back(columnJson(run, other, name, times));
  if (other && !other->empty()) plots["runs"] = {s.runLabels[0], s.runLabels[1]};
  return plots;
}

// Each arrow's scale at every sample, stepped as the view steps it frame by frame (ArrowScale:
// its own scale per arrow, a lesson's fixed ones kept), in base64 floats per arrow; NaN where
// the arrow is not drawn (missing, or round-off of a zero vector).
Json arrowScalesJson(const std::vector<nh::SceneFrame>& frames, const nh::SceneItems& items,
                     const PageSettings& s) {
  std::vector<double> presets;
  for (const nh::SceneArrow& arrow : items.arrows) {
    const auto preset = s.arrowScales.find(arrow.name);
    presets.push_back(preset != s.arrowScales.end() ? preset->second : 0);
  }
  nh::SampleArrowScales scales(presets, s.display.arrowScaleFixed);
  std::vector<std::vector<float>> references;
  for (const nh::SceneFrame& f : frames) scales.append(f, items, references);
  Json out = Json::array();
  for (const auto& arrow : references) out.push_back(base64Floats(arrow));
  return out;
}

// The comparison run's bodies (tables and guides are the primary run's) and trails at the
// sample times, laid out as the primary run's samples without arrows; null without one.
Json comparisonJson(const ComparisonScene& comparison, const std::vector<double>& times,
                    const PageSettings& s) {
  if (!comparison) return Json();
  std::vector<nh::SceneFrame> frames(times.size());
  std::vector<bool> shown(times.size());
  nh::SceneItems items;
  for (size_t k = 0; k < times.size(); ++k) {
    nh::SceneFrame& f = frames[k];
    shown[k] = comparison(times[k], f);
    if (!shown[k]) continue;
    f.arrows.clear();
    f.bodies.erase(
        std::remove_if(f.bodies.begin(), f.bodies.end(),
                       [](const nh::SceneBody& b) { return nh::shapeRow(b.kind).scenery; }),
        f.bodies.end());
    for (const auto& b : f.bodies) items.bodySlot(b);
    for (const auto& p : f.points) items.pointSlot(p);
  }
  if (items.bodies.empty() && items.points.empty()) return Json();
  std::vector<float> samples;
  for (size_t k = 0; k < times.size(); ++k) {
    if (shown[k])
      nh::appendSample(frames[k], items, samples);
    else
      nh::appendHidden(items, samples);
  }
  Json data = itemsJson(items);
  data["legend"] = s.comparisonLegend;
  data["samples"] = base64Floats(samples);
  return data;
}

// A planned motion's start and target: per ghost, its moving bodies (no tables or guides) with
// their poses.
Json ghostsJson(const std::vector<nh::SceneFrame>& ghosts) {
  Json list = Json::array();
  for (const nh::SceneFrame& ghost : ghosts) {
    nh::SceneItems items;
    for (const auto& b : ghost.bodies)
      if (!nh::shapeRow(b.kind).scenery) items.bodySlot(b);
    Json bodies = itemsJson(items)["bodies"];
    for (size_t i = 0; i < items.bodies.size(); ++i) {
      std::vector<float> pose;
      nh::appendVector(pose, items.bodies[i].position);
      nh::appendQuaternion(pose, items.bodies[i].orientation.normalized());
      bodies[i]["pose"] = pose;
    }
    list.push_back(bodies);
  }
  return list;
}

Json pageData(const RunHistory& run, const PageSettings& s, const ComparisonScene& comparison,
              const RunHistory* other) {
  const std::vector<double> times = sampleTimes(run, s);
  nh::SceneItems items;
  const std::vector<nh::SceneFrame> frames = scenesAt(run, times, s, items);
  std::vector<float> samples, t;
  for (const auto& f : frames) nh::appendSample(f, items, samples);
  for (const double v : times) t.push_back(static_cast<float>(v));
  Json data = itemsJson(items);
  data["arrowScales"] = arrowScalesJson(frames, items, s);
  data["scene"] = sceneTableJson();
  data["comparison"] = comparisonJson(comparison, times, s);
  data["ghosts"] = ghostsJson(s.ghosts);
  data["system"] = run.system().name();
  data["title"] = s.title;
  data["note"] = s.note;
  data["dark"] = s.display.dark;
  data["follow"] = s.follow;
  data["speed"] = s.speed;
  data["trails"] = s.display.trails;
  data["trailSeconds"] = s.display.trailSeconds;
  data["count"] = times.size();
  data["t"] = base64Floats(t);
  data["samples"] = base64Floats(samples);
  data["plots"] = plotsJson(run, other, s, times);
  return data;
}

// JSON inside a <script> element: '<' only occurs in strings, where \u003c reads the same and
// no "</script>" can end the element early.
std::string scriptSafeJson(const Json& data) {
  const std::string text = data.dump();
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    if (c == '<')
      out += "\\u003c";
    else
      out += c;
  }
  return out;
}

}  // namespace

PageSettings pageSettingsFor(const nh::Scenario& scenario, const ExportSettings& settings) {
  PageSettings page;
  const auto system = nh::findSystem(scenario.system);
  // The system's title as the app's chooser shows it ("Ball on a rotating table"), else its name.
  page.title = system->info().title.empty() ? scenario.system : system->info().title;
  page.tStart = settings.tStart;
  page.tEnd = settings.tEnd;
  page.sampleStep = settings.frameStep();
  page.speed = settings.speed;
  page.display = settings.display;
  page.follow = settings.framing == ExportSettings::Framing::Follow;
  // The plots: those the export names, else the lesson's, else the drag pair and the energy.
  ExportSettings plots = settings;
  if (!settings.plots) applyScenarioPlots(scenario, plots);
  page.pathX = plots.pathX;
  page.pathY = plots.pathY;
  page.timeSeries = plots.timeSeries;
  try {
    const ScenarioView view = parseScenarioView(scenario.view);
    if (!view.title.isEmpty()) page.title = view.title.toStdString();
    page.note = view.note.toStdString();
    page.arrowScales = view.arrowScales;
  } catch (const nh::Error&) {
    // A view the reader refuses adds no title, note or arrow scales.
  }
  return page;
}

bool interactivePageAvailable() { return QFile::exists(kThree) && QFile::exists(kOrbit); }

std::string exportedPage(AnimationExporter& exporter, const nh::Scenario& scenario, bool live) {
  PageSettings page = pageSettingsFor(scenario, exporter.settings());
  if (live) {
    if (const std::string refusal = livePageRefusal(scenario); !refusal.empty())
      throw nh::InputError(refusal);
    page.live = true;
    page.liveScenario = exporter.resolvedScenario();
    if (exporter.comparisonHistory()) page.liveComparison = exporter.settings().comparison;
  }
  const RunHistory& run = exporter.history();
  if (const PlannedMotion* planned = exporter.plannedMotion()) {
    const auto ghosts = planGhostScenes(*planned->run);
    page.ghosts.assign(ghosts.begin(), ghosts.end());
  }
  // The settings' comparison, or a plan's companion.
  if (!exporter.comparisonHistory()) return interactivePage(run, page);
  page.comparisonLegend = exporter.comparisonLegend();
  page.runLabels = exporter.runLabels();
  return interactivePage(
      run, page,
      [&exporter](double t, nh::SceneFrame& frame) { return exporter.comparisonSceneAt(t, frame); },
      exporter.comparisonHistory());
}

std::string interactivePage(const RunHistory& run, const PageSettings& settings,
                            const ComparisonScene& comparison, const RunHistory* comparisonRun) {
  if (!interactivePageAvailable()) throw nh::InputError(kPageUnavailable);
  Json data = pageData(run, settings, comparison, comparisonRun);
  std::map<std::string, std::string> parts = {
      {"TITLE", htmlEscaped(settings.title)},
      {"THEME", settings.display.dark ? "dark" : "light"},
      {"STYLE", resourceText(kStyle)},
      {"SCRIPT_SRC", "'unsafe-inline'"},
      {"THREE", resourceText(kThree)},
      {"ORBIT", resourceText(kOrbit)},
      {"SCRIPT", resourceText(kScript)},
      {"ENGINE", ""},
      {"WASM", ""},
      {"LIVE", ""},
      {"PAKO", ""},
  };
  if (settings.live) {
    // The engine's module is compiled from the page's own bytes: WebAssembly needs
    // 'wasm-unsafe-eval', and nothing else is loosened (no request of any kind).
    const WebEngineFiles engine = readWebEngine();
    if (!QFile::exists(kPako))
      throw nh::InputError(
          "a live page needs pako's inflate, which this build does not include; install "
          "node-pako (scripts/install-deps.sh) and rebuild, or write the page without --live");
    data["live"] = livePageData(settings.liveScenario, settings);
    parts["SCRIPT_SRC"] = "'unsafe-inline' 'wasm-unsafe-eval'";
    parts["ENGINE"] = engine.script;
    // Deflated (zlib; qCompress's stream after its 4-byte length), which the page inflates with
    // pako: a quarter of the module's size.
    QByteArray deflated = qCompress(QByteArray::fromStdString(engine.wasm), 9);
    deflated.remove(0, 4);
    parts["WASM"] = deflated.toBase64().toStdString();
    parts["LIVE"] = resourceText(kLiveScript);
    parts["PAKO"] = resourceText(kPako);
  }
  parts["DATA"] = scriptSafeJson(data);
  return filledTemplate(resourceText(kTemplate), parts);
}

std::filesystem::path checkPageTarget(const std::filesystem::path& output) {
  return nh::regularFileTarget(output, "a page");
}

std::uintmax_t writeInteractivePage(const std::filesystem::path& output, const std::string& html) {
  const std::filesystem::path target = checkPageTarget(output);
  nh::writeOutputFile(target.string(), html);
  return html.size();
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
