// Time integration of the equations of motion (the steppers of steppers.h, made by the rows of
// integrators.h), with constraint-drift control after every accepted step (project y onto
// Φ = 0, q onto g = 0, renormalise quaternions), the singularity search (singularity_watch.h)
// and the growth watch of vakonomic runs (growth_watch.h).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/nh/dynamics.h"
#include "core/nh/growth_watch.h"
#include "core/nh/integrators.h"
#include "core/nh/singularity_watch.h"

namespace nh {

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
  void setGrowthLookahead(double seconds) { growth_.setLookahead(seconds); }
  // Called with the current time every kCheckSteps step attempts of advance() (accepted or
  // rejected), between samples too: a caller that must be able to stop a long integration (a
  // signal in nhsim, a new job in nhlab's worker) throws from it; advance() lets the exception
  // through and the state stays at the last accepted step. Empty: none.
  using StepCheck = std::function<void(double t)>;
  void setStepCheck(StepCheck check) { stepCheck_ = std::move(check); }
  static constexpr std::int64_t kCheckSteps = 64;

  // Integrates to tEnd, calling onSample at every t = origin + i·dtOut in (time(), tEnd]
  // (origin is the time given to setState; t computed from the integer i, compared with tEnd
  // exactly: every t ≤ tEnd). The state afterwards is exactly at tEnd. Returns whether a
  // sample was delivered at tEnd itself (false when tEnd is off the grid: a caller that wants
  // a last row at tEnd takes time() and state()). Throws InputError when dtOut is below
  // 4·machine epsilon·|t| (output times would not be distinct doubles), or a fixed step is.
  // Throws IntegrationError (with the time) on a blow-up or, stepping with discrete-gradient,
  // at a sample where the reference frame no longer satisfies the constraints
  // (checkReferenceFrame, run_checks.h; the samples before are delivered), SingularSystemError
  // if the system stops being regular or reaches a point where its equations are not defined
  // (SystemInfo::singularities: one of s_i(t, q, y) reaches 0 on a step; the samples before
  // that time are delivered, the state stays at the start of that step).
  bool advance(double tEnd, double dtOut, const SampleCallback& onSample);

  std::int64_t stepsTaken() const { return steps_; }  // accepted steps since setState
  // Steps the reconstruction handed back as too long for its tolerance (statistics).
  std::int64_t reconstructionRejections() const { return reconstructionRejections_; }
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
  // New equations of the same system: the stepper is bound to them, the run restarts there.
  void useEquations(std::shared_ptr<const EquationsOfMotion> equations);

  std::shared_ptr<const EquationsOfMotion> equations_;
  EquationsWorkspace workspace_;
  // The scratch of the state at the end of a call that ends inside a step (it leaves the warm
  // starts in workspace_ as one longer call would).
  EquationsWorkspace endWorkspace_;
  IntegratorOptions options_;
  double t_ = 0;
  double origin_ = 0;
  std::int64_t nextSample_ = 0;
  double lastDtOut_ = 0;
  std::vector<double> x_;
  std::vector<double> sample_;  // the state at an output time, handed to the callback
  // The state before a step of a stepper without dense output (where a singular point sends
  // the state back to).
  std::vector<double> previous_;
  SingularityWatch singularities_;
  std::unique_ptr<Integration> integration_;
  std::int64_t steps_ = 0;
  GrowthWatch growth_;
  StepCheck stepCheck_;
  std::int64_t reconstructionRejections_ = 0;
};

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
