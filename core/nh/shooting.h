// The boundary-value solver behind solveOptimalControl (optimal_control.cpp): multiple
// shooting on Pontryagin's equations (pontryagin.h), each segment's flow and its exact
// sensitivities integrated by DOP853 on a scaled state, and Newton's method on the shooting
// residuals made global by step halving and Levenberg–Marquardt steps.
#pragma once

#include <Eigen/Dense>
#include <Eigen/Geometry>
#include <functional>
#include <string>
#include <vector>

#include "core/nh/optimal_control.h"
#include "core/nh/pontryagin.h"

namespace nh::shooting {

// One end condition: a coordinate's value, or a unit quaternion's attitude (three residuals).
struct Target {
  bool quaternion = false;
  int index = 0;                // the coordinate, or the quaternion's first component
  double value = 0;             // a coordinate's final value
  Eigen::Quaterniond attitude;  // a quaternion's final value
  int rows() const { return quaternion ? 3 : 1; }
};

// The unit quaternion whose components start at q[first].
Eigen::Quaterniond attitudeAt(const Eigen::VectorXd& q, int first);

// Targets a fraction α of the way from the start (continuation, and the inner nodes' first
// guess): coordinates linearly, attitudes along the shortest arc.
std::vector<Target> partWay(const std::vector<Target>& targets, const Eigen::VectorXd& q0,
                            double alpha);

// One segment's flow: the state at its end, its sensitivity and its cost.
struct Flow {
  Eigen::VectorXd z;  // at the end
  Eigen::MatrixXd S;  // ∂z_end/∂z_start (when asked)
  double cost = 0;    // ∫ L dt over the segment
};

// The sizes the flow measures the path by: per component of z, and of the cost.
struct Scales {
  Eigen::VectorXd state;
  double cost = 1;
};

// The shooting problem: unknowns X = [ξ(0) (m) | z at the inner nodes (N each) | ν (r)],
// residuals [gaps at the inner nodes (N each) | target residuals (r) | ξ(T) − Bᵀν (m)].
class Shooting {
 public:
  Shooting(const PontryaginSystem& P, double T, int segments, Eigen::VectorXd q0,
           std::vector<Target> targets);

  int size() const { return P_.m() + (K_ - 1) * P_.N() + r_; }
  void setTargets(std::vector<Target> targets) { targets_ = std::move(targets); }
  void setStartW(const Eigen::VectorXd& w) { w0_ = w; }
  PontryaginSystem::Workspace& workspace() { return ws_; }
  double nodeTime(int i) const { return T_ * i / K_; }

  Eigen::VectorXd nodeState(const Eigen::VectorXd& X, int i) const;

  // X from ξ(0): the nodes on the path it starts (or held where that path fails), ν fitted.
  Eigen::VectorXd initial(const Eigen::VectorXd& xi0);

  // The targeted coordinates of a node a fraction `alpha` of the way from the start to the
  // targets (attitudes along the shortest arc).
  template <class Q>
  void interpolateTargets(Q q, double alpha) const {
    for (const Target& t : partWay(targets_, q0_, alpha)) {
      if (!t.quaternion) {
        q[t.index] = t.value;
        continue;
      }
      const Eigen::Quaterniond& b = t.attitude;
      q[t.index] = b.w(), q[t.index + 1] = b.x(), q[t.index + 2] = b.y(), q[t.index + 3] = b.z();
    }
  }

  // Residuals at X (and their Jacobian when J is given); the total cost in *cost. Throws
  // what the flow throws.
  Eigen::VectorXd evaluate(const Eigen::VectorXd& X, Eigen::MatrixXd* J, double* cost);

  // The sizes the residuals are measured by, from the path at X (evaluated last).
  void rescale(const Eigen::VectorXd& X);

  const Scales& scales() const { return scales_; }
  void setScales(const Scales& s) { scales_ = s; }

  // Per residual row, one over the size it is measured by (rescale).
  Eigen::VectorXd residualWeights() const;

  // The sampled path of a converged X: rows of the result's columns, one per sample time.
  void sample(const Eigen::VectorXd& X, double dt, Extremal& out);

 private:
  void place(Eigen::MatrixXd& J, int row, int i, const Eigen::MatrixXd& block) const;
  void endConditions(const Eigen::VectorXd& X, const Flow& last, Eigen::VectorXd& R,
                     Eigen::MatrixXd* J);
  void record(double t, const double* x, double before, Extremal& out);

  const PontryaginSystem& P_;
  PontryaginSystem::Workspace ws_;
  double T_;
  int K_;
  Eigen::VectorXd q0_, w0_;
  std::vector<Target> targets_;
  int r_ = 0;
  Scales scales_;
  Eigen::VectorXd end_;  // z(T) of the last evaluation
  double lastCost_ = 0;
};

// How Newton's method on the shooting residuals ended.
struct NewtonOutcome {
  bool converged = false;
  bool singular = false;  // the failure: ∂²H/∂w² singular (SingularControl)
  double residual = 0;
  int iterations = 0;
  double cost = 0;
  std::string failure;
};

// Newton's method on the residuals of S from X (updated in place) until their weighted size
// is below `tolerance` or `maxIterations` have passed; `tick` is called once an iteration.
NewtonOutcome newton(Shooting& S, Eigen::VectorXd& X, double tolerance, int maxIterations,
                     const std::function<void()>& tick);

}  // namespace nh::shooting
// SPDX-License-Identifier: GPL-3.0-or-later
