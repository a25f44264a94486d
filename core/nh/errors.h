// Typed exceptions for errors a user can act on (style guide: "Errors").
#pragma once

#include <stdexcept>
#include <string>

namespace nh {

// Base of every user-facing error: the message says what was wrong and what is allowed.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Unknown names, out-of-range or non-finite values.
class InputError : public Error {
 public:
  using Error::Error;
};

// M or A M⁻¹ Aᵀ (numerically) singular: the constrained system is not regular.
class SingularSystemError : public Error {
 public:
  SingularSystemError(const std::string& message, double time, double conditionNumber)
      : Error(message), time_(time), conditionNumber_(conditionNumber) {}
  double time() const { return time_; }
  double conditionNumber() const { return conditionNumber_; }

 private:
  double time_;
  double conditionNumber_;
};

// The integration failed (non-finite state, step size underflow).
class IntegrationError : public Error {
 public:
  IntegrationError(const std::string& message, double time) : Error(message), time_(time) {}
  double time() const { return time_; }

 private:
  double time_;
};

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
