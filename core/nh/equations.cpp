// Equations of motion: theory §2 (Lagrange–d'Alembert) and §3 (vakonomic). What is
// compiled once, the dispatch of a call to the backends and solvers, and what is reported.
#include <Eigen/SVD>
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <limits>
#include <string>

#include "core/nh/equations_detail.h"
#include "core/nh/errors.h"
#include "core/nh/messages.h"

namespace nh {

namespace {

std::uint64_t nextSerial() {
  static std::atomic<std::uint64_t> counter{0};
  return ++counter;
}

// The nonzero constant structure functions C^γ_{βα} of c's system at c's parameters.
void listConstantStructure(CompiledEquations& c) {
  c.structure.clear();
  const SystemModel& sys = *c.system;
  if (!sys.hasStructure() || !sys.info().constantStructure) return;
  const int m = c.m;
  std::array<double, kMaxVelocities * kMaxVelocities * kMaxVelocities> C{};
  const double zeroQ[kMaxCoordinates] = {};
  sys.structure(c.parameters.data(), zeroQ, C.data());
  for (int g = 0; g < m; ++g)
    for (int b = 0; b < m; ++b)
      for (int a = 0; a < m; ++a)
        if (const double value = C[g + m * (b + m * a)]; value != 0)
          c.structure.push_back({g, b, a, value});
}

// The factorisations of constant M and A (a singular M or S stays to be reported by the first
// call, with its time).
void factorConstantMatrices(CompiledEquations& c) {
  c.constantFactors = false;
  if (!c.taped || !c.constantMatrices) return;
  const int m = c.m, kt = c.kt;
  MatY M(m, m);
  MatKY A(kt, m);
  for (int i = 0; i < m * m; ++i) M.data()[i] = c.program.constantOutput(c.outM + i);
  for (int i = 0; i < kt * m; ++i) A.data()[i] = c.program.constantOutput(c.outA + i);
  c.constantFactors = c.factors.compute(M, A, m, kt) == MultiplierFactors::Result::Regular;
}

std::shared_ptr<const CompiledEquations> compileEquations(std::shared_ptr<const SystemModel> system,
                                                          DynamicsKind dynamics, Backend backend,
                                                          std::vector<double> parameters,
                                                          std::vector<int> freeParameters) {
  auto c = std::make_shared<CompiledEquations>();
  const SystemModel& sys = *system;
  c->system = std::move(system);
  c->dynamics = dynamics;
  c->backend = backend;
  c->parameters = std::move(parameters);
  c->freeParameters = std::move(freeParameters);
  c->serial = nextSerial();
  c->n = sys.n();
  c->m = sys.m();
  c->kt = sys.constraintsTotal();
  listConstantStructure(*c);
  compileTape(*c);
  factorConstantMatrices(*c);
  return c;
}
}  // namespace

std::string toString(DynamicsKind kind) { return choiceName(kDynamicsChoices, kind); }
std::string toString(Formulation f) { return choiceName(kFormulationChoices, f); }
DynamicsKind parseDynamics(const std::string& text) {
  return parseChoice(kDynamicsChoices, text, "dynamics");
}
Formulation parseFormulation(const std::string& text) {
  return parseChoice(kFormulationChoices, text, "formulation");
}

// The dual side needs a Legendre transform of L alone: the vakonomic state carries μ too.
void checkSupported(DynamicsKind dynamics, Formulation formulation) {
  if (formulation == Formulation::Hamiltonian && dynamics == DynamicsKind::Vakonomic)
    throw InputError(
        "the hamiltonian formulation is for nonholonomic dynamics only: vakonomic motions carry "
        "their multipliers μ in the state, and L + μ·Φ has no Legendre transform to (q, p) "
        "alone (choose multipliers or gibbs-appell)");
}

Formulation formulationFor(DynamicsKind dynamics, Formulation formulation) {
  return dynamics == DynamicsKind::Vakonomic && formulation == Formulation::Hamiltonian
             ? Formulation::Multipliers
             : formulation;
}

// ---- The workspace ------------------------------------------------------------------------

EquationsWorkspace::EquationsWorkspace() : data_(std::make_unique<Data>()) {}
EquationsWorkspace::EquationsWorkspace(const EquationsOfMotion& equations) : EquationsWorkspace() {
  equations.prepare(*this);
}
EquationsWorkspace::~EquationsWorkspace() = default;
EquationsWorkspace::EquationsWorkspace(EquationsWorkspace&&) noexcept = default;
EquationsWorkspace& EquationsWorkspace::operator=(EquationsWorkspace&&) noexcept = default;

EquationsOfMotion::Workspace& EquationsOfMotion::prepare(EquationsWorkspace& ws) const {
  if (!ws.data_) ws.data_ = std::make_unique<Workspace>();  // moved from
  Workspace& w = *ws.data_;
  const CompiledEquations& ce = *compiled_;
  if (w.preparedFor != ce.serial) {  // registers start with this program's constants
    w.registers = ce.program.initialRegisters();
    w.directRegisters = ce.directProgram.initialRegisters();
    w.preparedFor = ce.serial;
  }
  return w;
}

// ---- Compilation --------------------------------------------------------------------------

EquationsOfMotion::EquationsOfMotion(std::shared_ptr<const SystemModel> system,
                                     DynamicsKind dynamics, Formulation formulation,
                                     std::vector<double> parameters, Backend backend)
    : formulation_(formulation) {
  checkSupported(dynamics, formulation);
  const SystemModel& sys = *system;
  const int n = sys.n(), m = sys.m(), kt = sys.constraintsTotal();
  if (sys.info().isControlModel())
    throw InputError("'" + sys.name() +
                     "' is a control model: it has no dynamics of its own and moves only along "
                     "an optimal plan (nhsim optimize; in nhlab, Simulation ▸ Plan a motion)");
  if (n > kMaxCoordinates || m > kMaxVelocities || kt > kMaxConstraints || kt > m)
    throw InputError("system '" + sys.name() + "' is too large for the engine (n ≤ " +
                     std::to_string(kMaxCoordinates) + ", m ≤ " + std::to_string(kMaxVelocities) +
                     ", constraints ≤ min(m, " + std::to_string(kMaxConstraints) + "))");
  if (parameters.empty()) parameters = sys.defaultParameters();
  if (parameters.size() != sys.info().parameters.size())
    throw InputError("system '" + sys.name() + "' takes " +
                     std::to_string(sys.info().parameters.size()) + " parameters, got " +
                     std::to_string(parameters.size()));
  compiled_ = compileEquations(std::move(system), dynamics, backend, std::move(parameters), {});
}

EquationsOfMotion::EquationsOfMotion(std::shared_ptr<const CompiledEquations> compiled,
                                     Formulation formulation)
    : compiled_(std::move(compiled)), formulation_(formulation) {
  checkSupported(compiled_->dynamics, formulation);
}

EquationsOfMotion EquationsOfMotion::withParameters(std::vector<double> values) const {
  const CompiledEquations& ce = *compiled_;
  if (values.size() != ce.parameters.size())  // empty would mean the defaults below
    throw InputError("system '" + ce.system->name() + "' takes " +
                     std::to_string(ce.parameters.size()) + " parameters, got " +
                     std::to_string(values.size()));
  if (values == ce.parameters) return *this;
  bool onlyFree = true;
  for (size_t i = 0; i < values.size() && onlyFree; ++i)
    onlyFree =
        values[i] == ce.parameters[i] ||
        std::binary_search(ce.freeParameters.begin(), ce.freeParameters.end(), static_cast<int>(i));
  if (onlyFree && ce.taped && !ce.freeParameters.empty()) {
    auto c = std::make_shared<CompiledEquations>(ce);
    c->parameters = std::move(values);
    c->serial = nextSerial();
    listConstantStructure(*c);
    if (instantiateTape(*c)) {
      factorConstantMatrices(*c);
      return EquationsOfMotion(std::move(c), formulation_);
    }
    values = c->parameters;  // the zero pattern changed: a new tape
  }
  return EquationsOfMotion(
      compileEquations(ce.system, ce.dynamics, ce.backend, std::move(values), ce.freeParameters),
      formulation_);
}
EquationsOfMotion EquationsOfMotion::withFreeParameters(std::vector<int> indices) const {
  const CompiledEquations& ce = *compiled_;
  std::sort(indices.begin(), indices.end());
  indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
  for (const int i : indices)
    if (i < 0 || i >= static_cast<int>(ce.parameters.size()))
      throw InputError("system '" + ce.system->name() + "' has no parameter number " +
                       std::to_string(i + 1) + " (it has " + std::to_string(ce.parameters.size()) +
                       ")");
  if (indices == ce.freeParameters) return *this;
  return EquationsOfMotion(
      compileEquations(ce.system, ce.dynamics, ce.backend, ce.parameters, std::move(indices)),
      formulation_);
}
const std::vector<int>& EquationsOfMotion::freeParameters() const {
  return compiled_->freeParameters;
}
EquationsOfMotion EquationsOfMotion::withFormulation(Formulation formulation) const {
  return EquationsOfMotion(compiled_, formulation);
}
EquationsOfMotion EquationsOfMotion::withBackend(Backend backend) const {
  return EquationsOfMotion(compiled_->system, compiled_->dynamics, formulation_,
                           compiled_->parameters, backend);
}

const SystemModel& EquationsOfMotion::system() const { return *compiled_->system; }
std::shared_ptr<const SystemModel> EquationsOfMotion::systemPtr() const {
  return compiled_->system;
}
DynamicsKind EquationsOfMotion::dynamics() const { return compiled_->dynamics; }
Backend EquationsOfMotion::backend() const { return compiled_->backend; }
bool EquationsOfMotion::isTaped() const { return compiled_->taped; }
const ReconstructionPlan* EquationsOfMotion::reconstructionPlan() const {
  return compiled_->taped ? &compiled_->reconstruction : nullptr;
}
const std::vector<double>& EquationsOfMotion::parameters() const { return compiled_->parameters; }

std::string EquationsOfMotion::compiledListing() const {
  const CompiledEquations& ce = *compiled_;
  if (!ce.taped) return {};
  return ce.direct ? ce.directProgram.listing() : ce.program.listing();
}

std::vector<const SymProgram*> EquationsOfMotion::compiledPrograms() const {
  const CompiledEquations& ce = *compiled_;
  std::vector<const SymProgram*> programs;
  if (ce.taped) programs.push_back(&ce.program);
  if (ce.taped && ce.direct) programs.push_back(&ce.directProgram);
  return programs;
}

int EquationsOfMotion::stateSize() const {
  const CompiledEquations& ce = *compiled_;
  return ce.dynamics == DynamicsKind::Vakonomic ? ce.n + ce.m + ce.kt : ce.n + ce.m;
}

// ---- One evaluation -----------------------------------------------------------------------

void EquationsOfMotion::throwSingular(const char* what, double t,
                                      const Eigen::MatrixXd& matrix) const {
  if (!matrix.allFinite())  // an overflow (a mass of 1e-310 inverted), not a singularity
    throw SingularSystemError("system '" + echoInput(compiled_->system->name()) +
                                  "' cannot be evaluated at t = " + shortNumber(t) + ": " + what +
                                  " has entries beyond double precision (a parameter or state "
                                  "value too large or too small)",
                              t, std::numeric_limits<double>::infinity());
  // Off the hot path: the exact 2-norm condition number for the message.
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(matrix);
  const auto sv = svd.singularValues();
  const double cond = sv.size() && sv.minCoeff() > 0 ? sv.maxCoeff() / sv.minCoeff()
                                                     : std::numeric_limits<double>::infinity();
  throw SingularSystemError("system '" + echoInput(compiled_->system->name()) +
                                "' is not regular at t = " + shortNumber(t) + ": " + what +
                                " is singular or near-singular (condition number " +
                                shortNumber(cond) + ")",
                            t, cond);
}

void EquationsOfMotion::accelerations(Workspace& w, double t, const double* q, const double* y,
                                      const double* mu) const {
  const CompiledEquations& ce = *compiled_;
  if (ce.taped)
    loadTaped(w, t, q, y, mu);
  else
    loadJets(w, t, q, y, mu);
  completeForce(w, t, q, y);
  // At a state (q, y) the dual side's solution is the multipliers' (hamiltonian.cpp steps
  // (q, p) instead).
  if (formulation_ == Formulation::GibbsAppell)
    solveGibbsAppell(w, t);
  else
    solveMultipliers(w, t);
}

// C^γ_{βα} y^β p_γ where the tape did not add it (theory §2; with p̃ = p + μA for the vakonomic
// case), and the generalised force Q into w.Q.
void EquationsOfMotion::completeForce(Workspace& w, double t, const double* q,
                                      const double* y) const {
  const CompiledEquations& ce = *compiled_;
  const SystemModel& sys = *ce.system;
  if (sys.hasStructure() && !(ce.taped && ce.structureInTape))
    addStructureTerm(w, q, y, w.p.data(), w.F.data());
  if (sys.hasForce()) {
    w.Q.resize(ce.m);
    sys.force(ce.parameters.data(), t, q, y, w.Q.data());
    w.F += w.Q;
  }
}

// Over the nonzero structure functions only; listed once when they do not depend on q.
void EquationsOfMotion::addStructureTerm(Workspace& w, const double* q, const double* y,
                                         const double* p, double* target) const {
  const CompiledEquations& ce = *compiled_;
  const SystemModel& sys = *ce.system;
  const int m = ce.m;
  if (sys.info().constantStructure) {
    for (const auto& e : ce.structure) target[e.alpha] += e.value * y[e.beta] * p[e.gamma];
    return;
  }
  sys.structure(ce.parameters.data(), q, w.C.data());
  for (int g = 0; g < m; ++g)
    for (int b = 0; b < m; ++b)
      for (int a = 0; a < m; ++a)
        if (const double c = w.C[g + m * (b + m * a)]; c != 0) target[a] += c * y[b] * p[g];
}

void EquationsOfMotion::rhs(EquationsWorkspace& ws, double t, const double* x, double* dxdt) const {
  const CompiledEquations& ce = *compiled_;
  const int n = ce.n, m = ce.m, kt = ce.kt;
  const bool vakonomic = ce.dynamics == DynamicsKind::Vakonomic;
  Workspace& w = prepare(ws);
  if (ce.taped && ce.direct && formulation_ != Formulation::GibbsAppell) {
    const SymProgram& prg = ce.directProgram;
    double* const r = w.directRegisters.data();
    prg.run(r, t, x);  // variables t, then q, y (and μ) in state order
    bool regular = true;
    if (ce.directGuarded) {
      const double det = prg.output(r, n + m + kt), scale = prg.output(r, n + m + kt + 1);
      const double reference = kt == 1 ? scale * ce.minvNorm : std::abs(scale);
      regular = std::isfinite(det) && std::abs(det) > kMinReciprocalCondition * reference;
    }
    if (regular) {
      for (int i = 0; i < n + m; ++i) dxdt[i] = prg.output(r, i);
      if (vakonomic)
        for (int c = 0; c < kt; ++c) dxdt[n + m + c] = -prg.output(r, n + m + c);
      return;
    }
    // Nearly singular: the general path decides, and reports it.
  }
  accelerations(w, t, x, x + n, x + n + m);
  for (int i = 0; i < n; ++i) dxdt[i] = w.v[i];
  for (int a = 0; a < m; ++a) dxdt[n + a] = w.ydot[a];
  if (vakonomic)
    for (int c = 0; c < kt; ++c) dxdt[n + m + c] = -w.lambda[c];
}

void EquationsOfMotion::observe(EquationsWorkspace& ws, double t, const double* x,
                                Observables& out) const {
  const CompiledEquations& ce = *compiled_;
  const SystemModel& sys = *ce.system;
  const int n = ce.n, m = ce.m, kt = ce.kt;
  Workspace& w = prepare(ws);
  accelerations(w, t, x, x + n, x + n + m);
  // Energy of the physical Lagrangian, E_L = p·y − L (theory §4); in the vakonomic case
  // w.p holds p̃ = p + μA, so the μ part is taken off again.
  const double* y = x + n;
  double py = 0;
  for (int a = 0; a < m; ++a) py += w.p[a] * y[a];
  out.momentum = w.p;
  if (ce.dynamics == DynamicsKind::Vakonomic)
    for (int c = 0; c < kt; ++c)
      for (int a = 0; a < m; ++a) {
        py -= x[n + m + c] * w.A(c, a) * y[a];
        out.momentum[a] -= x[n + m + c] * w.A(c, a);
      }
  out.energy = py - w.lagrangian;
  out.phi.resize(kt);
  sys.constraints(ce.parameters.data(), t, x, x + n, out.phi.data());
  out.g.resize(sys.h());
  if (sys.h() > 0) sys.holonomic(ce.parameters.data(), t, x, out.g.data());
  out.lambda = w.lambda;
  out.ydot = w.ydot;
  out.reaction.resize(m);
  if (kt > 0)
    out.reaction.noalias() = w.A.transpose() * w.lambda;
  else
    out.reaction.setZero();
}

double EquationsOfMotion::energy(EquationsWorkspace& ws, double t, const double* x) const {
  Observables o;
  observe(ws, t, x, o);
  return o.energy;
}

double EquationsOfMotion::residual(double t, const double* x) const {
  const CompiledEquations& ce = *compiled_;
  const SystemModel& sys = *ce.system;
  double worst = 0;
  VecK phi(ce.kt);
  sys.constraints(ce.parameters.data(), t, x, x + ce.n, phi.data());
  if (phi.size()) worst = phi.cwiseAbs().maxCoeff();
  if (sys.h() > 0) {
    VecK g(sys.h());
    sys.holonomic(ce.parameters.data(), t, x, g.data());
    worst = std::max(worst, g.cwiseAbs().maxCoeff());
  }
  return worst;
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
