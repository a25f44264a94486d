// Loading a model file or its text (model_file.h): the loader's parts (model_loader.h) run here
// in order: reading, the exact derivations, the checks; then what evaluation needs.
#include "core/model/model_loader.h"

#include <algorithm>

#include "core/model/model_file.h"
#include "core/nh/read_file.h"

namespace nh::model {

namespace loader {

// The equations text shown in the app: the file's formulas.
std::string Loader::equationsText() const {
  if (info_.isControlModel()) {
    std::string eq;
    for (size_t a = 0; a < data_->controlSection.size(); ++a)
      eq += info_.velocities[a] + " = " + data_->controlSection[a].text + "\n";
    return eq + "cost L = " + data_->cost.text;
  }
  std::string eq = "L = " + data_->lagrangian.text;
  for (size_t c = 0; c < data_->constraints.size(); ++c)
    eq += "\nΦ" + std::to_string(c + 1) + " = " + data_->constraints[c].text + " = 0";
  for (size_t c = 0; c < data_->holonomic.size(); ++c)
    eq += "\ng" + std::to_string(c + 1) + " = " + data_->holonomic[c].text + " = 0";
  return eq;
}

// What evaluation needs to know of the expressions: the most nodes of any (the scratch
// size, ModelData::maxNodes) and how many definitions each group reads.
void Loader::measureExpressions() {
  size_t& most = data_->maxNodes;
  auto grow = [&](const Expression& e) { most = std::max(most, e.nodes.size()); };
  auto growAll = [&](const std::vector<Expression>& v) {
    for (const auto& e : v) grow(e);
  };
  growAll(data_->definitions);
  growAll(data_->rho);
  for (const auto& term : data_->structure) grow(term.value);
  grow(data_->lagrangian);
  growAll(data_->forces);
  growAll(data_->constraints);
  growAll(data_->holonomic);
  growAll(data_->holonomicRate);
  growAll(data_->holonomicJacobian);
  for (const auto& c : data_->parameterChecks) grow(c.expression);
  growAll(data_->singular);
  growAll(data_->outputs);
  growAll(data_->referenceFrame);
  growAll(data_->controlSection);
  grow(data_->cost);
  auto growRotations = [&](const std::vector<SceneRotation>& rs) {
    for (const auto& r : rs) {
      growAll(r.quaternion);
      growAll(r.axis);
      grow(r.angle);
    }
  };
  const SceneSpec& sc = data_->scene;
  grow(sc.extent);
  growRotations(sc.movingFrame);
  for (const auto& b : sc.bodies) {
    growAll(b.position);
    growAll(b.size);
    growRotations(b.orientation);
  }
  for (const auto& a : sc.arrows) {
    growAll(a.origin);
    growAll(a.vector);
  }
  for (const auto& pt : sc.points) growAll(pt.position);
  auto read = [&](const auto& expressions) {
    int count = 0;
    for (const Expression& e : expressions)
      count = std::max(count, definitionsRead(data_->layout, e));
    return count;
  };
  ModelData::DefinitionsRead& needs = data_->definitionsRead;
  needs.lagrangian = definitionsRead(data_->layout, data_->lagrangian);
  needs.constraints = std::max(read(data_->constraints), read(data_->holonomicRate));
  needs.forces = read(data_->forces);
  for (const auto& term : data_->structure)
    needs.structure = std::max(needs.structure, definitionsRead(data_->layout, term.value));
  needs.holonomic = std::max(read(data_->holonomic), read(data_->holonomicJacobian));
  needs.singular = read(data_->singular);
  needs.outputs = read(data_->outputs);
  needs.referenceFrame = read(data_->referenceFrame);
}

// Reading, then the exact derivations (which check the anchor and the structure, and the frame
// where GiNaC can show it), then what the app shows and the evaluation needs, then the checks
// that need the built system.
std::shared_ptr<const FormulaSystem> Loader::load() {
  parseYaml();
  readHeader();
  readParameters();
  readNames();
  readControls();
  refuseOptimizeColumns();
  readDefinitions();
  readDynamics();
  readInitial();
  readScene();
  readLabels();
  unitsIntoLabels();
  derive();
  info_.equations = equationsText();
  if (info_.initialization.empty() && info_.isControlModel())
    info_.initialization = "The velocities follow from the controls (control_section).";
  if (info_.initialization.empty())
    info_.initialization = info_.constraintCount + info_.holonomicCount > 0
                               ? "Inconsistent initial velocities are completed keeping " +
                                     namesOrNone(info_.independentVelocities) +
                                     " (least change in kinetic energy)."
                               : "Every initial velocity is free.";
  measureExpressions();
  auto system = std::make_shared<FormulaSystem>(data_, info_);
  checkDefaultParameters(*system);
  if (!info_.isControlModel()) {
    checkRegular(system);
    checkReferenceFrame(*system);
  }
  return system;
}

}  // namespace loader

std::shared_ptr<const FormulaSystem> loadModelText(const std::string& text,
                                                   const std::string& fileName,
                                                   const std::string& path) {
  return loader::Loader(text, fileName, path).load();
}

std::shared_ptr<const FormulaSystem> loadModelFile(const std::string& path) {
  std::string text;
  try {
    text = readRegularFile(path, "model file");
  } catch (const std::exception& e) {
    throw ModelError(path, "", 0, 0, e.what());
  }
  return loadModelText(text, path, path);
}

}  // namespace nh::model
// SPDX-License-Identifier: GPL-3.0-or-later
