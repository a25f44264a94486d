// Reading a model file (model_loader.h): the text as YAML (UTF-8, each key once, nested a few
// levels), positions in the file for messages (FILE:LINE:COLUMN), scalars, maps, lists, names
// and expressions, and the first parts of the file: the header, the parameters, the names of
// the coordinates, velocities and controls, and the definitions.
#include <yaml-cpp/depthguard.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <string_view>

#include "core/model/model_loader.h"
#include "core/nh/dynamics.h"
#include "core/nh/messages.h"

namespace nh::model::loader {

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

// A control model's controls: ∂²H/∂u² is factorised at every point of every path, and its
// symbolic equations have one per control (5000 controls took minutes and gigabytes).
constexpr size_t kMaxControls = 24;

// A parameter's label is shown where its name would be: one short line.
constexpr size_t kMaxLabelBytes = 64;
constexpr size_t kMaxTitleBytes = 200;  // about 100 characters of Greek or accented text

}  // namespace

std::string namesOrNone(const std::vector<std::string>& names) {
  return names.empty() ? "none" : nh::joined(names);
}

void Loader::fail(const std::string& key, const YAML::Node& node,
                  const std::string& problem) const {
  const YAML::Mark m = node.IsDefined() ? node.Mark() : YAML::Mark::null_mark();
  if (m.is_null()) throw ModelError(file_, key, 0, 0, problem);
  throw ModelError(file_, key, m.line + 1, m.column + 1, problem);
}
void Loader::failAt(const std::string& key, SourcePosition p, const std::string& problem) const {
  throw ModelError(file_, key, p.line, p.column, problem);
}
// Line and column of a character of the file: the line from the offsets of the line starts
// (found by the constructor, as every expression asks), the column counted along that line.
SourcePosition Loader::positionOf(size_t index) const {
  index = std::min(index, text_.size());
  const auto after = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), index);
  const size_t start = *(after - 1);
  SourcePosition p{static_cast<int>(after - lineStarts_.begin()), 1};
  for (size_t i = start; i < index; ++i)
    if ((static_cast<unsigned char>(text_[i]) & 0xC0) != 0x80)
      ++p.column;  // count characters, not UTF-8 continuation bytes
  return p;
}
// Where character `offset` of a scalar's value sits in the file.
SourcePosition Loader::positionIn(const YAML::Node& node, int offset) const {
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

std::string Loader::scalar(const YAML::Node& node, const std::string& key, const char* what) const {
  if (!node.IsDefined() || node.IsNull()) fail(key, node, std::string("missing ") + what);
  if (!node.IsScalar()) fail(key, node, std::string("expected ") + what);
  return node.Scalar();
}
double Loader::number(const YAML::Node& node, const std::string& key) const {
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
bool Loader::boolean(const YAML::Node& node, const std::string& key) const {
  const std::string s = scalar(node, key, "true or false");
  if (s == "true") return true;
  if (s == "false") return false;
  fail(key, node, "'" + echoInput(s) + "' is not true or false");
}
std::string Loader::identifier(const YAML::Node& node, const std::string& key) const {
  const std::string s = scalar(node, key, "a name");
  if (!isName(s, false))
    fail(key, node,
         "'" + echoInput(s) + "' is not a name (letters, digits and _, starting with a letter)");
  if (s == "t" || s == "pi" || isFunctionName(s) || isMultiplierName(s))
    fail(key, node, "'" + s + "' is reserved (t, pi, the functions and lambda_<number>)");
  return s;
}
void Loader::checkMap(const YAML::Node& node, const std::string& key,
                      std::initializer_list<const char*> allowed) const {
  if (!node.IsMap()) fail(key, node, "expected a map of keys");
  for (const auto& kv : node) {
    const std::string k = kv.first.Scalar();
    if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return k == a; }))
      fail(key.empty() ? echoInput(k) : key + "." + echoInput(k), kv.first,
           "unknown key '" + echoInput(k) +
               "' (allowed: " + namesOrNone({allowed.begin(), allowed.end()}) + ")");
  }
}
const YAML::Node Loader::sequence(const YAML::Node& node, const std::string& key) const {
  if (!node.IsSequence()) fail(key, node, "expected a list");
  return node;
}

void Loader::declare(const std::string& name, const YAML::Node& node, const std::string& key) {
  if (!taken_.insert(name).second) fail(key, node, "the name '" + name + "' is defined twice");
}
Expression Loader::expression(const YAML::Node& node, const std::string& key, Scope scope) const {
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
    return namesOrNone(k);
  };
  try {
    // Names the scope forbids get their own message.
    Expression e =
        parseExpression(text, {[&](const std::string& n) {
                                 const int s = names.slotOf(n);
                                 if (s == -2)
                                   throw ExpressionError(-1, "'" + n + "' cannot be used here (" +
                                                                 forbidden(scope) + ")");
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
std::string Loader::forbidden(const Scope& s) {
  std::vector<std::string> no;
  if (!s.time) no.push_back("t");
  if (!s.coordinates) no.push_back("coordinates");
  if (!s.velocities) no.push_back("velocities");
  if (!s.multipliers) no.push_back("multipliers");
  if (!s.controls) no.push_back("controls");
  return "not allowed here: " + namesOrNone(no);
}

int Loader::velocityIndex(const std::string& name) const {
  for (int a = 0; a < static_cast<int>(info_.velocities.size()); ++a)
    if (info_.velocities[a] == name) return a;
  return -1;
}
int Loader::coordinateIndex(const std::string& name) const {
  for (int i = 0; i < static_cast<int>(info_.coordinates.size()); ++i)
    if (info_.coordinates[i] == name) return i;
  return -1;
}

void Loader::checkDuplicateKeys(const YAML::Node& node) const {
  long budget = 200000;
  checkDuplicateKeys(node, 0, budget);
}
void Loader::checkDuplicateKeys(const YAML::Node& node, int depth, long& budget) const {
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
void Loader::readHeader() {
  const YAML::Node& r = root_;
  for (const auto& kv : r) {
    const std::string k = kv.first.Scalar();
    if (std::none_of(std::begin(kTopKeys), std::end(kTopKeys),
                     [&](const char* a) { return k == a; }))
      fail(echoInput(k), kv.first,
           "unknown key '" + echoInput(k) +
               "' (allowed: " + namesOrNone({std::begin(kTopKeys), std::end(kTopKeys)}) + ")");
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

}  // namespace nh::model::loader
// SPDX-License-Identifier: GPL-3.0-or-later
