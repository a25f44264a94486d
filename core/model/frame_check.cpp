// The reference frame of a model file against its constraints (model_loader.h): a declared
// frame Γ(t, q) must satisfy Φ(t, q, Γ) = 0 and ġ(t, q, Γ) = 0 at every t and q, shown
// exactly by GiNaC where it can and checked at sample states where it cannot; without a
// declared frame, whether Γ = 0 is one (linear constraints) or the model has none (affine).
#include <cmath>
#include <iterator>
#include <sstream>

#include "core/model/model_loader.h"
#include "core/nh/frame_residual.h"
#include "core/nh/messages.h"
#include "core/nh/scenario.h"

namespace nh::model::loader {

namespace {

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

}  // namespace

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
// Samples where a reference frame must satisfy the constraints when GiNaC cannot show it
// identically: the default coordinates and states moved away from them, by 0.05 up to 5
// (where a run may go), each at times up to 20.
constexpr double kFrameSampleTimes[] = {0.0, 0.37, 1.9, 20.0};
constexpr double kFrameSampleOffsets[] = {0.0, 0.05, 0.1, 0.5, 1.5, 5.0};

// Whether the model has a reference frame (ModelData::hasReferenceFrame): a declared Γ must
// satisfy every constraint at the sample states, or the file is refused naming the constraint
// and the residual; without one, Γ = 0 is the frame when it satisfies them (linear
// constraints), and the model has none otherwise (affine constraints).
void Loader::checkReferenceFrame(const FormulaSystem& system) {
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
}  // namespace nh::model::loader
// SPDX-License-Identifier: GPL-3.0-or-later
