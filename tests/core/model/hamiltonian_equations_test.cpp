// The Hamiltonian side (core/model/hamiltonian_equations.*): the Legendre transform and the
// nonholonomic bracket of (q, π), compared as GiNaC expressions (their difference brought to
// normal form is 0) with
// - the brackets and Jacobiators of nh_particle and the Chaplygin sleigh that
//   hamiltonian_equations_reference.py computes with sympy from the definitions;
// - Euler's equations of the free rigid body, ṗ = p × Ω: ṗ = {p, H} fixes the bracket's sign,
//   and ṗ = {p, H}, q̇ = {q, H} are the engine's unconstrained equations (F, ρ y);
// - the engine's nonholonomic equations: π̇_a = d/dt⟨p, X_a⟩ with its explicit ẏ equals
//   {π_a, H} on the constraint for linear constraints (sleigh, particle, ball on a table);
// - a zero Jacobiator for holonomic and Lie-algebra cases, nonzero ones for nonholonomic;
// - the refusals (L not quadratic, a constraint not affine, a control model) and the blocks.
#include "core/model/hamiltonian_equations.h"

#include <ginac/ginac.h>

#include <QtTest>
#include <random>

#include "control_models.h"
#include "core/model/catalogue.h"
#include "core/model/derived_equations.h"
#include "core/model/model_file.h"
#include "core/nh/dynamics.h"
#include "tests/core/model/symbolic_test_support.h"
#include "veselova_model.h"

namespace {

using GiNaC::ex;
using nh::model::HamiltonianEquations;
using nh::test::named;
using nh::test::same;
using nh::test::symbolOf;
using nh::test::valueAt;

HamiltonianEquations derive(const std::string& name) {
  return nh::model::deriveHamiltonianSymbolic(*named(name));
}

// The index of the coordinate of M* (q, then π) named `name`.
int indexOf(const HamiltonianEquations& e, const std::string& name) {
  for (size_t I = 0; I < e.z.size(); ++I)
    if (e.z[I].get_name() == name) return static_cast<int>(I);
  throw std::logic_error("no coordinate " + name);
}

// {a, b} of two coordinates of M* by their names.
ex bracketEntry(const HamiltonianEquations& e, const std::string& a, const std::string& b) {
  return e.Lambda(indexOf(e, a), indexOf(e, b));
}

// J(z^i, z^j, z^l) by the coordinates' names: the entry listed, or 0 when none is.
ex jacobiatorEntry(const HamiltonianEquations& e, const std::string& a, const std::string& b,
                   const std::string& c) {
  for (const auto& j : e.jacobiator)
    if (e.z[j.i].get_name() == a && e.z[j.j].get_name() == b && e.z[j.l].get_name() == c)
      return j.value;
  return 0;
}

// e with the velocities y = M⁻¹(p − p0) at p = p(t, q, π): on the constraint, in (q, π).
ex onConstraint(const HamiltonianEquations& e, const ex& f) {
  GiNaC::exmap momenta, velocities;
  for (size_t a = 0; a < e.p.size(); ++a) momenta[e.p[a]] = e.momentumOnConstraint[a];
  for (size_t a = 0; a < e.p.size(); ++a)
    velocities[e.lagrangian.y[a]] = e.velocityOfMomenta[a].subs(momenta);
  return f.subs(velocities);
}

// d/dt⟨p, X_a⟩ along the engine's explicit equations, for p = ∂L/∂y and X_a of (t, q):
// Σ_α X_a^α ṗ_α + p_α (∂_t + ρ y·∂_q) X_a^α with ṗ_α = ∂p_α/∂y ẏ + (∂_t + ρ y·∂_q) p_α.
ex engineMomentumRate(const HamiltonianEquations& e, int a) {
  const auto& s = e.lagrangian;
  const int n = static_cast<int>(s.q.size()), m = static_cast<int>(s.y.size());
  const auto along = [&](const ex& f) {
    ex r = f.diff(s.t);
    for (int i = 0; i < n; ++i)
      for (int b = 0; b < m; ++b) r += f.diff(s.q[i]) * s.rho(i, b) * s.y[b];
    return r;
  };
  ex rate = 0;
  for (int al = 0; al < m; ++al) {
    ex pdot = along(e.momentum[al]);
    for (int b = 0; b < m; ++b) pdot += e.momentum[al].diff(s.y[b]) * s.ydot(b, 0);
    rate += e.X[a][al] * pdot + e.momentum[al] * along(e.X[a][al]);
  }
  return rate;
}

// Whether π̇_a = {π_a, H} on the constraint equals the engine's d/dt⟨p, X_a⟩ for every a.
bool momentaFollowTheBracket(const HamiltonianEquations& e) {
  for (size_t a = 0; a < e.pi.size(); ++a)
    if (!same(nh::model::bracketOf(e, e.pi[a], e.constrainedHamiltonian),
              onConstraint(e, engineMomentumRate(e, static_cast<int>(a)))))
      return false;
  return true;
}

// ż = {z, H} on the constraint: π̇ as the engine's d/dt⟨p, X_a⟩ and q̇ = ρ y.
void checkNonholonomicDynamics(const std::string& name) {
  const HamiltonianEquations e = derive(name);
  QVERIFY2(e.bracket && e.lagrangian.solved, name.c_str());
  QVERIFY2(momentaFollowTheBracket(e), name.c_str());
  const auto& s = e.lagrangian;
  for (size_t i = 0; i < s.q.size(); ++i) {
    ex qdot = 0;
    for (size_t a = 0; a < s.y.size(); ++a) qdot += s.rho(i, a) * s.y[a];
    COMPARE_EX(nh::model::bracketOf(e, s.q[i], e.constrainedHamiltonian), onConstraint(e, qdot));
  }
}

// The bracket as derived (Λ, the data the printed text is made of) against the run's own
// equations at `samples` random states (q, π) with the parameters `parameters` (empty: the
// defaults): ż^I = Σ_J Λ^{IJ} ∂H/∂z^J must be q̇ = ρ y and π̇_a = d/dt⟨p, X_a⟩ =
// X_a^α ṗ_α + p_α (ρ y)·∂_q X_a^α with (q̇, ṗ) the engine's momentumRhs at p = p(q, π).
// For linear constraints (y0 = 0) and time-independent systems.
void checkBracketAgainstTheRun(const std::shared_ptr<const nh::SystemModel>& system,
                               const HamiltonianEquations& e, std::vector<double> parameters,
                               int samples) {
  QVERIFY(e.bracket);
  const auto& s = e.lagrangian;
  const int n = static_cast<int>(s.q.size()), m = static_cast<int>(s.y.size());
  const int d = static_cast<int>(e.pi.size());
  if (parameters.empty()) parameters = system->defaultParameters();
  const nh::EquationsOfMotion eq(system, nh::DynamicsKind::Nonholonomic,
                                 nh::Formulation::Multipliers, parameters);
  nh::EquationsWorkspace ws(eq);
  std::mt19937 random(20261129);
  std::uniform_real_distribution<double> offset(-0.3, 0.3), momentum(-1.0, 1.0);
  std::vector<ex> rate(n + d, 0);  // Σ_J Λ^{IJ} ∂H/∂z^J, symbolic
  for (int I = 0; I < n + d; ++I)
    for (int J = 0; J < n + d; ++J)
      if (!e.Lambda(I, J).is_zero())
        rate[I] += e.Lambda(I, J) * e.constrainedHamiltonian.diff(e.z[J]);
  for (int sample = 0; sample < samples; ++sample) {
    GiNaC::exmap at{{s.t, 0}};
    for (size_t j = 0; j < s.parameters.size(); ++j) at[s.parameters[j]] = parameters[j];
    std::vector<double> z(n + m);
    for (int i = 0; i < n; ++i) {
      z[i] = system->info().defaultCoordinates[i] + offset(random);
      at[s.q[i]] = z[i];
    }
    for (int a = 0; a < d; ++a) at[e.pi[a]] = momentum(random);
    for (int a = 0; a < m; ++a) {
      z[n + a] = valueAt(e.momentumOnConstraint[a], at);
      at[e.p[a]] = z[n + a];
    }
    std::vector<double> dz(n + m);
    eq.momentumRhs(ws, 0.0, z.data(), dz.data());
    const auto close = [](double a, double b) {
      return std::abs(a - b) <= 1e-9 * (1 + std::abs(a) + std::abs(b));
    };
    for (int i = 0; i < n; ++i) {
      const double fromBracket = valueAt(rate[i], at);
      QVERIFY2(close(fromBracket, dz[i]),
               qPrintable(QString("q̇_%1 = %2 from the bracket, %3 in the run")
                              .arg(i)
                              .arg(fromBracket)
                              .arg(dz[i])));
    }
    for (int a = 0; a < d; ++a) {
      double fromRun = 0;
      for (int al = 0; al < m; ++al) {
        fromRun += valueAt(e.X[a][al], at) * dz[n + al];
        for (int i = 0; i < n; ++i)
          fromRun += z[n + al] * valueAt(e.X[a][al].diff(s.q[i]), at) * dz[i];
      }
      const double fromBracket = valueAt(rate[n + a], at);
      QVERIFY2(close(fromBracket, fromRun),
               qPrintable(QString("π̇_%1 = %2 from the bracket, %3 in the run")
                              .arg(QString::fromStdString(e.pi[a].get_name()))
                              .arg(fromBracket)
                              .arg(fromRun)));
    }
  }
}

}  // namespace

class HamiltonianEquationsTest : public QObject {
  Q_OBJECT

 private slots:
  // hamiltonian_equations_reference.py: X_vx = e_vx + y e_vz, X_vy = e_vy;
  // {x, π_vx} = 1, {y, π_vy} = 1, {z, π_vx} = y, {π_vx, π_vy} = y π_vx/(1 + y²);
  // J(x, π_vx, π_vy) = −y/(1 + y²), J(z, π_vx, π_vy) = 1/(1 + y²), the others 0.
  void particleBracketIsTheReference() {
    const HamiltonianEquations e = derive("nh_particle");
    QVERIFY(e.legendre && e.bracket && e.constrained);
    const ex y = symbolOf(e.lagrangian.q, "y"), m = symbolOf(e.lagrangian.parameters, "m");
    const ex pvx = symbolOf(e.pi, "π_vx");
    COMPARE_EX(e.hamiltonian, (pow(symbolOf(e.p, "p_vx"), 2) + pow(symbolOf(e.p, "p_vy"), 2) +
                               pow(symbolOf(e.p, "p_vz"), 2)) /
                                  (2 * m));
    COMPARE_EX(bracketEntry(e, "x", "π_vx"), 1);
    COMPARE_EX(bracketEntry(e, "y", "π_vy"), 1);
    COMPARE_EX(bracketEntry(e, "z", "π_vx"), y);
    COMPARE_EX(bracketEntry(e, "x", "π_vy"), 0);
    COMPARE_EX(bracketEntry(e, "z", "π_vy"), 0);
    COMPARE_EX(bracketEntry(e, "π_vx", "π_vy"), y * pvx / (1 + y * y));
    COMPARE_EX(bracketEntry(e, "π_vy", "π_vx"), -y * pvx / (1 + y * y));
    QCOMPARE(e.jacobiator.size(), size_t(2));
    COMPARE_EX(jacobiatorEntry(e, "x", "π_vx", "π_vy"), -y / (1 + y * y));
    COMPARE_EX(jacobiatorEntry(e, "z", "π_vx", "π_vy"), 1 / (1 + y * y));
  }

  // hamiltonian_equations_reference.py: {x, π_v} = cos θ, {y, π_v} = sin θ, {θ, π_ω} = 1,
  // {π_v, π_ω} = m a π_ω/(I + m a²); J(x, π_v, π_ω) = −sin θ, J(y, π_v, π_ω) = cos θ,
  // J(θ, π_v, π_ω) = −m a/(I + m a²).
  void sleighBracketIsTheReference() {
    const HamiltonianEquations e = derive("chaplygin_sleigh");
    QVERIFY(e.bracket);
    const ex theta = symbolOf(e.lagrangian.q, "theta");
    const auto& P = e.lagrangian.parameters;
    const ex m = symbolOf(P, "m"), I = symbolOf(P, "I"), a = symbolOf(P, "a");
    const ex pomega = symbolOf(e.pi, "π_omega");
    COMPARE_EX(bracketEntry(e, "x", "π_v"), cos(theta));
    COMPARE_EX(bracketEntry(e, "y", "π_v"), sin(theta));
    COMPARE_EX(bracketEntry(e, "theta", "π_omega"), 1);
    COMPARE_EX(bracketEntry(e, "π_v", "π_omega"), m * a * pomega / (I + m * a * a));
    QCOMPARE(e.jacobiator.size(), size_t(3));
    COMPARE_EX(jacobiatorEntry(e, "x", "π_v", "π_omega"), -sin(theta));
    COMPARE_EX(jacobiatorEntry(e, "y", "π_v", "π_omega"), cos(theta));
    COMPARE_EX(jacobiatorEntry(e, "theta", "π_v", "π_omega"), -m * a / (I + m * a * a));
  }

  // Without constraints π = p: ṗ = {p, H} is Euler's p × Ω with Ω = I⁻¹ p, which
  // {p_α, p_β} = −C^γ_αβ p_γ gives for [e_1, e_2] = e_3 (the opposite sign would give Ω × p);
  // and ṗ = {p, H}, q̇ = {q, H} are the engine's F and ρ y at y = M⁻¹ p.
  void rigidBodyBracketGivesEulersEquations() {
    const HamiltonianEquations e = derive("rigid_body");
    QVERIFY(e.bracket && !e.constrained);
    const auto& P = e.lagrangian.parameters;
    const ex I1 = symbolOf(P, "I1"), I2 = symbolOf(P, "I2"), I3 = symbolOf(P, "I3");
    const ex p1 = symbolOf(e.pi, "p_w1"), p2 = symbolOf(e.pi, "p_w2"), p3 = symbolOf(e.pi, "p_w3");
    const ex W1 = p1 / I1, W2 = p2 / I2, W3 = p3 / I3;
    const ex& H = e.constrainedHamiltonian;
    COMPARE_EX(nh::model::bracketOf(e, p1, H), p2 * W3 - p3 * W2);
    COMPARE_EX(nh::model::bracketOf(e, p2, H), p3 * W1 - p1 * W3);
    COMPARE_EX(nh::model::bracketOf(e, p3, H), p1 * W2 - p2 * W1);
    const auto& s = e.lagrangian;
    for (size_t a = 0; a < e.pi.size(); ++a)
      COMPARE_EX(nh::model::bracketOf(e, e.pi[a], H), onConstraint(e, s.F(a, 0)));
    for (size_t i = 0; i < s.q.size(); ++i) {
      ex qdot = 0;
      for (size_t a = 0; a < s.y.size(); ++a) qdot += s.rho(i, a) * s.y[a];
      COMPARE_EX(nh::model::bracketOf(e, s.q[i], H), onConstraint(e, qdot));
    }
    QVERIFY(e.jacobiator.empty());
  }

  // Linear constraints: the bracket's π̇ = {π, H} are the engine's nonholonomic equations.
  void bracketGivesTheNonholonomicEquations() {
    checkNonholonomicDynamics("chaplygin_sleigh");
    checkNonholonomicDynamics("nh_particle");
    checkNonholonomicDynamics("ball_on_table");
  }

  // Holonomic constraints (an integrable D) and Lie algebroids without constraints: Poisson.
  void jacobiatorVanishesForPoissonCases() {
    for (const char* name : {"rigid_body", "spherical_pendulum", "central_force"}) {
      const HamiltonianEquations e = derive(name);
      QVERIFY2(e.bracket, name);
      QVERIFY2(e.jacobiator.empty(), name);
    }
  }

  void jacobiatorDoesNotVanishForNonholonomicCases() {
    for (const char* name :
         {"chaplygin_sleigh", "nh_particle", "ball_on_table", "ball_on_turntable"}) {
      const HamiltonianEquations e = derive(name);
      QVERIFY2(e.bracket, name);
      QVERIFY2(!e.jacobiator.empty(), name);
    }
  }

  // The turntable's affine constraint: y0 = Ω(t)(x e_wx + y e_wy)/r, and a note that the
  // bracket alone does not give the motion.
  void affineConstraintHasAParticularVelocity() {
    const HamiltonianEquations e = derive("ball_on_turntable");
    QVERIFY(e.bracket);
    const auto& s = e.lagrangian;
    const ex x = symbolOf(s.q, "x"), y = symbolOf(s.q, "y"), r = symbolOf(s.parameters, "r");
    const ex wx = e.particular[2], wy = e.particular[3];
    COMPARE_EX(wx * y, wy * x);
    QVERIFY(!wx.is_zero());
    QVERIFY(!(wx * r / x).has(x));
    bool noted = false;
    for (const auto& note : e.notes) noted |= note.find("affine") != std::string::npos;
    QVERIFY(noted);
    // What the note says: {π, H} misses the drift of the moving constraint.
    QVERIFY(e.lagrangian.solved);
    QVERIFY(!momentaFollowTheBracket(e));
  }

  void refusals() {
    const char* quartic =
        "format: nonholonomic-lab-system\nversion: 1\nname: quartic\ncoordinates: [x]\n"
        "velocities: [vx]\nlagrangian: vx^4 + vx^2\ninitial: {x: 0, vx: 1}\n";
    const HamiltonianEquations q =
        nh::model::deriveHamiltonianSymbolic(*nh::model::loadModelText(quartic, "quartic.yaml"));
    QVERIFY(!q.legendre && !q.bracket);
    QVERIFY(q.noLegendreBecause.find("not quadratic in y") != std::string::npos);
    const HamiltonianEquations appell = derive("appell_hamel");
    QVERIFY(appell.legendre && !appell.bracket);
    QVERIFY(appell.noBracketBecause.find("not affine in y") != std::string::npos);
    const auto brockett = nh::model::loadModelText(nh::test::kBrockettModel, "brockett.yaml");
    QVERIFY_THROWS_EXCEPTION(nh::InputError, nh::model::deriveHamiltonianEquations(*brockett));
  }

  // A general algebroid's bracket is not skew: graded_index_ray's [e_vx, e_vx] = −a e_vx −
  // b e_vy gives {p_vx, p_vx} = C^γ_vx,vx p_γ = −a p_vx − b p_vy (the engine's ṗ_α ∋
  // C^γ_βα y^β p_γ), likewise {p_vy, p_vy}; {p_vx, p_vy} = C^γ_vy,vx p_γ = −b p_vx + a p_vy and
  // {p_vy, p_vx} its negative. With these ṗ_vx = −a(vx² − vy²) − 2b vx vy, the ray's. The
  // bracket (the data the text is printed from) gives the run's ṗ at random states; the text
  // lists every entry, the diagonal included, and calls it neither Poisson nor almost-Poisson.
  void generalAlgebroidBracketIsNotSkew() {
    const auto system = named("graded_index_ray");
    const HamiltonianEquations e = nh::model::deriveHamiltonianSymbolic(*system);
    QVERIFY(e.bracket && !e.constrained && !e.skew);
    QVERIFY(e.jacobiator.empty());
    const auto& P = e.lagrangian.parameters;
    const ex a = symbolOf(P, "a"), b = symbolOf(P, "b");
    const ex px = symbolOf(e.pi, "p_vx"), py = symbolOf(e.pi, "p_vy");
    COMPARE_EX(bracketEntry(e, "p_vx", "p_vx"), -a * px - b * py);
    COMPARE_EX(bracketEntry(e, "p_vy", "p_vy"), -a * px - b * py);
    COMPARE_EX(bracketEntry(e, "p_vx", "p_vy"), -b * px + a * py);
    COMPARE_EX(bracketEntry(e, "p_vy", "p_vx"), b * px - a * py);
    COMPARE_EX(nh::model::bracketOf(e, px, e.constrainedHamiltonian),
               -a * (px * px - py * py) - 2 * b * px * py);
    checkBracketAgainstTheRun(system, e, {0.7, -0.4}, 5);
    const std::string plain =
        nh::model::toPlainText(nh::model::deriveHamiltonianEquations(*system));
    for (const char* entry : {"{p_vx, p_vx} = ", "{p_vy, p_vy} = ", "{p_vx, p_vy} = ",
                              "{p_vy, p_vx} = ", "{x, p_vx} = 1", "{y, p_vy} = 1"})
      QVERIFY2(plain.find(entry) != std::string::npos, plain.c_str());
    QVERIFY2(plain.find("not skew-symmetric") != std::string::npos, plain.c_str());
    QVERIFY2(plain.find("Poisson bracket") == std::string::npos, plain.c_str());
    QVERIFY2(plain.find("\n  J(") == std::string::npos, plain.c_str());  // no entries
    QVERIFY2(plain.find("the bracket is Poisson") == std::string::npos, plain.c_str());
  }

  // The textbook almost-Poisson systems whose p(q, π) GiNaC cannot write out within the
  // derivation's bounds — the Chaplygin sphere (Xᵀ M X 3×3, rational in the attitude
  // quaternion) and Veselova's (2×2, ⟨ω, γ⟩ = 0) — get H and a note that says which step
  // failed and why, never a reason cut off after its colon.
  void bracketNotFormedSaysWhy() {
    const std::shared_ptr<const nh::SystemModel> veselova =
        nh::model::loadModelText(nh::test::kVeselovaModel, "veselova.yaml");
    for (const auto& system : {named("chaplygin_sphere"), veselova}) {
      const HamiltonianEquations e = nh::model::deriveHamiltonianSymbolic(*system);
      const std::string& why = e.noBracketBecause;
      QVERIFY2(e.legendre && !e.bracket, system->name().c_str());
      QVERIFY2(
          why.find("p(q, π) could not be formed: solving π = Xᵀ(M X v + M y0 + p0) for v") == 0,
          why.c_str());
      QVERIFY2(why.find("failed: the elimination produces expressions too large to show") !=
                   std::string::npos,
               why.c_str());
      const std::string plain =
          nh::model::toPlainText(nh::model::deriveHamiltonianEquations(*system));
      QVERIFY2(plain.find("  - bracket not shown: " + why + "\n") != std::string::npos,
               plain.c_str());
    }
  }

  // The skew brackets against the run at random states too: unconstrained (the rigid body's
  // Lie–Poisson bracket) and on linear constraints.
  void skewBracketsGiveTheRunsRates() {
    for (const char* name : {"rigid_body", "chaplygin_sleigh", "nh_particle", "ball_on_table"}) {
      const auto system = named(name);
      const HamiltonianEquations e = nh::model::deriveHamiltonianSymbolic(*system);
      QVERIFY2(e.skew, name);
      checkBracketAgainstTheRun(system, e, {}, 3);
    }
  }

  // The typeset blocks: the bracket as "{x, π_vx} = 1" lines, a zero Jacobiator in words.
  void typesetBlocks() {
    const auto particle = nh::model::deriveHamiltonianEquations(*named("nh_particle"));
    QVERIFY(particle.hamiltonian);
    const std::string plain = nh::model::toPlainText(particle);
    QVERIFY2(plain.find("{z, π_vx} = y\n") != std::string::npos, plain.c_str());
    QVERIFY2(plain.find("{π_vx, π_vy} = y*π_vx/(y^2 + 1)") != std::string::npos, plain.c_str());
    QVERIFY2(plain.find("J(z, π_vx, π_vy) = 1/(y^2 + 1)") != std::string::npos, plain.c_str());
    const std::string latex = nh::model::toLatex(particle);
    QVERIFY2(latex.find("\\{z, \\pi_{\\mathrm{vx}}\\} = y") != std::string::npos, latex.c_str());
    const auto body = nh::model::deriveHamiltonianEquations(*named("rigid_body"));
    QVERIFY(nh::model::toPlainText(body).find("Jacobiator: 0 (the bracket is Poisson)") !=
            std::string::npos);
  }
};

QTEST_GUILESS_MAIN(HamiltonianEquationsTest)
#include "hamiltonian_equations_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
