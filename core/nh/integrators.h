// The integrators, one row each (kIntegrators): the name the command line, scenario files and
// the app use, a one-line description, fixed step or adaptive, what the method needs and does
// (dense output, drift control inside its steps, the whole state with the tape's derivatives,
// a conserved energy), how its stepper is made, and what it refuses and why. Every reader takes
// it from there: toString and parseIntegrator, isFixedStep, checkIntegratorApplies,
// Simulation's stepper, nhsim's --integrator and --step help and completion, the app's
// Integrator menu and compare box, the sweep's description, the Python module's errors. A new
// integrator is one row here and its stepper (steppers.h).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/nh/dynamics.h"

namespace nh {

class Stepper;

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

// The largest step budget (--max-steps, a scenario's integrator.max_steps) accepted.
inline constexpr std::int64_t kMaxStepBudget = 1'000'000'000'000;

struct IntegratorOptions {
  // One of kIntegrators: adaptive ones take rtol and atol, fixed-step ones `step`.
  Integrator method = Integrator::Dopri5;
  double rtol = 1e-10;
  double atol = 1e-12;
  double step = 1e-3;  // fixed step (rk4) or first trial step (adaptive)
  bool projection = true;
  // With the dense-output steppers: coordinates the equations do not read are reconstructed
  // over each step instead of being stepped (reconstruction.h).
  bool reconstruction = true;
  std::int64_t maxSteps =
      20'000'000;  // per advance() call: a run that needs more stops with an error
  // Throws InputError for non-positive, non-finite or tiny values (a step below 1e-12,
  // rtol below 10·machine epsilon, atol below 1e-200) and a step budget outside
  // [1, kMaxStepBudget].
  void validate() const;
};

// What an integrator is asked to step: the dynamics and formulation (all a scenario says
// before its equations are compiled), and, where known, the compiled equations and the start
// x (their stateSize() entries) at time t.
struct IntegratorTarget {
  DynamicsKind dynamics = DynamicsKind::Nonholonomic;
  Formulation formulation = Formulation::Multipliers;
  const EquationsOfMotion* equations = nullptr;
  const double* x = nullptr;
  double t = 0;
};

// What a method makes of a target.
struct IntegratorFit {
  std::string refusal;  // "" when the method applies; else one line, why not and what to choose
  // The output column the method keeps to round-off from the start ("energy", "energy_frame"),
  // and one line saying so for the run summary; both "" when none.
  std::string conserved;
  std::string summary;
};

struct IntegratorRow {
  Integrator value{};
  const char* name = "";         // as typed on the command line and in scenario files
  const char* description = "";  // one line, for help texts, tool tips and menus
  // Takes the fixed step IntegratorOptions::step and lands on every output time; else it
  // chooses its steps under rtol and atol.
  bool fixedStep = false;
  // Interpolates between its steps (Stepper::hasDenseOutput), and accurately enough to carry
  // reconstructed coordinates over a step (Stepper::denseOutputCarriesReconstruction).
  bool denseOutput = false;
  bool reconstructs = false;
  // Applies the drift control inside its steps, keeping its history (Stepper::setProjection).
  bool projectsInside = false;
  bool stiff = false;  // implicit, meant for stiff systems
  // Steps the whole state (q, y) of nonholonomic dynamics with the constraint and the exact
  // derivatives of the tape: refuses vakonomic dynamics, the hamiltonian formulation and
  // systems the tape cannot record (wholeStateRefusal).
  bool wholeState = false;
  // Keeps a conserved energy to round-off: needs a Lagrangian system whose equations conserve
  // it (IntegratorFit::conserved says which).
  bool conservesEnergy = false;
  // The stepper, bound to `equations` (Stepper::bind), with the options' tolerances.
  std::unique_ptr<Stepper> (*make)(const EquationsOfMotion& equations,
                                   const IntegratorOptions& options) = nullptr;
  // What the method makes of `target` beyond what `wholeState` refuses (its refusal "" or one
  // line naming the method); none: it applies wherever the flags allow, conserving nothing.
  IntegratorFit (*fit)(const IntegratorTarget& target) = nullptr;
};

// The rows, in the order menus and "allowed: …" lists show them; the first is the default.
extern const std::span<const IntegratorRow> kIntegrators;

// The row of `integrator`; the first row for a value the table does not hold.
const IntegratorRow& integratorRow(Integrator integrator);
std::string toString(Integrator integrator);  // its row's name
// The integrator named `text`; throws InputError "unknown integrator 'TEXT' (allowed: …)".
Integrator parseIntegrator(const std::string& text);
// Whether the integrator takes the fixed step IntegratorOptions::step, landing on every
// output time, rather than choosing its steps.
bool isFixedStep(Integrator integrator);
// The names of the rows with `property` set (&IntegratorRow::fixedStep, …), in table order.
std::vector<std::string> integratorNames(bool IntegratorRow::*property);

// What `integrator` makes of `target`: the refusal of a method that steps the whole state
// (wholeStateRefusal), else its row's fit.
IntegratorFit integratorFit(Integrator integrator, const IntegratorTarget& target);
// Throw InputError with the row's refusal, if any: from the dynamics and formulation alone
// (a scenario), or from compiled equations (their dynamics and formulation, the system, and
// with a state x at t what the method checks there).
void checkIntegratorApplies(Integrator integrator, DynamicsKind dynamics, Formulation formulation);
void checkIntegratorApplies(Integrator integrator, const EquationsOfMotion& equations,
                            const double* x = nullptr, double t = 0);

// The refusal of the methods that step the whole state (IntegratorRow::wholeState), naming
// `name`: "" or one line for vakonomic dynamics, the hamiltonian formulation and, with
// equations, a system the tape cannot record.
std::string wholeStateRefusal(const std::string& name, const IntegratorTarget& target);

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
