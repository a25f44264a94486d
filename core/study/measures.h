// Measures of a parameter study: expressions in the model-file syntax
// (core/model/expression.h) over summaries of one run's output columns — final(E),
// initial(E), min(E), max(E), mean(E), first_crossing(E) — where E is itself an expression of
// the columns `nhsim run --out` writes (outputColumns()).
#pragma once

#include <string>
#include <vector>

#include "core/model/model_data.h"

namespace nh::study {

enum class Summary { Initial, Final, Min, Max, Mean, FirstCrossing };

// The measures of a study, parsed once: immutable, shared read-only by every worker.
class MeasureSet {
 public:
  MeasureSet() = default;
  // Each definition is "EXPR" (its column is named by the text) or "NAME=EXPR". `columns`
  // are the names E may read, in row order. Throws InputError naming the definition, the
  // problem and its place ("at character N") for a syntax error, an unknown name or
  // function, a column read outside a summary, a summary nested in a summary, a duplicate
  // or malformed NAME.
  MeasureSet(const std::vector<std::string>& definitions, const std::vector<std::string>& columns);

  int size() const { return static_cast<int>(names_.size()); }
  const std::vector<std::string>& names() const { return names_; }
  const std::vector<std::string>& expressions() const { return texts_; }  // EXPR of each

  // One run's summaries, accumulated sample by sample (one per worker; reset per run).
  class Accumulator {
   public:
    explicit Accumulator(const MeasureSet& set);
    void reset();
    // A sample: t and the output row (columns().size() entries, row[0] = t).
    void add(double t, const double* row);
    // The measures (size() entries): NaN where no sample was added. mean(E) is the
    // trapezoidal time average over [first sample, last sample] (the value itself for one
    // sample); first_crossing(E) the linearly interpolated time where E first changes sign
    // between two samples (from a nonzero value to zero or the other sign), NaN if never.
    void values(double* out);

   private:
    struct State {
      long samples = 0;
      double first = 0, last = 0, min = 0, max = 0, integral = 0, tFirst = 0, tLast = 0;
      double crossing = 0;
      int lastSign = 0;  // sign of the last nonzero value, 0 before one
    };
    const MeasureSet* set_;
    std::vector<State> states_;
    std::vector<double> scratch_, summaries_;
  };

 private:
  struct SummaryTerm {
    Summary kind;
    model::Expression inner;  // reads the output columns
  };
  std::vector<std::string> names_, texts_;
  std::vector<SummaryTerm> summaries_;
  std::vector<model::Expression> outer_;  // read the summaries' values, by index
  size_t scratchSize_ = 1;
};

}  // namespace nh::study
// SPDX-License-Identifier: GPL-3.0-or-later
