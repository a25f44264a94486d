// The record of one sample of a run (run_record.h): its layout from the equations (output
// columns, momenta, residual, energy error, the scene's points) and a record filled from the
// state or from an output row.
#include "core/nh/run_record.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace nh {

RecordLayout makeRecordLayout(const EquationsOfMotion& equations) {
  const SystemModel& system = equations.system();
  RecordLayout layout;
  layout.columns = outputColumns(equations);  // with p_<velocity> last when hamiltonian
  layout.outputColumnCount = static_cast<int>(layout.columns.size());
  if (!equations.integratesMomenta())
    for (const std::string& v : system.info().velocities) layout.columns.push_back("p_" + v);
  layout.firstMomentum = static_cast<int>(layout.columns.size()) - system.m();
  layout.state = stateLayout(system, equations.dynamics());
  layout.stateSize = equations.stateSize();
  layout.firstState = 1;
  layout.lambdaCount = system.constraintsTotal();
  // (the columns after the multipliers, the hamiltonian formulation's momenta, come later)
  const auto lambda1 = std::find(layout.columns.begin(), layout.columns.end(), "lambda_1");
  layout.firstLambda = static_cast<int>(lambda1 - layout.columns.begin());
  layout.residualColumn = static_cast<int>(layout.columns.size());
  layout.columns.push_back("residual");
  layout.energyColumn = 1 + static_cast<int>(layout.state.names.size());
  assert(layout.columns[layout.energyColumn] == "energy");
  layout.energyErrorColumn = static_cast<int>(layout.columns.size());
  layout.columns.push_back("energy_error");

  // The scene's named points, from the default state (their number does not change).
  const auto& info = system.info();
  std::vector<double> q(info.defaultCoordinates), y(info.defaultVelocities);
  std::vector<double> lambda(std::max(1, system.constraintsTotal()), 0.0);
  SceneFrame frame;
  system.scene(system.defaultParameters().data(), 0.0, q.data(), y.data(), lambda.data(), frame);
  for (const ScenePoint& p : frame.points) {
    RecordLayout::Point point{p.name, p.inMovingFrame, static_cast<int>(layout.columns.size())};
    layout.points.push_back(point);
    for (const char* axis : {".x", ".y", ".z"}) layout.columns.push_back(p.name + axis);
  }
  return layout;
}

void recordFromRow(const EquationsOfMotion& equations, const RecordLayout& layout, double t,
                   const double* x, const Observables& obs, const std::vector<double>& row,
                   SceneFrame& scene, double* out) {
  const SystemModel& system = equations.system();
  // The row up to the momenta (which it holds only when hamiltonian), then the momenta.
  std::copy(row.begin(), row.begin() + std::min<std::ptrdiff_t>(row.size(), layout.firstMomentum),
            out);
  for (int a = 0; a < system.m(); ++a) out[layout.firstMomentum + a] = obs.momentum[a];
  double residual = 0;
  for (int c = 0; c < obs.phi.size(); ++c) residual = std::max(residual, std::abs(obs.phi[c]));
  for (int c = 0; c < obs.g.size(); ++c) residual = std::max(residual, std::abs(obs.g[c]));
  out[layout.residualColumn] = residual;
  out[layout.energyErrorColumn] = 0;  // the history keeping the records fills it in (it knows E₀)
  if (layout.points.empty()) return;
  const int n = system.n();
  system.scene(equations.parameters().data(), t, x, x + n, obs.lambda.data(), scene);
  for (const auto& p : layout.points) {
    Eigen::Vector3d v = Eigen::Vector3d::Constant(std::nan(""));
    for (const auto& sp : scene.points)
      if (sp.name == p.name) v = sp.position;
    out[p.column] = v.x();
    out[p.column + 1] = v.y();
    out[p.column + 2] = v.z();
  }
}

void fillRecord(const EquationsOfMotion& equations, EquationsWorkspace& ws,
                const RecordLayout& layout, double t, const double* x, Observables& obs,
                std::vector<double>& row, SceneFrame& scene, double* out) {
  outputRow(equations, ws, layout.state, t, x, obs, row);
  recordFromRow(equations, layout, t, x, obs, row, scene, out);
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
