// Adaptive one-step integrators with dense output, behind one interface, for Simulation
// (not for callers outside core/nh). Each controls the error of the state it is given —
// with reconstruction (reconstruction.h) that is the reduced state only.
#pragma once

#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace nh {

// dx/dt at (t, x), both of the stepper's size.
using StepperRhs = std::function<void(double t, const double* x, double* dxdt)>;

class DenseStepper {
 public:
  virtual ~DenseStepper() = default;
  // Starts from x (size entries) at t with dt as the first trial step.
  virtual void initialize(const double* x, int size, double t, double dt) = 0;
  // One accepted step (rejected trials are retried inside): returns (t0, t1). Throws
  // std::runtime_error when the step size underflows.
  virtual std::pair<double, double> doStep(const StepperRhs& f) = 0;
  // The state at τ in [t0, t1] of the last step, from the method's continuous extension.
  virtual void calcState(const StepperRhs& f, double tau, double* x) = 0;
  virtual const double* currentState() const = 0;
  virtual double currentTimeStep() const = 0;  // the next trial step
  // Retakes the last step from its start with a shorter trial step (a caller that found
  // the step unacceptable for its own reasons, such as reconstruction).
  virtual void rejectLast(double shorterStep) = 0;
  virtual int order() const = 0;
  // Whether calcState is accurate enough to carry reconstructed coordinates over a step
  // (reconstruction.h): a continuous extension at most one order below the method's
  // (dopri5: 4 of 5, dop853: 7 of 8, BDF: its own polynomial). ARKODE's Hermite interpolant
  // measures order 4 under an 8th-order method (steppers_test): not.
  virtual bool denseOutputCarriesReconstruction() const { return true; }
  // Whether the stepper's state is more than its last point (BDF's history): a restart
  // (after a projection) sends it back to order 1.
  virtual bool keepsHistory() const { return false; }
  // The time scale of the run (1 s, or a shorter whole span): a trial step below 1e-14 of
  // it (or of t) counts as a step-size underflow, where the stepper checks that itself.
  virtual void setTimeScale(double /*scale*/) {}
};

// Dormand–Prince 8(5,3) with its 7th-order dense output (Hairer's DOP853): error
// control and step-size rule as Hairer's code (RMS norm over atol + rtol·max(|y₀|,|y₁|),
// exponent −1/8, safety 0.9, factors in [0.2, 10], no increase right after a rejection).
std::unique_ptr<DenseStepper> makeDop853(double atol, double rtol);
// Boost.Odeint's Dormand–Prince 5(4) with its dense output.
std::unique_ptr<DenseStepper> makeOdeintDopri5(double atol, double rtol);

// SUNDIALS 6.4 (sundials_steppers.cpp), one internal step per doStep, the solver's own dense
// output and step-size control (weighted RMS norm over rtol·|y| + atol); errors the solver
// reports are std::runtime_error naming the flag (e.g. "CVODE CVode: CV_TOO_MUCH_ACC").
// ARKODE ERKStep with the Fehlberg 7(8) table; dense output: ARKODE's Hermite interpolant of
// degree 5, which measures as order 4 (steppers_test): Simulation never reconstructs with it.
std::unique_ptr<DenseStepper> makeArkodeFehlberg78(double atol, double rtol);
// CVODE BDF (orders 1–5, Newton, dense LU, difference-quotient Jacobian) for stiff problems.
// Each initialize or rejectLast restarts at order 1, so Simulation restarts it after a
// projection only when that moved the state by more than the tolerance (keepsHistory).
std::unique_ptr<DenseStepper> makeCvodeBdf(double atol, double rtol);

}  // namespace nh
