// A study's measures (measures.h): each definition split into summaries (final, initial, min,
// max, mean, first_crossing) of column expressions and the outer expression over them, and the
// Accumulator that gathers the summaries of one run sample by sample.
#include "core/study/measures.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include "core/model/expression.h"
#include "core/nh/errors.h"
#include "core/nh/messages.h"

namespace nh::study {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct SummaryName {
  const char* name;
  Summary kind;
};
constexpr SummaryName kSummaries[] = {
    {"initial", Summary::Initial}, {"final", Summary::Final},
    {"min", Summary::Min},         {"max", Summary::Max},
    {"mean", Summary::Mean},       {"first_crossing", Summary::FirstCrossing},
};
const char* kSummaryList = "final(E), initial(E), min(E), max(E), mean(E), first_crossing(E)";

bool isNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// A summary call found in a text: the name at [begin, open), its argument in (open, close).
struct Call {
  Summary kind;
  size_t begin, open, close;
};

// The first summary call at or after `from`; npos in .begin when none. Throws
// ExpressionError for a call without its closing parenthesis.
Call findCall(const std::string& text, size_t from) {
  for (size_t i = from; i < text.size();) {
    if (!isNameStart(text[i]) || (i > 0 && isNameChar(text[i - 1]))) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < text.size() && isNameChar(text[end])) ++end;
    const std::string word = text.substr(i, end - i);
    size_t open = end;
    while (open < text.size() && std::isspace(static_cast<unsigned char>(text[open]))) ++open;
    if (open < text.size() && text[open] == '(') {
      for (const auto& s : kSummaries) {
        if (word != s.name) continue;
        int depth = 0;
        for (size_t j = open; j < text.size(); ++j) {
          if (text[j] == '(') ++depth;
          if (text[j] == ')' && --depth == 0) return {s.kind, i, open, j};
        }
        throw model::ExpressionError(static_cast<int>(open), "'(' of " + word + " is not closed");
      }
    }
    i = end;
  }
  return {Summary::Initial, std::string::npos, 0, 0};
}

// The name the outer expression reads summary k by: "_k_" (built by appends: GCC 12's
// -Wrestrict misfires on "_" + std::to_string(k) + "_").
std::string placeholderName(size_t k) {
  std::string name(1, '_');
  name += std::to_string(k);
  name += '_';
  return name;
}

// A measure's definition: "NAME=EXPR" split at its first '=' (the expression syntax has no
// '='), or "EXPR" alone with no name.
struct Definition {
  std::string name, text;
  size_t base = 0;  // where text starts in the definition
};

Definition splitDefinition(const std::string& definition) {
  Definition d{"", definition};
  const size_t equals = definition.find('=');
  if (equals == std::string::npos) return d;
  d.name = definition.substr(0, equals);
  d.text = definition.substr(equals + 1);
  d.base = equals + 1;
  bool valid = !d.name.empty() && isNameStart(d.name[0]);
  for (char c : d.name) valid = valid && isNameChar(c);
  if (!valid)
    throw InputError("measure '" + echoInput(definition) + "': the name before '=' must be " +
                     "letters, digits and '_', starting with a letter or '_', got '" +
                     echoInput(d.name) + "'");
  return d;
}

// A problem at character `at` of a definition's text: throws InputError naming the
// definition, the problem and its place in the definition.
class DefinitionError {
 public:
  DefinitionError(const std::string& definition, size_t base)
      : definition_(definition), base_(base) {}
  [[noreturn]] void operator()(size_t at, const std::string& message) const {
    throw InputError("measure '" + echoInput(definition_) + "': " + message + " at character " +
                     std::to_string(base_ + at + 1));
  }

 private:
  const std::string& definition_;
  size_t base_;
};

// The outer expression reads each summary through a placeholder name; `shifts` maps an
// offset in it back to the text (placeholder start, its length, the call's length).
struct OuterText {
  struct Shift {
    size_t outerBegin, outerLength, textBegin, textLength;
  };
  std::string text;
  std::vector<Shift> shifts;
  std::vector<int> summaryIndex;  // placeholder k -> the summary's index

  size_t textOffset(int outerOffset) const {
    long delta = 0;
    for (const Shift& s : shifts) {
      if (static_cast<size_t>(outerOffset) < s.outerBegin) break;
      if (static_cast<size_t>(outerOffset) < s.outerBegin + s.outerLength) return s.textBegin;
      delta += static_cast<long>(s.textLength) - static_cast<long>(s.outerLength);
    }
    return static_cast<size_t>(outerOffset + delta);
  }
};

// `text` with each summary call replaced by its placeholder. `addSummary(kind, inner)` parses
// a call's argument (throwing ExpressionError) and returns the index of its summary.
template <class AddSummary>
OuterText replaceSummaries(const std::string& text, const DefinitionError& fail,
                           AddSummary&& addSummary) {
  OuterText outer;
  size_t at = 0;
  try {
    for (Call call = findCall(text, 0); call.begin != std::string::npos;
         call = findCall(text, at)) {
      outer.text += text.substr(at, call.begin - at);
      const std::string inner = text.substr(call.open + 1, call.close - call.open - 1);
      int index = -1;
      try {
        const Call nested = findCall(inner, 0);
        if (nested.begin != std::string::npos)
          fail(call.open + 1 + nested.begin, "a summary inside a summary (each of " +
                                                 std::string(kSummaryList) +
                                                 " takes an expression of the columns)");
        index = addSummary(call.kind, inner);
      } catch (const model::ExpressionError& e) {
        fail(call.open + 1 + static_cast<size_t>(std::max(0, e.offset())), e.what());
      }
      const std::string placeholder = placeholderName(outer.summaryIndex.size());
      outer.shifts.push_back(
          {outer.text.size(), placeholder.size(), call.begin, call.close + 1 - call.begin});
      outer.summaryIndex.push_back(index);
      outer.text += placeholder;
      at = call.close + 1;
    }
  } catch (const model::ExpressionError& e) {  // an unclosed call
    fail(static_cast<size_t>(e.offset()), e.what());
  }
  outer.text += text.substr(at);
  return outer;
}

// The outer expression: it reads the summaries through their placeholders, and no column
// outside a summary.
model::Expression parseOuter(const OuterText& outer, const std::vector<std::string>& columns,
                             const DefinitionError& fail) {
  model::NameResolver placeholders{
      [&](const std::string& word) -> int {
        for (size_t k = 0; k < outer.summaryIndex.size(); ++k)
          if (word == placeholderName(k)) return outer.summaryIndex[k];
        for (const auto& column : columns)
          if (word == column)
            throw model::ExpressionError(
                -1, "the column '" + column + "' is read through a summary: " + kSummaryList);
        return -1;
      },
      [] { return std::string(kSummaryList) + " of the output columns"; }};
  try {
    return model::parseExpression(outer.text, placeholders);
  } catch (const model::ExpressionError& e) {
    fail(outer.textOffset(std::max(0, e.offset())), e.what());
  }
}

}  // namespace

MeasureSet::MeasureSet(const std::vector<std::string>& definitions,
                       const std::vector<std::string>& columns) {
  model::NameResolver columnNames{[&columns](const std::string& name) -> int {
                                    for (size_t i = 0; i < columns.size(); ++i)
                                      if (columns[i] == name) return static_cast<int>(i);
                                    return -1;
                                  },
                                  [&columns] { return joined(columns); }};

  for (const std::string& definition : definitions) {
    Definition d = splitDefinition(definition);
    const DefinitionError fail(definition, d.base);
    const OuterText outerText =
        replaceSummaries(d.text, fail, [&](Summary kind, const std::string& inner) {
          SummaryTerm term{kind, model::parseExpression(inner, columnNames)};
          term.inner.text = inner;
          summaries_.push_back(std::move(term));
          return static_cast<int>(summaries_.size()) - 1;
        });
    model::Expression outer = parseOuter(outerText, columns, fail);
    outer.text = d.text;
    if (d.name.empty()) d.name = d.text;
    for (const auto& known : names_)
      if (known == d.name)
        throw InputError("measure '" + echoInput(definition) + "': a second measure named '" +
                         echoInput(d.name) + "' (name it NAME=EXPR)");
    for (const auto& summary : summaries_)
      scratchSize_ = std::max(scratchSize_, summary.inner.nodes.size());
    scratchSize_ = std::max(scratchSize_, outer.nodes.size());
    names_.push_back(d.name);
    texts_.push_back(d.text);
    outer_.push_back(std::move(outer));
  }
}

MeasureSet::Accumulator::Accumulator(const MeasureSet& set)
    : set_(&set),
      states_(set.summaries_.size()),
      scratch_(set.scratchSize_),
      summaries_(set.summaries_.size()) {}

void MeasureSet::Accumulator::reset() {
  for (State& s : states_) s = State{};
}

void MeasureSet::Accumulator::add(double t, const double* row) {
  for (size_t k = 0; k < states_.size(); ++k) {
    const double v = model::evaluate(set_->summaries_[k].inner, row, scratch_.data());
    State& s = states_[k];
    if (s.samples == 0) {
      s.first = s.min = s.max = v;
      s.tFirst = t;
      s.crossing = kNaN;
    } else {
      // Comparisons written so that a NaN sample makes min and max NaN.
      if (!(v >= s.min)) s.min = v;
      if (!(v <= s.max)) s.max = v;
      s.integral += 0.5 * (s.last + v) * (t - s.tLast);
      const int sign = v > 0 ? 1 : v < 0 ? -1 : 0;
      if (std::isnan(s.crossing) && s.lastSign != 0 && sign != s.lastSign) {
        // From a nonzero sample (lastSign != 0 and no crossing yet: the last sample was
        // nonzero) to zero or the other sign: the zero of the chord.
        s.crossing = s.tLast + (t - s.tLast) * s.last / (s.last - v);
      }
    }
    if (v > 0 || v < 0) s.lastSign = v > 0 ? 1 : -1;
    s.last = v;
    s.tLast = t;
    ++s.samples;
  }
}

void MeasureSet::Accumulator::values(double* out) {
  for (size_t k = 0; k < states_.size(); ++k) {
    const State& s = states_[k];
    double& v = summaries_[k];
    if (s.samples == 0) {
      v = kNaN;
      continue;
    }
    switch (set_->summaries_[k].kind) {
      case Summary::Initial:
        v = s.first;
        break;
      case Summary::Final:
        v = s.last;
        break;
      case Summary::Min:
        v = s.min;
        break;
      case Summary::Max:
        v = s.max;
        break;
      case Summary::Mean:
        v = s.tLast > s.tFirst ? s.integral / (s.tLast - s.tFirst) : s.first;
        break;
      case Summary::FirstCrossing:
        v = s.crossing;
        break;
    }
  }
  for (size_t m = 0; m < set_->outer_.size(); ++m)
    out[m] = model::evaluate(set_->outer_[m], summaries_.data(), scratch_.data());
}

}  // namespace nh::study
// SPDX-License-Identifier: GPL-3.0-or-later
