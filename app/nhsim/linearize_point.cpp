// One point of `nhsim linearize` (linearize_point.h): the linearisation at a scenario's start,
// refused for a system without nonholonomic constraints, with a warning naming the non-zero
// rates where the start is not an equilibrium.
#include "app/nhsim/linearize_point.h"

#include <cmath>

#include "app/nhsim/cli_support.h"
#include "core/nh/messages.h"

namespace nh::cli {

namespace {

// The warning for a state that is not an equilibrium: the reduced equations' non-zero rates.
std::string notEquilibriumWarning(const Linearization& lin) {
  std::vector<std::string> rates;
  const double largest = lin.reducedRhs.cwiseAbs().maxCoeff();
  for (int i = 0; i < lin.reducedRhs.size(); ++i)
    if (std::abs(lin.reducedRhs[i]) > 1e-9 * largest)
      // appends: GCC 12's -Wrestrict misfires on "d" + std::string
      rates.push_back(std::string("d")
                          .append(lin.variables[i])
                          .append("/dt = ")
                          .append(formatValue(lin.reducedRhs[i])));
  return "this state is not an equilibrium of the reduced equations (" + joined(rates) +
         "); the eigenvalues describe the linearisation there";
}

}  // namespace

void requireNonholonomic(const Scenario& scenario) {
  if (scenario.dynamics != DynamicsKind::Nonholonomic)
    throw UsageError("linearize works on the nonholonomic equations (--dynamics " +
                     toString(DynamicsKind::Nonholonomic) + ")");
}

Point linearizeAt(const std::shared_ptr<const SystemModel>& system, const Scenario& s,
                  const LinearizeMessages& messages) {
  const std::vector<double> parameters = resolveParameters(*system, s.parameters);
  const EquationsOfMotion equations(system, DynamicsKind::Nonholonomic, s.formulation, parameters);
  std::vector<std::string> notes;
  Point p;
  p.x = initialState(equations, 0.0, s.initial, &notes);
  for (const auto& note : notes) messages("note", note);
  p.lin = linearize(equations, 0.0, p.x);
  if (!(p.lin.cyclicCoupling < 1e-9))
    messages("cyclic", "the coordinates '" + system->name() +
                           "' declares cyclic are read by its equations at this state (relative " +
                           formatValue(p.lin.cyclicCoupling) + "): the reduction is not exact");
  if (!p.lin.equilibrium) messages("equilibrium", notEquilibriumWarning(p.lin));
  return p;
}

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
