// What kind of algebroid a system's structure is (docs/theory.md, general algebroids), from
// its anchor ρ(q) and structure functions C^c_ab(q) as GiNaC expressions:
//   general algebroid  the bracket is not skew: C^c_ab + C^c_ba ≠ 0 for some a, b, c;
//   skew algebroid     skew, but the Jacobi identity fails: the anchor does not map brackets
//                      to brackets, ρ[e_a, e_b] ≠ [ρe_a, ρe_b], or Σ_cyclic [[e_a, e_b], e_c] ≠ 0;
//   Lie algebroid      skew, the anchor compatible and Jacobi holds.
// A model file's expressions are read with its parameters as symbols (the answer holds for
// every value); a C++ system's anchor and structure are recorded on the tape at the given
// parameter values. An expression is zero when GiNaC's normal form is 0, or else when it
// vanishes at three sample configurations (identities normal() does not know, such as
// sin² + cos² = 1) to 1e-12 relative to the square of the largest |ρ| or |C| there.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/nh/system.h"

namespace nh::model {

enum class StructureKind { Lie, Skew, General, Unknown };

struct StructureClassification {
  StructureKind kind = StructureKind::Unknown;
  // Why it is not a Lie algebroid: the first failure found, e.g. "[e_v, e_u] ≠ −[e_u, e_v]";
  // for Unknown, why it could not be decided. "" for a Lie algebroid.
  std::string why;
};

// Throws InputError for a wrong number of parameters (empty: the defaults). Holds the GiNaC
// lock (symbolic_model.h) while it works.
StructureClassification classifyStructure(const SystemModel& system,
                                          const std::vector<double>& parameters = {});

// The same at the default parameters without waiting: nullopt while another thread holds the
// GiNaC lock (deriving equations, say), for callers that must not block (the app's GUI thread).
std::optional<StructureClassification> classifyStructureIfFree(const SystemModel& system);

// "Lie algebroid", "skew algebroid (the Jacobi identity fails)", "general algebroid" or
// "not determined".
std::string kindName(StructureKind kind);

// One line: the kind's name, then why where it is not a Lie algebroid ("skew algebroid (the
// Jacobi identity fails): ρ[e_v, e_w] ≠ [ρe_v, ρe_w]").
std::string describe(const StructureClassification& c);

}  // namespace nh::model
// SPDX-License-Identifier: GPL-3.0-or-later
