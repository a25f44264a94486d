#include "core/model/model_file.h"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string_view>

#include "core/model/expression.h"
#include "core/model/model_data.h"
#include "core/model/symbolic_equations.h"
#include "core/model/symbolic_model.h"
#include "core/nh/dynamics.h"
#include "core/nh/frame_residual.h"
#include "core/nh/messages.h"
#include "core/nh/read_file.h"
#include "core/nh/scenario.h"
#include "core/nh/scene_table.h"

namespace nh::model {

// One line whatever the file held: control characters in the key and the problem (which may
// echo the file's text) are escaped.
ModelError::ModelError(std::string file, std::string key, int line, int column, std::string problem)
    : InputError(escapeControl(
          file +
          (line > 0 ? ":" + std::to_string(line) + ":" + std::to_string(column) : std::string()) +
          ": " + (key.empty() ? std::string() : key + ": ") + problem)),
      file_(std::move(file)),
      key_(escapeControl(key)),
      line_(line),
      column_(column),
      problem_(escapeControl(problem)) {}

namespace {

const char* const kTopKeys[] = {"format",
                                "version",
                                "name",
                                "title",
                                "description",
                                "source",
                                "initialization",
                                "parameters",
                                "coordinates",
                                "velocities",
                                "anchor",
                                "structure",
                                "definitions",
                                "lagrangian",
                                "forces",
                                "constraints",
                                "holonomic",
                                "initial",
                                "independent",
                                "state_order",
                                "quaternions",
                                "state_limits",
                                "singular",
                                "scene",
                                "cyclic",
                                "dependent",
                                "parameter_checks",
                                "labels",
                                "units",
                                "controls",
                                "control_section",
                                "cost",
                                "reference_frame",
                                "outputs",
                                "structure_checked"};

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s.empty() ? "none" : s;
}

// Character-class checks of names and colours (std::regex trips g++ 12's
// -Wmaybe-uninitialized under the sanitizers, and these patterns are one loop each).
bool isName(const std::string& s, bool lowerOnly) {
  auto letter = [&](char c) {
    return lowerOnly ? (c >= 'a' && c <= 'z') : std::isalpha(static_cast<unsigned char>(c)) != 0;
  };
  if (s.empty() || !letter(s[0])) return false;
  return std::all_of(s.begin() + 1, s.end(), [&](char c) {
    return letter(c) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
  });
}
bool isMultiplierName(const std::string& s) {  // lambda_<digits>
  const std::string prefix = "lambda_";
  return s.size() > prefix.size() && s.compare(0, prefix.size(), prefix) == 0 &&
         std::all_of(s.begin() + prefix.size(), s.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
}
bool isHexColour(const std::string& s) {  // #rrggbb
  return s.size() == 7 && s[0] == '#' && std::all_of(s.begin() + 1, s.end(), [](char c) {
           return std::isxdigit(static_cast<unsigned char>(c)) != 0;
         });
}

bool isFunctionName(const std::string& name) {
  for (const auto& [f, arity] : allowedFunctions())
    if (f == name) return true;
  return false;
}

// Lists and maps nested deeper than this are refused (a model file needs a few levels; the
// YAML reader's own limit is higher and gives no reason).
constexpr int kMaxYamlNesting = 64;
std::string nestedTooDeep() {
  return "lists and maps nested deeper than " + std::to_string(kMaxYamlNesting) +
         " levels (a model file needs a few)";
}

// An expression with its definitions written out may nest this deeply (treeDepth): GiNaC and
// the printers of the derived equations recurse once per level.
constexpr int kMaxInlinedDepth = 500;

// The offset of the first byte of `text` that is not part of well-formed UTF-8 (RFC 3629:
// no overlong forms, no surrogates, nothing above U+10FFFF); npos when all of it is.
size_t invalidUtf8At(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    int length = 0;
    unsigned char low = 0x80, high = 0xBF;  // the allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
      length = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      length = 3;
      if (c == 0xE0) low = 0xA0;
      if (c == 0xED) high = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      length = 4;
      if (c == 0xF0) low = 0x90;
      if (c == 0xF4) high = 0x8F;
    } else {
      return i;
    }
    for (int k = 1; k < length; ++k) {
      if (i + k >= text.size()) return i;
      const auto b = static_cast<unsigned char>(text[i + k]);
      if (k == 1 ? (b < low || b > high) : (b & 0xC0) != 0x80) return i;
    }
    i += length;
  }
  return std::string_view::npos;
}

// The loader's exact derivations bring an anchor's entries to normal form only below this
// bound of their expansion (expansionBound): (1 + (x + y)^2)^20 is not expanded.
constexpr long kLoaderExpandLimit = 5000;

// A control model's controls: ∂²H/∂u² is factorised at every point of every path, and its
// symbolic equations have one per control (5000 controls took minutes and gigabytes).
constexpr size_t kMaxControls = 24;

// A parameter's label is shown where its name would be: one short line.
constexpr size_t kMaxLabelBytes = 64;
constexpr size_t kMaxTitleBytes = 200;  // about 100 characters of Greek or accented text

// Whether normal() is cheap for `e`: a bound of its expansion is small.
bool cheapToNormalise(const GiNaC::ex& e) {
  return expansionBound(e, kLoaderExpandLimit) <= kLoaderExpandLimit;
}

// Zero after normal() when that is cheap; an entry too large to normalise is tested as it
// stands (a derivative that vanishes is exactly 0).
bool isZeroExactly(const GiNaC::ex& e) {
  return e.is_zero() || (cheapToNormalise(e) && GiNaC::normal(e).is_zero());
}

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

// [X_a, X_b]ⁱ = ρʲ_a ∂_j ρⁱ_b − ρʲ_b ∂_j ρⁱ_a of the anchor's columns a and b, normalised
// (n×1); `zero` says whether every entry is 0.
GiNaC::matrix anchorBracket(const Variables& v, const GiNaC::matrix& rho, int a, int b,
                            bool& zero) {
  const int n = v.n();
  GiNaC::matrix bracket(n, 1);
  zero = true;
  for (int i = 0; i < n; ++i) {
    GiNaC::ex value = 0;
    for (int j = 0; j < n; ++j)
      value += rho(j, a) * rho(i, b).diff(GiNaC::ex_to<GiNaC::symbol>(v.q(j))) -
               rho(j, b) * rho(i, a).diff(GiNaC::ex_to<GiNaC::symbol>(v.q(j)));
    bracket(i, 0) = GiNaC::normal(value);
    zero &= bracket(i, 0).is_zero();
  }
  return bracket;
}

// Whether a scene expression depends on t or the state (a moving frame worth viewing from
// is one that moves).
bool movesWithState(const Variables& v, const Expression& e) {
  if (e.empty()) return false;
  const GiNaC::ex x = toGinac(e, v.sym);
  if (x.has(v.sym.time())) return true;
  for (int i = 0; i < v.n(); ++i)
    if (x.has(v.q(i))) return true;
  for (int a = 0; a < v.m(); ++a)
    if (x.has(v.y(a))) return true;
  return false;
}

class Loader {
 public:
  Loader(const std::string& text, std::string fileName, std::string path)
      : text_(text), file_(std::move(fileName)) {
    data_ = std::make_shared<ModelData>();
    data_->text = text;
    data_->fileName = file_;
    data_->path = std::move(path);
  }

  std::shared_ptr<const FormulaSystem> load();

 private:
  const std::string& text_;
  mutable std::vector<size_t> lineStarts_;  // offset of each line's first character (positionOf)
  std::string file_;
  std::shared_ptr<ModelData> data_;
  YAML::Node root_;
  SystemInfo info_;
  std::vector<std::string> paramNames_;
  // Each definition's treeDepth with the earlier definitions written out (as GiNaC has it).
  std::vector<int> definitionDepth_;
  // (key, node) of each parameter's keeps_continuous, checked once the definitions are read.
  std::vector<std::pair<std::string, YAML::Node>> keepsContinuous_;

  // ---- errors and positions ----
  [[noreturn]] void fail(const std::string& key, const YAML::Node& node,
                         const std::string& problem) const {
    const YAML::Mark m = node.IsDefined() ? node.Mark() : YAML::Mark::null_mark();
    if (m.is_null()) throw ModelError(file_, key, 0, 0, problem);
    throw ModelError(file_, key, m.line + 1, m.column + 1, problem);
  }
  [[noreturn]] void failAt(const std::string& key, SourcePosition p,
                           const std::string& problem) const {
    throw ModelError(file_, key, p.line, p.column, problem);
  }
  // Line and column of a character of the file: the line from the offsets of the line starts
  // (found once, as every expression asks), the column counted along that line.
  SourcePosition positionOf(size_t index) const {
    index = std::min(index, text_.size());
    if (lineStarts_.empty()) {
      lineStarts_.push_back(0);
      for (size_t i = 0; i < text_.size(); ++i)
        if (text_[i] == '\n') lineStarts_.push_back(i + 1);
    }
    const auto after = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), index);
    const size_t start = *(after - 1);
    SourcePosition p{static_cast<int>(after - lineStarts_.begin()), 1};
    for (size_t i = start; i < index; ++i)
      if ((static_cast<unsigned char>(text_[i]) & 0xC0) != 0x80)
        ++p.column;  // count characters, not UTF-8 continuation bytes
    return p;
  }
  // Where character `offset` of a scalar's value sits in the file.
  SourcePosition positionIn(const YAML::Node& node, int offset) const {
    const YAML::Mark m = node.Mark();
    if (m.is_null() || m.pos < 0 || static_cast<size_t>(m.pos) >= text_.size())
      return {m.line + 1, m.column + 1 + offset};
    size_t i = static_cast<size_t>(m.pos);
    const char c = text_[i];
    if (c == '"' || c == '\'') return positionOf(i + 1 + offset);
    if (c == '|' || c == '>') {
      // A block scalar: its lines start on the next line, at the block's indentation.
      size_t line = text_.find('\n', i);
      if (line == std::string::npos) return positionOf(i);
      size_t start = line + 1;
      size_t indent = 0;
      while (start + indent < text_.size() && text_[start + indent] == ' ') ++indent;
      size_t at = start + indent;
      for (int k = 0; k < offset && at < text_.size(); ++k) {
        if (text_[at] == '\n') {
          at += 1 + indent;
        } else {
          ++at;
        }
      }
      return positionOf(at);
    }
    return positionOf(i + offset);
  }

  // ---- scalars ----
  std::string scalar(const YAML::Node& node, const std::string& key, const char* what) const {
    if (!node.IsDefined() || node.IsNull()) fail(key, node, std::string("missing ") + what);
    if (!node.IsScalar()) fail(key, node, std::string("expected ") + what);
    return node.Scalar();
  }
  double number(const YAML::Node& node, const std::string& key) const {
    const std::string s = scalar(node, key, "a number");
    const char* begin = s.c_str();
    char* end = nullptr;
    const double v = std::strtod(begin, &end);
    while (end && *end == ' ') ++end;
    if (end == begin || *end != '\0' || !std::isfinite(v) ||
        s.find_first_of("xXpP") != std::string::npos || s.find("inf") != std::string::npos ||
        s.find("nan") != std::string::npos)
      fail(key, node, "'" + echoInput(s) + "' is not a finite number (write e.g. 0.5 or 1e-3)");
    return v;
  }
  bool boolean(const YAML::Node& node, const std::string& key) const {
    const std::string s = scalar(node, key, "true or false");
    if (s == "true") return true;
    if (s == "false") return false;
    fail(key, node, "'" + echoInput(s) + "' is not true or false");
  }
  std::string identifier(const YAML::Node& node, const std::string& key) const {
    const std::string s = scalar(node, key, "a name");
    if (!isName(s, false))
      fail(key, node,
           "'" + echoInput(s) + "' is not a name (letters, digits and _, starting with a letter)");
    if (s == "t" || s == "pi" || isFunctionName(s) || isMultiplierName(s))
      fail(key, node, "'" + s + "' is reserved (t, pi, the functions and lambda_<number>)");
    return s;
  }
  void checkMap(const YAML::Node& node, const std::string& key,
                std::initializer_list<const char*> allowed) const {
    if (!node.IsMap()) fail(key, node, "expected a map of keys");
    for (const auto& kv : node) {
      const std::string k = kv.first.Scalar();
      if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return k == a; }))
        fail(key.empty() ? echoInput(k) : key + "." + echoInput(k), kv.first,
             "unknown key '" + echoInput(k) +
                 "' (allowed: " + joined({allowed.begin(), allowed.end()}) + ")");
    }
  }
  const YAML::Node sequence(const YAML::Node& node, const std::string& key) const {
    if (!node.IsSequence()) fail(key, node, "expected a list");
    return node;
  }

  // ---- names and expressions ----
  std::set<std::string> taken_;
  void declare(const std::string& name, const YAML::Node& node, const std::string& key) {
    if (!taken_.insert(name).second) fail(key, node, "the name '" + name + "' is defined twice");
  }
  // Names visible to an expression: kinds allowed and how many definitions so far.
  struct Scope {
    bool time = true, coordinates = true, velocities = true, multipliers = false, controls = false;
    int definitions = -1;  // -1: all
  };
  Expression expression(const YAML::Node& node, const std::string& key, Scope scope) const {
    if (node.IsDefined() && node.IsScalar() && node.Scalar().empty())
      fail(key, node, "empty expression");
    const std::string text = scalar(node, key, "an expression");
    const SlotLayout& L = data_->layout;
    const int defs = scope.definitions < 0 ? L.definitions : scope.definitions;
    NameResolver names;
    names.slotOf = [&](const std::string& n) -> int {
      for (int s = 0; s < static_cast<int>(data_->slotNames.size()); ++s) {
        if (data_->slotNames[s] != n) continue;
        if (s == L.time()) return scope.time ? s : -2;
        if (s < L.coordinate(0)) return s;
        if (s < L.velocity(0)) return scope.coordinates ? s : -2;
        if (s < L.definition(0)) return scope.velocities ? s : -2;
        if (s < L.definition(defs)) return s;
        if (s < L.multiplier(0)) return -3;  // a later definition
        if (s < L.control(0)) return scope.multipliers ? s : -2;
        return scope.controls ? s : -2;
      }
      return -1;
    };
    names.known = [&] {
      std::vector<std::string> k;
      for (int s = 0; s < static_cast<int>(data_->slotNames.size()); ++s)
        if (names.slotOf(data_->slotNames[s]) >= 0) k.push_back(data_->slotNames[s]);
      k.push_back("pi");
      return joined(k);
    };
    try {
      // Names the scope forbids get their own message.
      Expression e = parseExpression(
          text, {[&](const std::string& n) {
                   const int s = names.slotOf(n);
                   if (s == -2)
                     throw ExpressionError(
                         -1, "'" + n + "' cannot be used here (" + forbidden(scope) + ")");
                   if (s == -3)
                     throw ExpressionError(-1, "'" + n +
                                                   "' is defined later: a definition "
                                                   "may use earlier ones only");
                   return s;
                 },
                 names.known});
      e.key = key;
      e.where = positionIn(node, 0);
      const int depth = treeDepth(e, [&](int slot) {
        const int d = slot - L.definition(0);
        return d >= 0 && d < static_cast<int>(definitionDepth_.size()) ? definitionDepth_[d] : 1;
      });
      if (depth > kMaxInlinedDepth)
        fail(key, node,
             "with its definitions written out, the expression nests deeper than " +
                 std::to_string(kMaxInlinedDepth) +
                 " levels (the symbolic derivations work level by level)");
      return e;
    } catch (const ExpressionError& e) {
      int offset = e.offset();
      if (offset < 0) offset = 0;
      failAt(key, positionIn(node, offset), e.what());
    }
  }
  static std::string forbidden(const Scope& s) {
    std::vector<std::string> no;
    if (!s.time) no.push_back("t");
    if (!s.coordinates) no.push_back("coordinates");
    if (!s.velocities) no.push_back("velocities");
    if (!s.multipliers) no.push_back("multipliers");
    if (!s.controls) no.push_back("controls");
    return "not allowed here: " + joined(no);
  }

  int velocityIndex(const std::string& name) const {
    for (int a = 0; a < static_cast<int>(info_.velocities.size()); ++a)
      if (info_.velocities[a] == name) return a;
    return -1;
  }
  int coordinateIndex(const std::string& name) const {
    for (int i = 0; i < static_cast<int>(info_.coordinates.size()); ++i)
      if (info_.coordinates[i] == name) return i;
    return -1;
  }

  void readHeader();
  void readParameters();
  void readNames();
  void readDefinitions();
  // readDynamics: the anchor, the structure, L, Q, Φ, g and the singular places.
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
  // The `bracket` node of each skew entry by its pair (a < b), for messages.
  std::map<std::pair<int, int>, std::pair<std::string, YAML::Node>> bracketEntries_;
  void checkStructureAgainstAnchor(const Variables& v, const GiNaC::matrix& rho);
  bool vanishesAtSamples(const Variables& v, const GiNaC::ex& lhs, const GiNaC::ex& rhs) const;
  void readLagrangianAndForces();
  void readConstraints();
  void readReferenceFrame();
  void checkReferenceFrame(const FormulaSystem& system) const;
  // Whether Φ(t, q, Γ) = 0 and ġ(t, q, Γ) = 0 were shown identically by GiNaC (the samples
  // of checkReferenceFrame then are not needed); refuses a frame shown not to satisfy them.
  bool frameShownExactly_ = false;
  void checkFrameExactly(const Variables& v);
  void readControls();
  void refuseOptimizeColumns();
  void readControlSection();
  void readSingular();
  void readOutputs();
  // readInitial: the state's units, initial values and order, and what the front ends and
  // the engine are told about its variables.
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
  // readScene: what is drawn and how the scene may be edited.
  void readScene();
  SceneBodySpec readBody(const YAML::Node& b, const std::string& key,
                         std::set<std::string>& bodyNames) const;
  SceneArrowSpec readArrow(const YAML::Node& a, const std::string& key) const;
  ScenePointSpec readPoint(const YAML::Node& p, const std::string& key) const;
  void readDrag(const YAML::Node& drag, const std::set<std::string>& bodyNames);
  void readLabels();
  void unitsIntoLabels();
  // derive: the exact derivations (GiNaC).
  void derive();
  Expression toModel(const GiNaC::ex& e, const SymbolTable& sym, const std::string& key) const;
  GiNaC::matrix deriveAnchor(const Variables& v);
  void checkAnchorEntry(const Variables& v, int i, const GiNaC::exmap& zeroY,
                        GiNaC::matrix& rho) const;
  void deriveStructure(const Variables& v, const GiNaC::matrix& rho);
  void structureFromAnchor(const Variables& v, const GiNaC::matrix& rho);
  void deriveHolonomic(const Variables& v, const GiNaC::matrix& rho);
  void findMovingFrame(const Variables& v);
  // load: the file as YAML, then the parts above, then what the evaluation needs.
  void parseYaml();
  std::optional<SourcePosition> keyWithoutColonBefore(int line) const;
  std::string equationsText() const;
  void measureExpressions();
  std::vector<Expression> vector3(const YAML::Node& node, const std::string& key, int count,
                                  Scope scope) const;
  std::vector<SceneRotation> rotations(const YAML::Node& node, const std::string& key,
                                       Scope scope) const;
  void checkRegular(const std::shared_ptr<const FormulaSystem>& system) const;

  // yaml-cpp keeps both entries of a key written twice in a map (lookups find the first):
  // refused here, in every map of the file. Stops looking after `budget` nodes, so that
  // aliases repeating a node many times cost a bounded time.
  void checkDuplicateKeys(const YAML::Node& node, int depth = 0) const {
    long budget = 200000;
    checkDuplicateKeys(node, depth, budget);
  }
  void checkDuplicateKeys(const YAML::Node& node, int depth, long& budget) const {
    if (--budget < 0) return;
    if (depth > kMaxYamlNesting && (node.IsMap() || node.IsSequence()))
      fail("", node, nestedTooDeep());
    if (node.IsMap()) {
      std::set<std::string> seen;
      for (const auto& kv : node) {
        if (kv.first.IsScalar() && !seen.insert(kv.first.Scalar()).second)
          fail(echoInput(kv.first.Scalar()), kv.first,
               "duplicate key '" + echoInput(kv.first.Scalar()) + "' (each key may appear once)");
        checkDuplicateKeys(kv.second, depth + 1, budget);
      }
    } else if (node.IsSequence()) {
      for (const auto& item : node) checkDuplicateKeys(item, depth + 1, budget);
    }
  }
};

void Loader::readHeader() {
  const YAML::Node& r = root_;
  for (const auto& kv : r) {
    const std::string k = kv.first.Scalar();
    if (std::none_of(std::begin(kTopKeys), std::end(kTopKeys),
                     [&](const char* a) { return k == a; }))
      fail(echoInput(k), kv.first,
           "unknown key '" + echoInput(k) +
               "' (allowed: " + joined({std::begin(kTopKeys), std::end(kTopKeys)}) + ")");
  }
  if (!r["format"])
    fail("format", r, "missing key 'format' (write format: nonholonomic-lab-system)");
  if (scalar(r["format"], "format", "the format name") != "nonholonomic-lab-system")
    fail("format", r["format"],
         "'" + echoInput(r["format"].Scalar()) +
             "' is not a model file format (expected nonholonomic-lab-system)");
  if (!r["version"]) fail("version", r, "missing key 'version' (write version: 1)");
  if (scalar(r["version"], "version", "a version") != "1")
    fail("version", r["version"],
         "version " + echoInput(r["version"].Scalar()) +
             " is not supported (this program reads version 1)");
  if (!r["name"]) fail("name", r, "missing key 'name'");
  const std::string name = scalar(r["name"], "name", "a name");
  if (!isName(name, true))
    fail("name", r["name"],
         "'" + echoInput(name) + "' is not a system name (allowed: [a-z][a-z0-9_]*)");
  info_.name = name;
  info_.title = r["title"] ? scalar(r["title"], "title", "a title") : name;
  // A title is one line of the system box, the window and the System dock: a 100 KB one made
  // the app lay it out for half a minute and widen the window to 32,767 px.
  if (r["title"] &&
      (info_.title.empty() || info_.title.size() > kMaxTitleBytes || !isOneLine(info_.title)))
    fail("title", r["title"],
         "the title is not one line of 1 to " + std::to_string(kMaxTitleBytes) + " bytes (" +
             std::to_string(info_.title.size()) + " given)");
  if (r["description"]) info_.description = scalar(r["description"], "description", "text");
  if (r["source"]) info_.source = scalar(r["source"], "source", "text");
  if (r["initialization"])
    info_.initialization = scalar(r["initialization"], "initialization", "text");
}

void Loader::readParameters() {
  const YAML::Node list = root_["parameters"];
  if (!list) return;
  sequence(list, "parameters");
  for (size_t i = 0; i < list.size(); ++i) {
    const YAML::Node p = list[i];
    const std::string key = "parameters[" + std::to_string(i + 1) + "]";
    checkMap(p, key,
             {"name", "label", "default", "unit", "description", "min", "max", "min_exclusive",
              "max_exclusive", "keeps_continuous"});
    ParameterInfo info;
    info.name = identifier(p["name"], key + ".name");
    declare(info.name, p["name"], key + ".name");
    info.label = info.name;
    if (p["label"]) {
      info.label = scalar(p["label"], key + ".label", "a label (the name to show, e.g. Ω₀)");
      if (info.label.empty() || info.label.size() > kMaxLabelBytes || !isOneLine(info.label))
        fail(key + ".label", p["label"],
             "'" + echoInput(info.label) + "' is not a label (one line of 1 to " +
                 std::to_string(kMaxLabelBytes) + " bytes, e.g. \"Ω₀\")");
    }
    if (!p["default"]) fail(key, p, "missing key 'default' (the parameter's value)");
    info.defaultValue = number(p["default"], key + ".default");
    if (p["unit"]) info.unit = scalar(p["unit"], key + ".unit", "a unit");
    if (p["description"]) info.description = scalar(p["description"], key + ".description", "text");
    if (p["min"]) info.min = number(p["min"], key + ".min");
    if (p["max"]) info.max = number(p["max"], key + ".max");
    if (p["min_exclusive"]) info.minExclusive = boolean(p["min_exclusive"], key + ".min_exclusive");
    if (p["max_exclusive"]) info.maxExclusive = boolean(p["max_exclusive"], key + ".max_exclusive");
    if (p["keeps_continuous"]) {
      info_.continuousPhases.push_back(
          {info.name, identifier(p["keeps_continuous"], key + ".keeps_continuous")});
      keepsContinuous_.emplace_back(key + ".keeps_continuous", p["keeps_continuous"]);
    }
    if (!info.allows(info.defaultValue))
      fail(key + ".default", p["default"],
           "the default " + p["default"].Scalar() + " is outside the allowed range " +
               info.rangeText());
    paramNames_.push_back(info.name);
    info_.parameters.push_back(std::move(info));
  }
}

void Loader::readNames() {
  for (const char* which : {"coordinates", "velocities"}) {
    const YAML::Node list = root_[which];
    std::vector<std::string>& names =
        std::string(which) == "coordinates" ? info_.coordinates : info_.velocities;
    if (!list) {
      if (std::string(which) == "velocities") fail(which, root_, "missing key 'velocities'");
      continue;
    }
    sequence(list, which);
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string key = std::string(which) + "[" + std::to_string(i + 1) + "]";
      const std::string n = identifier(list[i], key);
      declare(n, list[i], key);
      names.push_back(n);
    }
  }
  const int n = static_cast<int>(info_.coordinates.size());
  const int m = static_cast<int>(info_.velocities.size());
  if (m == 0) fail("velocities", root_["velocities"], "at least one velocity is needed");
  if (n > kMaxCoordinates)
    fail("coordinates", root_["coordinates"],
         std::to_string(n) + " coordinates; at most " + std::to_string(kMaxCoordinates) +
             " are supported");
  if (m > kMaxVelocities)
    fail("velocities", root_["velocities"],
         std::to_string(m) + " velocities; at most " + std::to_string(kMaxVelocities) +
             " are supported");
}

void Loader::readDefinitions() {
  // Slots first: definitions are named in order, multipliers after.
  const YAML::Node defs = root_["definitions"];
  std::vector<std::pair<std::string, YAML::Node>> entries;
  if (defs) {
    if (!defs.IsMap()) fail("definitions", defs, "expected a map name → expression");
    for (const auto& kv : defs) {
      const std::string key = "definitions." + kv.first.Scalar();
      const std::string n = identifier(kv.first, key);
      declare(n, kv.first, key);
      entries.emplace_back(n, kv.second);
    }
  }
  int k = 0, h = 0;
  if (root_["constraints"])
    k = static_cast<int>(sequence(root_["constraints"], "constraints").size());
  if (root_["holonomic"]) h = static_cast<int>(sequence(root_["holonomic"], "holonomic").size());
  SlotLayout& L = data_->layout;
  L.parameters = static_cast<int>(info_.parameters.size());
  L.coordinates = static_cast<int>(info_.coordinates.size());
  L.velocities = static_cast<int>(info_.velocities.size());
  L.definitions = static_cast<int>(entries.size());
  L.multipliers = k + h;
  L.controls = static_cast<int>(info_.controls.size());
  auto& names = data_->slotNames;
  names.push_back("t");
  for (const auto& p : info_.parameters) names.push_back(p.name);
  for (const auto& q : info_.coordinates) names.push_back(q);
  for (const auto& y : info_.velocities) names.push_back(y);
  for (const auto& [n, node] : entries) names.push_back(n);
  for (int c = 0; c < k + h; ++c) names.push_back("lambda_" + std::to_string(c + 1));
  for (const auto& u : info_.controls) names.push_back(u);
  for (size_t d = 0; d < entries.size(); ++d) {
    Scope s;
    s.definitions = static_cast<int>(d);
    data_->definitionNames.push_back(entries[d].first);
    data_->definitions.push_back(
        expression(entries[d].second, "definitions." + entries[d].first, s));
    definitionDepth_.push_back(treeDepth(data_->definitions.back(), [&](int slot) {
      const int e = slot - L.definition(0);
      return e >= 0 && e < static_cast<int>(d) ? definitionDepth_[e] : 1;
    }));
  }
  for (const auto& [key, node] : keepsContinuous_) {
    const auto& defined = data_->definitionNames;
    if (std::find(defined.begin(), defined.end(), node.Scalar()) == defined.end())
      fail(key, node,
           "'" + node.Scalar() +
               "' is not a definition (keeps_continuous names the definition "
               "this parameter is the value at t = 0 of)");
  }
}

void Loader::readDynamics() {
  readAnchor();
  readStructure();
  if (info_.isControlModel()) {
    readControlSection();
  } else {
    readLagrangianAndForces();
    readConstraints();
    readReferenceFrame();
  }
  readSingular();
  readOutputs();
}

// controls: the names of a control model's controls (a model without them has dynamics).
void Loader::readControls() {
  const YAML::Node list = root_["controls"];
  if (!list) {
    for (const char* key : {"control_section", "cost"})
      if (root_[key])
        fail(key, root_[key],
             std::string("'") + key +
                 "' belongs to a control model: name its controls in "
                 "'controls: [u1, …]'");
    return;
  }
  sequence(list, "controls");
  if (list.size() == 0) fail("controls", list, "name at least one control");
  if (list.size() > kMaxControls)
    fail("controls", list,
         std::to_string(list.size()) + " controls; at most " + std::to_string(kMaxControls) +
             " are supported");
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string key = "controls[" + std::to_string(i + 1) + "]";
    const std::string n = identifier(list[i], key);
    declare(n, list[i], key);
    info_.controls.push_back(n);
  }
  for (const char* key : {"lagrangian", "constraints", "holonomic", "forces", "reference_frame"})
    if (root_[key])
      fail(key, root_[key],
           std::string("a control model has no '") + key +
               "': it moves as its controls say (control_section) at the price of its 'cost'");
}

// The columns `nhsim optimize` adds to the state: cost, and a control model's controls and
// costates xi_<velocity>, or the multipliers mu_<number> of a vakonomic problem. No
// coordinate, velocity or control may take one of their names (two columns of one name).
void Loader::refuseOptimizeColumns() {
  const bool control = info_.isControlModel();
  auto reserved = [&](const std::string& n) {
    if (n == "cost") return true;
    if (!control)
      return n.size() > 3 && n.rfind("mu_", 0) == 0 &&
             n.find_first_not_of("0123456789", 3) == std::string::npos;
    for (const auto& v : info_.velocities)
      if (n == "xi_" + v) return true;
    return false;
  };
  for (const char* which : {"coordinates", "velocities", "controls"}) {
    const YAML::Node names = root_[which];
    if (!names || !names.IsSequence()) continue;
    for (size_t i = 0; i < names.size(); ++i)
      if (reserved(names[i].Scalar()))
        fail(std::string(which) + "[" + std::to_string(i + 1) + "]", names[i],
             "'" + names[i].Scalar() + "' is the name of a column that 'nhsim optimize' writes " +
                 (control ? "(cost, xi_<velocity>)" : "(cost, mu_<number>)") + ": choose another");
  }
}

// control_section (every velocity as f(t, q, u)) and cost (L(t, q, u)) of a control model.
void Loader::readControlSection() {
  const YAML::Node section = root_["control_section"];
  if (!section)
    fail("control_section", root_,
         "missing key 'control_section': a control model gives every velocity as an "
         "expression of t, coordinates and controls");
  if (!section.IsMap()) fail("control_section", section, "expected a map velocity → expression");
  const int m = static_cast<int>(info_.velocities.size());
  data_->controlSection.resize(m);
  std::vector<bool> seen(m, false);
  Scope scope;
  scope.velocities = false;
  scope.controls = true;
  scope.definitions = 0;
  for (const auto& kv : section) {
    const std::string v = kv.first.Scalar();
    const int a = velocityIndex(v);
    if (a < 0)
      fail("control_section." + v, kv.first,
           "'" + v + "' is not a velocity (velocities: " + joined(info_.velocities) + ")");
    if (seen[a]) fail("control_section." + v, kv.first, "the velocity '" + v + "' has two entries");
    seen[a] = true;
    data_->controlSection[a] = expression(kv.second, "control_section." + v, scope);
  }
  for (int a = 0; a < m; ++a)
    if (!seen[a])
      fail("control_section", section,
           "no entry for the velocity '" + info_.velocities[a] +
               "' (the section gives every velocity as f(t, q, u))");
  if (!root_["cost"])
    fail("cost", root_, "missing key 'cost': the running cost L(t, q, u) to minimise");
  data_->cost = expression(root_["cost"], "cost", scope);
}

// anchor: q̇ of every coordinate as an expression of q and the velocities.
void Loader::readAnchor() {
  const int n = static_cast<int>(info_.coordinates.size());
  const int m = static_cast<int>(info_.velocities.size());
  const YAML::Node anchor = root_["anchor"];
  if (!anchor) {
    if (n != 0 && n != m)
      fail("anchor", root_,
           "missing key 'anchor': with " + std::to_string(n) + " coordinates and " +
               std::to_string(m) + " velocities, say how q̇ depends on the velocities");
    return;
  }
  if (!anchor.IsMap()) fail("anchor", anchor, "expected a map coordinate → expression for q̇");
  data_->anchorGiven = true;
  data_->anchorText.resize(n);
  std::vector<bool> seen(n, false);
  for (const auto& kv : anchor) {
    const std::string c = kv.first.Scalar();
    const int i = coordinateIndex(c);
    if (i < 0)
      fail("anchor." + c, kv.first,
           "'" + c + "' is not a coordinate (coordinates: " + joined(info_.coordinates) + ")");
    if (seen[i]) fail("anchor." + c, kv.first, "the coordinate '" + c + "' has two entries");
    seen[i] = true;
    Scope s;
    s.time = false;
    data_->anchorText[i] = expression(kv.second, "anchor." + c, s);
  }
  for (int i = 0; i < n; ++i)
    if (!seen[i])
      fail("anchor", anchor,
           "no entry for the coordinate '" + info_.coordinates[i] +
               "' (the anchor gives q̇ of every coordinate)");
}

// structure: a list of {bracket: [a, b], equals: {c: C^c_ab}, skew: true | false}. A skew
// entry (the default) gives [e_a, e_b] and implies [e_b, e_a] = −[e_a, e_b]; an entry with
// `skew: false` gives [e_a, e_b] only (a general algebroid's bracket, theory: general
// algebroids), so both orders of such a pair are written out and [e_a, e_a] may be non-zero.
void Loader::readStructure() {
  const YAML::Node structure = root_["structure"];
  if (!structure) return;
  data_->structureGiven = true;
  sequence(structure, "structure");
  BracketsSeen seen;
  for (size_t e = 0; e < structure.size(); ++e)
    readStructureEntry(structure[e], "structure[" + std::to_string(e + 1) + "]", seen);
}

// The entry's bracket [a, b] as velocity indices, refused when it repeats or contradicts an
// earlier entry.
std::pair<int, int> Loader::readBracket(const YAML::Node& entry, const std::string& key, bool skew,
                                        BracketsSeen& seen) {
  const YAML::Node br = entry["bracket"];
  if (!br || !br.IsSequence() || br.size() != 2)
    fail(key + ".bracket", br.IsDefined() ? br : entry, "expected [a, b], two velocities");
  const int a = velocityIndex(br[0].IsScalar() ? br[0].Scalar() : "");
  const int b = velocityIndex(br[1].IsScalar() ? br[1].Scalar() : "");
  if (a < 0 || b < 0)
    fail(key + ".bracket", br,
         "a bracket of velocities is needed (velocities: " + joined(info_.velocities) + ")");
  if (a == b && skew)
    fail(key + ".bracket", br,
         "[e_a, e_a] is zero for a skew bracket; give two different velocities, or add "
         "`skew: false` for a bracket that is not skew");
  const std::string shown = "[" + info_.velocities[a] + ", " + info_.velocities[b] + "]";
  const auto [declared, first] = seen.skewOf.insert({{std::min(a, b), std::max(a, b)}, skew});
  if (!first && declared->second != skew)
    fail(key + ".bracket", br,
         "the pair " + shown +
             " is given both as a skew bracket and with `skew: false`; declare each pair one "
             "way");
  if (!first && skew)
    fail(key + ".bracket", br, "this bracket is given twice (skew-symmetry is implied)");
  if (!skew && !seen.ordered.insert({a, b}).second)
    fail(key + ".bracket", br,
         "the bracket " + shown + " is given twice (with `skew: false` each order is given once)");
  return {a, b};
}

void Loader::readStructureEntry(const YAML::Node& entry, const std::string& key,
                                BracketsSeen& seen) {
  checkMap(entry, key, {"bracket", "equals", "skew"});
  const bool skew = !entry["skew"] || boolean(entry["skew"], key + ".skew");
  auto [a, b] = readBracket(entry, key, skew, seen);
  const bool backwards = skew && a > b;  // stored as [e_b, e_a] = −(the given value)
  if (backwards) std::swap(a, b);
  if (skew) bracketEntries_[{a, b}] = {key + ".bracket", entry["bracket"]};
  const YAML::Node eq = entry["equals"];
  if (!eq || !eq.IsMap())
    fail(key + ".equals", eq.IsDefined() ? eq : entry, "expected a map velocity → expression");
  for (const auto& kv : eq) {
    const int c = velocityIndex(kv.first.Scalar());
    if (c < 0)
      fail(key + ".equals." + kv.first.Scalar(), kv.first,
           "'" + kv.first.Scalar() +
               "' is not a velocity (velocities: " + joined(info_.velocities) + ")");
    Scope s;
    s.time = false;
    s.velocities = false;
    StructureTerm term;
    term.a = a;
    term.b = b;
    term.c = c;
    term.skew = skew;
    term.value = expression(kv.second, key + ".equals." + kv.first.Scalar(), s);
    if (backwards) {
      Expression& v = term.value;
      Node neg;
      neg.op = Op::Neg;
      neg.a = static_cast<int>(v.nodes.size()) - 1;
      v.nodes.push_back(neg);
    }
    data_->structure.push_back(std::move(term));
  }
}

void Loader::readLagrangianAndForces() {
  if (!root_["lagrangian"]) fail("lagrangian", root_, "missing key 'lagrangian'");
  data_->lagrangian = expression(root_["lagrangian"], "lagrangian", Scope{});
  data_->forces.resize(info_.velocities.size());
  if (const YAML::Node forces = root_["forces"]) {
    if (!forces.IsMap()) fail("forces", forces, "expected a map velocity → expression");
    for (const auto& kv : forces) {
      const int a = velocityIndex(kv.first.Scalar());
      if (a < 0)
        fail("forces." + kv.first.Scalar(), kv.first,
             "'" + kv.first.Scalar() +
                 "' is not a velocity (velocities: " + joined(info_.velocities) + ")");
      data_->forces[a] = expression(kv.second, "forces." + kv.first.Scalar(), Scope{});
    }
  }
}

// constraints (Φ, of t, q and y) and holonomic (g, of t and q), at most as many as
// velocities.
void Loader::readConstraints() {
  const int m = static_cast<int>(info_.velocities.size());
  if (const YAML::Node c = root_["constraints"]) {
    for (size_t i = 0; i < c.size(); ++i)
      data_->constraints.push_back(
          expression(c[i], "constraints[" + std::to_string(i + 1) + "]", Scope{}));
  }
  if (const YAML::Node g = root_["holonomic"]) {
    Scope s;
    s.velocities = false;
    for (size_t i = 0; i < g.size(); ++i)
      data_->holonomic.push_back(expression(g[i], "holonomic[" + std::to_string(i + 1) + "]", s));
  }
  const int k = static_cast<int>(data_->constraints.size());
  const int h = static_cast<int>(data_->holonomic.size());
  if (k + h > m)
    fail(k > 0 ? "constraints" : "holonomic", root_[k > 0 ? "constraints" : "holonomic"],
         std::to_string(k + h) + " constraints on " + std::to_string(m) +
             " velocities: at most as many independent constraints as velocities");
  if (k + h > kMaxConstraints)
    fail("constraints", root_["constraints"],
         std::to_string(k + h) + " constraints; at most " + std::to_string(kMaxConstraints) +
             " are supported");
  info_.constraintCount = k;
  info_.holonomicCount = h;
}

// reference_frame: the constraints' reference frame Γ(t, q), a velocity expression of t, the
// coordinates and the parameters for the velocities named (the others 0). Checked against the
// constraints once the system is built (checkReferenceFrame).
void Loader::readReferenceFrame() {
  const YAML::Node frame = root_["reference_frame"];
  if (!frame) return;
  if (!frame.IsMap()) fail("reference_frame", frame, "expected a map velocity → expression");
  Scope scope;
  scope.velocities = false;
  data_->referenceFrame.resize(info_.velocities.size());
  for (const auto& kv : frame) {
    const std::string v = kv.first.Scalar();
    const std::string key = "reference_frame." + v;
    const int a = velocityIndex(v);
    if (a < 0)
      fail(key, kv.first,
           "'" + v + "' is not a velocity (velocities: " + joined(info_.velocities) + ")");
    data_->referenceFrame[a] = expression(kv.second, key, scope);
  }
}

// Where the equations are not defined (ext): the run stops where an expression reaches 0.
void Loader::readSingular() {
  const YAML::Node singular = root_["singular"];
  if (!singular) return;
  sequence(singular, "singular");
  for (size_t i = 0; i < singular.size(); ++i) {
    const std::string key = "singular[" + std::to_string(i + 1) + "]";
    const YAML::Node e = singular[i];
    checkMap(e, key, {"expression", "message"});
    if (!e["expression"]) fail(key, e, "missing key 'expression'");
    data_->singular.push_back(expression(e["expression"], key + ".expression", Scope{}));
    info_.singularities.push_back(e["message"] ? scalar(e["message"], key + ".message", "text")
                                               : "'" + data_->singular.back().text + "' reached 0");
  }
}

// Extra quantities to record (ext): `outputs: {H: expression, …}`, each an output column
// named by its key, after the multipliers; its expression reads t, the parameters, the
// coordinates, the velocities and the definitions.
void Loader::readOutputs() {
  const YAML::Node outputs = root_["outputs"];
  if (!outputs) return;
  if (!outputs.IsMap()) fail("outputs", outputs, "expected a map name → expression");
  const std::vector<std::string> reserved = {"t", "energy", "energy_frame", "residual",
                                             "energy_error"};
  for (const auto& kv : outputs) {
    const std::string key = "outputs." + kv.first.Scalar();
    const std::string n = identifier(kv.first, key);
    const bool prefixed = n.rfind("phi_", 0) == 0 || n.rfind("g_", 0) == 0 ||
                          n.rfind("lambda_", 0) == 0 || n.rfind("p_", 0) == 0;
    if (prefixed || std::find(reserved.begin(), reserved.end(), n) != reserved.end())
      fail(key, kv.first,
           "'" + n + "' is the name of a recorded column (t, energy, energy_frame, residual, " +
               "energy_error, phi_…, g_…, lambda_…, p_…): choose another");
    declare(n, kv.first, key);
    data_->outputs.push_back(expression(kv.second, key, Scope{}));
    info_.outputs.push_back(n);
  }
}

void Loader::readInitial() {
  readUnits();
  readInitialValues();
  readIndependent();
  readStateOrder();
  readQuaternions();
  readStateLimits();
  readCoordinateLists();
  readParameterChecks();
}

// The coordinates, then the velocities, for messages (joined() writes "none" for no
// coordinates, which then runs into the velocities' names).
std::string Loader::stateNames() const {
  return joined(info_.coordinates) + (info_.coordinates.empty() ? "" : ", ") +
         joined(info_.velocities);
}

void Loader::readUnits() {
  const YAML::Node units = root_["units"];
  if (!units) return;
  if (!units.IsMap()) fail("units", units, "expected a map state variable → unit");
  for (const auto& kv : units) {
    const std::string name = kv.first.Scalar();
    const std::string key = "units." + name;
    if (coordinateIndex(name) < 0 && velocityIndex(name) < 0)
      fail(key, kv.first,
           "'" + name + "' is neither a coordinate nor a velocity (state: " + stateNames() + ")");
    info_.stateUnits[name] = scalar(kv.second, key, "a unit");
  }
}

void Loader::readInitialValues() {
  info_.defaultCoordinates.assign(info_.coordinates.size(), 0.0);
  info_.defaultVelocities.assign(info_.velocities.size(), 0.0);
  const YAML::Node init = root_["initial"];
  if (!init) return;
  if (!init.IsMap()) fail("initial", init, "expected a map name → number");
  for (const auto& kv : init) {
    const std::string name = kv.first.Scalar();
    const std::string key = "initial." + name;
    const double v = number(kv.second, key);
    if (const int i = coordinateIndex(name); i >= 0)
      info_.defaultCoordinates[i] = v;
    else if (const int a = velocityIndex(name); a >= 0)
      info_.defaultVelocities[a] = v;
    else
      fail(key, kv.first,
           "'" + name + "' is neither a coordinate nor a velocity (state: " + stateNames() + ")");
  }
}

// The velocities kept when completing initial velocities (all of them when not given).
void Loader::readIndependent() {
  const YAML::Node ind = root_["independent"];
  if (!ind) {
    info_.independentVelocities = info_.velocities;
    return;
  }
  sequence(ind, "independent");
  for (size_t i = 0; i < ind.size(); ++i) {
    const std::string v = ind[i].IsScalar() ? ind[i].Scalar() : "";
    if (velocityIndex(v) < 0)
      fail("independent", ind[i],
           "'" + v + "' is not a velocity (velocities: " + joined(info_.velocities) + ")");
    info_.independentVelocities.push_back(v);
  }
}

void Loader::readStateOrder() {
  std::vector<std::string> all = info_.coordinates;
  all.insert(all.end(), info_.velocities.begin(), info_.velocities.end());
  const YAML::Node order = root_["state_order"];
  if (!order) {
    info_.stateOrder = all;
    return;
  }
  sequence(order, "state_order");
  std::vector<std::string> names;
  for (size_t i = 0; i < order.size(); ++i)
    names.push_back(order[i].IsScalar() ? order[i].Scalar() : "");
  std::vector<std::string> a = names, b = all;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  if (a != b)
    fail("state_order", order,
         "must list every coordinate and velocity once (" + joined(all) + ")");
  info_.stateOrder = names;
}

void Loader::readQuaternions() {
  const YAML::Node quats = root_["quaternions"];
  if (!quats) return;
  const int n = static_cast<int>(info_.coordinates.size());
  sequence(quats, "quaternions");
  for (size_t i = 0; i < quats.size(); ++i) {
    const int first = coordinateIndex(quats[i].IsScalar() ? quats[i].Scalar() : "");
    if (first < 0 || first + 4 > n)
      fail("quaternions", quats[i],
           "expected a coordinate followed by three more (w, x, y, z of a unit quaternion)");
    info_.quaternions.push_back({first});
  }
}

void Loader::readStateLimits() {
  const YAML::Node limits = root_["state_limits"];
  if (!limits) return;
  sequence(limits, "state_limits");
  for (size_t i = 0; i < limits.size(); ++i) {
    const std::string key = "state_limits[" + std::to_string(i + 1) + "]";
    const YAML::Node l = limits[i];
    checkMap(l, key, {"name", "min", "max", "min_exclusive", "max_exclusive"});
    ParameterInfo p;
    p.name = scalar(l["name"], key + ".name", "a coordinate or velocity");
    if (coordinateIndex(p.name) < 0 && velocityIndex(p.name) < 0)
      fail(key + ".name", l["name"], "'" + p.name + "' is neither a coordinate nor a velocity");
    if (l["min"]) p.min = number(l["min"], key + ".min");
    if (l["max"]) p.max = number(l["max"], key + ".max");
    if (l["min_exclusive"]) p.minExclusive = boolean(l["min_exclusive"], key + ".min_exclusive");
    if (l["max_exclusive"]) p.maxExclusive = boolean(l["max_exclusive"], key + ".max_exclusive");
    info_.stateLimits.push_back(p);
  }
}

// cyclic (coordinates the equations do not read) and dependent (those the holonomic
// constraints are solved for).
void Loader::readCoordinateLists() {
  auto coordinateList = [&](const char* key, std::vector<std::string>& out) {
    const YAML::Node list = root_[key];
    if (!list) return;
    sequence(list, key);
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string c = list[i].IsScalar() ? list[i].Scalar() : "";
      if (coordinateIndex(c) < 0)
        fail(key, list[i],
             "'" + c + "' is not a coordinate (coordinates: " + joined(info_.coordinates) + ")");
      if (std::find(out.begin(), out.end(), c) != out.end())
        fail(key, list[i], "'" + c + "' is listed twice");
      out.push_back(c);
    }
  };
  coordinateList("cyclic", info_.cyclicCoordinates);
  coordinateList("dependent", info_.dependentCoordinates);
  for (const std::string& c : info_.dependentCoordinates)
    if (std::find(info_.cyclicCoordinates.begin(), info_.cyclicCoordinates.end(), c) !=
        info_.cyclicCoordinates.end())
      fail("dependent", root_["dependent"],
           "'" + c +
               "' is also cyclic: a coordinate the holonomic constraints fix is read by "
               "the equations through them");
  if (!info_.dependentCoordinates.empty() &&
      info_.dependentCoordinates.size() != data_->holonomic.size())
    fail("dependent", root_["dependent"],
         "expected as many coordinates as holonomic constraints (" +
             std::to_string(data_->holonomic.size()) + ")");
}

// parameter_checks: expressions of the parameters that must be positive (or nonnegative).
void Loader::readParameterChecks() {
  const YAML::Node checks = root_["parameter_checks"];
  if (!checks) return;
  sequence(checks, "parameter_checks");
  Scope parametersOnly;
  parametersOnly.time = parametersOnly.coordinates = parametersOnly.velocities = false;
  parametersOnly.definitions = 0;
  for (size_t i = 0; i < checks.size(); ++i) {
    const std::string key = "parameter_checks[" + std::to_string(i + 1) + "]";
    const YAML::Node c = checks[i];
    checkMap(c, key, {"positive", "nonnegative", "message"});
    if (!c["positive"] == !c["nonnegative"])
      fail(key, c, "expected one of 'positive' or 'nonnegative' (an expression of the parameters)");
    ParameterCheck check;
    check.strict = static_cast<bool>(c["positive"]);
    const char* which = check.strict ? "positive" : "nonnegative";
    check.expression = expression(c[which], key + "." + which, parametersOnly);
    if (!c["message"]) fail(key + ".message", c, "missing: a message saying what is allowed");
    check.message = scalar(c["message"], key + ".message", "a message saying what is allowed");
    data_->parameterChecks.push_back(std::move(check));
  }
}

std::vector<Expression> Loader::vector3(const YAML::Node& node, const std::string& key, int count,
                                        Scope scope) const {
  if (!node || !node.IsSequence() || static_cast<int>(node.size()) != count)
    fail(key, node.IsDefined() ? node : root_["scene"],
         "expected a list of " + std::to_string(count) + " expressions");
  std::vector<Expression> out;
  for (int i = 0; i < count; ++i)
    out.push_back(expression(node[i], key + "[" + std::to_string(i + 1) + "]", scope));
  return out;
}

std::vector<SceneRotation> Loader::rotations(const YAML::Node& node, const std::string& key,
                                             Scope scope) const {
  std::vector<SceneRotation> out;
  if (!node) return out;
  std::vector<YAML::Node> items;
  if (node.IsMap())
    items.push_back(node);
  else if (node.IsSequence())
    for (size_t i = 0; i < node.size(); ++i) items.push_back(node[i]);
  else
    fail(key, node,
         "expected {quaternion: [w, x, y, z]} or {axis: [x, y, z], angle: a}, or a list of them");
  for (size_t i = 0; i < items.size(); ++i) {
    const std::string k = node.IsSequence() ? key + "[" + std::to_string(i + 1) + "]" : key;
    checkMap(items[i], k, {"quaternion", "axis", "angle"});
    SceneRotation r;
    if (items[i]["quaternion"]) {
      r.quaternion = vector3(items[i]["quaternion"], k + ".quaternion", 4, scope);
    } else if (items[i]["axis"] && items[i]["angle"]) {
      r.axis = vector3(items[i]["axis"], k + ".axis", 3, scope);
      r.angle = expression(items[i]["angle"], k + ".angle", scope);
    } else {
      fail(k, items[i], "expected quaternion: [w, x, y, z] or axis: [x, y, z] with angle");
    }
    out.push_back(std::move(r));
  }
  return out;
}

// labels: {lambda_1: {label: friction force x, unit: N}, vx: {unit: m/s}} — optional words
// and units for the recorded variables, shown by the app's plots.
void Loader::readLabels() {
  const YAML::Node labels = root_["labels"];
  if (!labels) return;
  if (!labels.IsMap()) fail("labels", labels, "expected a map of variable names");
  const int multipliers = info_.constraintCount + info_.holonomicCount;
  for (const auto& kv : labels) {
    const std::string name = kv.first.Scalar();
    const std::string key = "labels." + name;
    bool known = coordinateIndex(name) >= 0 || velocityIndex(name) >= 0 || name == "energy" ||
                 name == "energy_frame" ||
                 std::find(info_.outputs.begin(), info_.outputs.end(), name) != info_.outputs.end();
    for (int i = 1; i <= multipliers && !known; ++i) known = name == "lambda_" + std::to_string(i);
    if (!known)
      fail(key, kv.first,
           "'" + name +
               "' is not a coordinate, a velocity, energy, energy_frame or lambda_1 … lambda_" +
               std::to_string(multipliers));
    checkMap(kv.second, key, {"label", "unit"});
    VariableLabel v{name, "", ""};
    if (kv.second["label"]) v.label = scalar(kv.second["label"], key + ".label", "words");
    if (kv.second["unit"]) v.unit = scalar(kv.second["unit"], key + ".unit", "a unit");
    const bool state = coordinateIndex(name) >= 0 || velocityIndex(name) >= 0;
    if (state && !v.unit.empty()) {
      const auto old = info_.stateUnits.find(name);
      if (old != info_.stateUnits.end() && old->second != v.unit)
        fail(key + ".unit", kv.second["unit"],
             "unit '" + v.unit + "' disagrees with 'units." + name + ": " + old->second +
                 "' (give a variable's unit once, in labels)");
      info_.stateUnits[name] = v.unit;
    }
    info_.variableLabels.push_back(std::move(v));
  }
}

// The older key `units: {x: m, vx: m/s}` says what `labels: {x: {unit: m}}` says: a state
// variable it names that labels leave without a unit gets it there too, so that plots and the
// initial-condition fields show the same unit whichever form a file uses.
void Loader::unitsIntoLabels() {
  for (const auto& entry : info_.stateUnits) {
    // (Not a structured binding: clang 14 does not let a lambda capture one.)
    const std::string& name = entry.first;
    const std::string& unit = entry.second;
    auto it = std::find_if(info_.variableLabels.begin(), info_.variableLabels.end(),
                           [&name](const VariableLabel& v) { return v.name == name; });
    if (it == info_.variableLabels.end())
      info_.variableLabels.push_back(VariableLabel{name, "", unit});
    else if (it->unit.empty())
      it->unit = unit;
  }
}

void Loader::readScene() {
  const YAML::Node scene = root_["scene"];
  if (!scene) return;
  checkMap(scene, "scene",
           {"extent", "follow", "moving_frame", "drag", "bodies", "arrows", "points"});
  SceneSpec& spec = data_->scene;
  spec.present = true;
  if (scene["extent"]) {
    Scope parametersOnly;
    parametersOnly.time = parametersOnly.coordinates = parametersOnly.velocities = false;
    spec.extent = expression(scene["extent"], "scene.extent", parametersOnly);
  }
  // Positions and sizes read t, q, y, the parameters and the definitions.
  spec.movingFrame = rotations(scene["moving_frame"], "scene.moving_frame", Scope{});
  std::set<std::string> bodyNames;
  if (const YAML::Node bodies = scene["bodies"]) {
    sequence(bodies, "scene.bodies");
    for (size_t i = 0; i < bodies.size(); ++i)
      spec.bodies.push_back(
          readBody(bodies[i], "scene.bodies[" + std::to_string(i + 1) + "]", bodyNames));
  }
  if (const YAML::Node arrows = scene["arrows"]) {
    sequence(arrows, "scene.arrows");
    for (size_t i = 0; i < arrows.size(); ++i)
      spec.arrows.push_back(readArrow(arrows[i], "scene.arrows[" + std::to_string(i + 1) + "]"));
  }
  if (const YAML::Node points = scene["points"]) {
    sequence(points, "scene.points");
    for (size_t i = 0; i < points.size(); ++i)
      spec.points.push_back(readPoint(points[i], "scene.points[" + std::to_string(i + 1) + "]"));
  }
  if (const YAML::Node follow = scene["follow"]) {
    info_.editing.followBody = scalar(follow, "scene.follow", "a body's name");
    if (!bodyNames.count(info_.editing.followBody))
      fail("scene.follow", follow, "no body is called '" + info_.editing.followBody + "'");
  }
  if (const YAML::Node drag = scene["drag"]) readDrag(drag, bodyNames);
}

// A body of scene.bodies; its name, used once, is added to `bodyNames`.
SceneBodySpec Loader::readBody(const YAML::Node& b, const std::string& key,
                               std::set<std::string>& bodyNames) const {
  checkMap(b, key, {"name", "shape", "position", "orientation", "size", "colour", "color"});
  SceneBodySpec body;
  body.name = scalar(b["name"], key + ".name", "a name");
  if (!bodyNames.insert(body.name).second)
    fail(key + ".name", b["name"], "two bodies are called '" + body.name + "'");
  const std::string shape = scalar(b["shape"], key + ".shape", "a shape");
  if (!shapeOfModelName(shape, body.kind))
    fail(key + ".shape", b["shape"],
         "unknown shape '" + shape + "' (allowed: " + joined(modelShapeNames()) + ")");
  body.position = vector3(b["position"], key + ".position", 3, Scope{});
  body.orientation = rotations(b["orientation"], key + ".orientation", Scope{});
  body.size = vector3(b["size"], key + ".size", 3, Scope{});
  const YAML::Node colour = b["colour"] ? b["colour"] : b["color"];
  if (colour) {
    const std::string c = scalar(colour, key + ".colour", "a colour like \"#d04030\"");
    if (!isHexColour(c))
      fail(key + ".colour", colour, "'" + c + "' is not a colour (write \"#rrggbb\")");
    const long v = std::strtol(c.c_str() + 1, nullptr, 16);
    body.colour =
        Eigen::Vector3d(((v >> 16) & 255) / 255.0, ((v >> 8) & 255) / 255.0, (v & 255) / 255.0);
  }
  return body;
}

// An arrow of scene.arrows: its origin and vector may read the multipliers too.
SceneArrowSpec Loader::readArrow(const YAML::Node& a, const std::string& key) const {
  checkMap(a, key, {"name", "kind", "origin", "vector", "unit"});
  SceneArrowSpec arrow;
  arrow.name = scalar(a["name"], key + ".name", "a name");
  if (a["unit"]) arrow.unit = scalar(a["unit"], key + ".unit", "a unit (N·m·s, say)");
  const std::string kind = scalar(a["kind"], key + ".kind", "an arrow kind");
  if (kind == "reaction")
    arrow.kind = ArrowKind::Reaction;
  else if (kind == "force")
    arrow.kind = ArrowKind::Force;
  else if (kind == "velocity")
    arrow.kind = ArrowKind::Velocity;
  else if (kind == "angular_velocity" || kind == "angular velocity")
    arrow.kind = ArrowKind::AngularVelocity;
  else
    fail(
        key + ".kind", a["kind"],
        "unknown arrow kind '" + kind + "' (allowed: reaction, force, velocity, angular_velocity)");
  Scope withLambda;
  withLambda.multipliers = true;
  arrow.origin = vector3(a["origin"], key + ".origin", 3, withLambda);
  arrow.vector = vector3(a["vector"], key + ".vector", 3, withLambda);
  return arrow;
}

ScenePointSpec Loader::readPoint(const YAML::Node& p, const std::string& key) const {
  checkMap(p, key, {"name", "position", "in_moving_frame"});
  ScenePointSpec point;
  point.name = scalar(p["name"], key + ".name", "a name");
  point.position = vector3(p["position"], key + ".position", 3, Scope{});
  if (p["in_moving_frame"])
    point.inMovingFrame = boolean(p["in_moving_frame"], key + ".in_moving_frame");
  return point;
}

// scene.drag: the body dragged, the state variables it moves and the velocity arrow.
void Loader::readDrag(const YAML::Node& drag, const std::set<std::string>& bodyNames) {
  checkMap(drag, "scene.drag", {"body", "x", "y", "arrow", "vx", "vy", "body_axes"});
  DragHandle d;
  d.body = scalar(drag["body"], "scene.drag.body", "a body's name");
  if (!bodyNames.count(d.body))
    fail("scene.drag.body", drag["body"], "no body is called '" + d.body + "'");
  auto stateName = [&](const char* k, bool velocity) -> std::string {
    if (!drag[k]) return "";
    const std::string v = scalar(drag[k], std::string("scene.drag.") + k, "a name");
    if ((velocity ? velocityIndex(v) : coordinateIndex(v)) < 0)
      fail(std::string("scene.drag.") + k, drag[k],
           "'" + v + "' is not a " + (velocity ? "velocity" : "coordinate"));
    return v;
  };
  d.x = stateName("x", false);
  d.y = stateName("y", false);
  d.vx = stateName("vx", true);
  d.vy = stateName("vy", true);
  if (drag["arrow"]) d.arrow = scalar(drag["arrow"], "scene.drag.arrow", "an arrow's name");
  if (drag["body_axes"]) d.velocityInBodyAxes = boolean(drag["body_axes"], "scene.drag.body_axes");
  info_.editing.drag = d;
}

// Exact derivations with GiNaC: the anchor's coefficients (and that it is linear in the
// velocities), structure functions from the anchor, ġ and ∂g/∂q.
void Loader::derive() {
  std::lock_guard lock(ginacMutex());
  const SymbolTable sym = makeSymbols(*data_);
  const Variables v{sym, data_->layout};
  const GiNaC::matrix rho = deriveAnchor(v);
  deriveStructure(v, rho);
  checkStructureAgainstAnchor(v, rho);
  deriveHolonomic(v, rho);
  info_.constantStructure = data_->structureConstant;
  findMovingFrame(v);
  checkFrameExactly(v);
}

// Whether e is a rational function of its symbols (sums, products, integer powers, numbers):
// there GiNaC's normal form is 0 exactly when e is, so a nonzero one decides.
bool isRationalFunction(const GiNaC::ex& e) {
  if (GiNaC::is_a<GiNaC::symbol>(e) || GiNaC::is_a<GiNaC::numeric>(e)) return true;
  if (GiNaC::is_a<GiNaC::power>(e))
    return GiNaC::is_a<GiNaC::numeric>(e.op(1)) &&
           GiNaC::ex_to<GiNaC::numeric>(e.op(1)).is_integer() && isRationalFunction(e.op(0));
  if (!GiNaC::is_a<GiNaC::add>(e) && !GiNaC::is_a<GiNaC::mul>(e)) return false;
  for (size_t i = 0; i < e.nops(); ++i)
    if (!isRationalFunction(e.op(i))) return false;
  return true;
}

// A declared reference frame must satisfy the constraints identically, at every t and q:
// Φ(t, q, Γ(t, q)) and ġ(t, q, Γ(t, q)) are brought to normal form. Zero: shown. Not zero
// for a rational function: refused, naming the constraint and the residual (a frame valid
// near the initial state only, 1 + 10 (x − 0.1)^12 for vy = x vx + 1, would otherwise run
// another motion). Otherwise (functions normal() cannot simplify, or too large to expand)
// checkReferenceFrame decides at samples.
void Loader::checkFrameExactly(const Variables& v) {
  const ModelData& d = *data_;
  if (d.referenceFrame.empty()) return;
  GiNaC::exmap frame;
  for (int a = 0; a < v.m(); ++a)
    frame[v.y(a)] =
        d.referenceFrame[a].empty() ? GiNaC::ex(0) : toGinac(d.referenceFrame[a], v.sym);
  bool shown = true;
  const int k = static_cast<int>(d.constraints.size());
  for (int c = 0; c < k + static_cast<int>(d.holonomicRate.size()); ++c) {
    const Expression& phi = c < k ? d.constraints[c] : d.holonomicRate[c - k];
    GiNaC::ex residual;
    try {
      residual = toGinac(phi, v.sym).subs(frame);
    } catch (const std::exception&) {  // GiNaC: a pole at Γ
      shown = false;
      continue;
    }
    if (residual.is_zero()) continue;
    if (!cheapToNormalise(residual)) {
      shown = false;
      continue;
    }
    const GiNaC::ex normalised = GiNaC::normal(residual);
    if (normalised.is_zero()) continue;
    if (!isRationalFunction(normalised)) {
      shown = false;
      continue;
    }
    std::ostringstream text;
    text << residual;
    const std::string which = c < k ? "constraints[" + std::to_string(c + 1) + "]"
                                    : "the rate of holonomic[" + std::to_string(c - k + 1) + "]";
    fail("reference_frame", root_["reference_frame"],
         "the frame does not satisfy " + which +
             " at every t and q: Φ(t, q, Γ) = " + echoInput(text.str(), 80) +
             " ≠ 0 (Γ must be a velocity the constraints allow everywhere, not only near the "
             "initial state)");
  }
  frameShownExactly_ = shown;
}

// A derived GiNaC expression as a model expression, its messages naming `key`.
Expression Loader::toModel(const GiNaC::ex& e, const SymbolTable& sym,
                           const std::string& key) const {
  try {
    Expression x = fromGinac(e, sym, data_->layout);
    x.key = key;
    return x;
  } catch (const std::exception& err) {
    throw ModelError(file_, key, 0, 0, std::string("cannot be evaluated: ") + err.what());
  }
}

// ρ as GiNaC, n×m: the anchor's coefficients of the velocities (the identity without an
// anchor), also kept as model expressions (ModelData::rho).
GiNaC::matrix Loader::deriveAnchor(const Variables& v) {
  ModelData& d = *data_;
  const int n = v.n(), m = v.m();
  GiNaC::exmap zeroY;
  for (int a = 0; a < m; ++a) zeroY[v.y(a)] = 0;
  GiNaC::matrix rho(n, m);
  if (d.anchorGiven) {
    for (int i = 0; i < n; ++i) checkAnchorEntry(v, i, zeroY, rho);
  } else {
    for (int i = 0; i < n; ++i) rho(i, i) = 1;
  }
  d.rho.resize(static_cast<size_t>(n) * m);
  for (int a = 0; a < m; ++a)
    for (int i = 0; i < n; ++i)
      d.rho[i + n * a] = toModel(rho(i, a), v.sym, "anchor." + d.slotNames[d.layout.coordinate(i)]);
  return rho;
}

// Row i of ρ from q̇ of coordinate i, checked to be linear in the velocities with
// coefficients free of them.
void Loader::checkAnchorEntry(const Variables& v, int i, const GiNaC::exmap& zeroY,
                              GiNaC::matrix& rho) const {
  const ModelData& d = *data_;
  const int m = v.m();
  const Expression& text = d.anchorText[i];
  const std::string& coordinate = d.slotNames[d.layout.coordinate(i)];
  try {
    const GiNaC::ex qdot = toGinac(text, v.sym);
    for (int a = 0; a < m; ++a) {
      const GiNaC::ex c = qdot.diff(GiNaC::ex_to<GiNaC::symbol>(v.y(a)));
      for (int b = 0; b < m; ++b)
        if (!isZeroExactly(c.diff(GiNaC::ex_to<GiNaC::symbol>(v.y(b)))))
          failAt(
              text.key, text.where,
              "q̇ of '" + coordinate + "' is not linear in the velocities (the anchor is ρ(q) y)");
      rho(i, a) = c;
    }
    if (!isZeroExactly(qdot.subs(zeroY)))
      failAt(
          text.key, text.where,
          "q̇ of '" + coordinate + "' has a part without velocities (the anchor is ρ(q) y, linear)");
    for (int a = 0; a < m; ++a) {
      for (int b = 0; b < m; ++b)
        if (rho(i, a).has(v.y(b)))
          failAt(text.key, text.where, "the anchor's coefficients may not depend on velocities");
    }
  } catch (const ModelError&) {
    throw;
  } catch (const std::exception& e) {  // GiNaC: a pole, e.g. log(vx) at vx = 0
    failAt(text.key, text.where, std::string("cannot be derived symbolically: ") + e.what());
  }
}

// Structure: given, or the Hamel symbols of the anchor.
void Loader::deriveStructure(const Variables& v, const GiNaC::matrix& rho) {
  ModelData& d = *data_;
  if (d.structureGiven) {
    for (const StructureTerm& term : d.structure)
      d.structureConstant &= !v.dependsOnQ(toGinac(term.value, v.sym));
  } else if (d.anchorGiven && v.n() > 0) {
    structureFromAnchor(v, rho);
  }
}

// Whether lhs = rhs at three configurations near the defaults, with the default parameters
// (identities normal() does not know, such as sin² + cos² = 1): to 1e-10 relative to their
// size; a configuration where either is not a finite number is passed over.
bool Loader::vanishesAtSamples(const Variables& v, const GiNaC::ex& lhs,
                               const GiNaC::ex& rhs) const {
  GiNaC::exmap at;
  for (size_t j = 0; j < info_.parameters.size(); ++j)
    at[v.sym.bySlot[data_->layout.parameter(static_cast<int>(j))]] =
        GiNaC::numeric(info_.parameters[j].defaultValue);
  const auto valueAt = [](const GiNaC::ex& e, const GiNaC::exmap& point) {
    try {
      const GiNaC::ex x = GiNaC::evalf(e.subs(point));
      if (GiNaC::is_a<GiNaC::numeric>(x) && GiNaC::ex_to<GiNaC::numeric>(x).is_real())
        return GiNaC::ex_to<GiNaC::numeric>(x).to_double();
    } catch (const std::exception&) {  // a pole
    }
    return std::nan("");
  };
  for (int sample = 1; sample <= 3; ++sample) {
    for (int i = 0; i < v.n(); ++i) {
      const double base =
          i < static_cast<int>(info_.defaultCoordinates.size()) ? info_.defaultCoordinates[i] : 0.0;
      at[v.q(i)] = GiNaC::numeric(base + 0.1 * sample * (1 + (i % 3)) / 3.0 + 0.013 * i);
    }
    const double l = valueAt(lhs, at), r = valueAt(rhs, at);
    if (!std::isfinite(l) || !std::isfinite(r)) continue;
    if (std::abs(l - r) > 1e-10 * (1 + std::abs(l) + std::abs(r))) return false;
  }
  return true;
}

// A skew structure given in the file must be one the anchor maps to the brackets of its
// columns, ρⁱ_d C^d_ab = [ρe_a, ρe_b]ⁱ for a < b (theory: algebroids), exactly (normal form)
// or, where normal() cannot decide, at sample configurations: else the motion would follow
// brackets its anchor contradicts. Refused at the pair's entry unless the file says
// `structure_checked: false`, which keeps the structure and makes every run warn
// (ModelData::loadWarnings). A general algebroid's (`skew: false` entries) is not checked.
void Loader::checkStructureAgainstAnchor(const Variables& v, const GiNaC::matrix& rho) {
  const ModelData& d = *data_;
  const YAML::Node flag = root_["structure_checked"];
  const bool checked = !flag || boolean(flag, "structure_checked");
  if (!d.structureGiven) return;  // derived from the anchor, or none: compatible
  for (const StructureTerm& term : d.structure)
    if (!term.skew) return;
  const int n = v.n(), m = v.m();
  for (int a = 0; a < m; ++a)
    for (int b = a + 1; b < m; ++b) {
      std::vector<GiNaC::ex> C(m, 0);  // C^c_ab
      for (const StructureTerm& term : d.structure)
        if (term.a == a && term.b == b) C[term.c] += toGinac(term.value, v.sym);
      for (int i = 0; i < n; ++i) {
        GiNaC::ex mapped = 0, columns = 0;
        for (int c = 0; c < m; ++c) mapped += rho(i, c) * C[c];
        for (int j = 0; j < n; ++j) {
          const GiNaC::symbol qj = GiNaC::ex_to<GiNaC::symbol>(v.q(j));
          columns += rho(j, a) * rho(i, b).diff(qj) - rho(j, b) * rho(i, a).diff(qj);
        }
        if (isZeroExactly(mapped - columns) || vanishesAtSamples(v, mapped, columns)) continue;
        const std::string ea = "e_" + info_.velocities[a], eb = "e_" + info_.velocities[b];
        const std::string mismatch = "ρ[" + ea + ", " + eb + "] ≠ [ρ" + ea + ", ρ" + eb +
                                     "] in q̇ of '" + info_.coordinates[i] + "'";
        if (!checked) {
          data_->loadWarnings.push_back(escapeControl(
              file_ + ": the structure contradicts the anchor: " + mismatch +
              " (kept as given: structure_checked: false); the motion follows the structure"));
          return;
        }
        const auto entry = bracketEntries_.find({a, b});
        const std::string problem =
            "the anchor does not map this bracket to the bracket of its columns: " + mismatch +
            " (a skew structure needs ρ[e_a, e_b] = [ρe_a, ρe_b]); correct the bracket, or add "
            "`structure_checked: false` if it is meant (every run then warns)";
        if (entry == bracketEntries_.end())
          fail("structure", root_["structure"],
               "[" + info_.velocities[a] + ", " + info_.velocities[b] + "] is not given (0), but " +
                   problem.substr(problem.find(':') + 2));
        fail(entry->second.first, entry->second.second, problem);
      }
    }
}

// Each bracket [X_a, X_b] of the anchor's columns solved for C in ρ C = [X_a, X_b] through
// the normal equations, then checked exactly.
void Loader::structureFromAnchor(const Variables& v, const GiNaC::matrix& rho) {
  ModelData& d = *data_;
  const int n = v.n(), m = v.m();
  for (int i = 0; i < n; ++i)
    for (int a = 0; a < m; ++a)
      if (!cheapToNormalise(rho(i, a)))
        fail("structure", root_,
             "the anchor is too large to derive the structure functions symbolically "
             "(its entries would expand to more than " +
                 std::to_string(kLoaderExpandLimit) + " terms): give `structure`");
  GiNaC::matrix rhoT = rho.transpose();
  GiNaC::matrix gram = rhoT.mul(rho);
  const GiNaC::ex det = GiNaC::normal(gram.determinant());
  if (det.is_zero())
    fail("structure", root_,
         "the anchor's columns are dependent, so the structure functions cannot be derived "
         "from it: give `structure`");
  GiNaC::matrix unknowns(m, 1);
  std::vector<GiNaC::symbol> cs;
  for (int c = 0; c < m; ++c) {
    cs.emplace_back("c" + std::to_string(c));
    unknowns(c, 0) = cs.back();
  }
  for (int a = 0; a < m; ++a)
    for (int b = a + 1; b < m; ++b) {
      bool zero = true;
      const GiNaC::matrix bracket = anchorBracket(v, rho, a, b, zero);
      if (zero) continue;
      const GiNaC::matrix C = gram.solve(unknowns, rhoT.mul(bracket));
      for (int i = 0; i < n; ++i) {
        GiNaC::ex r = -bracket(i, 0);
        for (int c = 0; c < m; ++c) r += rho(i, c) * C(c, 0);
        if (!GiNaC::normal(r).is_zero())
          fail("structure", root_,
               "the bracket [" + d.slotNames[d.layout.velocity(a)] + ", " +
                   d.slotNames[d.layout.velocity(b)] +
                   "] of the anchor's columns is not in their span, so the structure "
                   "functions cannot be derived from the anchor: give `structure`");
      }
      for (int c = 0; c < m; ++c) {
        const GiNaC::ex value = GiNaC::normal(C(c, 0));
        if (value.is_zero()) continue;
        StructureTerm term;
        term.a = a;
        term.b = b;
        term.c = c;
        term.value = toModel(value, v.sym, "structure");
        d.structureConstant &= !v.dependsOnQ(value);
        d.structure.push_back(std::move(term));
      }
    }
}

// ġ = ∂g/∂t + ∂g/∂q ρ y, and G = ∂g/∂q.
void Loader::deriveHolonomic(const Variables& v, const GiNaC::matrix& rho) {
  ModelData& d = *data_;
  const int n = v.n(), m = v.m();
  const int h = static_cast<int>(d.holonomic.size());
  d.holonomicJacobian.resize(static_cast<size_t>(h) * n);
  for (int c = 0; c < h; ++c) {
    const GiNaC::ex g = toGinac(d.holonomic[c], v.sym);
    GiNaC::ex rate = g.diff(GiNaC::ex_to<GiNaC::symbol>(GiNaC::ex(v.sym.time())));
    for (int i = 0; i < n; ++i) {
      const GiNaC::ex dg = g.diff(GiNaC::ex_to<GiNaC::symbol>(v.q(i)));
      d.holonomicJacobian[c + h * i] = toModel(dg, v.sym, d.holonomic[c].key);
      GiNaC::ex qdot = 0;
      for (int a = 0; a < m; ++a) qdot += rho(i, a) * v.y(a);
      rate += dg * qdot;
    }
    d.holonomicRate.push_back(toModel(rate, v.sym, d.holonomic[c].key));
  }
}

// A moving frame worth viewing from is one that moves: it depends on t or the state.
void Loader::findMovingFrame(const Variables& v) {
  for (const SceneRotation& r : data_->scene.movingFrame) {
    bool any = movesWithState(v, r.angle);
    for (const auto& e : r.quaternion) any |= movesWithState(v, e);
    for (const auto& e : r.axis) any |= movesWithState(v, e);
    info_.editing.movingFrame |= any;
  }
}

// Samples where a reference frame must satisfy the constraints when GiNaC cannot show it
// identically: the default coordinates and states moved away from them, by 0.05 up to 5
// (where a run may go), each at times up to 20.
constexpr double kFrameSampleTimes[] = {0.0, 0.37, 1.9, 20.0};
constexpr double kFrameSampleOffsets[] = {0.0, 0.05, 0.1, 0.5, 1.5, 5.0};

// Whether the model has a reference frame (ModelData::hasReferenceFrame): a declared Γ must
// satisfy every constraint at the sample states, or the file is refused naming the constraint
// and the residual; without one, Γ = 0 is the frame when it satisfies them (linear
// constraints), and the model has none otherwise (affine constraints).
void Loader::checkReferenceFrame(const FormulaSystem& system) const {
  const bool declared = !data_->referenceFrame.empty();
  if (declared && frameShownExactly_) {
    data_->hasReferenceFrame = true;
    return;
  }
  const std::vector<double> p = system.defaultParameters();
  for (int sample = 0; sample < static_cast<int>(std::size(kFrameSampleOffsets)); ++sample) {
    std::vector<double> q = info_.defaultCoordinates;
    for (size_t i = 0; i < q.size(); ++i)
      q[i] += kFrameSampleOffsets[sample] * std::sin(1.3 * static_cast<double>(i) + 0.7 * sample);
    for (double t : kFrameSampleTimes) {
      std::vector<double> gamma(system.m(), 0.0);
      if (declared) system.referenceFrame(p.data(), t, q.data(), gamma.data());
      const FrameResidual r = frameResidual(system, p.data(), t, q.data(), gamma.data());
      const double residual = r.largest;
      const int worst = r.worst;
      if (std::isnan(residual) && sample > 0) continue;  // outside the model's domain
      if (r.holds) continue;
      if (!declared) {
        data_->hasReferenceFrame = false;
        return;
      }
      const int k = info_.constraintCount;
      const std::string which =
          worst < k ? "constraints[" + std::to_string(worst + 1) + "]"
                    : "the rate of holonomic[" + std::to_string(worst - k + 1) + "]";
      fail("reference_frame", root_["reference_frame"],
           "the frame does not satisfy " + which + ": Φ(t, q, Γ) = " +
               (std::isnan(residual) ? std::string("nan") : formatValue(residual)) +
               " at t = " + formatValue(t) +
               (sample == 0
                    ? std::string(" in the initial coordinates")
                    : " with the coordinates moved by up to " +
                          formatValue(kFrameSampleOffsets[sample]) + " from the initial ones") +
               " (Γ must be a velocity the constraints allow)");
    }
  }
  data_->hasReferenceFrame = true;
}

void Loader::checkRegular(const std::shared_ptr<const FormulaSystem>& system) const {
  try {
    const EquationsOfMotion eq(system, DynamicsKind::Nonholonomic);
    EquationsWorkspace ws(eq);
    std::vector<double> x(eq.stateSize(), 0.0);
    const SystemInfo& s = system->info();
    std::copy(s.defaultCoordinates.begin(), s.defaultCoordinates.end(), x.begin());
    std::copy(s.defaultVelocities.begin(), s.defaultVelocities.end(),
              x.begin() + s.coordinates.size());
    std::vector<double> dx(x.size());
    eq.rhs(ws, 0.0, x.data(), dx.data());
  } catch (const SingularSystemError& e) {
    const std::string what = e.what();
    const bool mass = what.find("mass matrix") != std::string::npos;
    const char* key = mass ? "lagrangian" : (info_.constraintCount ? "constraints" : "holonomic");
    fail(key, root_[key],
         std::string(mass ? "the mass matrix ∂²L/∂y² is singular at the initial state"
                          : "A M⁻¹ Aᵀ is singular at the initial state: the constraints are "
                            "dependent there") +
             " (" + what + ")");
  }
}

// The line before a YAML error at (0-based) `line` that lacks the ':' of its key: yaml-cpp
// reads `title Ray` and the next line's `coordinates` as one key and stops at the next
// line's ':' ("illegal map value"). The last non-blank line before `line`, when it is not a
// comment, a list item or a flow collection and has no ':'; nullopt otherwise.
std::optional<SourcePosition> Loader::keyWithoutColonBefore(int line) const {
  std::vector<std::string_view> lines;
  for (size_t start = 0; start <= text_.size() && static_cast<int>(lines.size()) < line;) {
    const size_t end = std::min(text_.find('\n', start), text_.size());
    lines.emplace_back(text_.data() + start, end - start);
    start = end + 1;
  }
  for (int l = static_cast<int>(lines.size()) - 1; l >= 0; --l) {
    const std::string_view text = lines[l];
    const size_t first = text.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) continue;
    if (std::string_view("#-[{").find(text[first]) != std::string_view::npos ||
        text.find(':') != std::string_view::npos)
      return std::nullopt;
    return positionOf(static_cast<size_t>(text.data() - text_.data()) + first);
  }
  return std::nullopt;
}

// The file as YAML: UTF-8 text without NUL bytes, nested a few levels, each key once, a map.
void Loader::parseYaml() {
  if (const size_t nul = text_.find('\0'); nul != std::string::npos) {
    const SourcePosition p = positionOf(nul);
    throw ModelError(file_, "", p.line, p.column,
                     "the file contains a NUL byte (a model file is UTF-8 text)");
  }
  if (const size_t bad = invalidUtf8At(text_); bad != std::string::npos) {
    const SourcePosition p = positionOf(bad);
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X",
                  static_cast<unsigned>(static_cast<unsigned char>(text_[bad])));
    throw ModelError(file_, "", p.line, p.column,
                     "the file is not valid UTF-8: byte " + std::string(hex) + " at byte offset " +
                         std::to_string(bad) + " (a model file is UTF-8 text)");
  }
  try {
    root_ = YAML::Load(text_);
  } catch (const YAML::DeepRecursion& e) {
    throw ModelError(file_, "", e.mark.is_null() ? 0 : e.mark.line + 1,
                     e.mark.is_null() ? 0 : e.mark.column + 1, nestedTooDeep());
  } catch (const YAML::Exception& e) {
    if (!e.mark.is_null() && e.msg == YAML::ErrorMsg::MAP_VALUE)
      if (const auto p = keyWithoutColonBefore(e.mark.line))
        throw ModelError(file_, "", p->line, p->column,
                         "not valid YAML: this line has no ':' after its key (a key and its "
                         "value are written `key: value`)");
    throw ModelError(file_, "", e.mark.is_null() ? 0 : e.mark.line + 1,
                     e.mark.is_null() ? 0 : e.mark.column + 1, "not valid YAML: " + e.msg);
  }
  checkDuplicateKeys(root_);
  if (!root_.IsMap())
    throw ModelError(file_, "", 1, 1,
                     root_.IsNull()
                         ? "the file is empty (expected a model: format, version, name, …)"
                         : "expected a map of keys (format, version, name, …)");
}

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
                                     joined(info_.independentVelocities) +
                                     " (least change in kinetic energy)."
                               : "Every initial velocity is free.";
  measureExpressions();
  auto system = std::make_shared<FormulaSystem>(data_, info_);
  const std::vector<double> defaults = system->defaultParameters();
  if (const std::string why = system->checkParameters(defaults.data()); !why.empty())
    fail("parameter_checks", root_["parameter_checks"], "the default parameters fail: " + why);
  if (!info_.isControlModel()) {
    checkRegular(system);
    checkReferenceFrame(*system);
  }
  return system;
}

}  // namespace

std::shared_ptr<const FormulaSystem> loadModelText(const std::string& text,
                                                   const std::string& fileName,
                                                   const std::string& path) {
  return Loader(text, fileName, path).load();
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

bool isModelFilePath(const std::string& path) {
  auto endsWith = [&](const char* s) {
    const std::string e(s);
    return path.size() > e.size() && path.compare(path.size() - e.size(), e.size(), e) == 0;
  };
  if (endsWith(".yaml") || endsWith(".yml")) return true;
  if (endsWith(".json")) return false;
  std::error_code ec;  // only a regular file is looked into: a FIFO would block
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  std::ifstream in(path);
  if (!in) return false;
  char buffer[4096] = {};
  in.read(buffer, sizeof buffer - 1);
  return std::string(buffer).find("nonholonomic-lab-system") != std::string::npos;
}

}  // namespace nh::model
// SPDX-License-Identifier: GPL-3.0-or-later
