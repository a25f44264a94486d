// SUNDIALS 6.4 steppers behind Stepper (steppers.h): ARKODE's explicit Runge–Kutta
// module with the Fehlberg 7(8) table, and CVODE's variable-order BDF. Each stepper owns its
// SUNContext and serial vectors; every call runs in ONE_STEP mode, so one doStep is one
// accepted internal step, and the dense output is the solver's own interpolant of that step.
#include <arkode/arkode_erkstep.h>
#include <cvode/cvode.h>
#include <cvode/cvode_proj.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/nh/integrators.h"
#include "core/nh/steppers.h"

namespace nh {

namespace {

// What the two integrators share: the context, the state vectors, the right-hand side
// handed through user data, and errors turned into exceptions instead of stderr output.
class SundialsStepper : public Stepper {
 public:
  SundialsStepper(double atol, double rtol, const char* library, char* (*flagName)(long))
      : atol_(atol), rtol_(rtol), library_(library), flagName_(flagName) {
    if (SUNContext_Create(nullptr, &context_) != 0)
      throw std::runtime_error(std::string(library) + ": SUNContext_Create failed");
  }
  ~SundialsStepper() override {
    destroyVectors();
    SUNContext_Free(&context_);
  }
  SundialsStepper(const SundialsStepper&) = delete;
  SundialsStepper& operator=(const SundialsStepper&) = delete;

  const double* currentState() const override { return N_VGetArrayPointer(y_); }

  // The steps below are the same for both solvers; they differ in the calls of the
  // protected hooks further down.
  void initialize(const double* x, int size, double t, double dt) override {
    if (!solverReady() || size != n_) {
      destroySolver();
      allocate(size);
      copyIn(x, y_);
      createSolver(t);
    } else {
      copyIn(x, y_);
      reinit(t);
    }
    restartAt(t, dt);
  }

  std::pair<double, double> doStep(const StepperRhs& f) override {
    f_ = &f;
    N_VScale(1.0, y_, start_);
    t0_ = t1_;
    double reached = t1_;
    // In ONE_STEP mode tout only gives the direction.
    oneStep(t1_ + 2 * currentTimeStep(), reached);
    t1_ = reached;
    stepped_ = true;
    return {t0_, t1_};
  }

  void calcState(const StepperRhs& f, double tau, double* x) override {
    f_ = &f;  // ARKODE's degree-5 Hermite interpolant evaluates the RHS inside the step
    interpolate(tau);
    copyOut(dense_, x);
  }

  double currentTimeStep() const override { return stepped_ ? lastStep() : firstStep_; }

  void rejectLast(double shorterStep) override {
    N_VScale(1.0, start_, y_);
    reinit(t0_);
    restartAt(t0_, shorterStep);
  }

 protected:
  // The solver's own calls: creation with y_ at t, re-initialisation with y_ at t, one
  // internal step towards tout, its interpolant at τ into dense_, the step it proposes next,
  // the first trial step, and freeing (also called by the derived destructor).
  virtual bool solverReady() const = 0;
  virtual void createSolver(double t) = 0;
  virtual void reinit(double t) = 0;
  virtual void oneStep(double tout, double& reached) = 0;
  virtual void interpolate(double tau) = 0;
  virtual double lastStep() const = 0;
  virtual void setInitStep(double dt) = 0;
  virtual void destroySolver() = 0;

  void restartAt(double t, double dt) {
    setInitStep(dt);
    t0_ = t1_ = t;
    firstStep_ = dt;
    stepped_ = false;
  }

  // Allocates the vectors for `size` entries (after the solver using the old ones is freed).
  void allocate(int size) {
    destroyVectors();
    n_ = size;
    y_ = N_VNew_Serial(size, context_);
    start_ = N_VNew_Serial(size, context_);
    dense_ = N_VNew_Serial(size, context_);
    if (!y_ || !start_ || !dense_)
      throw std::runtime_error(std::string(library_) + ": out of memory");
  }
  static void copyIn(const double* x, N_Vector v) {
    std::copy(x, x + N_VGetLength(v), N_VGetArrayPointer(v));
  }
  static void copyOut(N_Vector v, double* x) {
    const double* data = N_VGetArrayPointer(v);
    std::copy(data, data + N_VGetLength(v), x);
  }

  // Throws for a negative SUNDIALS flag: "ARKODE ERKStepEvolve: ARK_ERR_FAILURE (message)";
  // an exception the right-hand side threw is rethrown as it was.
  void check(int flag, const char* call) {
    if (rhsError_) {
      std::exception_ptr error = std::exchange(rhsError_, nullptr);
      std::rethrow_exception(error);
    }
    if (flag >= 0) return;
    char* name = flagName_(flag);  // malloc'd by SUNDIALS
    std::string text = std::string(library_) + " " + call + ": " + (name ? name : "unknown flag");
    std::free(name);
    if (!message_.empty()) text += " (" + message_ + ")";
    message_.clear();
    throw std::runtime_error(text);
  }

  // The RHS for SUNDIALS: f_ is set by the caller of each SUNDIALS function that evaluates it.
  static int rhs(double t, N_Vector y, N_Vector dydt, void* self) {
    auto* me = static_cast<SundialsStepper*>(self);
    try {
      double* d = N_VGetArrayPointer(dydt);
      (*me->f_)(t, N_VGetArrayPointer(y), d);
      // A non-finite derivative is reported as recoverable: the solver retries shorter.
      for (int i = 0; i < me->n_; ++i)
        if (!std::isfinite(d[i])) return 1;
      return 0;
    } catch (...) {  // no exception may cross the C library
      me->rhsError_ = std::current_exception();
      return -1;
    }
  }
  void keepError(std::exception_ptr error) { rhsError_ = std::move(error); }
  // Keeps the message for the exception; SUNDIALS prints nothing itself.
  static void onError(int code, const char*, const char* function, char* message, void* self) {
    if (code < 0)
      static_cast<SundialsStepper*>(self)->message_ = std::string(function) + ": " + message;
  }

  double atol_, rtol_;
  SUNContext context_ = nullptr;
  N_Vector y_ = nullptr;      // the state at t1 of the last step (at t before the first)
  N_Vector start_ = nullptr;  // the state at t0 of the last step, for rejectLast
  N_Vector dense_ = nullptr;  // GetDky's output
  int n_ = 0;
  double t0_ = 0, t1_ = 0;
  double firstStep_ = 0;  // the trial step given to initialize / rejectLast
  bool stepped_ = false;  // a step was taken since the last (re)initialisation
  const StepperRhs* f_ = nullptr;

 private:
  void destroyVectors() {
    for (N_Vector* v : {&y_, &start_, &dense_})
      if (*v) N_VDestroy(*v), *v = nullptr;
  }

  const char* library_;
  char* (*flagName_)(long);
  std::exception_ptr rhsError_;
  std::string message_;
};

// ARKODE ERKStep, Fehlberg 7(8) (13 stages): SUNDIALS 6.4's only 8th-order explicit table
// (arkode_butcher_erk.h has no Verner 8(7) or 9(8); those came with SUNDIALS 6.6). Dense
// output: ARKODE's Hermite interpolant of degree 5, the highest it has, so the continuous
// extension is of lower order than the steps.
class ArkodeFehlberg78 final : public SundialsStepper {
 public:
  ArkodeFehlberg78(double atol, double rtol)
      : SundialsStepper(atol, rtol, "ARKODE", ERKStepGetReturnFlagName) {}
  ~ArkodeFehlberg78() override { destroySolver(); }

  int order() const override { return 8; }
  bool denseOutputCarriesReconstruction() const override { return false; }

 private:
  bool solverReady() const override { return memory_ != nullptr; }
  void createSolver(double t) override {
    memory_ = ERKStepCreate(rhs, t, y_, context_);
    if (!memory_) throw std::runtime_error("ARKODE ERKStepCreate failed");
    check(ERKStepSetErrHandlerFn(memory_, onError, this), "ERKStepSetErrHandlerFn");
    check(ERKStepSetUserData(memory_, this), "ERKStepSetUserData");
    check(ERKStepSetTableNum(memory_, ARKODE_FEHLBERG_13_7_8), "ERKStepSetTableNum");
    check(ERKStepSStolerances(memory_, rtol_, atol_), "ERKStepSStolerances");
    check(ERKStepSetInterpolantType(memory_, ARK_INTERP_HERMITE), "ERKStepSetInterpolantType");
    check(ERKStepSetInterpolantDegree(memory_, ARK_INTERP_MAX_DEGREE),
          "ERKStepSetInterpolantDegree");
    check(ERKStepSetMaxErrTestFails(memory_, 50), "ERKStepSetMaxErrTestFails");
  }
  void reinit(double t) override { check(ERKStepReInit(memory_, rhs, t, y_), "ERKStepReInit"); }
  void oneStep(double tout, double& reached) override {
    check(ERKStepEvolve(memory_, tout, y_, &reached, ARK_ONE_STEP), "ERKStepEvolve");
  }
  void interpolate(double tau) override {
    check(ERKStepGetDky(memory_, tau, 0, dense_), "ERKStepGetDky");
  }
  double lastStep() const override {
    double h = 0;
    ERKStepGetCurrentStep(memory_, &h);
    return h;
  }
  void setInitStep(double dt) override {
    check(ERKStepSetInitStep(memory_, dt), "ERKStepSetInitStep");
  }
  void destroySolver() override { ERKStepFree(&memory_); }

  void* memory_ = nullptr;
};

// CVODE, BDF of orders 1–5 with Newton iterations on a dense Jacobian from difference
// quotients. A (re)initialisation starts again at order 1 with the given step.
class CvodeBdf final : public SundialsStepper {
 public:
  CvodeBdf(double atol, double rtol)
      : SundialsStepper(atol, rtol, "CVODE", CVodeGetReturnFlagName) {}
  ~CvodeBdf() override { destroySolver(); }

  int order() const override { return 5; }  // the highest BDF order CVODE uses
  // CVODE projects the corrected state of every step before its error test and updates its
  // history with the projected one (CVodeSetProjFn).
  bool setProjection(StepperProjection project) override {
    const bool changed = static_cast<bool>(project) != static_cast<bool>(project_);
    project_ = std::move(project);
    if (changed) destroySolver();  // CVODE cannot unset a projection: made anew at initialize
    return true;
  }

 private:
  bool solverReady() const override { return memory_ != nullptr; }
  void createSolver(double t) override {
    memory_ = CVodeCreate(CV_BDF, context_);
    matrix_ = SUNDenseMatrix(n_, n_, context_);
    linearSolver_ = SUNLinSol_Dense(y_, matrix_, context_);
    if (!memory_ || !matrix_ || !linearSolver_)
      throw std::runtime_error("CVODE: creating the solver failed");
    check(CVodeSetErrHandlerFn(memory_, onError, this), "CVodeSetErrHandlerFn");
    check(CVodeInit(memory_, rhs, t, y_), "CVodeInit");
    check(CVodeSetUserData(memory_, this), "CVodeSetUserData");
    check(CVodeSStolerances(memory_, rtol_, atol_), "CVodeSStolerances");
    check(CVodeSetLinearSolver(memory_, linearSolver_, matrix_), "CVodeSetLinearSolver");
    check(CVodeSetMaxErrTestFails(memory_, 50), "CVodeSetMaxErrTestFails");
    if (project_) {
      check(CVodeSetProjFn(memory_, projectState), "CVodeSetProjFn");
      check(CVodeSetProjErrEst(memory_, SUNFALSE), "CVodeSetProjErrEst");
      corrected_ = N_VNew_Serial(n_, context_);
      if (!corrected_) throw std::runtime_error("CVODE: out of memory");
    }
  }
  void reinit(double t) override { check(CVodeReInit(memory_, t, y_), "CVodeReInit"); }
  void oneStep(double tout, double& reached) override {
    check(CVode(memory_, tout, y_, &reached, CV_ONE_STEP), "CVode");
  }
  void interpolate(double tau) override {
    check(CVodeGetDky(memory_, tau, 0, dense_), "CVodeGetDky");
  }
  double lastStep() const override {
    double h = 0;
    CVodeGetCurrentStep(memory_, &h);
    return h;
  }
  void setInitStep(double dt) override { check(CVodeSetInitStep(memory_, dt), "CVodeSetInitStep"); }
  void destroySolver() override {
    CVodeFree(&memory_);
    if (corrected_) N_VDestroy(corrected_), corrected_ = nullptr;
    if (linearSolver_) SUNLinSolFree(linearSolver_), linearSolver_ = nullptr;
    if (matrix_) SUNMatDestroy(matrix_), matrix_ = nullptr;
  }

  // CVODE's projection: corr = P(ycur) − ycur. The error estimate is left as it is (its
  // projection, P(ycur + err) − P(ycur), let steps through with errors the projection does not
  // remove: 5 steps where 475 were needed on the conveyor).
  static int projectState(double t, N_Vector ycur, N_Vector corr, double, N_Vector, void* self) {
    auto* me = static_cast<CvodeBdf*>(self);
    try {
      N_VScale(1.0, ycur, me->corrected_);
      me->project_(t, N_VGetArrayPointer(me->corrected_));
      N_VLinearSum(1.0, me->corrected_, -1.0, ycur, corr);
      // A projection that fails to give a finite state is recoverable: CVODE retries shorter.
      const double* c = N_VGetArrayPointer(corr);
      for (int i = 0; i < me->n_; ++i)
        if (!std::isfinite(c[i])) return 1;
      return 0;
    } catch (...) {  // no exception may cross the C library
      me->keepError(std::current_exception());
      return -1;
    }
  }

  void* memory_ = nullptr;
  SUNMatrix matrix_ = nullptr;
  SUNLinearSolver linearSolver_ = nullptr;
  StepperProjection project_;
  N_Vector corrected_ = nullptr;  // the projected state, scratch of projectState
};

}  // namespace

std::unique_ptr<Stepper> makeArkodeFehlberg78(double atol, double rtol) {
  return std::make_unique<ArkodeFehlberg78>(atol, rtol);
}
std::unique_ptr<Stepper> makeCvodeBdf(double atol, double rtol) {
  return std::make_unique<CvodeBdf>(atol, rtol);
}

IntegratorFit sundialsIntegratorFit(const IntegratorTarget&) { return {}; }

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
