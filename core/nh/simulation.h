// Time integration of the equations of motion (the steppers of steppers.h), with constraint-drift
// control after every accepted step (project y onto Φ = 0, q onto g = 0, renormalise
// quaternions).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/nh/dynamics.h"

namespace nh {

enum class Integrator {
  Dopri5,
  Dop853,
  Rk78,
  Rk4,
  Fehlberg78Arkode,
  BdfCvode,
  NhRattle,
  DiscreteGradient
};
// The integrators by name (named_choice.h), as the command line, scenario files and the app
// name them. The default is IntegratorOptions'.
inline constexpr NamedChoice<Integrator> kIntegratorChoices[] = {
    {Integrator::Dopri5, "dopri5", "Dormand–Prince 5(4), adaptive, dense output"},
    {Integrator::Dop853, "dop853", "Dormand–Prince 8(5,3), adaptive, dense output"},
    {Integrator::Rk78, "rk78", "Runge–Kutta–Fehlberg 7(8), adaptive"},
    {Integrator::Rk4, "rk4", "classical Runge–Kutta 4, fixed step"},
    {Integrator::Fehlberg78Arkode, "arkode78",
     "Fehlberg 7(8) of SUNDIALS ARKODE, adaptive, dense output"},
    {Integrator::BdfCvode, "bdf", "BDF of SUNDIALS CVODE, for stiff systems"},
    {Integrator::NhRattle, "nh-rattle",
     "nonholonomic RATTLE: symmetric projection around the implicit midpoint rule, fixed step, "
     "second order, time-symmetric, constraints held to round-off"},
    {Integrator::DiscreteGradient, "discrete-gradient",
     "Gonzalez midpoint discrete gradient on the almost-Poisson form, fixed step, second "
     "order, energy (or the energy in the constraints' reference frame) kept to round-off"},
};
std::string toString(Integrator integrator);  // its name in kIntegratorChoices
// Whether the integrator takes the fixed step IntegratorOptions::step (rk4, nh-rattle,
// discrete-gradient), landing on every output time, rather than choosing its steps.
inline bool isFixedStep(Integrator integrator) {
  return integrator == Integrator::Rk4 || integrator == Integrator::NhRattle ||
         integrator == Integrator::DiscreteGradient;
}
// The integrator named `text`; throws InputError "unknown integrator 'TEXT' (allowed: …)".
Integrator parseIntegrator(const std::string& text);

// Throws InputError, in one line, when `integrator` cannot step `dynamics` in `formulation`:
// nh-rattle and discrete-gradient step nonholonomic dynamics in (q, y) only (not vakonomic,
// not hamiltonian). What discrete-gradient refuses besides depends on the system
// (discrete_gradient.h).
void checkIntegratorApplies(Integrator integrator, DynamicsKind dynamics, Formulation formulation);

// The largest step budget (--max-steps, a scenario's integrator.max_steps) accepted.
inline constexpr long kMaxStepBudget = 1'000'000'000'000;

struct IntegratorOptions {
  // Adaptive with dense output: Dormand–Prince 5(4) (odeint) or 8(5,3) (DOP853,
  // steppers.h); rk78: odeint's Fehlberg 7(8), controlled; rk4: fixed step; arkode78:
  // SUNDIALS ARKODE's Fehlberg 7(8) with dense output; bdf: SUNDIALS CVODE's BDF (stiff).
  Integrator method = Integrator::Dopri5;
  double rtol = 1e-10;
  double atol = 1e-12;
  double step = 1e-3;  // fixed step (rk4) or first trial step (adaptive)
  bool projection = true;
  // With the dense-output steppers: coordinates the equations do not read are reconstructed
  // over each step instead of being stepped (reconstruction.h).
  bool reconstruction = true;
  long maxSteps = 20'000'000;  // per advance() call: a run that needs more stops with an error
  // Throws InputError for non-positive, non-finite or tiny values (a step below 1e-12,
  // rtol below 10·machine epsilon, atol below 1e-200) and a step budget outside
  // [1, kMaxStepBudget].
  void validate() const;
};

class Simulation {
 public:
  // Called at each output time with the (projected) state.
  using SampleCallback = std::function<void(double t, const double* x)>;

  Simulation(std::shared_ptr<const SystemModel> system, DynamicsKind dynamics,
             Formulation formulation = Formulation::Multipliers, IntegratorOptions options = {});
  // On compiled equations that may be shared with other simulations (on other threads).
  explicit Simulation(std::shared_ptr<const EquationsOfMotion> equations,
                      IntegratorOptions options = {});
  ~Simulation();

  const EquationsOfMotion& equations() const { return *equations_; }
  std::shared_ptr<const EquationsOfMotion> equationsPtr() const { return equations_; }
  // This simulation's scratch space for calls of equations() (observe, energy...) between
  // advance() calls or from its sample callback; never to be shared with another thread.
  EquationsWorkspace& workspace() { return workspace_; }
  const IntegratorOptions& options() const { return options_; }
  void setOptions(const IntegratorOptions& options);

  // Sets the state (size equations().stateSize()) at time t. Restarts the stepper.
  void setState(double t, const std::vector<double>& x);
  double time() const { return t_; }
  const std::vector<double>& state() const { return x_; }

  // Takes effect from the current state on (the stepper restarts there); velocities are
  // projected onto the constraints as they read with the new values. New parameter values
  // compile new equations (the tape folds them in), unless only free parameters of the
  // equations change (EquationsOfMotion::withFreeParameters).
  void setParameters(const std::vector<double>& values);
  // Other equations of the same system (other parameter values, say) for the next setState:
  // the state is left as it is, the stepper restarts.
  void setEquations(std::shared_ptr<const EquationsOfMotion> equations);
  void setFormulation(Formulation formulation);
  // For callers that advance in short pieces without an end (nhlab's worker): the growth
  // watch of vakonomic runs (watchGrowth) then estimates the steps to at least t + seconds
  // instead of to the piece's tEnd. 0 (the default): to tEnd only.
  void setGrowthLookahead(double seconds) { growthLookahead_ = seconds; }
  // Called with the current time every kCheckSteps step attempts of advance() (accepted or
  // rejected), between samples too: a caller that must be able to stop a long integration (a
  // signal in nhsim, a new job in nhlab's worker) throws from it; advance() lets the exception
  // through and the state stays at the last accepted step. Empty: none.
  using StepCheck = std::function<void(double t)>;
  void setStepCheck(StepCheck check) { stepCheck_ = std::move(check); }
  static constexpr long kCheckSteps = 64;

  // Integrates to tEnd, calling onSample at every t = origin + i·dtOut in (time(), tEnd]
  // (origin is the time given to setState; t computed from the integer i, compared with tEnd
  // exactly: every t ≤ tEnd). The state afterwards is exactly at tEnd. Returns whether a
  // sample was delivered at tEnd itself (false when tEnd is off the grid: a caller that wants
  // a last row at tEnd takes time() and state()). Throws InputError when dtOut is below
  // 4·machine epsilon·|t| (output times would not be distinct doubles), or an rk4 step is.
  // Throws IntegrationError (with the time) on a blow-up or, stepping with discrete-gradient,
  // at a sample where the reference frame no longer satisfies the constraints
  // (checkReferenceFrame, run_checks.h; the samples before are delivered), SingularSystemError
  // if the system stops being regular or reaches a point where its equations are not defined
  // (SystemInfo::singularities: one of s_i(t, q, y) reaches 0 on a step; the samples before
  // that time are delivered, the state stays at the start of that step).
  bool advance(double tEnd, double dtOut, const SampleCallback& onSample);

  long stepsTaken() const { return steps_; }  // accepted steps since setState
  // Steps the reconstruction handed back as too long for its tolerance (statistics).
  long reconstructionRejections() const { return reconstructionRejections_; }
  // Whether the stepper now integrates a reduced state (reconstruction.h).
  bool reconstructs() const;

 private:
  struct Integration;  // the stepper (steppers.h) and the reduction it integrates
  struct Run;          // one call of advance()
  // Throws on a blow-up (a non-finite entry), naming it; x holds the entries `reduced` lists
  // when given (the reduced state of reconstruction.h), else the whole state.
  void checkState(double t, const double* x, int size,
                  const std::vector<int>* reduced = nullptr) const;
  void emitSample(double t, std::vector<double>& x, const SampleCallback& onSample);
  // The first time where a singular function (SystemInfo::singularities) reaches 0 on the
  // step [t0, t1], or, by the look-ahead, within one more step length (up to t0 + 2(t1 − t0)),
  // the state along it given by stateAt(τ, x); -1 if none does.
  // Sets singularIndex_ to the function's index.
  template <class StateAt>
  double firstSingularity(double t0, double t1, StateAt&& stateAt);
  [[noreturn]] void throwSingularity(double t) const;
  // Vakonomic runs: watches max |μ| after every accepted step. Where it grows exponentially
  // (e^{t/τ}, measured from its last two tenfold increases to now, every 256 steps) and the
  // steps per unit time do not fall, the steps to tEnd are estimated (at least today's rate
  // times the time left); more than the remaining step budget stops the run now with
  // IntegrationError naming τ, instead of when the budget is spent.
  void watchGrowth(double t, const double* x, double tEnd, long stepsThisCall);

  std::shared_ptr<const EquationsOfMotion> equations_;
  EquationsWorkspace workspace_;
  IntegratorOptions options_;
  double t_ = 0;
  double origin_ = 0;
  long nextSample_ = 0;
  double lastDtOut_ = 0;
  std::vector<double> x_;
  std::vector<double> sample_;  // the state at an output time, handed to the callback
  std::vector<double> probe_, singularValues_;  // scratch of firstSingularity
  // The state before a step of a stepper without dense output (where a singular point sends
  // the state back to).
  std::vector<double> previous_;
  int singularIndex_ = 0;
  std::unique_ptr<Integration> integration_;
  long steps_ = 0;
  struct GrowthMark {
    double t = 0, logMu = 0;
    long steps = 0;
  };
  GrowthMark growth_[2];  // the last two tenfold increases of max |μ|
  int growthMarks_ = 0;
  double growthLevel_ = 0;  // the next level of max |μ| to mark (0: set at the first step)
  StepCheck stepCheck_;
  double growthLookahead_ = 0;  // setGrowthLookahead
  long reconstructionRejections_ = 0;
};

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
