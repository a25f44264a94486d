// The energy with respect to the constraints' reference frame, T_Γ = p·(y − Γ) − L (the
// output column energy_frame, core/nh/frame_energy.h), on the ball on a turntable whose model
// file declares the table's rotation as its frame: Γ = (−Ω y, Ω x, 0, 0, Ω).
//
// The balance it obeys follows from M ẏ − Aᵀ λ = F, i.e.
//   ṗ_α = ρⁱ_α ∂L/∂qⁱ + C^γ_βα y^β p_γ + Q_α + (Aᵀ λ)_α,
// and from E = p·y − L, whose rate is dE/dt = −∂L/∂t + Q·y + λ·A y (the C-term vanishes against
// y by skew symmetry). With T_Γ = E − p·Γ:
//   dT_Γ/dt = −∂L/∂t + Q·(y − Γ) + λ·A (y − Γ) − Γ^α (ρⁱ_α ∂L/∂qⁱ + C^γ_βα y^β p_γ) − p·dΓ/dt,
// and the reaction's term λ·A (y − Γ) vanishes for affine constraints: Φ(y) − Φ(Γ) = A (y − Γ)
// and both are zero. dΓ/dt = ∂Γ/∂t + (∂Γ/∂q) ρ y. On the level table at constant Ω every term
// is zero (L reads neither t nor q, p·dΓ/dt = m Ω (−vx vy + vy vx) = 0, and the C-term against
// Γ is Ω ẑ·(ω × I ω) = 0 for a ball): T_Γ is conserved while E oscillates. With Ω(t) and a
// tilt the closed form is dT_Γ/dt = −Ω̇ (m (x vy − y vx) + I wz) − m g sin(tilt) Ω y.
#include "core/nh/frame_energy.h"

#include <QtTest>
#include <cmath>
#include <functional>
#include <vector>

#include "core/model/catalogue.h"
#include "core/nh/scenario.h"
#include "core/nh/simulation.h"

using namespace nh;

namespace {

// f′(0) by the fourth-order central difference with step h (error h⁴ f⁽⁵⁾/30).
double derivative(const std::function<double(double)>& f, double h) {
  return (-f(2 * h) + 8 * f(h) - 8 * f(-h) + f(-2 * h)) / (12 * h);
}

IntegratorOptions tightOptions() {
  IntegratorOptions opt;
  opt.method = Integrator::Dop853;
  opt.rtol = 1e-13;
  opt.atol = 1e-15;
  return opt;
}

// The power of the frame and of the applied forces relative to it (the balance above) at
// (t, x) with momentum p, from the system's own functions: ∂L/∂t, ∂L/∂q and dΓ/dt by central
// differences, ρ, C and Q as the system gives them.
double framePower(const EquationsOfMotion& eq, double t, const std::vector<double>& x,
                  const VecY& p) {
  const SystemModel& s = eq.system();
  const double* par = eq.parameters().data();
  const int n = s.n(), m = s.m();
  const double* q = x.data();
  const double* y = q + n;
  std::vector<double> rho(n * m), C(m * m * m, 0.0), Q(m, 0.0), gamma(m), qs(q, q + n);
  s.anchor(par, q, rho.data());
  s.structure(par, q, C.data());
  s.force(par, t, q, y, Q.data());
  s.referenceFrame(par, t, q, gamma.data());
  const double h = 1e-3;
  double power = -derivative([&](double e) { return s.lagrangian(par, t + e, q, y); }, h);
  for (int a = 0; a < m; ++a) power += Q[a] * (y[a] - gamma[a]);
  for (int i = 0; i < n; ++i) {
    const double dLdq = derivative(
        [&](double e) {
          qs[i] = q[i] + e;
          const double L = s.lagrangian(par, t, qs.data(), y);
          qs[i] = q[i];
          return L;
        },
        h);
    for (int a = 0; a < m; ++a) power -= gamma[a] * rho[i + n * a] * dLdq;
  }
  for (int a = 0; a < m; ++a)
    for (int b = 0; b < m; ++b)
      for (int c = 0; c < m; ++c) power -= gamma[a] * C[c + m * (b + m * a)] * y[b] * p[c];
  // p·dΓ/dt: Γ along (t + e, q + e ρ y).
  std::vector<double> velocity(n, 0.0), moved(m);
  for (int i = 0; i < n; ++i)
    for (int a = 0; a < m; ++a) velocity[i] += rho[i + n * a] * y[a];
  power -= derivative(
      [&](double e) {
        for (int i = 0; i < n; ++i) qs[i] = q[i] + e * velocity[i];
        s.referenceFrame(par, t + e, qs.data(), moved.data());
        double pg = 0;
        for (int a = 0; a < m; ++a) pg += p[a] * moved[a];
        return pg;
      },
      h);
  return power;
}

// The recorded run: times, states and energy_frame, every h seconds.
struct Record {
  std::vector<double> t, frameEnergy, energy;
  std::vector<std::vector<double>> x;
  std::vector<VecY> momentum;
};

Record record(Simulation& sim, double tEnd, double dt) {
  const EquationsOfMotion& eq = sim.equations();
  const StateLayout layout = stateLayout(eq.system(), eq.dynamics());
  const std::vector<std::string> columns = outputColumns(eq);
  const auto at = [&](const char* name) {
    return static_cast<int>(std::find(columns.begin(), columns.end(), name) - columns.begin());
  };
  const int energy = at("energy"), frame = at("energy_frame");
  Record r;
  Observables obs;
  std::vector<double> row;
  sim.advance(tEnd, dt, [&](double t, const double* x) {
    outputRow(eq, sim.workspace(), layout, t, x, obs, row);
    r.t.push_back(t);
    r.x.emplace_back(x, x + eq.stateSize());
    r.energy.push_back(row[energy]);
    r.frameEnergy.push_back(row[frame]);
    r.momentum.push_back(obs.momentum);
  });
  return r;
}

}  // namespace

class FrameEnergyTest : public QObject {
  Q_OBJECT

 private slots:
  // energy_frame follows energy in the columns of a system with a frame: declared (the
  // turntable), or Γ = 0 for linear constraints (then it equals the energy); an affine system
  // without a declared frame has none.
  void columnFollowsEnergy() {
    for (const char* name : {"ball_on_turntable", "ball_on_conveyor", "chaplygin_sleigh"}) {
      const EquationsOfMotion eq(findSystem(name), DynamicsKind::Nonholonomic);
      const std::vector<std::string> columns = outputColumns(eq);
      const auto energy = std::find(columns.begin(), columns.end(), "energy");
      QVERIFY2(energy + 1 < columns.end() && energy[1] == "energy_frame", name);
    }
    const auto sleigh = findSystem("chaplygin_sleigh");
    const EquationsOfMotion eq(sleigh, DynamicsKind::Nonholonomic);
    EquationsWorkspace ws(eq);
    const std::vector<double> x = initialState(eq, 0, {});
    Observables obs;
    eq.observe(ws, 0.3, x.data(), obs);
    QCOMPARE(frameEnergy(eq, 0.3, x.data(), obs), obs.energy);
  }

  // Constant Ω on a level table: T_Γ is kept to 1e-10 relative over 100 turns of the table,
  // while the energy E (the ball's circle is off the axis) changes by over 1 %.
  void conservedOnTheTurntable() {
    const auto system = findSystem("ball_on_turntable");
    Simulation sim(system, DynamicsKind::Nonholonomic, Formulation::Multipliers, tightOptions());
    sim.setParameters(resolveParameters(*system, {{"Omega0", 1.0}}));
    const std::vector<double> x0 = initialState(
        sim.equations(), 0, {{"x", 0.6}, {"y", 0.0}, {"vx", 0.0}, {"vy", 0.2}, {"wz", 2.0}});
    sim.setState(0, x0);
    const Record r = record(sim, 100 * 2 * M_PI, 0.05);
    double frameChange = 0, energyChange = 0;
    for (size_t i = 0; i < r.t.size(); ++i) {
      frameChange = std::max(frameChange, std::abs(r.frameEnergy[i] - r.frameEnergy[0]));
      energyChange = std::max(energyChange, std::abs(r.energy[i] - r.energy[0]));
    }
    frameChange /= std::abs(r.frameEnergy[0]);
    energyChange /= std::abs(r.energy[0]);
    qInfo("over 100 turns: energy_frame changed by %.3g, energy by %.3g (relative)", frameChange,
          energyChange);
    QVERIFY2(frameChange < 1e-10, qPrintable(QString::number(frameChange)));
    QVERIFY2(energyChange > 1e-2, qPrintable(QString::number(energyChange)));
  }

  // Ω(t) oscillating and growing on a tilted table: dT_Γ/dt along the recorded run (a
  // fourth-order difference of energy_frame over samples 1 ms apart) is the power of the
  // balance above, evaluated from the system's functions, and its closed form, to 1e-8.
  void balanceWithVaryingOmega() {
    const auto system = findSystem("ball_on_turntable");
    Simulation sim(system, DynamicsKind::Nonholonomic, Formulation::Multipliers, tightOptions());
    const std::vector<double> par = resolveParameters(*system, {{"Omega0", 1.0},
                                                                {"Omega_amp", 1.5},
                                                                {"Omega_freq", 0.8},
                                                                {"Omega_rate", 0.05},
                                                                {"tilt", 0.05}});
    sim.setParameters(par);
    const std::vector<double> x0 = initialState(
        sim.equations(), 0, {{"x", 0.6}, {"y", 0.0}, {"vx", 0.0}, {"vy", 0.2}, {"wz", 2.0}});
    sim.setState(0, x0);
    const double h = 1e-3;
    const Record r = record(sim, 8.0, h);
    const double m = par[system->parameterIndex("m")], radius = par[system->parameterIndex("r")];
    const double I = par[system->parameterIndex("inertia_ratio")] * m * radius * radius;
    const double g = par[system->parameterIndex("g")], tilt = par[system->parameterIndex("tilt")];
    double worst = 0, worstClosed = 0, largest = 0;
    for (size_t i = 2; i + 2 < r.t.size(); i += 97) {
      const double rate = (-r.frameEnergy[i + 2] + 8 * r.frameEnergy[i + 1] -
                           8 * r.frameEnergy[i - 1] + r.frameEnergy[i - 2]) /
                          (12 * h);
      const double power = framePower(sim.equations(), r.t[i], r.x[i], r.momentum[i]);
      const double t = r.t[i];
      const double Omega = 1.0 + 0.05 * t + 1.5 * std::sin(0.8 * t);
      const double OmegaDot = 0.05 + 1.5 * 0.8 * std::cos(0.8 * t);
      const std::vector<double>& x = r.x[i];  // x, y, qw, qx, qy, qz, vx, vy, wx, wy, wz
      const double Lz = m * (x[0] * x[7] - x[1] * x[6]) + I * x[10];
      const double closed = -OmegaDot * Lz - m * g * std::sin(tilt) * Omega * x[1];
      worst = std::max(worst, std::abs(rate - power));
      worstClosed = std::max(worstClosed, std::abs(power - closed));
      largest = std::max(largest, std::abs(power));
    }
    qInfo("dT/dt against the balance: %.3g, against its closed form: %.3g (|power| up to %.3g)",
          worst, worstClosed, largest);
    QVERIFY2(largest > 0.1, qPrintable(QString::number(largest)));  // the balance is not 0 = 0
    QVERIFY2(worst < 1e-8, qPrintable(QString::number(worst)));
    QVERIFY2(worstClosed < 1e-8, qPrintable(QString::number(worstClosed)));
  }
};

QTEST_GUILESS_MAIN(FrameEnergyTest)
#include "frame_energy_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
