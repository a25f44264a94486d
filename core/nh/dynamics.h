// Equations of motion of a constrained system on a Lie algebroid (theory §2 and §3).
//
// State layout: x = [q (n), y (m), μ (k+h, vakonomic only)].
// Nonholonomic:  M ẏ − Aᵀ λ = F,  A ẏ = b                                   (theory §2)
// Vakonomic:     the same system for L̃ = L + μ·Φ with λ = −μ̇                (theory §3)
// Two independent solutions of that system are selectable: multipliers (KKT through
// A M⁻¹ Aᵀ) and Gibbs–Appell in constraint-adapted quasi-velocities (null space of A). A third
// formulation steps the dual side (theory §8): Hamilton's equations in (q, p), p = ∂L/∂y ∈ E*,
//   q̇ = ρ ∂H/∂p = ρ y,   ṗ = ρᵀ∂L/∂q + C^γ_{βα} y^β p_γ + Q + Aᵀλ   (H = p·y − L, y = y(t, q, p)),
// λ the constraint force that keeps the flow on the constraint (the free Hamiltonian vector
// field projected onto it); y(t, q, p) inverts the Legendre map by Newton's method on the
// exact M = ∂²L/∂y². Simulation integrates the state (q, p) (momentumRhs) and hands out (q, y).
#pragma once

#include <Eigen/Dense>
#include <memory>
#include <string>
#include <vector>

#include "core/nh/named_choice.h"
#include "core/nh/system.h"

namespace nh {

enum class DynamicsKind { Nonholonomic, Vakonomic };
// How the derivatives are evaluated: a compiled tape of the system's functions (default,
// fast) or forward-mode jets at every call (the reference; also the fallback when a system
// cannot be taped). Both must give the same equations (a test).
enum class Backend { Taped, Jets };
enum class Formulation { Multipliers, GibbsAppell, Hamiltonian };

// The dynamics and the formulations by name (named_choice.h), as the command line, scenario
// files and the app name them. The defaults are Scenario's.
inline constexpr NamedChoice<DynamicsKind> kDynamicsChoices[] = {
    {DynamicsKind::Nonholonomic, "nonholonomic",
     "Lagrange–d'Alembert: the reactions do no work on allowed motions (theory §2)"},
    {DynamicsKind::Vakonomic, "vakonomic",
     "the constrained variational principle, L + μ·Φ (theory §3)"},
};
inline constexpr NamedChoice<Formulation> kFormulationChoices[] = {
    {Formulation::Multipliers, "multipliers", "the multipliers solved for through A M⁻¹ Aᵀ (KKT)"},
    {Formulation::GibbsAppell, "gibbs-appell",
     "Gibbs–Appell in constraint-adapted quasi-velocities (the null space of A)"},
    {Formulation::Hamiltonian, "hamiltonian",
     "Hamilton's equations in (q, p), p = ∂L/∂y, with the constraint force that projects the "
     "free flow onto the constraint (nonholonomic dynamics only)"},
};

std::string toString(DynamicsKind kind);        // its name in kDynamicsChoices
std::string toString(Formulation formulation);  // its name in kFormulationChoices
// The choice named `text`; throws InputError "unknown dynamics 'TEXT' (allowed: …)",
// "unknown formulation …".
DynamicsKind parseDynamics(const std::string& text);
Formulation parseFormulation(const std::string& text);
// Throws InputError when `formulation` cannot form `dynamics` (the hamiltonian formulation
// with vakonomic dynamics), saying why and what to choose.
void checkSupported(DynamicsKind dynamics, Formulation formulation);
// The formulation of a run of `dynamics` beside a run formed with `formulation` (a comparison):
// the same, except multipliers for vakonomic dynamics where hamiltonian was chosen.
Formulation formulationFor(DynamicsKind dynamics, Formulation formulation);

// Fixed-capacity Eigen types: sized at run time, never heap-allocated.
using VecY = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxVelocities, 1>;
using VecK = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxConstraints, 1>;
using VecQ = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxCoordinates, 1>;
using MatY =
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxVelocities, kMaxVelocities>;
using MatKY =
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxConstraints, kMaxVelocities>;
using MatYK =
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxVelocities, kMaxConstraints>;
using MatK =
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxConstraints, kMaxConstraints>;
using MatQY =
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxCoordinates, kMaxVelocities>;

// Everything reported at one state (theory §4).
struct Observables {
  double energy = 0;  // E_L = p·y − L
  VecY momentum;      // p = ∂L/∂y ∈ E* of the physical Lagrangian (the Legendre transform)
  VecK phi;           // all k + h velocity-level residuals (Φ then ġ)
  VecK g;             // holonomic residuals g(t, q), h
  VecK lambda;        // multipliers (nonholonomic) or −μ̇ (vakonomic), k + h
  VecY ydot;          // accelerations
  VecY reaction;      // reaction force in the algebroid basis, Aᵀλ
};

class EquationsOfMotion;
struct CompiledEquations;
struct ReconstructionPlan;
class SymProgram;

// Everything a call of EquationsOfMotion writes: tape registers, jets, matrices and their
// factorisations (Pinocchio's Data to the equations' Model). Owned by the caller, one per
// thread at a time. It serves any EquationsOfMotion: used with compiled equations other
// than those it last served, it loads their constants into its registers (allocating if
// they need more). Used with the same ones, rhs, observe, project and completeVelocities
// allocate nothing (tests/core/nh/allocation_test.cpp).
class EquationsWorkspace {
 public:
  EquationsWorkspace();
  explicit EquationsWorkspace(const EquationsOfMotion& equations);  // prepared for these
  ~EquationsWorkspace();
  EquationsWorkspace(EquationsWorkspace&&) noexcept;
  EquationsWorkspace& operator=(EquationsWorkspace&&) noexcept;
  EquationsWorkspace(const EquationsWorkspace&) = delete;
  EquationsWorkspace& operator=(const EquationsWorkspace&) = delete;

  struct Data;  // defined in equations_detail.h

 private:
  friend class EquationsOfMotion;
  std::unique_ptr<Data> data_;
};

// The compiled equations of one system with one set of parameter values: immutable after
// construction, so one instance may be shared by any number of threads, each passing its
// own EquationsWorkspace. Copies are cheap and share the compiled tape. Parameters are
// constants of the tape (they fold away), except those made free (withFreeParameters()): those
// are inputs of the tape, and withParameters() changing only them costs no new tape (what
// depends on parameters alone, M⁻¹ of a constant M included, is computed once per set).
class EquationsOfMotion {
 public:
  // parameters: in the order of system->info().parameters; empty for the defaults. Not
  // range-checked here. Backend::Taped falls back to jets if the system cannot be taped.
  EquationsOfMotion(std::shared_ptr<const SystemModel> system, DynamicsKind dynamics,
                    Formulation formulation = Formulation::Multipliers,
                    std::vector<double> parameters = {}, Backend backend = Backend::Taped);

  // The same equations with other parameter values (taped anew, unless only free parameters
  // change), formulation (sharing the tape) or backend.
  EquationsOfMotion withParameters(std::vector<double> values) const;
  // The same equations taped with the parameters `indices` (into info().parameters) as inputs;
  // throws InputError for an index out of range. For sweeps and live edits of parameters.
  EquationsOfMotion withFreeParameters(std::vector<int> indices) const;
  const std::vector<int>& freeParameters() const;  // ascending
  EquationsOfMotion withFormulation(Formulation formulation) const;
  EquationsOfMotion withBackend(Backend backend) const;

  const SystemModel& system() const;
  std::shared_ptr<const SystemModel> systemPtr() const;
  DynamicsKind dynamics() const;
  Formulation formulation() const { return formulation_; }
  Backend backend() const;  // as requested; isTaped() says what is in use
  bool isTaped() const;     // the compiled tape is in use (the system could be taped)
  // The compiled right-hand side, one instruction a line (empty unless taped); for
  // inspection and the benchmark.
  std::string compiledListing() const;
  // The compiled programs (the general one, then the direct right-hand side when there is
  // one); empty unless taped. They live as long as this object. For tests and benchmarks.
  std::vector<const SymProgram*> compiledPrograms() const;
  int stateSize() const;  // n + m (+ k + h when vakonomic)
  // The coordinates the equations do not read and how to reconstruct them
  // (reconstruction.h); null unless taped.
  const ReconstructionPlan* reconstructionPlan() const;
  const std::vector<double>& parameters() const;

  // dx/dt at (t, x); x and dxdt have stateSize() entries. Throws SingularSystemError.
  void rhs(EquationsWorkspace& ws, double t, const double* x, double* dxdt) const;

  // Energy, residuals, multipliers, accelerations and reactions at (t, x).
  void observe(EquationsWorkspace& ws, double t, const double* x, Observables& out) const;

  // Drift control after a step: normalise quaternions, Gauss–Newton q onto g = 0, then
  // project y onto Φ = 0 in the kinetic-energy metric M. Returns the largest residual left.
  double project(EquationsWorkspace& ws, double t, double* x) const;

  // The dual side (Formulation::Hamiltonian; the functions work under any formulation of
  // nonholonomic equations). z = (q, p), p = ∂L/∂y, has stateSize() entries like x.
  // Whether Simulation steps (q, p) rather than (q, y):
  bool integratesMomenta() const { return formulation_ == Formulation::Hamiltonian; }
  // z from x: p = ∂L/∂y(t, q, y).
  void toMomenta(EquationsWorkspace& ws, double t, const double* x, double* z) const;
  // x from z: y solving ∂L/∂y(t, q, y) = p by Newton's method from the y already in x (any
  // finite guess: one step when L is quadratic in y). Throws SingularSystemError where the
  // Legendre map is singular (with the time and state) or Newton's method does not converge.
  void fromMomenta(EquationsWorkspace& ws, double t, const double* z, double* x) const;
  // dz/dt at (t, z): q̇ = ρ y, ṗ = ρᵀ∂L/∂q + C^γ_{βα} y^β p_γ + Q + Aᵀλ, y = y(t, q, p).
  void momentumRhs(EquationsWorkspace& ws, double t, const double* z, double* dzdt) const;

  // Makes initial velocities consistent with the constraints. Velocities with keep[α] set
  // are held fixed (keep may be shorter than m: the rest are free); the others change as
  // little as possible (metric M). Returns false when the free velocities cannot satisfy
  // the constraints (the caller then frees more).
  bool completeVelocities(EquationsWorkspace& ws, double t, double* x,
                          const std::vector<bool>& keep) const;

  // Largest |Φ| and |g| at (t, x). Needs no workspace and allocates nothing.
  double residual(double t, const double* x) const;

  // E_L at (t, x), for callers that only need that number.
  double energy(EquationsWorkspace& ws, double t, const double* x) const;

 private:
  friend class EquationsWorkspace;
  using Workspace = EquationsWorkspace::Data;
  EquationsOfMotion(std::shared_ptr<const CompiledEquations> compiled, Formulation formulation);
  Workspace& prepare(EquationsWorkspace& ws) const;  // sizes ws for compiled_
  // equations.cpp: v, ẏ, λ into ws by the configured backend and formulation.
  void accelerations(Workspace& w, double t, const double* q, const double* y,
                     const double* mu) const;
  // tape_builder.cpp / jets_backend.cpp: v, p, F, M, A, b, Φ, L at (t, q, y, μ).
  void loadTaped(Workspace& w, double t, const double* q, const double* y, const double* mu) const;
  void loadJets(Workspace& w, double t, const double* q, const double* y, const double* mu) const;
  void velocityJacobian(Workspace& w, double t, const double* q,
                        const double* y) const;                                     // w.phiV, w.A
  void massMatrix(Workspace& w, double t, const double* q, const double* y) const;  // w.M
  // multipliers.cpp / gibbs_appell.cpp: ẏ and λ from M, F, A, b in ws.
  void solveMultipliers(Workspace& w, double t) const;
  void solveGibbsAppell(Workspace& w, double t) const;
  // hamiltonian.cpp: y from p into w.yHam (Newton), w loaded at the solution.
  void invertLegendre(Workspace& w, double t, const double* q, const double* p) const;
  // F completed after a load: the C-term where the tape did not add it, and Q (into w.Q too).
  void completeForce(Workspace& w, double t, const double* q, const double* y) const;
  // C^γ_{βα} y^β p_γ added to `target` (m entries), for the structure functions not on the tape.
  void addStructureTerm(Workspace& w, const double* q, const double* y, const double* p,
                        double* target) const;
  [[noreturn]] void throwSingular(const char* what, double t, const Eigen::MatrixXd& matrix) const;

  std::shared_ptr<const CompiledEquations> compiled_;
  Formulation formulation_;
};

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
