// The interactive page: one self-contained HTML file that plays a recorded run in any browser
// without a server or a network — the 3D scene as the app draws it (bodies, trails, arrows
// with their legend, the moving table) under an orbit camera, play/pause, speed, a time
// slider, the view's plots, light or dark theme, and a lesson's title and note.
//
// The page is built from core data only (the run's samples and the SceneFrame of each embedded
// sample), so it needs no VTK and no display. three.js (Debian's libjs-three) and the page's
// own script, style and template are bundled into the resource at build time
// (resources/html/) and inlined into every page. The samples are decimated to at most
// kMaxPageSamples and stored as 32-bit floats (base64), a few hundred kB for a 20 s run.
//
// The page opened with the URL fragment #selftest renders, reads its canvas, presses play,
// moves the slider and writes its verdict into the element #selftest (the headless browser
// test reads it); a Content-Security-Policy of default-src 'none' keeps it off the network.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/nh/comparison.h"
#include "core/nh/scenario.h"
#include "core/nh/system.h"
#include "ui/session/display_choices.h"

namespace nhui {

class AnimationExporter;
class RunHistory;
struct ExportSettings;

// Samples embedded at most: longer spans are decimated further.
inline constexpr int kMaxPageSamples = 3000;

struct PageSettings {
  std::string title;  // the lesson's title, else the system's name
  std::string note;   // the lesson's "what to watch" note ("" for none)
  double tStart = 0;  // simulated seconds the page spans
  double tEnd = 10;
  double sampleStep = 1.0 / 30;  // simulated seconds between embedded samples (at least)
  double speed = 1;              // the playback speed the page starts with
  // Trails, which arrows are drawn and the theme the page starts in (the page draws no grid
  // or axes of its own choosing).
  DisplayChoices display;
  std::string pathX, pathY;             // the path plot ("" for none)
  std::vector<std::string> timeSeries;  // variables plotted against t
  // With display.arrowScaleFixed: the magnitude an arrow (by name) draws with the reference
  // length, as a scenario's "arrow_scales" or the view's fixed scales give it; the other arrows
  // take their scale as the view does (ArrowScale).
  std::map<std::string, double> arrowScales;
  bool follow = false;  // the camera follows the bodies (also when they travel far)
  // The line that tells a comparison's two runs apart (AnimationExporter::comparisonLegend()),
  // and each run's name in the plots' legends ([0] primary, [1] comparison; runLabels()).
  std::string comparisonLegend;
  std::array<std::string, 2> runLabels;
  // A planned motion's start and target (planGhostScenes): their bodies are drawn where they
  // are, translucent in their own colours, as the app's view draws them; empty for a run.
  std::vector<nh::SceneFrame> ghosts;
  // A live page (docs/interactive-page.md): the page also carries the web engine and this
  // scenario (the run's, resolved, with its timed edits), and runs it in the browser: every
  // parameter and initial value a slider and a field, the integrator, edits while it plays,
  // undo, the setup in the link. The recorded samples stay, shown until the engine starts.
  bool live = false;
  nh::Scenario liveScenario;
  // The comparison the engine runs beside it (None: the recorded one is dropped at the first
  // change); its scene is drawn with the recorded comparison's bodies and trails.
  nh::Comparison liveComparison;
};

// A comparison run's scene at time t: false where it is not drawn (it failed or left).
using ComparisonScene = std::function<bool(double t, nh::SceneFrame& frame)>;

// The page's settings for an export: span, speed, trails, arrows, plots and sample step from
// `settings` (its fps: one sample per video frame), title and note from the scenario's view
// (a lesson's), else the system's name; a lesson's fixed arrow scales. Plots are those of
// `settings` when its `plots` is on, else the scenario's (applyScenarioPlots: the page always
// has room for them); unknown variables are left out.
PageSettings pageSettingsFor(const nh::Scenario& scenario, const ExportSettings& settings);

// Whether three.js was bundled at build time (libjs-three found); without it no page can be
// written and the exports say so.
bool interactivePageAvailable();
// What to install when interactivePageAvailable() is false.
inline constexpr const char* kPageUnavailable =
    "the interactive page needs three.js, which this build does not include; install "
    "libjs-three (scripts/install-deps.sh) and rebuild";

// The HTML of the page for the samples of `run` in [tStart, tEnd], with the bodies and trails of
// a comparison run (drawn translucent orange, as the view draws it) when `comparison` is given,
// and its curve in every plot when `comparisonRun` holds its samples. Each arrow is drawn on
// its own scale, stepped sample by sample as the view steps it (ArrowScale). Throws
// nh::InputError when the run holds no sample there or the page is unavailable.
std::string interactivePage(const RunHistory& run, const PageSettings& settings,
                            const ComparisonScene& comparison = {},
                            const RunHistory* comparisonRun = nullptr);

// The page of an export as `nhsim export --html` writes it: the exporter's run and comparison
// (scene, curves, legends) with pageSettingsFor(scenario, exporter.settings()). Simulates on
// first use.
std::string exportedPage(AnimationExporter& exporter, const nh::Scenario& scenario,
                         bool live = false);

// Why `scenario` cannot run live in a page ("" when it can): a planned motion, a control
// model, an integrator the page's engine leaves out (SUNDIALS); one line saying what works.
std::string livePageRefusal(const nh::Scenario& scenario);

// The file an HTML page is written to, checked as the video encoder checks a video's target:
// nh::VideoError (Unwritable) for a missing folder, a directory, a device, FIFO or socket. A
// symbolic link is written through. Call before simulating, so that a bad target fails at once.
std::filesystem::path checkPageTarget(const std::filesystem::path& output);
// Writes `html` to `output` atomically (nh::AtomicOutput: complete or absent); returns the bytes.
std::uintmax_t writeInteractivePage(const std::filesystem::path& output, const std::string& html);

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
