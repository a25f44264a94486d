// A run of one system: parameters, initial state, time span and integrator settings, all
// by name, as the CLI, the scenario files and the app state them. Also the named layout of
// state vectors and output rows.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/nh/simulation.h"

namespace nh {

// A change made while a run goes on, at its moment: new values of parameters from time t on
// (the run goes on from its state there, the velocities put onto the constraints as they read
// with the new values, the sample at t recorded again with them). What nhlab records of a
// slider moved during a run, and what a scenario file's "edits" list holds.
struct TimedEdit {
  double t = 0;
  std::map<std::string, double> parameters;  // new values by name
  std::string label;  // as the app's undo history names it ("" where a file gives none)
  bool operator==(const TimedEdit&) const = default;
};

struct Scenario {
  std::string system = "ball_on_turntable";
  std::map<std::string, double> parameters;  // overrides of the defaults, by name
  std::map<std::string, double> initial;     // overrides of the default state, by name
  double tEnd = 10;
  double dtOut = 0.01;
  IntegratorOptions integrator;
  DynamicsKind dynamics = DynamicsKind::Nonholonomic;
  Formulation formulation = Formulation::Multipliers;
  // The scenario file's optional "view" part (format version 2): how nhlab shows the run
  // (camera, speed, display toggles, plots, comparison, a lesson's note), as compact JSON
  // text; empty when absent. The core and nhsim do not draw and only carry it through.
  std::string view;
  // Parameter edits at their times, in time order (several at one time apply in turn).
  std::vector<TimedEdit> edits;

  // Times and tolerances; throws InputError (also for more than kMaxOutputRows rows, a
  // dt-out below 4·machine epsilon·t-end, an rk4 step larger than dt-out, or an rk4 run that
  // needs more than its step budget, or an edit at a time outside [0, t-end] or out of time
  // order). The one check of the CLI options and scenario files; the edits' names and values
  // are checked against the system by checkEdits.
  void validate() const;
};
inline constexpr double kMaxOutputRows = 1e8;

// Names of the state vector's entries in display order and their index in the state vector.
struct StateLayout {
  std::vector<std::string> names;
  std::vector<int> index;
  int find(const std::string& name) const;  // position in names, or -1
};
StateLayout stateLayout(const SystemModel& system, DynamicsKind dynamics);

// Defaults overridden by `overrides`; throws InputError for an unknown name or a value
// outside its range.
std::vector<double> resolveParameters(const SystemModel& system,
                                      const std::map<std::string, double>& overrides);

// `values` with the edit's parameters set; throws InputError "edit at t = …: …" for an unknown
// name, a value outside its range or a combination the system refuses.
std::vector<double> editedParameters(const SystemModel& system, std::vector<double> values,
                                     const TimedEdit& edit);
// Checks every edit of `scenario` against its system, applied in turn to its parameters.
void checkEdits(const SystemModel& system, const Scenario& scenario);

// The system's default state with `overrides` applied, quaternions normalised, q put on
// g = 0 and the velocities made consistent with the constraints. Velocities named in
// `overrides` are kept where the constraints allow it (see SystemInfo::initialization).
// Appends to *notes a line for every given coordinate the holonomic constraints moved, and one
// line naming every stated velocity the velocity constraints changed (given, independent, or
// a nonzero start value of the model; not a dependent one the model leaves at 0), with its
// value before and after. Allocates a workspace.
std::vector<double> initialState(const EquationsOfMotion& equations, double t0,
                                 const std::map<std::string, double>& overrides,
                                 std::vector<std::string>* notes = nullptr);

// Columns of an output row: t, the state by name, energy, energy_frame (when the system
// has a reference frame: frame_energy.h), phi_1..k, (g_1..h,) lambda_1..k, the system's
// extra outputs (SystemInfo::outputs), and with the hamiltonian formulation the momenta
// p_<velocity>.
std::vector<std::string> outputColumns(const EquationsOfMotion& equations);

// Fills one row (outputColumns().size() entries) at (t, x).
void outputRow(const EquationsOfMotion& equations, EquationsWorkspace& ws,
               const StateLayout& layout, double t, const double* x, Observables& scratch,
               std::vector<double>& row);

std::string formatValue(double v);  // shortest round-trip representation ("%.17g" trimmed)

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
