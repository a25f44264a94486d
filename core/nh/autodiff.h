// Forward-mode automatic differentiation for the equations of motion (theory §2–3).
//
// Jet1: value and gradient.  Jet2: value, gradient and the Hessian over the first n2
// variables (the velocities y and the time direction s); the remaining variables (the
// anchor directions σ) only carry first derivatives, which is all the equations need.
// Tangent<S>: one directional derivative over any scalar S, used to differentiate a
// holonomic constraint g(t, q) along the motion (ġ = g_t + g_q ρ y) inside another jet.
//
// Capacities are fixed so that no jet ever allocates; only the active entries are touched.
// A jet with n == 0 is a constant; binary operations take the cheap path for constants.
#pragma once

#include <algorithm>
#include <cmath>

namespace nh {

inline constexpr int kMaxVelocities = 12;                // m: quasi-velocities per system
inline constexpr int kMaxCoordinates = 16;               // n: configuration coordinates
inline constexpr int kMaxConstraints = 8;                // k: constraints (incl. holonomic)
inline constexpr int kJetSize = 2 * kMaxVelocities + 1;  // y, s, σ directions
inline constexpr int kJetSecondOrder = kMaxVelocities + 1;
inline constexpr int kHessianSize = kJetSecondOrder * (kJetSecondOrder + 1) / 2;

struct Jet1 {
  double v = 0;
  int n = 0;
  double g[kJetSize];

  Jet1() = default;
  Jet1(double value) : v(value) {}  // NOLINT: constants convert implicitly, as doubles do
};

struct Jet2 {
  double v = 0;
  int n = 0;   // gradient entries
  int n2 = 0;  // Hessian dimension (first n2 variables)
  double g[kJetSize];
  double h[kHessianSize];  // packed lower triangle, row i holds columns 0..i

  Jet2() = default;
  Jet2(double value) : v(value) {}  // NOLINT
  static constexpr int index(int i, int j) {
    return i >= j ? i * (i + 1) / 2 + j : j * (j + 1) / 2 + i;
  }
  double hess(int i, int j) const { return h[index(i, j)]; }
};

inline double value(double x) { return x; }
inline double value(const Jet1& x) { return x.v; }
inline double value(const Jet2& x) { return x.v; }

// ---- Jet1 ---------------------------------------------------------------------------------

namespace detail {
// r = f(x) with f'(x) = d1 (and f''(x) = d2 for Jet2).
inline Jet1 chain(const Jet1& x, double f, double d1) {
  Jet1 r(f);
  r.n = x.n;
  for (int i = 0; i < x.n; ++i) r.g[i] = d1 * x.g[i];
  return r;
}
inline Jet2 chain(const Jet2& x, double f, double d1, double d2) {
  Jet2 r(f);
  r.n = x.n;
  r.n2 = x.n2;
  for (int i = 0; i < x.n; ++i) r.g[i] = d1 * x.g[i];
  for (int i = 0, k = 0; i < x.n2; ++i)
    for (int j = 0; j <= i; ++j, ++k) r.h[k] = d1 * x.h[k] + d2 * x.g[i] * x.g[j];
  return r;
}
inline Jet1 chain(const Jet1& x, double f, double d1, double /*d2*/) { return chain(x, f, d1); }
// c·x: the linear case of chain, without the (zero) second-order term.
inline Jet2 scale(const Jet2& x, double c) {
  Jet2 r(c * x.v);
  r.n = x.n;
  r.n2 = x.n2;
  for (int i = 0; i < x.n; ++i) r.g[i] = c * x.g[i];
  const int nh = x.n2 * (x.n2 + 1) / 2;
  for (int k = 0; k < nh; ++k) r.h[k] = c * x.h[k];
  return r;
}
inline Jet1 scale(const Jet1& x, double c) { return chain(x, c * x.v, c); }
}  // namespace detail

inline Jet1 operator-(const Jet1& a) { return detail::chain(a, -a.v, -1.0); }
// Gradients may differ in length (velocity seeds carry fewer directions than coordinate
// seeds); missing entries are zero.
inline Jet1 operator+(const Jet1& a, const Jet1& b) {
  if (b.n == 0) {
    Jet1 r = a;
    r.v += b.v;
    return r;
  }
  if (a.n == 0) {
    Jet1 r = b;
    r.v += a.v;
    return r;
  }
  const Jet1& longer = a.n >= b.n ? a : b;
  const int lo = std::min(a.n, b.n);
  Jet1 r(a.v + b.v);
  r.n = longer.n;
  for (int i = 0; i < lo; ++i) r.g[i] = a.g[i] + b.g[i];
  for (int i = lo; i < longer.n; ++i) r.g[i] = longer.g[i];
  return r;
}
inline Jet1 operator-(const Jet1& a, const Jet1& b) {
  if (b.n == 0) {
    Jet1 r = a;
    r.v -= b.v;
    return r;
  }
  if (a.n == 0) {
    Jet1 r = -b;
    r.v += a.v;
    return r;
  }
  const int lo = std::min(a.n, b.n);
  Jet1 r(a.v - b.v);
  r.n = std::max(a.n, b.n);
  for (int i = 0; i < lo; ++i) r.g[i] = a.g[i] - b.g[i];
  for (int i = lo; i < a.n; ++i) r.g[i] = a.g[i];
  for (int i = lo; i < b.n; ++i) r.g[i] = -b.g[i];
  return r;
}
inline Jet1 operator*(const Jet1& a, const Jet1& b) {
  if (a.n == 0) return detail::chain(b, a.v * b.v, a.v);
  if (b.n == 0) return detail::chain(a, a.v * b.v, b.v);
  const int lo = std::min(a.n, b.n);
  Jet1 r(a.v * b.v);
  r.n = std::max(a.n, b.n);
  for (int i = 0; i < lo; ++i) r.g[i] = a.v * b.g[i] + b.v * a.g[i];
  for (int i = lo; i < a.n; ++i) r.g[i] = b.v * a.g[i];
  for (int i = lo; i < b.n; ++i) r.g[i] = a.v * b.g[i];
  return r;
}
inline Jet1 operator/(const Jet1& a, const Jet1& b) {
  if (b.n == 0) return detail::chain(a, a.v / b.v, 1.0 / b.v);
  const double inv = 1.0 / b.v;
  return a * detail::chain(b, inv, -inv * inv);
}

// ---- Jet2 ---------------------------------------------------------------------------------

inline Jet2 operator-(const Jet2& a) { return detail::chain(a, -a.v, -1.0, 0.0); }
// Non-constant jets share n2; their gradients may differ in length (see Jet1).
inline Jet2 operator+(const Jet2& a, const Jet2& b) {
  if (b.n == 0) {
    Jet2 r = a;
    r.v += b.v;
    return r;
  }
  if (a.n == 0) {
    Jet2 r = b;
    r.v += a.v;
    return r;
  }
  const Jet2& longer = a.n >= b.n ? a : b;
  const int lo = std::min(a.n, b.n);
  Jet2 r(a.v + b.v);
  r.n = longer.n;
  r.n2 = a.n2;
  for (int i = 0; i < lo; ++i) r.g[i] = a.g[i] + b.g[i];
  for (int i = lo; i < longer.n; ++i) r.g[i] = longer.g[i];
  const int nh = a.n2 * (a.n2 + 1) / 2;
  for (int k = 0; k < nh; ++k) r.h[k] = a.h[k] + b.h[k];
  return r;
}
inline Jet2 operator-(const Jet2& a, const Jet2& b) {
  if (b.n == 0) {
    Jet2 r = a;
    r.v -= b.v;
    return r;
  }
  if (a.n == 0) {
    Jet2 r = -b;
    r.v += a.v;
    return r;
  }
  const int lo = std::min(a.n, b.n);
  Jet2 r(a.v - b.v);
  r.n = std::max(a.n, b.n);
  r.n2 = a.n2;
  for (int i = 0; i < lo; ++i) r.g[i] = a.g[i] - b.g[i];
  for (int i = lo; i < a.n; ++i) r.g[i] = a.g[i];
  for (int i = lo; i < b.n; ++i) r.g[i] = -b.g[i];
  const int nh = a.n2 * (a.n2 + 1) / 2;
  for (int k = 0; k < nh; ++k) r.h[k] = a.h[k] - b.h[k];
  return r;
}
inline Jet2 operator*(const Jet2& a, const Jet2& b) {
  if (a.n == 0) return detail::scale(b, a.v);
  if (b.n == 0) return detail::scale(a, b.v);
  const int lo = std::min(a.n, b.n);
  Jet2 r(a.v * b.v);
  r.n = std::max(a.n, b.n);
  r.n2 = a.n2;
  for (int i = 0; i < lo; ++i) r.g[i] = a.v * b.g[i] + b.v * a.g[i];
  for (int i = lo; i < a.n; ++i) r.g[i] = b.v * a.g[i];
  for (int i = lo; i < b.n; ++i) r.g[i] = a.v * b.g[i];
  for (int i = 0, k = 0; i < a.n2; ++i)
    for (int j = 0; j <= i; ++j, ++k)
      r.h[k] = a.v * b.h[k] + b.v * a.h[k] + a.g[i] * b.g[j] + a.g[j] * b.g[i];
  return r;
}
inline Jet2 operator/(const Jet2& a, const Jet2& b) {
  if (b.n == 0) return detail::scale(a, 1.0 / b.v);
  const double inv = 1.0 / b.v;
  return a * detail::chain(b, inv, -inv * inv, 2.0 * inv * inv * inv);
}

// Mixed double/jet arithmetic goes through the implicit constant conversion.
#define NH_JET_MIXED_OPS(J)                                                                       \
  inline J operator+(const J& a, double b) { return a + J(b); }                                   \
  inline J operator+(double a, const J& b) { return J(a) + b; }                                   \
  inline J operator-(const J& a, double b) { return a - J(b); }                                   \
  inline J operator-(double a, const J& b) { return J(a) - b; }                                   \
  inline J operator*(const J& a, double b) { return detail::scale(a, b); }                        \
  inline J operator*(double a, const J& b) { return detail::scale(b, a); }                        \
  inline J operator/(const J& a, double b) { return detail::scale(a, 1.0 / b); }                  \
  inline J operator/(double a, const J& b) { return J(a) / b; }                                   \
  inline J& operator+=(J& a, const J& b) { return a = a + b; }                                    \
  inline J& operator-=(J& a, const J& b) { return a = a - b; }                                    \
  inline J& operator*=(J& a, const J& b) { return a = a * b; }                                    \
  inline J& operator/=(J& a, const J& b) { return a = a / b; }                                    \
  inline bool operator<(const J& a, const J& b) { return a.v < b.v; }                             \
  inline bool operator>(const J& a, const J& b) { return a.v > b.v; }                             \
  inline bool operator<=(const J& a, const J& b) { return a.v <= b.v; }                           \
  inline bool operator>=(const J& a, const J& b) { return a.v >= b.v; }                           \
  inline J sin(const J& x) {                                                                      \
    return detail::chain(x, std::sin(x.v), std::cos(x.v), -std::sin(x.v));                        \
  }                                                                                               \
  inline J cos(const J& x) {                                                                      \
    return detail::chain(x, std::cos(x.v), -std::sin(x.v), -std::cos(x.v));                       \
  }                                                                                               \
  inline J tan(const J& x) {                                                                      \
    const double t = std::tan(x.v), d = 1 + t * t;                                                \
    return detail::chain(x, t, d, 2 * t * d);                                                     \
  }                                                                                               \
  inline J exp(const J& x) {                                                                      \
    const double e = std::exp(x.v);                                                               \
    return detail::chain(x, e, e, e);                                                             \
  }                                                                                               \
  inline J log(const J& x) { return detail::chain(x, std::log(x.v), 1 / x.v, -1 / (x.v * x.v)); } \
  inline J sqrt(const J& x) {                                                                     \
    const double s = std::sqrt(x.v);                                                              \
    return detail::chain(x, s, 0.5 / s, -0.25 / (s * x.v));                                       \
  }                                                                                               \
  inline J pow(const J& x, double p) {                                                            \
    return detail::chain(x, std::pow(x.v, p), p * std::pow(x.v, p - 1),                           \
                         p * (p - 1) * std::pow(x.v, p - 2));                                     \
  }                                                                                               \
  inline J atan(const J& x) {                                                                     \
    const double d = 1 / (1 + x.v * x.v);                                                         \
    return detail::chain(x, std::atan(x.v), d, -2 * x.v * d * d);                                 \
  }                                                                                               \
  inline J abs(const J& x) { return x.v < 0 ? -x : x; }                                           \
  inline J atan2(const J& y, const J& x) {                                                        \
    J r = std::abs(x.v) >= std::abs(y.v) ? atan(y / x) : -atan(x / y);                            \
    r.v = std::atan2(y.v, x.v);                                                                   \
    return r;                                                                                     \
  }

NH_JET_MIXED_OPS(Jet1)
NH_JET_MIXED_OPS(Jet2)
#undef NH_JET_MIXED_OPS

// ---- Tangent<S>: one directional derivative over a scalar S ------------------------------

template <class S>
struct Tangent {
  S v{};
  S d{};
  Tangent() = default;
  Tangent(double value) : v(value), d(0.0) {}  // NOLINT
  Tangent(S value, S derivative) : v(value), d(derivative) {}
};

template <class S>
Tangent<S> operator-(const Tangent<S>& a) {
  return {-a.v, -a.d};
}
template <class S>
Tangent<S> operator+(const Tangent<S>& a, const Tangent<S>& b) {
  return {a.v + b.v, a.d + b.d};
}
template <class S>
Tangent<S> operator-(const Tangent<S>& a, const Tangent<S>& b) {
  return {a.v - b.v, a.d - b.d};
}
template <class S>
Tangent<S> operator*(const Tangent<S>& a, const Tangent<S>& b) {
  return {a.v * b.v, a.v * b.d + a.d * b.v};
}
template <class S>
Tangent<S> operator/(const Tangent<S>& a, const Tangent<S>& b) {
  const S q = a.v / b.v;
  return {q, (a.d - q * b.d) / b.v};
}
template <class S>
Tangent<S> operator+(const Tangent<S>& a, double b) {
  return {a.v + b, a.d};
}
template <class S>
Tangent<S> operator+(double a, const Tangent<S>& b) {
  return {a + b.v, b.d};
}
template <class S>
Tangent<S> operator-(const Tangent<S>& a, double b) {
  return {a.v - b, a.d};
}
template <class S>
Tangent<S> operator-(double a, const Tangent<S>& b) {
  return {a - b.v, -b.d};
}
template <class S>
Tangent<S> operator*(const Tangent<S>& a, double b) {
  return {a.v * b, a.d * b};
}
template <class S>
Tangent<S> operator*(double a, const Tangent<S>& b) {
  return {a * b.v, a * b.d};
}
template <class S>
Tangent<S> operator/(const Tangent<S>& a, double b) {
  return {a.v / b, a.d / b};
}
template <class S>
Tangent<S> operator/(double a, const Tangent<S>& b) {
  return Tangent<S>(a) / b;
}
template <class S>
Tangent<S>& operator+=(Tangent<S>& a, const Tangent<S>& b) {
  return a = a + b;
}
template <class S>
Tangent<S>& operator-=(Tangent<S>& a, const Tangent<S>& b) {
  return a = a - b;
}
template <class S>
Tangent<S>& operator*=(Tangent<S>& a, const Tangent<S>& b) {
  return a = a * b;
}
template <class S>
bool operator<(const Tangent<S>& a, const Tangent<S>& b) {
  return value(a.v) < value(b.v);
}
template <class S>
bool operator>(const Tangent<S>& a, const Tangent<S>& b) {
  return value(a.v) > value(b.v);
}
template <class S>
double value(const Tangent<S>& x) {
  return value(x.v);
}

template <class S>
Tangent<S> sin(const Tangent<S>& x) {
  using std::cos, std::sin;
  return {sin(x.v), cos(x.v) * x.d};
}
template <class S>
Tangent<S> cos(const Tangent<S>& x) {
  using std::cos, std::sin;
  return {cos(x.v), -sin(x.v) * x.d};
}
template <class S>
Tangent<S> tan(const Tangent<S>& x) {
  using std::tan;
  const S t = tan(x.v);
  return {t, (1.0 + t * t) * x.d};
}
template <class S>
Tangent<S> exp(const Tangent<S>& x) {
  using std::exp;
  const S e = exp(x.v);
  return {e, e * x.d};
}
template <class S>
Tangent<S> log(const Tangent<S>& x) {
  using std::log;
  return {log(x.v), x.d / x.v};
}
template <class S>
Tangent<S> sqrt(const Tangent<S>& x) {
  using std::sqrt;
  const S s = sqrt(x.v);
  return {s, x.d / (2.0 * s)};
}
template <class S>
Tangent<S> pow(const Tangent<S>& x, double p) {
  using std::pow;
  return {pow(x.v, p), p * pow(x.v, p - 1) * x.d};
}
template <class S>
Tangent<S> atan(const Tangent<S>& x) {
  using std::atan;
  return {atan(x.v), x.d / (1.0 + x.v * x.v)};
}
template <class S>
Tangent<S> abs(const Tangent<S>& x) {
  return value(x.v) < 0 ? -x : x;
}
template <class S>
Tangent<S> atan2(const Tangent<S>& y, const Tangent<S>& x) {
  using std::atan2;
  return {atan2(y.v, x.v), (x.v * y.d - y.v * x.d) / (x.v * x.v + y.v * y.v)};
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
