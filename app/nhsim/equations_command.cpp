// `nhsim equations` (equations_command.h): a system's derived equations, with --set
// parameters, as plain text or (--latex) LaTeX on standard output.
#include "app/nhsim/equations_command.h"

#include <map>

#include "app/nhsim/cli_support.h"
#include "core/model/catalogue.h"
#include "core/model/derived_equations.h"
#include "core/model/formula_system.h"
#include "core/model/gibbs_appell_equations.h"
#include "core/nh/scenario.h"

namespace nh::cli {

std::string equationsText(const EquationsOptions& line) {
  const bool latex = line.latex;
  std::map<std::string, double> overrides;
  for (const auto& text : line.set) {
    const auto [name, value] = parseAssignment(text, "--set");
    overrides[name] = value;
  }
  const auto system = findNamedSystem(line.target);
  std::vector<std::string> names;
  for (const auto& [name, value] : overrides) names.push_back(name);
  std::vector<double> parameters;
  try {
    parameters = resolveParameters(*system, overrides);
  } catch (const InputError& e) {
    rethrowQuoting(e, names);
  }
  if (model::asFormula(*system) && !overrides.empty())
    throw UsageError("--set: a model file's parameters stay symbols in its equations");
  const model::DerivedEquations equations =
      line.hamiltonian   ? model::deriveHamiltonianEquations(*system, parameters)
      : line.gibbsAppell ? model::gibbsAppellEquations(*system, parameters)
                         : model::deriveEquations(*system, parameters);
  std::string text;
  if (latex) {
    text = "% " + system->name() + ": " + system->info().title + "\n" + model::toLatex(equations);
  } else {
    text = system->name() + " — " + system->info().title + ": " + equations.summary + "\n\n" +
           model::toPlainText(equations);
  }
  return text;
}

int equationsCommand(const EquationsOptions& line) {
  writeStdout(equationsText(line));
  return kOk;
}

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
