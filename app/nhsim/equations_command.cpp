#include "app/nhsim/equations_command.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>

#include "app/nhsim/cli_support.h"
#include "core/model/catalogue.h"
#include "core/model/derived_equations.h"
#include "core/model/model_file.h"
#include "core/nh/scenario.h"

namespace nh::cli {

int equationsCommand(const std::vector<std::string>& args) {
  bool latex = false;
  std::string target;
  std::map<std::string, double> overrides;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--latex") {
      latex = true;
    } else if (a == "--set") {
      const auto [name, value] = parseAssignment(optionValue(args, i), "--set");
      overrides[name] = value;
    } else if (a.rfind("--", 0) == 0) {
      throw UsageError("unknown option '" + a + "' for equations");
    } else if (target.empty()) {
      target = a;
    } else {
      throw UsageError("equations takes one system, got also '" + a + "'");
    }
  }
  if (target.empty())
    throw UsageError("equations needs a system name or a model file (see 'nhsim list')");
  const auto system = findSystem(target);
  const std::vector<double> parameters = resolveParameters(*system, overrides);
  if (model::asFormula(*system) && !overrides.empty())
    throw UsageError("--set: a model file's parameters stay symbols in its equations");
  const model::DerivedEquations equations = model::deriveEquations(*system, parameters);
  std::string text;
  if (latex) {
    text = "% " + system->name() + ": " + system->info().title + "\n" + model::toLatex(equations);
  } else {
    text = system->name() + " — " + system->info().title +
           ": the equations M ẏ − Aᵀλ = F, A ẏ = b (theory §2)\n\n" + model::toPlainText(equations);
  }
  if (std::fputs(text.c_str(), stdout) == EOF || std::fflush(stdout) != 0)
    throw Error(std::string("cannot write the equations: ") + std::strerror(errno));
  return kOk;
}

}  // namespace nh::cli
