// The web engine's stand-in for sundials_steppers.cpp: a build without SUNDIALS (the wasm
// preset) keeps the rows arkode78 and bdf, so that scenarios naming them still parse, and
// refuses them in one line (steppers.h).
#include "core/nh/errors.h"
#include "core/nh/integrators.h"
#include "core/nh/steppers.h"

namespace nh {

namespace {

const char* const kRefusal =
    "arkode78 and bdf need SUNDIALS, which the web engine leaves out; choose dop853, dopri5, "
    "rk78, rk4, nh-rattle or discrete-gradient";

}  // namespace

std::unique_ptr<Stepper> makeArkodeFehlberg78(double, double) { throw InputError(kRefusal); }
std::unique_ptr<Stepper> makeCvodeBdf(double, double) { throw InputError(kRefusal); }

IntegratorFit sundialsIntegratorFit(const IntegratorTarget&) { return {kRefusal, "", ""}; }

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
