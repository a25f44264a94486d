// FormulaSystem: a model file's formulas evaluated over the engine's scalars.
#include "core/model/formula_system.h"

#include <algorithm>
#include <type_traits>

#include "core/model/expression.h"
#include "core/model/model_data.h"

namespace nh::model {
namespace {

// Per-thread scratch for one scalar type: the slot environment and node values. Sized on a
// thread's first call for a model and reused after.
template <class S>
struct Scratch {
  std::vector<S> env, values;
};
template <class S>
Scratch<S>& scratch(const ModelData& d) {
  thread_local Scratch<S> s;
  const size_t slots = static_cast<size_t>(d.layout.size());
  if (s.env.size() < slots) s.env.resize(slots);
  if (s.values.size() < d.maxNodes) s.values.resize(d.maxNodes);
  return s;
}

// Fills the environment (time, parameters, coordinates, velocities; y may be null) and the
// first `definitions` definitions.
template <class S>
void load(const ModelData& d, Scratch<S>& s, const double* p, const S& t, const S* q, const S* y,
          int definitions) {
  const SlotLayout& L = d.layout;
  s.env[L.time()] = t;
  for (int i = 0; i < L.parameters; ++i) {
    if constexpr (std::is_same_v<S, Sym>)
      s.env[L.parameter(i)] = tapeParameter(i, p[i]);  // an input of the tape if bound
    else
      s.env[L.parameter(i)] = S(p[i]);
  }
  for (int i = 0; i < L.coordinates; ++i) s.env[L.coordinate(i)] = q[i];
  for (int a = 0; a < L.velocities; ++a) s.env[L.velocity(a)] = y ? y[a] : S(0.0);
  for (int k = 0; k < definitions; ++k)
    s.env[L.definition(k)] = evaluate(d.definitions[k], s.env.data(), s.values.data());
}

template <class S>
S value(const Expression& e, Scratch<S>& s) {
  return evaluate(e, s.env.data(), s.values.data());
}

template <class S>
S lagrangianOf(const ModelData& d, const double* p, const S& t, const S* q, const S* y) {
  if (d.lagrangian.empty()) return S(0.0);  // a control model has none
  Scratch<S>& s = scratch<S>(d);
  load(d, s, p, t, q, y, d.definitionsRead.lagrangian);
  return value(d.lagrangian, s);
}

template <class S>
void constraintsOf(const ModelData& d, const double* p, const S& t, const S* q, const S* y,
                   S* phi) {
  Scratch<S>& s = scratch<S>(d);
  load(d, s, p, t, q, y, d.definitionsRead.constraints);
  const int k = static_cast<int>(d.constraints.size());
  for (int c = 0; c < k; ++c) phi[c] = value(d.constraints[c], s);
  for (size_t c = 0; c < d.holonomicRate.size(); ++c) phi[k + c] = value(d.holonomicRate[c], s);
}

template <class S>
void anchorOf(const ModelData& d, const double* p, const S* q, S* rho) {
  Scratch<S>& s = scratch<S>(d);
  load(d, s, p, S(0.0), q, static_cast<const S*>(nullptr), 0);  // ρ has definitions inlined
  for (size_t i = 0; i < d.rho.size(); ++i) rho[i] = value(d.rho[i], s);
}

Eigen::Vector3d vec3(const std::vector<Expression>& e, Scratch<double>& s) {
  return {value(e[0], s), value(e[1], s), value(e[2], s)};
}

Eigen::Quaterniond rotation(const std::vector<SceneRotation>& rs, Scratch<double>& s) {
  Eigen::Quaterniond r = Eigen::Quaterniond::Identity();
  for (const SceneRotation& x : rs) {
    Eigen::Quaterniond f = Eigen::Quaterniond::Identity();
    if (x.quaternion.size() == 4) {
      f = Eigen::Quaterniond(value(x.quaternion[0], s), value(x.quaternion[1], s),
                             value(x.quaternion[2], s), value(x.quaternion[3], s));
      if (f.norm() > 0)
        f.normalize();
      else
        f = Eigen::Quaterniond::Identity();
    } else if (x.axis.size() == 3) {
      const Eigen::Vector3d axis = vec3(x.axis, s);
      if (axis.norm() > 0) f = Eigen::AngleAxisd(value(x.angle, s), axis.normalized());
    }
    r = r * f;
  }
  return r;
}

}  // namespace

FormulaSystem::FormulaSystem(std::shared_ptr<const ModelData> data, SystemInfo info)
    : SystemModel(std::move(info)), data_(std::move(data)) {}
FormulaSystem::~FormulaSystem() = default;

const std::string& FormulaSystem::text() const { return data_->text; }
const std::string& FormulaSystem::path() const { return data_->path; }

void FormulaSystem::anchor(const double* p, const double* q, double* rho) const {
  anchorOf(*data_, p, q, rho);
}
void FormulaSystem::anchor(const double* p, const Sym* q, Sym* rho) const {
  anchorOf(*data_, p, q, rho);
}
namespace {
template <class S>
void structureOf(const ModelData& d, int m, const double* p, const S* q, S* C) {
  std::fill(C, C + m * m * m, S(0.0));
  Scratch<S>& s = scratch<S>(d);
  load(d, s, p, S(0.0), q, static_cast<const S*>(nullptr), d.definitionsRead.structure);
  for (const StructureTerm& term : d.structure) {
    const S v = value(term.value, s);
    C[term.c + m * (term.a + m * term.b)] += v;
    if (term.skew) C[term.c + m * (term.b + m * term.a)] -= v;
  }
}
template <class S>
void forceOf(const ModelData& d, int m, const double* p, const S& t, const S* q, const S* y, S* Q) {
  Scratch<S>& s = scratch<S>(d);
  load(d, s, p, t, q, y, d.definitionsRead.forces);
  for (int a = 0; a < m; ++a) Q[a] = d.forces[a].empty() ? S(0.0) : value(d.forces[a], s);
}
}  // namespace

std::string FormulaSystem::checkParameters(const double* p) const {
  if (data_->parameterChecks.empty()) return {};
  Scratch<double>& s = scratch<double>(*data_);
  const std::vector<double> zeros(std::max(n(), m()), 0.0);
  load(*data_, s, p, 0.0, zeros.data(), zeros.data(), 0);
  for (const ParameterCheck& c : data_->parameterChecks) {
    const double v = value(c.expression, s);
    if (!(c.strict ? v > 0 : v >= 0)) return c.message;
  }
  return {};
}
bool FormulaSystem::hasStructure() const { return !data_->structure.empty(); }
void FormulaSystem::structure(const double* p, const double* q, double* C) const {
  structureOf(*data_, m(), p, q, C);
}
void FormulaSystem::structure(const double* p, const Sym* q, Sym* C) const {
  structureOf(*data_, m(), p, q, C);
}
bool FormulaSystem::hasForce() const {
  return std::any_of(data_->forces.begin(), data_->forces.end(),
                     [](const Expression& e) { return !e.empty(); });
}
void FormulaSystem::force(const double* p, double t, const double* q, const double* y,
                          double* Q) const {
  forceOf(*data_, m(), p, t, q, y, Q);
}
void FormulaSystem::force(const double* p, const Sym& t, const Sym* q, const Sym* y, Sym* Q) const {
  forceOf(*data_, m(), p, t, q, y, Q);
}
double FormulaSystem::lagrangian(const double* p, double t, const double* q,
                                 const double* y) const {
  return lagrangianOf(*data_, p, t, q, y);
}
Jet2 FormulaSystem::lagrangian(const double* p, const Jet2& t, const Jet2* q, const Jet2* y) const {
  return lagrangianOf(*data_, p, t, q, y);
}
Sym FormulaSystem::lagrangian(const double* p, const Sym& t, const Sym* q, const Sym* y) const {
  return lagrangianOf(*data_, p, t, q, y);
}
void FormulaSystem::constraints(const double* p, double t, const double* q, const double* y,
                                double* phi) const {
  constraintsOf(*data_, p, t, q, y, phi);
}
void FormulaSystem::constraints(const double* p, const Jet1& t, const Jet1* q, const Jet1* y,
                                Jet1* phi) const {
  constraintsOf(*data_, p, t, q, y, phi);
}
void FormulaSystem::constraints(const double* p, const Jet2& t, const Jet2* q, const Jet2* y,
                                Jet2* phi) const {
  constraintsOf(*data_, p, t, q, y, phi);
}
void FormulaSystem::constraints(const double* p, const Sym& t, const Sym* q, const Sym* y,
                                Sym* phi) const {
  constraintsOf(*data_, p, t, q, y, phi);
}
void FormulaSystem::holonomic(const double* p, double t, const double* q, double* g) const {
  Scratch<double>& s = scratch<double>(*data_);
  load(*data_, s, p, t, q, static_cast<const double*>(nullptr), data_->definitionsRead.holonomic);
  for (size_t c = 0; c < data_->holonomic.size(); ++c) g[c] = value(data_->holonomic[c], s);
}
void FormulaSystem::holonomicJacobian(const double* p, double t, const double* q, double* G) const {
  Scratch<double>& s = scratch<double>(*data_);
  load(*data_, s, p, t, q, static_cast<const double*>(nullptr), data_->definitionsRead.holonomic);
  for (size_t i = 0; i < data_->holonomicJacobian.size(); ++i)
    G[i] = value(data_->holonomicJacobian[i], s);
}

void FormulaSystem::singularities(const double* p, double t, const double* q, const double* y,
                                  double* out) const {
  if (data_->singular.empty()) return;
  Scratch<double>& s = scratch<double>(*data_);
  load(*data_, s, p, t, q, y, data_->definitionsRead.singular);
  for (size_t i = 0; i < data_->singular.size(); ++i) out[i] = value(data_->singular[i], s);
}

void FormulaSystem::outputs(const double* p, double t, const double* q, const double* y,
                            double* out) const {
  if (data_->outputs.empty()) return;
  Scratch<double>& s = scratch<double>(*data_);
  load(*data_, s, p, t, q, y, data_->definitionsRead.outputs);
  for (size_t i = 0; i < data_->outputs.size(); ++i) out[i] = value(data_->outputs[i], s);
}

bool FormulaSystem::hasReferenceFrame() const { return data_->hasReferenceFrame; }
void FormulaSystem::referenceFrame(const double* p, double t, const double* q,
                                   double* gamma) const {
  std::fill(gamma, gamma + m(), 0.0);
  if (data_->referenceFrame.empty()) return;
  Scratch<double>& s = scratch<double>(*data_);
  load(*data_, s, p, t, q, static_cast<const double*>(nullptr),
       data_->definitionsRead.referenceFrame);
  for (int a = 0; a < m(); ++a)
    if (!data_->referenceFrame[a].empty()) gamma[a] = value(data_->referenceFrame[a], s);
}

double FormulaSystem::continuousValue(int parameter, const double* p, double t, const double* q,
                                      const double* y) const {
  const auto& infos = info().parameters;
  if (parameter < 0 || parameter >= static_cast<int>(infos.size()))
    return SystemModel::continuousValue(parameter, p, t, q, y);
  const std::string quantity = info().keptContinuousBy(infos[parameter].name);
  if (quantity.empty()) return SystemModel::continuousValue(parameter, p, t, q, y);
  const auto& names = data_->definitionNames;
  const auto it = std::find(names.begin(), names.end(), quantity);
  const int d = static_cast<int>(it - names.begin());  // the loader checked that it exists
  Scratch<double>& s = scratch<double>(*data_);
  load(*data_, s, p, t, q, y, d + 1);
  return s.env[data_->layout.definition(d)];
}

void FormulaSystem::scene(const double* p, double t, const double* q, const double* y,
                          const double* lambda, SceneFrame& frame) const {
  frame = SceneFrame{};
  const SceneSpec& spec = data_->scene;
  if (!spec.present) return;
  Scratch<double>& s = scratch<double>(*data_);
  load(*data_, s, p, t, q, y, data_->layout.definitions);  // the scene may read any
  const SlotLayout& L = data_->layout;
  for (int c = 0; c < L.multipliers; ++c) s.env[L.multiplier(c)] = lambda ? lambda[c] : 0.0;
  frame.extent = spec.extent.empty() ? 1.0 : value(spec.extent, s);
  if (!(frame.extent > 0)) frame.extent = 1;  // a camera needs a positive size
  frame.movingFrame = rotation(spec.movingFrame, s);
  for (const SceneBodySpec& b : spec.bodies) {
    SceneBody body;
    body.kind = b.kind;
    body.name = b.name;
    body.position = vec3(b.position, s);
    body.orientation = rotation(b.orientation, s);
    body.size = vec3(b.size, s);
    if (b.colour) body.colour = *b.colour;
    frame.bodies.push_back(std::move(body));
  }
  for (const SceneArrowSpec& a : spec.arrows)
    frame.arrows.push_back({a.kind, a.name, vec3(a.origin, s), vec3(a.vector, s), a.unit});
  for (const ScenePointSpec& pt : spec.points)
    frame.points.push_back({pt.name, vec3(pt.position, s), pt.inMovingFrame});
}

// A control model's section and cost read t, q and u (controls sit after the multipliers).
void FormulaSystem::controlSection(const double* p, const Sym& t, const Sym* q, const Sym* u,
                                   Sym* f) const {
  if (!info().isControlModel()) SystemModel::controlSection(p, t, q, u, f);
  Scratch<Sym>& s = scratch<Sym>(*data_);
  load(*data_, s, p, t, q, static_cast<const Sym*>(nullptr), 0);
  const SlotLayout& L = data_->layout;
  for (int c = 0; c < L.controls; ++c) s.env[L.control(c)] = u[c];
  for (size_t a = 0; a < data_->controlSection.size(); ++a)
    f[a] = value(data_->controlSection[a], s);
}

Sym FormulaSystem::cost(const double* p, const Sym& t, const Sym* q, const Sym* u) const {
  if (!info().isControlModel()) return SystemModel::cost(p, t, q, u);
  Scratch<Sym>& s = scratch<Sym>(*data_);
  load(*data_, s, p, t, q, static_cast<const Sym*>(nullptr), 0);
  const SlotLayout& L = data_->layout;
  for (int c = 0; c < L.controls; ++c) s.env[L.control(c)] = u[c];
  return value(data_->cost, s);
}

const FormulaSystem* asFormula(const SystemModel& system) {
  return dynamic_cast<const FormulaSystem*>(&system);
}

}  // namespace nh::model
// SPDX-License-Identifier: GPL-3.0-or-later
