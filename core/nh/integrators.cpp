// The table of integrators (integrators.h) and what reads it directly: names both ways, the
// fixed-step flag, the refusals, and the options' validation.
#include "core/nh/integrators.h"

#include <cmath>
#include <cstdio>
#include <limits>

#include "core/nh/discrete_gradient.h"
#include "core/nh/errors.h"
#include "core/nh/messages.h"
#include "core/nh/steppers.h"

namespace nh {

namespace {

using Options = IntegratorOptions;

// Each row says what holds (the flags left out are false; no `fit`: nothing refused beyond
// what the flags say).
constexpr IntegratorRow kRows[] = {
    {.value = Integrator::Dopri5,
     .name = "dopri5",
     .description = "Dormand–Prince 5(4), adaptive, dense output",
     .denseOutput = true,
     .reconstructs = true,
     .make = [](const EquationsOfMotion&,
                const Options& o) { return makeOdeintDopri5(o.atol, o.rtol); }},
    {.value = Integrator::Dop853,
     .name = "dop853",
     .description = "Dormand–Prince 8(5,3), adaptive, dense output",
     .denseOutput = true,
     .reconstructs = true,
     .make = [](const EquationsOfMotion&, const Options& o) { return makeDop853(o.atol, o.rtol); }},
    {.value = Integrator::Rk78,
     .name = "rk78",
     .description = "Runge–Kutta–Fehlberg 7(8), adaptive",
     .make = [](const EquationsOfMotion&,
                const Options& o) { return makeOdeintFehlberg78(o.atol, o.rtol); }},
    {.value = Integrator::Rk4,
     .name = "rk4",
     .description = "classical Runge–Kutta 4, fixed step",
     .fixedStep = true,
     .make = [](const EquationsOfMotion&, const Options&) { return makeOdeintRk4(); }},
    {.value = Integrator::Fehlberg78Arkode,
     .name = "arkode78",
     .description = "Fehlberg 7(8) of SUNDIALS ARKODE, adaptive, dense output",
     .denseOutput = true,
     .make = [](const EquationsOfMotion&,
                const Options& o) { return makeArkodeFehlberg78(o.atol, o.rtol); },
     .fit = sundialsIntegratorFit},
    {.value = Integrator::BdfCvode,
     .name = "bdf",
     .description = "BDF of SUNDIALS CVODE, for stiff systems",
     .denseOutput = true,
     .reconstructs = true,
     .projectsInside = true,
     .stiff = true,
     .make = [](const EquationsOfMotion&,
                const Options& o) { return makeCvodeBdf(o.atol, o.rtol); },
     .fit = sundialsIntegratorFit},
    {.value = Integrator::NhRattle,
     .name = "nh-rattle",
     .description = "nonholonomic RATTLE: symmetric projection around the implicit midpoint rule, "
                    "fixed step, second order, time-symmetric, constraints held to round-off",
     .fixedStep = true,
     .wholeState = true,
     .make = [](const EquationsOfMotion& eq, const Options&) { return makeNhRattle(eq); }},
    {.value = Integrator::DiscreteGradient,
     .name = "discrete-gradient",
     .description = "Gonzalez midpoint discrete gradient on the almost-Poisson form, fixed step, "
                    "second order, energy (or the energy in the constraints' reference frame) "
                    "kept to round-off",
     .fixedStep = true,
     .wholeState = true,
     .conservesEnergy = true,
     .make = [](const EquationsOfMotion& eq, const Options&) { return makeDiscreteGradient(eq); },
     .fit = discreteGradientIntegratorFit},
};

}  // namespace

constinit const std::span<const IntegratorRow> kIntegrators{kRows};

const IntegratorRow& integratorRow(Integrator integrator) {
  for (const IntegratorRow& row : kIntegrators)
    if (row.value == integrator) return row;
  return kIntegrators.front();
}

std::string toString(Integrator integrator) { return choiceName(kIntegrators, integrator); }

Integrator parseIntegrator(const std::string& text) {
  return parseChoice(kIntegrators, text, "integrator");
}

bool isFixedStep(Integrator integrator) { return integratorRow(integrator).fixedStep; }

std::vector<std::string> integratorNames(bool IntegratorRow::*property) {
  std::vector<std::string> names;
  for (const IntegratorRow& row : kIntegrators)
    if (row.*property) names.emplace_back(row.name);
  return names;
}

IntegratorFit integratorFit(Integrator integrator, const IntegratorTarget& target) {
  const IntegratorRow& row = integratorRow(integrator);
  if (row.wholeState) {
    std::string refusal = wholeStateRefusal(row.name, target);
    if (!refusal.empty()) return {std::move(refusal), "", ""};
  }
  return row.fit ? row.fit(target) : IntegratorFit{};
}

void checkIntegratorApplies(Integrator integrator, DynamicsKind dynamics, Formulation formulation) {
  const std::string refusal = integratorFit(integrator, {dynamics, formulation}).refusal;
  if (!refusal.empty()) throw InputError(refusal);
}

void checkIntegratorApplies(Integrator integrator, const EquationsOfMotion& equations,
                            const double* x, double t) {
  const std::string refusal =
      integratorFit(integrator, {equations.dynamics(), equations.formulation(), &equations, x, t})
          .refusal;
  if (!refusal.empty()) throw InputError(refusal);
}

std::string wholeStateRefusal(const std::string& name, const IntegratorTarget& target) {
  if (target.dynamics != DynamicsKind::Nonholonomic)
    return name +
           " integrates nonholonomic dynamics only, not vakonomic; choose another integrator";
  if (target.formulation == Formulation::Hamiltonian)
    return name +
           " steps (q, y), not the hamiltonian formulation's (q, p); choose the multipliers or "
           "gibbs-appell formulation";
  if (target.equations && !target.equations->isTaped())
    return name + " needs the exact derivatives of the tape, and the functions of '" +
           echoInput(target.equations->system().name()) +
           "' cannot be recorded on it; choose another integrator";
  return {};
}

void IntegratorOptions::validate() const {
  auto positive = [](const char* name, double v) {
    if (!std::isfinite(v) || v <= 0)
      throw InputError(std::string(name) + " must be a finite number > 0, got " + shortNumber(v));
  };
  positive("rtol", rtol);
  positive("atol", atol);
  positive("step", step);
  if (step < 1e-12) throw InputError("step must be at least 1e-12, got " + shortNumber(step));
  // Tolerances below these ask for more than doubles hold: refused as input instead of
  // failing later as a step-size underflow.
  constexpr double kEps = std::numeric_limits<double>::epsilon();
  if (rtol < 10 * kEps)
    throw InputError("rtol " + shortNumber(rtol) + " is below machine precision; give at least " +
                     shortNumber(10 * kEps) + " (10·machine epsilon)");
  // Tolerances this loose let the error grow to the size of the solution: a bound orbit
  // escapes, energy grows several-fold, and nothing says so.
  if (rtol >= 0.1)
    throw InputError("rtol " + shortNumber(rtol) +
                     " allows errors of 10 % and more per step; give less than 0.1 (default "
                     "1e-10)");
  if (atol >= 1)
    throw InputError("atol " + shortNumber(atol) +
                     " allows absolute errors as large as the state itself; give less than 1 "
                     "(default 1e-12)");
  if (atol < 1e-200)
    throw InputError("atol " + shortNumber(atol) +
                     " is below any meaningful absolute error; give at least 1e-200");
  if (maxSteps < 1 || maxSteps > kMaxStepBudget)
    throw InputError("the step budget must be a whole number in [1, 10^12], got " +
                     std::to_string(maxSteps));
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
