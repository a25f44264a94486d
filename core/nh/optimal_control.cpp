// Optimal control and vakonomic boundary-value problems (optimal_control.h): the problem
// checked (parameters, start, targets), the starts tried and how they are continued towards
// far targets, the extremals kept within the memory ceiling, and a scenario's start. The
// boundary-value solver itself (multiple shooting, Newton) is in shooting.cpp.
#include "core/nh/optimal_control.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

#include "core/nh/errors.h"
#include "core/nh/messages.h"
#include "core/nh/pontryagin.h"
#include "core/nh/scenario.h"
#include "core/nh/shooting.h"

namespace nh {

namespace {

using shooting::attitudeAt;
using shooting::newton;
using shooting::NewtonOutcome;
using shooting::partWay;
using shooting::Scales;
using shooting::Shooting;
using shooting::Target;

// The parameter values (empty: the defaults), checked as scenarios check theirs.
std::vector<double> checkedParameters(const SystemModel& sys, const std::vector<double>& p) {
  const auto& infos = sys.info().parameters;
  if (!p.empty() && p.size() != infos.size())
    throw InputError(std::to_string(p.size()) + " parameter values for '" + sys.name() +
                     "', which has " + std::to_string(infos.size()));
  std::map<std::string, double> byName;
  for (size_t i = 0; i < p.size(); ++i) byName[infos[i].name] = p[i];
  return resolveParameters(sys, byName);
}

// The quaternion slot whose components include coordinate i (-1: none).
int quaternionOf(const SystemModel& sys, int i) {
  for (const QuaternionSlot& s : sys.info().quaternions)
    if (i >= s.first && i < s.first + 4) return s.first;
  return -1;
}

Eigen::VectorXd checkedStart(const SystemModel& sys, const std::vector<double>& given) {
  const std::vector<double>& q = given.empty() ? sys.info().defaultCoordinates : given;
  if (static_cast<int>(q.size()) != sys.n())
    throw InputError(std::to_string(q.size()) + " start coordinates for '" + sys.name() +
                     "', which has " + std::to_string(sys.n()));
  Eigen::VectorXd q0 = Eigen::Map<const Eigen::VectorXd>(q.data(), sys.n());
  if (!q0.allFinite()) throw InputError("the start has a value that is not a finite number");
  for (const QuaternionSlot& s : sys.info().quaternions) {
    const double norm = q0.segment<4>(s.first).norm();
    if (std::abs(norm - 1) > 1e-6)
      throw InputError("the start's quaternion " + sys.info().coordinates[s.first] +
                       "… has |q| = " + formatValue(norm) + " (a unit quaternion is needed)");
    q0.segment<4>(s.first) /= norm;
  }
  return q0;
}

std::string movesWhat(const PontryaginSystem& P) {
  return P.vakonomic() ? "its velocities cannot move it (its rate reads no velocity)"
                       : "the controls cannot move it (its rate reads no control and no "
                         "coordinate they move)";
}

// The targets by coordinate; a quaternion needs all four components, of unit length.
std::vector<Target> checkedTargets(const PontryaginSystem& P,
                                   const std::map<std::string, double>& given) {
  const SystemModel& sys = P.system();
  const auto& names = sys.info().coordinates;
  std::vector<Target> out;
  std::vector<bool> done(sys.n(), false);
  for (const auto& [name, value] : given) {
    const int i = sys.coordinateIndex(name);
    if (i < 0)
      throw InputError("cannot target '" + echoInput(name) + "': not a coordinate of '" +
                       sys.name() + "' (coordinates: " + joined(names) + ")");
    if (!std::isfinite(value)) throw InputError("the target of '" + name + "' is not finite");
    if (done[i]) continue;
    const int first = quaternionOf(sys, i);
    Target t;
    if (first < 0) {
      t.index = i, t.value = value;
      if (!P.movable()[i]) throw InputError("cannot target '" + name + "': " + movesWhat(P));
    } else {
      double c[4];
      for (int k = 0; k < 4; ++k) {
        const auto it = given.find(names[first + k]);
        if (it == given.end())
          throw InputError("a quaternion is targeted by its four components (" +
                           joined({names.begin() + first, names.begin() + first + 4}) + "); '" +
                           names[first + k] + "' is missing");
        c[k] = it->second;
      }
      t.quaternion = true, t.index = first;
      t.attitude = Eigen::Quaterniond(c[0], c[1], c[2], c[3]);
      const double norm = t.attitude.norm();
      if (std::abs(norm - 1) > 1e-6)
        throw InputError("the target quaternion (" +
                         joined({names.begin() + first, names.begin() + first + 4}) +
                         ") has |q| = " + formatValue(norm) + " (a unit quaternion is needed)");
      t.attitude.normalize();
      bool movable = false;
      for (int k = 0; k < 4; ++k) movable = movable || P.movable()[first + k];
      if (!movable)
        throw InputError("cannot target the attitude '" + names[first] + "…': " + movesWhat(P));
      for (int k = 0; k < 4; ++k) done[first + k] = true;
    }
    done[i] = true;
    out.push_back(t);
  }
  return out;
}

}  // namespace

}  // namespace nh

namespace nh {

namespace {

std::vector<std::string> resultColumns(const SystemModel& sys, const PontryaginSystem& P) {
  const SystemInfo& info = sys.info();
  std::vector<std::string> c = info.coordinates;
  c.insert(c.end(), info.velocities.begin(), info.velocities.end());
  if (P.vakonomic()) {
    for (int i = 0; i < P.multipliers(); ++i) c.push_back("mu_" + std::to_string(i + 1));
  } else {
    c.insert(c.end(), info.controls.begin(), info.controls.end());
    for (const auto& v : info.velocities) c.push_back("xi_" + v);
  }
  c.push_back("cost");
  return c;
}

// What a user may set at t = 0: ξ(0) (control model), or the free velocities and μ(0).
void describeUnknowns(const PontryaginSystem& P, Shooting& S, const Eigen::VectorXd& X,
                      Extremal& e) {
  const SystemInfo& info = P.system().info();
  const int m = P.m();
  if (!P.vakonomic()) {
    for (int a = 0; a < m; ++a) {
      e.unknownNames.push_back("xi_" + info.velocities[a]);
      e.unknowns.push_back(X[a]);
    }
    return;
  }
  std::vector<double> zdot(P.N());
  const Eigen::VectorXd z0 = S.nodeState(X, 0);
  P.rates(S.workspace(), 0, z0.data(), zdot.data(), false);
  const Eigen::VectorXd& w = S.workspace().w;
  for (const std::string& v : info.independentVelocities) {
    e.unknownNames.push_back(v);
    const auto& all = info.velocities;
    e.unknowns.push_back(w[std::find(all.begin(), all.end(), v) - all.begin()]);
  }
  for (int c = 0; c < P.multipliers(); ++c) {
    e.unknownNames.push_back("mu_" + std::to_string(c + 1));
    e.unknowns.push_back(w[m + c]);
  }
}

// The same extremal, or one of a symmetric family (equal cost): reported once.
// Both relative: costs and costates are tiny at large T.
bool sameExtremal(const Extremal& a, const Extremal& b) {
  if (std::abs(a.cost - b.cost) <= 1e-8 * std::max(std::abs(a.cost), std::abs(b.cost))) return true;
  double diff = 0, scale = 0;
  for (size_t i = 0; i < a.unknowns.size(); ++i) {
    diff = std::max(diff, std::abs(a.unknowns[i] - b.unknowns[i]));
    scale = std::max({scale, std::abs(a.unknowns[i]), std::abs(b.unknowns[i])});
  }
  return diff <= 1e-6 * scale;
}

// One start from ξ(0): plain Newton, then continuation in the targets when that fails.
NewtonOutcome attempt(Shooting& S, const std::vector<Target>& targets, const Eigen::VectorXd& q0,
                      const Eigen::VectorXd& xi0, const OptimalControlOptions& o,
                      Eigen::VectorXd& X, const std::function<void()>& tick) {
  S.setTargets(targets);
  X = S.initial(xi0);
  NewtonOutcome plain = newton(S, X, o.tolerance, o.maxIterations, tick);
  if (plain.converged) return plain;
  int iterations = plain.iterations;
  for (const double alpha : {0.25, 0.5, 0.75, 1.0}) {
    S.setTargets(partWay(targets, q0, alpha));
    if (alpha == 0.25) X = S.initial(xi0);
    NewtonOutcome stage = newton(S, X, o.tolerance, o.maxIterations, tick);
    iterations += stage.iterations;
    if (!stage.converged) return plain.residual <= stage.residual ? plain : stage;
    if (alpha == 1.0) {
      stage.iterations = iterations;
      return stage;
    }
  }
  return plain;
}

// The first start's costate: zero (control model), or the momentum of the given velocities.
// The momentum ∂L/∂y at μ = 0 of velocities y: the costate of a vakonomic start.
Eigen::VectorXd momentumOf(const PontryaginSystem& P, Shooting& S, const Eigen::VectorXd& q0,
                           const Eigen::VectorXd& y) {
  Eigen::VectorXd w = Eigen::VectorXd::Zero(P.unknownsW());
  w.head(P.m()) = y;
  Eigen::VectorXd z = Eigen::VectorXd::Zero(P.N());
  z.head(P.n()) = q0;
  return -P.dHdw(S.workspace(), 0, z.data(), w).head(P.m());
}

// Start k's costate. The first: zero (control model), or the momentum of the given
// velocities (vakonomic). The others: random, within `spread` of the first per component —
// of the costate for a control model, of the velocities (then their momentum) for a
// vakonomic problem, so that the random starts are motions of sensible speed.
Eigen::VectorXd startCostate(const PontryaginSystem& P, Shooting& S, const Eigen::VectorXd& q0,
                             const OptimalControlOptions& o, double spread,
                             const std::function<double()>& uniform) {
  const int m = P.m();
  Eigen::VectorXd v = Eigen::VectorXd::Zero(m);
  if (P.vakonomic()) {
    const std::vector<double>& y =
        o.startVelocities.empty() ? P.system().info().defaultVelocities : o.startVelocities;
    for (int a = 0; a < m && a < static_cast<int>(y.size()); ++a) v[a] = y[a];
    Eigen::VectorXd w = Eigen::VectorXd::Zero(P.unknownsW());
    w.head(m) = v;
    S.setStartW(w);
  }
  if (uniform)
    for (int a = 0; a < m; ++a) v[a] += spread * uniform();
  return P.vakonomic() ? momentumOf(P, S, q0, v) : v;
}

constexpr const char* kOtherStartsAdvice = "try other --starts, a longer --t-end or nearer targets";

// When ∂²H/∂w² is singular no start helps: the problem is not regular.
std::string singularAdvice(const PontryaginSystem& P) {
  if (P.vakonomic())
    return "the Lagrangian and the constraints do not determine the velocities and "
           "multipliers (the Hessian of L + mu*Phi in them is singular): a Lagrangian strictly "
           "convex in the velocities with independent constraints is needed; other starts "
           "cannot help";
  return "the cost is singular in the controls (its Hessian in u is not invertible, so u "
         "cannot be solved from the costate): a cost strictly convex in every control, such "
         "as 0.5*u^2 for each, is needed; other starts cannot help";
}

// A converged start: its extremal (not yet sampled), unknowns and the scales of its path.
struct Found {
  Extremal e;
  Eigen::VectorXd X;
  Scales scales;
};

// The memory one sampled path holds: its rows (a vector of the columns each, with the
// allocator's overhead) and their times.
double pathBytes(double T, double dt, size_t columns) {
  const double samples = std::floor(T / dt) + 2;
  return samples * (double(columns) * sizeof(double) + 3 * sizeof(void*) + 16 + sizeof(double));
}

std::string formatBytes(double bytes) {
  return bytes >= 1e9 ? formatValue(std::round(bytes / 1e8) / 10) + " GB"
                      : formatValue(std::round(bytes / 1e5) / 10) + " MB";
}

// The extremals found, by cost, sampled every dt while their paths fit the ceiling
// kMaxPathBytes together; the costlier ones past it are left out, and the result says so.
void keepPaths(Shooting& S, const std::vector<Target>& targets, std::vector<Found>& found,
               double dt, double bytesEach, OptimalControlResult& result) {
  std::stable_sort(found.begin(), found.end(),
                   [](const Found& a, const Found& b) { return a.e.cost < b.e.cost; });
  S.setTargets(targets);
  double held = 0;
  for (Found& f : found) {
    if (held + bytesEach > kMaxPathBytes) {
      const size_t left = found.size() - result.extremals.size();
      result.note = std::to_string(left) + " costlier extremal" + (left == 1 ? "" : "s") +
                    " left out: their paths would pass the " + formatBytes(kMaxPathBytes) +
                    " an optimisation keeps (a larger --dt-out keeps them)";
      return;
    }
    S.setScales(f.scales);
    S.sample(f.X, dt, f.e);
    held += bytesEach;
    result.extremals.push_back(std::move(f.e));
  }
}

// How far the targets are from the start: the largest change of a coordinate, or the angle
// of an attitude's turn.
double targetDistance(const std::vector<Target>& targets, const Eigen::VectorXd& q0) {
  double d = 0;
  for (const Target& t : targets) {
    if (!t.quaternion) {
      d = std::max(d, std::abs(t.value - q0[t.index]));
      continue;
    }
    d = std::max(d, attitudeAt(q0, t.index).angularDistance(t.attitude));
  }
  return d;
}

}  // namespace

OptimalControlResult solveOptimalControl(std::shared_ptr<const SystemModel> system,
                                         const OptimalControlOptions& o,
                                         const OptimalControlProgress& progress) {
  if (!(o.tEnd > 0) || !std::isfinite(o.tEnd))
    throw InputError("the time T = " + formatValue(o.tEnd) + " must be a positive number");
  if (!(o.tolerance > 0)) throw InputError("the tolerance must be positive");
  const SystemModel& sys = *system;
  const PontryaginSystem P(system, checkedParameters(sys, o.parameters));
  const Eigen::VectorXd q0 = checkedStart(sys, o.startCoordinates);
  const std::vector<Target> targets = checkedTargets(P, o.targets);
  int conditions = 0;
  for (const Target& t : targets) conditions += t.rows();
  if (conditions > P.m())
    throw InputError(std::to_string(conditions) + " end conditions for " + std::to_string(P.m()) +
                     " unknowns (the costate has one per velocity of '" + sys.name() +
                     "'): target fewer coordinates");
  OptimalControlResult result;
  result.vakonomic = P.vakonomic();
  result.columns = resultColumns(sys, P);
  result.bestResidual = std::numeric_limits<double>::infinity();
  const double dt = o.dtOut > 0 ? o.dtOut : o.tEnd / 200;
  const double rowBytes = pathBytes(o.tEnd, dt, result.columns.size());
  if (!(rowBytes <= kMaxPathBytes))
    throw InputError("a path sampled every " + formatValue(dt) +
                     " over T = " + formatValue(o.tEnd) + " would hold " + formatBytes(rowBytes) +
                     " in memory, more than the " + formatBytes(kMaxPathBytes) +
                     " an optimisation keeps: sample it less often (a larger --dt-out)");
  std::vector<Found> found;
  const int segments = o.segments > 0 ? o.segments : 8;
  Shooting S(P, o.tEnd, segments, q0, targets);
  const double spread = 2 * std::numbers::pi * (1 + targetDistance(targets, q0)) / o.tEnd;
  std::mt19937 random(o.seed);
  std::uniform_real_distribution<double> uniform(-1, 1);
  const int starts = std::max(1, o.starts);
  for (int k = 0; k < starts; ++k) {
    // Random starts at three scales in turn (the spread, a quarter, a sixteenth): cheap
    // extremals have small costates, costly ones (more turns) large ones.
    const double scale = spread / std::pow(4.0, (k + 2) % 3);
    const Eigen::VectorXd xi0 =
        startCostate(P, S, q0, o, scale,
                     k == 0 ? std::function<double()>()
                            : std::function<double()>([&] { return uniform(random); }));
    int ticks = 0;
    const auto tick = [&] {
      ++ticks;
      const double inStart = 1 - 1.0 / (1 + 0.2 * ticks);
      if (progress && !progress((k + inStart) / starts)) throw OptimalControlCancelled();
    };
    Eigen::VectorXd X;
    const NewtonOutcome out = attempt(S, targets, q0, xi0, o, X, tick);
    ++result.startsTried;
    if (!out.converged) {
      if (out.residual < result.bestResidual || result.failure.empty()) {
        result.bestResidual = std::min(result.bestResidual, out.residual);
        result.failure = out.failure;
        result.advice = out.singular ? singularAdvice(P) : kOtherStartsAdvice;
      }
      continue;
    }
    Found f{Extremal{}, X, S.scales()};
    f.e.cost = out.cost, f.e.residual = out.residual, f.e.iterations = out.iterations;
    describeUnknowns(P, S, X, f.e);
    if (std::none_of(found.begin(), found.end(),
                     [&](const Found& x) { return sameExtremal(x.e, f.e); }))
      found.push_back(std::move(f));
  }
  keepPaths(S, targets, found, dt, rowBytes, result);
  if (!result.extremals.empty()) result.bestResidual = result.extremals.front().residual;
  if (progress) progress(1);
  return result;
}

void startFromScenario(const std::shared_ptr<const SystemModel>& systemPtr,
                       const Scenario& scenario, OptimalControlOptions& options) {
  const SystemModel& system = *systemPtr;
  options.parameters = resolveParameters(system, scenario.parameters);
  const SystemInfo& info = system.info();
  if (!info.isControlModel()) {
    const EquationsOfMotion equations(systemPtr, DynamicsKind::Nonholonomic,
                                      Formulation::Multipliers, options.parameters);
    const std::vector<double> x = initialState(equations, 0, scenario.initial);
    options.startCoordinates.assign(x.begin(), x.begin() + system.n());
    options.startVelocities.assign(x.begin() + system.n(), x.begin() + system.n() + system.m());
    return;
  }
  options.startCoordinates = info.defaultCoordinates;
  for (const auto& [name, value] : scenario.initial) {
    const int i = system.coordinateIndex(name);
    if (i < 0)
      throw InputError("'" + echoInput(name) + "' is not a coordinate of the control model '" +
                       system.name() + "' (coordinates: " + joined(info.coordinates) +
                       "; its velocities follow from the controls)");
    options.startCoordinates[i] = value;
  }
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
