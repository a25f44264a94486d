// The rows of a run held in memory for the Python module: `nhsim run` without the CSV. The
// same run loop (the core's ScenarioRun) gives the same numbers, bit for bit.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "core/nh/scenario.h"

namespace nh::python {

struct RunRows {
  std::vector<std::string> columns;  // outputColumns: t, the state, energy, …
  std::vector<double> values;        // row after row, columns.size() values each
  long rows = 0;
  std::vector<std::string> notes;     // velocities the completion of the start changed
  std::vector<std::string> warnings;  // energy drift, constraints losing rank
};

// The rows one run may hold in memory (rows × columns × 8 bytes; the array handed to Python
// is made from them, so a run peaks at twice this). `nhsim run --out FILE` writes rows as they
// come and has no such ceiling.
inline constexpr double kMaxRunBytes = 2e9;

// A run of `scenario` (validated as parseCommandLine does), set up and checked: construction
// compiles the equations and checks the start (InputError, as `nhsim run` does, exit 2) and
// refuses a run whose rows would pass kMaxRunBytes (InputError with the size it would need).
// Thrown out of RowRun::integrate when its cancel flag is seen.
struct RunCancelled {};

class RowRun {
 public:
  // `sensitivities`: the initial values of `--sensitivity`, their columns after the run's.
  explicit RowRun(const Scenario& scenario, const std::vector<std::string>& sensitivities = {});
  ~RowRun();
  // Integrates to the scenario's t-end, a row every dt-out (and a last row at t-end off the
  // grid). Throws IntegrationError or SingularSystemError with nhsim's message; no rows then.
  // Touches nothing but this object: it may run on any thread. Throws RunCancelled soon after
  // *cancel becomes true.
  RunRows integrate(const std::atomic<bool>& cancel);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace nh::python
// SPDX-License-Identifier: GPL-3.0-or-later
