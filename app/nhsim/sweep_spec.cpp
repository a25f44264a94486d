// The study a sweep command line describes (sweep_spec.h): --count, --seed and --jobs read as
// whole numbers in range, and the axes and measures made into a StudySpec and a Study.
#include "app/nhsim/sweep_spec.h"

#include <charconv>
#include <cstdint>
#include <system_error>

namespace nh::cli {

namespace {

// A whole number in [low, high] written in decimal, all of `text`.
template <class Integer>
Integer wholeNumber(const std::string& text, const char* option, Integer low, Integer high,
                    const char* range) {
  Integer value{};
  const char* end = text.data() + text.size();
  const auto r = std::from_chars(text.data(), end, value);
  if (r.ec != std::errc() || r.ptr != end || value < low || value > high)
    throw UsageError(std::string("option ") + option + " takes a whole number " + range + ", got " +
                     quote(text));
  return value;
}

}  // namespace

std::unique_ptr<study::Study> studyOf(const SweepOptions& line) {
  const study::StudySpec spec = studySpecOf(line);
  std::vector<std::string> echoed = line.vary;  // what the core's messages may repeat whole
  echoed.insert(echoed.end(), line.sample.begin(), line.sample.end());
  echoed.insert(echoed.end(), line.measure.begin(), line.measure.end());
  try {
    return std::make_unique<study::Study>(spec);
  } catch (const InputError& e) {
    rethrowQuoting(e, echoed);
  }
}

int jobsOf(const SweepOptions& line, int fallback) {
  return !line.jobs.empty() ? wholeNumber<int>(line.jobs, "--jobs", 1, 1024, "from 1 to 1024")
                            : fallback;
}

study::StudySpec studySpecOf(const SweepOptions& line) {
  study::StudySpec spec;
  spec.base = line.scenario.resolved;
  if (line.vary.empty() && line.sample.empty())
    throw UsageError(
        "sweep needs --vary NAME=FROM:TO:N or --sample NAME=... (see 'nhsim sweep "
        "--help')");
  try {
    for (const auto& text : line.vary) spec.grid.push_back(study::parseGridAxis(text));
    for (const auto& text : line.sample) spec.sample.push_back(study::parseSampleAxis(text));
  } catch (const InputError& e) {
    std::vector<std::string> inputs = line.vary;
    inputs.insert(inputs.end(), line.sample.begin(), line.sample.end());
    rethrowQuoting(e, inputs);
  }
  // --vary with --sample, --sample without --count, --count or --seed without --sample: refused
  // by the option table's rules (kRules, app/nhsim/command_table.h).
  if (!line.sample.empty()) {
    spec.count = wholeNumber<long>(line.count, "--count", 1, 9'000'000'000'000'000'000L, ">= 1");
    if (!line.seed.empty())
      spec.seed = wholeNumber<std::uint64_t>(line.seed, "--seed", 0, UINT64_MAX, "0 … 2^64-1");
  }
  spec.measures = line.measure;
  spec.force = line.force;
  return spec;
}

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
