// The web engine's entry points: the core's run loop (ScenarioRun) behind a C interface that
// the page's script calls in the WebAssembly module (and the web build's suite calls
// directly). A run is opened from a scenario's JSON, as nhsim reads it, advanced to a time,
// its output rows read as doubles, and edited at its current time as the app's sliders edit
// a running system. Nothing throws across it: a refusal or a stopped run returns its failure
// value and leaves one line in nhweb_error().
#pragma once

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#define NHWEB_EXPORT EMSCRIPTEN_KEEPALIVE
#else
#define NHWEB_EXPORT
#endif

extern "C" {

// A run of the scenario (JSON, as a scenario file holds it), checked as nhsim run checks it:
// its handle (> 0), or 0 when refused.
NHWEB_EXPORT int nhweb_open(const char* scenarioJson);
NHWEB_EXPORT void nhweb_close(int run);
// One line: why the last call failed ("" after a call that did not).
NHWEB_EXPORT const char* nhweb_error();

// The comparison run beside `primary` (core/nh/comparison.h): the same start under the other
// dynamics, with another value of one parameter (a ghost) or stepped by another integrator,
// as a lesson's "compare" part says (JSON: {"mode": "vakonomic" | "ghost" | "integrator",
// "parameter", "value", "integrator", "step"}), with the primary's edits so far and every
// edit after (nhweb_edit on the primary); advanced, read and drawn like any run. Its handle,
// or 0 when refused.
NHWEB_EXPORT int nhweb_open_comparison(int primary, const char* compareJson);

// The output columns (nhsim run's CSV header), by index.
NHWEB_EXPORT int nhweb_column_count(int run);
NHWEB_EXPORT const char* nhweb_column(int run, int index);

// Integrates to tEnd (capped at the scenario's t-end), a row every dt-out (the start first;
// every step of a fixed-step method whose step is longer, as the app and the video step it;
// a fixed-step method stops at the last row before tEnd, never inside one of its steps):
// the number of rows held, or -1 when the run stopped (blew up, a singular point, the step
// budget spent; the rows before it kept, nhweb_error says why). A stopped run stays stopped.
NHWEB_EXPORT int nhweb_advance(int run, double tEnd);
NHWEB_EXPORT int nhweb_row_count(int run);
// The rows held, row after row (nhweb_column_count doubles each); valid until the next call.
NHWEB_EXPORT const double* nhweb_rows(int run);
// Forgets the rows held, and their scene samples (after the page has read them).
NHWEB_EXPORT void nhweb_clear_rows(int run);

// From now on each row also gets the page's scene sample (core/nh/scene_samples.h) for the
// items the page draws, given as the page's data gives them (JSON: {"bodies": [{"kind",
// "name"}], "arrows": [{"kind", "name"}], "points": [{"name", "moving"}], "arrowPresets":
// [scale or 0 per arrow], "arrowScaleFixed": bool}); what the page does not draw is left out.
// 1, or 0 when refused.
NHWEB_EXPORT int nhweb_record_scene(int run, const char* itemsJson);
// The scene samples held (one per row, nhweb_scene_width floats each), and each arrow's
// reference magnitude per row (NaN where not drawn); valid until the next call.
NHWEB_EXPORT int nhweb_scene_width(int run);
NHWEB_EXPORT const float* nhweb_scene_samples(int run);
NHWEB_EXPORT const float* nhweb_arrow_scales(int run, int arrow);
NHWEB_EXPORT double nhweb_time(int run);  // the time integrated to

// Sets a parameter from the run's current time on, as a timed edit (scenario.h): the run goes
// on from its state there with the new value, the sample at that time delivered again; its
// comparison runs take it as the app's comparison does (a ghost keeps its own value). 1, or
// 0 when refused (unknown name, outside its bounds, the system not regular there).
NHWEB_EXPORT int nhweb_edit(int run, const char* name, double value);
// The run's scenario with the edits taken so far, as a scenario file holds it: what nhsim
// runs to the same numbers.
NHWEB_EXPORT const char* nhweb_scenario(int run);

// A typed-in model carried by the page as its archive (core/model/model_archive.h), made a
// system of this session under its name: 1, or 0 when the bytes are not an archive.
NHWEB_EXPORT int nhweb_add_model(const unsigned char* bytes, int size);

// The systems this engine runs (nhsim list's names of systems with dynamics), one a line.
NHWEB_EXPORT const char* nhweb_systems();
}
// SPDX-License-Identifier: GPL-3.0-or-later
