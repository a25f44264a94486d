// A run's rows in memory for the Python module (run_rows.h): the core's ScenarioRun stepped
// to t-end, a row at every dt-out and one at t-end, stoppable through a cancel flag.
#include "app/python/run_rows.h"

#include <cmath>

#include "core/model/catalogue.h"
#include "core/nh/errors.h"
#include "core/nh/jacobi_fields.h"
#include "core/nh/scenario_run.h"

namespace nh::python {

struct RowRun::State {
  State(const Scenario& s, const std::vector<std::string>& names)
      : scenario(s), run(findSystem(s.system), s) {
    if (!names.empty()) sensitivities = std::make_unique<RunSensitivities>(run, s, names);
  }
  const Scenario scenario;
  ScenarioRun run;
  std::unique_ptr<RunSensitivities> sensitivities;
  RunRows out;
};

RowRun::RowRun(const Scenario& scenario, const std::vector<std::string>& sensitivities)
    : state_(std::make_unique<State>(scenario, sensitivities)) {
  State& s = *state_;
  s.out.columns = s.run.columns();
  if (s.sensitivities)
    s.out.columns.insert(s.out.columns.end(), s.sensitivities->columns().begin(),
                         s.sensitivities->columns().end());
  s.out.notes = s.run.start().notes;
  // A row every dt-out from 0 and one at t-end: known before any step.
  const double rows = std::floor(scenario.tEnd / scenario.dtOut) + 2;
  const double bytes = rows * static_cast<double>(s.out.columns.size()) * sizeof(double);
  if (bytes > kMaxRunBytes)
    throw InputError("a run of " + formatValue(rows) + " rows × " +
                     std::to_string(s.out.columns.size()) + " columns would need " +
                     formatValue(std::round(bytes / 1e8) / 10) + " GB in memory, more than the " +
                     formatValue(kMaxRunBytes / 1e9) +
                     " GB a run may hold: a larger dt_out or a shorter t_end (nhsim run --out "
                     "FILE writes rows as they come)");
  s.out.values.reserve(static_cast<size_t>(rows) * s.out.columns.size());
}

RowRun::~RowRun() = default;

RunRows RowRun::integrate(const std::atomic<bool>& cancel) {
  State& s = *state_;
  s.run.setStopCheck([&cancel](double) {
    if (cancel) throw RunCancelled{};
  });
  s.run.advance(
      s.scenario.tEnd, s.scenario.dtOut,
      [&s](const ScenarioRun::Sample& sample) {
        s.out.values.insert(s.out.values.end(), sample.row.begin(), sample.row.end());
        if (s.sensitivities) {
          std::vector<double> fields;
          s.sensitivities->sample(s.run, sample.t, sample.x, fields);
          s.out.values.insert(s.out.values.end(), fields.begin(), fields.end());
        }
        ++s.out.rows;
      },
      true);
  s.out.warnings = s.run.tally().warnings();
  return std::move(s.out);
}

}  // namespace nh::python
// SPDX-License-Identifier: GPL-3.0-or-later
