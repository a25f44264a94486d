// What a model file is checked for once its parts are read and derived (model_loader.h): no
// name of a column `nhsim optimize` writes, a given skew structure that its anchor maps to the
// brackets of its columns, default parameters that pass the file's own checks, and a mass
// matrix and A M⁻¹ Aᵀ regular at the initial state.
#include <cmath>

#include "core/model/model_loader.h"
#include "core/nh/dynamics.h"
#include "core/nh/messages.h"

namespace nh::model::loader {

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
// The default parameters must pass the file's parameter_checks.
void Loader::checkDefaultParameters(const FormulaSystem& system) const {
  const std::vector<double> defaults = system.defaultParameters();
  if (const std::string why = system.checkParameters(defaults.data()); !why.empty())
    fail("parameter_checks", root_["parameter_checks"], "the default parameters fail: " + why);
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
}  // namespace nh::model::loader
// SPDX-License-Identifier: GPL-3.0-or-later
