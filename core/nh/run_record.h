// The record of one sample of a run, as every front end keeps it: the output row `nhsim run`
// writes (t, the state by name, energy, residuals, multipliers, outputs), the momenta ∂L/∂y
// under every formulation, the largest constraint residual, the energy error and the scene's
// named points (x, y, z each). The app's histories, the video export, the interactive page and
// the plan player read samples in this one layout.
#pragma once

#include <string>
#include <vector>

#include "core/nh/scenario.h"

namespace nh {

// What one record holds, in order.
struct RecordLayout {
  std::vector<std::string> columns;  // "t", state names, "energy", "phi_1", …, "residual",
                                     // "energy_error", "<point>.x", …
  StateLayout state;                 // state names and their index in the state vector
  int stateSize = 0;                 // equations().stateSize()
  int firstState = 1;                // column of the first state entry
  int firstLambda = 0;               // column of lambda_1 (k + h of them)
  int lambdaCount = 0;
  // Column of p_<first velocity>: the momenta ∂L/∂y (m of them), recorded under every
  // formulation so that switching to or from the hamiltonian one keeps the layout.
  int firstMomentum = 0;
  // How many leading columns are those `nhsim run` writes for the formulation the layout was
  // made with (outputColumns: the momenta only when hamiltonian): a history's CSV.
  int outputColumnCount = 0;
  int residualColumn = 0;
  int energyColumn = 0;  // −1: no energy (a planned motion)
  // (E − E₀)/|E₀|, or E − E₀ where E₀ = 0; E₀ is the energy of the first sample recorded with
  // the parameters in force (the history that keeps the records fills it in), so it restarts
  // at each parameter edit.
  int energyErrorColumn = 0;
  struct Point {
    std::string name;
    bool inMovingFrame = false;
    int column = 0;  // x; y and z follow
  };
  std::vector<Point> points;
  int stride() const { return static_cast<int>(columns.size()); }
};

// Columns for runs of these equations (scene points found from the default state).
RecordLayout makeRecordLayout(const EquationsOfMotion& equations);

// Fills one record (layout.stride() values) from the output row `row` and the observables
// `obs` that outputRow gave at (t, x). Not allocation-free: the system's scene() (for the
// points) builds its frame, names included, at every call.
void recordFromRow(const EquationsOfMotion& equations, const RecordLayout& layout, double t,
                   const double* x, const Observables& obs, const std::vector<double>& row,
                   SceneFrame& scene, double* out);

// outputRow at (t, x) with the caller's workspace, then recordFromRow.
void fillRecord(const EquationsOfMotion& equations, EquationsWorkspace& ws,
                const RecordLayout& layout, double t, const double* x, Observables& obs,
                std::vector<double>& row, SceneFrame& scene, double* out);

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
