// Reduction and reconstruction (reconstruction.h, theory §1): which coordinates the equations
// never read, found on the tape, and the Reconstructor that carries them over each accepted
// step from the stepper's dense output, in pieces halved until their error estimate passes.
#include "core/nh/reconstruction.h"

#include <Eigen/Core>
#include <algorithm>
#include <bitset>
#include <cmath>

#include "core/nh/system.h"

namespace nh {

namespace {
constexpr int kMaxDepth = 17;  // 2¹⁶ = kMaxReconstructionPieces pieces at the deepest
using Coordinates = std::bitset<kMaxCoordinates>;

// The coordinates each tape node depends on (nodes are in topological order).
std::vector<Coordinates> coordinateDependencies(const Tape& tape, int n) {
  std::vector<Coordinates> deps(tape.size());
  for (int id = 0; id < tape.size(); ++id) {
    const SymNode& node = tape.at(id);
    if (node.op == SymOp::Var) {
      const int var = static_cast<int>(node.c);
      if (var >= 1 && var <= n) deps[id].set(var - 1);
      continue;
    }
    if (node.a >= 0) deps[id] |= deps[node.a];
    if (node.b >= 0) deps[id] |= deps[node.b];
  }
  return deps;
}

// Whether the rate v of quaternion coordinate `first + ·` is linear in the quaternion:
// every second derivative by its four coordinates folds to 0 on the tape.
bool linearInQuaternion(Tape& tape, const Sym& v, int first) {
  for (int k = 0; k < 4; ++k) {
    const Sym d = tape.derivative(v, 1 + first + k);
    for (int l = 0; l < 4; ++l) {
      const Sym dd = tape.derivative(d, 1 + first + l);
      if (!(tape.isConstant(dd.id) && tape.constantValue(dd.id) == 0)) return false;
    }
  }
  return true;
}

// The candidates for reconstruction (at first the coordinates the dynamics do not read),
// shrunk to a fixed point: a kept coordinate's rate may not read a candidate; a candidate's
// rate may read candidates only inside its own quaternion, and linearly there.
Coordinates shrinkCandidates(Tape& tape, const std::vector<Sym>& v,
                             const std::vector<Coordinates>& deps,
                             const std::vector<int>& quaternionOf, Coordinates candidates) {
  const int n = static_cast<int>(v.size());
  auto of = [&](const Sym& s) { return s.id >= 0 ? deps[s.id] : Coordinates(); };
  for (bool changed = true; changed;) {
    changed = false;
    for (int i = 0; i < n; ++i) {
      Coordinates reads = of(v[i]) & candidates;
      if (!candidates[i]) {
        if (reads.any()) {
          candidates &= ~reads;
          changed = true;
        }
        continue;
      }
      const int first = quaternionOf[i];
      bool keep = true;
      if (first < 0) {
        keep = reads.none();
      } else {
        for (int j = 0; j < 4; ++j) keep &= candidates[first + j];
        Coordinates own;
        for (int j = 0; j < 4; ++j) own.set(first + j);
        keep = keep && (reads & ~own).none() && linearInQuaternion(tape, v[i], first);
      }
      if (!keep) {
        if (first < 0) {
          candidates.reset(i);
        } else {
          for (int j = 0; j < 4; ++j) candidates.reset(first + j);
        }
        changed = true;
      }
    }
  }
  return candidates;
}

// G of every reconstructed quaternion must lie in a copy of su(2) (Ω² = −θ²·1 for the
// closed-form exponential): checked at a generic state.
bool quaternionKinematicsInSu2(const ReconstructionPlan& plan, int variableCount) {
  if (plan.quaternions.empty()) return true;
  std::vector<double> registers = plan.program.makeRegisters(), vars(variableCount);
  for (int i = 0; i < variableCount; ++i) vars[i] = 0.3 + 0.17 * i - 0.05 * i * i;
  plan.program.run(registers.data(), vars.data());
  const int base = static_cast<int>(plan.quadratures.size());
  for (std::size_t b = 0; b < plan.quaternions.size(); ++b) {
    Eigen::Matrix4d G;
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 4; ++k)
        G(j, k) =
            plan.program.output(registers.data(), base + 16 * static_cast<int>(b) + 4 * j + k);
    const double theta2 = G.squaredNorm() / 4;
    const bool su2 = (G + G.transpose()).norm() <= 1e-12 * std::sqrt(theta2) &&
                     (G * G + theta2 * Eigen::Matrix4d::Identity()).norm() <= 1e-12 * theta2;
    if (!su2 || theta2 == 0) return false;
  }
  return true;
}
}  // namespace

ReconstructionPlan planReconstruction(Tape& tape, const SystemModel& sys, int variableCount,
                                      const std::vector<Sym>& v, const std::vector<Sym>& read) {
  ReconstructionPlan plan;
  const int n = sys.n();
  if (sys.h() > 0) {
    plan.reason = "holonomic constraints (drift control moves coordinates)";
    return plan;
  }
  if (!sys.info().singularities.empty()) {
    plan.reason = "singular points are watched on the whole state";
    return plan;
  }
  const std::vector<Coordinates> deps = coordinateDependencies(tape, n);
  Coordinates readByDynamics;
  for (const Sym& s : read) readByDynamics |= s.id >= 0 ? deps[s.id] : Coordinates();
  Coordinates unread;
  for (int i = 0; i < n; ++i) unread.set(i, !readByDynamics[i]);
  std::vector<int> quaternionOf(n, -1);
  for (const auto& slot : sys.info().quaternions)
    for (int j = 0; j < 4; ++j) quaternionOf[slot.first + j] = slot.first;
  const Coordinates candidates = shrinkCandidates(tape, v, deps, quaternionOf, unread);
  if (candidates.none()) {
    plan.reason = "the equations read every coordinate";
    return plan;
  }
  std::vector<Sym> outputs;
  for (int i = 0; i < n; ++i)
    if (candidates[i] && quaternionOf[i] < 0) {
      plan.quadratures.push_back(i);
      outputs.push_back(v[i]);
    }
  for (const auto& slot : sys.info().quaternions) {
    if (!candidates[slot.first]) continue;
    plan.quaternions.push_back(slot.first);
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 4; ++k)
        outputs.push_back(tape.derivative(v[slot.first + j], 1 + slot.first + k));
  }
  const int stateSize = variableCount - 1;
  for (int x = 0; x < stateSize; ++x)
    if (x >= n || !candidates[x]) plan.reduced.push_back(x);
  plan.program = SymProgram(tape, variableCount, outputs);
  // A quaternion whose kinematics are not of that form is integrated in full.
  if (!quaternionKinematicsInSu2(plan, variableCount)) {
    ReconstructionPlan none;
    none.reason = "a quaternion's kinematics are not q̇ = ½ q ω";
    return none;
  }
  plan.entries = plan.quadratures;
  for (int first : plan.quaternions)
    for (int j = 0; j < 4; ++j) plan.entries.push_back(first + j);
  plan.available = true;
  return plan;
}

Reconstructor::Reconstructor(const ReconstructionPlan* plan, int n, int stateSize,
                             int variableCount)
    : plan_(plan), n_(n), stateSize_(stateSize), variableCount_(variableCount) {
  registers_ = plan_->program.makeRegisters();
  variables_.assign(variableCount_, 0.0);
  probe_.assign(stateSize_, 0.0);
  trial_.assign(stateSize_, 0.0);
  saved_.assign(stateSize_, 0.0);
  start_.assign(stateSize_, 0.0);
  const std::size_t nq = plan_->quaternions.size(), nd = plan_->quadratures.size();
  omega_.assign(2 * (kMaxDepth + 1), std::vector<double>(16 * nq));
  delta_.assign(2 * (kMaxDepth + 1), std::vector<double>(nd));
}

void Reconstructor::rebind(const ReconstructionPlan* plan) {
  plan_ = plan;
  registers_ = plan_->program.makeRegisters();
}

bool sameLayout(const ReconstructionPlan& a, const ReconstructionPlan& b) {
  return a.available == b.available && a.quadratures == b.quadratures &&
         a.quaternions == b.quaternions && a.entries == b.entries && a.reduced == b.reduced;
}

void Reconstructor::rule(const StateAt& stateAt, double a, double b, const double* x, double* omega,
                         double* delta) {
  // Gauss–Legendre nodes of order 6 and weights 5/18, 8/18, 5/18.
  static const double offset = std::sqrt(15.0) / 10;
  const double h = b - a;
  const double nodes[3] = {a + (0.5 - offset) * h, a + 0.5 * h, a + (0.5 + offset) * h};
  const int nd = static_cast<int>(plan_->quadratures.size());
  const int nq = static_cast<int>(plan_->quaternions.size());
  Eigen::Matrix4d G[3][4];  // per node, per quaternion (at most 4 quaternions: n ≤ 16)
  double v[3][kMaxCoordinates];
  std::copy(x, x + stateSize_, probe_.begin());
  for (int k = 0; k < 3; ++k) {
    stateAt(nodes[k], probe_.data());
    variables_[0] = nodes[k];
    std::copy(probe_.begin(), probe_.end(), variables_.begin() + 1);
    plan_->program.run(registers_.data(), variables_.data());
    for (int i = 0; i < nd; ++i) v[k][i] = plan_->program.output(registers_.data(), i);
    for (int blk = 0; blk < nq; ++blk)
      for (int j = 0; j < 4; ++j)
        for (int l = 0; l < 4; ++l)
          G[k][blk](j, l) = plan_->program.output(registers_.data(), nd + 16 * blk + 4 * j + l);
  }
  for (int i = 0; i < nd; ++i) delta[i] = h * (5 * v[0][i] + 8 * v[1][i] + 5 * v[2][i]) / 18;
  auto bracket = [](const Eigen::Matrix4d& X, const Eigen::Matrix4d& Y) -> Eigen::Matrix4d {
    return X * Y - Y * X;
  };
  for (int blk = 0; blk < nq; ++blk) {
    // Sixth-order Magnus with three Gauss points (Blanes, Casas & Ros, BIT 40, 2000).
    const Eigen::Matrix4d a1 = h * G[1][blk];
    const Eigen::Matrix4d a2 = (std::sqrt(15.0) * h / 3) * (G[2][blk] - G[0][blk]);
    const Eigen::Matrix4d a3 = (10 * h / 3) * (G[2][blk] - 2 * G[1][blk] + G[0][blk]);
    const Eigen::Matrix4d c1 = bracket(a1, a2);
    const Eigen::Matrix4d c2 = bracket(a1, 2 * a3 + c1) / -60.0;
    const Eigen::Matrix4d omegaB = a1 + a3 / 12 + bracket(-20 * a1 - a3 + c1, a2 + c2) / 240;
    std::copy(omegaB.data(), omegaB.data() + 16, omega + 16 * blk);
  }
}

void Reconstructor::apply(const double* omega, const double* delta, double* x) const {
  const int nd = static_cast<int>(plan_->quadratures.size());
  for (int i = 0; i < nd; ++i) x[plan_->quadratures[i]] += delta[i];
  for (std::size_t b = 0; b < plan_->quaternions.size(); ++b) {
    const Eigen::Map<const Eigen::Matrix4d> O(omega + 16 * b);
    const double theta = std::sqrt(O.squaredNorm() / 4);
    const double c = std::cos(theta),
                 s = theta > 1e-8 ? std::sin(theta) / theta : 1 - theta * theta / 6;
    double* q = x + plan_->quaternions[b];
    const Eigen::Vector4d q0(q[0], q[1], q[2], q[3]);
    const Eigen::Vector4d q1 = c * q0 + s * (O * q0);
    for (int j = 0; j < 4; ++j) q[j] = q1[j];
  }
}

bool Reconstructor::piece(const StateAt& stateAt, double a, double b, const double* omegaWhole,
                          const double* deltaWhole, double* x, int depth, double atol, double rtol,
                          int& budget) {
  double* omegaL = omega_[2 * depth].data();
  double* omegaR = omega_[2 * depth + 1].data();
  double* deltaL = delta_[2 * depth].data();
  double* deltaR = delta_[2 * depth + 1].data();
  const double mid = 0.5 * (a + b);
  rule(stateAt, a, mid, x, omegaL, deltaL);
  rule(stateAt, mid, b, x, omegaR, deltaR);
  budget -= 2;
  std::copy(x, x + stateSize_, trial_.begin());
  apply(omegaWhole, deltaWhole, trial_.data());  // the whole piece in one
  double* fine = saved_.data();
  std::copy(x, x + stateSize_, fine);
  apply(omegaL, deltaL, fine);
  apply(omegaR, deltaR, fine);
  // Step doubling: the two halves' result is off by about |whole − halves|/(2⁶ − 1).
  double error = 0;
  auto measure = [&](int i) {
    error = std::max(error, std::abs(trial_[i] - fine[i]) / 63 /
                                (atol + rtol * std::max(std::abs(fine[i]), std::abs(x[i]))));
  };
  for (int i : plan_->entries) measure(i);
  if (!(error <= 1) && (depth + 1 >= kMaxDepth || budget <= 0)) return false;
  if (error <= 1) {
    for (int i : plan_->entries) x[i] = fine[i];
    pieces_ += 2;
    return true;
  }
  // Deeper levels use their own slots, so this level's halves survive the left recursion.
  return piece(stateAt, a, mid, omegaL, deltaL, x, depth + 1, atol, rtol, budget) &&
         piece(stateAt, mid, b, omegaR, deltaR, x, depth + 1, atol, rtol, budget);
}

bool Reconstructor::advance(const StateAt& stateAt, double a, double b, double* x, double atol,
                            double rtol) {
  if (!(b > a)) return true;
  std::vector<double>& omegaWhole = omega_[2 * kMaxDepth];
  std::vector<double>& deltaWhole = delta_[2 * kMaxDepth];
  rule(stateAt, a, b, x, omegaWhole.data(), deltaWhole.data());
  std::vector<double>& start = start_;
  std::copy(x, x + stateSize_, start.begin());
  int budget = kMaxReconstructionPieces;
  if (piece(stateAt, a, b, omegaWhole.data(), deltaWhole.data(), x, 0, atol, rtol, budget))
    return true;
  std::copy(start.begin(), start.end(), x);
  return false;
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
