// One-step integrators behind one interface, for Simulation (not for callers outside
// core/nh). Each controls the error of the state it is given — with reconstruction
// (reconstruction.h) that is the reduced state only.
#pragma once

#include <functional>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

namespace nh {

struct IntegratorFit;
struct IntegratorTarget;

class EquationsOfMotion;

// dx/dt at (t, x), both of the stepper's size.
using StepperRhs = std::function<void(double t, const double* x, double* dxdt)>;
// The stepper's state x at t moved onto the constraint manifold, in place (drift control
// inside the steps of a stepper that takes it: setProjection).
using StepperProjection = std::function<void(double t, double* x)>;

// A step that cannot be taken: the step size underflowed, or the method gave up.
class StepFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What a stepper provides. Simulation::advance drives every stepper through the same loop
// with these calls only, so a new method (a geometric integrator such as nonholonomic RATTLE
// or a discrete-gradient method: fixed step, acting on the whole state with the constraint)
// is one more class and one more row of kIntegrators (integrators.h), which makes it:
//  - initialize, doStep, currentState, currentTimeStep: its own state, stepped one accepted
//    step at a time (rejected trials are retried inside doStep); the loop initializes it
//    again wherever the simulation's state moved under it (a projection, new parameters);
//  - doStep throws StepFailure when the step size underflows; errors of f pass through;
//  - calcState: the state anywhere in the last step, from a continuous extension or, for a
//    stepper without dense output (hasDenseOutput false), the chord between the step's ends;
//  - hasDenseOutput: with dense output the loop lets steps pass output times and the end of
//    the run, and interpolates the samples; without, the loop hands the next output time to
//    setStopTime before each step and the stepper ends its step exactly there when it would
//    pass it, so every sample is a step's end;
//  - the properties below the pure functions, each with a default that suits most methods.
// A method that needs more than f (RATTLE needs the constraint Φ, its Jacobian and the mass
// matrix) is bound to the equations it steps: made for them, and bound again by bind() when
// the simulation's equations change (setParameters, setFormulation), before the old ones are
// let go. Such a method says no to denseOutputCarriesReconstruction, so it is always given
// the whole state.
class Stepper {
 public:
  virtual ~Stepper() = default;
  // Starts from x (size entries) at t with dt as the first trial step (the step, for a
  // fixed-step method).
  virtual void initialize(const double* x, int size, double t, double dt) = 0;
  // One accepted step: returns (t0, t1). Throws StepFailure (or, from a solver library, another
  // std::runtime_error) when the step size underflows.
  virtual std::pair<double, double> doStep(const StepperRhs& f) = 0;
  // The state at τ in [t0, t1] of the last step.
  virtual void calcState(const StepperRhs& f, double tau, double* x) = 0;
  virtual const double* currentState() const = 0;
  virtual double currentTimeStep() const = 0;  // the next trial step
  // Retakes the last step from its start with a shorter trial step (a caller that found
  // the step unacceptable for its own reasons, such as reconstruction).
  virtual void rejectLast(double shorterStep) = 0;
  virtual int order() const = 0;

  // The equations to step from the next initialize on (the stepper keeps a reference to them,
  // which stays valid until the next bind): for a method that reads more than f. The
  // default: f is all it reads.
  virtual void bind(const EquationsOfMotion& /*equations*/) {}
  // Whether calcState is a continuous extension of the method (see above).
  virtual bool hasDenseOutput() const { return true; }
  // The next output time or the end of the run, before each step: a stepper without dense
  // output ends its next step there when the step would pass it.
  virtual void setStopTime(double /*t*/) {}
  // Whether calcState is accurate enough to carry reconstructed coordinates over a step
  // (reconstruction.h): a continuous extension at most one order below the method's
  // (dopri5: 4 of 5, dop853: 7 of 8, BDF: its own polynomial). ARKODE's Hermite interpolant
  // measures order 4 under an 8th-order method (steppers_test): not.
  virtual bool denseOutputCarriesReconstruction() const { return true; }
  // A stepper whose state is more than its last point (BDF's history, which a restart sends
  // back to order 1) applies the projection inside each step, to the corrected state
  // before its error test, so that its history stays consistent (CVODE's projection): the
  // loop then never restarts it to project. Given before initialize; an empty function turns
  // it off. Returns whether the stepper takes it (the default: no, the loop projects between
  // steps and restarts the stepper there).
  virtual bool setProjection(StepperProjection /*project*/) { return false; }
  // The time scale of the run (1 s, or a shorter whole span): a trial step below 1e-14 of
  // it (or of t) counts as a step-size underflow, where the stepper checks that itself.
  virtual void setTimeScale(double /*scale*/) {}
  // Whether the step proposed after a step that ended at t is an underflow (below 1e-14 of
  // |t| and of the time scale): checked after every step of a stepper with dense output,
  // whose solvers do not all check their proposals. A stepper without dense output checks
  // its own trial steps in doStep (or has a fixed one).
  virtual bool nextStepUnderflows(double t, double timeScale) const;
};

// Dormand–Prince 8(5,3) with its 7th-order dense output (Hairer's DOP853): error
// control and step-size rule as Hairer's code (RMS norm over atol + rtol·max(|y₀|,|y₁|),
// exponent −1/8, safety 0.9, factors in [0.2, 10], no increase right after a rejection).
std::unique_ptr<Stepper> makeDop853(double atol, double rtol);
// Boost.Odeint's Dormand–Prince 5(4) with its dense output.
std::unique_ptr<Stepper> makeOdeintDopri5(double atol, double rtol);

// Without dense output, ending their steps at the stop time (setStopTime): Boost.Odeint's
// Runge–Kutta–Fehlberg 7(8), controlled (an underflow: 500 rejected trials in a row, or a
// trial step below 1e-14 of |t| and of the time scale), and its classic RK4 with a fixed step.
// A step cut short to end at a stop time leaves the step proposed for the next one as it was
// (rk78 unless the cut step was itself rejected).
std::unique_ptr<Stepper> makeOdeintFehlberg78(double atol, double rtol);
std::unique_ptr<Stepper> makeOdeintRk4();
// nh-rattle (rattle.cpp): symmetric projection around the implicit midpoint rule, second
// order, time-symmetric, fixed step, landing on the stop times like rk4; it holds the
// velocity constraints, the holonomic ones and the unit norm of each attitude quaternion to
// round-off at every step. Bound to `equations` (Stepper::bind); initialize throws InputError
// in one line with the refusal of its row (vakonomic dynamics, the hamiltonian formulation,
// systems that cannot be taped); doStep throws StepFailure naming the step when Newton's
// method does not converge.
std::unique_ptr<Stepper> makeNhRattle(const EquationsOfMotion& equations);
// discrete-gradient (discrete_gradient.cpp): the Gonzalez midpoint discrete gradient on the
// almost-Poisson form of the equations in (q, v), v the independent velocities, second order,
// symmetric, fixed step, landing on the stop times like rk4. The conserved quantity (the energy,
// or with affine constraints the energy in the declared reference frame) changes only by
// round-off, the velocity constraints hold by construction. Bound to `equations`
// (Stepper::bind); initialize throws InputError in one line for what discrete_gradient.h
// refuses; doStep throws StepFailure naming the step when Newton's method does not converge.
std::unique_ptr<Stepper> makeDiscreteGradient(const EquationsOfMotion& equations);

// SUNDIALS 6.4 (sundials_steppers.cpp), one internal step per doStep, the solver's own dense
// output and step-size control (weighted RMS norm over rtol·|y| + atol); errors the solver
// reports are std::runtime_error naming the flag (e.g. "CVODE CVode: CV_TOO_MUCH_ACC").
// ARKODE ERKStep with the Fehlberg 7(8) table; dense output: ARKODE's Hermite interpolant of
// degree 5, which measures as order 4 (steppers_test): Simulation never reconstructs with it.
std::unique_ptr<Stepper> makeArkodeFehlberg78(double atol, double rtol);
// CVODE BDF (orders 1–5, Newton, dense LU, difference-quotient Jacobian) for stiff problems.
// Each initialize or rejectLast restarts at order 1; drift control goes through CVODE's own
// projection (setProjection), which keeps the history, so a projection never restarts it.
std::unique_ptr<Stepper> makeCvodeBdf(double atol, double rtol);
// Whether this build has them: "" where it does; where it does not (the web engine,
// sundials_absent.cpp) one line saying so and naming the integrators that work, and the two
// factories above throw InputError with it.
IntegratorFit sundialsIntegratorFit(const IntegratorTarget& target);

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
