// A second run beside a scenario's, for comparison: the same start under the other dynamics
// (nonholonomic ↔ vakonomic), with another value of one parameter (a ghost), or stepped by
// another integrator. One set-up for the app's view, the video export and the page; one record
// (Comparison) that the view, a scenario file's view part and the export settings all hold.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/nh/simulation.h"

namespace nh {

enum class CompareMode { None, Vakonomic, Ghost, Integrator };

struct Comparison {
  CompareMode mode = CompareMode::None;
  std::string ghostParameter;  // Ghost: the parameter given another value
  double ghostValue = 0;
  Integrator method = Integrator::NhRattle;  // Integrator: the other integrator
  double step = 0.01;                        // and its fixed step
  bool operator==(const Comparison&) const = default;
};

// Everything one run is made from: the equations' system, dynamics and formulation, the
// integrator, the parameter values and the start (its size may differ from the equations'
// state: RunSetup::startFor pads or cuts it).
struct RunSetup {
  std::shared_ptr<const SystemModel> system;
  DynamicsKind dynamics = DynamicsKind::Nonholonomic;
  Formulation formulation = Formulation::Multipliers;
  IntegratorOptions options;
  std::vector<double> parameters;
  std::vector<double> x0;
};

// The comparison's dynamics: the other of nonholonomic and vakonomic for CompareMode::
// Vakonomic, else the primary's.
DynamicsKind comparisonDynamics(DynamicsKind primary, CompareMode mode);

// The comparison's parameter values: the primary's, the ghost's parameter replaced. Throws
// InputError for a ghost parameter the system does not have or a value outside its range.
std::vector<double> comparisonParameters(const SystemModel& system,
                                         const std::vector<double>& primary,
                                         const Comparison& comparison);

// The equations of `setup`, made the way every run after a restart gets them (nhlab's worker,
// a scenario's timed edits): the last ones (`last`) of the same system, dynamics and
// formulation are reused, the parameters whose values differ from theirs made inputs of the
// tape (one tape at their first edit; a slider dragged again costs no new tape); anything else
// is taped anew. `last` becomes the result.
std::shared_ptr<const EquationsOfMotion> equationsFor(
    const RunSetup& setup, std::shared_ptr<const EquationsOfMotion>& last);

// The comparison run of `primary`: the same start (q and y; a vakonomic run's multipliers μ
// start at 0), its formulation the primary's where the dynamics allow it (formulationFor).
RunSetup comparisonSetup(const RunSetup& primary, const Comparison& comparison);

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
