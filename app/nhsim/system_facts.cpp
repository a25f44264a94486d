// What `nhsim info` says of a system (system_facts.h): the facts worked out from its equations
// (the discrete-gradient fit among them) and the JSON form of the info.
#include "app/nhsim/system_facts.h"

#include <algorithm>
#include <cmath>

#include "core/model/constrained_algebroid.h"
#include "core/model/formula_system.h"
#include "core/model/model_data.h"
#include "core/nh/discrete_gradient.h"
#include "core/nh/errors.h"
#include "core/nh/reconstruction.h"

namespace nh::cli {

namespace {

// discreteGradientSummary at the default parameters and start.
std::string discreteGradientFact(const EquationsOfMotion& eq) {
  try {
    const std::vector<double> x0 = initialState(eq, 0.0, {});
    return discreteGradientSummary(discreteGradientFit(eq, x0.data(), 0.0));
  } catch (const Error& e) {
    return discreteGradientSummary({e.what()});
  }
}

}  // namespace

SystemFacts factsOf(const std::shared_ptr<const SystemModel>& system) {
  SystemFacts facts;
  facts.nonholonomic = stateLayout(*system, DynamicsKind::Nonholonomic);
  facts.vakonomic = stateLayout(*system, DynamicsKind::Vakonomic);
  facts.structure = model::classifyStructure(*system);
  if (system->info().isControlModel()) {
    facts.notReconstructed = "a control model moves only along an optimal plan";
    if (const model::FormulaSystem* formula = model::asFormula(*system))
      facts.cost = formula->data().cost.text;
    return facts;
  }
  const EquationsOfMotion eq(system, DynamicsKind::Nonholonomic);
  facts.discreteGradient = discreteGradientFact(eq);
  if (const ReconstructionPlan* plan = eq.reconstructionPlan()) {
    facts.notReconstructed = plan->reason;
    std::vector<int> indices = plan->entries;
    std::sort(indices.begin(), indices.end());
    for (int i : indices) facts.reconstructed.push_back(system->info().coordinates[i]);
  }
  return facts;
}

nlohmann::json infoJson(const SystemInfo& s, const SystemFacts& facts) {
  nlohmann::json root;  // keys sorted
  root["name"] = s.name;
  root["title"] = s.title;
  root["description"] = s.description;
  root["source"] = s.source;
  root["equations"] = s.equations;
  root["initialization"] = s.initialization;
  root["parameters"] = nlohmann::json::array();
  for (const auto& p : s.parameters) {
    nlohmann::json o;
    o["name"] = p.name;
    o["unit"] = p.unit;
    o["description"] = p.description;
    o["default"] = p.defaultValue;
    o["range"] = p.rangeText();
    if (std::isfinite(p.min)) o["min"] = p.min;
    if (std::isfinite(p.max)) o["max"] = p.max;
    o["min_exclusive"] = p.minExclusive;
    o["max_exclusive"] = p.maxExclusive;
    root["parameters"].push_back(o);
  }
  root["state"] = facts.nonholonomic.names;
  root["state_vakonomic"] = facts.vakonomic.names;
  root["constraints"] = s.constraintCount;
  root["holonomic_constraints"] = s.holonomicCount;
  root["structure_kind"] = model::kindName(facts.structure.kind);
  root["structure_why"] = facts.structure.why;
  root["reconstructed"] = facts.reconstructed;
  root["controls"] = s.controls;
  if (s.isControlModel()) root["cost"] = facts.cost;
  if (!facts.discreteGradient.empty()) root["discrete_gradient"] = facts.discreteGradient;
  return root;
}

nlohmann::json constraintAlgebroidJson(const SystemModel& system) {
  const model::DerivedEquations d = model::constrainedAlgebroidEquations(system);
  nlohmann::json blocks = nlohmann::json::array();
  for (const auto& block : d.blocks)
    blocks.push_back({{"title", block.title}, {"plain", block.plain}, {"latex", block.latex}});
  return {{"verdict", d.summary}, {"blocks", blocks}};
}

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
