// Which kind of algebroid a structure is (structure_kind.h): the anchor and structure functions
// as GiNaC expressions (from a model file's formulas or a C++ system's tape), and the skew,
// anchor and Jacobi tests, exact where GiNaC can tell and at sample coordinates where not.
#include "core/model/structure_kind.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <mutex>

#include "core/model/formula_system.h"
#include "core/model/symbolic_equations.h"
#include "core/model/symbolic_model.h"
#include "core/nh/errors.h"
#include "core/nh/messages.h"

namespace nh::model {

namespace {

using GiNaC::ex;

constexpr long kExpandLimit = 20000;  // terms normal() may produce before samples decide
constexpr int kSamples = 3;

// The anchor and the structure functions as GiNaC expressions over the coordinates, and
// the values every other symbol (a model file's parameters) and the coordinates take at the
// sample configurations.
struct Geometry {
  int n = 0, m = 0;
  std::vector<GiNaC::symbol> q;
  std::vector<std::string> velocities;
  GiNaC::matrix rho;  // n×m
  std::vector<ex> C;  // m³: C[c + m(a + m b)] = C^c_ab (system.h)
  std::vector<GiNaC::exmap> samples;
  std::vector<double> scales;  // by sample: 1 + the largest |ρ| or |C| there, squared

  const ex& at(int c, int a, int b) const { return C[c + m * (a + m * b)]; }
  std::string e(int a) const { return "e_" + velocities[a]; }
};

// Sample configuration `sample` (1, 2, …): near the defaults, every coordinate moved by a
// different amount so that no symmetric point is hit.
double sampleCoordinate(const SystemInfo& info, int i, int sample) {
  const double base =
      i < static_cast<int>(info.defaultCoordinates.size()) ? info.defaultCoordinates[i] : 0.0;
  return base + 0.1 * sample * (1 + (i % 3)) / 3.0 + 0.013 * i;
}

void addSamples(const SystemModel& system, Geometry& g, const GiNaC::exmap& fixed) {
  for (int sample = 1; sample <= kSamples; ++sample) {
    GiNaC::exmap at = fixed;
    for (int i = 0; i < g.n; ++i)
      at[g.q[i]] = GiNaC::numeric(sampleCoordinate(system.info(), i, sample));
    g.samples.push_back(at);
  }
}

// The value of e at a sample, or NaN where it is not a real number (a pole, a symbol left).
double valueAt(const ex& e, const GiNaC::exmap& at) {
  try {
    const ex v = GiNaC::evalf(e.subs(at));
    if (!GiNaC::is_a<GiNaC::numeric>(v) || !GiNaC::ex_to<GiNaC::numeric>(v).is_real())
      return std::nan("");
    return GiNaC::ex_to<GiNaC::numeric>(v).to_double();
  } catch (const std::exception&) {
    return std::nan("");
  }
}

void addScales(Geometry& g) {
  for (const GiNaC::exmap& at : g.samples) {
    double largest = 0;
    auto grow = [&](const ex& e) {
      if (e.is_zero()) return;
      const double v = std::abs(valueAt(e, at));
      if (std::isfinite(v)) largest = std::max(largest, v);
    };
    for (int i = 0; i < g.n; ++i)
      for (int a = 0; a < g.m; ++a) grow(g.rho(i, a));
    for (const ex& c : g.C) grow(c);
    g.scales.push_back((1 + largest) * (1 + largest));
  }
}

Geometry formulaGeometry(const FormulaSystem& formula, const std::vector<double>& parameters) {
  SymbolicEquations s;
  readFormulaGeometry(formula.data(), makeSymbols(formula.data()), s);
  Geometry g;
  g.n = static_cast<int>(s.q.size());
  g.m = static_cast<int>(s.y.size());
  g.q = s.q;
  g.rho = s.rho;
  g.C.assign(static_cast<size_t>(g.m) * g.m * g.m, 0);
  for (const StructureCoefficient& c : s.structure) g.C[c.c + g.m * (c.a + g.m * c.b)] += c.value;
  GiNaC::exmap values;
  for (size_t j = 0; j < s.parameters.size() && j < parameters.size(); ++j)
    values[s.parameters[j]] = GiNaC::numeric(parameters[j]);
  addSamples(formula, g, values);
  return g;
}

// A C++ system's anchor and structure recorded on the tape at the parameters' values;
// throws TapeError when they cannot be recorded.
Geometry recordedGeometry(const SystemModel& system, const std::vector<double>& parameters) {
  Geometry g;
  g.n = system.n();
  g.m = system.m();
  const int n = g.n, m = g.m;
  Tape tape;
  std::vector<Sym> q(n), rho(static_cast<size_t>(n) * m), C(static_cast<size_t>(m) * m * m);
  std::vector<ex> variables;
  for (int i = 0; i < n; ++i) {
    q[i] = tape.variable(i);
    g.q.emplace_back(system.info().coordinates[i]);
    variables.push_back(g.q.back());
  }
  system.anchor(parameters.data(), q.data(), rho.data());
  system.structure(parameters.data(), q.data(), C.data());
  const std::vector<ex> node = tapeToGinac(tape, variables);
  g.rho = GiNaC::matrix(n, m);
  for (int a = 0; a < m; ++a)
    for (int i = 0; i < n; ++i) g.rho(i, a) = node[rho[i + n * a].id];
  for (const Sym& c : C) g.C.push_back(node[c.id]);
  addSamples(system, g, {});
  return g;
}

// Whether e is zero: exactly (normal form 0) or, failing that, at every sample.
bool vanishes(const Geometry& g, const ex& e) {
  if (e.is_zero()) return true;
  if (expansionBound(e, kExpandLimit) <= kExpandLimit && GiNaC::normal(e).is_zero()) return true;
  for (size_t k = 0; k < g.samples.size(); ++k) {
    const double v = valueAt(e, g.samples[k]);
    if (!(std::abs(v) <= 1e-12 * g.scales[k])) return false;
  }
  return true;
}

std::string bracketText(const Geometry& g, int a, int b) {
  std::string text = "[";
  text += joined({g.e(a), g.e(b)});
  text += "]";
  return text;
}

// Skew-symmetry: C^c_ab + C^c_ba = 0 for all a ≤ b and c. "" or the first pair that fails.
std::string skewFailure(const Geometry& g) {
  for (int a = 0; a < g.m; ++a)
    for (int b = a; b < g.m; ++b)
      for (int c = 0; c < g.m; ++c)
        if (!vanishes(g, g.at(c, a, b) + g.at(c, b, a)))
          return a == b ? bracketText(g, a, a) + " ≠ 0"
                        : bracketText(g, a, b) + " ≠ −" + bracketText(g, b, a);
  return {};
}

// The anchor maps brackets to brackets: ρⁱ_d C^d_ab = ρʲ_a ∂_j ρⁱ_b − ρʲ_b ∂_j ρⁱ_a.
std::string anchorFailure(const Geometry& g) {
  for (int a = 0; a < g.m; ++a)
    for (int b = a + 1; b < g.m; ++b)
      for (int i = 0; i < g.n; ++i) {
        ex r = 0;
        for (int d = 0; d < g.m; ++d) r += g.rho(i, d) * g.at(d, a, b);
        for (int j = 0; j < g.n; ++j)
          r -= g.rho(j, a) * g.rho(i, b).diff(g.q[j]) - g.rho(j, b) * g.rho(i, a).diff(g.q[j]);
        if (!vanishes(g, r))
          return "ρ[" + g.e(a) + ", " + g.e(b) + "] ≠ [ρ" + g.e(a) + ", ρ" + g.e(b) + "]";
      }
  return {};
}

// The e_f component of [[e_a, e_b], e_c] = C^d_ab C^f_dc − ρⁱ_c ∂_i C^f_ab (Leibniz rule,
// skew bracket).
ex nestedBracket(const Geometry& g, int a, int b, int c, int f) {
  ex r = 0;
  for (int d = 0; d < g.m; ++d) r += g.at(d, a, b) * g.at(f, d, c);
  for (int i = 0; i < g.n; ++i) r -= g.rho(i, c) * g.at(f, a, b).diff(g.q[i]);
  return r;
}

// Σ_cyclic [[e_a, e_b], e_c] = 0 for a < b < c (the sum is skew in a, b, c).
std::string jacobiFailure(const Geometry& g) {
  for (int a = 0; a < g.m; ++a)
    for (int b = a + 1; b < g.m; ++b)
      for (int c = b + 1; c < g.m; ++c)
        for (int f = 0; f < g.m; ++f) {
          const ex sum = nestedBracket(g, a, b, c, f) + nestedBracket(g, b, c, a, f) +
                         nestedBracket(g, c, a, b, f);
          if (!vanishes(g, sum))
            return "Σ_cyclic [[" + g.e(a) + ", " + g.e(b) + "], " + g.e(c) + "] ≠ 0";
        }
  return {};
}

StructureClassification classify(const Geometry& g) {
  if (std::string why = skewFailure(g); !why.empty()) return {StructureKind::General, why};
  if (std::string why = anchorFailure(g); !why.empty()) return {StructureKind::Skew, why};
  if (std::string why = jacobiFailure(g); !why.empty()) return {StructureKind::Skew, why};
  return {StructureKind::Lie, {}};
}

}  // namespace

StructureClassification classifyStructure(const SystemModel& system,
                                          const std::vector<double>& parameters) {
  const std::vector<double> p = parameters.empty() ? system.defaultParameters() : parameters;
  if (p.size() != system.info().parameters.size())
    throw InputError("classifyStructure: " + std::to_string(system.info().parameters.size()) +
                     " parameters expected, " + std::to_string(p.size()) + " given");
  std::lock_guard<std::recursive_mutex> lock(ginacMutex());
  try {
    const FormulaSystem* formula = asFormula(system);
    Geometry g = formula ? formulaGeometry(*formula, p) : recordedGeometry(system, p);
    g.velocities = system.info().velocities;
    addScales(g);
    return classify(g);
  } catch (const TapeError& e) {
    return {StructureKind::Unknown,
            std::string("the anchor or structure functions cannot be recorded (") + e.what() + ")"};
  }
}

std::optional<StructureClassification> classifyStructureIfFree(const SystemModel& system) {
  std::unique_lock<std::recursive_mutex> lock(ginacMutex(), std::try_to_lock);
  if (!lock.owns_lock()) return std::nullopt;
  return classifyStructure(system);
}

std::string kindName(StructureKind kind) {
  switch (kind) {
    case StructureKind::Lie:
      return "Lie algebroid";
    case StructureKind::Skew:
      return "skew algebroid (the Jacobi identity fails)";
    case StructureKind::General:
      return "general algebroid";
    case StructureKind::Unknown:
      break;
  }
  return "not determined";
}

std::string describe(const StructureClassification& c) {
  return c.why.empty() ? kindName(c.kind) : kindName(c.kind) + ": " + c.why;
}

}  // namespace nh::model
// SPDX-License-Identifier: GPL-3.0-or-later
