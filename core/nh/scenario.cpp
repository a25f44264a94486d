// Scenarios by name (scenario.h): values in shortest round-trip form, a scenario's own checks,
// the named layout of the state, the parameters and initial state resolved from names, and the
// output columns and row.
#include "core/nh/scenario.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "core/nh/errors.h"
#include "core/nh/frame_energy.h"
#include "core/nh/messages.h"
#include "core/nh/quaternion.h"

namespace nh {

std::string formatValue(double v) {
#if defined(__cpp_lib_to_chars)
  // to_chars/from_chars ignore the C locale (printf would write "0,5" under de_DE).
  char buf[64];
  std::to_chars_result r{};
  for (int precision = 15; precision <= 17; ++precision) {
    r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, precision);
    double back = 0;
    std::from_chars(buf, r.ptr, back);
    if (back == v || !std::isfinite(v)) break;
  }
  return std::string(buf, r.ptr);
#else
  // A standard library without floating-point to_chars (the web build's libc++): printf and
  // strtod, whose locale is always "C" there.
  char buf[64];
  int n = 0;
  for (int precision = 15; precision <= 17; ++precision) {
    n = std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v || !std::isfinite(v)) break;
  }
  return std::string(buf, static_cast<std::size_t>(n));
#endif
}

void Scenario::validate() const {
  checkSupported(dynamics, formulation);
  checkIntegratorApplies(integrator.method, dynamics, formulation);
  if (!std::isfinite(tEnd) || tEnd < 0)
    throw InputError("t-end must be a finite number ≥ 0, got " + formatValue(tEnd));
  if (!std::isfinite(dtOut) || dtOut <= 0)
    throw InputError("dt-out must be a finite number > 0, got " + formatValue(dtOut));
  // Sample times are 0 + i·dt-out: they must be distinct doubles up to t-end.
  constexpr double kEps = std::numeric_limits<double>::epsilon();
  if (dtOut < 4 * kEps * tEnd)
    throw InputError("dt-out " + formatValue(dtOut) + " is too small for t-end " +
                     formatValue(tEnd) + " (output times would not be distinct); give at least " +
                     formatValue(4 * kEps * tEnd) + " (4·machine epsilon·t-end)");
  if (tEnd / dtOut > kMaxOutputRows)
    throw InputError("t-end / dt-out asks for " + formatValue(std::floor(tEnd / dtOut) + 1) +
                     " output rows, more than " + formatValue(kMaxOutputRows) +
                     "; use a larger dt-out or a shorter t-end");
  integrator.validate();
  if (isFixedStep(integrator.method)) {
    const std::string method = toString(integrator.method);
    // A fixed-step method lands on every output time: a step longer than dt-out would be cut to
    // dt-out (below the smallest step, 1e-12, a dt-out can only be stepped so).
    if (integrator.step > dtOut && dtOut >= 1e-12)
      throw InputError(method + " step " + formatValue(integrator.step) +
                       " is larger than dt-out " + formatValue(dtOut) + ": " + method +
                       " stops at every output time, so it would step dt-out instead; give "
                       "a step ≤ dt-out or a larger dt-out");
    if (integrator.step < 4 * kEps * tEnd)
      throw InputError(method + " step " + formatValue(integrator.step) +
                       " is too small for t-end " + formatValue(tEnd) + "; give at least " +
                       formatValue(4 * kEps * tEnd));
    // It takes t-end/step steps, and at most one more per output interval (a step clamped
    // to an output time): refused up front when that exceeds the step budget.
    const double steps = std::ceil(tEnd / integrator.step) + std::floor(tEnd / dtOut) + 1;
    if (steps > static_cast<double>(integrator.maxSteps))
      throw InputError(method + " with step " + formatValue(integrator.step) + " needs up to " +
                       formatValue(steps) + " steps to reach t-end " + formatValue(tEnd) +
                       ", more than the step budget of " + std::to_string(integrator.maxSteps) +
                       "; use a larger --step, a shorter t-end or raise --max-steps");
  }
  double previous = 0;
  for (const TimedEdit& edit : edits) {
    if (!std::isfinite(edit.t) || edit.t < 0 || edit.t > tEnd)
      throw InputError("edit at t = " + formatValue(edit.t) + " is outside the run (0 … " +
                       formatValue(tEnd) + "): give a time within it");
    if (edit.t < previous)
      throw InputError("edit at t = " + formatValue(edit.t) + " comes after one at t = " +
                       formatValue(previous) + ": list the edits in time order");
    previous = edit.t;
  }
}

int StateLayout::find(const std::string& name) const {
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<int>(i);
  return -1;
}

StateLayout stateLayout(const SystemModel& system, DynamicsKind dynamics) {
  StateLayout layout;
  const SystemInfo& info = system.info();
  for (const std::string& name : info.stateOrder) {
    int idx = -1;
    for (int i = 0; i < system.n(); ++i)
      if (info.coordinates[i] == name) idx = i;
    for (int a = 0; a < system.m(); ++a)
      if (info.velocities[a] == name) idx = system.n() + a;
    layout.names.push_back(name);
    layout.index.push_back(idx);
  }
  if (dynamics == DynamicsKind::Vakonomic) {
    const int kt = system.constraintsTotal();
    for (int c = 0; c < kt; ++c) {
      layout.names.push_back(kt == 1 ? "mu" : "mu_" + std::to_string(c + 1));
      layout.index.push_back(system.n() + system.m() + c);
    }
  }
  return layout;
}

std::vector<double> resolveParameters(const SystemModel& system,
                                      const std::map<std::string, double>& overrides) {
  std::vector<double> values = system.defaultParameters();
  const auto& params = system.info().parameters;
  for (const auto& [name, value] : overrides) {
    const int i = system.parameterIndex(name);
    if (i < 0) {
      std::vector<std::string> known;
      for (const auto& p : params) known.push_back(p.name);
      throw InputError("unknown parameter '" + name + "' for system '" + echoInput(system.name()) +
                       "' (parameters: " + (known.empty() ? "none" : joined(known)) + ")");
    }
    if (!params[i].allows(value))
      throw InputError("parameter '" + name + "' must be in " + params[i].rangeText() + ", got " +
                       formatValue(value));
    values[i] = value;
  }
  if (const std::string why = system.checkParameters(values.data()); !why.empty())
    throw InputError("parameters of '" + echoInput(system.name()) + "' not allowed: " + why);
  return values;
}

std::vector<double> editedParameters(const SystemModel& system, std::vector<double> values,
                                     const TimedEdit& edit) {
  const auto& params = system.info().parameters;
  const std::string at = "edit at t = " + formatValue(edit.t) + ": ";
  for (const auto& [name, value] : edit.parameters) {
    const int i = system.parameterIndex(name);
    if (i < 0) {
      std::vector<std::string> known;
      for (const auto& p : params) known.push_back(p.name);
      throw InputError(at + "unknown parameter '" + echoInput(name) + "' for system '" +
                       echoInput(system.name()) +
                       "' (parameters: " + (known.empty() ? "none" : joined(known)) + ")");
    }
    if (!params[i].allows(value))
      throw InputError(at + "parameter '" + name + "' must be in " + params[i].rangeText() +
                       ", got " + formatValue(value));
    values[i] = value;
  }
  if (const std::string why = system.checkParameters(values.data()); !why.empty())
    throw InputError(at + "parameters of '" + echoInput(system.name()) + "' not allowed: " + why);
  return values;
}

void checkEdits(const SystemModel& system, const Scenario& scenario) {
  std::vector<double> values = resolveParameters(system, scenario.parameters);
  for (const TimedEdit& edit : scenario.edits) values = editedParameters(system, values, edit);
}

std::vector<double> initialState(const EquationsOfMotion& equations, double t0,
                                 const std::map<std::string, double>& overrides,
                                 std::vector<std::string>* notes) {
  const SystemModel& system = equations.system();
  const SystemInfo& info = system.info();
  const int n = system.n(), m = system.m();
  const StateLayout layout = stateLayout(system, equations.dynamics());
  EquationsWorkspace ws(equations);
  std::vector<double> x(equations.stateSize(), 0.0);
  for (int i = 0; i < n; ++i) x[i] = info.defaultCoordinates[i];
  for (int a = 0; a < m; ++a) x[n + a] = info.defaultVelocities[a];

  std::vector<bool> given(m, false);
  for (const auto& [name, value] : overrides) {
    const int pos = layout.find(name);
    if (pos < 0)
      throw InputError("unknown state variable '" + name + "' for system '" +
                       echoInput(system.name()) + "' (state: " + joined(layout.names) + ")");
    if (!std::isfinite(value))
      throw InputError("initial value of '" + name + "' must be finite, got " + formatValue(value));
    for (const ParameterInfo& limit : info.stateLimits)
      if (limit.name == name && !limit.allows(value))
        throw InputError("initial value of '" + name + "' must be in " + limit.rangeText() +
                         ", got " + formatValue(value));
    const int idx = layout.index[pos];
    x[idx] = value;
    if (idx >= n && idx < n + m) given[idx - n] = true;
  }
  for (const QuaternionSlot& qs : info.quaternions) {
    double* qq = x.data() + qs.first;
    const double largest =
        std::max({std::abs(qq[0]), std::abs(qq[1]), std::abs(qq[2]), std::abs(qq[3])});
    if (!(largest > 0))
      throw InputError("the attitude quaternion (" + info.coordinates[qs.first] + ", …) of '" +
                       echoInput(system.name()) + "' must not be zero");
  }
  const std::vector<double> before = x;
  // Holonomic constraints and quaternion norms first (keeps y); then the velocities.
  for (const QuaternionSlot& qs : info.quaternions) normaliseQuaternion(x.data() + qs.first);
  if (system.h() > 0) {
    std::vector<double> projected = x;
    // Dependent coordinates (the bicycle's pitch) follow from the others: where the given
    // values do not satisfy g = 0, Newton starts from the defaults (the branch through them).
    const std::vector<int>& dependent = system.dependentIndices();
    std::vector<double> g(system.h());
    auto largestResidual = [&](const std::vector<double>& at) {
      system.holonomic(equations.parameters().data(), t0, at.data(), g.data());
      double largest = 0;
      for (double r : g) largest = std::max(largest, std::isfinite(r) ? std::abs(r) : HUGE_VAL);
      return largest;
    };
    if (!dependent.empty() && largestResidual(x) > 1e-12)
      for (int i : dependent) projected[i] = info.defaultCoordinates[i];
    equations.project(ws, t0, projected.data());
    for (int i = 0; i < n; ++i) {
      if (notes && std::abs(projected[i] - x[i]) > 1e-12 * std::max(1.0, std::abs(x[i])) &&
          overrides.count(info.coordinates[i]))
        notes->push_back("initial " + info.coordinates[i] + " = " + formatValue(x[i]) +
                         " violates the holonomic constraints; changed to " +
                         formatValue(projected[i]));
      x[i] = projected[i];
    }
    if (!dependent.empty() && !(largestResidual(x) < 1e-9))
      throw InputError("the holonomic constraints of '" + echoInput(system.name()) +
                       "' cannot be met for these coordinates (residual " +
                       formatValue(largestResidual(x)) + ")");
  }

  // Keep what the user gave plus the system's independent velocities; if that leaves too
  // little freedom, keep only what the user gave; failing that, change everything.
  std::vector<bool> keep = given;
  for (const std::string& name : info.independentVelocities)
    for (int a = 0; a < m; ++a)
      if (info.velocities[a] == name) keep[a] = true;
  bool ok = equations.completeVelocities(ws, t0, x.data(), keep);
  if (!ok) ok = equations.completeVelocities(ws, t0, x.data(), given);
  if (!ok) ok = equations.completeVelocities(ws, t0, x.data(), std::vector<bool>(m, false));
  if (!ok)
    throw InputError("the initial velocities of '" + echoInput(system.name()) +
                     "' cannot be made consistent with its constraints");
  if (notes) {
    // One line naming every stated velocity the completion moved: given ones, the model's
    // independent ones and its nonzero start values (a start is never changed in silence). A
    // dependent velocity the model leaves at 0 is derived from the others by design (the
    // rolling ball's wx from its vy): its value is not news.
    std::string changed;
    for (int a = 0; a < m; ++a) {
      const double v0 = before[n + a], v1 = x[n + a];
      if (std::abs(v1 - v0) <= 1e-12 * std::max(1.0, std::abs(v0))) continue;
      const bool independent =
          std::find(info.independentVelocities.begin(), info.independentVelocities.end(),
                    info.velocities[a]) != info.independentVelocities.end();
      if (!given[a] && !independent && v0 == 0) continue;
      changed += (changed.empty() ? "" : ", ") + info.velocities[a] + " " + formatValue(v0) +
                 " → " + formatValue(v1) + (given[a] ? " (given)" : "");
    }
    if (!changed.empty())
      notes->push_back("the start velocities violate the constraints; changed to meet them: " +
                       changed);
  }
  return x;
}

std::vector<std::string> outputColumns(const EquationsOfMotion& equations) {
  const SystemModel& system = equations.system();
  std::vector<std::string> cols = {"t"};
  for (const std::string& name : stateLayout(system, equations.dynamics()).names)
    cols.push_back(name);
  cols.push_back("energy");
  if (system.hasReferenceFrame()) cols.push_back("energy_frame");
  for (int c = 0; c < system.k(); ++c) cols.push_back("phi_" + std::to_string(c + 1));
  for (int c = 0; c < system.h(); ++c) cols.push_back("g_" + std::to_string(c + 1));
  for (int c = 0; c < system.constraintsTotal(); ++c)
    cols.push_back("lambda_" + std::to_string(c + 1));
  for (const std::string& name : system.info().outputs) cols.push_back(name);
  // The dual side's state: the momenta it steps, beside the velocities computed from them.
  if (equations.integratesMomenta())
    for (const std::string& v : system.info().velocities) cols.push_back("p_" + v);
  return cols;
}

void outputRow(const EquationsOfMotion& equations, EquationsWorkspace& ws,
               const StateLayout& layout, double t, const double* x, Observables& obs,
               std::vector<double>& row) {
  const SystemModel& system = equations.system();
  equations.observe(ws, t, x, obs);
  row.clear();
  row.push_back(t);
  for (int idx : layout.index) row.push_back(x[idx]);
  row.push_back(obs.energy);
  if (system.hasReferenceFrame()) row.push_back(frameEnergy(equations, t, x, obs));
  for (int c = 0; c < system.k(); ++c) row.push_back(obs.phi[c]);
  for (int c = 0; c < system.h(); ++c) row.push_back(obs.g[c]);
  for (int c = 0; c < system.constraintsTotal(); ++c) row.push_back(obs.lambda[c]);
  if (const size_t extra = system.info().outputs.size(); extra > 0) {
    const size_t at = row.size();
    row.resize(at + extra);
    system.outputs(equations.parameters().data(), t, x, x + system.n(), row.data() + at);
  }
  if (equations.integratesMomenta())
    for (int a = 0; a < system.m(); ++a) row.push_back(obs.momentum[a]);
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
