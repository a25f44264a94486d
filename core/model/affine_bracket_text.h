// The blocks `nhsim equations --hamiltonian` and the Equations dock show for the nonholonomic
// bracket of affine and time-dependent constraints (affine_bracket.h), laid out as seed 002
// writes Example VI.3: the constraints ψ^a on the momenta, the forces Z̄_a and the regularity
// matrix 𝒞, the projector P, the bracket of two sections with the partial derivatives of H'
// and H'' written out, and the motion ḟ = ∂f/∂t + {f, H} + λ̄_a Z̄_a(f) of every coordinate.
#pragma once

#include <vector>

#include "core/model/affine_bracket.h"
#include "core/model/derived_equations.h"
#include "core/model/typesetter.h"

namespace nh::model {

std::vector<EquationBlock> affineBracketBlocks(const AffineBracket& b, const SymbolicEquations& s,
                                               const typeset::Printer& pr);

}  // namespace nh::model
// SPDX-License-Identifier: GPL-3.0-or-later
