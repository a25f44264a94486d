// Scenario files: JSON holding exactly the settings of a run (nh::Scenario), with a format
// version. Shared by nhsim and nhlab; Qt-free (nlohmann-json).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "core/nh/scenario.h"

namespace nh {

// Version 2 added the optional "view" part; version 1 files are read as before. Files are
// written as version 2.
inline constexpr int kScenarioFormatVersion = 2;

// The "view" part (nh::Scenario::view, compact JSON; "" for none) as nhsim and nhlab accept
// it: known keys, its own version (1 … kScenarioViewVersion), flags true or false, speed in
// [0.01, 1000], step in [1e-4, 10] s, display.trail_seconds in [0.1, 1e6] s, plots.phase two
// names and plots.time_series up to 12, compare.mode off|vakonomic|ghost (a ghost with
// 'parameter' and 'value'), title at most kViewTitleMax and note at most kViewNoteMax
// characters (a title is one line of the lesson bar and the window title, a note a few lines;
// the bundled lessons use 53 and 224), study an object (the Study panel checks its contents),
// plan an object {t_end in [kViewPlanTimeMin, kViewPlanTimeMax] s, targets {name: number},
// starts 1 … kViewPlanStartsMax, played 1 … kViewPlanStartsMax} (the names are checked when
// the plan is solved), arrow_scales an object {arrow name: positive number} of at most
// kViewArrowScalesMax entries (the fixed arrow scales the view was saved with), theme "dark"
// or "light", camera {follow, table_frame: true or false; the pose: position and target, each
// three finite numbers (metres, apart), up three finite numbers not all zero, view_angle in
// [kViewAngleMin, kViewAngleMax] degrees; position and target come together}.
// Throws InputError "view: …" naming the key and what is allowed.
// parseScenarioJson applies it, so a file with view.speed -1 is refused when read.
inline constexpr int kScenarioViewVersion = 1;
inline constexpr double kViewSpeedMin = 0.01, kViewSpeedMax = 1000;
inline constexpr double kViewStepMin = 1e-4, kViewStepMax = 10;
inline constexpr double kViewTrailSecondsMin = 0.1, kViewTrailSecondsMax = 1e6;
inline constexpr long kViewTitleMax = 120, kViewNoteMax = 1000;  // characters
inline constexpr double kViewPlanTimeMin = 1e-3, kViewPlanTimeMax = 1e4;
inline constexpr int kViewPlanStartsMax = 64;
inline constexpr size_t kViewTimeSeriesMax = 12;  // variables plotted over time
inline constexpr int kViewArrowScalesMax = 64;
inline constexpr double kViewAngleMin = 1, kViewAngleMax = 150;  // the camera's, degrees
void checkScenarioView(const std::string& json);

// The view's parts that name the system's things or run beside the run, checked against
// `scenario` (its system, parameters, integrator, dt-out and t-end as the command runs them:
// an export's --t-end, say) before any work. One check for every command, so that what one
// refuses another does not write: a ghost's 'parameter' is one of the system's and its
// 'value' in that parameter's range; a comparison integrator is one the system's equations
// take (its row's refusal: the tape, discrete-gradient's conditions) with a step under the
// rules of the run's own step (at most dt-out, within the step budget over t-end; absent:
// dt-out, or the run's fixed step when smaller); 'plan.targets' name coordinates. Throws
// InputError "view: …".
void checkScenarioViewFor(const Scenario& scenario);

// The variables plotted over time (a view's plots.time_series, export's --plot): each once,
// in the order first named; more than kViewTimeSeriesMax different ones are refused with
// InputError "`where` names N different variables; at most 12 are plotted".
std::vector<std::string> distinctTimeSeries(const std::vector<std::string>& names,
                                            const std::string& where);

// The keys of the view's "display" part and what each holds: a flag (true or false), a
// number in [lo, hi], or one of two words (on, off). checkScenarioView reads this table, and
// so does nhlab, which maps each key to its Display dock's choice.
struct ViewDisplayKey {
  enum class Kind { Flag, Number, Choice };
  const char* key;
  Kind kind;
  double lo = 0, hi = 0;                     // Number
  const char *on = nullptr, *off = nullptr;  // Choice: the words for true and false
};
std::span<const ViewDisplayKey> viewDisplayKeys();
const ViewDisplayKey* findViewDisplayKey(const std::string& key);  // nullptr: not a key

// Throws InputError with a message naming `origin` (the file) and what is wrong with it.
Scenario parseScenarioJson(const std::string& json, const std::string& origin);
// Reads a regular file (a directory, FIFO or device is refused: reading one could block).
Scenario readScenarioFile(const std::string& path);

// Indented JSON, keys in a fixed order, numbers that read back to the same doubles. A
// system given as a model file's absolute path is written relative to the folder of
// `path` (the file the JSON goes to), when given.
std::string scenarioToJson(const Scenario& scenario, const std::string& path = "");

// Whether a scenario's `system` names a model file (a path) rather than a system name.
bool isSystemPath(const std::string& system);
// Writes through writeFileAtomically (core/io/atomic_file.h): a failure never leaves a
// truncated file. Throws Error. An export's sidecar gives `exportedAs`, the file name of
// the video or frames folder it documents, written as the key "exported_as" (ignored when
// the scenario is read).
void writeScenarioFile(const Scenario& scenario, const std::string& path,
                       const std::string& exportedAs = "");
// The "exported_as" of a scenario file, or "" if it has none or cannot be read.
std::string exportedAsOf(const std::string& path);

// The scenario with every parameter and every state variable spelled out (defaults and
// completed velocities included), so that the run is reproduced exactly.
Scenario resolvedScenario(const Scenario& scenario, const std::vector<double>& parameters,
                          const std::vector<double>& initialState);

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
