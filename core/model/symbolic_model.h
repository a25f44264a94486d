// Model expressions as GiNaC expressions and back: for what the loader derives exactly (the
// anchor's coefficients, structure functions from the anchor, ġ and ∂g/∂q) and for the
// derived equations shown to users.
#pragma once

#include <ginac/ginac.h>

#include <mutex>
#include <string>
#include <vector>

#include "core/model/model_data.h"

namespace nh::model {

// GiNaC is not thread-safe (shared reference counts, its static tables): every use holds
// this lock (the loader's derivations, the derived equations).
std::recursive_mutex& ginacMutex();

// One GiNaC symbol per slot of a model (t, parameters, coordinates, velocities; definitions
// are inlined, multipliers get symbols λ_c), each with a LaTeX name (Greek names typeset as
// Greek, trailing digits and _suffixes as subscripts: "Omega0" → \Omega_{0}, "w_z" → w_{z}).
struct SymbolTable {
  std::vector<GiNaC::symbol> bySlot;   // by slot index (definitions' entries unused)
  std::vector<GiNaC::ex> definitions;  // each definition, inlined, as GiNaC
  int firstDefinition = 0;             // slot of the first definition
  std::string fileName;                // for messages
  GiNaC::symbol time() const { return bySlot[0]; }
};

SymbolTable makeSymbols(const ModelData& data);  // needs data.layout, slotNames, definitions

// The LaTeX name of a model name, as SymbolTable uses it.
std::string latexName(const std::string& name);

// An expression of the model as GiNaC (definitions inlined). Exact: numbers written as
// decimals become rationals where they are exactly representable in few digits. Throws
// ModelError at the place of a part GiNaC finds undefined (log(0), 1/0, tan(pi/2)). Long
// sums and products are built in one step (linear time in their length).
GiNaC::ex toGinac(const Expression& expression, const SymbolTable& symbols);

// A GiNaC expression over the table's symbols as a model expression (for evaluation).
// Throws std::invalid_argument for what has no model form (e.g. a function the format lacks).
Expression fromGinac(const GiNaC::ex& e, const SymbolTable& symbols, const SlotLayout& layout);

}  // namespace nh::model
// SPDX-License-Identifier: GPL-3.0-or-later
