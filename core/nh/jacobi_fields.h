// Jacobi fields along a motion: the variational equations δẋ = ∂f/∂x δx of the nonholonomic
// right-hand side ẋ = f(t, x), x = (q, y), integrated beside a run from the tape's exact
// Jacobian (StateDerivatives, state_derivatives.h), forced by ∂f/∂p for a parameter p (the
// pieces differentiated with p a variable of the tape, equation_pieces.h). Two readers: the
// sensitivities of `nhsim run --sensitivity` (d<column>/d<initial value or parameter>,
// RunSensitivities) and the finite-time Lyapunov exponents of `nhsim lyapunov`
// (lyapunovExponents, Benettin's QR method on the tangent space of the constraint manifold).
//
// The fields are carried from one sample of the run to the next by a companion integration
// of the augmented state (x, S) with the run's integrator and tolerances (the error control
// covers x and S together). It goes on from its own state while that is the run's at the
// samples (to 100 tolerances), and restarts from the run's (projected) state where it is not:
// S is the derivative of the run's motion to the tolerance.
#pragma once

#include <Eigen/Dense>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/nh/integrators.h"
#include "core/nh/scenario.h"

namespace nh {

class ScenarioRun;

// The integrators with a variational form here (explicit Runge–Kutta methods, whose steps
// the augmented state goes through unchanged), in table order.
std::vector<std::string> variationalIntegrators();
// "" when Jacobi fields can be integrated for a run of `dynamics` with `method`; else one line
// naming `what` ("--sensitivity", "lyapunov") and what would do.
std::string variationalRefusal(const std::string& what, Integrator method, DynamicsKind dynamics);

// The start's derivatives with respect to the initial values `names` (coordinates or
// velocities of the nonholonomic layout) at the completed start x0, one column each: the entry
// moved by one, made consistent as the start is (the quaternion's norm, the holonomic
// constraints as EquationsOfMotion::project meets them: a declared dependent coordinate is
// fixed by the others, so its field is zero), and the velocities completed with NAME, the
// model's independent velocities and those `given` held, the others changing least in the
// kinetic-energy metric (freeing more, as the start does, when those cannot meet the
// constraints).
Eigen::MatrixXd initialValueSeeds(const EquationsOfMotion& equations, double t,
                                  const std::vector<double>& x0,
                                  const std::map<std::string, double>& given,
                                  const std::vector<std::string>& names);

// The start's derivatives with respect to the parameters `parameters` (indices into the
// system's), one column each: the velocities completed through the constraints' change with
// the parameter (Φ_q δq + A δy + ∂Φ/∂p = 0) with the model's independent velocities and
// those `given` held, as for an initial value; the coordinates do not move (systems with
// holonomic constraints are refused).
Eigen::MatrixXd parameterSeeds(const EquationsOfMotion& equations, double t,
                               const std::vector<double>& x0,
                               const std::map<std::string, double>& given,
                               const std::vector<int>& parameters);

// Fields S (state size × columns) carried along a run's samples (see the top of the file).
class JacobiFlow {
 public:
  // From the fields S0 at the run's start (t0, x0); its last columns, one for each of
  // `parameters` (indices into the system's parameters), are sensitivities to them (their
  // fields forced by ∂f/∂p). Throws InputError for equations without an exact Jacobian
  // (vakonomic, not taped) or an integrator without a variational form.
  JacobiFlow(std::shared_ptr<const EquationsOfMotion> equations, const IntegratorOptions& options,
             Eigen::MatrixXd S0, double t0, const double* x0, std::vector<int> parameters = {});
  ~JacobiFlow();
  JacobiFlow(const JacobiFlow&) = delete;
  JacobiFlow& operator=(const JacobiFlow&) = delete;

  // Carries the fields to the run's next sample (t, x), t ≥ the last one, then starts from x.
  // Throws IntegrationError when the companion's steps fail.
  void advanceTo(double t, const double* x);
  // The run's equations changed (a timed edit): the fields go on with these.
  void setEquations(std::shared_ptr<const EquationsOfMotion> equations);
  const EquationsOfMotion* equations() const;
  const Eigen::MatrixXd& fields() const;
  // New fields at the last sample (re-orthonormalised ones): the companion starts from them.
  void setFields(Eigen::MatrixXd S);
  // An orthonormal basis (columns) of the tangent space of the constraint manifold at (t, x):
  // the null space of the Jacobian of the quaternions' norms, g, and Φ then ġ.
  Eigen::MatrixXd tangentBasis(double t, const double* x);
  std::int64_t steps() const;  // accepted steps of the companion

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The sensitivity columns of one run (`nhsim run --sensitivity`).
class RunSensitivities {
 public:
  // Names (initial values or parameters) checked against the scenario's system; throws
  // InputError in one line for an unknown name (listing what is allowed), a parameter of a
  // system with holonomic constraints, a refused integrator or dynamics. The constructor
  // also refuses a parameter the system's functions read as a number, not on the tape.
  static void check(const SystemModel& system, const Scenario& scenario,
                    const std::vector<std::string>& names);
  RunSensitivities(const ScenarioRun& run, const Scenario& scenario,
                   std::vector<std::string> names);
  ~RunSensitivities();
  // d<column>/d<name> for each name, then each state column.
  const std::vector<std::string>& columns() const { return columns_; }
  // Appends this sample's fields to `row` (the run's sample (t, x)); throws IntegrationError
  // "… blew up at t = … (dC/dN is no longer finite)" when one overflowed.
  void sample(ScenarioRun& run, double t, const double* x, std::vector<double>& row);
  std::int64_t steps() const { return flow_->steps(); }  // the companion's accepted steps

 private:
  std::vector<std::string> names_, columns_;
  std::vector<int> order_;    // the state entry of each state column
  std::vector<int> fieldOf_;  // the column of the fields of each name
  std::string system_;
  std::unique_ptr<JacobiFlow> flow_;
  const EquationsOfMotion* runEquations_ = nullptr;  // those the fields go on with
};

// The finite-time Lyapunov exponents of one run.
struct LyapunovEstimate {
  int dimension = 0;              // of the tangent space of the constraint manifold at the start
  double tHalf = 0;               // the sample at which the first estimate was taken (≥ T/2)
  double tEnd = 0;                // T
  std::vector<double> half, end;  // the `count` largest, at tHalf and at T
  std::int64_t steps = 0;         // companion steps
};
// Benettin's method: `count` orthonormal fields in the tangent space integrated with the run
// of `scenario` to its t-end; at every sample (dt-out) the QR factorisation of the fields
// projected onto the tangent space gives the estimate (the logarithms of R's diagonal summed
// since the start, over t), and the fields are re-orthonormalised (replaced by Q) where their
// columns' sizes part by more than 10⁶. Throws InputError for
// count < 1 or above the free dimension, a t-end ≤ 0, a refused integrator or dynamics.
LyapunovEstimate lyapunovExponents(std::shared_ptr<const SystemModel> system,
                                   const Scenario& scenario, int count);

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
