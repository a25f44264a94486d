// Theory §2 with GiNaC: the derivatives the engine takes on its tape (core/nh/tape_builder.cpp),
// taken here symbolically, and the linear system M ẏ − Aᵀλ = F, A ẏ = b solved by
// Gauss–Jordan elimination with size guards.
#include "core/model/symbolic_equations.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>

#include "core/model/derived_equations.h"
#include "core/model/formula_system.h"
#include "core/model/model_data.h"
#include "core/model/symbolic_model.h"
#include "core/nh/errors.h"

namespace nh::model {

namespace {

thread_local const std::atomic<bool>* tCancel = nullptr;  // CancelDerivationsWhen
// The current derivation's time budget (deriveSymbolic): past it, nothing more is simplified
// or solved, and the entries left are shown as derived.
thread_local std::chrono::steady_clock::time_point tDeadline =
    std::chrono::steady_clock::time_point::max();
thread_local bool tOverBudget = false;  // the budget ran out
thread_local bool tTooLarge = false;    // an entry was too large to simplify

using GiNaC::ex;
using GiNaC::ex_to;
using GiNaC::matrix;
using GiNaC::numeric;
using GiNaC::symbol;

// Beyond these sizes (expression nodes) GiNaC's normal() and the elimination can take seconds:
// an entry that large is kept unsimplified, and the linear system is not solved.
constexpr int kSimplifyLimit = 4000;
constexpr int kSolveEntryLimit = 1500;
constexpr int kSolveMaxSize = 10;  // m + k + h
// Beyond this bound of the terms expand() would give (expansionBound), normal(), expand()
// and collect() are not called: (1 + (x + y)^2)^20 is kept as written, not expanded into
// hundreds of thousands of terms.
constexpr long kExpandLimit = 5000;
// The symbolic work of one derivation: past this, what is left is shown as derived.
constexpr int kTimeBudgetSeconds = 10;
// What the derivations read may have at most this many nodes with its definitions written out
// (tooLargeToDerive). GiNaC's diff() walks that written-out tree, and no point inside it can
// stop for the time budget: each definition that uses the one before twice doubles it (a chain
// of 24 took minutes and gigabytes). The bundled models have at most a few thousand.
constexpr int kDeriveSizeLimit = 20000;

void checkCancelled() {
  if (tCancel && tCancel->load(std::memory_order_relaxed))
    throw DerivationCancelled("the derivation of the equations was cancelled");
}

// Whether e may be simplified: small enough when expanded, and within the time budget.
bool cheap(const ex& e) {
  checkCancelled();
  if (std::chrono::steady_clock::now() > tDeadline) {
    tOverBudget = true;
    return false;
  }
  if (expansionBound(e, kExpandLimit) > kExpandLimit) {
    tTooLarge = true;
    return false;
  }
  return true;
}

// Which cap stopped the work.
std::string capReason() {
  return tOverBudget ? "more than " + std::to_string(kTimeBudgetSeconds) + " s of symbolic work"
                     : "an expansion of more than " + std::to_string(kExpandLimit) + " terms";
}
std::string tooLargeReason() {
  return "too large to derive symbolically (" + capReason() + "); the numbers are unaffected";
}

// sin(x)^2 + cos(x)^2 = 1: e with sin(u)^2 replaced by 1 − cos(u)^2 when that, brought to
// normal form, is smaller than e's normal form `fraction`; otherwise `fraction`.
ex withoutPythagoras(const ex& e, const ex& fraction) {
  if (!e.has(GiNaC::sin(GiNaC::wild()))) return fraction;
  const ex s = GiNaC::wild();
  const ex replaced = e.subs(GiNaC::pow(GiNaC::sin(s), 2) == 1 - GiNaC::pow(GiNaC::cos(s), 2),
                             GiNaC::subs_options::algebraic);
  if (replaced.is_equal(e) || !cheap(replaced)) return fraction;
  const ex candidate = GiNaC::normal(replaced);
  return expressionSize(candidate, kSimplifyLimit) < expressionSize(fraction, kSimplifyLimit)
             ? candidate
             : fraction;
}

// e collected by `variables` with the monomials that share a coefficient summed:
// 1/2*m*(vx^2 + vy^2) + 1/2*I*(wx^2 + wy^2 + wz^2).
ex groupedByCoefficient(const ex& e, const GiNaC::lst& variables) {
  const ex collected = GiNaC::collect(GiNaC::expand(e), variables, true);
  if (!GiNaC::is_a<GiNaC::add>(collected)) return collected;
  const auto hasVariable = [&](const ex& f) {
    for (const ex& v : variables)
      if (f.has(v)) return true;
    return false;
  };
  std::vector<std::pair<ex, ex>> groups;  // (coefficient, sum of its monomials), in order
  for (size_t i = 0; i < collected.nops(); ++i) {
    const ex term = collected.op(i);
    ex coefficient = 1, monomial = 1;
    if (GiNaC::is_a<GiNaC::mul>(term)) {
      for (size_t j = 0; j < term.nops(); ++j)
        (hasVariable(term.op(j)) ? monomial : coefficient) *= term.op(j);
    } else {
      (hasVariable(term) ? monomial : coefficient) = term;
    }
    const auto same = std::find_if(groups.begin(), groups.end(), [&](const auto& g) {
      return g.first.is_equal(coefficient) || g.first.is_equal(-coefficient);
    });
    if (same == groups.end())
      groups.emplace_back(coefficient, monomial);
    else
      same->second += same->first.is_equal(coefficient) ? monomial : -monomial;
  }
  ex out = 0;
  for (const auto& [coefficient, monomials] : groups) out += coefficient * monomials;
  return out;
}

}  // namespace

// A readable form of e: collected by `variables` (velocities, then coordinates) — over a
// common denominator with common factors taken out when the denominator is a sum, which
// shows the physics' shape, −κ (Ω' y + Ω vy) rather than five expanded terms over
// (1 + inertia_ratio) — unless that is clearly larger (in expression nodes) than the normal
// form (one fraction) or the expanded form, then the smaller of those.
ex simplified(const ex& given, const GiNaC::lst& variables) {
  checkCancelled();
  if (expressionSize(given, kSimplifyLimit) > kSimplifyLimit || !cheap(given)) return given;
  const ex normalForm = GiNaC::normal(given);
  const ex fraction = withoutPythagoras(given, normalForm);
  if (GiNaC::is_a<numeric>(fraction) || GiNaC::is_a<symbol>(fraction)) return fraction;
  // The forms below start from e, with sin² + cos² = 1 applied when that shortened it.
  const ex e = fraction.is_equal(normalForm) ? given : fraction;
  const ex parts = fraction.numer_denom();
  // Over a common denominator only when it is a sum (1 + inertia_ratio); with a monomial one
  // (r³) the terms keep their own denominators: w1²/2 + w2²/(2r²) + 1/r.
  const bool monomialDenominator = !GiNaC::is_a<GiNaC::add>(GiNaC::expand(parts.op(1)));
  ex collected;
  try {
    collected = monomialDenominator ? groupedByCoefficient(e, variables)
                                    : GiNaC::collect_common_factors(GiNaC::collect(
                                          GiNaC::expand(parts.op(0)), variables, true)) /
                                          GiNaC::collect_common_factors(GiNaC::expand(parts.op(1)));
  } catch (const std::exception&) {
    collected = fraction;
  }
  const ex expanded = GiNaC::expand(e);
  // The collected form unless it is clearly larger: its grouping reads better.
  const int collectedSize = expressionSize(collected, kSimplifyLimit);
  const int fractionSize = expressionSize(fraction, kSimplifyLimit);
  const int expandedSize = expressionSize(expanded, kSimplifyLimit);
  if (4 * collectedSize <= 5 * std::min(fractionSize, expandedSize)) return collected;
  return expandedSize < fractionSize ? expanded : fraction;
}

namespace {

// A double of a C++ system (a parameter baked into its tape) as an exact number when it is
// a short decimal or a fraction with a small denominator to round-off (0.4·0.1² → 1/250);
// otherwise as a float.
ex exactNumber(double v) {
  if (v == 0) return 0;
  if (!std::isfinite(v)) return numeric(v);
  const double tolerance = 8 * std::numeric_limits<double>::epsilon() * std::abs(v);
  if (std::abs(v) < 1e15 && v == std::nearbyint(v)) return numeric(static_cast<long>(v));
  for (int digits = 1; digits <= 9; ++digits) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*e", digits - 1, v);
    if (std::abs(std::strtod(text, nullptr) - v) > tolerance) continue;
    // mantissa · 10^exponent with an integer mantissa of `digits` digits
    const std::string s(text);
    const std::string::size_type e = s.find('e');
    std::string mantissa = s.substr(0, e);
    mantissa.erase(std::remove(mantissa.begin(), mantissa.end(), '.'), mantissa.end());
    const long exponent = std::strtol(s.c_str() + e + 1, nullptr, 10) - (digits - 1);
    const numeric ten(10);
    const numeric m(std::strtol(mantissa.c_str(), nullptr, 10));
    return exponent >= 0 ? m * GiNaC::pow(ten, exponent) : m / GiNaC::pow(ten, -exponent);
  }
  // Continued fraction up to denominators of 10⁴ (1/3, 2/7).
  double x = std::abs(v);
  long h0 = 1, h1 = 0, k0 = 0, k1 = 1;
  for (int i = 0; i < 20; ++i) {
    const double a = std::floor(x);
    if (a > 1e9) break;
    const long ai = static_cast<long>(a);
    const long h2 = ai * h0 + h1, k2 = ai * k0 + k1;
    if (k2 > 10000) break;
    h1 = h0;
    h0 = h2;
    k1 = k0;
    k0 = k2;
    if (std::abs(static_cast<double>(h0) / static_cast<double>(k0) - std::abs(v)) <= tolerance)
      return numeric(v < 0 ? -h0 : h0, k0);
    if (x - a == 0) break;
    x = 1 / (x - a);
  }
  return numeric(v);
}

}  // namespace

// The tape's nodes as GiNaC expressions over the variables (t, q, y), in id order
// (operands always precede their node).
std::vector<ex> tapeToGinac(const Tape& tape, const std::vector<ex>& variables) {
  std::vector<ex> node(tape.size());
  for (int id = 0; id < tape.size(); ++id) {
    const SymNode& s = tape.at(id);
    const auto a = [&] { return node[s.a]; };
    const auto b = [&] { return node[s.b]; };
    switch (s.op) {
      case SymOp::Const:
        node[id] = exactNumber(s.c);
        break;
      case SymOp::Var:
        node[id] = variables.at(static_cast<size_t>(s.c));
        break;
      case SymOp::Param:  // a parameter of the tape: its value, as a folded one would be
        node[id] = exactNumber(tape.parameterValue(static_cast<int>(s.c)));
        break;
      case SymOp::Add:
        node[id] = a() + b();
        break;
      case SymOp::Sub:
        node[id] = a() - b();
        break;
      case SymOp::Mul:
        node[id] = a() * b();
        break;
      case SymOp::Div:
        node[id] = a() / b();
        break;
      case SymOp::Neg:
        node[id] = -a();
        break;
      case SymOp::Sin:
        node[id] = GiNaC::sin(a());
        break;
      case SymOp::Cos:
        node[id] = GiNaC::cos(a());
        break;
      case SymOp::Tan:
        node[id] = GiNaC::tan(a());
        break;
      case SymOp::Exp:
        node[id] = GiNaC::exp(a());
        break;
      case SymOp::Log:
        node[id] = GiNaC::log(a());
        break;
      case SymOp::Sqrt:
        node[id] = GiNaC::sqrt(a());
        break;
      case SymOp::Pow:
        node[id] = GiNaC::pow(a(), exactNumber(s.c));
        break;
      case SymOp::Atan:
        node[id] = GiNaC::atan(a());
        break;
      case SymOp::Atan2:
        node[id] = GiNaC::atan2(a(), b());
        break;
      case SymOp::MulAdd:
      case SymOp::MulSub:
      case SymOp::SubMul:
        throw std::logic_error("tapeToGinac: fused operations occur only in compiled programs");
    }
  }
  return node;
}

namespace {

std::string formatNumber(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", v);
  return text;
}

void setOrder(SymbolicEquations& s) {
  for (const symbol& y : s.y) s.order.append(y);
  for (const symbol& q : s.q) s.order.append(q);
}

}  // namespace

void readFormulaGeometry(const ModelData& data, const SymbolTable& table, SymbolicEquations& s) {
  const SlotLayout& slots = data.layout;
  const int n = slots.coordinates, m = slots.velocities;
  s.t = table.time();
  for (int j = 0; j < slots.parameters; ++j) {
    s.parameters.push_back(table.bySlot[slots.parameter(j)]);
    s.parameterNames.push_back(data.slotNames[slots.parameter(j)]);
  }
  for (int i = 0; i < n; ++i) s.q.push_back(table.bySlot[slots.coordinate(i)]);
  for (int a = 0; a < m; ++a) s.y.push_back(table.bySlot[slots.velocity(a)]);
  setOrder(s);
  s.rho = matrix(n, m);
  if (!data.rho.empty()) {
    for (int a = 0; a < m; ++a)
      for (int i = 0; i < n; ++i) s.rho(i, a) = toGinac(data.rho[i + n * a], table);
  } else {
    for (int i = 0; i < std::min(n, m); ++i) s.rho(i, i) = 1;  // no anchor: y = q̇
  }
  for (const StructureTerm& term : data.structure) {
    const ex value = toGinac(term.value, table);
    if (value.is_zero()) continue;
    s.structure.push_back({term.a, term.b, term.c, value});
    if (term.skew) s.structure.push_back({term.b, term.a, term.c, -value});
  }
  s.notes.push_back("parameters are symbols: the equations hold for any values");
}

namespace {

// What is read from a system before differentiating: symbols, ρ and C (readFormulaGeometry),
// then L, Φ (with ġ), g and Q.
void readFormulaSystem(const FormulaSystem& system, SymbolicEquations& s) {
  const ModelData& data = system.data();
  const SymbolTable table = makeSymbols(data);
  readFormulaGeometry(data, table, s);
  const int n = data.layout.coordinates, m = data.layout.velocities;
  s.lagrangian = toGinac(data.lagrangian, table);
  for (const Expression& phi : data.constraints) s.constraints.push_back(toGinac(phi, table));
  // ġ = ∂g/∂t + ∂g/∂q ρ y, derived here rather than read from data.holonomicRate, so that
  // the comparison with the engine checks the loader's derivation too.
  for (const Expression& g : data.holonomic) {
    const ex ge = toGinac(g, table);
    s.holonomic.push_back(ge);
    ex rate = ge.diff(s.t);
    for (int i = 0; i < n; ++i) {
      const ex dgdq = ge.diff(s.q[i]);
      if (dgdq.is_zero()) continue;
      for (int a = 0; a < m; ++a) rate += dgdq * s.rho(i, a) * s.y[a];
    }
    s.constraints.push_back(rate);
  }
  s.k = static_cast<int>(data.constraints.size());
  s.h = static_cast<int>(data.holonomic.size());
  s.forces.assign(m, 0);
  for (int a = 0; a < m && a < static_cast<int>(data.forces.size()); ++a)
    if (!data.forces[a].empty()) s.forces[a] = toGinac(data.forces[a], table);
}

// A C++ system's q-dependent structure functions are numbers only. When the anchor is
// square and invertible they are the Hamel symbols, C_ab = ρ⁻¹ [X_a, X_b] with X_a the
// columns of ρ (theory §1); they are used when they match the system's values at a few
// configurations near its defaults.
bool hamelStructure(const SystemModel& system, const std::vector<double>& parameters,
                    SymbolicEquations& s) {
  const int n = system.n(), m = system.m();
  if (n != m || n > 6) return false;
  matrix inverse;
  try {
    inverse = s.rho.inverse();
  } catch (const std::exception&) {
    return false;
  }
  std::vector<StructureCoefficient> found;
  for (int a = 0; a < m; ++a)
    for (int b = 0; b < m; ++b) {
      if (a == b) continue;
      std::vector<ex> bracket(n, 0);  // [X_a, X_b]^i = X_a^j ∂_j X_b^i − X_b^j ∂_j X_a^i
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          bracket[i] +=
              s.rho(j, a) * s.rho(i, b).diff(s.q[j]) - s.rho(j, b) * s.rho(i, a).diff(s.q[j]);
      for (int c = 0; c < m; ++c) {
        ex value = 0;
        for (int i = 0; i < n; ++i) value += inverse(c, i) * bracket[i];
        value = simplified(value, s.order);
        if (!value.is_zero()) found.push_back({a, b, c, value});
      }
    }
  const SystemInfo& info = system.info();
  std::vector<double> C(static_cast<size_t>(m) * m * m);
  for (int sample = 1; sample <= 3; ++sample) {
    std::vector<double> q(n);
    GiNaC::exmap at;
    for (int i = 0; i < n; ++i) {
      const double base =
          i < static_cast<int>(info.defaultCoordinates.size()) ? info.defaultCoordinates[i] : 0.0;
      q[i] = base + 0.1 * sample * (1 + (i % 3)) / 3.0;
      at[s.q[i]] = numeric(q[i]);
    }
    std::fill(C.begin(), C.end(), 0.0);
    system.structure(parameters.data(), q.data(), C.data());
    std::vector<double> symbolic(C.size(), 0.0);
    try {
      for (const auto& c : found) {
        const ex v = GiNaC::evalf(c.value.subs(at));
        if (!GiNaC::is_a<numeric>(v) || !ex_to<numeric>(v).is_real()) return false;
        symbolic[c.c + m * (c.a + m * c.b)] = ex_to<numeric>(v).to_double();
      }
    } catch (const std::exception&) {  // a pole at the sample (division by zero)
      return false;
    }
    for (size_t i = 0; i < C.size(); ++i)
      if (!std::isfinite(C[i]) ||
          std::abs(C[i] - symbolic[i]) > 1e-9 * std::max(1.0, std::abs(C[i])))
        return false;
  }
  s.structure = std::move(found);
  return true;
}

void readRecordedSystem(const SystemModel& system, const std::vector<double>& parameters,
                        SymbolicEquations& s) {
  const SystemInfo& info = system.info();
  const int n = system.n(), m = system.m(), kt = system.constraintsTotal();
  std::string values;
  for (size_t j = 0; j < info.parameters.size(); ++j)
    values += (j ? ", " : "") + info.parameters[j].name + " = " + formatNumber(parameters[j]);
  s.notes.push_back("parameters are numbers: the system is written in C++" +
                    (values.empty() ? std::string() : " (" + values + ")"));
  s.t = symbol("t", "t");
  for (int i = 0; i < n; ++i) s.q.emplace_back(info.coordinates[i], latexName(info.coordinates[i]));
  for (int a = 0; a < m; ++a) s.y.emplace_back(info.velocities[a], latexName(info.velocities[a]));
  setOrder(s);
  s.k = system.k();
  s.h = system.h();
  s.rho = matrix(n, m);
  s.forces.assign(m, 0);
  try {
    Tape tape;
    const Sym t = tape.variable(0);
    std::vector<Sym> q(n), y(m), rho(n * m), phi(kt);
    for (int i = 0; i < n; ++i) q[i] = tape.variable(1 + i);
    for (int a = 0; a < m; ++a) y[a] = tape.variable(1 + n + a);
    system.anchor(parameters.data(), q.data(), rho.data());
    const Sym L = system.lagrangian(parameters.data(), t, q.data(), y.data());
    if (kt > 0) system.constraints(parameters.data(), t, q.data(), y.data(), phi.data());
    std::vector<ex> variables{s.t};
    variables.insert(variables.end(), s.q.begin(), s.q.end());
    variables.insert(variables.end(), s.y.begin(), s.y.end());
    const std::vector<ex> node = tapeToGinac(tape, variables);
    for (int a = 0; a < m; ++a)
      for (int i = 0; i < n; ++i) s.rho(i, a) = node[rho[i + n * a].id];
    s.lagrangian = node[L.id];
    for (int c = 0; c < kt; ++c) s.constraints.push_back(node[phi[c].id]);
  } catch (const TapeError& e) {
    s.recorded = false;
    s.notes.push_back(std::string("the system's functions cannot be recorded (") + e.what() +
                      "): no equations to show");
    return;
  }
  if (s.h > 0)
    s.notes.push_back(
        "holonomic constraints appear as ġ = ∂g/∂t + ∂g/∂q ρ y in Φ: a C++ "
        "system's g is not recorded");
  if (system.hasStructure()) {
    if (info.constantStructure) {
      std::vector<double> C(static_cast<size_t>(m) * m * m, 0.0);
      const std::vector<double> zeroQ(std::max(n, 1), 0.0);
      system.structure(parameters.data(), zeroQ.data(), C.data());
      for (int a = 0; a < m; ++a)  // C[γ + m(α + mβ)] = C^γ_{αβ} (system.h)
        for (int b = 0; b < m; ++b)
          for (int c = 0; c < m; ++c)
            if (const double v = C[c + m * (a + m * b)]; v != 0)
              s.structure.push_back({a, b, c, exactNumber(v)});
    } else if (hamelStructure(system, parameters, s)) {
      s.notes.push_back(
          "structure functions: the Hamel symbols of the anchor's columns, [X_a, X_b] = "
          "C^c_ab X_c, which agree with the system's own values at sample configurations");
    } else {
      s.structureOmitted = true;
      s.notes.push_back(
          "the structure functions depend on q and are given in C++ as numbers only: F omits "
          "C^γ_βα y^β p_γ");
    }
  }
  if (system.hasForce()) {
    s.forcesOmitted = true;
    s.notes.push_back("the forces Q are given in C++ as numbers only: F omits them");
  }
}

}  // namespace

// Gauss–Jordan elimination on K x = r with complete pivoting (numbers first, then the
// smallest entry), every entry brought to normal form; nullopt with a reason when an entry
// outgrows the limit or no pivot is left.
std::optional<std::vector<ex>> solveLinear(std::vector<std::vector<ex>> K, std::vector<ex> r,
                                           const GiNaC::lst& order, std::string& why) {
  const int N = static_cast<int>(r.size());
  std::vector<int> unknownOf(N);
  for (int j = 0; j < N; ++j) unknownOf[j] = j;
  for (int s = 0; s < N; ++s) {
    int pi = -1, pj = -1, best = std::numeric_limits<int>::max();
    for (int i = s; i < N; ++i)
      for (int j = s; j < N; ++j) {
        if (K[i][j].is_zero()) continue;
        const int score =
            GiNaC::is_a<numeric>(K[i][j]) ? 0 : 1 + expressionSize(K[i][j], kSolveEntryLimit);
        if (score < best) best = score, pi = i, pj = j;
      }
    if (pi < 0) {
      why = kSingularForAllValues;
      return std::nullopt;
    }
    std::swap(K[s], K[pi]);
    std::swap(r[s], r[pi]);
    for (int i = 0; i < N; ++i) std::swap(K[i][s], K[i][pj]);
    std::swap(unknownOf[s], unknownOf[pj]);
    const ex pivot = K[s][s];
    for (int i = 0; i < N; ++i) {
      if (i == s || K[i][s].is_zero()) continue;
      for (const ex& entry : {K[i][s], pivot, r[i], r[s]})
        if (!cheap(entry)) {
          why = tooLargeReason();
          return std::nullopt;
        }
      const ex factor = GiNaC::normal(K[i][s] / pivot);
      for (int j = s + 1; j < N; ++j) {
        if (K[s][j].is_zero()) continue;
        if (!cheap(K[i][j]) || !cheap(K[s][j])) {
          why = tooLargeReason();
          return std::nullopt;
        }
        K[i][j] = GiNaC::normal(K[i][j] - factor * K[s][j]);
        if (expressionSize(K[i][j], kSolveEntryLimit) > kSolveEntryLimit) {
          why = "the elimination produces expressions too large to show";
          return std::nullopt;
        }
      }
      K[i][s] = 0;
      if (!r[s].is_zero()) r[i] = GiNaC::normal(r[i] - factor * r[s]);
      if (expressionSize(r[i], kSolveEntryLimit) > kSolveEntryLimit) {
        why = "the elimination produces expressions too large to show";
        return std::nullopt;
      }
    }
  }
  std::vector<ex> x(N);
  for (int s = 0; s < N; ++s) x[unknownOf[s]] = simplified(r[s] / K[s][s], order);
  return x;
}

namespace {
struct ExpansionCost {
  long terms = 1;  // terms of expand(e)
  long work = 1;   // terms produced on the way (inside functions, denominators too)
};
// C(b + k − 1, k): the monomials of (t₁ + … + t_b)^k, saturating past `limit`.
long multinomialTerms(long b, long k, long limit) {
  if (b <= 1 || k <= 0) return 1;
  long r = 1;
  for (long i = 1; i <= k; ++i) {
    r = r * (b - 1 + i) / i;
    if (r > limit) return limit + 1;
  }
  return r;
}
ExpansionCost expansionCost(const ex& e, long limit) {
  const auto cap = [&](long v) { return std::min(v, limit + 1); };
  ExpansionCost c;
  if (GiNaC::is_a<GiNaC::add>(e)) {
    c = {0, 0};
    for (size_t i = 0; i < e.nops() && c.work <= limit; ++i) {
      const ExpansionCost x = expansionCost(e.op(i), limit);
      c.terms = cap(c.terms + x.terms);
      c.work = cap(c.work + x.work);
    }
  } else if (GiNaC::is_a<GiNaC::mul>(e)) {
    c = {1, 0};
    for (size_t i = 0; i < e.nops() && c.work <= limit; ++i) {
      const ExpansionCost x = expansionCost(e.op(i), limit);
      c.terms = cap(c.terms * x.terms);
      c.work = cap(c.work + x.work);
    }
    c.work = cap(c.work + c.terms);
  } else if (GiNaC::is_a<GiNaC::power>(e)) {
    const ExpansionCost base = expansionCost(e.op(0), limit);
    const ex exponent = e.op(1);
    if (GiNaC::is_a<numeric>(exponent) && ex_to<numeric>(exponent).is_integer()) {
      const numeric k = GiNaC::abs(ex_to<numeric>(exponent));
      const long terms = k > numeric(limit) ? (base.terms > 1 ? limit + 1 : 1)
                                            : multinomialTerms(base.terms, k.to_long(), limit);
      c.terms = ex_to<numeric>(exponent).is_positive() ? terms : 1;
      c.work = cap(base.work + terms);
    } else {
      // normal() works on a symbolic exponent afresh at each level: doubling per level of a
      // tower x^x^x^….
      c.terms = 1;
      c.work = cap(2 * (base.work + expansionCost(exponent, limit).work));
    }
  } else if (e.nops() > 0) {  // a function: its arguments are expanded
    c = {1, 1};
    for (size_t i = 0; i < e.nops() && c.work <= limit; ++i) {
      const ExpansionCost x = expansionCost(e.op(i), limit);
      c.work = cap(c.work + x.work + x.terms);
    }
  }
  return c;
}
}  // namespace

long expansionBound(const ex& e, long limit) {
  const ExpansionCost c = expansionCost(e, limit);
  return std::min(std::max(c.terms, c.work), limit + 1);
}

int expressionSize(const ex& e, int limit) {
  int count = 1;
  for (size_t i = 0; i < e.nops() && count <= limit; ++i)
    count += expressionSize(e.op(i), limit - count);
  return count;
}

CancelDerivationsWhen::CancelDerivationsWhen(const std::atomic<bool>* flag) : previous_(tCancel) {
  tCancel = flag;
}

CancelDerivationsWhen::~CancelDerivationsWhen() { tCancel = previous_; }

DerivationBudget::DerivationBudget()
    : deadline_(tDeadline), overBudget_(tOverBudget), tooLarge_(tTooLarge) {
  tDeadline = std::chrono::steady_clock::now() + std::chrono::seconds(kTimeBudgetSeconds);
  tOverBudget = tTooLarge = false;
}

DerivationBudget::~DerivationBudget() {
  tDeadline = deadline_;
  tOverBudget = overBudget_;
  tTooLarge = tooLarge_;
}

std::string cappedNote() {
  if (!tOverBudget && !tTooLarge) return "";
  return "some entries are too large to simplify symbolically (" + capReason() +
         "): they are shown as derived; the numbers are unaffected";
}

std::string tooLargeToDerive(const std::vector<std::pair<std::string, GiNaC::ex>>& read) {
  for (const auto& [what, e] : read)
    if (expressionSize(e, kDeriveSizeLimit) > kDeriveSizeLimit)
      return "nothing derived: the " + what + " with its definitions written out has more than " +
             std::to_string(kDeriveSizeLimit) +
             " terms, too large to derive symbolically within the " +
             std::to_string(kTimeBudgetSeconds) + " s budget; the numbers are unaffected";
  return "";
}

namespace {

// The first expression read that is too large to derive (tooLargeToDerive), or "".
std::string tooLargeRead(const SymbolicEquations& s) {
  std::vector<std::pair<std::string, ex>> read{{"Lagrangian", s.lagrangian}};
  for (const ex& e : s.constraints) read.emplace_back("constraint", e);
  for (const ex& e : s.holonomic) read.emplace_back("holonomic constraint", e);
  for (const ex& e : s.forces) read.emplace_back("force", e);
  for (size_t i = 0; i < s.rho.nops(); ++i) read.emplace_back("anchor", s.rho.op(i));
  for (const auto& c : s.structure) read.emplace_back("structure", c.value);
  return tooLargeToDerive(read);
}

}  // namespace

// ρ (and whether it is the identity) and C simplified.
void simplifyGeometry(SymbolicEquations& s) {
  const int n = static_cast<int>(s.q.size()), m = static_cast<int>(s.y.size());
  for (int i = 0; i < n; ++i)
    for (int a = 0; a < m; ++a) s.rho(i, a) = simplified(s.rho(i, a), s.order);
  s.identityAnchor = n == m;
  for (int i = 0; i < n && s.identityAnchor; ++i)
    for (int a = 0; a < m && s.identityAnchor; ++a)
      s.identityAnchor = (s.rho(i, a) - (i == a ? 1 : 0)).is_zero();
  for (auto& c : s.structure) c.value = simplified(c.value, s.order);
}

namespace {

// What was read simplified: ρ and C (simplifyGeometry), L, Φ and g.
void simplifyRead(SymbolicEquations& s) {
  simplifyGeometry(s);
  s.lagrangian = simplified(s.lagrangian, s.order);
  for (ex& phi : s.constraints) phi = simplified(phi, s.order);
  for (ex& g : s.holonomic) g = simplified(g, s.order);
}

// M, F, A and b (symbolic_equations.h).
void formEquations(SymbolicEquations& s) {
  const int n = static_cast<int>(s.q.size()), m = static_cast<int>(s.y.size());
  const int kt = static_cast<int>(s.constraints.size());
  // Total derivative at frozen y along the motion: ∂_t + (ρy)·∂_q (as the engine's `along`).
  std::vector<ex> v(n, 0);
  for (int i = 0; i < n; ++i)
    for (int a = 0; a < m; ++a) v[i] += s.rho(i, a) * s.y[a];
  const auto along = [&](const ex& f) {
    ex r = f.diff(s.t);
    for (int i = 0; i < n; ++i) r += f.diff(s.q[i]) * v[i];
    return r;
  };
  std::vector<ex> p(m);
  for (int a = 0; a < m; ++a) p[a] = s.lagrangian.diff(s.y[a]);
  s.M = matrix(m, m);
  s.F = matrix(m, 1);
  for (int a = 0; a < m; ++a) {
    for (int b = 0; b < m; ++b) s.M(a, b) = simplified(p[a].diff(s.y[b]), s.order);
    ex F = -along(p[a]) + s.forces[a];
    for (int i = 0; i < n; ++i) F += s.rho(i, a) * s.lagrangian.diff(s.q[i]);
    s.F(a, 0) = F;
  }
  // F_α += C^γ_{βα} y^β p_γ, as the engine adds it (equations.cpp).
  for (const auto& c : s.structure) s.F(c.b, 0) += c.value * s.y[c.a] * p[c.c];
  for (int a = 0; a < m; ++a) s.F(a, 0) = simplified(s.F(a, 0), s.order);
  s.A = matrix(std::max(kt, 1), m);  // GiNaC has no 0×m matrices; only kt rows are used
  s.b = matrix(std::max(kt, 1), 1);
  for (int c = 0; c < kt; ++c) {
    for (int a = 0; a < m; ++a) s.A(c, a) = simplified(s.constraints[c].diff(s.y[a]), s.order);
    s.b(c, 0) = simplified(-along(s.constraints[c]), s.order);
  }
}

// ẏ and λ from [M −Aᵀ; A 0] [ẏ; λ] = [F; b] when F is complete and the system small enough;
// otherwise why not. Notes entries too large to simplify.
void solveExplicit(SymbolicEquations& s) {
  const int m = static_cast<int>(s.y.size());
  const int kt = static_cast<int>(s.constraints.size());
  if (const std::string capped = cappedNote(); !capped.empty()) s.notes.push_back(capped);
  if (s.structureOmitted || s.forcesOmitted) {
    s.notSolvedBecause = "F is incomplete (see the notes)";
    return;
  }
  if (tOverBudget) {
    s.notSolvedBecause = tooLargeReason();
    return;
  }
  if (m + kt > kSolveMaxSize) {
    s.notSolvedBecause = "the linear system has " + std::to_string(m + kt) + " unknowns (at most " +
                         std::to_string(kSolveMaxSize) + " are solved symbolically)";
    return;
  }
  const int N = m + kt;
  std::vector<std::vector<ex>> K(N, std::vector<ex>(N, 0));
  std::vector<ex> r(N);
  for (int a = 0; a < m; ++a) {
    for (int b = 0; b < m; ++b) K[a][b] = s.M(a, b);
    for (int c = 0; c < kt; ++c) K[a][m + c] = -s.A(c, a);
    r[a] = s.F(a, 0);
  }
  for (int c = 0; c < kt; ++c) {
    for (int a = 0; a < m; ++a) K[m + c][a] = s.A(c, a);
    r[m + c] = s.b(c, 0);
  }
  if (const auto x = solveLinear(std::move(K), std::move(r), s.order, s.notSolvedBecause)) {
    s.solved = true;
    s.ydot = matrix(m, 1);
    s.lambda = matrix(std::max(kt, 1), 1);
    for (int a = 0; a < m; ++a) s.ydot(a, 0) = (*x)[a];
    for (int c = 0; c < kt; ++c) s.lambda(c, 0) = (*x)[m + c];
  }
}

}  // namespace

SymbolicEquations deriveSymbolic(const SystemModel& system, const std::vector<double>& parameters) {
  std::lock_guard lock(ginacMutex());
  const DerivationBudget budget;
  SymbolicEquations s;
  const SystemInfo& info = system.info();
  s.coordinateNames = info.coordinates;
  s.velocityNames = info.velocities;
  const FormulaSystem* formula = asFormula(system);
  if (formula) {
    readFormulaSystem(*formula, s);
  } else {
    std::vector<double> values = parameters.empty() ? system.defaultParameters() : parameters;
    if (values.size() != info.parameters.size())
      throw InputError("system '" + system.name() + "' takes " +
                       std::to_string(info.parameters.size()) + " parameters, got " +
                       std::to_string(values.size()));
    for (const ParameterInfo& p : info.parameters) s.parameterNames.push_back(p.name);
    readRecordedSystem(system, values, s);
    if (!s.recorded) return s;
  }
  if (std::string why = tooLargeRead(s); !why.empty()) {
    s.recorded = false;
    s.notes.push_back(std::move(why));
    return s;
  }
  simplifyRead(s);
  formEquations(s);
  solveExplicit(s);
  return s;
}

}  // namespace nh::model
// SPDX-License-Identifier: GPL-3.0-or-later
