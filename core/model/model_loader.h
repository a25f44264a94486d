// The model-file loader's inside (model_file.h is its outside): the Loader that turns one
// file's text into a FormulaSystem, and what its parts share. Each part is a file of its
// own: model_reader.cpp (the text as YAML, positions for messages, scalars and expressions,
// the header, parameters, names, controls and definitions), dynamics_reader.cpp (anchor,
// structure, Lagrangian, forces, constraints, reference frame, control section, singular
// places, outputs), state_reader.cpp (units, initial values and the state's lists, parameter
// checks, labels), scene_reader.cpp (the scene), model_derivation.cpp (the exact derivations
// with GiNaC), model_checks.cpp (what is checked once the parts are read and derived),
// frame_check.cpp (the reference frame against the constraints) and model_file.cpp (the order
// they run in, and what evaluation needs). Included by those files only.
#pragma once

#include <yaml-cpp/yaml.h>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/model/expression.h"
#include "core/model/formula_system.h"
#include "core/model/model_data.h"
#include "core/model/model_file.h"
#include "core/model/symbolic_equations.h"
#include "core/model/symbolic_model.h"

namespace nh::model::loader {

// Names joined by ", " ("none" for no names), for messages.
std::string namesOrNone(const std::vector<std::string>& names);

// The loader's exact derivations bring an anchor's entries to normal form only below this
// bound of their expansion (expansionBound): (1 + (x + y)^2)^20 is not expanded.
constexpr long kLoaderExpandLimit = 5000;

// Whether normal() is cheap for `e`: a bound of its expansion is small.
bool cheapToNormalise(const GiNaC::ex& e);
// Zero after normal() when that is cheap; an entry too large to normalise is tested as it
// stands (a derivative that vanishes is exactly 0).
bool isZeroExactly(const GiNaC::ex& e);

// The variables of the loader's exact derivations: the symbols of the coordinates and
// velocities.
struct Variables {
  const SymbolTable& sym;
  const SlotLayout& layout;

  int n() const { return layout.coordinates; }
  int m() const { return layout.velocities; }
  GiNaC::ex q(int i) const { return GiNaC::ex(sym.bySlot[layout.coordinate(i)]); }
  GiNaC::ex y(int a) const { return GiNaC::ex(sym.bySlot[layout.velocity(a)]); }
  bool dependsOnQ(const GiNaC::ex& e) const {
    for (int i = 0; i < n(); ++i)
      if (e.has(q(i))) return true;
    return false;
  }
};

class Loader {
 public:
  Loader(const std::string& text, std::string fileName, std::string path)
      : text_(text), file_(std::move(fileName)) {
    data_ = std::make_shared<ModelData>();
    data_->text = text;
    data_->fileName = file_;
    data_->path = std::move(path);
    lineStarts_.push_back(0);
    for (size_t i = 0; i < text_.size(); ++i)
      if (text_[i] == '\n') lineStarts_.push_back(i + 1);
  }

  // The file as YAML, then the parts below, then what the evaluation needs (model_file.cpp).
  std::shared_ptr<const FormulaSystem> load();

 private:
  const std::string& text_;
  std::vector<size_t> lineStarts_;  // offset of each line's first character (positionOf)
  std::string file_;
  std::shared_ptr<ModelData> data_;
  YAML::Node root_;
  SystemInfo info_;
  std::vector<std::string> paramNames_;
  // Each definition's treeDepth with the earlier definitions written out (as GiNaC has it).
  std::vector<int> definitionDepth_;
  // (key, node) of each parameter's keeps_continuous, checked once the definitions are read.
  std::vector<std::pair<std::string, YAML::Node>> keepsContinuous_;
  // The names declared so far (declare).
  std::set<std::string> taken_;
  // The `bracket` node of each skew entry by its pair (a < b), for messages.
  std::map<std::pair<int, int>, std::pair<std::string, YAML::Node>> bracketEntries_;
  // Whether Φ(t, q, Γ) = 0 and ġ(t, q, Γ) = 0 were shown identically by GiNaC (the samples
  // of checkReferenceFrame then are not needed).
  bool frameShownExactly_ = false;

  // ---- model_reader.cpp: errors and positions ----
  [[noreturn]] void fail(const std::string& key, const YAML::Node& node,
                         const std::string& problem) const;
  [[noreturn]] void failAt(const std::string& key, SourcePosition p,
                           const std::string& problem) const;
  SourcePosition positionOf(size_t index) const;
  SourcePosition positionIn(const YAML::Node& node, int offset) const;

  // ---- model_reader.cpp: scalars, maps and lists ----
  std::string scalar(const YAML::Node& node, const std::string& key, const char* what) const;
  double number(const YAML::Node& node, const std::string& key) const;
  bool boolean(const YAML::Node& node, const std::string& key) const;
  std::string identifier(const YAML::Node& node, const std::string& key) const;
  void checkMap(const YAML::Node& node, const std::string& key,
                std::initializer_list<const char*> allowed) const;
  const YAML::Node sequence(const YAML::Node& node, const std::string& key) const;

  // ---- model_reader.cpp: names and expressions ----
  void declare(const std::string& name, const YAML::Node& node, const std::string& key);
  // Names visible to an expression: kinds allowed and how many definitions so far.
  struct Scope {
    bool time = true, coordinates = true, velocities = true, multipliers = false, controls = false;
    int definitions = -1;  // -1: all
  };
  Expression expression(const YAML::Node& node, const std::string& key, Scope scope) const;
  static std::string forbidden(const Scope& s);
  int velocityIndex(const std::string& name) const;
  int coordinateIndex(const std::string& name) const;

  // ---- model_reader.cpp: the file as YAML, and its first parts ----
  void parseYaml();
  std::optional<SourcePosition> keyWithoutColonBefore(int line) const;
  // yaml-cpp keeps both entries of a key written twice in a map (lookups find the first):
  // refused here, in every map of the file. Stops looking after `budget` nodes, so that
  // aliases repeating a node many times cost a bounded time.
  void checkDuplicateKeys(const YAML::Node& node) const;
  void checkDuplicateKeys(const YAML::Node& node, int depth, long& budget) const;
  void readHeader();
  void readParameters();
  void readNames();
  void readControls();
  void readDefinitions();

  // ---- dynamics_reader.cpp: the anchor, the structure, L, Q, Φ, g and the singular places ----
  void readDynamics();
  void readAnchor();
  void readStructure();
  // The brackets given so far: each unordered pair's declaration (skew or not) and the
  // ordered pairs given with `skew: false`.
  struct BracketsSeen {
    std::map<std::pair<int, int>, bool> skewOf;
    std::set<std::pair<int, int>> ordered;
  };
  std::pair<int, int> readBracket(const YAML::Node& entry, const std::string& key, bool skew,
                                  BracketsSeen& seen);
  void readStructureEntry(const YAML::Node& entry, const std::string& key, BracketsSeen& seen);
  void readLagrangianAndForces();
  void readConstraints();
  void readReferenceFrame();
  void readControlSection();
  void readSingular();
  void readOutputs();

  // ---- state_reader.cpp: the state's units, initial values and order, and what the front
  // ends and the engine are told about its variables ----
  void readInitial();
  void readUnits();
  void readInitialValues();
  void readIndependent();
  void readStateOrder();
  void readQuaternions();
  void readStateLimits();
  void readCoordinateLists();
  void readParameterChecks();
  std::string stateNames() const;
  void readLabels();
  void unitsIntoLabels();

  // ---- scene_reader.cpp: what is drawn and how the scene may be edited ----
  void readScene();
  SceneBodySpec readBody(const YAML::Node& b, const std::string& key,
                         std::set<std::string>& bodyNames) const;
  SceneArrowSpec readArrow(const YAML::Node& a, const std::string& key) const;
  ScenePointSpec readPoint(const YAML::Node& p, const std::string& key) const;
  void readDrag(const YAML::Node& drag, const std::set<std::string>& bodyNames);
  std::vector<Expression> vector3(const YAML::Node& node, const std::string& key, int count,
                                  Scope scope) const;
  std::vector<SceneRotation> rotations(const YAML::Node& node, const std::string& key,
                                       Scope scope) const;

  // ---- model_derivation.cpp: the exact derivations (GiNaC) ----
  void derive();
  Expression toModel(const GiNaC::ex& e, const SymbolTable& sym, const std::string& key) const;
  GiNaC::matrix deriveAnchor(const Variables& v);
  void checkAnchorEntry(const Variables& v, int i, const GiNaC::exmap& zeroY,
                        GiNaC::matrix& rho) const;
  void deriveStructure(const Variables& v, const GiNaC::matrix& rho);
  void structureFromAnchor(const Variables& v, const GiNaC::matrix& rho);
  void deriveHolonomic(const Variables& v, const GiNaC::matrix& rho);
  void findMovingFrame(const Variables& v);

  // ---- model_checks.cpp: what is checked once the parts are read and derived ----
  void refuseOptimizeColumns();
  void checkStructureAgainstAnchor(const Variables& v, const GiNaC::matrix& rho);
  bool vanishesAtSamples(const Variables& v, const GiNaC::ex& lhs, const GiNaC::ex& rhs) const;
  void checkDefaultParameters(const FormulaSystem& system) const;
  void checkRegular(const std::shared_ptr<const FormulaSystem>& system) const;

  // ---- frame_check.cpp: the reference frame against the constraints ----
  // Refuses a frame GiNaC shows not to satisfy them; sets frameShownExactly_.
  void checkFrameExactly(const Variables& v);
  // Sets ModelData::hasReferenceFrame, or refuses the frame.
  void checkReferenceFrame(const FormulaSystem& system);

  // ---- model_file.cpp: what the app shows and the evaluation needs ----
  std::string equationsText() const;
  void measureExpressions();
};

}  // namespace nh::model::loader
// SPDX-License-Identifier: GPL-3.0-or-later
