// One point of `nhsim linearize`: the nonholonomic equations linearised at a scenario's initial
// state (core/nh/linearize.h), with the notes and warnings that go with it; shared by nhsim and
// the Python module's System.linearize().
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/nh/linearize.h"
#include "core/nh/scenario.h"

namespace nh::cli {

// The linearisation at one scenario's initial state.
struct Point {
  std::vector<double> x;
  Linearization lin;
};

// Receives a message of a point: its kind ("note" for a velocity the completion changed,
// "cyclic" or "equilibrium" for a warning) and its text, one line without a prefix.
using LinearizeMessages = std::function<void(const std::string& kind, const std::string& text)>;

// Throws UsageError unless `scenario` has the nonholonomic dynamics, which linearize works on.
void requireNonholonomic(const Scenario& scenario);

// Linearises `system` at the initial state of `s`, its notes and warnings to `messages`.
Point linearizeAt(const std::shared_ptr<const SystemModel>& system, const Scenario& s,
                  const LinearizeMessages& messages);

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
