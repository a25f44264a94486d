// Exact derivatives of the nonholonomic right-hand side ẋ = f(t, x), x = (q, y), from the
// tape: ∂f/∂x at one state (stateJacobian, for the linearisation), and the derivatives the
// integrators with implicit steps read at every step (nh-rattle, the discrete gradient):
// ∂f/∂x and the velocity-level constraints with their Jacobian, compiled once
// (StateDerivatives, shared and immutable) and evaluated in storage the caller owns
// (StateDerivativesWorkspace).
#pragma once

#include <Eigen/Dense>
#include <cstdint>
#include <memory>

#include "core/nh/dynamics.h"

namespace nh {

namespace pieces {
class PiecesProgram;
}

// ∂f/∂x of the nonholonomic right-hand side at (t, x) (size n + m square, state order q, y).
// Throws InputError for vakonomic equations or when the system cannot be taped.
Eigen::MatrixXd stateJacobian(const EquationsOfMotion& equations, double t, const double* x);

// The storage an evaluation of StateDerivatives works in: owned by its caller, one per
// thread. Made empty; sized at its first use with a StateDerivatives (and again when used with
// another one), so that every later evaluation allocates nothing.
class StateDerivativesWorkspace {
 public:
  StateDerivativesWorkspace();
  ~StateDerivativesWorkspace();
  StateDerivativesWorkspace(StateDerivativesWorkspace&&) noexcept;
  StateDerivativesWorkspace& operator=(StateDerivativesWorkspace&&) noexcept;

 private:
  friend class StateDerivatives;
  struct Storage;
  std::unique_ptr<Storage> storage_;
};

// The derivatives a Newton iteration on the equations needs, compiled once from the tape
// (native code where available) and evaluated at any state: ∂f/∂x (as stateJacobian) and
// the velocity-level constraints Φ then ġ (k + h entries, as Observables::phi) with their
// Jacobian ∂/∂x, from a program of those alone. Immutable once made, so one object serves
// several threads, each with its own workspace. Throws InputError as stateJacobian does when
// constructed.
class StateDerivatives {
 public:
  explicit StateDerivatives(const EquationsOfMotion& equations);
  ~StateDerivatives();
  StateDerivatives(const StateDerivatives&) = delete;
  StateDerivatives& operator=(const StateDerivatives&) = delete;

  // ∂f/∂x at (t, x) into J, (n + m) square.
  void jacobian(StateDerivativesWorkspace& work, double t, const double* x,
                Eigen::Ref<Eigen::MatrixXd> J) const;
  // Φ then ġ at (t, x) into phi (k + h), and their derivatives into dphi ((k + h) × (n + m)).
  void constraints(StateDerivativesWorkspace& work, double t, const double* x,
                   Eigen::Ref<Eigen::VectorXd> phi, Eigen::Ref<Eigen::MatrixXd> dphi) const;

 private:
  // `work`'s storage, sized for this object's programs first when it is not.
  StateDerivativesWorkspace::Storage& storageIn(StateDerivativesWorkspace& work) const;

  std::unique_ptr<const pieces::PiecesProgram> program_;
  std::uint64_t id_;  // tells the storage sized for this object from that of another
};

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
