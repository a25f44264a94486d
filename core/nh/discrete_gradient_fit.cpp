// What discrete-gradient can step (discrete_gradient.h): the system's functions recorded on a
// tape and read for explicit time, velocities entering the constraints nonlinearly, forces and
// a bracket that is not skew; affine constraints found by evaluating Φ at y = 0.
#include <cmath>
#include <string>
#include <vector>

#include "core/nh/discrete_gradient.h"
#include "core/nh/errors.h"
#include "core/nh/messages.h"
#include "core/nh/scenario.h"
#include "core/nh/simulation.h"
#include "core/nh/symbolic.h"

namespace nh {

namespace {

// The relative rate of 𝓔 above which a state shows 𝓔 is not a first integral.
constexpr double kMaxRelativeRate = 1e-6;

bool isZero(const Tape& tape, Sym s) {
  return tape.isConstant(s.id) && tape.constantValue(s.id) == 0;
}

// The system's functions on a tape: variable 0 is t, then q, then y.
struct RecordedSystem {
  Tape tape;
  int n = 0, m = 0, k = 0;
  Sym L;
  std::vector<Sym> phi, Q, C;
  std::vector<std::vector<double>> probes;  // (t, q, y) near the default state

  explicit RecordedSystem(const EquationsOfMotion& equations) {
    const SystemModel& sys = equations.system();
    const double* par = equations.parameters().data();
    n = sys.n();
    m = sys.m();
    k = sys.constraintsTotal();
    std::vector<Sym> q(n), y(m);
    const Sym t = tape.variable(0);
    for (int i = 0; i < n; ++i) q[i] = tape.variable(1 + i);
    for (int a = 0; a < m; ++a) y[a] = tape.variable(1 + n + a);
    L = sys.lagrangian(par, t, q.data(), y.data());
    phi.assign(k, Sym(0.0));
    if (k > 0) sys.constraints(par, t, q.data(), y.data(), phi.data());
    Q.assign(m, Sym(0.0));
    if (sys.hasForce()) sys.force(par, t, q.data(), y.data(), Q.data());
    C.assign(m * m * m, Sym(0.0));
    if (sys.hasStructure()) sys.structure(par, q.data(), C.data());
    makeProbes(sys.info());
  }

  // Whether every expression of `list` is 0: identically on the tape, or else at the probes
  // (where the tape does not see that terms cancel, as 2/r − 2/r).
  bool vanishes(const std::vector<Sym>& list) const {
    std::vector<Sym> open;
    for (Sym s : list)
      if (!isZero(tape, s)) open.push_back(s);
    if (open.empty()) return true;
    const SymProgram program(tape, 1 + n + m, open, SymProgram::Execution::Interpreted);
    std::vector<double> registers = program.makeRegisters();
    for (const std::vector<double>& probe : probes) {
      program.run(registers.data(), probe.data());
      for (int i = 0; i < program.outputCount(); ++i) {
        const double value = program.output(registers.data(), i);
        if (std::isfinite(value) && std::abs(value) > kZero) return false;
      }
    }
    return true;
  }
  std::vector<Sym> derivatives(const std::vector<Sym>& list, int variable) {
    std::vector<Sym> out;
    for (Sym s : list) out.push_back(tape.derivative(s, variable));
    return out;
  }

 private:
  static constexpr double kZero = 1e-12;
  void makeProbes(const SystemInfo& info) {
    for (int probe = 0; probe < 3; ++probe) {
      std::vector<double> point(1 + n + m, 0.0);
      point[0] = 0.7 * probe;
      for (int i = 0; i < n; ++i)
        point[1 + i] =
            (i < static_cast<int>(info.defaultCoordinates.size()) ? info.defaultCoordinates[i]
                                                                  : 0.0) +
            0.05 * probe * (1 + 0.37 * i);
      for (int a = 0; a < m; ++a)
        point[1 + n + a] =
            (a < static_cast<int>(info.defaultVelocities.size()) ? info.defaultVelocities[a]
                                                                 : 0.0) +
            0.3 * (probe + 1) * (1 - 0.29 * a);
      probes.push_back(point);
    }
  }
};

// What of the recorded functions reads t explicitly: "the Lagrangian", "the constraints", … or "".
std::string explicitTime(RecordedSystem& r) {
  if (!r.vanishes(r.derivatives({r.L}, 0))) return "the Lagrangian";
  if (!r.vanishes(r.derivatives(r.phi, 0))) return "the constraints";
  if (!r.vanishes(r.derivatives(r.Q, 0))) return "the forces";
  return {};
}

bool constraintsNonlinear(RecordedSystem& r) {
  std::vector<Sym> second;
  for (Sym s : r.phi)
    for (int a = 0; a < r.m; ++a) {
      const Sym da = r.tape.derivative(s, 1 + r.n + a);
      for (int b = 0; b < r.m; ++b) second.push_back(r.tape.derivative(da, 1 + r.n + b));
    }
  return !r.vanishes(second);
}

bool hasWorkingForce(const RecordedSystem& r) { return !r.vanishes(r.Q); }

// C^γ_{αβ} + C^γ_{βα} not identically 0 (C[γ + m(α + mβ)]).
bool bracketNotSkew(RecordedSystem& r) {
  const int m = r.m;
  std::vector<Sym> sums;
  for (int g = 0; g < m; ++g)
    for (int a = 0; a < m; ++a)
      for (int b = a; b < m; ++b)
        sums.push_back(r.C[g + m * (a + m * b)] + r.C[g + m * (b + m * a)]);
  return !r.vanishes(sums);
}

// Φ(t, q, 0) ≠ 0 at the default coordinates or near them: constraints affine in y.
bool constraintsAffine(const EquationsOfMotion& equations) {
  const SystemModel& sys = equations.system();
  const int n = sys.n(), k = sys.constraintsTotal();
  if (k == 0) return false;
  std::vector<double> zero(sys.m(), 0.0), phi(k);
  for (int probe = 0; probe < 3; ++probe) {
    std::vector<double> q = sys.info().defaultCoordinates;
    q.resize(n, 0.0);
    for (int i = 0; i < n; ++i) q[i] += 0.1 * probe * (1 + 0.37 * i);
    sys.constraints(equations.parameters().data(), 0.0, q.data(), zero.data(), phi.data());
    for (double value : phi)
      if (value != 0) return true;
  }
  return false;
}

// Γ(t, q) at the default coordinates changes with t.
bool frameDependsOnTime(const EquationsOfMotion& equations) {
  const SystemModel& sys = equations.system();
  std::vector<double> q = sys.info().defaultCoordinates, g0(sys.m()), g1(sys.m());
  q.resize(sys.n(), 0.0);
  sys.referenceFrame(equations.parameters().data(), 0.0, q.data(), g0.data());
  sys.referenceFrame(equations.parameters().data(), 1.375, q.data(), g1.data());
  return g0 != g1;
}

// The refusal from the system's functions alone ("" when none), with `frame` set for
// affine constraints.
std::string staticRefusal(const EquationsOfMotion& equations, bool& frame) {
  const SystemModel& sys = equations.system();
  std::string name = "'";
  name += echoInput(sys.name());
  name += "'";
  if (!equations.isTaped())
    return "discrete-gradient needs the exact derivatives of the tape, and the functions of " +
           name + " cannot be recorded on it; choose another integrator";
  if (sys.h() > 0)
    return "discrete-gradient holds velocity constraints, not holonomic ones, and " + name +
           " has " + std::to_string(sys.h()) + ": choose nh-rattle";
  RecordedSystem r(equations);
  if (const std::string what = explicitTime(r); !what.empty())
    return "discrete-gradient needs an autonomous system, and " + what + " of " + name +
           (what == "the Lagrangian" ? " depends" : " depend") +
           " on time explicitly: choose nh-rattle";
  if (constraintsNonlinear(r))
    return "discrete-gradient needs constraints linear or affine in the velocities, and those of " +
           name + " are nonlinear: choose nh-rattle";
  if (hasWorkingForce(r))
    return "discrete-gradient conserves energy, and " + name +
           " has forces besides those of its Lagrangian: choose nh-rattle";
  if (bracketNotSkew(r))
    return "discrete-gradient needs a skew bracket (C^γ_αβ = −C^γ_βα), and " + name +
           " is a general algebroid, whose equations do not conserve energy: choose nh-rattle";
  frame = constraintsAffine(equations);
  if (frame && !sys.hasReferenceFrame())
    return "discrete-gradient conserves the energy in the reference frame of affine "
           "constraints, and " +
           name + " declares none (reference_frame): choose nh-rattle";
  if (frame && frameDependsOnTime(equations))
    return "discrete-gradient needs an autonomous system, and the reference frame of " + name +
           " depends on time explicitly: choose nh-rattle";
  return {};
}

}  // namespace

DiscreteGradientFit discreteGradientFit(const EquationsOfMotion& equations, const double* x,
                                        double t) {
  DiscreteGradientFit fit;
  try {
    fit.refusal = wholeStateRefusal(toString(Integrator::DiscreteGradient),
                                    {equations.dynamics(), equations.formulation()});
    if (fit.refusal.empty()) fit.refusal = staticRefusal(equations, fit.frameEnergy);
  } catch (const InputError& e) {
    fit.refusal = e.what();
  } catch (const TapeError& e) {
    fit.refusal =
        "discrete-gradient needs the exact derivatives of the tape, and the functions "
        "of '" +
        echoInput(equations.system().name()) +
        "' cannot be recorded on it; choose another integrator";
  }
  if (!fit.refusal.empty() || !x) return fit;
  const double rate = relativeEnergyRate(equations, fit.frameEnergy, t, x);
  if (!(rate <= kMaxRelativeRate))
    fit.refusal = std::string("discrete-gradient conserves ") +
                  (fit.frameEnergy ? "the energy in the constraints' reference frame" : "energy") +
                  ", and the equations of '" + echoInput(equations.system().name()) +
                  "' do not keep it (relative rate " + formatValue(rate) +
                  " near the start): choose nh-rattle";
  return fit;
}

void checkDiscreteGradientApplies(const EquationsOfMotion& equations, const double* x, double t) {
  const DiscreteGradientFit fit = discreteGradientFit(equations, x, t);
  if (!fit.refusal.empty()) throw InputError(fit.refusal);
}

std::string discreteGradientSummary(const DiscreteGradientFit& fit) {
  if (!fit.refusal.empty()) {
    const std::string prefix = "discrete-gradient ";
    const bool named = fit.refusal.compare(0, prefix.size(), prefix) == 0;
    return "discrete-gradient: not applicable: " + fit.refusal.substr(named ? prefix.size() : 0);
  }
  if (fit.frameEnergy)
    return "discrete-gradient: conserves the energy in the constraints' reference frame "
           "(energy_frame)";
  return "discrete-gradient: conserves the energy";
}

IntegratorFit discreteGradientIntegratorFit(const IntegratorTarget& target) {
  if (!target.equations) return {};
  const DiscreteGradientFit fit = discreteGradientFit(*target.equations, target.x, target.t);
  if (!fit.refusal.empty()) return {fit.refusal, "", ""};
  return {"", fit.frameEnergy ? "energy_frame" : "energy", discreteGradientSummary(fit)};
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
