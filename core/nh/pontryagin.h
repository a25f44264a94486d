// The Pontryagin system of an optimal-control or vakonomic problem (optimal_control.h) on
// the tape: z = (q, ξ), algebraic unknowns w solved from ∂H/∂w = 0 by Newton's method, and
// the total Jacobian of ż for the variational equations. Internal to core/nh.
#pragma once

#include <Eigen/Dense>
#include <memory>
#include <string>
#include <vector>

#include "core/nh/symbolic.h"
#include "core/nh/system.h"

namespace nh {

// ∂²H/∂w² singular, or Newton for w failing: the extremal is not regular there.
class SingularControl : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class PontryaginSystem {
 public:
  // Tapes H for the system with parameters p (all of them). Throws InputError when the
  // system's functions cannot be recorded on the tape or it has generalised forces.
  PontryaginSystem(std::shared_ptr<const SystemModel> system, std::vector<double> parameters);

  const SystemModel& system() const { return *system_; }
  const std::vector<double>& parameters() const { return parameters_; }
  bool vakonomic() const { return vakonomic_; }
  int n() const { return n_; }
  int m() const { return m_; }
  int N() const { return n_ + m_; }        // z = (q, ξ)
  int unknownsW() const { return c_; }     // controls, or velocities and multipliers
  int multipliers() const { return kt_; }  // vakonomic: μ's count
  bool linearInW() const { return linear_; }
  // Whether the rate of coordinate a reads the unknowns w, directly or through coordinates
  // whose rates do (structurally, on the tape).
  const std::vector<bool>& movable() const { return movable_; }

  // Per-caller scratch: the program's registers and the last w (Newton's warm start).
  struct Workspace {
    std::vector<double> registers, endRegisters, variables;
    Eigen::VectorXd w;
    Eigen::MatrixXd jacobian;  // N×N: dż/dz with w(z) eliminated
    // Scratch of solveW and rates, sized once: ∂H/∂w, its Jacobian and that Jacobian's LU
    // (current: factorised at the w the outputs hold), ∂²H/∂w∂z, ∂ż/∂w.
    Eigen::VectorXd G, step;
    Eigen::MatrixXd Gw, Gz, Fw, dwdz;
    Eigen::PartialPivLU<Eigen::MatrixXd> lu;
    bool luCurrent = false;
  };
  Workspace makeWorkspace() const;
  void resetW(Workspace& ws, const Eigen::VectorXd& w) const { ws.w = w; }

  // Solves ∂H/∂w = 0 at (t, z) from ws.w, then writes ż (N) and the running cost L; with
  // wantJacobian, also ws.jacobian. Throws SingularControl.
  double rates(Workspace& ws, double t, const double* z, double* zdot, bool wantJacobian) const;
  // f (the velocities) at the last point rates() solved.
  Eigen::VectorXd section(const Workspace& ws) const;
  // ∂H/∂w at (t, z, w) without solving (the residual of w), for seeding costates.
  Eigen::VectorXd dHdw(Workspace& ws, double t, const double* z, const Eigen::VectorXd& w) const;
  // ρ(q) (n×m) and ∂ρ/∂q^b (n×m each) at q.
  void anchorAndDerivative(Workspace& ws, const double* q, Eigen::MatrixXd& rho,
                           std::vector<Eigen::MatrixXd>& dRho) const;

 private:
  void record();
  void solveW(Workspace& ws) const;
  void loadG(Workspace& ws) const;      // G and Gw from the program's outputs
  void factorise(Workspace& ws) const;  // ws.lu of Gw; throws SingularControl

  std::shared_ptr<const SystemModel> system_;
  std::vector<double> parameters_;
  bool vakonomic_ = false, linear_ = false;
  int n_ = 0, m_ = 0, c_ = 0, kt_ = 0;
  std::vector<bool> movable_;
  SymProgram program_;     // F, G, Gw, Gz, Fz, Fw, L, f
  SymProgram endProgram_;  // ρ, ∂ρ/∂q
  int oF_ = 0, oG_ = 0, oGw_ = 0, oGz_ = 0, oFz_ = 0, oFw_ = 0, oL_ = 0, oSection_ = 0;
};

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
