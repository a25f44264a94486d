// Equations of motion of a constrained system on a Lie algebroid (theory §2 and §3).
//
// State layout: x = [q (n), y (m), μ (k+h, vakonomic only)].
// Nonholonomic:  M ẏ − Aᵀ λ = F,  A ẏ = b                                   (theory §2)
// Vakonomic:     the same system for L̃ = L + μ·Φ with λ = −μ̇                (theory §3)
// Two independent solutions of that system are selectable: multipliers (KKT through
// A M⁻¹ Aᵀ) and Gibbs–Appell in constraint-adapted quasi-velocities (null space of A).
#pragma once

#include <Eigen/Dense>
#include <memory>
#include <string>
#include <vector>

#include "core/nh/system.h"

namespace nh {

enum class DynamicsKind { Nonholonomic, Vakonomic };
// How the derivatives are evaluated: a compiled tape of the system's functions (default,
// fast) or forward-mode jets at every call (the reference; also the fallback when a system
// cannot be taped). Both must give the same equations (a test).
enum class Backend { Taped, Jets };
enum class Formulation { Multipliers, GibbsAppell };

std::string toString(DynamicsKind kind);     // "nonholonomic" | "vakonomic"
std::string toString(Formulation formulation);  // "multipliers" | "gibbs-appell"
DynamicsKind parseDynamics(const std::string& text);      // throws InputError
Formulation parseFormulation(const std::string& text);    // throws InputError

// Fixed-capacity Eigen types: sized at run time, never heap-allocated.
using VecY = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxVelocities, 1>;
using VecK = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxConstraints, 1>;
using VecQ = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxCoordinates, 1>;
using MatY = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxVelocities, kMaxVelocities>;
using MatKY = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxConstraints, kMaxVelocities>;
using MatYK = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxVelocities, kMaxConstraints>;
using MatK = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxConstraints, kMaxConstraints>;
using MatQY = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxCoordinates, kMaxVelocities>;

// Everything reported at one state (theory §4).
struct Observables {
  double energy = 0;  // E_L = p·y − L
  VecK phi;           // all k + h velocity-level residuals (Φ then ġ)
  VecK g;             // holonomic residuals g(t, q), h
  VecK lambda;        // multipliers (nonholonomic) or −μ̇ (vakonomic), k + h
  VecY ydot;          // accelerations
  VecY reaction;      // reaction force in the algebroid basis, Aᵀλ
};

struct EquationsWorkspace;

class EquationsOfMotion {
 public:
  EquationsOfMotion(std::shared_ptr<const SystemModel> system, DynamicsKind dynamics,
                    Formulation formulation = Formulation::Multipliers);
  ~EquationsOfMotion();
  EquationsOfMotion(const EquationsOfMotion& other);
  EquationsOfMotion& operator=(const EquationsOfMotion& other);

  const SystemModel& system() const { return *system_; }
  std::shared_ptr<const SystemModel> systemPtr() const { return system_; }
  DynamicsKind dynamics() const { return dynamics_; }
  Formulation formulation() const { return formulation_; }
  void setFormulation(Formulation f);
  Backend backend() const { return backend_; }
  void setBackend(Backend backend);  // Taped falls back to Jets if the system cannot be taped
  bool isTaped() const;              // the taped backend is in use (not fallen back)
  // The compiled right-hand side, one instruction a line (empty unless taped); for
  // inspection and the benchmark.
  std::string compiledListing() const;
  int stateSize() const;  // n + m (+ k + h when vakonomic)

  // Parameter values in the order of system().info().parameters; not range-checked here.
  void setParameters(const std::vector<double>& values);
  const std::vector<double>& parameters() const { return parameters_; }

  // dx/dt at (t, x); x and dxdt have stateSize() entries. Throws SingularSystemError.
  void rhs(double t, const double* x, double* dxdt) const;

  // Energy, residuals, multipliers, accelerations and reactions at (t, x).
  void observe(double t, const double* x, Observables& out) const;

  // Drift control after a step: normalise quaternions, Gauss–Newton q onto g = 0, then
  // project y onto Φ = 0 in the kinetic-energy metric M. Returns the largest residual left.
  double project(double t, double* x) const;

  // Makes initial velocities consistent with the constraints. Velocities with keep[α] set
  // are held fixed; the others change as little as possible (metric M). Returns false when
  // the free velocities cannot satisfy the constraints (the caller then frees more).
  bool completeVelocities(double t, double* x, const std::vector<bool>& keep) const;

  // Largest |Φ| and |g| at (t, x).
  double residual(double t, const double* x) const;

  // Ready-made observers, for callers that only need one number.
  double energy(double t, const double* x) const;

 private:
  void accelerations(double t, const double* q, const double* y, const double* mu) const;
  void velocityJacobian(double t, const double* q, const double* y) const;  // ws.phiV, ws.A
  void massMatrix(double t, const double* q, const double* y) const;        // ws.M
  void buildTape();
  void loadTaped(double t, const double* q, const double* y, const double* mu) const;
  [[noreturn]] void throwSingular(const char* what, double t, const Eigen::MatrixXd& matrix) const;

  std::shared_ptr<const SystemModel> system_;
  DynamicsKind dynamics_;
  Formulation formulation_;
  Backend backend_ = Backend::Taped;
  std::vector<double> parameters_;
  std::unique_ptr<EquationsWorkspace> ws_;
};

}  // namespace nh
